//! Any text as a document of a copy of the bundled content, through the whole pipeline: packs →
//! load sets → ruleset (extends, patches) → checks → compile. Slower than `yaml_documents` (it
//! loads from disk), so it finds what only the whole pipeline does.
#![no_main]

use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};

use libfuzzer_sys::fuzz_target;

struct Copy {
    _dir: tempfile::TempDir,
    content: PathBuf,
    file: PathBuf,
    cache: cav_content::pack::Cache,
}

fn copy() -> &'static Mutex<Copy> {
    static C: OnceLock<Mutex<Copy>> = OnceLock::new();
    C.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let content = dir.path().join("content");
        copy_tree(&repo.join("content"), &content);
        let file = content.join("cav-quickstart/fuzz.yaml");
        Mutex::new(Copy { _dir: dir, content, file, cache: Default::default() })
    })
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), t).unwrap();
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut c = copy().lock().unwrap();
    std::fs::write(&c.file, data).unwrap();
    let opts = cav_content::LoadOptions { paths: vec![c.content.clone()], library: vec![c.content.clone()] };
    let loaded = cav_content::load_cached(&opts, &mut c.cache);
    let _ = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
});
