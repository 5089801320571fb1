//! What a pause costs work that touches memory, on this machine, with none of cav's code: a
//! walk through `MB` megabytes in a random order (one dependent load per 64-byte line), back to
//! back and after `IDLE` ms asleep, as a save comes after a pause (docs/speed.md: why a reload
//! costs more after a pause than back to back, and why touching less memory is what pays).
//!   `idle_penalty [MB] [IDLE_MS]`   defaults: 1, 4 and 16 MB; 100 ms
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = args.first().map_or(vec![1, 4, 16], |&mb| vec![mb]);
    let idle = Duration::from_millis(args.get(1).copied().unwrap_or(100));
    for mb in sizes {
        let lines = (mb as usize * 1024 * 1024 / 64).max(2);
        // A random cycle through every line (xorshift, a fixed seed: the same walk each run).
        let mut order: Vec<usize> = (0..lines).collect();
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for i in (1..lines).rev() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            order.swap(i, (x % (i as u64 + 1)) as usize);
        }
        let mut next = vec![0usize; lines * 8];
        for w in 0..lines {
            next[order[w] * 8] = order[(w + 1) % lines] * 8;
        }
        let walk = |pause: Duration| {
            let mut times: Vec<f64> = (0..21)
                .map(|_| {
                    std::thread::sleep(pause);
                    let t = Instant::now();
                    let mut at = 0;
                    for _ in 0..lines {
                        at = next[at];
                    }
                    std::hint::black_box(at);
                    t.elapsed().as_secs_f64() * 1e3
                })
                .collect();
            times.sort_by(f64::total_cmp);
            times[times.len() / 2]
        };
        let (warm, cold) = (walk(Duration::ZERO), walk(idle));
        println!(
            "{mb} MB: {warm:.2} ms back to back, {cold:.2} ms after {} ms idle ({:.1}×), medians of 21",
            idle.as_millis(),
            cold / warm
        );
    }
}
