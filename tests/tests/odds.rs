//! End-to-end: `cav odds` — exact odds of one attack as fractions that sum to 1, the Monte Carlo
//! check of them, the SVG chart, the matrix, usage errors.

use std::process::{Command, Output};

use cav_tests::root;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn run(args: &[&str]) -> Output {
    cav().args(args).output().unwrap()
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

const MAC_SHOT: [&str; 7] = ["odds", "dictator-b", "medium-mac", "dictator-b", "--band", "medium", "--shots"];

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// "num/den" → (num, den).
fn fraction(v: &serde_json::Value) -> (u128, u128) {
    let s = v["exact"].as_str().unwrap();
    let (n, d) = s.split_once('/').unwrap();
    (n.parse().unwrap(), d.parse().unwrap())
}

#[test]
fn a_mac_shot_has_exact_odds_that_sum_to_one() {
    let out = run(&[&MAC_SHOT[..], &["1", "--format", "json"]].concat());
    assert!(out.status.success(), "{}", text(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["band"], "Medium");
    assert_eq!(r["range"], 18.0, "the middle of the 12\" weapon's medium band (12, 24]");
    let (mut num, mut den) = (0u128, 1u128);
    let outcomes = r["outcomes"].as_array().unwrap();
    assert!(outcomes.len() > 10, "misses, hits, damage, states and criticals: {}", outcomes.len());
    for o in outcomes {
        let (n, d) = fraction(&o["chance"]);
        let l = den / gcd(den, d) * d;
        num = num * (l / den) + n * (l / d);
        den = l;
        let g = gcd(num, den);
        (num, den) = (num / g, den / g);
    }
    assert_eq!((num, den), (1, 1), "the outcomes' chances sum to exactly 1");
    // One shot at TP 8 with the Dictator-B's +2 (advanced targeting computer and wizzo): 2d6 ≥ 6.
    assert_eq!(r["hit"]["exact"], "13/18");
    assert!(outcomes.iter().any(|o| o["outcome"].as_str().unwrap().contains("destroyed")), "a critical can destroy");
}

#[test]
fn the_monte_carlo_agrees_with_the_exact_odds() {
    // `.ci/run` plays 10,000,000 attacks in release; here a debug build checks the same path.
    let out = run(&[&MAC_SHOT[..], &["1", "--monte-carlo", "20000", "--seed", "9"]].concat());
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("every outcome within its interval"), "{t}");
    assert!(t.lines().filter(|l| l.trim_start().starts_with("ok")).count() > 10, "{t}");
}

#[test]
fn the_chart_is_an_svg_bar_per_outcome() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("mac.svg");
    let out = cav().args([&MAC_SHOT[..], &["1", "--format", "json", "--svg"]].concat()).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let body = std::fs::read_to_string(&svg).unwrap();
    assert!(body.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(body.matches("<g class=\"outcome\">").count(), r["outcomes"].as_array().unwrap().len());
    assert!(body.contains("Medium"));
    let lint = Command::new("xmllint").arg("--noout").arg(&svg).output().expect("xmllint (scripts/test sets it up)");
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stderr));
}

#[test]
fn the_matrix_weighs_the_weapon_against_every_model_at_every_band() {
    let out = run(&["odds", "dictator-b", "medium-mac", "--shots", "1", "--format", "json"]);
    assert!(out.status.success(), "{}", text(&out));
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    // Every model of the ruleset, each at the four bands of the Quick-Start.
    let mut targets: Vec<&str> = rows.iter().map(|r| r["target"].as_str().unwrap()).collect();
    targets.dedup();
    assert!(targets.len() > 100, "{} models", targets.len());
    assert_eq!(rows.len(), 4 * targets.len());
    let aircraft = rows.iter().find(|r| r["target"] == "cruise-missile-airframe").unwrap();
    assert_eq!(aircraft["hit"], 0.0, "Strike forbids a pin-point weapon against aircraft: {aircraft}");
    let medium = rows.iter().find(|r| r["target"] == "dictator-b" && r["band"] == "medium").unwrap();
    assert!((medium["hit"].as_f64().unwrap() - 13.0 / 18.0).abs() < 1e-12, "{medium}");
    // Farther is harder.
    let hit =
        |band: &str| rows.iter().find(|r| r["target"] == "dictator-b" && r["band"] == band).map(|r| r["hit"].as_f64());
    if let (Some(Some(s)), Some(Some(l))) = (hit("short"), hit("long")) {
        assert!(s > l, "short {s} vs long {l}");
    }
}

#[test]
fn a_bad_attack_is_a_usage_error() {
    for (args, says) in [
        (vec!["odds", "dictator-z", "medium-mac", "dictator-b", "--band", "medium"], "no model `dictator-z`"),
        (vec!["odds", "dictator-b", "laser", "dictator-b", "--band", "medium"], "carries no weapon `laser`"),
        (vec!["odds", "dictator-b", "medium-mac", "dictator-b", "--band", "far"], "no range band `far`"),
        (vec!["odds", "dictator-b", "medium-mac", "dictator-b", "--range", "500"], "out of reach"),
        (
            vec!["odds", "dictator-b", "medium-mac", "dictator-b", "--band", "medium", "--shots", "3"],
            "cannot fire 3 shots",
        ),
        (
            vec!["odds", "dictator-b", "medium-mac", "dictator-b", "--band", "medium", "--target-state", "asleep"],
            "no model state",
        ),
        (vec!["odds", "dictator-b", "medium-mac", "dictator-b"], "--band BAND or --range"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(says), "{args:?}: {}", text(&out));
    }
}

/// A mod whose handler rolls `1d1000` six times at every combat roll: ~10²⁰ die sequences. The
/// exact odds are refused after the first thousand, with the projection, instead of running to
/// the cap (it took 43 s there, and the matrix form hours); every number that decides is a count,
/// so the refusal comes at the same sequence on any machine.
#[test]
fn an_attack_whose_hooks_roll_without_end_is_refused_early() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    let pack = tmp.path().join("mods/dice-storm");
    std::fs::create_dir_all(pack.join("scripts")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: dice-storm\nname: Dice Storm\nversion: 0.1.0\nkind: extension\nlicense: CC0-1.0\n\
         description: A hostile test pack.\ndepends: [\"cav-quickstart >= 1.0\"]\nscripts: [scripts]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("storm.yaml"),
        "# Invented for a test.\nkind: special_attribute\nid: dice-storm\nname: Dice Storm\napplies_to: model\n\
         parameter: none\nlevels: [{tv: 1}]\nhooks: [combat_tp]\nscript: storm\nsummary: Rolls a lot.\n---\n\
         kind: model\nid: storm-b\nextends: dictator-b\nname: Storm-B\nspecial_attributes: [dice-storm]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("scripts/storm.luau"),
        "local m = {}\nfunction m.combat_tp(ctx)\n\tfor i = 1, 6 do\n\t\tctx.roll_dice(\"storm\", nil, \"1d1000\")\n\tend\nend\nreturn m\n",
    )
    .unwrap();
    let mut c = cav_tests::cav_in(tmp.path());
    let out = c.current_dir(tmp.path()).args(["odds", "storm-b"]).args(&MAC_SHOT[2..]).arg("1");
    let out = out.output().unwrap();
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(t.contains("the attack has about 2.1e20 die sequences (its first 1000 cover"), "{t}");
    assert!(t.contains("far more than the 500000 that can be enumerated"), "{t}");
}
