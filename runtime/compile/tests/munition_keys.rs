//! A munition profile's key nothing would read is an error: a `strip` without `dropped`.

mod common;

#[test]
fn a_strip_on_a_profile_that_is_not_dropped_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "strips",
        &[(
            "upgrades/flat.yaml",
            "kind: upgrade\nid: flat-strip\nname: Flat Strip\ncategory: pylon_ammo\nprofiles:\n  - launcher: pylon\n    \
             rav: 2/3\n    base_tp: 7\n    strip: {length: 10, width: 2}\nsummary: An invented test munition.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.message.contains("`strip` is the area of a dropped bomb"))
        .unwrap_or_else(|| panic!("no strip error in {diagnostics:#?}"));
    assert_eq!(e.severity, cav_content::Severity::Error);
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}
