//! Memory of a long `cav watch` session on the bundled content: `n` saves, alternately of one
//! unit file (a new value each time, so every save is a full reload with new text) and of one
//! Lua script (the quick path, then the full reload), each waited for; the resident set size
//! (`VmRSS`) printed every tenth of the way. Flat means the caches keep only what the live
//! rules need. Linux only (reads `/proc/self/status`).
//! `cargo run --release -p cav-watch --example memory -- 10000`

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cav_watch::{After, LineSink, WatchOptions, watch};

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
        .unwrap_or(0)
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
    }
    let root = dir.path().to_owned();
    let opts = WatchOptions::for_root(&root, "quickstart", After::Nothing);
    let counts = opts.counts.clone();
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let t = std::thread::spawn(move || watch(&opts, &mut LineSink::new(tx), flag).unwrap());
    let wait = |prefix: &str| loop {
        let (_, line) = rx.recv_timeout(Duration::from_secs(60)).expect("watcher output");
        if line.starts_with(prefix) {
            return;
        }
    };
    wait("watching");
    let card = root.join("content/cav-quickstart/models/dictator-b.yaml");
    let script = root.join("content/cav-quickstart/scripts/strike.luau");
    let (card_text, script_text) = (std::fs::read_to_string(&card).unwrap(), std::fs::read_to_string(&script).unwrap());
    let start = Instant::now();
    println!("saves 0: {} KiB", rss_kib());
    for i in 0..n {
        let full_before = counts.full.load(Ordering::Relaxed);
        if i % 2 == 0 {
            std::fs::write(&card, card_text.replace("\ntv: 800\n", &format!("\ntv: {}\n", 801 + i))).unwrap();
        } else {
            std::fs::write(&script, format!("{script_text}-- edit {i}\n")).unwrap();
        }
        wait("reloaded");
        // The full reload that follows a quick one, before the next save.
        while counts.full.load(Ordering::Relaxed) <= full_before {
            std::thread::sleep(Duration::from_millis(1));
        }
        if (i + 1) % (n / 10).max(1) == 0 {
            println!("saves {}: {} KiB ({:.0} s)", i + 1, rss_kib(), start.elapsed().as_secs_f64());
        }
    }
    stop.store(true, Ordering::Relaxed);
    t.join().unwrap();
}
