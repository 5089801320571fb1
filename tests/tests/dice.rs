//! End-to-end: `cav dice` — the exact odds of a dice expression in the usual notation, and of a
//! ruleset's roll kind succeeding at each target; malformed input is a usage error.

use std::process::{Command, Output};

use cav_tests::root;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn an_expressions_odds_are_exact() {
    let v = json(&cav().args(["dice", "2d20kl1", "--format", "json"]).output().unwrap());
    let rows = v["results"].as_array().unwrap();
    assert_eq!(rows.len(), 20);
    // Both dice at 11 or more: a quarter.
    assert!((rows[10]["at_least"].as_f64().unwrap() - 0.25).abs() < 1e-9, "{}", rows[10]);
    let sum: f64 = rows.iter().map(|r| r["exactly"].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    // Counting successes: three dice at 4+ show 0 to 3 successes.
    let v = json(&cav().args(["dice", "3d6cs>=4", "--format", "json"]).output().unwrap());
    let results: Vec<i64> = v["results"].as_array().unwrap().iter().map(|r| r["result"].as_i64().unwrap()).collect();
    assert_eq!(results, [0, 1, 2, 3]);
    // An exploding d6 never comes to exactly 6.
    let v = json(&cav().args(["dice", "1d6x", "--format", "json"]).output().unwrap());
    assert!(v["results"].as_array().unwrap().iter().all(|r| r["result"] != 6));
}

/// With the bundled content and a mod declaring a roll-under kind (002 L208: a 1 always hits, a 6
/// always misses), in a project of its own.
#[test]
fn a_roll_kinds_chance_at_each_target() {
    let dir = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &dir.path().join("content")).unwrap();
    let pack = dir.path().join("mods/rolls");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: rolls\nname: rolls\nversion: 1.0.0\nkind: extension\ngame: cav-so\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("patch.yaml"),
        "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A roll-under test.\nset:\n  roll_kinds:\n    - id: lock\n      \
         dice: 1d6\n      succeeds: at_most\n      natural: [{at_most: 1, result: critical}, {equal: 6, result: failure}]\n      \
         summary: A target lock.\n\
         remove: [/procedures/rolls/kind, /procedures/rolls/ten_plus_kind, /procedures/rolls/ten_plus_rolls]\n",
    )
    .unwrap();
    let mut c = cav_tests::cav_in(dir.path());
    c.current_dir(dir.path());
    let v = json(
        &c.args(["dice", "--kind", "lock", "--ruleset", "full", "--modifier", "-1", "--format", "json"])
            .output()
            .unwrap(),
    );
    let at = |t: i64| {
        let row = v["targets"].as_array().unwrap().iter().find(|r| r["target"] == t).unwrap();
        row["success"].as_f64().unwrap()
    };
    // Resolve 5 − 1: faces 1-4; Resolve 1 − 1: the 1 still hits; Resolve 7 − 1: the 6 still misses.
    assert!((at(5) - 4.0 / 6.0).abs() < 1e-12, "{v}");
    assert!((at(1) - 1.0 / 6.0).abs() < 1e-12, "{v}");
    assert!((at(7) - 5.0 / 6.0).abs() < 1e-12, "{v}");
    assert_eq!(v["succeeds"], "at_most");
}

#[test]
fn malformed_dice_and_unknown_kinds_are_usage_errors() {
    let out = cav().args(["dice", "2d6kh3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("keeps 3 of 2 dice"));
    let out = cav().args(["dice", "--kind", "bs-roll"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("cav-quickstart has no roll kind `bs-roll` (target-point-roll, ten-plus-roll)")
    );
}
