//! The file watchers: a debouncer and a watcher of completed saves over the roots and their
//! parents, packs linked in from outside the roots, and roots that vanish and come back.

use std::path::PathBuf;
use std::sync::{Arc, RwLock, mpsc};
use std::time::Instant;

use cav_content::LoadOptions;
use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::WatchOptions;
use crate::events::{Msg, is_content_file};

/// The two watchers over the roots, and the roots as they stand.
pub(crate) struct Watchers {
    written: notify::RecommendedWatcher,
    /// The roots as the save watcher's callback sees them (see `start`).
    shared_roots: Arc<RwLock<Vec<PathBuf>>>,
    /// Roots gone (deleted or moved away), to watch again when they come back.
    lost: Vec<PathBuf>,
    /// Every directory watched whole: the paths and library asked for, the extra directories,
    /// packs linked in from outside them.
    pub(crate) roots: Vec<PathBuf>,
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// Where both watchers send what they see.
    pub(crate) rx: mpsc::Receiver<Msg>,
}

impl Watchers {
    /// Watch the roots (and their parents) for the loop.
    pub(crate) fn start(opts: &WatchOptions, load_opts: &LoadOptions) -> Result<Watchers, String> {
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
        let in_roots = Arc::new(RwLock::new(roots.clone()));
        let shared_roots = in_roots.clone();
        let mut written = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
            let Ok(e) = r else { return };
            let saved = matches!(
                e.kind,
                notify::EventKind::Access(notify::event::AccessKind::Close(notify::event::AccessMode::Write))
            );
            let Ok(in_roots) = in_roots.read() else { return };
            let saved =
                saved && e.paths.iter().any(|p| is_content_file(p) && in_roots.iter().any(|r| p.starts_with(r)));
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
        let lost: Vec<PathBuf> = Vec::new();
        Ok(Watchers { written, shared_roots, lost, roots, debouncer, rx })
    }

    /// A pack that is a link to a directory outside the roots is watched where it really is.
    pub(crate) fn follow_links(&mut self, library: &[PathBuf]) {
        let Watchers { roots, debouncer, written, shared_roots, .. } = self;
        for target in linked_packs(library, roots) {
            let _ = debouncer.watch(&target, RecursiveMode::Recursive);
            let _ = notify::Watcher::watch(written, &target, RecursiveMode::Recursive);
            roots.push(target);
        }
        if let Ok(mut shared) = shared_roots.write() {
            shared.clone_from(roots);
        }
    }

    /// Wait until both watchers' threads have finished with the events they have read. A
    /// directory created or moved into a root is watched by the watcher's own thread after it
    /// reports it: on a loaded machine that thread may lag behind a whole reload, and a save made
    /// in the directory just after the reload would then come before its watch and be missed.
    /// (`configure` is answered by that thread in turn, after its current batch of events.)
    pub(crate) fn catch_up(&mut self) {
        let _ = self.debouncer.configure(notify::Config::default());
        let _ = notify::Watcher::configure(&mut self.written, notify::Config::default());
    }

    /// Note the roots gone, and watch again those that came back.
    pub(crate) fn watch_returned_roots(&mut self) {
        let Watchers { roots, debouncer, written, lost, .. } = self;
        for r in roots.iter() {
            if !r.exists() {
                if !lost.contains(r) {
                    lost.push(r.clone());
                }
            } else if let Some(at) = lost.iter().position(|l| l == r) {
                // Back: watched again before the reload reads it, so no later save is missed.
                lost.remove(at);
                let _ = debouncer.watch(r, RecursiveMode::Recursive);
                let _ = notify::Watcher::watch(written, r, RecursiveMode::Recursive);
            }
        }
    }
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
