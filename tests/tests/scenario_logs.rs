//! The event log of every scenario test of the bundled packs and mods, under every ruleset it runs
//! under, pinned by its SHA-256 in `tests/data/scenario-logs.tsv`: a test passes when the events
//! it expects are there, so a refactor of the engine could still move the others; this holds every
//! log byte for byte. A change meant to alter games re-blesses the file:
//! `CAV_BLESS=1 cargo test -p cav-tests --test scenario_logs` (the diff shows which tests moved).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

/// `ruleset \t test` → the SHA-256 of its events, one JSON line each.
fn logs() -> BTreeMap<String, String> {
    let root = cav_tests::root();
    let packs = vec![root.join("content"), root.join("mods")];
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: packs.clone(), library: packs });
    let compiled = cav_compile::validate(&mut loaded);
    assert_eq!(loaded.error_count(), 0, "the bundled content loads");
    let mut logs = BTreeMap::new();
    for (rs, rules) in loaded.rulesets.iter().zip(compiled) {
        let rules = rules.expect("the bundled rulesets compile");
        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
        for e in rs.of_kind(cav_format::DocKind::Test) {
            let Some(cav_format::Document::Test(t)) = e.doc.as_deref() else { continue };
            if !t.runs_under(&rs.id) {
                continue;
            }
            let out = cav_rules::testing::run_test_with(&rules, t, &mut host);
            let mut text = String::new();
            for event in &out.events {
                text.push_str(&serde_json::to_string(event).unwrap());
                text.push('\n');
            }
            let mut hex = String::new();
            for b in Sha256::digest(text.as_bytes()) {
                let _ = write!(hex, "{b:02x}");
            }
            logs.insert(format!("{}\t{}", rs.id, t.id), hex);
        }
    }
    logs
}

#[test]
fn every_scenario_test_plays_as_pinned() {
    let now = logs();
    assert!(now.len() > 600, "every bundled test ran ({})", now.len());
    let mut written = String::from(
        "# ruleset\ttest\tSHA-256 of its event log, a JSON line per event (tests/tests/scenario_logs.rs)\n",
    );
    for (k, v) in &now {
        let _ = writeln!(written, "{k}\t{v}");
    }
    let file = cav_tests::root().join("tests/data/scenario-logs.tsv");
    if std::env::var_os("CAV_BLESS").is_some() {
        std::fs::write(&file, &written).unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(&file).unwrap_or_default();
    let moved: Vec<&str> = written.lines().skip(1).filter(|l| !pinned.lines().any(|p| p == *l)).collect();
    let gone: Vec<&str> = pinned
        .lines()
        .skip(1)
        .filter(|p| !written.lines().any(|l| l.rsplit_once('\t').map(|x| x.0) == p.rsplit_once('\t').map(|x| x.0)))
        .collect();
    assert!(
        moved.is_empty() && gone.is_empty(),
        "scenario logs differ from tests/data/scenario-logs.tsv: {} moved or new, {} gone:\n{}\n(a change meant to alter games re-blesses it: CAV_BLESS=1 cargo test -p cav-tests --test scenario_logs)",
        moved.len(),
        gone.len(),
        moved.iter().chain(&gone).take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}
