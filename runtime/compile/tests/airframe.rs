//! A pack word the engine would ignore is said: an `airframe` on a model that is not an aircraft.

#[test]
fn an_airframe_on_a_walker_is_a_located_warning() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("winged");
    std::fs::create_dir_all(pack.join("models")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: winged\nname: Winged\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("models/walker.yaml"),
        "kind: model\nid: winged-walker\nname: Winged Walker\nfaction: Test\nmodel_type: cav\nchassis: small\n\
         task: attack\nmove_class: walker\nairframe: rotor\ntv: 100\ndamage_track:\n  damage_tracks: 1\n  \
         mv: [6, 6]\n  av: [5, 5]\nsummary: An invented test model.\n",
    )
    .unwrap();
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![pack.clone()], library: vec![root.join("content")] });
    cav_compile::validate(&mut loaded);
    let w = loaded
        .diagnostics
        .iter()
        .find(|d| d.message.contains("`airframe` changes nothing"))
        .unwrap_or_else(|| panic!("no airframe warning in {:#?}", loaded.diagnostics));
    assert_eq!(w.severity, cav_content::Severity::Warning);
    assert_eq!(w.loc.map(|l| l.start.line), Some(9));
}
