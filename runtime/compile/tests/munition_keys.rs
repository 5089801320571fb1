//! A munition profile's key nothing would read is an error: a `strip` without `dropped`.

#[test]
fn a_strip_on_a_profile_that_is_not_dropped_is_a_located_error() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("strips");
    std::fs::create_dir_all(pack.join("upgrades")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: strips\nname: Strips\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("upgrades/flat.yaml"),
        "kind: upgrade\nid: flat-strip\nname: Flat Strip\ncategory: pylon_ammo\nprofiles:\n  - launcher: pylon\n    \
         rav: 2/3\n    base_tp: 7\n    strip: {length: 10, width: 2}\nsummary: An invented test munition.\n",
    )
    .unwrap();
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![pack.clone()], library: vec![root.join("content")] });
    cav_compile::validate(&mut loaded);
    let e = loaded
        .diagnostics
        .iter()
        .find(|d| d.message.contains("`strip` is the area of a dropped bomb"))
        .unwrap_or_else(|| panic!("no strip error in {:#?}", loaded.diagnostics));
    assert_eq!(e.severity, cav_content::Severity::Error);
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}
