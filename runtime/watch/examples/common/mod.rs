//! What the watch examples share: a `cav watch` session on a copy of the bundled content.
// Each example uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cav_watch::{After, LineSink, WatchOptions, watch};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav watch`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub struct Session {
    /// The copy's root (the content under it).
    pub root: PathBuf,
    pub counts: Arc<cav_watch::Counts>,
    rx: mpsc::Receiver<(Instant, String)>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    _dir: tempfile::TempDir,
}

impl Session {
    /// Watch a copy of `content/` and `mods/` for the Quick-Start, once its first reload is done.
    pub fn start() -> Session {
        let dir = tempfile::tempdir().unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for d in ["content", "mods"] {
            cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
        }
        // As a modder's files are: not all written a moment ago (a file saved within
        // `SETTLED` of being read is read again by the next reload, unchanged or not).
        std::thread::sleep(cav_content::pack::SETTLED);
        let root = dir.path().to_owned();
        let opts = WatchOptions::for_root(&root, "quickstart", After::Nothing);
        let counts = opts.counts.clone();
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || watch(&opts, &mut LineSink::new(tx), flag).unwrap());
        let s = Session { root, counts, rx, stop, thread: Some(thread), _dir: dir };
        s.wait("watching");
        s
    }

    /// The next line the watcher says that starts with `prefix`, and when it said it.
    pub fn wait(&self, prefix: &str) -> (Instant, String) {
        loop {
            let (at, line) = self.rx.recv_timeout(Duration::from_secs(60)).expect("watcher output");
            if line.starts_with(prefix) {
                return (at, line);
            }
        }
    }

    /// Lines already said, without waiting.
    pub fn said(&self) -> Vec<String> {
        self.rx.try_iter().map(|(_, l)| l).collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
