//! Hot reload: watch packs and scripts, reload on save, swap in valid rules at once, keep the
//! last good rules (and scripts) when a save breaks something, and show what changed. A save of
//! scripts alone is made live from the live rules first (the quick path), then checked by the
//! full reload.
//!
//! The loop blocks on the watcher's channel (no busy waiting) and checks a stop flag between
//! waits, so Ctrl-C ends it cleanly.

mod event_loop;
mod events;
mod options;
mod quick;
mod reload;
mod replay;
mod report;
mod retest;
mod testkit;
mod watchers;

pub use event_loop::watch;
pub use options::{After, Counts, WatchOptions, check_options};
pub use testkit::{LineSink, copy_tree};
