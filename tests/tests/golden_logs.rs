//! The games of seeds 1–20 under the Quick-Start and the full rules, pinned: each game's event log
//! (every line after the header, whose content digests change with any edit of a summary) is
//! held to a SHA-256 in `tests/data/golden-logs.tsv`. A refactor of the engine must leave every
//! game byte for byte as it was; a change meant to alter games (a rule, the bots, the content)
//! says so by re-blessing the file: `CAV_BLESS=1 cargo test -p cav-tests --test golden_logs`,
//! and the diff of the file shows which games moved.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

const SEEDS: std::ops::RangeInclusive<u64> = 1..=20;
const RULESETS: [&str; 2] = ["quickstart", "full"];

/// The digest of one game's events.
fn game(ruleset: &str, seed: u64) -> String {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("game.jsonl");
    let out = cav_tests::cav_in(&cav_tests::root())
        .args(["play", "--ruleset", ruleset, "--seed", &seed.to_string(), "--quiet", "--log"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{ruleset} seed {seed}: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&log).unwrap();
    let events = text.split_once('\n').map_or("", |(_, rest)| rest);
    assert!(!events.is_empty(), "{ruleset} seed {seed}: no events");
    let mut hex = String::new();
    for b in Sha256::digest(events.as_bytes()) {
        let _ = write!(hex, "{b:02x}");
    }
    hex
}

#[test]
fn the_games_of_seeds_1_to_20_are_as_pinned() {
    let keys: Vec<(&str, u64)> = RULESETS.iter().flat_map(|r| SEEDS.map(move |s| (*r, s))).collect();
    // Two at a time: the machine that runs CI has two cores.
    let now: BTreeMap<String, String> = std::thread::scope(|scope| {
        let halves: Vec<_> = keys
            .chunks(keys.len().div_ceil(2))
            .map(|chunk| {
                scope.spawn(move || chunk.iter().map(|(r, s)| (format!("{r}\t{s}"), game(r, *s))).collect::<Vec<_>>())
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let file = cav_tests::root().join("tests/data/golden-logs.tsv");
    let mut written = String::from(
        "# ruleset\tseed\tSHA-256 of the event log's lines after the header (tests/tests/golden_logs.rs)\n",
    );
    for (k, v) in &now {
        let _ = writeln!(written, "{k}\t{v}");
    }
    if std::env::var_os("CAV_BLESS").is_some() {
        std::fs::write(&file, &written).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&file).unwrap_or_default();
    let moved: Vec<String> = written
        .lines()
        .skip(1)
        .filter(|l| !pinned.lines().any(|p| p == *l))
        .map(|l| l.rsplit_once('\t').map_or(l, |(k, _)| k).replace('\t', " seed "))
        .collect();
    assert!(
        moved.is_empty(),
        "these games differ from tests/data/golden-logs.tsv: {}\n(a change meant to alter games re-blesses it: CAV_BLESS=1 cargo test -p cav-tests --test golden_logs)",
        moved.join(", ")
    );
}
