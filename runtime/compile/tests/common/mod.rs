//! What the full-rules engine tests share.

use cav_rules::Rules;

/// The bundled full rules with the iron-wolves mod (its invented Warg and Fenrir), compiled.
pub fn full_rules() -> Rules {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content"), root.join("mods/iron-wolves")],
        library: vec![root.join("content"), root.join("mods")],
    });
    let compiled = cav_compile::validate(&mut loaded);
    let ix = loaded.rulesets.iter().position(|r| r.id == "cav-full").unwrap();
    compiled.into_iter().nth(ix).flatten().expect("the full rules compile")
}
