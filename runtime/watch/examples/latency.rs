//! Save-to-live latency of `cav watch` on the bundled content: repeated edits of one unit file and
//! of one Lua script, timed from the write to the `reloaded` line. Prints median and 95th percentile.
//! `cargo run --release -p cav-watch --example latency -- 30`

mod common;

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(30);
    let s = common::Session::start();
    let counts = s.counts.clone();
    let card = s.root.join("content/cav-quickstart/models/dictator-b.yaml");
    let script = s.root.join("content/cav-quickstart/scripts/strike.luau");
    let (card_text, script_text) = (std::fs::read_to_string(&card).unwrap(), std::fs::read_to_string(&script).unwrap());
    for (name, path, base) in [("unit file", &card, &card_text), ("Lua script", &script, &script_text)] {
        let quick_before = counts.quick.load(Ordering::Relaxed);
        let full_before = counts.full.load(Ordering::Relaxed);
        let mut save_to_live = Vec::new();
        let mut reported = Vec::new();
        let mut extra = 0;
        for i in 0..n {
            // Let the previous burst settle (the full reload that follows a quick one included);
            // a second reload of the same save would show here.
            while counts.full.load(Ordering::Relaxed) < full_before + i {
                std::thread::sleep(Duration::from_millis(1));
            }
            std::thread::sleep(Duration::from_millis(100));
            extra += s.said().iter().filter(|l| l.starts_with("reloaded")).count();
            let edited = if path == &card {
                base.replace("\ntv: 800\n", &format!("\ntv: {}\n", 801 + i))
            } else {
                format!("{base}-- edit {i}\n")
            };
            let saved = Instant::now();
            std::fs::write(path, edited).unwrap();
            let (at, line) = s.wait("reloaded");
            save_to_live.push((at - saved).as_secs_f64() * 1e3);
            // "reloaded R (what) in 12.3 ms[, N warnings]"
            let ms = line.rsplit(" in ").next().and_then(|t| t.split(" ms").next()).and_then(|t| t.parse::<f64>().ok());
            if let Some(ms) = ms {
                reported.push(ms);
            }
        }
        println!(
            "{name}: save-to-live median {:.1} ms, p95 {:.1} ms (reported event-to-live median {:.1} ms) over {n} edits, {extra} extra reloads",
            percentile(&mut save_to_live.clone(), 0.5),
            percentile(&mut save_to_live, 0.95),
            percentile(&mut reported, 0.5),
        );
        println!("  quick path taken for {} of them", counts.quick.load(Ordering::Relaxed) - quick_before);
    }
}
