//! A pack's manifest (`pack.yaml`): its id, version and kind, its dependencies, script roots and
//! license.

use std::path::{Component, Path};

use cav_format::Manifest;
use semver::{Version, VersionReq};

use super::license::check_license;
use super::read::{FORBIDDEN_ROOTS, outside_pack};
use super::{Cache, Pack, read_in_pack, resolve_inside};
use crate::diag::{Diagnostic, Loc};

/// How a pack names another in `depends`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepKind {
    Required,
    Optional,
    Incompatible,
}

#[derive(Debug, Clone)]
pub struct Dependency {
    pub kind: DepKind,
    pub id: String,
    pub req: Option<VersionReq>,
    /// Where the entry is written in `pack.yaml`.
    pub loc: Option<Loc>,
}

/// Parse one dependency string of the Factorio-like grammar: `[?|!] id [version-req]`.
pub fn parse_dependency(text: &str) -> Result<Dependency, String> {
    let t = text.trim();
    let (kind, rest) = match t.chars().next() {
        Some('?') => (DepKind::Optional, t[1..].trim_start()),
        Some('!') => (DepKind::Incompatible, t[1..].trim_start()),
        _ => (DepKind::Required, t),
    };
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).unwrap_or(rest.len());
    let (id, req) = rest.split_at(end);
    if id.is_empty() {
        return Err(format!("`{text}` names no pack"));
    }
    let req = req.trim();
    let req = if req.is_empty() {
        None
    } else {
        let normalised = req.replace("==", "=");
        Some(VersionReq::parse(&normalised).map_err(|e| format!("bad version requirement `{req}`: {e}"))?)
    };
    Ok(Dependency { kind, id: id.to_owned(), req, loc: None })
}

/// Read a pack directory's manifest; documents are read later, only for packs that are needed.
pub fn read_manifest(dir: &Path, cache: &mut Cache, diags: &mut Vec<Diagnostic>) -> Option<Pack> {
    let dir_name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mpath = dir.join("pack.yaml");
    let real_dir = match dir.canonicalize() {
        Ok(d) if !FORBIDDEN_ROOTS.iter().any(|r| d.starts_with(r)) => d,
        Ok(_) => {
            diags.push(outside_pack(dir, &dir_name));
            return None;
        }
        Err(e) => {
            diags.push(Diagnostic::error("io", format!("cannot read directory: {e}")).path(dir).pack(dir_name));
            return None;
        }
    };
    let file = match read_in_pack(&mpath, &real_dir, &dir_name, cache) {
        Ok(f) => f,
        Err(d) => {
            diags.push(*d);
            return None;
        }
    };
    let docs = match cache.parse(file) {
        Ok(d) => d,
        Err(errs) => {
            diags.extend(errs.into_iter().map(|d| d.pack(dir_name.clone())));
            return None;
        }
    };
    let Some(doc) = docs.into_iter().next() else {
        diags.push(
            Diagnostic::error("empty-file", "pack.yaml is empty")
                .in_file(file)
                .pack(dir_name)
                .expected("a pack manifest"),
        );
        return None;
    };
    let before = diags.len();
    crate::schema::Validators::shared().check_manifest(&doc, &dir_name, diags);
    if diags.len() > before {
        return None;
    }
    let manifest: Manifest = match serde_json::from_value((*doc.value).clone()) {
        Ok(m) => m,
        Err(e) => {
            diags.push(Diagnostic::error("schema", format!("pack.yaml: {e}")).at(Some(doc.root)).pack(dir_name));
            return None;
        }
    };
    let id = manifest.id.0.clone();
    let version = match Version::parse(&manifest.version) {
        Ok(v) => v,
        Err(e) => {
            diags.push(
                Diagnostic::error("schema", format!("version `{}`: {e}", manifest.version))
                    .at(doc.prov.locate("/version"))
                    .pack(&id)
                    .pointer("/version")
                    .expected("a semantic version like `1.0.0`"),
            );
            return None;
        }
    };
    let mut depends = Vec::new();
    for (i, d) in manifest.depends.iter().enumerate() {
        let ptr = format!("/depends/{i}");
        match parse_dependency(d) {
            Ok(mut dep) => {
                dep.loc = doc.prov.locate(&ptr);
                depends.push(dep);
            }
            Err(msg) => diags.push(
                Diagnostic::error("schema", msg)
                    .at(doc.prov.locate(&ptr))
                    .pack(&id)
                    .pointer(ptr)
                    .expected("`id`, `id >= 1.0`, `? id` (optional) or `! id` (incompatible)"),
            ),
        }
    }
    // Script roots: relative paths that resolve (links included) inside the pack directory.
    let mut script_roots = Vec::new();
    for (i, s) in manifest.scripts.iter().enumerate() {
        let ptr = format!("/scripts/{i}");
        let p = dir.join(s);
        let relative = Path::new(s).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        let (code, msg) = if !relative {
            ("outside-pack", format!("script root `{s}` is not a relative path inside the pack"))
        } else if resolve_inside(&real_dir, &p).is_none() && p.exists() {
            ("outside-pack", format!("script root `{s}` leads outside the pack directory"))
        } else if !p.is_dir() {
            ("script-root", format!("script root `{s}` is not a directory"))
        } else {
            script_roots.push(p);
            continue;
        };
        diags.push(
            Diagnostic::error(code, msg)
                .at(doc.prov.locate(&ptr))
                .pack(&id)
                .pointer(ptr)
                .expected("a directory inside the pack, relative to pack.yaml (like `scripts`)"),
        );
    }
    if let Some(license) = &manifest.license
        && let Err((msg, hint)) = check_license(license, &real_dir)
    {
        diags.push(
            Diagnostic::error("license", msg)
                .at(doc.prov.locate("/license"))
                .pack(&id)
                .pointer("/license")
                .expected(
                    "an SPDX license expression such as `CC0-1.0`, `CC-BY-4.0` or `MIT OR Apache-2.0` \
                     (https://spdx.org/licenses/), or `LicenseRef-<name>` with its text in \
                     LICENSES/LicenseRef-<name>.txt",
                )
                .hint(hint),
        );
    }
    let pack = Pack {
        id,
        dir: dir.to_owned(),
        real_dir,
        version,
        kind: manifest.kind,
        depends,
        script_roots,
        manifest: Some(manifest),
        manifest_file: Some(file),
        docs: Vec::new(),
    };
    Some(pack)
}
