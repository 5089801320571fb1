//! A pre-deployment piece's footprint: round or a rectangle, and a piece `cav play` cannot set
//! down (no footprint) is said to be so.

mod common;

const TRENCHLIKE: &str =
    "kind: asset\nid: ditch\nname: Ditch\ncost: {tv: 5}\nplacement: pre_deployment\nterrain: trench\n";

#[test]
fn a_footprint_both_round_and_square_is_a_located_error() {
    let text = format!("{TRENCHLIKE}footprint: {{radius: 1, length: 3, width: 1}}\nsummary: An invented test asset.\n");
    let diagnostics = common::extension_diagnostics("ditches", &[("assets/ditch.yaml", &text)]);
    let e = diagnostics
        .iter()
        .find(|d| d.code == "footprint")
        .unwrap_or_else(|| panic!("no footprint error in {diagnostics:#?}"));
    assert_eq!(e.severity, cav_content::Severity::Error);
    assert_eq!(e.loc.map(|l| l.start.line), Some(7));
}

#[test]
fn a_piece_without_a_footprint_is_said_not_to_be_set_down() {
    let text = format!("{TRENCHLIKE}summary: An invented test asset.\n");
    let diagnostics = common::extension_diagnostics("ditches", &[("assets/ditch.yaml", &text)]);
    let w = diagnostics
        .iter()
        .find(|d| d.code == "not-implemented" && d.message.contains("no `footprint`"))
        .unwrap_or_else(|| panic!("no footprint warning in {diagnostics:#?}"));
    assert_eq!(w.severity, cav_content::Severity::Warning);
    assert_eq!(w.loc.map(|l| l.start.line), Some(5));
}

#[test]
fn a_piece_with_a_footprint_is_quiet() {
    let text = format!("{TRENCHLIKE}footprint: {{length: 3, width: 1}}\nsummary: An invented test asset.\n");
    let diagnostics = common::extension_diagnostics("ditches", &[("assets/ditch.yaml", &text)]);
    assert!(
        !diagnostics.iter().any(|d| d.code == "footprint" || d.message.contains("no `footprint`")),
        "{diagnostics:#?}"
    );
}
