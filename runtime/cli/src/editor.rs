//! Editor schemas (`schemas/editor/<kind>.schema.json`): the kind schemas with every reference to
//! another document (`weapon:`, special attributes, `move_class:`, a test's `ruleset:` …) an
//! `enum` of the ids of the loaded content, each with its name and pack, so the YAML language
//! server completes ids and flags a dangling one as you type. The plain schemas stay
//! content-independent; which fields are references is declared once on the types
//! (`cav_format::refs`), the declaration the loader's dangling-reference check reads too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cav_content::Loaded;
use cav_format::DocKind;
use cav_format::refs::IdCatalog;

/// The directory under `schemas/` the editor schemas go to.
pub const DIR: &str = "editor";

/// What the editor schemas offer: document ids by kind, and the model types the rulesets declare.
pub struct Catalog {
    pub ids: IdCatalog,
    /// Each declared model type with "declared by <rulesets>".
    pub model_types: Vec<(String, String)>,
}

/// The ids of every document the load holds, by kind, each with "Name (pack)", and the model
/// types its rulesets declare. An id several packs define (a ruleset's own copy, a mod's
/// replacement) names them all. Sorted, so the schemas are the same text whatever the load order.
pub fn catalog(loaded: &Loaded) -> Catalog {
    let mut types: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for rs in &loaded.rulesets {
        if let Some(cav_format::Document::Ruleset(r)) = rs.get(DocKind::Ruleset, &rs.id).and_then(|e| e.doc.as_deref())
        {
            for t in r.model_types.keys() {
                types.entry(t.0.clone()).or_default().push(rs.id.clone());
            }
        }
    }
    let model_types = types
        .into_iter()
        .map(|(t, mut by)| {
            by.sort();
            (t, format!("declared by {}", by.join(", ")))
        })
        .collect();
    Catalog { ids: ids(loaded), model_types }
}

fn ids(loaded: &Loaded) -> IdCatalog {
    let mut by_kind: BTreeMap<DocKind, BTreeMap<String, (String, Vec<String>)>> = BTreeMap::new();
    for rs in &loaded.rulesets {
        for e in rs.entries() {
            let (_, packs) = by_kind
                .entry(e.kind)
                .or_default()
                .entry(e.id.clone())
                .or_insert_with(|| (e.name().to_owned(), Vec::new()));
            if !packs.contains(&e.pack) {
                packs.push(e.pack.clone());
            }
        }
    }
    by_kind
        .into_iter()
        .map(|(kind, ids)| {
            let list = ids
                .into_iter()
                .map(|(id, (name, mut packs))| {
                    packs.sort();
                    (id, format!("{name} ({})", packs.join(", ")))
                })
                .collect();
            (kind, list)
        })
        .collect()
}

/// The editor schema files for `catalog`, under `dir` (`schemas/editor`): one per kind, and
/// `pack.yaml`'s (the plain one: it names no document), so every file of a pack points into one
/// directory.
pub fn files(dir: &Path, catalog: &Catalog) -> Vec<(PathBuf, String)> {
    let mut out = vec![(dir.join("pack.schema.json"), cav_format::render_schema(&cav_format::manifest_schema()))];
    out.extend(DocKind::ALL.iter().map(|&k| {
        let schema = cav_format::refs::editor_schema(k, &catalog.ids, &catalog.model_types);
        (dir.join(format!("{}.schema.json", k.tag())), cav_format::render_schema(&schema))
    }));
    out
}
