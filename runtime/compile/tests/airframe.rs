//! A pack word the engine would ignore is said: an `airframe` on a model that is not an aircraft.

mod common;

#[test]
fn an_airframe_on_a_walker_is_a_located_warning() {
    let diagnostics = common::extension_diagnostics(
        "winged",
        &[(
            "models/walker.yaml",
            "kind: model\nid: winged-walker\nname: Winged Walker\nfaction: Test\nmodel_type: cav\nchassis: small\n\
             task: attack\nmove_class: walker\nairframe: rotor\ntv: 100\ndamage_track:\n  damage_tracks: 1\n  \
             mv: [6, 6]\n  av: [5, 5]\nsummary: An invented test model.\n",
        )],
    );
    let w = diagnostics
        .iter()
        .find(|d| d.message.contains("`airframe` changes nothing"))
        .unwrap_or_else(|| panic!("no airframe warning in {diagnostics:#?}"));
    assert_eq!(w.severity, cav_content::Severity::Warning);
    assert_eq!(w.loc.map(|l| l.start.line), Some(9));
}
