//! End-to-end: `cav sim` (the balance lab) on the Quick-Start duel: shards run as separate
//! processes merge into exactly the unsharded result, overlapping or foreign results are refused,
//! usage errors exit 2.

use std::path::Path;
use std::process::{Command, Output};

use cav_tests::root;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn ok(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn four_shards_merge_into_the_whole_run_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("a.json");
    let out = cav()
        .args(["sim", "stand-and-fight", "--games", "200", "--format", "json", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    ok(&out, "the whole run");
    assert!(out.stdout.is_empty(), "--out writes the file, not standard output");

    // The four shards as four separate processes, at the same time.
    let shards: Vec<_> = (1..=4).map(|i| tmp.path().join(format!("s{i}.json"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cav()
                .args(["sim", "stand-and-fight", "--games", "200", "--format", "json", "--shard"])
                .arg(format!("{}/4", i + 1))
                .arg("--out")
                .arg(p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        ok(&c.wait_with_output().unwrap(), &format!("shard {}/4", i + 1));
    }
    let games: Vec<u64> = shards
        .iter()
        .map(|p| serde_json::from_slice::<serde_json::Value>(&read(p)).unwrap()["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, vec![50, 50, 50, 50]);

    let merged = tmp.path().join("m.json");
    // Out of order on purpose: merging does not care.
    let out = cav()
        .args(["sim", "merge"])
        .args([&shards[2], &shards[0], &shards[3], &shards[1]])
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    ok(&out, "merge");
    assert_eq!(
        String::from_utf8(read(&merged)).unwrap(),
        String::from_utf8(read(&whole)).unwrap(),
        "the merged shards are the whole run, byte for byte"
    );

    let r: serde_json::Value = serde_json::from_slice(&read(&whole)).unwrap();
    assert_eq!(r["games"], 200);
    assert_eq!(r["seeds"], serde_json::json!([{"first": 1, "count": 200}]));
    let wins: u64 = r["wins"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(wins + r["draws"].as_u64().unwrap(), 200, "every game is a win or a draw: {r}");
    let turns: u64 = r["turns"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(turns, 200);
    assert!(r["weapons"]["Medium MAC"]["shots"].as_u64().unwrap() > 0, "{r}");
    // The result holds to its published schema.
    let path = root().join("schemas/reports/sim.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(&r).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    // A shard merged with itself: its seeds would count twice.
    let out = cav().args(["sim", "merge"]).args([&shards[0], &shards[0]]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("overlap") && err.contains("seeds 1..51"), "{err}");
    // A shard of other content (another hash).
    let foreign = tmp.path().join("foreign.json");
    let mut f: serde_json::Value = serde_json::from_slice(&read(&shards[1])).unwrap();
    f["content_hash"] = "0000".into();
    std::fs::write(&foreign, serde_json::to_vec_pretty(&f).unwrap()).unwrap();
    let out = cav().args(["sim", "merge"]).args([&shards[0], &foreign]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different content"));

    // The human table of a merged result, and its charts.
    let charts = tmp.path().join("charts");
    let out = cav().args(["sim", "merge", "--format", "human", "--plot"]).arg(&charts).arg(&whole).output().unwrap();
    ok(&out, "merge --format human --plot");
    for chart in ["win-rates.svg", "turns.svg", "weapons.svg"] {
        let svg = std::fs::read_to_string(charts.join(chart)).unwrap();
        assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"), "{chart}");
        assert!(svg.contains(r#"<g class="bar""#), "{chart} has no bars");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("200 games") && text.contains("95 % interval") && text.contains("Medium MAC"), "{text}");
}

/// A game of the batch is the game `cav play` plays from the same seed.
#[test]
fn a_simulated_game_replays_with_cav_play() {
    for seed in ["3", "8"] {
        let out = cav()
            .args(["sim", "stand-and-fight", "--games", "1", "--format", "json", "--seed", seed])
            .output()
            .unwrap();
        ok(&out, "one game");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let winner = r["wins"].as_object().unwrap().iter().find(|(_, n)| n.as_u64() == Some(1)).map(|(s, _)| s.clone());
        let turns = r["turns"].as_object().unwrap().keys().next().unwrap().clone();
        let out = cav().args(["play", "stand-and-fight", "--quiet", "--seed", seed]).output().unwrap();
        ok(&out, "cav play");
        let text = String::from_utf8_lossy(&out.stdout);
        let want = format!("winner: {}", winner.as_deref().unwrap_or("none (draw)"));
        assert!(text.contains(&want), "seed {seed}: sim says {want}, play says:\n{text}");
        assert!(text.contains(&format!("turns: {turns}\n")), "seed {seed}: sim says {turns} turns:\n{text}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["sim", "stand-and-fight", "--games", "10", "--shard", "5/4"], "--shard `5/4`"),
        (&["sim", "stand-and-fight", "--games", "10", "--shard", "two"], "expected I/N"),
        (&["sim", "stand-and-figth", "--games", "10"], "no scenario `stand-and-figth`"),
        (&["sim", "this-is-war", "--ruleset", "full", "--games", "10"], "leaves forces to the players"),
        (&["sim", "stand-and-fight"], "--games"),
    ];
    for (args, says) in cases {
        let out = cav().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
