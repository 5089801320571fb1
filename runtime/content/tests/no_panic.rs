//! Whatever bytes a content file holds, loading reports diagnostics and never panics.

use cav_content::{LoadOptions, load};
use proptest::prelude::*;

const MODEL: &str = "kind: model\nid: dictator-b\nname: Dictator-B\nfaction: Test\nmodel_type: cav\ntask: attack\nmove_class: walker\ntv: 300\ndamage_track:\n  damage_tracks: 2\n  mv: [6, 5, 4]\n  av: 7\nweapons:\n  - weapon: medium-mac\n    quantity: 2\n    mount: [L, R]\n---\nkind: patch\ntarget: {kind: model, id: dictator-b}\nset: {tv: 1}\nremove: [/weapons/0]\n---\nkind: model\nid: copy\nextends: dictator-b\nname: Copy\n";

fn load_text(bytes: &[u8]) {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(pack.join("pack.yaml"), "id: p\nname: P\nversion: 1.0.0\nkind: ruleset\n").unwrap();
    std::fs::write(pack.join("doc.yaml"), bytes).unwrap();
    let loaded = load(&LoadOptions { paths: vec![dir.path().to_owned()], library: vec![] });
    // Rendering every diagnostic must not panic either (spans past the end, odd characters).
    let _ = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
    let _ = cav_content::diag::to_json(&loaded.diagnostics, &loaded.sources);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn arbitrary_yaml_like_text(text in "[a-z_:\\-\\[\\]{},'\"&*!|>#%@ \\n0-9/.~Ω—]{0,300}") {
        load_text(text.as_bytes());
    }

    #[test]
    fn mutated_valid_documents(edits in prop::collection::vec((0usize..600, any::<u8>()), 1..6)) {
        let mut bytes = MODEL.as_bytes().to_vec();
        for (at, b) in edits {
            let i = at % bytes.len();
            bytes[i] = b;
        }
        load_text(&bytes);
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        load_text(&bytes);
    }
}
