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

/// A reload reads again only the files whose stamp (inode, length, times) changed since the last
/// load read them, and what it gives is still what a cold load gives: after an edit that keeps
/// the length and puts the modification time back, and after a file is swapped for a link to a
/// copy outside its pack (refused, as a cold load refuses it).
#[cfg(unix)]
#[test]
fn a_reload_reads_again_only_the_files_whose_stamp_changed() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&repo.join("content"), &dir.path().join("content"));
    let roots = vec![dir.path().join("content")];
    let opts = LoadOptions { paths: roots.clone(), library: roots };
    let reload = |cache: &mut Cache| {
        let l = cav_content::load_cached(&opts, cache);
        cache.sweep();
        (snapshot(&l), cache.files_read_last())
    };

    // Files written a moment ago are not trusted: every load reads them all again.
    let mut wary = Cache::default();
    let (first, all) = reload(&mut wary);
    assert!(all > 100, "{all} files read");
    assert_eq!(reload(&mut wary), (first.clone(), all), "a file written within `SETTLED` of its read is read again");

    // Trusting every stamp at once (the files' times are left some coarse clock ticks behind).
    std::thread::sleep(std::time::Duration::from_millis(50));
    let mut cache = Cache::settling_for(std::time::Duration::ZERO);
    assert_eq!(reload(&mut cache), (first.clone(), all));
    assert_eq!(reload(&mut cache), (first.clone(), 0), "no file is read again");

    // The same length, the modification time put back: the change time tells.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let card = dir.path().join("content/cav-quickstart/models/dictator-b.yaml");
    let mtime = std::fs::metadata(&card).unwrap().modified().unwrap();
    edit(&card, "\ntv: 800\n", "\ntv: 801\n");
    std::fs::File::options().write(true).open(&card).unwrap().set_modified(mtime).unwrap();
    let edited = cold(&opts);
    assert_ne!(edited, first);
    assert_eq!(reload(&mut cache), (edited.clone(), 1), "the edited file is read again");
    assert_eq!(reload(&mut cache).1, 0);

    // Swapped for a link to the same text outside the pack: another inode, read again, refused.
    let outside = dir.path().join("outside.yaml");
    std::fs::copy(&card, &outside).unwrap();
    std::fs::remove_file(&card).unwrap();
    std::os::unix::fs::symlink(&outside, &card).unwrap();
    let linked = cold(&opts);
    assert!(linked.contains("outside-pack"), "a cold load refuses the link");
    assert_eq!(reload(&mut cache).0, linked, "so does the reload");

    // Stamps forgotten under a folder (a watcher saw it change): its files are read again.
    std::fs::remove_file(&card).unwrap();
    std::fs::copy(&outside, &card).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(reload(&mut cache).0, edited);
    let models = dir.path().join("content/cav-quickstart/models");
    let in_models = std::fs::read_dir(&models).unwrap().count();
    assert_eq!(reload(&mut cache).1, 0);
    cache.forget_stamps(&[models]);
    assert_eq!(reload(&mut cache), (edited, in_models));
}
