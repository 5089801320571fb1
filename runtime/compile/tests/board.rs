//! A ruleset's board (`board:`): continuous inches by default; a hex board says which way its
//! hexes lie and is recognised (with a warning that it is not played yet); a hex word on a
//! continuous board is an error at it.

mod common;

fn patch(board: &str) -> String {
    format!("kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A board.\nset:\n  board: {board}\n")
}

#[test]
fn a_hex_board_is_recognised_and_said_played_in_part() {
    // (A stand-alone game: warnings about library packs such as the bundled CAV are not shown.)
    let (diags, rules) = common::edited_pack("sythopian-wars", "rules/ruleset.yaml", |text| {
        text.replacen("\ndice:", "\nboard: {topology: hex, orientation: pointy, hex_size: 1.5}\ndice:", 1)
    });
    let rules = rules.expect("compiles");
    let hexes = rules.hexes.expect("a hex board");
    assert_eq!((hexes.orientation, hexes.across_flats), (cav_format::HexOrientation::Pointy, 1.5));
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/board/topology")
        && d.severity == cav_content::Severity::Warning
        && d.message.contains("played in part")));
    assert!(common::full_rules().hexes.is_none(), "CAV's board is continuous");
}

#[test]
fn board_mistakes_are_errors_at_their_place() {
    let diags =
        common::extension_diagnostics("bad-board", &[("patch.yaml", &patch("{orientation: flat, hex_size: 2}"))]);
    let at = |p: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.message.contains("continuous"));
    assert!(at("/board/orientation") && at("/board/hex_size"), "{diags:#?}");
    let diags = common::extension_diagnostics("no-orientation", &[("patch.yaml", &patch("{topology: hex}"))]);
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/board") && d.message.contains("which way")),
        "{diags:#?}"
    );
    let diags = common::extension_diagnostics(
        "tiny",
        &[("patch.yaml", &patch("{topology: hex, orientation: flat, hex_size: 0}"))],
    );
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/board/hex_size")),
        "the schema bounds the size: {diags:#?}"
    );
}

/// On a hex board ranges and distances are counted in hexes (in hex sizes): three hexes apart is
/// range 3 and two hexes between; neighbours are in contact.
#[test]
fn ranges_on_a_hex_board_count_hexes() {
    use cav_rules::compile::{Hex, HexGeometry};
    let (_, rules) = common::edited_pack("sythopian-wars", "rules/ruleset.yaml", |text| {
        text.replacen("\ndice:", "\nboard: {topology: hex, orientation: flat, hex_size: 2}\ndice:", 1)
    });
    let rules = rules.expect("compiles");
    let g = rules.hexes.unwrap();
    let card = rules.card("raider").unwrap();
    let board = cav_rules::game::Board { size: [48.0, 48.0], areas: Vec::new() };
    let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
    let at = |h: Hex| {
        let c = g.centre(h);
        cav_rules::geom::P::new(c.x + 20.0, c.y + 20.0)
    };
    // (The board's origin is the hex (0, 0)'s centre; models stand well inside it.)
    let origin = g.hex_at(cav_rules::geom::P::new(20.0, 20.0));
    let a = game.add_model(card, 0, at(Hex::ZERO), 0.0);
    let b = game.add_model(card, 1, at(Hex::new(3, 0)), 0.0);
    let c = game.add_model(card, 1, at(Hex::new(0, 1)), 0.0);
    assert_eq!(game.hex_of(a).map(|h| h - origin), Some(Hex::ZERO));
    assert_eq!(HexGeometry::hexes(game.hex_of(a).unwrap(), game.hex_of(b).unwrap()), 3);
    assert_eq!((game.range(a, b), game.distance(a, b)), (6.0, 4.0));
    assert_eq!((game.range(a, c), game.distance(a, c)), (2.0, 0.0));
}
