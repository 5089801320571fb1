//! `cav watch`: the packs reloaded on every save (cav_watch), stopped by Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::pack_arg;

/// `cav watch`: until Ctrl-C.
pub fn run(
    root: &Path,
    paths: Vec<PathBuf>,
    ruleset: String,
    run: Option<String>,
    seed: u64,
    test: bool,
    debounce_ms: u64,
) -> Result<ExitCode, String> {
    let after = match (run, test) {
        (Some(scenario), _) => cav_watch::After::Run { scenario, seed },
        (None, true) => cav_watch::After::Test,
        (None, false) => cav_watch::After::Nothing,
    };
    let opts = cav_watch::WatchOptions {
        paths: pack_arg::resolve_all(paths, root)?,
        debounce: std::time::Duration::from_millis(debounce_ms),
        ..cav_watch::WatchOptions::for_root(root, &ruleset, after)
    };
    cav_watch::check_options(&opts)?;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    // The first Ctrl-C stops after the running reload step; a second one does not wait.
    ctrlc::set_handler(move || {
        if flag.swap(true, std::sync::atomic::Ordering::Relaxed) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    cav_watch::watch(&opts, &mut std::io::stdout(), stop)?;
    Ok(ExitCode::SUCCESS)
}
