//! End-to-end: the `cav` binary on the bundled content and on a broken copy of it.

use std::process::Command;

use cav_tests::root;

fn cav() -> Command {
    cav_tests::cav_in(&root())
}

#[test]
fn bundled_content_validates() {
    let out = cav().arg("validate").output().unwrap();
    assert!(
        out.status.success(),
        "cav validate failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ok: "));
}

/// The foundation issue's acceptance scenario: three different breakages in a copy of the
/// content, all reported in one run with their locations, exit code 1.
#[test]
fn broken_copy_reports_all_three_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let content = tmp.path().join("content");
    cav_watch::copy_tree(&root().join("content"), &content).unwrap();
    let weapon = content.join("cav-full/weapons/medium-mac.yaml");
    let text = std::fs::read_to_string(&weapon).unwrap();
    let tv_line = text.lines().position(|l| l.starts_with("tv:")).expect("medium-mac has a tv line") + 1;
    std::fs::write(&weapon, text.replacen("\ntv: ", "\ntv: x", 1)).unwrap();
    let sa = content.join("cav-full/special-attributes/blaster.yaml");
    let text = std::fs::read_to_string(&sa).unwrap();
    let sa_lines = text.lines().count();
    std::fs::write(&sa, format!("{text}colour: red\n")).unwrap();
    // A scenario: no other document refers to it, so breaking it adds no follow-on errors.
    let mut scenarios: Vec<_> =
        content.join("cav-full/scenarios").read_dir().unwrap().map(|e| e.unwrap().path()).collect();
    scenarios.sort();
    let state = scenarios[0].clone();
    std::fs::write(&state, "kind: [broken\n").unwrap();

    let out = cav().args(["validate", "--format", "json"]).arg(&content).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    let find =
        |code: &str| diags.iter().find(|d| d["code"] == code).unwrap_or_else(|| panic!("no {code} in {diags:#?}"));
    let wrong = find("wrong-type");
    assert!(wrong["file"].as_str().unwrap().ends_with("weapons/medium-mac.yaml"));
    assert_eq!(wrong["line"], tv_line);
    assert_eq!(wrong["column"], 5);
    let unknown = find("unknown-field");
    assert!(unknown["file"].as_str().unwrap().ends_with("special-attributes/blaster.yaml"));
    assert_eq!(unknown["line"], sa_lines + 1);
    assert_eq!(unknown["column"], 1);
    let syntax = find("yaml-syntax");
    assert_eq!(syntax["file"].as_str().unwrap(), state.display().to_string());
    assert_eq!(report["errors"], 3, "exactly the three problems: {diags:#?}");
}

#[test]
fn usage_error_exits_2() {
    let out = cav().args(["list", "wepons"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = cav().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn show_explain_names_the_file_and_line_of_each_value() {
    let out = cav().args(["show", "Medium MAC", "--explain"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let rav = text.lines().find(|l| l.starts_with("/rav = ")).expect("rav line");
    assert!(rav.contains("content/cav-full/weapons/medium-mac.yaml:"), "{rav}");
}

#[test]
fn play_is_deterministic_and_seeds_differ() {
    let run = |seed: &str| {
        let out = cav().args(["play", "--seed", seed]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b, c) = (run("5"), run("5"), run("6"));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.contains("\nSummary\n  winner: "), "{a}");
    assert!(a.contains("combat roll: 2d6 ["), "the narrative shows rolls");
    // A turn opens a paragraph (a blank line, not an escaped `\n`).
    assert!(a.contains("\n\nTurn 1\n") && a.contains("\n\nGame over after ") && !a.contains("\\n"), "{a}");
}

#[test]
fn play_says_na_for_a_rav_that_cannot_hurt() {
    // Seed 2's bot-built forces (each fielding its faction's own models first) trade such hits.
    let out = cav().args(["play", "--ruleset", "full", "--seed", "2"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(", RAV NA against "), "seed 2 has hits with an NA RAV");
    assert!(!text.contains("RAV -"), "no NA RAV is printed as a number");
}

#[test]
fn play_refuses_an_unwritable_log_before_the_game() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("no-such-dir").join("game.jsonl");
    let out = cav().args(["play", "--log"]).arg(&log).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "no game was played: {}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn cav_test_runs_the_quickstart_examples() {
    let out = cav().args(["test", "content/cav-quickstart"]).current_dir(root()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn cav_lua_rejects_escapes_quickly_with_exit_1() {
    use std::io::Write;
    for chunk in [
        "os.execute('echo pwned')",
        "io.open('/etc/passwd')",
        "require 'os'",
        "while true do end",
        "string.rep('x', 1e9)",
    ] {
        let mut command = cav(); // builds the binary first: not part of the time measured
        command.arg("lua");
        let start = std::time::Instant::now();
        let mut child = command
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(chunk.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{chunk}: {}", String::from_utf8_lossy(&out.stdout));
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{chunk}");
        // A hang guard, not a speed target: the sandbox stops a script within 1 s; the bound leaves
        // room for process start-up on a loaded 2-core machine and still catches a hang.
        assert!(start.elapsed() < std::time::Duration::from_secs(10), "{chunk} took {:?}", start.elapsed());
    }
    let out = cav().args(["lua"]).stdin(std::process::Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn explain_follows_inheritance_and_patches() {
    let show = |args: &[&str]| {
        let out = cav().args(args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let line = |text: &str, ptr: &str| {
        text.lines().find(|l| l.starts_with(&format!("{ptr} = "))).unwrap_or_else(|| panic!("no {ptr}")).to_owned()
    };
    // `extends`: inherited values come from the parent's file, its own from the child's.
    let lancer = show(&["show", "warg-lancer", "--explain"]);
    assert!(line(&lancer, "/faction").contains("mods/iron-wolves/models/warg.yaml:"));
    assert!(line(&lancer, "/name").contains("mods/iron-wolves/models/warg-lancer.yaml:"));
    // A patch from another pack: the patched value names the patch file.
    let autocannon = show(&["show", "light-autocannon", "--explain", "--ruleset", "full"]);
    assert!(line(&autocannon, "/tv").contains("mods/iron-wolves/patches/light-autocannon-tv.yaml:"));
    assert!(line(&autocannon, "/name").contains("content/cav-full/weapons/light-autocannon.yaml:"));
    // The Quick-Start patches the full pack's weapon only in its own ruleset.
    let mac = show(&["show", "medium-mac", "--explain", "--ruleset", "quickstart"]);
    assert!(line(&mac, "/range").contains("content/cav-quickstart/weapons/quickstart-weapons.yaml:"));
}

/// Every generated file (JSON Schemas, Luau definitions, docs/vocabulary.md) is what the code
/// generates today.
#[test]
fn generated_files_are_fresh() {
    let out = cav().args(["schema", "--check"]).output().unwrap();
    assert!(out.status.success(), "run `cav schema`: {}", String::from_utf8_lossy(&out.stdout));
}

/// `cav hooks --format json`: every hook point with what it accepts, and every implemented one
/// with a passing scenario test that ran a handler there (found by running the tests).
#[test]
fn hooks_cites_a_passing_test_for_every_implemented_point() {
    let out = cav().args(["hooks", "--format", "json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    let points = report["hook_points"].as_array().unwrap();
    assert_eq!(points.len(), cav_format::HookPoint::ALL.len());
    let untested: Vec<&str> = points
        .iter()
        .filter(|p| p["status"] == "implemented" && p["tests"].as_array().unwrap().is_empty())
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert!(untested.is_empty(), "implemented hook points without a passing test: {untested:?}");
    assert_eq!(out.status.code(), Some(0));
    let overcharge = points.iter().find(|p| p["id"] == "combat_dice").unwrap();
    assert!(overcharge["tests"].as_array().unwrap().iter().any(|t| t == "overcharge-natural-two-full"));
    assert_eq!(overcharge["quantities"], serde_json::json!(["roll"]));
}

/// Without the hook gallery's tests, points only the gallery exercises have none: exit 1.
#[test]
fn hooks_exits_1_when_a_point_has_no_test() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    std::fs::create_dir(tmp.path().join("mods")).unwrap();
    let out = cav().args(["hooks"]).env("CAV_ROOT", tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let table = text.split("movement  [implemented]").nth(1).expect("movement listed");
    assert!(table.lines().take(6).any(|l| l.contains("tested by:  NO PASSING SCENARIO TEST")), "{text}");
}

/// A test written for a ruleset its pack does not join fails with the reason instead of being
/// skipped; a mod that names no ruleset is tested under every ruleset when asked for alone.
#[test]
fn a_test_its_pack_cannot_run_fails_and_free_mods_run_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    cav_watch::copy_tree(&root().join("mods/overcharge"), &tmp.path().join("mods/overcharge")).unwrap();
    let out = cav_tests::cav_in(tmp.path()).args(["test", "mods/overcharge"]).current_dir(tmp.path()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.ends_with("6 passed, 0 failed\n"), "{text}");

    let qs_only = tmp.path().join("mods/qs-only");
    std::fs::create_dir_all(qs_only.join("tests")).unwrap();
    std::fs::write(
        qs_only.join("pack.yaml"),
        "id: qs-only\nname: QS only\nversion: 1.0.0\nkind: extension\ndepends: [cav-quickstart]\n",
    )
    .unwrap();
    let test = std::fs::read_to_string(root().join("mods/overcharge/tests/overcharge.yaml")).unwrap();
    let first_full = test.split("\n---\n").find(|d| d.contains("ruleset: cav-full")).unwrap();
    let doc = first_full.replace("model: arc-lancer", "model: dictator-b").replace("id: overcharge-", "id: qs-only-");
    std::fs::write(qs_only.join("tests/t.yaml"), doc).unwrap();
    let out = cav_tests::cav_in(tmp.path()).args(["test", "mods/qs-only"]).current_dir(tmp.path()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains(
            "FAILED (it is for ruleset `cav-full`, which pack `qs-only` does not join: it joins cav-quickstart"
        ),
        "{text}"
    );
}

/// The modder's first hour, from an empty directory outside the project (as with an installed
/// `cav` and `--root`): a pack, a weapon, a model armed with it, a scripted special attribute, a
/// test and a scenario, each from `cav new`; the pack validates, its test passes under both
/// rulesets, its scenario plays under both, and `cav test` inside the pack's folder runs its tests
/// only. Nothing lands in the project's mods/, nothing is overwritten, a bad id is refused.
#[test]
fn cav_new_scaffolds_a_pack_that_validates_and_tests_under_both_rulesets() {
    let tmp = tempfile::tempdir().unwrap();
    let run_in = |dir: &std::path::Path, args: &[&str]| cav().args(args).current_dir(dir).output().unwrap();
    let run = |args: &[&str]| run_in(tmp.path(), args);
    let ok = |args: &[&str]| {
        let out = run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for args in [
        &["new", "pack", "my-faction"][..],
        &["new", "weapon", "ember-gun", "--pack", "my-faction"],
        &["new", "model", "ember-hound", "--pack", "my-faction"],
        &["new", "sa", "flare-coil", "--script", "--pack", "my-faction"],
        &["new", "test", "hound-fires", "--pack", "my-faction"],
        &["new", "scenario", "hound-duel", "--pack", "my-faction"],
    ] {
        let said = ok(args);
        assert!(said.contains("validates (it joins cav-full, cav-quickstart)"), "{args:?}: {said}");
    }
    assert!(!root().join("mods/my-faction").exists(), "outside the project, the pack is made here");
    let pack = tmp.path().join("my-faction");
    for file in [
        "pack.yaml",
        "weapons/ember-gun.yaml",
        "models/ember-hound.yaml",
        "special-attributes/flare-coil.yaml",
        "scripts/flare_coil.luau",
        "tests/hound-fires.yaml",
        "scenarios/hound-duel.yaml",
    ] {
        let text = std::fs::read_to_string(pack.join(file)).unwrap();
        if file.ends_with(".yaml") {
            let schema = text.lines().next().unwrap().strip_prefix("# yaml-language-server: $schema=").unwrap();
            assert!(
                pack.join(file).parent().unwrap().join(schema).is_file(),
                "{file}: modeline {schema} leads nowhere"
            );
        }
    }
    let model = std::fs::read_to_string(pack.join("models/ember-hound.yaml")).unwrap();
    assert!(model.contains("weapon: ember-gun"), "the model carries the pack's own weapon");
    let valid = ok(&["validate", "my-faction", "--deny", "warnings"]);
    assert!(valid.starts_with("ok: "), "{valid}");
    assert!(valid.contains("  my-faction joins cav-full, cav-quickstart\n"), "the pack says where it plays: {valid}");
    let tested = ok(&["test", "my-faction"]);
    assert!(tested.contains("test hound-fires [cav-full] ... ok"), "{tested}");
    assert!(tested.contains("test hound-fires [cav-quickstart] ... ok"), "{tested}");
    assert!(tested.ends_with("2 passed, 0 failed\n"), "{tested}");
    for ruleset in ["quickstart", "full"] {
        let played = ok(&["play", "hound-duel", "--ruleset", ruleset, "--quiet"]);
        assert!(played.contains("winner:"), "{ruleset}: {played}");
    }
    // In the pack's own folder, `cav test` runs the pack's tests, not the whole library's.
    let here = run_in(&pack, &["test"]);
    assert!(String::from_utf8_lossy(&here.stdout).ends_with("2 passed, 0 failed\n"));

    let again = run(&["new", "model", "ember-hound", "--pack", "my-faction"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists; nothing was written"));
    let bad = run(&["new", "model", "Bad Id", "--pack", "my-faction"]);
    assert_eq!(bad.status.code(), Some(2));
    let no_model = tempfile::tempdir().unwrap();
    assert!(run_in(no_model.path(), &["new", "pack", "empty"]).status.success());
    let test_first = run_in(no_model.path(), &["new", "test", "t", "--pack", "empty"]);
    assert_eq!(test_first.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&test_first.stderr).contains("cav new model ID"));
}

/// Rosters: the bot's force passes the check; a broken roster fails with file:line and the rule's
/// lines; the same roster inside a pack fails `cav validate`; the Quick-Start builds no forces.
#[test]
fn force_build_check_and_validate_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let roster = tmp.path().join("red.yaml");
    let built = cav()
        .args(["force", "build", "--faction", "iron-wolves", "--tv", "2000", "--seed", "4", "--out"])
        .arg(&roster)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let text = std::fs::read_to_string(&roster).unwrap();
    assert!(text.starts_with("# yaml-language-server: $schema="));
    let ok = cav().args(["force", "check"]).arg(&roster).output().unwrap();
    assert!(ok.status.success(), "{}{}", String::from_utf8_lossy(&ok.stdout), String::from_utf8_lossy(&ok.stderr));
    assert!(String::from_utf8_lossy(&ok.stdout).contains(": legal\n"));

    let broken = text.replace("tvp: 2000", "tvp: 500");
    std::fs::write(&roster, &broken).unwrap();
    let bad = cav().args(["force", "check", "--format", "json"]).arg(&roster).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&bad.stdout).unwrap();
    assert_eq!(v["legal"], false);
    let d = &v["diagnostics"][0];
    assert!(d["message"].as_str().unwrap().contains("over the pool of 500 (001 L598-628)"), "{d}");
    assert_eq!(d["line"], 6, "{d}");

    let project = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &project.path().join("content")).unwrap();
    cav_watch::copy_tree(&root().join("mods/iron-wolves"), &project.path().join("mods/iron-wolves")).unwrap();
    std::fs::write(project.path().join("mods/iron-wolves/forces/red.yaml"), &broken).unwrap();
    let v = cav_tests::cav_in(project.path()).arg("validate").output().unwrap();
    assert_eq!(v.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&v.stderr).contains("mods/iron-wolves/forces/red.yaml:6:"),
        "{}",
        String::from_utf8_lossy(&v.stderr)
    );

    let qs = cav().args(["force", "check", "--ruleset", "quickstart"]).arg(&roster).output().unwrap();
    assert_eq!(qs.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&qs.stderr).contains("does not build forces"));
}

/// A full-rules scenario that leaves forces to the players plays from rosters — a file for one
/// side, the bot's for the other — deterministically, and says what it does not play yet.
#[test]
fn full_rules_scenarios_play_from_rosters() {
    let tmp = tempfile::tempdir().unwrap();
    let wolf = root().join("mods/iron-wolves/forces/wolf-pack.yaml");
    let play = |log: &str| {
        cav()
            .args(["play", "no-man-s-land", "--ruleset", "full", "--seed", "5", "--faction", "iron-wolves", "--force"])
            .arg(&wolf)
            .arg("--log")
            .arg(tmp.path().join(log))
            .output()
            .unwrap()
    };
    let (a, b) = (play("a.jsonl"), play("b.jsonl"));
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same narrative");
    let (la, lb) =
        (std::fs::read(tmp.path().join("a.jsonl")).unwrap(), std::fs::read(tmp.path().join("b.jsonl")).unwrap());
    assert_eq!(la, lb, "same seed, same log");
    let stdout = String::from_utf8_lossy(&a.stdout);
    assert!(stdout.contains("side-a Fenrir #2"), "the roster's two Fenrirs are on side-a");
    assert!(stdout.contains("  turns: "));
    let turns: u32 = stdout.lines().find_map(|l| l.strip_prefix("  turns: ")).unwrap().parse().unwrap();
    assert!(turns <= 10, "the scenario's own turn limit (10) replaces the ruleset's 12");
    let stderr = String::from_utf8_lossy(&a.stderr);
    assert!(!stderr.contains("not played yet"), "No Man's Land scores its corners: {stderr}");
    // Every scenario plays its own victory now: none is said to be unplayed.
    for scenario in ["salvage-run", "it-s-a-rescue-mission-you-re-going-to-love-it"] {
        let out = cav().args(["play", scenario, "--ruleset", "full", "--quiet"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && !err.contains("not played yet"), "{scenario}: {err}");
    }
    assert!(stderr.contains("side-a fields `wolf-pack`: 2 squads, 11 models, TV 2250 of a 2500 pool"), "{stderr}");
    // A defender's share of the pool (Take that Hill!: 75 %).
    let hill = cav().args(["play", "take-that-hill", "--ruleset", "full", "--tv", "2000", "--quiet"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&hill.stderr);
    assert!(stderr.contains("of a 2000 pool") && stderr.contains("of a 1500 pool"), "{stderr}");
    let broken = tmp.path().join("broken.yaml");
    std::fs::write(&broken, std::fs::read_to_string(&wolf).unwrap().replace("tvp: 2500", "tvp: 100")).unwrap();
    let bad = cav().args(["play", "no-man-s-land", "--ruleset", "full", "--force"]).arg(&broken).output().unwrap();
    assert_eq!(bad.status.code(), Some(1), "an illegal roster is invalid content");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("breaks the force-building rules"));
}

/// A roster's strike pools reach play: its FIST model (a rifle squad with the Forward Observer
/// upgrade) calls strikes in from them, and what it spends leaves the pool.
#[test]
fn rosters_call_in_strikes_from_their_pools() {
    let tmp = tempfile::tempdir().unwrap();
    let wolf = std::fs::read_to_string(root().join("mods/iron-wolves/forces/wolf-pack.yaml")).unwrap();
    let spotters = wolf.replace(
        "{model: wolfpack-rifle-squad, count: 6}",
        "{model: wolfpack-rifle-squad, count: 6, upgrades: [forward-observer]}",
    ) + "strike_pools: {artillery: 110}\n";
    let file = tmp.path().join("spotters.yaml");
    std::fs::write(&file, spotters).unwrap();
    let out = cav()
        .args(["play", "no-man-s-land", "--ruleset", "full", "--seed", "3", "--faction", "iron-wolves", "--force"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("side-a's strike pools: Artillery 110 TV"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("calls in Artillery Bombardment") && stdout.contains("75 TV from the strike pool, 35 left"),
        "{stdout}"
    );
}

/// A roster's fortifications and minefields are on the table when `cav play` starts: the bot
/// sets them down in front of its zone before any model deploys (001 L10522-10526), but for the
/// trenches, which wait for the ambushing rifle squads to be placed (001 L6537-6557).
#[test]
fn rosters_set_down_their_pieces_before_deployment() {
    let tmp = tempfile::tempdir().unwrap();
    let wolf = std::fs::read_to_string(root().join("mods/iron-wolves/forces/wolf-pack.yaml")).unwrap();
    let dug_in = wolf
        + "assets:\n  - {asset: trench, count: 2}\n  - {asset: bunker}\n  - {asset: anti-personnel-anti-tank-minefield}\n";
    let file = tmp.path().join("dug-in.yaml");
    std::fs::write(&file, dug_in).unwrap();
    let out = cav()
        .args(["play", "this-is-war", "--ruleset", "full", "--seed", "3", "--faction", "iron-wolves", "--force"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("side-a sets down trench × 2, bunker × 1, anti-personnel-anti-tank-minefield × 1"),
        "{stderr}"
    );
    assert!(!stderr.contains("not placed on the table"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let bunker = stdout.find("terrain: bunker").unwrap_or_else(|| panic!("{stdout}"));
    let mines = stdout.find("a minefield laid at").unwrap_or_else(|| panic!("{stdout}"));
    let deployed = stdout.find(" deploys at ").unwrap_or_else(|| panic!("{stdout}"));
    assert!(bunker < deployed && mines < deployed, "{stdout}");
    // The rifle squads have Ambush: a trench goes down under the first placed from ambush.
    let placed = stdout.find("Wolfpack Rifle Squad deploys at").unwrap_or_else(|| panic!("{stdout}"));
    let trench = stdout.find("terrain: trench").unwrap_or_else(|| panic!("{stdout}"));
    assert!(placed < trench && deployed < placed, "{stdout}");
}

/// The worked example of the starting pool (001 L1669-1672): three squads of medium CAVs and
/// vehicles make a pool of 4,875; an unknown size is refused with the known ones listed.
#[test]
fn force_pool_reads_the_books_guide() {
    let out = cav()
        .args(["force", "pool", "--table", "cav-and-vehicles", "--size", "medium", "--squads", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("4875 TV: 3 squads × 5 models × 325 TV (medium, cav-and-vehicles)"), "{stdout}");
    let bad = cav().args(["force", "pool", "--table", "cav", "--size", "huge"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("no size `huge` in table `cav`; sizes: extra-large, extra-small, large, medium, small"),
        "{stderr}"
    );
    let tables = cav().args(["force", "pool"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&tables.stdout);
    assert!(
        stdout.contains("vehicles: TV per model (per squad of 5)") && stdout.contains("extra-heavy    400 (  2000)"),
        "{stdout}"
    );
}

/// `cav show --with` fits an upgrade at a rank (`#`) and several of a repeatable one (`*`), each
/// line saying what it costs on this model as the engine counts it; a rank the upgrade lacks,
/// and `*` on an upgrade bought once, are errors that say what is allowed.
#[test]
fn show_with_fits_ranks_and_repeated_upgrades() {
    let out = cav()
        .args([
            "show",
            "test-ex-nine-track-cav",
            "--ruleset",
            "cav-full",
            "--with",
            "officer#major,claymore-anti-personnel-mines*2",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Officer — TV +180"), "20 TV a track for a Major on nine tracks: {text}");
    assert!(text.contains("Claymore Anti-Personnel Mines — TV +90"), "two sets of 5 TV a track: {text}");
    assert!(text.contains("c3 4"), "the Major's C3 4: {text}");
    for (with, says) in [
        ("officer#general", "Officer has no variant `general`: one of lieutenant, captain, major, colonel"),
        ("officer*2", "Officer is bought once per model"),
    ] {
        let out =
            cav().args(["show", "test-ex-nine-track-cav", "--ruleset", "cav-full", "--with", with]).output().unwrap();
        assert!(!out.status.success(), "{with}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{with}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
