//! The progress bar of a long command (`cav test`, `cav hooks`, `cav odds`…) on an interactive
//! terminal.

use std::io::IsTerminal;

/// A progress bar on an interactive terminal (stderr), hidden when piped.
pub fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len).with_prefix(what.to_owned());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {wide_msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
