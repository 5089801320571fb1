//! `cav coverage`: the catalog map is read from the content and the test results, the committed
//! page `docs/coverage.md` is what the command prints, and the mutation proof really fails when
//! an entry's behaviour is taken away.

use std::process::Command;

use cav_tests::root;

fn cav() -> Command {
    cav_tests::cav_in(&root())
}

#[test]
fn the_committed_page_is_fresh() {
    let out = cav().args(["coverage", "--format", "markdown"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = std::fs::read_to_string(root().join("docs/coverage.md")).unwrap_or_default();
    assert!(
        page == String::from_utf8_lossy(&out.stdout),
        "docs/coverage.md is stale: run `cav coverage --format markdown > docs/coverage.md`"
    );
}

/// Every official entry appears once; a complete entry has behaviour and a proving test that
/// passes; an entry nothing plays is not counted as complete; the summary adds up.
#[test]
fn the_map_covers_the_catalog_and_its_statuses_mean_what_they_say() {
    let out = cav().args(["coverage", "--format", "json"]).output().unwrap();
    let map: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = map["entries"].as_array().unwrap();
    let official: Vec<&serde_json::Value> = entries.iter().filter(|e| e["pack"] == "cav-full").collect();
    assert_eq!(official.len(), 214, "the catalog checklist has 214 names");
    for e in &official {
        let ways = e["behaviour"]["ways"].as_array().unwrap();
        let proving = e["proving"].as_array().unwrap();
        match e["status"].as_str().unwrap() {
            "complete" => {
                assert!(!ways.is_empty() && !proving.is_empty(), "{e:#}");
                assert!(e["behaviour"]["gaps"].as_array().unwrap().is_empty(), "{e:#}");
                for t in proving {
                    assert!(e["tests"].as_array().unwrap().contains(t), "a proving test passes first: {e:#}");
                }
            }
            "not_played" => assert!(ways.is_empty(), "{e:#}"),
            _ => {}
        }
    }
    // Two entries the map must prove: a declarative upgrade and a special attribute.
    let find = |id: &str| official.iter().find(|e| e["id"] == id).unwrap();
    assert_eq!(find("makeshift-armor")["status"], "complete");
    assert!(find("makeshift-armor")["proving"].as_array().unwrap().iter().any(|t| t == "full-upgrade-makeshift-armor"));
    assert_eq!(find("ammo")["status"], "complete");
    // Pylon munitions reach as the weapon they fire as, or are dropped beneath the aircraft.
    assert_eq!(find("guided-missile-air")["status"], "complete");
    assert_eq!(find("bomb-rack")["status"], "complete");
}

/// A pylon munition that neither fires as a weapon with a range nor is dropped is never fired,
/// and the map says so.
#[test]
fn a_munition_that_cannot_reach_is_a_gap() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    std::fs::create_dir(tmp.path().join("mods")).unwrap();
    let file = tmp.path().join("content/cav-full/upgrades/guided-missile-air.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let cut = text.replace("    fires_as: medium-guided-missile-air\n", "");
    assert_ne!(cut, text);
    std::fs::write(&file, cut).unwrap();
    let out = cav().args(["coverage", "--format", "json"]).env("CAV_ROOT", tmp.path()).output().unwrap();
    let map: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let e = map["entries"].as_array().unwrap().iter().find(|e| e["id"] == "guided-missile-air").unwrap();
    assert_ne!(e["status"], "complete", "{e:#}");
    let gaps = e["behaviour"]["gaps"].as_array().unwrap();
    assert!(gaps.iter().any(|g| g.as_str().unwrap().contains("it is never fired")), "{e:#}");
}

/// Take the Makeshift Armor modifiers away in a copy: the map says its test no longer proves it
/// (the test fails on the copy as it is, so it is not among the passing tests at all).
#[test]
fn an_entry_whose_behaviour_is_gone_is_not_proved() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    std::fs::create_dir(tmp.path().join("mods")).unwrap();
    let file = tmp.path().join("content/cav-full/upgrades/makeshift-armor.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let cut =
        text.replace("  - {target: armor_value, value: 1}\n", "").replace("  - {target: move_value, value: -1}\n", "");
    let cut = cut.replace("modifiers:\n", "");
    assert_ne!(cut, text);
    std::fs::write(&file, cut).unwrap();
    let out = cav().args(["coverage", "--format", "json"]).env("CAV_ROOT", tmp.path()).output().unwrap();
    let map: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let e = map["entries"].as_array().unwrap().iter().find(|e| e["id"] == "makeshift-armor").unwrap();
    assert_ne!(e["status"], "complete", "{e:#}");
    assert!(e["proving"].as_array().unwrap().is_empty(), "{e:#}");
}
