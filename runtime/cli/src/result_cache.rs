//! The persistent cache (`cav-cache`) as the commands use it: where it is, the build it belongs
//! to, the key of a result computed from content, a command's whole output as an entry
//! ([`answer`]: `cav validate`, `list`, `show`, `hooks`), and the compiled rules the commands that play
//! start from ([`RulesCache`]).

use std::path::PathBuf;
use std::sync::Arc;

use cav_cache::{Key, KeyBuilder, Store, Uncacheable};
use cav_content::LoadOptions;
use serde::{Deserialize, Serialize};

/// The cache of this build, unless `--no-cache` or `CAV_NO_CACHE` turns it off, no cache
/// directory is known, or it lies inside a folder content is read from (a pack could then carry
/// entries: said, and not used). The type checker's answers are kept beside it, in a store of
/// their own ([`answers`]: many small entries, which must not push results out).
pub fn open(no_cache: bool, content: &[PathBuf]) -> Option<Store> {
    if no_cache || std::env::var_os("CAV_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    let dir = match cav_cache::default_dir() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("cav: cache: {}: results are not cached", cav_content::diag::shown(&why));
            return None;
        }
    };
    // A type checker named without a folder is found on PATH when it runs: which program that is
    // cannot be stamped here, so its results are not kept.
    if cav_script::check::typecheck_program().is_some_and(|c| c.components().count() == 1 && !c.is_absolute()) {
        return None;
    }
    let store = Store::new(dir, build());
    if let Some(root) = content.iter().find(|r| store.inside(r)) {
        eprintln!(
            "cav: cache: {} is inside {}, where content is read from: not used (set CAV_CACHE_DIR elsewhere)",
            cav_content::diag::shown(&store.dir().display().to_string()),
            cav_content::diag::shown(&root.display().to_string())
        );
        return None;
    }
    let answers = ANSWERS.get_or_init(|| Arc::new(answers(store.dir(), *store.build())));
    cav_script::check::keep_answers_in(answers.clone());
    Some(store)
}

/// The type checker's answers kept by this run (`cav_script::check::keep_answers_in`).
static ANSWERS: std::sync::OnceLock<Arc<Store>> = std::sync::OnceLock::new();

/// The store of the type checker's answers in cache directory `dir`: its `typecheck` folder.
pub fn answers(dir: &std::path::Path, build: [u8; 32]) -> Store {
    Store::new(dir.join("typecheck"), build)
}

/// This build of `cav`: its version, the program and the type checker it runs (a rebuilt or
/// moved one is another build; their results may differ).
pub fn build() -> [u8; 32] {
    let exe = std::env::current_exe().ok();
    let checker = cav_script::check::typecheck_program();
    cav_cache::build_id(&[
        env!("CARGO_PKG_VERSION").as_bytes(),
        &cav_cache::program_stamp(exe.as_deref()),
        &cav_cache::program_stamp(checker.as_deref()),
    ])
}

/// Say once, on stderr, what went wrong with the cache during the run (with the type checker's
/// answers).
pub fn say_notes(store: Option<&Store>) {
    let answers = store.and_then(|_| ANSWERS.get()).map(|a| a.notes()).unwrap_or_default();
    for n in store.map(Store::notes).unwrap_or_default().into_iter().chain(answers) {
        eprintln!("cav: cache: {}", cav_content::diag::shown(&n));
    }
}

/// The key of a result computed from loaded content (`purpose`: `validate`, `rules`): the
/// command's options, the working directory (paths are shown relative to it) and every file of
/// every folder the load may read — each requested pack or root (a single file: its pack) and
/// each library root — with its exact bytes.
pub fn content_key(
    store: &Store,
    purpose: &str,
    opts: &LoadOptions,
    what: &[(&str, &[u8])],
) -> Result<Key, Uncacheable> {
    let mut k = KeyBuilder::new(purpose, store.build());
    for (name, value) in what {
        k.field(name, value);
    }
    let cwd = std::env::current_dir().map_err(|e| Uncacheable(format!("no working directory: {e}")))?;
    k.path("cwd", &cwd);
    let mut trees: Vec<PathBuf> = Vec::new();
    for p in &opts.paths {
        k.path("path", p);
        if p.is_file() {
            trees.extend(cav_content::enclosing_pack(p));
        } else {
            trees.push(p.clone());
        }
    }
    for l in &opts.library {
        k.path("library", l);
        trees.push(l.clone());
    }
    // Each folder once; one inside another is hashed with it.
    let real: Vec<PathBuf> = trees.iter().map(|t| t.canonicalize().unwrap_or_else(|_| t.clone())).collect();
    for (i, t) in trees.iter().enumerate() {
        let covered = real
            .iter()
            .enumerate()
            .any(|(j, r)| (j < i && *r == real[i]) || (*r != real[i] && real[i].starts_with(r) && trees[j].is_dir()));
        if !covered {
            k.tree(t)?;
        }
    }
    Ok(k.finish())
}

/// A command whose whole output depends only on the content and its options `what` (`cav
/// validate`, `list`, `show`, `hooks`, `coverage`, `force check`, `force pool`): printed from the
/// cache when both are unchanged since an earlier run, else computed (`compute`: the output, and
/// whether a finding depended on the moment) and kept; then what went wrong with the cache is
/// said.
pub fn answer(
    no_cache: bool,
    purpose: &str,
    opts: &LoadOptions,
    what: &[(&str, &[u8])],
    compute: impl FnOnce() -> Result<(Output, bool), String>,
) -> Result<std::process::ExitCode, String> {
    let store = open(no_cache, &content_roots(opts));
    let out = through(
        store.as_ref(),
        purpose,
        opts,
        what,
        Output::decode,
        |o| Some(o.encode()),
        "the output of a run",
        compute,
    )?;
    out.print();
    say_notes(store.as_ref());
    Ok(std::process::ExitCode::from(out.code))
}

/// What a command that writes files or streams its lines works out from the content and its
/// options `what` (`cav card`'s page, `cav docs`' pages, `cav test`'s runs, `cav force build`'s
/// roster): taken from the cache when both are unchanged since an earlier run, else computed and
/// kept, as JSON; then what went wrong with the cache is said. The caller writes and prints
/// from it as from a value computed now. An entry whose text holds a control character (one a
/// name could carry to the terminal, see [`tells_control`]) is ignored.
pub fn kept<T: Serialize + serde::de::DeserializeOwned>(
    no_cache: bool,
    purpose: &str,
    opts: &LoadOptions,
    what: &[(&str, &[u8])],
    compute: impl FnOnce() -> Result<(T, bool), String>,
) -> Result<T, String> {
    let store = open(no_cache, &content_roots(opts));
    let found = through(
        store.as_ref(),
        purpose,
        opts,
        what,
        read_json,
        |v| serde_json::to_vec(v).ok(),
        "a kept result",
        compute,
    );
    say_notes(store.as_ref());
    found
}

/// The one way a result is taken from `store` or computed and kept: the entry of `purpose` for
/// the content and `what` ([`content_key`]) read back with `read` (an entry it refuses is not
/// `is`: said, and removed); else `compute` runs, and its result is kept unless it depends on
/// the moment (a checker that could not run), the files changed while they were read (the key
/// is taken again: the result must be of the content the key names), or the entry would not
/// give it back (`read` then `write` must give the same bytes).
#[allow(clippy::too_many_arguments)]
fn through<T>(
    store: Option<&Store>,
    purpose: &str,
    opts: &LoadOptions,
    what: &[(&str, &[u8])],
    read: impl Fn(&[u8]) -> Option<T>,
    write: impl Fn(&T) -> Option<Vec<u8>>,
    is: &str,
    compute: impl FnOnce() -> Result<(T, bool), String>,
) -> Result<T, String> {
    let key = store.and_then(|s| content_key(s, purpose, opts, what).ok());
    if let Some((s, k)) = store.zip(key)
        && let Some(bytes) = s.get(&k)
    {
        match read(&bytes) {
            Some(v) => return Ok(v),
            None => s.discard(&k, &format!("not {is}")),
        }
    }
    let (value, transient) = compute()?;
    if let (Some(s), Some(k), false) = (store, key, transient)
        && let Some(bytes) = write(&value)
        && read(&bytes).as_ref().and_then(&write).as_ref() == Some(&bytes)
        && content_key(s, purpose, opts, what).ok() == Some(k)
    {
        s.put(&k, &bytes);
    }
    Ok(value)
}

/// A command's whole output: exit code, standard output, standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn print(&self) {
        use std::io::Write;
        let _ = std::io::stderr().write_all(self.stderr.as_bytes());
        let _ = std::io::stdout().write_all(self.stdout.as_bytes());
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.code];
        for s in [&self.stdout, &self.stderr] {
            out.extend((s.len() as u64).to_le_bytes());
            out.extend(s.as_bytes());
        }
        out
    }

    /// An entry's output, only if it is what `encode` writes and holds no control character but
    /// line ends, carriage returns and tabs (which quoted source lines keep): even an entry
    /// planted in the cache directory cannot send the terminal an escape sequence.
    pub fn decode(bytes: &[u8]) -> Option<Output> {
        let (&code, mut rest) = bytes.split_first()?;
        let mut text = || -> Option<String> {
            let len = usize::try_from(u64::from_le_bytes(rest.get(..8)?.try_into().ok()?)).ok()?;
            let s = std::str::from_utf8(rest.get(8..8usize.checked_add(len)?)?).ok()?.to_owned();
            rest = &rest[8 + len..];
            Some(s).filter(|s| !s.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')))
        };
        let (stdout, stderr) = (text()?, text()?);
        rest.is_empty().then_some(Output { code, stdout, stderr })
    }
}

/// The digest of files named on the command line (rosters), each by its path and exact bytes
/// (`KeyBuilder::file`); `None` when one cannot be hashed soundly (a link, a FIFO, a device, a
/// file too large): the result is then not cached, and the command's own reading says why.
pub fn files_digest(files: &[PathBuf]) -> Option<[u8; 32]> {
    let mut k = KeyBuilder::new("files", &[0; 32]);
    for f in files {
        k.file("file", f).ok()?;
    }
    Some(k.finish().0)
}

/// The folders content is read from (for [`open`]).
pub fn content_roots(opts: &LoadOptions) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = opts.library.clone();
    for p in &opts.paths {
        roots.push(if p.is_file() { cav_content::enclosing_pack(p).unwrap_or_else(|| p.clone()) } else { p.clone() });
    }
    roots
}

/// A ruleset's rules as compiled from content without error, and the pins an event log's header
/// carries: what `cav play`, `sim`, `replay`, `map`, `odds` and `dice` start from when the
/// content is the same as in an earlier run, instead of loading, checking and compiling it again
/// (`runner::kept_game` says when a game needs nothing else of the content).
#[derive(Serialize, Deserialize)]
pub struct KeptRules {
    /// The ruleset pack's id (an event log's header names it).
    pub ruleset: String,
    pub rules: cav_rules::Rules,
    pub pins: crate::replay::Pins,
}

/// Where the compiled rules of one ruleset of the project's content are kept: the entry named by
/// the ruleset asked for and every file the load may read ([`content_key`]).
pub struct RulesCache {
    store: Store,
    key: Key,
    opts: LoadOptions,
    want: String,
    /// The entry was read whole this run (a game that needed the content itself loaded it
    /// anyway): it is not written again.
    found: std::cell::Cell<bool>,
}

impl RulesCache {
    /// The cache for ruleset `want` of the content `load_options(vec![], root)` loads; `None`
    /// when results are not cached (see [`open`]) or the content cannot be hashed soundly.
    pub fn open(root: &std::path::Path, want: &str, no_cache: bool) -> Option<RulesCache> {
        let opts = crate::project::load_options(vec![], root);
        let store = open(no_cache, &content_roots(&opts))?;
        let key = content_key(&store, "rules", &opts, &[("ruleset", want.as_bytes())]).ok()?;
        Some(RulesCache { store, key, opts, want: want.to_owned(), found: Default::default() })
    }

    /// The rules an earlier run kept for this content. An entry that is not kept rules (the
    /// store has checked its hash: damage is found there), or whose text holds a control
    /// character a name could carry to the terminal, is ignored, said once and removed.
    pub fn get(&self) -> Option<KeptRules> {
        let bytes = self.store.get(&self.key)?;
        let kept = read_json(&bytes);
        if kept.is_none() {
            self.store.discard(&self.key, "not compiled rules");
        }
        self.found.set(kept.is_some());
        kept
    }

    /// Keep `rules`, compiled now from `rs`, for the next run; unless it was found whole this
    /// run, a finding depended on the moment (`transient`), the files changed while they were
    /// loaded (the key is taken again and must be the same), or the entry would not give back
    /// these rules (read back and compared by their `Debug` form, the fingerprint of
    /// `cav_lab::same_rules`). Nothing is said when a result is not kept: the command's own
    /// output is the same either way.
    pub fn keep(&self, rules: &cav_rules::Rules, rs: &cav_content::Ruleset, transient: bool) {
        if transient || self.found.get() {
            return;
        }
        let Ok(pins) = crate::replay::pins(rs) else { return };
        /// [`KeptRules`] as written: borrowed, not copied.
        #[derive(Serialize)]
        struct Writing<'a> {
            ruleset: &'a str,
            rules: &'a cav_rules::Rules,
            pins: crate::replay::Pins,
        }
        let Ok(bytes) = serde_json::to_vec(&Writing { ruleset: &rs.id, rules, pins }) else { return };
        let same =
            serde_json::from_slice::<KeptRules>(&bytes).is_ok_and(|back| cav_lab::same_rules(&back.rules, rules));
        if same && self.content_unchanged() {
            self.store.put(&self.key, &bytes);
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Is the content still what this entry's key names (its key taken again)? Asked before an
    /// entry made from it is written: files saved during the run must not be kept under the old
    /// key.
    fn content_unchanged(&self) -> bool {
        content_key(&self.store, "rules", &self.opts, &[("ruleset", self.want.as_bytes())]).ok() == Some(self.key)
    }

    /// The key of the rosters chosen for a game of scenario `sc` of `rules` (`named` as asked:
    /// `None` for the default) from `seed` with `rosters`, on this content: the rules' key, the
    /// options, each roster file by its path and bytes, and the seed only when the bot builds a
    /// side's roster (files alone do not depend on it). `None`: not cached.
    pub fn rosters_key(
        &self,
        rules: &cav_rules::Rules,
        sc: usize,
        named: Option<&str>,
        seed: u64,
        rosters: &crate::rosters::Rosters,
    ) -> Option<Key> {
        let mut k = KeyBuilder::new("rosters", self.store.build());
        k.field("rules", &self.key.0);
        k.field("scenario", named.map_or(&[0xff][..], str::as_bytes));
        k.field("rosters", &files_digest(&rosters.files)?);
        k.field("tv", &rosters.tv.map_or([0xff; 5].to_vec(), |t| t.to_le_bytes().to_vec()));
        k.field("faction", rosters.faction.as_bytes());
        if rosters.files.len() < rules.scenarios.get(sc)?.sides.len() {
            k.field("seed", &seed.to_le_bytes());
        }
        Some(k.finish())
    }

    /// The key of the rosters a log recorded (`cav replay`), fielded on this content: the rules'
    /// key and the rosters as the log holds them.
    pub fn recorded_key(&self, sides: &[crate::replay::SideForce]) -> Option<Key> {
        let mut k = KeyBuilder::new("recorded-rosters", self.store.build());
        k.field("rules", &self.key.0);
        k.field("sides", &serde_json::to_vec(sides).ok()?);
        Some(k.finish())
    }

    /// The rosters an earlier run chose under `key` ([`Self::rosters_key`]), read as any kept
    /// result is (control characters refused).
    pub fn picked(&self, key: &Key) -> Option<crate::rosters::Picked> {
        let bytes = self.store.get(key)?;
        let picked = read_json(&bytes);
        if picked.is_none() {
            self.store.discard(key, "not rosters");
        }
        picked
    }

    /// Keep the rosters chosen now under `key`, when the content is still what the rules' key
    /// names (taken again) and the entry reads back as written.
    pub fn keep_rosters(&self, key: Key, picked: &crate::rosters::Picked) {
        let Ok(bytes) = serde_json::to_vec(picked) else { return };
        let back = read_json::<crate::rosters::Picked>(&bytes).and_then(|p| serde_json::to_vec(&p).ok());
        if back.as_ref() == Some(&bytes) && self.content_unchanged() {
            self.store.put(&key, &bytes);
        }
    }
}

/// The B of a paired run (`cav sim --vs`) as an earlier run made it from the same content, change
/// and rosters: its rules (before A's rosters were fielded in them), its content hash, the change
/// as results record it, the rosters to field in it, and what making it told on stderr.
#[derive(Serialize, Deserialize)]
pub struct KeptB {
    pub rules: cav_rules::Rules,
    pub hash: String,
    pub change: String,
    pub picked: Option<crate::rosters::Picked>,
    pub told: String,
}

impl RulesCache {
    /// The key of B for scenario `scenario` (as asked), `change` (by its spec, as given) and A's
    /// rosters (`recorded`: `None` where the scenario fixes its forces) on this content: the
    /// rules' key, those three, and for `mod:` every file under the path it adds (`None`: not
    /// cached, e.g. a folder holding a link).
    pub fn vs_key(
        &self,
        scenario: &str,
        change: &cav_lab::Change,
        recorded: Option<&[crate::replay::SideForce]>,
    ) -> Option<Key> {
        let mut k = KeyBuilder::new("vs", self.store.build());
        k.field("rules", &self.key.0);
        k.field("scenario", scenario.as_bytes());
        k.field("change", change.spec().as_bytes());
        k.field("rosters", &recorded.map_or(Some(vec![0xff]), |r| serde_json::to_vec(r).ok())?);
        if let cav_lab::Change::AddPacks { path } = change {
            k.tree(path).ok()?;
        }
        Some(k.finish())
    }

    /// B as an earlier run kept it under `key` ([`Self::vs_key`]), read as any kept result is.
    pub fn kept_b(&self, key: &Key) -> Option<KeptB> {
        let bytes = self.store.get(key)?;
        let b = read_json(&bytes);
        if b.is_none() {
            self.store.discard(key, "not the B of a paired run");
        }
        b
    }

    /// Keep B, made now, under `key`: when the content and the change's files are still what the
    /// key names (`key_now`, taken again) and the entry gives back these rules (compared by their
    /// `Debug` form, as [`Self::keep`] does).
    pub fn keep_b(&self, key: Key, b: &KeptB, key_now: impl FnOnce() -> Option<Key>) {
        let Ok(bytes) = serde_json::to_vec(b) else { return };
        let same = read_json::<KeptB>(&bytes).is_some_and(|back| {
            cav_lab::same_rules(&back.rules, &b.rules) && serde_json::to_vec(&back).ok().as_ref() == Some(&bytes)
        });
        if same && self.content_unchanged() && key_now() == Some(key) {
            self.store.put(&key, &bytes);
        }
    }
}

/// A kept JSON entry as `T`, unless its text holds a control character ([`tells_control`]).
fn read_json<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    (!tells_control(bytes)).then(|| serde_json::from_slice(bytes).ok()).flatten()
}

/// Whether JSON text holds a control character other than a line end, carriage return or tab,
/// written or escaped (`\u001b`, `\b`): an entry planted in the cache directory must not send
/// the terminal an escape sequence through a name the narrative prints. (The content's own
/// strings cannot hold one: the loader refuses them, so a kept entry never does.)
fn tells_control(json: &[u8]) -> bool {
    let control = |c: u32| char::from_u32(c).is_none_or(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'));
    let Ok(text) = std::str::from_utf8(json) else { return true };
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('b' | 'f') | None => return true,
                Some('u') => {
                    let hex: String = chars.by_ref().take(4).collect();
                    if u32::from_str_radix(&hex, 16).map_or(true, control) {
                        return true;
                    }
                }
                Some(_) => {}
            },
            c if control(u32::from(c)) => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_are_told_however_written() {
        let bad: [&[u8]; 8] = [
            br#""a\u001b[31m""#,
            br#""\u001B""#,
            br#""\u009b""#,
            br#""\b""#,
            br#""\ud800""#,
            b"\"\x1b\"",
            b"\"\xc2\x9b\"",
            b"\"\x7f\"",
        ];
        for b in bad.into_iter().chain([&b"\"\xff\""[..], br#""\"#]) {
            assert!(super::tells_control(b), "{}", String::from_utf8_lossy(b));
        }
        let good: [&[u8]; 4] = [br#"{"a": "line\nnext\ttab"}"#, br#""\\u001b""#, br#""\u00e9""#, "\"é\"".as_bytes()];
        for g in good {
            assert!(!super::tells_control(g), "{}", String::from_utf8_lossy(g));
        }
    }
}
