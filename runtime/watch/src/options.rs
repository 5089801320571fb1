//! What to watch and what to do after each reload (`WatchOptions`), and the check that refuses
//! settings that cannot work before anything is watched.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicUsize;
use std::time::Duration;

use cav_content::pack::Cache;
use cav_format::limits::{WATCH_DEBOUNCE_MAX_MS, WATCH_DEBOUNCE_MIN_MS};

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

/// Reloads counted by [`watch`](crate::watch).
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
