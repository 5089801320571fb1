//! `procedures.sight.fire_over`: a way of firing over low terrain names who may use it, a special
//! attribute or weapons, and exactly one of them.

/// The bundled full rules with `sight.fire_over`'s towed-gun entry rewritten by `edit`, validated.
fn diagnostics_with(edit: impl Fn(&str) -> String) -> Vec<cav_content::Diagnostic> {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    for pack in ["cav-full", "cav-quickstart"] {
        cav_watch::copy_tree(&root.join("content").join(pack), &dir.path().join(pack)).unwrap();
    }
    let file = dir.path().join("cav-full/rules/ruleset.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = edit(&text);
    assert_ne!(edited, text, "the edit applies");
    std::fs::write(&file, edited).unwrap();
    let mut loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![dir.path().join("cav-full")],
        library: vec![dir.path().to_path_buf()],
    });
    cav_compile::validate(&mut loaded);
    loaded.diagnostics
}

const TOWED: &str = "- {weapons: [light-anti-tank-gun-towed,";

#[test]
fn a_way_with_both_an_sa_and_weapons_is_an_error() {
    let diags = diagnostics_with(|t| t.replace(TOWED, "- {sa: turret, weapons: [light-anti-tank-gun-towed,"));
    let d = diags.iter().find(|d| d.code == "fire-over").unwrap_or_else(|| panic!("{diags:#?}"));
    assert!(d.message.contains("one of them"), "{d:?}");
}

#[test]
fn a_way_naming_no_one_is_an_error() {
    let diags = diagnostics_with(|t| {
        t.replace(
            "- {weapons: [light-anti-tank-gun-towed, medium-anti-tank-gun-towed, heavy-anti-tank-gun-towed], ",
            "- {",
        )
    });
    assert!(diags.iter().any(|d| d.code == "fire-over"), "{diags:#?}");
}

#[test]
fn a_weapon_that_does_not_exist_is_a_dangling_reference() {
    let diags = diagnostics_with(|t| t.replace(TOWED, "- {weapons: [light-anti-tank-gun-towd,"));
    assert!(
        diags.iter().any(|d| d.code == "dangling-ref" && d.message.contains("light-anti-tank-gun-towd")),
        "{diags:#?}"
    );
}
