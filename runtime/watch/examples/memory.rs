//! Memory of a long `cav watch` session on the bundled content: `n` saves, alternately of one
//! unit file (a new value each time, so every save is a full reload with new text) and of one
//! Lua script (the quick path, then the full reload), each waited for; the resident set size
//! (`VmRSS`) printed every tenth of the way. Flat means the caches keep only what the live
//! rules need. Linux only (reads `/proc/self/status`).
//! `cargo run --release -p cav-watch --example memory -- 10000`

mod common;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

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
    let s = common::Session::start();
    let card = s.root.join("content/cav-quickstart/models/dictator-b.yaml");
    let script = s.root.join("content/cav-quickstart/scripts/strike.luau");
    let (card_text, script_text) = (std::fs::read_to_string(&card).unwrap(), std::fs::read_to_string(&script).unwrap());
    let start = Instant::now();
    println!("saves 0: {} KiB", rss_kib());
    for i in 0..n {
        let full_before = s.counts.full.load(Ordering::Relaxed);
        if i % 2 == 0 {
            std::fs::write(&card, card_text.replace("\ntv: 800\n", &format!("\ntv: {}\n", 801 + i))).unwrap();
        } else {
            std::fs::write(&script, format!("{script_text}-- edit {i}\n")).unwrap();
        }
        s.wait("reloaded");
        // The full reload that follows a quick one, before the next save.
        while s.counts.full.load(Ordering::Relaxed) <= full_before {
            std::thread::sleep(Duration::from_millis(1));
        }
        if (i + 1) % (n / 10).max(1) == 0 {
            println!("saves {}: {} KiB ({:.0} s)", i + 1, rss_kib(), start.elapsed().as_secs_f64());
        }
    }
}
