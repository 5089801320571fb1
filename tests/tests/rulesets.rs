//! Which rulesets a mod joins, on the real content: a Quick-Start-only mod changes nothing of the
//! full rules, and the example mod plays under both.

use std::path::Path;

use cav_content::LoadOptions;
use cav_tests::root;

/// Every resolved document of ruleset `id` (kind, id, pack, value), in a stable order.
fn resolved(mods: Option<&Path>, id: &str) -> Vec<String> {
    let mut library = vec![root().join("content")];
    library.extend(mods.map(Path::to_path_buf));
    let loaded = cav_content::load(&LoadOptions { paths: library.clone(), library });
    assert_eq!(loaded.error_count(), 0, "{:#?}", loaded.diagnostics);
    let rs = loaded.ruleset(id).unwrap_or_else(|| panic!("ruleset {id} loads"));
    let mut docs: Vec<String> = rs.entries().map(|e| format!("{:?} {} {} {}", e.kind, e.id, e.pack, e.value)).collect();
    docs.sort();
    docs
}

/// A house-rule mod for the Quick-Start (it depends on `cav-quickstart`, patches the Quick-Start's
/// MAC and adds a model): under the Quick-Start it changes the documents; under the full rules the
/// resolved documents are identical to those without it.
#[test]
fn a_quickstart_only_mod_changes_nothing_under_the_full_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let m = tmp.path().join("qs-house-rules");
    std::fs::create_dir_all(m.join("patches")).unwrap();
    std::fs::write(
        m.join("pack.yaml"),
        "id: qs-house-rules\nname: QS house rules\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-quickstart >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        m.join("patches/mac.yaml"),
        "kind: patch\ntarget: {kind: weapon, id: medium-mac}\nsummary: house rule\nset:\n  tv: 1\n  range: 30\n",
    )
    .unwrap();
    std::fs::write(
        m.join("patches/copy.yaml"),
        "kind: model\nid: house-dictator\nextends: dictator-b\nname: House Dictator\n",
    )
    .unwrap();
    let (qs_without, qs_with) = (resolved(None, "cav-quickstart"), resolved(Some(tmp.path()), "cav-quickstart"));
    assert_ne!(qs_without, qs_with, "the mod does change the Quick-Start");
    assert!(qs_with.iter().any(|d| d.contains("house-dictator")));
    assert_eq!(resolved(None, "cav-full"), resolved(Some(tmp.path()), "cav-full"), "the full rules are untouched");
}

/// The example mod (`iron-wolves`, built on the full rules' catalog) joins both rulesets and a
/// game with its models plays under each.
#[test]
fn the_example_mod_plays_under_both_rulesets() {
    let loaded = cav_content::load(&LoadOptions {
        paths: vec![root().join("mods/iron-wolves")],
        library: vec![root().join("content"), root().join("mods")],
    });
    for id in ["cav-full", "cav-quickstart"] {
        let rs = loaded.ruleset(id).unwrap();
        assert!(rs.pack("iron-wolves").is_some(), "iron-wolves joins {id}");
        assert!(rs.get(cav_format::DocKind::Model, "warg").is_some());
    }
    let out = cav_tests::cav_in(&root()).args(["test", "mods/iron-wolves"]).current_dir(root()).output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("test iron-wolves-warg-under-the-quickstart ... ok"), "{said}");
    assert!(said.contains("test iron-wolves-warg-under-the-full-rules ... ok"), "{said}");
}

/// Installing the packs of another game changes nothing for CAV's: with a ruleset of another game
/// (`game: another-game`) and a mod of that game beside the bundled content and mods, `cav
/// validate` of CAV's packs reports exactly what it reports without them (the bundled mods name
/// `game: cav-so` and join only CAV's rulesets), while the other game's mod brings its own.
#[test]
fn another_games_packs_change_nothing_for_cavs() {
    let project = |other_game: bool| {
        let tmp = tempfile::tempdir().unwrap();
        cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
        cav_watch::copy_tree(&root().join("mods"), &tmp.path().join("mods")).unwrap();
        if other_game {
            let write = |path: &str, text: &str| {
                let p = tmp.path().join("mods").join(path);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(p, text).unwrap();
            };
            // Its ruleset document is left out: the error that is is the other game's own.
            write(
                "other-game/pack.yaml",
                "id: other-game\nname: Another game\nversion: 1.0.0\nkind: ruleset\ngame: another-game\nlicense: CC0-1.0\n",
            );
            write(
                "other-mod/pack.yaml",
                "id: other-mod\nname: A mod of it\nversion: 1.0.0\nkind: extension\ngame: another-game\nlicense: CC0-1.0\n",
            );
        }
        tmp
    };
    let cav_packs = ["cav-full", "cav-quickstart", "cav-invented", "hook-gallery", "iron-wolves", "overcharge"];
    let validate = |p: &Path, packs: &[&str], format: &str| -> String {
        let out = cav_tests::cav_in(p).arg("validate").args(packs).args(["--format", format]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        // The same file in either project.
        let root = p.canonicalize().unwrap().display().to_string();
        text.replace(&root, "PROJECT").replace(&p.display().to_string(), "PROJECT")
    };
    let alone = project(false);
    let beside = project(true);
    for format in ["human", "json"] {
        let (a, b) = (validate(alone.path(), &cav_packs, format), validate(beside.path(), &cav_packs, format));
        assert!(a == b, "`cav validate` of CAV's packs ({format}) differs with another game installed:\n{a}\n---\n{b}");
        if format == "human" {
            assert!(a.contains("hook-gallery joins cav-full, cav-quickstart\n"), "{a}");
        }
    }
    // The other game's mod brings its game's ruleset, and only that one.
    let other = validate(beside.path(), &["other-mod"], "human");
    assert!(other.contains("error[ruleset-missing]: ruleset pack `other-game` has no `ruleset` document"), "{other}");
    assert!(!other.contains("cav-full"), "{other}");
}

/// A script's `ctx.set_dice` holds under an attack made by the ruleset's roll kinds: the fixture
/// `tests/data/loaded-dice` (a Sythopian Wars extension) throws two dice for a target lock and
/// keeps the lower, and its scenario test sees both dice. (Before, the dice were quietly the
/// kind's own.)
#[test]
fn set_dice_changes_a_rolled_attacks_hit_roll() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path();
    cav_watch::copy_tree(&root().join("content"), &project.join("content")).unwrap();
    for (from, to) in [("mods/sythopian-wars", "mods/sythopian-wars"), ("tests/data/loaded-dice", "mods/loaded-dice")] {
        cav_watch::copy_tree(&root().join(from), &project.join(to)).unwrap();
    }
    let out = cav_tests::cav_in(project).arg("test").arg(project.join("mods/loaded-dice")).output().unwrap();
    let text = String::from_utf8_lossy(&cav_tests::succeeded(&out, "cav test loaded-dice")).into_owned();
    assert!(text.contains("steady-aim-sets-the-lock-dice ... ok") && text.contains("1 passed, 0 failed"), "{text}");
}

/// `cav test` of a fixture extending the hex vehicle tables (`tests/data/<fixture>`): its one
/// test passes.
fn hex_fixture_passes(fixture: &str, test: &str) {
    hex_fixture_tests_pass(fixture, &[test]);
}

/// `cav test` of a fixture extending the hex vehicle tables: exactly these tests, all passing.
fn hex_fixture_tests_pass(fixture: &str, tests: &[&str]) {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path();
    cav_watch::copy_tree(&root().join("content"), &project.join("content")).unwrap();
    let copy = format!("tests/data/{fixture}");
    for (from, to) in [("mods/hex-vehicles", "mods/hex-vehicles"), (copy.as_str(), "mods/fixture")] {
        cav_watch::copy_tree(&root().join(from), &project.join(to)).unwrap();
    }
    let out = cav_tests::cav_in(project).arg("test").arg(project.join("mods/fixture")).output().unwrap();
    let text = String::from_utf8_lossy(&cav_tests::succeeded(&out, &format!("cav test {fixture}"))).into_owned();
    assert!(tests.iter().all(|test| text.contains(&format!("{test} ... ok"))), "{text}");
    assert!(text.contains(&format!("{} passed, 0 failed", tests.len())), "{text}");
}

/// Moves on hexes as on a continuous board (the fixture `hex-moves` gives the hex vehicle tables
/// a clearance, aircraft and nap of the earth): a move keeps the clearance from an enemy, an
/// aircraft flies over the models in its way, nap of the earth costs its extra a hex.
#[test]
fn hex_moves_keep_clearance_fly_over_and_pay_nap_of_the_earth() {
    hex_fixture_tests_pass(
        "hex-moves",
        &["hex-move-keeps-clear-of-enemies", "hex-aircraft-fly-over-models", "hex-nap-of-the-earth-costs-more"],
    );
}

/// A table whose every row rolls it again (the fixture `endless-tables` patches the hex vehicle
/// tables' light damage table so) ends at `MAX_TABLE_ROLLS` rolls, and says so: its test fires a
/// shot whose chain would never end, with exactly the dice the limit allows.
#[test]
fn an_endless_chain_of_table_rolls_is_cut() {
    hex_fixture_passes("endless-tables", "endless-table-rolls-are-cut");
}

/// On a hex board a ruleset's own move that may not enter cover (`avoids_cover`) stops short of
/// a hex of cover, where a plain move enters it (the fixture `hex-run`).
#[test]
fn a_run_avoids_cover_on_hexes() {
    hex_fixture_passes("hex-run", "a-run-stops-short-of-cover-on-hexes");
}

/// A model destroyed by a table row takes no other row: not a script's second overkill, not the
/// hit's own (the fixture `dead-stays-dead`).
#[test]
fn a_destroyed_model_takes_no_more_rows() {
    hex_fixture_passes("dead-stays-dead", "a-destroyed-model-takes-no-more-rows");
}
