//! The project a command works on: its root (`--root`, else found from the working directory),
//! where its packs are found, its content loaded (and its errors told), and a ruleset or document
//! kind named on the command line.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_content::{LoadOptions, Loaded};
use cav_format::DocKind;

use crate::EXIT_INVALID;

/// The nearest ancestor of the working directory with a `content/` directory, else the source tree.
pub fn find_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.ancestors()
        .find(|d| d.join("content").is_dir() && d.join("schemas").is_dir())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// The working directory, when `cav` runs outside the project (an installed `cav` in a mod's own
/// folder) and the directory is a pack or holds packs.
fn packs_here(root: &Path) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let inside = std::fs::canonicalize(root).is_ok_and(|r| cwd.starts_with(r));
    let holds = cwd.join("pack.yaml").is_file()
        || std::fs::read_dir(&cwd)
            .is_ok_and(|d| d.filter_map(|e| e.ok()).any(|e| e.path().join("pack.yaml").is_file()));
    (!inside && holds).then_some(cwd)
}

/// Where packs are found: the project's content/ and mods/, and the packs of the working
/// directory outside the project.
pub fn library(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("content"), root.join("mods")];
    dirs.extend(packs_here(root));
    dirs
}

/// What a command loads: the paths asked for (none: the author's own packs when run in their
/// folder, else everything) and the library.
pub fn load_options(paths: Vec<PathBuf>, root: &Path) -> LoadOptions {
    let paths =
        if paths.is_empty() { packs_here(root).map(|d| vec![d]).unwrap_or_else(|| library(root)) } else { paths };
    LoadOptions { paths, library: library(root) }
}

/// Load with a spinner on an interactive terminal (large trees take a moment).
pub fn load(paths: Vec<PathBuf>, root: &Path) -> Loaded {
    load_with(&load_options(paths, root))
}

/// [`load`] of options already made.
pub fn load_with(opts: &LoadOptions) -> Loaded {
    let mut cache = cav_content::pack::Cache::default();
    let spinner = std::io::stderr().is_terminal().then(|| {
        let s = indicatif::ProgressBar::new_spinner().with_message("loading content packs…");
        s.enable_steady_tick(std::time::Duration::from_millis(80));
        // The count of files read, from the loader as it goes.
        let (bar, read) = (s.clone(), cache.files_read.clone());
        std::thread::spawn(move || {
            while !bar.is_finished() {
                let n = read.load(std::sync::atomic::Ordering::Relaxed);
                bar.set_message(format!("loading content packs… {n} files read"));
                std::thread::sleep(std::time::Duration::from_millis(80));
            }
        });
        s
    });
    let loaded = cav_content::load_cached(opts, &mut cache);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    drop_in_background(cache);
    loaded
}

/// Free a large structure on another thread. Freeing every document of a big pack one by one
/// costs as much as a fifth of `cav validate`: `load` frees its file cache this way for every
/// command (play, sim and the rest go on at once instead of waiting), and a one-shot command
/// frees its documents too, since the process exits when `main` returns, whether or not the
/// thread has finished.
pub fn drop_in_background<T: Send + 'static>(t: T) {
    if std::thread::Builder::new().spawn(move || drop(t)).is_err() {
        // No thread to spare: the value was moved into the closure and is freed with it here.
    }
}

pub fn parse_kind(k: &str) -> Result<DocKind, String> {
    let tag = k.replace('-', "_");
    let tag = tag.strip_suffix('s').filter(|t| DocKind::from_tag(t).is_some()).unwrap_or(&tag);
    DocKind::from_tag(tag).ok_or_else(|| {
        let tags: Vec<&str> = DocKind::ALL.iter().map(|k| k.tag()).collect();
        format!("unknown kind `{k}`; kinds: {}", tags.join(", "))
    })
}

/// `full` and `quickstart` are accepted as short names of the bundled rulesets.
pub fn select_rulesets<'a>(loaded: &'a Loaded, want: Option<&str>) -> Result<Vec<&'a cav_content::Ruleset>, String> {
    let Some(w) = want else { return Ok(loaded.rulesets.iter().collect()) };
    let hit: Vec<_> = loaded.rulesets.iter().filter(|r| r.id == w || r.id == format!("cav-{w}")).collect();
    if hit.is_empty() {
        let ids: Vec<&str> = loaded.rulesets.iter().map(|r| r.id.as_str()).collect();
        return Err(format!("no ruleset `{w}`; available: {}", ids.join(", ")));
    }
    Ok(hit)
}

/// The line a command that goes on despite the content's errors says: their count, or nothing.
pub fn errors_note(loaded: &Loaded) -> String {
    match loaded.error_count() {
        0 => String::new(),
        n => format!(
            "warning: the content has {n} error{}; run `cav validate` for details\n",
            if n == 1 { "" } else { "s" }
        ),
    }
}

/// The content's errors, told for a command that cannot go on with them (`why` ends the line
/// after them), and the exit code that says so: invalid content.
pub fn content_errors(loaded: &Loaded, why: &str) -> ExitCode {
    eprint!("{}", content_errors_text(loaded, why));
    ExitCode::from(EXIT_INVALID)
}

/// Content loaded and checked, and each ruleset's compiled rules ([`load_checked`]).
pub type Checked = (Loaded, Vec<Option<cav_rules::Rules>>);

/// The content of `opts` loaded and checked, with each ruleset's compiled rules (in
/// `loaded.rulesets` order); or, when it has errors, what a command whose output is kept says
/// then (exit 1: [`content_errors_text`], `why` ending it). And whether a finding depended on the
/// moment (the result is then not kept).
pub fn load_checked(opts: &LoadOptions, why: &str) -> (Result<Checked, crate::result_cache::Output>, bool) {
    let mut loaded = load_with(opts);
    let parts = cav_compile::validate_parts(&mut loaded);
    let transient = parts.transient();
    let compiled = parts.owned_rules();
    if loaded.error_count() > 0 {
        let stderr = content_errors_text(&loaded, why);
        return (Err(crate::result_cache::Output { code: EXIT_INVALID, stdout: String::new(), stderr }), transient);
    }
    (Ok((loaded, compiled)), transient)
}

/// What [`content_errors`] says, for a command whose output is kept whole (`result_cache::answer`).
pub fn content_errors_text(loaded: &Loaded, why: &str) -> String {
    let rendered = cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources);
    format!("{rendered}error: the content has errors; {why}\n")
}
