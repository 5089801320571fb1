//! Load and validate a generated pack of 5,000 model data cards, and the bundled content (the
//! official packs and the example mods, as `cav validate` loads them cold).
//! Run: `cargo bench -p cav-content --bench load`

use std::path::PathBuf;
use std::sync::OnceLock;

use cav_content::{LoadOptions, load};

const MODELS: usize = 5_000;

fn tree() -> &'static PathBuf {
    static TREE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &TREE
        .get_or_init(|| {
            let dir = tempfile::tempdir().expect("temp dir");
            let pack = dir.path().join("generated");
            std::fs::create_dir_all(pack.join("models")).unwrap();
            std::fs::write(pack.join("pack.yaml"), "id: generated\nname: Generated\nversion: 1.0.0\nkind: ruleset\n").unwrap();
            std::fs::write(
                pack.join("catalog.yaml"),
                "kind: move_class\nid: walker\nname: Walker\nsummary: legs\n---\n\
                 kind: special_attribute\nid: hard\nname: Hard\napplies_to: model\nparameter: none\nsummary: s\nsource: t\n---\n\
                 kind: special_attribute\nid: blaster\nname: Blaster\napplies_to: weapon\nparameter: rating\nsummary: s\nsource: t\n---\n\
                 kind: weapon\nid: medium-mac\nname: Medium MAC\nclass: MAC\nfire: direct\nrange: 12\nrav: 5/2\nspecial_attributes: [{sa: blaster, rating: 1}]\nsummary: s\nsource: t\n",
            )
            .unwrap();
            for i in 0..MODELS {
                let text = format!(
                    "kind: model\nid: unit-{i}\nname: Unit {i}\nfaction: Bench\nmodel_type: cav\nchassis: large\ntask: attack\n\
                     move_class: walker\ntv: {tv}\ndamage_track:\n  damage_tracks: 9\n  mv: [6, 6, 5, 5, 4, 4, 3, 3, 2, 1]\n  \
                     av: [7, 7, 6, 6, 5, 5, 4, 4, 3, 3]\n  dc: [4, 4, 3, 2, 1, 0, -1, -2, -2, -3]\n  \
                     ccv: [5/5, 5/5, 4/4, 4/4, 3/3, 3/3, 3/3, 2/2, 2/2, 1/1]\nweapons:\n  - weapon: medium-mac\n    quantity: 2\n    \
                     mount: [L, R]\n    rav: [6/2, 6/2, 5/2, 5/2, 5/2, 4/1, 4/1, 4/1, 3/1, 3/1]\nspecial_attributes: [hard, {{sa: blaster, rating: 1}}]\n",
                    tv = 300 + i % 200
                );
                std::fs::write(pack.join(format!("models/unit-{i:05}.yaml")), text).unwrap();
            }
            (dir, pack)
        })
        .1
}

#[divan::bench(sample_count = 5)]
fn load_5000_models() -> usize {
    let loaded = load(&LoadOptions { paths: vec![tree().clone()], library: vec![] });
    assert_eq!(loaded.error_count(), 0, "generated tree must be valid");
    loaded.documents
}

/// The YAML reading alone of the 5,000 model files, on one core.
#[divan::bench(sample_count = 5)]
fn parse_5000_models(bencher: divan::Bencher) {
    let texts: Vec<String> = (0..MODELS)
        .map(|i| std::fs::read_to_string(tree().join(format!("models/unit-{i:05}.yaml"))).unwrap())
        .collect();
    bencher.bench(|| {
        texts.iter().map(|t| cav_content::yaml::parse(t, cav_content::FileId(0)).map_or(0, |d| d.len())).sum::<usize>()
    });
}

#[divan::bench(sample_count = 20)]
fn load_bundled_content() -> usize {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = load(&LoadOptions {
        paths: vec![root.join("content"), root.join("mods")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0, "bundled content must be valid");
    loaded.documents
}

fn main() {
    tree();
    divan::main();
}
