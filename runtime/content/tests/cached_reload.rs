//! A reload through the cache (`load_cached`, watch mode) must give what a cold load of the same
//! files gives: the cache reuses parses, schema checks, typed documents and resolved `extends:`
//! only where their inputs are unchanged. File ids may differ (a saved file gets a new one), so
//! the loads are compared with every location written as path:line:col.

use std::fmt::Write as _;
use std::path::Path;

use cav_content::diag::{Loc, render_human, to_json};
use cav_content::{LoadOptions, Loaded, pack::Cache};

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

/// Everything a load gives, with file ids replaced by paths.
fn snapshot(l: &Loaded) -> String {
    let path = |f: cav_content::FileId| l.sources.get(f).path.display().to_string();
    let loc = |x: Option<Loc>| {
        x.map(|x| format!("{}:{}:{}-{}:{}", path(x.file), x.start.line, x.start.col, x.end.line, x.end.col))
    };
    let mut out = String::new();
    writeln!(out, "documents {}", l.documents).unwrap();
    for p in &l.packs {
        writeln!(out, "pack {} {} {:?} {}", p.id, p.version, p.kind, p.documents).unwrap();
    }
    out.push_str(&render_human(&l.diagnostics, &l.sources));
    out.push_str(&to_json(&l.diagnostics, &l.sources).to_string());
    for d in &l.diagnostics {
        writeln!(
            out,
            "{:?} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
            d.severity,
            d.code,
            d.message,
            d.pack,
            loc(d.loc),
            d.file.map(path),
            d.path,
            d.pointer,
            d.expected,
            d.hint,
            d.missing
        )
        .unwrap();
    }
    for rs in &l.rulesets {
        writeln!(out, "ruleset {} {:?}", rs.id, rs.packs).unwrap();
        for e in rs.entries() {
            writeln!(
                out,
                "{} {} {} {} {} {:?} {}",
                e.kind.tag(),
                e.id,
                e.pack,
                e.script_pack,
                path(e.file),
                loc(Some(e.root)),
                e.value
            )
            .unwrap();
            writeln!(out, "  {:?}", e.doc).unwrap();
            for (k, v) in &e.prov.values {
                writeln!(out, "  v {k} {:?}", loc(Some(*v))).unwrap();
            }
            for (k, v) in &e.prov.keys {
                writeln!(out, "  k {k} {:?}", loc(Some(*v))).unwrap();
            }
        }
    }
    out
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// A cold load on one thread: the reference, which must not depend on the thread count either.
fn cold(opts: &LoadOptions) -> String {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    snapshot(&pool.install(|| cav_content::load(opts)))
}

#[test]
fn cached_reload_equals_cold_load() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        copy_tree(&repo.join(d), &dir.path().join(d));
    }
    let roots = vec![dir.path().join("content"), dir.path().join("mods")];
    let opts = LoadOptions { paths: roots.clone(), library: roots };
    let mut cache = Cache::default();
    let reload = |cache: &mut Cache| {
        let l = cav_content::load_cached(&opts, cache);
        cache.sweep();
        snapshot(&l)
    };

    let before = cold(&opts);
    assert_eq!(reload(&mut cache), before, "first load through the cache");
    assert_eq!(reload(&mut cache), before, "nothing changed");

    // A card, the parent that many test models `extends:` (a new value, and an unknown key that
    // every child inherits), in two packs.
    let card = dir.path().join("content/cav-quickstart/models/dictator-b.yaml");
    let parent = dir.path().join("content/cav-full/tests/fixtures.yaml");
    edit(&card, "\ntv: 800\n", "\ntv: 801\n");
    edit(&parent, "\ntv: 500\n", "\ntv: 501\nbogus_field: 1\n");
    let after = cold(&opts);
    assert_ne!(after, before);
    assert!(after.contains("bogus_field"), "the edit is reported");
    assert_eq!(reload(&mut cache), after, "reload after the edits");
    assert_eq!(reload(&mut cache), after, "reload again");

    // Back as it was: the earlier results must not come back from anywhere stale.
    edit(&card, "\ntv: 801\n", "\ntv: 800\n");
    edit(&parent, "\ntv: 501\nbogus_field: 1\n", "\ntv: 500\n");
    assert_eq!(reload(&mut cache), before, "reload after undoing the edits");
}
