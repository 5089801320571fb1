//! End-to-end: the pictures. `cav card` draws data cards as SVG — well-formed, every column and
//! row of the damage track, weapons and special attributes, assumed values marked; `cav map`
//! draws a game's board mid-game — terrain, models, lines of sight with cover. The card and the
//! map the README shows are regenerated from the content (stale = a failing test).

use std::process::{Command, Output};

use cav_tests::{root, xmllint};

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_dictator_b_card_has_its_track_weapons_and_assumed_values() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "dictator-b", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(body.matches("<g class=\"card\"").count(), 1);
    for want in [
        "Dictator-B",
        "Rach Extra-Large CAV (Attack)",
        "TV 800*",
        "RAV Medium MAC",
        "2× Medium MAC (L/R) RNG 12\"",
        "advanced-targeting-computer 1",
    ] {
        assert!(body.contains(&want.replace('"', "&quot;")), "missing {want}");
    }
    // Ten columns (0–9): a header cell per column and a cell per column in each of MV, AV, DC, CCV.
    for row in ["row-mv", "row-av", "row-dc", "row-ccv"] {
        let at = body.find(&format!("class=\"row {row}\"")).unwrap_or_else(|| panic!("no {row}"));
        let g = &body[at..at + body[at..].find("</g>").unwrap()];
        assert_eq!(g.matches("text-anchor=\"middle\"").count(), 10, "{row}");
    }
    // The Quick-Start card lost its MV row and AV columns 4-9 (assumed in the pack): 10 + 6 + 2 (DC 8, 9).
    assert_eq!(body.matches("class=\"assumed\"").count(), 18);
    assert!(body.contains("* assumed"));
}

#[test]
fn a_pack_sheet_has_a_card_per_model_and_unknown_ids_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("sheet.svg");
    let out = cav().args(["card", "--pack", "iron-wolves", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let models = cav().args(["list", "model", "--ruleset", "quickstart"]).output().unwrap();
    let n = String::from_utf8_lossy(&models.stdout).lines().filter(|l| l.contains("iron-wolves")).count();
    assert!(n > 0);
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("<g class=\"card\"").count(), n);
    let out = cav().args(["card", "dictator-q", "--svg"]).arg(&svg).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no model `dictator-q`"), "{}", text(&out));
}

/// The README's card is the content's: regenerate it with
/// `cargo run -q -- card dictator-b --svg docs/images/dictator-b-card.svg`.
#[test]
fn the_readme_card_is_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "dictator-b", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let committed = root().join("docs/images/dictator-b-card.svg");
    let fresh = std::fs::read_to_string(&svg).unwrap();
    let old = std::fs::read_to_string(&committed).unwrap_or_default();
    assert!(
        old == fresh,
        "{} is stale: run `cargo run -q -- card dictator-b --svg docs/images/dictator-b-card.svg`",
        committed.display()
    );
    assert!(std::fs::read_to_string(root().join("README.md")).unwrap().contains("docs/images/dictator-b-card.svg"));
}

#[test]
fn a_mid_game_map_has_the_board_terrain_models_and_sight() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav().args(["map", "stand-and-fight", "--seed", "1", "--turn", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert!(body.contains("Stand and Fight! — seed 1, start of turn 3"));
    // Seed 1 lays nine pieces of terrain (the `terrain_placed` events of `cav play --seed 1`
    // before its first turn; a wreck later is one too).
    let log = tmp.path().join("game.jsonl");
    let played = cav().args(["play", "--seed", "1", "--quiet", "--log"]).arg(&log).output().unwrap();
    assert!(played.status.success(), "{}", text(&played));
    let laid = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .take_while(|l| !l.contains("\"turn_start\""))
        .filter(|l| l.contains("\"terrain_placed\""))
        .count();
    assert_eq!(body.matches("<g class=\"terrain\"").count(), laid);
    assert_eq!(body.matches("<g class=\"model\"").count(), 2, "both Dictator-Bs, in play at turn 3");
    assert_eq!(body.matches("<g class=\"sight\"").count(), 1, "one pair of enemies");
    assert_eq!(body.matches("<g class=\"band\"").count(), 4, "the Quick-Start's four bands");
    let out = cav().args(["map", "stand-and-fight", "--rings", "green", "--svg"]).arg(&svg).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// The README's map: `cargo run -q -- map stand-and-fight --seed 1 --turn 3 --svg docs/images/stand-and-fight-map.svg`.
#[test]
fn the_readme_map_is_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav().args(["map", "stand-and-fight", "--seed", "1", "--turn", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let committed = root().join("docs/images/stand-and-fight-map.svg");
    assert!(
        std::fs::read_to_string(&committed).unwrap_or_default() == std::fs::read_to_string(&svg).unwrap(),
        "{} is stale: run `cargo run -q -- map stand-and-fight --seed 1 --turn 3 --svg docs/images/stand-and-fight-map.svg`",
        committed.display()
    );
    assert!(std::fs::read_to_string(root().join("README.md")).unwrap().contains("docs/images/stand-and-fight-map.svg"));
}

#[test]
fn play_draws_the_board_as_the_game_ended_with_its_wreck() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("end.svg");
    let out = cav().args(["play", "--seed", "3", "--quiet", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    // Seed 3: black wins, red is destroyed (the summary says so).
    assert!(text(&out).contains("red Dictator-B: destroyed"), "{}", text(&out));
    assert!(body.contains("<g class=\"model destroyed\" data-name=\"red Dictator-B\""));
    assert!(body.contains("<g class=\"model\" data-name=\"black Dictator-B\""));
    assert_eq!(body.matches("<g class=\"sight\"").count(), 0, "no enemies left to see");
}

/// Seed 61: in turn 4 a missed strike point drifts (the `drift` event of `cav play --seed 61`).
#[test]
fn the_map_shows_the_last_turns_drift() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out =
        cav().args(["map", "stand-and-fight", "--seed", "61", "--turn", "5", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(body.matches("<g class=\"drift\"").count(), 1);
    let out =
        cav().args(["map", "stand-and-fight", "--seed", "61", "--turn", "4", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("<g class=\"drift\"").count(), 0, "turn 3 had none");
}
