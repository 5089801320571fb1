//! Finding pack directories under a content root, and the YAML files that belong to none.

use std::path::{Path, PathBuf};

use crate::diag::Diagnostic;

pub(super) fn is_yaml(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"))
}

/// Find pack directories under `root`: `root` itself if it holds `pack.yaml`, else each
/// sub-directory. Directories with YAML but no manifest are reported.
pub fn discover(root: &Path, diags: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    if root.join("pack.yaml").is_file() {
        return vec![root.to_owned()];
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        diags.push(
            Diagnostic::error("io", "cannot read directory").path(root).expected("a pack directory or a content root"),
        );
        return vec![];
    };
    let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut packs = Vec::new();
    for d in dirs {
        if d.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
            continue;
        }
        if d.join("pack.yaml").is_file() {
            packs.push(d);
        } else if d.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) {
            // A linked directory without a manifest is not a pack: never walk a link's target.
            continue;
        } else if walkdir::WalkDir::new(&d).max_depth(3).into_iter().filter_map(|e| e.ok()).any(|e| is_yaml(e.path())) {
            diags.push(
                Diagnostic::error("no-manifest", "directory holds YAML documents but no pack.yaml")
                    .path(&d)
                    .expected("a `pack.yaml` manifest with id, version and kind")
                    .hint(Some(
                        "create pack.yaml (see content/cav-quickstart/pack.yaml) or move the files into a pack".into(),
                    )),
            );
        }
    }
    packs
}
