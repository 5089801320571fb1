//! Hot reload: watch packs and scripts, reload on save, swap in valid rules at once, keep the
//! last good rules (and scripts) when a save breaks something, and show what changed. A save of
//! scripts alone is made live from the live rules first (the quick path), then checked by the
//! full reload.
//!
//! The loop blocks on the watcher's channel (no busy waiting) and checks a stop flag between
//! waits, so Ctrl-C ends it cleanly.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cav_content::diag::{Diagnostic, FileId, Sources};
use cav_content::{LoadOptions, Loaded, pack::Cache};
use cav_format::limits::{WATCH_DEBOUNCE_MAX_MS, WATCH_DEBOUNCE_MIN_MS};
use cav_rules::{Engine, Event, Rules, SeededDice, bot::Bot, setup::scenario_game};
use cav_script::{Limits, LuaHost};
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};

/// What to do after each successful reload.
#[derive(Debug, Clone, Default)]
pub enum After {
    #[default]
    Nothing,
    /// Replay this scenario with this seed and report what changed in the outcome.
    Run { scenario: String, seed: u64 },
    /// Re-run the packs' scenario tests and report the pass/fail change.
    Test,
}

#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Packs or content roots to load (default: the library).
    pub paths: Vec<PathBuf>,
    /// Content roots searched for dependencies.
    pub library: Vec<PathBuf>,
    /// Extra directories to watch (script roots outside the packs).
    pub extra: Vec<PathBuf>,
    /// Ruleset whose rules are compiled and played.
    pub ruleset: String,
    pub after: After,
    /// Quiet period after the last file event before reloading.
    pub debounce: Duration,
    /// Take the quick path for a save that changed only scripts (`scripts_only` says how); the full
    /// reload follows it either way. Off, every save is reloaded in full (the reference the
    /// tests compare the quick path with).
    pub quick: bool,
    /// Reloads counted, for tests and benchmarks.
    pub counts: Arc<Counts>,
}

/// Reloads counted by [`watch`].
#[derive(Debug, Default)]
pub struct Counts {
    /// Saves the quick path took (it made them live, or kept the last good rules).
    pub quick: AtomicUsize,
    /// Full reloads ended, the first load included (counted after their output).
    pub full: AtomicUsize,
}

impl WatchOptions {
    /// Watch a project root laid out like this repository: `content/` and `mods/` as packs,
    /// `scripts/` for the official packs' script roots, a 20 ms quiet period.
    pub fn for_root(root: &Path, ruleset: &str, after: After) -> WatchOptions {
        WatchOptions {
            paths: vec![],
            library: vec![root.join("content"), root.join("mods")],
            extra: vec![root.join("scripts")],
            ruleset: ruleset.to_owned(),
            after,
            debounce: Duration::from_millis(20),
            quick: true,
            counts: Arc::default(),
        }
    }
}

/// A digest of a content file's text, `None` for what is not a readable file of at most
/// `MAX_FILE_BYTES` (a directory, a removed file).
fn digest(p: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let meta = std::fs::metadata(p).ok()?;
    if !meta.is_file() || meta.len() > cav_format::limits::MAX_FILE_BYTES {
        return None;
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::fs::read(p).ok()?.hash(&mut h);
    Some(h.finish())
}

/// What the watchers send the loop.
enum Msg {
    /// Changes, after the quiet period.
    Debounced(DebounceEventResult),
    /// A content file closed after writing (a completed save), when it happened.
    Written(Instant, Vec<PathBuf>),
}

/// The last good rules: replaced whole by a valid reload, never by a broken one.
struct Live {
    loaded: Loaded,
    /// The watched ruleset compiled from `loaded`: a save of scripts alone cannot change it.
    rules: Rules,
    /// With `--test`, the other rulesets compiled from `loaded`: an edited pack's tests run under
    /// every ruleset it joins.
    others: Vec<Rules>,
    outcome: Option<Outcome>,
    tests: Option<(usize, usize)>,
    /// What the last full reload found, kept while its documents are those of `loaded` (it made
    /// them live, or it failed with the same resolved values): a save of scripts alone starts
    /// from it. `None` once the files hold other documents, so that the next save is reloaded in
    /// full.
    basis: Option<Basis>,
}

/// The last full reload's diagnostics in parts (its rules moved to [`Live`]) and the sources
/// they point into.
struct Basis {
    validated: cav_compile::Validated,
    sources: Sources,
}

/// What the quick path made of a save, for the full reload that follows to check: whether it
/// made new scripts live, and its diagnostics as [`diagnostic_keys`].
struct Expected {
    ok: bool,
    keys: Vec<String>,
}

/// Diagnostics as comparable text, sorted: two loads number their files differently, so a
/// diagnostic is compared by what it says and where, not by file id.
fn diagnostic_keys(diags: &[Diagnostic], sources: &Sources) -> Vec<String> {
    let mut keys: Vec<String> = diags
        .iter()
        .map(|d| {
            format!(
                "{:?} {} {} | {} | {:?} {:?} {:?} {:?}",
                d.severity,
                d.code,
                d.location(sources),
                d.message,
                d.pack,
                d.pointer,
                d.expected,
                d.hint
            )
        })
        .collect();
    keys.sort();
    keys
}

/// Do two loads have the same rulesets with the same resolved documents?
fn same_values(a: &Loaded, b: &Loaded) -> bool {
    a.rulesets.len() == b.rulesets.len()
        && a.rulesets.iter().zip(&b.rulesets).all(|(x, y)| {
            let index = |r: &cav_content::Ruleset| -> BTreeMap<(cav_format::DocKind, String), Arc<serde_json::Value>> {
                r.entries().map(|e| ((e.kind, e.id.clone()), e.value.clone())).collect()
            };
            let (ix, iy) = (index(x), index(y));
            x.id == y.id
                && ix.len() == iy.len()
                && ix.iter().zip(&iy).all(|((ka, va), (kb, vb))| ka == kb && (Arc::ptr_eq(va, vb) || va == vb))
        })
}

fn is_script(p: &Path) -> bool {
    !is_ignored_name(p) && matches!(p.extension().and_then(|e| e.to_str()), Some("lua" | "luau"))
}

/// What the quick path made of a save of scripts.
struct Quick {
    /// The diagnostics the full reload is expected to find, and the sources they point into.
    diagnostics: Vec<Diagnostic>,
    sources: Sources,
    /// The new scripts loaded with the live rules, or why they cannot be.
    host: Result<LuaHost, Vec<String>>,
}

/// The quick path for a save that changed only script files. The loader reads no script (it
/// checks only that each `script:` module file exists inside its root), so such a save changes
/// no document and the live documents and compiled rules stay: check again the scripts of the
/// rulesets whose script roots hold a changed file (`require` cannot leave the roots), put the
/// diagnostics together as `cav_compile::validate` does, and load the scripts into a new host.
///
/// `None` (reload in full) when the save may be more than an edit of scripts the last full
/// reload read: a script created, removed or made a link can change what the loader finds
/// (`script-missing`, a module leading outside its root), and without a [`Basis`] the live
/// documents may not be those of the files.
fn scripts_only(live: &Live, changed: &[PathBuf]) -> Option<Quick> {
    let basis = live.basis.as_ref()?;
    if changed.is_empty() || basis.validated.parts.len() != live.loaded.rulesets.len() {
        return None;
    }
    let read_last_time = |p: &Path| (0..basis.sources.len() as u32).any(|i| basis.sources.get(FileId(i)).path == p);
    // The checks know a script by its canonical path (the watcher may report it through the
    // roots as given). The file itself must not be a link: making one is not an edit.
    let mut files = Vec::new();
    for p in changed {
        let meta = std::fs::symlink_metadata(p).ok()?;
        let file = std::fs::canonicalize(p).ok()?;
        if !is_script(p) || !meta.is_file() || !read_last_time(&file) {
            return None;
        }
        files.push(file);
    }
    let mut validated = basis.validated.clone();
    let mut sources = basis.sources.clone();
    // The scripts are checked on one core while the new host loads them on the other: the host
    // is thrown away when the check finds an error, as the full reload would not make it.
    let (host, checked) = std::thread::scope(|scope| {
        let check = std::thread::Builder::new().spawn_scoped(scope, || {
            for (rs, parts) in live.loaded.rulesets.iter().zip(&mut validated.parts) {
                let roots: Vec<PathBuf> = rs
                    .packs
                    .iter()
                    .flat_map(|p| &p.script_roots)
                    .map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone()))
                    .collect();
                if files.iter().any(|p| roots.iter().any(|r| p.starts_with(r))) {
                    parts[cav_compile::SCRIPT_PART] = cav_script::check_scripts(rs, &mut sources);
                }
            }
        });
        let host = LuaHost::new(&live.rules, Limits::default()).map_err(|e| vec![format!("scripts: {e}")]);
        (host, check.map(|c| c.join().is_ok()))
    });
    // No thread for the check, or a check that panicked: the full reload will tell.
    if checked.ok() != Some(true) {
        return None;
    }
    let diagnostics = validated.assemble(&sources);
    let host =
        if diagnostics.iter().any(|d| d.severity == cav_content::diag::Severity::Error) { Err(vec![]) } else { host };
    Some(Quick { diagnostics, sources, host })
}

/// The outcome of a replay, for comparing two versions of the rules.
#[derive(Debug, Clone)]
struct Outcome {
    winner: Option<String>,
    turns: u32,
    damage: Vec<u32>,
    events: Vec<Event>,
    /// The sides, and each model's name as the narrative gives it, by index: the diff names
    /// models, not indices.
    sides: Vec<String>,
    names: Vec<String>,
}

/// Hidden files and directories (discovery skips them), editor temp, swap and backup files.
fn is_ignored_name(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp") || name.contains(".tmp")
}

fn is_content_file(p: &Path) -> bool {
    !is_ignored_name(p) && matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml" | "lua" | "luau"))
}

/// Does this event call for a reload? A content file saved, created, removed or renamed; a
/// directory appearing (a pack moved or copied in); a directory vanishing that held files the
/// last load read. The debouncer reports a removed directory as one `Remove` of the directory
/// alone (its files' events are dropped), and a directory moved out of the watched roots as a
/// rename `From` only, both for a path that no longer exists: neither is a content file nor a
/// directory any more, so `cache` (the files read) tells whether it mattered.
/// Only paths under `roots` count: the parents of the roots are watched too (to see a root
/// created again), and their other entries are none of our business.
fn calls_for_reload(e: &notify::Event, cache: &Cache, roots: &[PathBuf]) -> bool {
    use notify::EventKind;
    if e.need_rescan() {
        return true; // the kernel dropped events: anything may have changed
    }
    if matches!(e.kind, EventKind::Access(_)) {
        return false;
    }
    let held_loaded_files = |dir: &Path| {
        (0..cache.sources.len() as u32).any(|i| cache.sources.get(cav_content::diag::FileId(i)).path.starts_with(dir))
    };
    e.paths.iter().filter(|p| roots.iter().any(|r| p.starts_with(r))).any(|p| {
        is_content_file(p)
            || if p.exists() {
                p.is_dir() && !is_ignored_name(p)
            } else {
                matches!(e.kind, EventKind::Remove(notify::event::RemoveKind::Folder)) || held_loaded_files(p)
            }
    })
}

/// The real directories of the packs in `library` that are links to a directory outside every
/// one of `roots` (so not watched yet). Only a pack (a directory with a `pack.yaml`) counts: a
/// link to `/` or a home directory put among the mods is not watched, whole.
fn linked_packs(library: &[PathBuf], roots: &[PathBuf]) -> Vec<PathBuf> {
    let real_roots: Vec<PathBuf> = roots.iter().filter_map(|r| r.canonicalize().ok()).collect();
    let mut found = Vec::new();
    for entry in library.iter().filter_map(|l| std::fs::read_dir(l).ok()).flatten().flatten() {
        let is_link = entry.file_type().is_ok_and(|t| t.is_symlink());
        if let Some(real) = is_link.then(|| entry.path().canonicalize().ok()).flatten()
            && real.join("pack.yaml").is_file()
            && !["/proc", "/dev", "/sys"].iter().any(|r| real.starts_with(r))
            && !real_roots.iter().any(|r| real.starts_with(r))
            && !found.contains(&real)
        {
            found.push(real);
        }
    }
    found
}

/// Refuse settings that cannot work, before anything is watched: a quiet period outside
/// [`WATCH_DEBOUNCE_MIN_MS`]..=[`WATCH_DEBOUNCE_MAX_MS`], a path that does not exist, a library
/// with no pack in it.
pub fn check_options(opts: &WatchOptions) -> Result<(), String> {
    let ms = opts.debounce.as_millis();
    if !(u128::from(WATCH_DEBOUNCE_MIN_MS)..=u128::from(WATCH_DEBOUNCE_MAX_MS)).contains(&ms) {
        return Err(format!(
            "debounce of {ms} ms is outside {WATCH_DEBOUNCE_MIN_MS}..={WATCH_DEBOUNCE_MAX_MS} ms: \
             shorter keeps a core busy, longer seems never to reload"
        ));
    }
    for p in &opts.paths {
        if !p.exists() {
            return Err(format!("cannot watch {}: no such file or directory", p.display()));
        }
    }
    let mut ignored = Vec::new();
    let dirs: Vec<PathBuf> =
        opts.library.iter().filter(|d| d.is_dir()).flat_map(|d| cav_content::pack::discover(d, &mut ignored)).collect();
    let packs = dirs.len();
    if packs == 0 {
        let roots: Vec<String> = opts.library.iter().map(|d| d.display().to_string()).collect();
        return Err(format!(
            "no content to watch: no pack in {} (use --root with a directory that holds content/ or mods/)",
            roots.join(" or ")
        ));
    }
    // The ruleset to play must be one of the packs (its id, or `cav-<name>`).
    let mut cache = Cache::default();
    let rulesets: Vec<String> = dirs
        .iter()
        .filter_map(|d| cav_content::pack::read_manifest(d, &mut cache, &mut ignored))
        .filter(|p| p.kind == cav_format::PackKind::Ruleset)
        .map(|p| p.id)
        .collect();
    if !rulesets.iter().any(|id| *id == opts.ruleset || *id == format!("cav-{}", opts.ruleset)) {
        return Err(format!("no ruleset `{}` to watch; rulesets: {}", opts.ruleset, rulesets.join(", ")));
    }
    Ok(())
}

/// Build the live rules from a load that `cav_compile::validate` has checked: no error anywhere,
/// the ruleset compiled, scripts load. On failure, the reasons beyond the diagnostics.
/// Is `id` the ruleset asked for as `ruleset` (`full` for `cav-full`)?
fn is_ruleset(id: &str, ruleset: &str) -> bool {
    id == ruleset || id == format!("cav-{ruleset}")
}

fn build(loaded: &Loaded, compiled: Vec<Option<Rules>>, ruleset: &str) -> Result<(Rules, LuaHost), Vec<String>> {
    if loaded.error_count() > 0 {
        return Err(vec![]);
    }
    let Some(ix) = loaded.rulesets.iter().position(|r| is_ruleset(&r.id, ruleset)) else {
        return Err(vec![format!("no ruleset `{ruleset}`")]);
    };
    let rules =
        compiled.into_iter().nth(ix).flatten().ok_or_else(|| vec![format!("ruleset `{ruleset}` does not compile")])?;
    let host = LuaHost::new(&rules, Limits::default()).map_err(|e| vec![format!("scripts: {e}")])?;
    Ok((rules, host))
}

/// Warnings of `new` that `old` did not have (what the last save introduced).
fn new_warnings(old: &[Diagnostic], new: &[Diagnostic]) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| (d.code, d.message.clone(), d.pack.clone(), d.pointer.clone());
    let seen: std::collections::HashSet<_> = old.iter().map(key).collect();
    new.iter().filter(|d| !seen.contains(&key(d))).cloned().collect()
}

fn replay(rules: &Rules, host: &mut LuaHost, scenario: &str, seed: u64) -> Result<Outcome, String> {
    let sc = rules.scenario(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
    let mut dice = SeededDice::new(seed);
    let mut events = Vec::new();
    let game = scenario_game(rules, sc, &mut dice, &mut events, Some(seed));
    let mut engine = Engine { game, dice: &mut dice, log: &mut events, hooks: host };
    let end = engine.play(&mut Bot::default()).map_err(|e| e.to_string())?;
    let winner = end.winner.map(|w| engine.game.sides[w].clone());
    let names = engine.game.models.iter().map(|m| m.name.clone()).collect();
    let sides = engine.game.sides.clone();
    drop(engine);
    Ok(Outcome { winner, turns: end.turns, damage: end.damage_dealt, events, sides, names })
}

/// The ruleset's tests of the `packs` edited (all, when `None`): how many pass, and each that
/// fails with its first failure.
fn run_tests(
    live_loaded: &Loaded,
    rules: &Rules,
    host: &mut LuaHost,
    packs: Option<&BTreeSet<String>>,
) -> (usize, Vec<(String, String)>) {
    let (mut pass, mut fail) = (0, Vec::new());
    for rs in live_loaded.rulesets.iter().filter(|r| r.id == rules.id) {
        for e in rs.of_kind(cav_format::DocKind::Test) {
            if packs.is_some_and(|p| !p.contains(&e.pack)) {
                continue;
            }
            if let Some(cav_format::Document::Test(t)) = &e.doc
                && t.runs_under(&rules.id)
            {
                let r = cav_rules::testing::run_test_with(rules, t, host);
                if r.passed() {
                    pass += 1;
                } else {
                    let why = r.failures.first().map(|f| f.lines().next().unwrap_or_default().to_owned());
                    fail.push((t.id.0.clone(), why.unwrap_or_default()));
                }
            }
        }
    }
    (pass, fail)
}

/// The packs whose documents or scripts differ between two loads (`None`: the first load, or
/// nothing found to pin it on: every pack).
fn edited_packs(old: Option<&Loaded>, new: &Loaded, scripts: &[PathBuf]) -> Option<BTreeSet<String>> {
    let old = old?;
    let index = |l: &Loaded| -> BTreeMap<(String, String), (String, Arc<serde_json::Value>)> {
        l.rulesets
            .iter()
            .flat_map(|r| {
                r.entries().map(|e| ((e.kind.tag().to_owned(), e.id.clone()), (e.pack.clone(), e.value.clone())))
            })
            .collect()
    };
    let (a, b) = (index(old), index(new));
    let mut packs: BTreeSet<String> = BTreeSet::new();
    for (k, (pack, v)) in &b {
        if a.get(k).is_none_or(|(_, old)| old != v) {
            packs.insert(pack.clone());
        }
    }
    for (k, (pack, _)) in &a {
        if !b.contains_key(k) {
            packs.insert(pack.clone());
        }
    }
    // A script belongs to the pack whose folder holds it.
    for s in scripts {
        let holder = new.rulesets.iter().flat_map(|r| &r.packs).filter(|p| s.starts_with(&p.dir));
        if let Some(p) = holder.max_by_key(|p| p.dir.as_os_str().len()) {
            packs.insert(p.id.clone());
        }
    }
    (!packs.is_empty()).then_some(packs)
}

/// Documents whose resolved value differs between two loads: `changed`, `added`, `removed`.
fn changes(old: &Loaded, new: &Loaded, ruleset: &str) -> String {
    let index = |l: &Loaded| -> BTreeMap<(String, String), Arc<serde_json::Value>> {
        l.rulesets
            .iter()
            .filter(|r| r.id == ruleset || r.id == format!("cav-{ruleset}"))
            .flat_map(|r| r.entries().map(|e| ((e.kind.tag().to_owned(), e.id.clone()), e.value.clone())))
            .collect()
    };
    let (a, b) = (index(old), index(new));
    // Changed documents first (an edit is what the author is looking for), then added, removed.
    let (mut parts, mut added) = (Vec::new(), Vec::new());
    for (k, v) in &b {
        match a.get(k) {
            None => added.push(format!("+{} {}", k.0, k.1)),
            Some(old) if old != v => parts.push(format!("{} {}", k.0, k.1)),
            _ => {}
        }
    }
    parts.append(&mut added);
    for k in a.keys().filter(|k| !b.contains_key(*k)) {
        parts.push(format!("-{} {}", k.0, k.1));
    }
    if parts.is_empty() {
        return "no document changed".into();
    }
    let n = parts.len();
    parts.truncate(6);
    format!("{}{}", parts.join(", "), if n > 6 { format!(" and {} more", n - 6) } else { String::new() })
}

/// Damage dealt by each side, named: `red 8, black 10`.
fn damage_by_side(o: &Outcome) -> String {
    let parts: Vec<String> = o
        .damage
        .iter()
        .enumerate()
        .map(|(i, d)| format!("{} {d}", o.sides.get(i).map_or("?", String::as_str)))
        .collect();
    parts.join(", ")
}

/// An event as JSON with its model indices replaced by the models' names.
fn named(e: &Event, names: &[String]) -> String {
    let mut v = serde_json::to_value(e).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        for key in ["model", "target", "by", "from", "transport"] {
            if let Some(name) = o.get(key).and_then(serde_json::Value::as_u64).and_then(|i| names.get(i as usize)) {
                o.insert(key.to_owned(), name.clone().into());
            }
        }
    }
    v.to_string()
}

fn compare(out: &mut dyn Write, old: Option<&Outcome>, new: &Outcome) {
    let _ = writeln!(
        out,
        "  replay: winner {}, {} turns, damage dealt {}",
        new.winner.as_deref().unwrap_or("none"),
        new.turns,
        damage_by_side(new)
    );
    let Some(old) = old else { return };
    if old.winner != new.winner || old.turns != new.turns || old.damage != new.damage {
        let _ = writeln!(
            out,
            "  changed: winner {} → {}, turns {} → {}, damage dealt {} → {}",
            old.winner.as_deref().unwrap_or("none"),
            new.winner.as_deref().unwrap_or("none"),
            old.turns,
            new.turns,
            damage_by_side(old),
            damage_by_side(new)
        );
    }
    match old.events.iter().zip(&new.events).position(|(a, b)| a != b) {
        Some(i) => {
            let _ = writeln!(
                out,
                "  first different event (#{i}):\n    was: {}\n    now: {}",
                named(&old.events[i], &old.names),
                named(&new.events[i], &new.names)
            );
        }
        None if old.events.len() != new.events.len() => {
            let _ = writeln!(out, "  the log is {} events long instead of {}", new.events.len(), old.events.len());
        }
        None => {
            let _ = writeln!(out, "  the game is unchanged, event for event");
        }
    }
}

/// `script a.luau, script b.luau`: what a save of scripts changed.
fn script_names(scripts: &[PathBuf]) -> String {
    let named: Vec<String> = scripts.iter().map(|p| format!("script {}", cav_content::diag::display_path(p))).collect();
    named.join(", ")
}

/// What a reload made live, for [`announce`].
struct Announce<'a> {
    /// The rules live until now (`None` at the first load).
    live: Option<&'a Live>,
    /// The documents now live, and the diagnostics before (`None` at the first load) and now.
    loaded: &'a Loaded,
    old: Option<&'a [Diagnostic]>,
    diagnostics: &'a [Diagnostic],
    sources: &'a Sources,
    what: &'a str,
    /// The scripts the save changed (their packs' tests run, with the edited documents' packs).
    scripts: &'a [PathBuf],
    since: Instant,
}

/// The `reloaded` line, after the warnings the save brought, then the replay or the tests asked
/// for. Returns their results, for the next reload to compare with.
fn announce(
    out: &mut dyn Write,
    opts: &WatchOptions,
    stop: &AtomicBool,
    now: Announce,
    rules: &Rules,
    others: &[Rules],
    host: &mut LuaHost,
) -> (Option<Outcome>, Option<(usize, usize)>) {
    let ms = now.since.elapsed().as_secs_f64() * 1000.0;
    // A rule that is recognised but not played must not hide behind "reloaded": show the
    // warnings this save brought (the first load only counts them).
    let warnings = now.old.map(|old| new_warnings(old, now.diagnostics)).unwrap_or_default();
    let _ = write!(out, "{}", cav_content::diag::render_human(&warnings, now.sources));
    let n = now.diagnostics.len();
    let counted = if n == 0 { String::new() } else { format!(", {n} warning{}", if n == 1 { "" } else { "s" }) };
    let _ = writeln!(out, "reloaded {} ({}) in {ms:.1} ms{counted}", rules.id, now.what);
    let mut outcome = None;
    let mut tests = None;
    match &opts.after {
        _ if stop.load(Ordering::Relaxed) => {}
        After::Run { scenario, seed } => match replay(rules, host, scenario, *seed) {
            Ok(o) => {
                compare(out, now.live.and_then(|l| l.outcome.as_ref()), &o);
                outcome = Some(o);
            }
            Err(e) => {
                let _ = writeln!(out, "  replay failed: {e}");
            }
        },
        After::Test => {
            let packs = edited_packs(now.live.map(|l| &l.loaded), now.loaded, now.scripts);
            if let Some(p) = &packs {
                let p: Vec<&str> = p.iter().map(String::as_str).collect();
                let _ = writeln!(out, "  testing the packs edited: {}", p.join(", "));
            }
            let (pass, failing) = run_tests(now.loaded, rules, host, packs.as_ref());
            // Totals compare only when both runs took every pack's tests.
            let was = now
                .live
                .and_then(|l| l.tests)
                .filter(|_| packs.is_none())
                .map(|(p, f)| format!(" (was {p} passed, {f} failed)"))
                .unwrap_or_default();
            let _ = writeln!(out, "  tests: {pass} passed, {} failed{was}", failing.len());
            // Name them and say why (the first 20): the author wants to know which, not how many.
            for (id, why) in failing.iter().take(20) {
                let _ = writeln!(out, "  failing: {id}: {why}");
            }
            if failing.len() > 20 {
                let _ = writeln!(out, "  failing: and {} more (`cav test` lists them)", failing.len() - 20);
            }
            tests = packs.is_none().then_some((pass, failing.len())).or(now.live.and_then(|l| l.tests));
            // The same packs' tests under every other ruleset they join (with a host of their own).
            for other in others {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let joins = now.loaded.rulesets.iter().find(|r| r.id == other.id).is_some_and(|rs| match &packs {
                    Some(p) => p.iter().any(|p| rs.pack(p).is_some()),
                    None => true,
                });
                if !joins {
                    continue;
                }
                let mut other_host = match LuaHost::new(other, Limits::default()) {
                    Ok(h) => h,
                    Err(e) => {
                        let _ = writeln!(out, "  tests under {}: not run: scripts: {e}", other.id);
                        continue;
                    }
                };
                let (pass, failing) = run_tests(now.loaded, other, &mut other_host, packs.as_ref());
                let _ = writeln!(out, "  tests under {}: {pass} passed, {} failed", other.id, failing.len());
                for (id, why) in failing.iter().take(20) {
                    let _ = writeln!(out, "  failing: {id} [{}]: {why}", other.id);
                }
            }
        }
        After::Nothing => {}
    }
    (outcome, tests)
}

/// A reload that cannot be made live: its diagnostics, the reasons beyond them, and the
/// `kept last good` line.
fn kept_last_good(out: &mut dyn Write, diags: &[Diagnostic], sources: &Sources, errors: &[String], had_live: bool) {
    let _ = write!(out, "{}", cav_content::diag::render_human(diags, sources));
    for e in errors {
        let _ = writeln!(out, "error: {e}");
    }
    let n = diags.iter().filter(|d| d.severity == cav_content::diag::Severity::Error).count() + errors.len();
    let errors = format!("{n} error{}", if n == 1 { "" } else { "s" });
    // One status line, saying what is live now.
    if had_live {
        let _ = writeln!(out, "kept last good rules live ({errors})");
    } else {
        let _ = writeln!(out, "kept last good rules: none yet, nothing is live ({errors})");
    }
}

/// Copy a directory tree (to watch or edit a copy of the content).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let t = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &t)?;
        } else {
            std::fs::copy(e.path(), t)?;
        }
    }
    Ok(())
}

/// A `Write` that hands each complete line to a channel: for tests and benchmarks that read the
/// watcher's output as it comes.
pub struct LineSink {
    pending: String,
    tx: mpsc::Sender<(Instant, String)>,
}

impl LineSink {
    pub fn new(tx: mpsc::Sender<(Instant, String)>) -> Self {
        LineSink { pending: String::new(), tx }
    }
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.push_str(&String::from_utf8_lossy(buf));
        while let Some(i) = self.pending.find('\n') {
            let line: String = self.pending.drain(..=i).collect();
            let _ = self.tx.send((Instant::now(), line.trim_end().to_owned()));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Watch until `stop` is set. Output goes to `out`, one line per reload (`reloaded …` or
/// `kept last good …`), with diagnostics before a `kept last good` line.
///
/// A save of scripts alone takes the quick path (`scripts_only`): its line comes first, then the
/// full reload runs at once and prints nothing when it agrees; when it does not, it says so in
/// one line, then prints its own result, which is live from then on.
///
/// Settings that cannot work (see [`check_options`]) are refused before anything is watched.
/// A reload runs on this thread: file events that arrive meanwhile queue in the channel and
/// start one more reload when it ends; `stop` is checked between the reload's steps (load,
/// replay or tests), so a stop during a long reload takes effect when its current step ends.
pub fn watch(opts: &WatchOptions, out: &mut dyn Write, stop: Arc<AtomicBool>) -> Result<(), String> {
    check_options(opts)?;
    let load_opts = LoadOptions {
        paths: if opts.paths.is_empty() { opts.library.clone() } else { opts.paths.clone() },
        library: opts.library.clone(),
    };
    let mut cache = Cache::default();
    let mut live: Option<Live> = None;
    let started = Instant::now();
    // A full reload: every file (from the cache where unchanged), every ruleset checked. After
    // the quick path, `expect` is what it made live: the full reload says nothing when it finds
    // the same, and says so and puts its own result live when it does not (the quick path saw
    // only the scripts).
    let reload = |cache: &mut Cache,
                  live: &mut Option<Live>,
                  out: &mut dyn Write,
                  since: Instant,
                  scripts: &[PathBuf],
                  expect: Option<Expected>| {
        let mut loaded = cav_content::load_cached(&load_opts, cache);
        // The loaded sources are a copy: the cache keeps only the files this load read.
        cache.sweep();
        let mut validated = cav_compile::validate_parts(&mut loaded);
        let compiled = std::mem::take(&mut validated.rules);
        let others: Vec<Rules> = match opts.after {
            After::Test => compiled.iter().flatten().filter(|r| !is_ruleset(&r.id, &opts.ruleset)).cloned().collect(),
            _ => Vec::new(),
        };
        let built = build(&loaded, compiled, &opts.ruleset);
        // Only asked when needed (it compares every document), never before a `reloaded` line.
        let same_docs =
            |live: &Option<Live>, loaded: &Loaded| live.as_ref().is_some_and(|l| same_values(&l.loaded, loaded));
        if let Some(expect) = expect {
            let mut differs = Vec::new();
            if !same_docs(live, &loaded) {
                differs.push("resolved documents");
            }
            if expect.keys != diagnostic_keys(&loaded.diagnostics, &loaded.sources) {
                differs.push("diagnostics");
            }
            if expect.ok != built.is_ok() {
                differs.push(if built.is_ok() { "its rules load" } else { "its rules do not load" });
            }
            if differs.is_empty() {
                if let Some(l) = live.as_mut() {
                    let basis = Basis { validated, sources: loaded.sources.clone() };
                    if let Ok((rules, _)) = built {
                        l.loaded = loaded;
                        l.rules = rules;
                        l.others = others;
                    }
                    l.basis = Some(basis);
                }
                let _ = out.flush();
                opts.counts.full.fetch_add(1, Ordering::Relaxed);
                return;
            }
            let _ = writeln!(
                out,
                "the full reload differs from the quick reload of the scripts ({}); its result follows",
                differs.join(", ")
            );
        }
        match built {
            Ok((rules, mut host)) => {
                let mut what = match live.as_ref() {
                    Some(l) => changes(&l.loaded, &loaded, &opts.ruleset),
                    None => format!("{} documents", loaded.documents),
                };
                // A script edit changes no document: name the scripts saved.
                if live.is_some() && !scripts.is_empty() {
                    what = if what == "no document changed" {
                        script_names(scripts)
                    } else {
                        format!("{what}, {}", script_names(scripts))
                    };
                }
                // The first load only counts its warnings.
                let old = live.as_ref().map(|l| l.loaded.diagnostics.as_slice());
                let now = Announce {
                    live: live.as_ref(),
                    loaded: &loaded,
                    old,
                    diagnostics: &loaded.diagnostics,
                    sources: &loaded.sources,
                    what: &what,
                    scripts,
                    since,
                };
                let (outcome, tests) = announce(out, opts, &stop, now, &rules, &others, &mut host);
                let basis = Some(Basis { validated, sources: loaded.sources.clone() });
                *live = Some(Live { loaded, rules, others, outcome, tests, basis });
            }
            Err(errors) => {
                kept_last_good(out, &loaded.diagnostics, &loaded.sources, &errors, live.is_some());
                // The files still hold the live documents when only scripts (or files that make
                // no document) are broken: the next save of scripts alone can start from here.
                let same = same_docs(live, &loaded);
                if let Some(l) = live.as_mut() {
                    l.basis = same.then(|| Basis { validated, sources: loaded.sources.clone() });
                }
            }
        }
        let _ = out.flush();
        opts.counts.full.fetch_add(1, Ordering::Relaxed);
    };
    // The quick path (see `scripts_only`): the `reloaded` line comes from it, then the full
    // reload checks it. `None` when it does not apply.
    let quick = |live: &mut Option<Live>, out: &mut dyn Write, since: Instant, scripts: &[PathBuf]| {
        let l = live.as_mut()?;
        let q = scripts_only(l, scripts)?;
        opts.counts.quick.fetch_add(1, Ordering::Relaxed);
        let ok = q.host.is_ok();
        // What the full reload checks, taken after the output (it is not needed to go live).
        let keys = match q.host {
            Ok(mut host) => {
                let what = script_names(scripts);
                let now = Announce {
                    live: Some(l),
                    loaded: &l.loaded,
                    old: Some(&l.loaded.diagnostics),
                    diagnostics: &q.diagnostics,
                    sources: &q.sources,
                    what: &what,
                    scripts,
                    since,
                };
                let (outcome, tests) = announce(out, opts, &stop, now, &l.rules, &l.others, &mut host);
                let _ = out.flush();
                (l.outcome, l.tests) = (outcome, tests);
                let keys = diagnostic_keys(&q.diagnostics, &q.sources);
                l.loaded.diagnostics = q.diagnostics;
                l.loaded.sources = q.sources;
                keys
            }
            Err(errors) => {
                kept_last_good(out, &q.diagnostics, &q.sources, &errors, true);
                let _ = out.flush();
                diagnostic_keys(&q.diagnostics, &q.sources)
            }
        };
        Some(Expected { ok, keys })
    };
    // Watch before the first load, so that a save made while it runs is not missed.
    // Two watchers feed one channel: the debouncer (every kind of change, after a quiet period)
    // and, where the platform reports it (inotify), a file closed after writing, which is a
    // completed save and is reloaded at once, without waiting out the quiet period.
    let (tx, rx) = mpsc::channel::<Msg>();
    let debounced = tx.clone();
    let mut debouncer = new_debouncer(opts.debounce, Some(opts.debounce / 4), move |r: DebounceEventResult| {
        let _ = debounced.send(Msg::Debounced(r));
    })
    .map_err(|e| format!("cannot watch: {e}"))?;
    let mut roots: Vec<PathBuf> =
        load_opts.paths.iter().chain(&opts.library).chain(&opts.extra).filter(|p| p.exists()).cloned().collect();
    roots.sort();
    roots.dedup();
    // The roots as the watchers' callbacks see them: grows when a pack linked in from outside
    // them is found (`linked_packs`).
    let in_roots = Arc::new(std::sync::RwLock::new(roots.clone()));
    let shared_roots = in_roots.clone();
    let mut written = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
        let Ok(e) = r else { return };
        let saved = matches!(
            e.kind,
            notify::EventKind::Access(notify::event::AccessKind::Close(notify::event::AccessMode::Write))
        );
        let Ok(in_roots) = in_roots.read() else { return };
        let saved = saved && e.paths.iter().any(|p| is_content_file(p) && in_roots.iter().any(|r| p.starts_with(r)));
        // A root created or moved in again (seen through its parent's watch).
        let root_back = matches!(
            e.kind,
            notify::EventKind::Create(_) | notify::EventKind::Modify(notify::event::ModifyKind::Name(_))
        ) && e.paths.iter().any(|p| in_roots.contains(p) && p.exists());
        if saved || root_back {
            let _ = tx.send(Msg::Written(Instant::now(), e.paths));
        }
    })
    .map_err(|e| format!("cannot watch: {e}"))?;
    for r in &roots {
        debouncer.watch(r, RecursiveMode::Recursive).map_err(|e| format!("cannot watch {}: {e}", r.display()))?;
        notify::Watcher::watch(&mut written, r, RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch {}: {e}", r.display()))?;
    }
    // A root's own watch goes with it when it is deleted or moved away: its parent (alone, not
    // its subtree) is watched too, to see the root removed and created again, and a root that
    // comes back is watched again (`lost`).
    for parent in roots.iter().filter_map(|r| r.parent()).filter(|p| !roots.iter().any(|r| p.starts_with(r))) {
        if parent.is_dir() {
            let _ = debouncer.watch(parent, RecursiveMode::NonRecursive);
            let _ = notify::Watcher::watch(&mut written, parent, RecursiveMode::NonRecursive);
        }
    }
    let mut lost: Vec<PathBuf> = Vec::new();
    // A pack that is a link to a directory outside the roots is watched where it really is.
    let follow_links = |roots: &mut Vec<PathBuf>,
                        debouncer: &mut notify_debouncer_full::Debouncer<
        notify::RecommendedWatcher,
        notify_debouncer_full::RecommendedCache,
    >,
                        written: &mut notify::RecommendedWatcher| {
        for target in linked_packs(&opts.library, roots) {
            let _ = debouncer.watch(&target, RecursiveMode::Recursive);
            let _ = notify::Watcher::watch(written, &target, RecursiveMode::Recursive);
            roots.push(target);
        }
        if let Ok(mut shared) = shared_roots.write() {
            shared.clone_from(roots);
        }
    };
    follow_links(&mut roots, &mut debouncer, &mut written);
    let mut read_from = Instant::now();
    // The text of each file a reload was made for, as read just before it (a digest).
    let mut live_text: std::collections::HashMap<PathBuf, u64> = Default::default();
    reload(&mut cache, &mut live, out, started, &[], None);
    let _ = writeln!(
        out,
        "watching {} (Ctrl-C stops)",
        roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    let _ = out.flush();
    while !stop.load(Ordering::Relaxed) {
        let first = match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(m) => m,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        // Coalesce bursts: take everything already queued (events that came during the last
        // reload are here too).
        let mut since: Option<Instant> = None;
        let mut changed: Vec<PathBuf> = Vec::new();
        let mut take = |m: Msg, out: &mut dyn Write| {
            let (at, paths): (Instant, Vec<PathBuf>) = match m {
                Msg::Written(at, paths) => (at, paths),
                Msg::Debounced(Err(errors)) => {
                    for e in errors {
                        let _ = writeln!(out, "watch error: {e}");
                    }
                    return;
                }
                Msg::Debounced(Ok(events)) => {
                    // An event from before the last reload began reading is already in it (a
                    // write reloaded at once comes back here after the quiet period).
                    let fresh: Vec<_> = events
                        .into_iter()
                        .filter(|e| e.time >= read_from && calls_for_reload(&e.event, &cache, &roots))
                        .collect();
                    let Some(at) = fresh.iter().map(|e| e.time).min() else { return };
                    (at, fresh.into_iter().flat_map(|e| e.event.paths).collect())
                }
            };
            since = Some(since.map_or(at, |s| s.min(at)));
            changed.extend(paths);
        };
        take(first, out);
        while let Ok(more) = rx.try_recv() {
            take(more, out);
        }
        let Some(since) = since else { continue };
        for r in &roots {
            if !r.exists() {
                if !lost.contains(r) {
                    lost.push(r.clone());
                }
            } else if let Some(at) = lost.iter().position(|l| l == r) {
                // Back: watched again before the reload reads it, so no later save is missed.
                lost.remove(at);
                let _ = debouncer.watch(r, RecursiveMode::Recursive);
                let _ = notify::Watcher::watch(&mut written, r, RecursiveMode::Recursive);
            }
        }
        changed.sort();
        changed.dedup();
        // Files whose text is what the live rules were loaded from need no reload (the quiet
        // period's report of a save already reloaded at once); anything else does.
        if changed.iter().all(|p| digest(p).is_some_and(|d| live_text.get(p) == Some(&d))) {
            continue;
        }
        for p in &changed {
            match digest(p) {
                Some(d) => {
                    live_text.insert(p.clone(), d);
                }
                // Removed, or a directory (one removed, created or moved in is reported alone,
                // not its files): what was known of the files under it no longer says what is
                // live, so the same text saved there again reloads.
                None => live_text.retain(|k, _| !k.starts_with(p)),
            };
        }
        let scripts: Vec<PathBuf> = changed.iter().filter(|p| is_script(p)).cloned().collect();
        read_from = Instant::now();
        // Scripts alone: the quick path makes them live first, then the full reload checks it
        // (unless stopping). Events that come meanwhile queue for the next turn of the loop.
        // An editor's temporary file, renamed over the script it saved, is gone: nothing reads it.
        let gone_temp = |p: &PathBuf| is_ignored_name(p) && !p.exists();
        let only_scripts = changed.iter().all(|p| is_script(p) || gone_temp(p));
        let expect = if opts.quick && !scripts.is_empty() && only_scripts {
            quick(&mut live, out, since, &scripts)
        } else {
            None
        };
        if expect.is_none() || !stop.load(Ordering::Relaxed) {
            reload(&mut cache, &mut live, out, since, &scripts, expect);
        }
        follow_links(&mut roots, &mut debouncer, &mut written);
    }
    let _ = writeln!(out, "stopped");
    Ok(())
}
