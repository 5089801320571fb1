//! The full-rules pack holds a document for every name of the catalog checklist
//! (`tests/data/cav-names.tsv`: category, name, source line), names compared with case and
//! punctuation ignored.

use std::path::Path;

use cav_content::{LoadOptions, load, ruleset::normalise_name};
use cav_format::DocKind;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

#[test]
fn every_checklist_name_has_a_document_in_cav_full() {
    let loaded = load(&LoadOptions { paths: vec![root().join("content/cav-full")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("cav-full ruleset builds");
    let names = std::fs::read_to_string(root().join("tests/data/cav-names.tsv")).unwrap();
    let mut missing = Vec::new();
    let mut count = 0;
    for line in names.lines().filter(|l| !l.trim().is_empty()) {
        let mut cols = line.split('\t');
        let (Some(cat), Some(name)) = (cols.next(), cols.next()) else { panic!("bad checklist line {line:?}") };
        let kind = match cat {
            "sa" => DocKind::SpecialAttribute,
            "upgrade" => DocKind::Upgrade,
            "asset" => DocKind::Asset,
            "strike" => DocKind::Strike,
            "weapon" => DocKind::Weapon,
            other => panic!("unknown category {other}"),
        };
        count += 1;
        let want = normalise_name(name);
        let found =
            rs.of_kind(kind).any(|e| e.pack == "cav-full" && e.doc.is_some() && normalise_name(e.name()) == want);
        if !found {
            missing.push(format!("{cat}: {name}"));
        }
    }
    assert_eq!(count, 214, "the checklist has 214 names");
    assert!(
        missing.is_empty(),
        "{} names without a valid document in cav-full:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// `source:` may be left out of invented content, but every catalog entry of the official packs
/// cites its rulebook line.
#[test]
fn every_official_catalog_entry_cites_its_source() {
    let loaded = load(&LoadOptions { paths: vec![root().join("content")], library: vec![] });
    let mut without = Vec::new();
    for rs in &loaded.rulesets {
        for kind in [DocKind::SpecialAttribute, DocKind::Upgrade, DocKind::Asset, DocKind::Strike, DocKind::Weapon] {
            for e in rs.of_kind(kind).filter(|e| e.pack.starts_with("cav-")) {
                if e.value.get("source").and_then(|s| s.as_str()).is_none_or(|s| s.trim().is_empty()) {
                    without.push(format!("{} {} ({})", kind.tag(), e.id, rs.id));
                }
            }
        }
    }
    assert!(without.is_empty(), "official entries without `source:`: {without:#?}");
}
