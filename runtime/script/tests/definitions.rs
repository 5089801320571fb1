//! The committed editor definitions must match the hook API the host offers.

#[test]
fn committed_definitions_are_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/cav-hooks.d.luau");
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(have, cav_script::definitions(), "stale {} (run `cav schema`)", path.display());
}

#[test]
fn every_hook_point_is_in_the_definitions() {
    let d = cav_script::definitions();
    assert_eq!(cav_script::host::HOOK_POINTS.len(), 26);
    for p in cav_script::host::HOOK_POINTS {
        assert!(d.contains(&format!("\t{}: ((ctx: CavContext) -> ())?,", cav_script::host::hook_name(*p))));
    }
}

/// Hook names are the serde names of `HookPoint`, which the packs' `hooks:` lists use.
#[test]
fn hook_names_match_the_schema_names() {
    for p in cav_script::host::HOOK_POINTS {
        let serde = serde_json::to_value(p).unwrap();
        assert_eq!(serde.as_str().unwrap(), cav_script::host::hook_name(*p));
    }
}
