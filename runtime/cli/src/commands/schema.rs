//! `cav schema`: the files generated from the code — the JSON Schemas of the document kinds and
//! reports, the editor schemas with the content's ids, the Luau hook definitions and
//! docs/vocabulary.md — written, or checked up to date.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::project::{library, load};
use crate::{EXIT_INVALID, editor, reports};

/// `cav schema`: everything generated from the code, or (`ids`) only the editor schemas with the
/// ids of those packs; with `check`, nothing written and exit 1 when a file is stale.
pub fn run(root: &Path, out: Option<PathBuf>, check: bool, ids: Vec<PathBuf>) -> Result<ExitCode, String> {
    let mut stale = Vec::new();
    let files = if ids.is_empty() {
        generated_files(root, out)
    } else {
        let dir = out.unwrap_or_else(|| root.join("schemas").join(editor::DIR));
        editor::files(&dir, &editor::catalog(&load(ids, root)))
    };
    for (path, text) in files {
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            stale.push(path.display().to_string());
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    if check && !stale.is_empty() {
        println!(
            "stale: {} (run `cav schema`; the editor schemas in schemas/editor/ carry the ids of content/ and \
             mods/, so adding, renaming or removing a document needs it too)",
            stale.join(", ")
        );
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    if check {
        println!("generated files are up to date");
    }
    Ok(ExitCode::SUCCESS)
}

/// Every file generated from the code, with its text: the JSON Schemas and Luau definitions
/// (under `schemas/`, or `out`) and the vocabulary reference `docs/vocabulary.md`.
fn generated_files(root: &Path, out: Option<PathBuf>) -> Vec<(PathBuf, String)> {
    let dir = out.unwrap_or_else(|| root.join("schemas"));
    let mut files: Vec<(PathBuf, String)> = cav_format::all_schemas()
        .into_iter()
        .map(|(name, schema)| (dir.join(name), cav_format::render_schema(&schema)))
        .collect();
    files.extend(editor::files(&dir.join(editor::DIR), &editor::catalog(&load(library(root), root))));
    files.push((dir.join("cav-hooks.d.luau"), cav_script::definitions()));
    for (name, schema) in reports::schemas() {
        files.push((dir.join("reports").join(name), cav_format::render_schema(&schema)));
    }
    files.push((dir.join("reports/junit.xsd"), reports::JUNIT_XSD.to_owned()));
    files.push((root.join("docs/vocabulary.md"), cav_format::vocab::markdown()));
    files
}
