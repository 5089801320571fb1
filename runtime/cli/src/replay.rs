//! `cav replay`: an event log of `cav play --log` played again on the current content. The log's
//! first line is a header that pins it to the content it ran on (the content hash, pack
//! versions, a digest of every document and script) and holds what replays the game (ruleset,
//! scenario, seed, the rosters); the replay says what changed since, then whether the game still
//! plays event for event the same, and where it first does not.

use std::collections::BTreeMap;
use std::io::{BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use serde::{Deserialize, Serialize};

use crate::EXIT_INVALID;
use crate::project::content_errors;
use crate::result_cache::RulesCache;
use crate::rosters::{Chosen, InvalidRoster, pick};
use crate::runner::{Content, Forces, KeptGame, kept_game, load_and_keep, play_game};

/// The header's format; a log of another format is refused, not guessed at.
pub const FORMAT: u32 = 1;

/// The largest log `cav replay` reads. A full-rules game of two 10,000 TV forces writes under
/// 1 MB; this leaves room for far longer games while bounding what a hostile file can make us
/// read (the limits of `cav-format` are about content packs, not logs).
const MAX_LOG_BYTES: u64 = 256 * 1024 * 1024;
/// The largest log the replay viewer (`--html`) embeds: the page holds the whole log and redraws
/// from its start, and the events are held as JSON trees while it is written (~10× the text). A
/// full-rules game of two 2,000 TV forces writes ~160 KB.
const MAX_VIEWER_LOG_BYTES: u64 = 16 * 1024 * 1024;
/// The longest line: the header lists every document of a ruleset (tens of kB for the full
/// rules with the mods) and the rosters; an event is a few hundred bytes.
const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;
/// Most models a recorded roster may field (a header is untrusted input: this keeps one from
/// asking for billions). A roster's own schema allows 99 copies a line.
const MAX_RECORDED_MODELS: u64 = cav_format::limits::MAX_MODELS as u64;
const MAX_MODEL_COUNT: u32 = 99;
/// Names of changed documents and scripts listed per kind of change before "… and N more".
const MAX_LISTED: usize = 40;
/// Characters of an event shown when the replay differs.
const MAX_SHOWN: usize = 600;

#[derive(Args)]
#[command(after_help = "The log's first line is the header `cav play --log` writes: the ruleset, scenario, seed and \
    rosters that replay the game, and what it ran on — the content hash (`cav sim` pins its results to the same hash), \
    the packs and their versions, and a short digest of every document and script.\n\
    When the content is unchanged the game is replayed and its events compared with the log's: `replayed N events: \
    identical`. When it changed, the documents changed, added and removed (kind/id and pack), the scripts and the pack \
    versions are listed first; then the replay names the first event that differs (was/now, models by name), or says \
    the game still plays identically.\n\
    Exit codes: 0 the replay is identical, 1 it diverges (or the content has errors), 2 the log cannot be replayed \
    (no header, another format, truncated, not a log).\n\
    Examples:\n  cav play --seed 7 --log game.jsonl && cav replay game.jsonl\n  \
    cav replay game.jsonl                     after editing a pack: what changed, and the first event it changed\n  \
    cav replay game.jsonl --ruleset my-rules  the same game under a ruleset pack of your own\n  \
    cav replay game.jsonl --html game.html    the replay viewer: open game.html in a browser\n  \
    cav --root ../old-checkout replay game.jsonl")]
pub struct ReplayCommand {
    /// An event log written by `cav play --log FILE`.
    log: PathBuf,
    /// Replay under this ruleset (`quickstart`, `full`, or a ruleset pack id) instead of the
    /// one the log names.
    #[arg(long)]
    ruleset: Option<String>,
    /// Also write the replay viewer to FILE: one self-contained HTML page that steps through the
    /// log's events (the board, the current roll with its dice and modifiers, damage, a timeline).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// One side's roster as the game fielded it.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideForce {
    pub side: String,
    /// `roster`: a `--force` file; `bot`: built by the bot (`--faction`, `--tv`).
    pub from: String,
    pub force: cav_format::Force,
}

/// A pack the content was loaded with, in load order.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackPin {
    pub id: String,
    pub version: String,
}

/// What a ruleset's content was, compactly: enough to say which documents and scripts differ.
#[derive(Serialize, Deserialize)]
pub struct Pins {
    content_hash: String,
    packs: Vec<PackPin>,
    documents: BTreeMap<String, BTreeMap<String, String>>,
    scripts: BTreeMap<String, BTreeMap<String, String>>,
}

/// The first line of an event log. No clock, no path: the same seed and content give the same
/// header, byte for byte.
#[derive(Serialize, Deserialize)]
pub struct Header {
    /// Always `header`.
    kind: String,
    /// [`FORMAT`].
    format: u32,
    /// The version of `cav` that wrote the log.
    cav: String,
    ruleset: String,
    scenario: String,
    seed: u64,
    /// How many events follow (a log cut short at a line's end is told from a whole one).
    events: u64,
    /// Each side's roster, for a scenario that leaves forces to the players.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    forces: Vec<SideForce>,
    /// The sides the searching bot played (`cav play --bot`); none: the rules bot played all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    search_bot: Vec<String>,
    /// `cav_lab::content_hash` of the ruleset: every resolved document and script.
    content_hash: String,
    packs: Vec<PackPin>,
    /// Pack → `kind/id` → digest of the resolved document (the pack that defines it; a patch
    /// from another pack changes the digest).
    documents: BTreeMap<String, BTreeMap<String, String>>,
    /// Pack → script path inside the pack → digest of the file.
    scripts: BTreeMap<String, BTreeMap<String, String>>,
}

impl Pins {
    /// `cav_lab::content_hash` of the ruleset.
    pub fn content_hash(&self) -> &str {
        &self.content_hash
    }
}

impl Header {
    pub fn new(
        ruleset: &str,
        scenario: &str,
        seed: u64,
        events: usize,
        forces: Vec<SideForce>,
        search_bot: Vec<String>,
        pins: Pins,
    ) -> Header {
        Header {
            kind: "header".to_owned(),
            format: FORMAT,
            cav: env!("CARGO_PKG_VERSION").to_owned(),
            ruleset: ruleset.to_owned(),
            scenario: scenario.to_owned(),
            seed,
            events: events as u64,
            forces,
            search_bot,
            content_hash: pins.content_hash,
            packs: pins.packs,
            documents: pins.documents,
            scripts: pins.scripts,
        }
    }
}

/// A short, stable digest (64-bit FNV-1a, hex). Not cryptographic: it only names what changed;
/// the content hash (SHA-256) is what pins the log.
#[derive(Clone, Copy)]
struct Digest(u64);

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn hex(self) -> String {
        format!("{:016x}", self.0)
    }
}

/// The pins of a ruleset's content as loaded now.
pub fn pins(rs: &cav_content::Ruleset) -> Result<Pins, String> {
    let content_hash = cav_lab::content_hash(rs)?;
    let packs = rs.packs.iter().map(|p| PackPin { id: p.id.clone(), version: p.version.to_string() }).collect();
    let mut documents: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for e in rs.entries() {
        let mut d = Digest::new();
        d.update(&serde_json::to_vec(&*e.value).map_err(|err| err.to_string())?);
        documents.entry(e.pack.clone()).or_default().insert(format!("{}/{}", e.kind.tag(), e.id), d.hex());
    }
    let mut scripts: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for p in &rs.packs {
        for root in &p.script_roots {
            for f in files_under(root)? {
                let rel = f.strip_prefix(&p.dir).unwrap_or(&f);
                let name: Vec<String> =
                    rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                scripts.entry(p.id.clone()).or_default().insert(name.join("/"), file_digest(&f)?);
            }
        }
    }
    Ok(Pins { content_hash, packs, documents, scripts })
}

/// The regular files under `root` (links not followed, as the content hash walks them).
fn files_under(root: &Path) -> Result<Vec<PathBuf>, String> {
    let (mut out, mut dirs) = (Vec::new(), vec![root.to_path_buf()]);
    while let Some(dir) = dirs.pop() {
        let read =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot read the scripts under {}: {e}", dir.display()))?;
        for e in read {
            let e = e.map_err(|e| format!("cannot read the scripts under {}: {e}", dir.display()))?;
            let t = e.file_type().map_err(|err| format!("cannot read {}: {err}", e.path().display()))?;
            if t.is_dir() {
                dirs.push(e.path());
            } else if t.is_file() {
                out.push(e.path());
            }
        }
    }
    out.sort();
    Ok(out)
}

fn file_digest(path: &Path) -> Result<String, String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (mut d, mut buf) = (Digest::new(), vec![0u8; 64 * 1024]);
    loop {
        let n = f.read(&mut buf).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if n == 0 {
            return Ok(d.hex());
        }
        d.update(&buf[..n]);
    }
}

/// A log file opened for reading, line by line, within the bounds above.
struct LogReader {
    inner: std::io::BufReader<std::fs::File>,
    /// Bytes read so far (a file that grows while read is still bounded).
    read: u64,
    line: usize,
    buf: Vec<u8>,
}

impl LogReader {
    fn open(path: &Path) -> Result<LogReader, String> {
        let file = crate::input::open_input(path, MAX_LOG_BYTES, "an event log")?;
        Ok(LogReader { inner: std::io::BufReader::new(file), read: 0, line: 0, buf: Vec::new() })
    }

    /// Back to the first line.
    fn rewind(&mut self) -> Result<(), String> {
        self.inner.rewind().map_err(|e| format!("cannot read the log again: {e}"))?;
        (self.read, self.line) = (0, 0);
        Ok(())
    }

    /// The next line without its newline; `Ok(None)` at the end. A last line without its newline
    /// is a log cut short.
    fn next(&mut self) -> Result<Option<&[u8]>, String> {
        self.buf.clear();
        loop {
            let avail = self.inner.fill_buf().map_err(|e| format!("cannot read the log: {e}"))?;
            if avail.is_empty() {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                return Err(format!("the log is truncated: line {} ends without a newline", self.line + 1));
            }
            let (take, done) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (avail.len(), false),
            };
            if self.buf.len() + take > MAX_LINE_BYTES {
                return Err(format!("line {} of the log is longer than {MAX_LINE_BYTES} bytes", self.line + 1));
            }
            self.read += take as u64 + u64::from(done);
            if self.read > MAX_LOG_BYTES {
                return Err(format!("the log is longer than {MAX_LOG_BYTES} bytes"));
            }
            self.buf.extend_from_slice(&avail[..take]);
            self.inner.consume(take + usize::from(done));
            if done {
                self.line += 1;
                return Ok(Some(&self.buf));
            }
        }
    }
}

/// The header of a log, checked: its first line, the right format.
fn read_header(r: &mut LogReader) -> Result<Header, String> {
    let Some(first) = r.next()? else { return Err("the log is empty".to_owned()) };
    let value: serde_json::Value =
        serde_json::from_slice(first).map_err(|e| format!("not an event log: line 1 is not JSON ({e})"))?;
    let Some(obj) = value.as_object() else { return Err("not an event log: line 1 is not a JSON object".to_owned()) };
    if obj.contains_key("event") {
        return Err("the log has no header (it was written before logs recorded their content, or cut from one): \
                    it cannot be replayed; `cav play --log FILE` writes one that can"
            .to_owned());
    }
    if obj.get("kind").and_then(serde_json::Value::as_str) != Some("header") {
        return Err("not an event log: line 1 is not a `kind: header` record".to_owned());
    }
    match obj.get("format").and_then(serde_json::Value::as_u64) {
        Some(n) if n == u64::from(FORMAT) => {}
        Some(n) => return Err(format!("the log's header is format {n}; this cav reads format {FORMAT}")),
        None => return Err("the log's header has no `format` number".to_owned()),
    }
    let header: Header = serde_json::from_value(value).map_err(|e| format!("the log's header is malformed: {e}"))?;
    let mut models = 0u64;
    for f in &header.forces {
        if f.force.tvp == 0 || f.force.tvp > 1_000_000 {
            return Err(format!(
                "the log's header is malformed: side {}'s roster has a pool of {}",
                f.side, f.force.tvp
            ));
        }
        for m in f.force.squads.iter().flat_map(|s| &s.models) {
            if m.count == 0 || m.count > MAX_MODEL_COUNT {
                return Err(format!("the log's header is malformed: side {} fields {} × {}", f.side, m.count, m.model));
            }
            models += u64::from(m.count);
        }
    }
    if models > MAX_RECORDED_MODELS {
        return Err(format!(
            "the log's header fields {models} models, more than a replay plays ({MAX_RECORDED_MODELS})"
        ));
    }
    Ok(header)
}

/// What the body of a log holds: its events checked to be JSON events, counted.
struct Body {
    events: u64,
    /// The last `game_end` event, if any.
    end: Option<serde_json::Value>,
}

fn read_body(r: &mut LogReader) -> Result<Body, String> {
    let mut body = Body { events: 0, end: None };
    while let Some(line) = r.next()? {
        let v: serde_json::Value = serde_json::from_slice(line).map_err(|e| {
            format!("line {} of the log is not a JSON event ({e}); the log is damaged or truncated", r.line)
        })?;
        match v.get("event").and_then(serde_json::Value::as_str) {
            Some("game_end") => body.end = Some(v),
            Some(_) => {}
            None => return Err(format!("line {} of the log is not an event (no `event` name)", r.line)),
        }
        body.events += 1;
    }
    Ok(body)
}

/// The log opened, its header and body read and checked to agree (`shown`: the log's path, for
/// messages).
fn read_log(path: &Path, shown: &str) -> Result<(LogReader, Header, Body), String> {
    let mut reader = LogReader::open(path)?;
    let header = read_header(&mut reader).map_err(|e| format!("{shown}: {e}"))?;
    let body = read_body(&mut reader).map_err(|e| format!("{shown}: {e}"))?;
    if body.events != header.events {
        let what = if body.events < header.events { "is truncated" } else { "was added to" };
        return Err(format!(
            "{shown}: the log {what}: its header says {} events, it holds {}",
            header.events, body.events
        ));
    }
    Ok((reader, header, body))
}

pub fn run(cmd: ReplayCommand, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    let shown = cmd.log.display().to_string();
    let (reader, header, body) = read_log(&cmd.log, &shown)?;

    let want = cmd.ruleset.as_deref().unwrap_or(&header.ruleset);
    let mut out = std::io::stdout().lock();
    // The game replays on the rules an earlier run kept for this content (with the recorded
    // rosters as it fielded them).
    let cache = RulesCache::open(root, want, no_cache);
    let forces = if header.forces.is_empty() { Forces::Fixed } else { Forces::Recorded(&header.forces) };
    if let Some(KeptGame { kept, sc, rosters, told }) =
        kept_game(cache.as_ref(), Some(&header.scenario), header.seed, forces)
    {
        eprint!("{told}");
        let changed = report_changes(&mut out, &header, &kept.ruleset, &kept.pins);
        let squads = rosters.map(|(squads, _)| squads);
        return replayed(cmd, out, reader, &shown, &header, &body, &kept.rules, sc, squads.as_deref(), changed);
    }
    let Content { mut loaded, rs, rules, .. } = load_and_keep(root, want, cache.as_ref())?;
    let now = pins(&rs)?;
    let changed = report_changes(&mut out, &header, &rs.id, &now);
    let Some(mut rules) = rules else {
        return Ok(content_errors(&loaded, "the game cannot be replayed on it (`cav validate`)"));
    };
    let Some(sc) = rules.scenario(&header.scenario) else {
        return diverged(&mut out, format!("ruleset {} has no scenario `{}` now", rules.id, header.scenario));
    };
    let fixed = !rules.scenarios[sc].forces.is_empty();
    let rosters = match (fixed, header.forces.is_empty()) {
        (true, true) => None,
        (false, false) => {
            let recorded = Chosen::Recorded(&header.forces);
            let fielded = match pick(&mut loaded, &rs, &rules, sc, header.seed, &recorded) {
                Ok(Ok(picked)) => {
                    if let Some(c) = &cache
                        && let Some(key) = c.recorded_key(&header.forces)
                    {
                        c.keep_rosters(key, &picked);
                    }
                    picked.field(&mut rules)
                }
                Ok(Err(InvalidRoster)) => return Ok(ExitCode::from(EXIT_INVALID)),
                Err(e) => Err(e),
            };
            match fielded {
                Ok((squads, _)) => Some(squads),
                Err(e) => return diverged(&mut out, format!("the recorded rosters cannot be fielded now: {e}")),
            }
        }
        (true, false) => {
            return diverged(
                &mut out,
                format!("scenario `{}` fixes its forces now; the log brought rosters", header.scenario),
            );
        }
        (false, true) => {
            return diverged(
                &mut out,
                format!("scenario `{}` leaves forces to the players now; the log records none", header.scenario),
            );
        }
    };
    replayed(cmd, out, reader, &shown, &header, &body, &rules, sc, rosters.as_deref(), changed)
}

/// The game of the log played again on `rules` (scenario `sc`, with the rosters it recorded),
/// compared with the log event by event, and told (`changed`: the content differs from the
/// log's pins, already said).
#[allow(clippy::too_many_arguments)]
fn replayed(
    cmd: ReplayCommand,
    mut out: std::io::StdoutLock<'_>,
    mut reader: LogReader,
    shown: &str,
    header: &Header,
    body: &Body,
    rules: &cav_rules::Rules,
    sc: usize,
    rosters: Option<&[cav_rules::setup::RosterForce]>,
    changed: bool,
) -> Result<ExitCode, String> {
    let Some(played) = play_game(rules, sc, rosters, header.seed, &header.search_bot) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    if let Err(e) = &played.result {
        eprintln!("note: the replayed game stopped: {e}");
    }
    let new: Vec<String> = played
        .events
        .iter()
        .map(|e| serde_json::to_string(e).map_err(|err| err.to_string()))
        .collect::<Result<_, _>>()?;
    let new_names: Vec<String> = played.game.models.iter().map(|m| m.name.clone()).collect();
    if let Some(path) = &cmd.html {
        write_viewer(path, &mut reader, shown, header, rules, &played.game)?;
    }

    // Second pass: the log's events against the replay's, to the first that differs.
    let (first, old_names) = first_difference(&mut reader, shown, &new)?;
    let Some((i, was)) = first else {
        let _ = writeln!(
            out,
            "replayed {} events: identical{}",
            new.len(),
            if changed { " (the game plays the same despite the changes)" } else { "" }
        );
        return Ok(ExitCode::SUCCESS);
    };
    let _ = writeln!(out, "the replay diverges at event #{i} (line {} of the log):", i + 2);
    if let Some(before) = i.checked_sub(1).and_then(|j| new.get(j)) {
        let _ = writeln!(out, "  after: {}", shown_event(before, &new_names));
    }
    match &was {
        Some(line) => {
            let _ = writeln!(out, "  was: {}", shown_event(line, &old_names));
        }
        None => {
            let _ = writeln!(out, "  was: (the log ends after {} events)", header.events);
        }
    }
    match new.get(i) {
        Some(line) => {
            let _ = writeln!(out, "  now: {}", shown_event(line, &new_names));
        }
        None => {
            let _ = writeln!(out, "  now: (the replay ends after {} events)", new.len());
        }
    }
    let new_end = played.events.iter().rev().find_map(|e| match e {
        cav_rules::event::Event::GameEnd { .. } => serde_json::to_value(e).ok(),
        _ => None,
    });
    if body.end != new_end {
        let _ = writeln!(
            out,
            "  outcome: was {}, now {} ({} events, was {})",
            outcome(body.end.as_ref()),
            outcome(new_end.as_ref()),
            new.len(),
            header.events
        );
    }
    if !changed {
        let _ = writeln!(
            out,
            "  the content is the same, so the engine plays differently (the log was written by cav {}, this is {})",
            header.cav,
            env!("CARGO_PKG_VERSION")
        );
    }
    Ok(ExitCode::from(EXIT_INVALID))
}

/// The replay viewer (`--html`): the log as written, in one HTML page.
fn write_viewer(
    path: &Path,
    reader: &mut LogReader,
    shown: &str,
    header: &Header,
    rules: &cav_rules::Rules,
    game: &cav_rules::game::Game,
) -> Result<(), String> {
    // The page shows the log as written; the replayed game gives each model's damage tracks.
    reader.rewind()?;
    reader.next()?;
    let (mut events, mut bytes) = (Vec::new(), 0u64);
    while let Some(line) = reader.next().map_err(|e| format!("{shown}: {e}"))? {
        bytes += line.len() as u64 + 1;
        if bytes > MAX_VIEWER_LOG_BYTES {
            return Err(format!(
                "{shown}: the replay viewer shows logs of at most {} MiB (the page holds the whole log); \
                 check this one without --html",
                MAX_VIEWER_LOG_BYTES / 1024 / 1024
            ));
        }
        events.push(serde_json::from_slice::<serde_json::Value>(line).map_err(|e| format!("{shown}: {e}"))?);
    }
    let tracks: Vec<u32> = game.models.iter().map(|m| rules.cards[m.card].columns.saturating_sub(1) as u32).collect();
    let title = format!("{} — seed {} ({})", header.scenario, header.seed, header.ruleset);
    std::fs::write(path, crate::viewer::html(&title, &events, &tracks))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("wrote {} ({} events)", path.display(), events.len());
    Ok(())
}

/// Where the log and the replay first differ: the event's index, and the log's line there (none:
/// the log ends first).
type Divergence = (usize, Option<String>);

/// The first event of the log that the replay does not write the same — its index and the log's
/// line (none: the log ends first) — or none; and the names of the models the log deployed
/// before it.
fn first_difference(
    reader: &mut LogReader,
    shown: &str,
    new: &[String],
) -> Result<(Option<Divergence>, Vec<String>), String> {
    reader.rewind()?;
    reader.next()?;
    let mut old_names: Vec<String> = Vec::new();
    let mut first: Option<Divergence> = None;
    let mut i = 0usize;
    while let Some(line) = reader.next().map_err(|e| format!("{shown}: {e}"))? {
        if new.get(i).map(String::as_bytes) != Some(line) {
            first = Some((i, Some(String::from_utf8_lossy(line).into_owned())));
            break;
        }
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(line)
            && v.get("event").and_then(serde_json::Value::as_str) == Some("deployed")
            && let (Some(m), Some(n)) = (v.get("model").and_then(serde_json::Value::as_u64), v.get("name"))
        {
            // The line is one the replay wrote too: its index is a model of the game.
            let m = m as usize;
            if old_names.len() <= m {
                old_names.resize(m + 1, "?".to_owned());
            }
            old_names[m] = n.as_str().unwrap_or("?").to_owned();
        }
        i += 1;
    }
    if first.is_none() && i < new.len() {
        first = Some((i, None));
    }
    Ok((first, old_names))
}

/// The game cannot even be set up again on the content as it is now: a divergence (exit 1).
fn diverged(out: &mut dyn Write, why: String) -> Result<ExitCode, String> {
    let _ = writeln!(out, "the replay diverges: {why}");
    Ok(ExitCode::from(EXIT_INVALID))
}

/// `side-a wins after 5 turns` from a `game_end` event.
fn outcome(end: Option<&serde_json::Value>) -> String {
    let Some(end) = end else { return "no end".to_owned() };
    let turns = end.get("turns").and_then(serde_json::Value::as_u64).unwrap_or(0);
    match end.get("winner").and_then(serde_json::Value::as_str) {
        Some(w) => format!("{w} wins after {turns} turns"),
        None => format!("no winner after {turns} turns"),
    }
}

/// An event line with its models' indices replaced by their names, cut to [`MAX_SHOWN`].
fn shown_event(line: &str, names: &[String]) -> String {
    let text = match serde_json::from_str::<serde_json::Value>(line) {
        Ok(mut v) => {
            if let Some(o) = v.as_object_mut() {
                for key in ["model", "target", "by", "from", "transport"] {
                    if let Some(n) = o.get(key).and_then(serde_json::Value::as_u64).and_then(|i| names.get(i as usize))
                    {
                        o.insert(key.to_owned(), n.clone().into());
                    }
                }
            }
            v.to_string()
        }
        Err(_) => line.to_owned(),
    };
    match text.char_indices().nth(MAX_SHOWN) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Says what differs between the content the log ran on and the content now; whether any does.
fn report_changes(out: &mut dyn Write, h: &Header, ruleset: &str, now: &Pins) -> bool {
    let short = |s: &str| s.get(..12).unwrap_or(s).to_owned();
    let mut lines: Vec<String> = Vec::new();
    if h.ruleset != ruleset {
        lines.push(format!("ruleset: the log ran under {}, this replay under {ruleset}", h.ruleset));
    }
    // Pack versions, packs added and removed.
    let old_packs: BTreeMap<&str, &str> = h.packs.iter().map(|p| (p.id.as_str(), p.version.as_str())).collect();
    let new_packs: BTreeMap<&str, &str> = now.packs.iter().map(|p| (p.id.as_str(), p.version.as_str())).collect();
    for (id, v) in &new_packs {
        match old_packs.get(id) {
            Some(old) if old != v => lines.push(format!("pack version: {id} {old} → {v}")),
            None => lines.push(format!("pack added: {id} {v}")),
            _ => {}
        }
    }
    for (id, v) in old_packs.iter().filter(|(id, _)| !new_packs.contains_key(*id)) {
        lines.push(format!("pack removed: {id} {v}"));
    }
    // Documents by kind/id, with their pack.
    let flat = |m: &BTreeMap<String, BTreeMap<String, String>>| -> BTreeMap<String, (String, String)> {
        m.iter()
            .flat_map(|(pack, docs)| docs.iter().map(move |(k, d)| (k.clone(), (pack.clone(), d.clone()))))
            .collect()
    };
    let (old_docs, new_docs) = (flat(&h.documents), flat(&now.documents));
    let mut listed = |what: &str, names: Vec<String>| {
        let n = names.len();
        for name in names.into_iter().take(MAX_LISTED) {
            lines.push(format!("{what}: {name}"));
        }
        if n > MAX_LISTED {
            lines.push(format!("{what}: … and {} more", n - MAX_LISTED));
        }
    };
    let (mut changed, mut added) = (Vec::new(), Vec::new());
    for (k, (pack, d)) in &new_docs {
        match old_docs.get(k) {
            Some((old_pack, old)) if old_pack != pack => changed
                .push(format!("{k} (moved from {old_pack} to {pack}{})", if old == d { "" } else { ", changed" })),
            Some((_, old)) if old != d => changed.push(format!("{k} ({pack})")),
            None => added.push(format!("{k} ({pack})")),
            _ => {}
        }
    }
    let removed: Vec<String> = old_docs
        .iter()
        .filter(|(k, _)| !new_docs.contains_key(*k))
        .map(|(k, (pack, _))| format!("{k} ({pack})"))
        .collect();
    listed("document changed", changed);
    listed("document added", added);
    listed("document removed", removed);
    // Scripts by pack/path.
    let by_path = |m: &BTreeMap<String, BTreeMap<String, String>>| -> BTreeMap<String, String> {
        m.iter().flat_map(|(pack, files)| files.iter().map(move |(p, d)| (format!("{pack}/{p}"), d.clone()))).collect()
    };
    let (old_scripts, new_scripts) = (by_path(&h.scripts), by_path(&now.scripts));
    let (mut s_changed, mut s_added) = (Vec::new(), Vec::new());
    for (p, d) in &new_scripts {
        match old_scripts.get(p) {
            Some(old) if old != d => s_changed.push(p.clone()),
            None => s_added.push(p.clone()),
            _ => {}
        }
    }
    let s_removed: Vec<String> = old_scripts.keys().filter(|p| !new_scripts.contains_key(*p)).cloned().collect();
    listed("script changed", s_changed);
    listed("script added", s_added);
    listed("script removed", s_removed);

    let same_hash = h.content_hash == now.content_hash;
    if same_hash && lines.is_empty() {
        let _ = writeln!(out, "content unchanged (hash {})", short(&now.content_hash));
        return false;
    }
    let _ = writeln!(
        out,
        "content changed since the log was written (hash {} → {}):",
        short(&h.content_hash),
        short(&now.content_hash)
    );
    if lines.is_empty() {
        lines.push("no document or script digest differs (the ruleset's id or the hash's own inputs do)".to_owned());
    }
    for l in lines {
        let _ = writeln!(out, "  {l}");
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_fnv1a() {
        // Published FNV-1a 64 test vectors: a digest that changed would break every old log.
        let hex = |s: &[u8]| {
            let mut d = Digest::new();
            d.update(s);
            d.hex()
        };
        assert_eq!(hex(b""), "cbf29ce484222325");
        assert_eq!(hex(b"a"), "af63dc4c8601ec8c");
        assert_eq!(hex(b"foobar"), "85944171f73967e8");
    }

    #[test]
    fn shown_events_name_models_and_stay_short() {
        let names = ["red Dictator-B".to_owned(), "black Dictator-B".to_owned()];
        let s = shown_event(r#"{"event":"attack","model":0,"target":1}"#, &names);
        assert_eq!(s, r#"{"event":"attack","model":"red Dictator-B","target":"black Dictator-B"}"#);
        let long = format!(r#"{{"event":"x","text":"{}"}}"#, "é".repeat(2000));
        assert_eq!(shown_event(&long, &names).chars().count(), MAX_SHOWN + 1);
    }
}
