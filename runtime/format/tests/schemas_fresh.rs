//! The committed schemas under `schemas/` must be what the types generate today.

use std::path::Path;

#[test]
fn committed_schemas_are_fresh() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas");
    let mut stale = Vec::new();
    for (name, schema) in cav_format::all_schemas() {
        let want = cav_format::render_schema(&schema);
        match std::fs::read_to_string(dir.join(&name)) {
            Ok(have) if have == want => {}
            _ => stale.push(name),
        }
    }
    assert!(stale.is_empty(), "stale schemas (run `cargo run -p cav-cli -- schema`): {stale:?}");
}

#[test]
fn every_kind_schema_requires_its_kind_tag() {
    for &k in cav_format::DocKind::ALL {
        let s = cav_format::schema_for_kind(k);
        assert_eq!(s["properties"]["kind"]["const"], k.tag());
        assert_eq!(s["required"][0], "kind");
        assert_eq!(s["$schema"], "http://json-schema.org/draft-07/schema#");
    }
}
