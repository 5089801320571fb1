//! File events: which call for a reload, and a burst of them gathered into one reload (when the
//! first change happened, which paths changed).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Instant;

use cav_content::pack::Cache;
use notify_debouncer_full::DebounceEventResult;

/// A digest of a content file's text, `None` for what is not a readable file of at most
/// `MAX_FILE_BYTES` (a directory, a removed file).
pub(crate) fn digest(p: &Path) -> Option<u64> {
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
pub(crate) enum Msg {
    /// Changes, after the quiet period.
    Debounced(DebounceEventResult),
    /// A content file closed after writing (a completed save), when it happened.
    Written(Instant, Vec<PathBuf>),
}

pub(crate) fn is_script(p: &Path) -> bool {
    !is_ignored_name(p) && matches!(p.extension().and_then(|e| e.to_str()), Some("lua" | "luau"))
}

/// Hidden files and directories (discovery skips them), editor temp, swap and backup files.
pub(crate) fn is_ignored_name(p: &Path) -> bool {
    let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    name.starts_with('.') || name.ends_with('~') || name.ends_with(".swp") || name.contains(".tmp")
}

pub(crate) fn is_content_file(p: &Path) -> bool {
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
pub(crate) fn calls_for_reload(e: &notify::Event, cache: &Cache, roots: &[PathBuf]) -> bool {
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

/// Take `first` and every message already queued: when the earliest change that calls for a
/// reload happened, and the paths changed; `None` when nothing calls for one. Watch errors are
/// printed.
pub(crate) fn gather(
    first: Msg,
    rx: &mpsc::Receiver<Msg>,
    read_from: Instant,
    cache: &Cache,
    roots: &[PathBuf],
    out: &mut dyn Write,
) -> Option<(Instant, Vec<PathBuf>)> {
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
                    .filter(|e| e.time >= read_from && calls_for_reload(&e.event, cache, roots))
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
    since.map(|since| (since, changed))
}
