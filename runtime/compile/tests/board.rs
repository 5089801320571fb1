//! A ruleset's board (`board:`): continuous inches by default; a hex board says which way its
//! hexes lie and is recognised (with a warning that it is not played yet); a hex word on a
//! continuous board is an error at it.

mod common;

fn patch(board: &str) -> String {
    format!("kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A board.\nset:\n  board: {board}\n")
}

#[test]
fn a_hex_board_is_recognised_and_said_not_played() {
    // (A stand-alone game: warnings about library packs such as the bundled CAV are not shown.)
    let (diags, rules) = common::edited_pack("sythopian-wars", "rules/ruleset.yaml", |text| {
        text.replacen("\ndice:", "\nboard: {topology: hex, orientation: pointy, hex_size: 1.5}\ndice:", 1)
    });
    let rules = rules.expect("compiles");
    let hexes = rules.hexes.expect("a hex board");
    assert_eq!((hexes.orientation, hexes.across_flats), (cav_format::HexOrientation::Pointy, 1.5));
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/board/topology")
        && d.severity == cav_content::Severity::Warning
        && d.message.contains("not played yet")));
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
