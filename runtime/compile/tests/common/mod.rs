//! What the full-rules engine tests share.

use cav_rules::Rules;

/// The bundled full rules with the iron-wolves mod (its invented Warg and Fenrir), compiled.
#[allow(dead_code)] // (not every test file uses it)
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

/// The diagnostics `cav validate` gives an extension pack of the full rules named `id`, holding
/// `files` (path in the pack, text) — one invented document each, to see what the checks say.
#[allow(dead_code)] // (not every test file uses it)
pub fn extension_diagnostics(id: &str, files: &[(&str, &str)]) -> Vec<cav_content::Diagnostic> {
    extension(id, files).0
}

/// The full rules with an extension pack named `id` holding `files`, compiled (it must compile).
#[allow(dead_code)] // (not every test file uses it)
pub fn extension_rules(id: &str, files: &[(&str, &str)]) -> Rules {
    let (diags, rules) = extension(id, files);
    rules.unwrap_or_else(|| panic!("the extension compiles: {diags:#?}"))
}

/// The diagnostics and, if it compiles, the full rules with an extension pack named `id`.
#[allow(dead_code)] // (not every test file uses it)
pub fn extension_diagnostics_and_rules(
    id: &str,
    files: &[(&str, &str)],
) -> (Vec<cav_content::Diagnostic>, Option<Rules>) {
    extension(id, files)
}

fn extension(id: &str, files: &[(&str, &str)]) -> (Vec<cav_content::Diagnostic>, Option<Rules>) {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join(id);
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        format!("id: {id}\nname: {id}\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full >= 1.0\"]\n"),
    )
    .unwrap();
    for (path, text) in files {
        let file = pack.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![pack.clone()], library: vec![root.join("content")] });
    let compiled = cav_compile::validate(&mut loaded);
    let ix = loaded.rulesets.iter().position(|r| r.id == "cav-full");
    (loaded.diagnostics, ix.and_then(|ix| compiled.into_iter().nth(ix).flatten()))
}

/// A bundled mod (`mods/<pack>`, a stand-alone game) with one file edited: the errors (pointer,
/// code) `cav validate` gives it.
#[allow(dead_code)] // (not every test file uses it)
pub fn edited_pack_errors(pack: &str, file: &str, edit: impl Fn(String) -> String) -> Vec<(String, String)> {
    edited_pack(pack, file, edit)
        .0
        .iter()
        .filter(|d| d.severity == cav_content::Severity::Error)
        .map(|d| (d.pointer.clone().unwrap_or_default(), d.code.to_string()))
        .collect()
}

/// A bundled mod with one file edited: every diagnostic, and its rules if they compile.
#[allow(dead_code)] // (not every test file uses it)
pub fn edited_pack(
    pack: &str,
    file: &str,
    edit: impl Fn(String) -> String,
) -> (Vec<cav_content::Diagnostic>, Option<Rules>) {
    fn copy(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                copy(&e.path(), &to.join(e.file_name()));
            } else {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    let copied = dir.path().join(pack);
    copy(&root.join("mods").join(pack), &copied);
    let path = copied.join(file);
    std::fs::write(&path, edit(std::fs::read_to_string(&path).unwrap())).unwrap();
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![copied], library: vec![] });
    let compiled = cav_compile::validate(&mut loaded);
    (loaded.diagnostics, compiled.into_iter().flatten().next())
}

/// A bundled mod (`mods/<pack>`, a stand-alone game), compiled.
#[allow(dead_code)] // (not every test file uses it)
pub fn pack_rules(pack: &str) -> Rules {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("mods").join(pack)], library: vec![] });
    let compiled = cav_compile::validate(&mut loaded);
    compiled.into_iter().flatten().next().unwrap_or_else(|| panic!("mods/{pack} compiles"))
}
