//! The committed editor definitions are what the vocabulary generates today.

#[test]
fn committed_definitions_are_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/cav-hooks.d.luau");
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(have, cav_script::definitions(), "stale {} (run `cav schema`)", path.display());
}
