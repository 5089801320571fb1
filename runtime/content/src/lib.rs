//! The content loader: YAML packs on disk → validated, indexed, immutable [`Ruleset`]s, plus every
//! problem found, each located by file:line:col, pack and JSON pointer.
//!
//! Loading never stops at the first problem: it returns whatever could be built together with all
//! diagnostics, so `cav validate` reports everything in one run and watch mode can keep going.

pub mod checks;
pub mod diag;
pub mod module_state;
pub mod pack;
mod reuse;
pub mod ruleset;
pub mod schema;
pub mod vocabulary;
pub mod yaml;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use diag::{Diagnostic, FileId, Loc, Severity, Sources};
pub use ruleset::{Entry, PackInfo, Ruleset};

use pack::Pack;

/// What to load.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Packs, pack directories, content roots or single files to load and report on.
    pub paths: Vec<PathBuf>,
    /// Content roots searched for dependencies of the requested packs (`content/`, `mods/`).
    pub library: Vec<PathBuf>,
}

/// Summary of a requested pack, for listings.
#[derive(Debug, Clone)]
pub struct PackSummary {
    pub id: String,
    pub version: String,
    pub kind: cav_format::PackKind,
    pub dir: PathBuf,
    pub documents: usize,
}

/// The result of a load: rulesets built (possibly partial) and every diagnostic.
#[derive(Debug)]
pub struct Loaded {
    pub sources: Sources,
    pub diagnostics: Vec<Diagnostic>,
    pub rulesets: Vec<Ruleset>,
    pub packs: Vec<PackSummary>,
    /// Number of YAML documents read.
    pub documents: usize,
}

impl Loaded {
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == Severity::Error).count()
    }

    pub fn ruleset(&self, id: &str) -> Option<&Ruleset> {
        self.rulesets.iter().find(|r| r.id == id)
    }
}

/// The pack a file belongs to: the nearest folder above it that holds a `pack.yaml`.
pub fn enclosing_pack(file: &Path) -> Option<PathBuf> {
    file.ancestors().skip(1).find(|d| d.join("pack.yaml").is_file()).map(Path::to_path_buf)
}

/// Load and validate content.
pub fn load(opts: &LoadOptions) -> Loaded {
    load_cached(opts, &mut pack::Cache::default())
}

/// Load and validate content, reusing what `cache` holds from earlier loads: files whose text is
/// unchanged are not parsed again.
pub fn load_cached(opts: &LoadOptions, cache: &mut pack::Cache) -> Loaded {
    let mut diags = Vec::new();
    cache.load_bytes = 0;
    cache.read = 0;

    // 1. Find pack directories: requested ones first, then the library.
    let (requested_dirs, only_files) = find_requested(opts, &mut diags);
    let mut library_dirs = Vec::new();
    for root in &opts.library {
        if root.is_dir() {
            let mut ignored = Vec::new(); // problems in the library are reported only when it is requested
            library_dirs.extend(pack::discover(root, &mut ignored));
        }
    }

    // 2. Manifests.
    let (mut packs, requested) = read_manifests(&requested_dirs, &library_dirs, cache, &mut diags);

    // 3. Plan load sets, then read the documents of every pack that takes part.
    let sets = pack::plan(&packs, &requested, &mut diags);
    let mut needed: BTreeSet<usize> = requested.clone();
    for s in &sets {
        needed.extend(s.order.iter().copied());
    }
    let mut documents = 0;
    for &i in &needed {
        pack::read_documents(&mut packs[i], cache, &mut diags);
        documents += packs[i].docs.len();
    }

    // 4. Build and check each ruleset.
    let rulesets = build_rulesets(&packs, &sets, &requested, cache, &mut diags);
    hint_unloaded_packs(&mut packs, &needed, &rulesets, cache, &mut diags);

    let sources = cache.sources.clone();
    if !only_files.is_empty() {
        diags.retain(|d| {
            let path = d.file.map(|f| sources.get(f).path.canonicalize().unwrap_or_default());
            path.is_none_or(|p| only_files.contains(&p))
        });
    }
    // Warnings about library packs (loaded only because a requested pack builds on them) are not
    // the author's to fix; errors show, since they stop the rulesets the requested packs join.
    let requested_ids: BTreeSet<&str> = requested.iter().map(|&i| packs[i].id.as_str()).collect();
    diags.retain(|d| d.severity == Severity::Error || d.pack.as_deref().is_none_or(|p| requested_ids.contains(p)));
    diag::normalise(&mut diags, &sources);
    let summaries = requested
        .iter()
        .map(|&i| PackSummary {
            id: packs[i].id.clone(),
            version: packs[i].version.to_string(),
            kind: packs[i].kind,
            dir: packs[i].dir.clone(),
            documents: packs[i].docs.len(),
        })
        .collect();
    Loaded { sources, diagnostics: diags, rulesets, packs: summaries, documents }
}

/// The pack directories the load options ask for, and the files asked for alone (the load then
/// reports on those files only).
fn find_requested(opts: &LoadOptions, diags: &mut Vec<Diagnostic>) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut requested_dirs = Vec::new();
    let mut only_files: Vec<PathBuf> = Vec::new();
    for p in &opts.paths {
        if p.is_file() {
            match enclosing_pack(p) {
                Some(dir) => {
                    requested_dirs.push(dir);
                    only_files.push(p.canonicalize().unwrap_or_else(|_| p.clone()));
                }
                None => diags.push(
                    Diagnostic::error(
                        "no-manifest",
                        "file is not inside a pack: no pack.yaml in its directory or any parent",
                    )
                    .path(p)
                    .expected("a file inside a pack directory with a pack.yaml"),
                ),
            }
        } else if p.is_dir() {
            requested_dirs.extend(pack::discover(p, diags));
        } else {
            diags.push(
                Diagnostic::error("io", "no such file or directory")
                    .path(p)
                    .expected("a pack directory, a content root or a YAML file"),
            );
        }
    }
    (requested_dirs, only_files)
}

/// Read the manifest of each pack directory, requested ones first, each pack once: the packs, and
/// which of them were requested. Problems are reported for requested packs only.
fn read_manifests(
    requested_dirs: &[PathBuf],
    library_dirs: &[PathBuf],
    cache: &mut pack::Cache,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Pack>, BTreeSet<usize>) {
    let mut packs: Vec<Pack> = Vec::new();
    let mut seen_dirs: BTreeMap<PathBuf, usize> = BTreeMap::new();
    let mut requested = BTreeSet::new();
    for (dir, is_requested) in requested_dirs.iter().map(|d| (d, true)).chain(library_dirs.iter().map(|d| (d, false))) {
        let canon = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if let Some(&i) = seen_dirs.get(&canon) {
            if is_requested {
                requested.insert(i);
            }
            continue;
        }
        let mut local = Vec::new();
        let Some(p) = pack::read_manifest(dir, cache, &mut local) else {
            if is_requested {
                diags.extend(local);
            }
            continue;
        };
        if let Some(other) = packs.iter().find(|o| o.id == p.id) {
            if is_requested {
                diags.push(
                    Diagnostic::error(
                        "duplicate-pack",
                        format!(
                            "two packs have the id `{}`: {} and {}",
                            p.id,
                            diag::display_path(&other.dir),
                            diag::display_path(&p.dir)
                        ),
                    )
                    .in_file(p.manifest_file.unwrap_or(FileId(0)))
                    .pack(&p.id)
                    .expected("a unique pack id"),
                );
            }
            continue;
        }
        if is_requested {
            diags.extend(local);
            requested.insert(packs.len());
        }
        seen_dirs.insert(canon, packs.len());
        packs.push(p);
    }
    (packs, requested)
}

/// Build and check the ruleset of each load set, and check the documents of the requested packs
/// that join none; the cache keeps what was checked, for the next load.
fn build_rulesets(
    packs: &[Pack],
    sets: &[pack::LoadSet],
    requested: &BTreeSet<usize>,
    cache: &mut pack::Cache,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Ruleset> {
    let validators = schema::Validators::shared();
    // The rulesets only read the packs: built side by side, then taken in order.
    // What the last load checked is reused for the entries that did not change; this load's
    // records replace it, so the memo holds the last load's entries only.
    let memo = std::mem::take(&mut cache.checked);
    // A ruleset whose inputs did not change since the last load is taken as it was (see
    // `reuse`); this load's rulesets replace the last load's.
    let last = std::mem::take(&mut cache.built);
    let read = &cache.sources;
    let disk = checks::ScriptDisk::default();
    let built: Vec<reuse::Built> = {
        use rayon::prelude::*;
        sets.par_iter()
            .map(|set| {
                let key = reuse::Key::of(packs, set, validators.id());
                if let Some(b) = last.iter().find(|b| b.answers(&key, &disk)) {
                    let mut b = b.clone();
                    b.reused = true;
                    return b;
                }
                let (rs, mut d, checked) = ruleset::build(packs, set, validators, &memo, read);
                d.extend(checks::run(&rs, &disk));
                reuse::Built::new(key, rs, d, std::sync::Arc::new(checked), &disk)
            })
            .collect()
    };
    drop(last);
    cache.reused = built.iter().filter(|b| b.reused).count();
    let mut rulesets = Vec::new();
    let mut found = Vec::new();
    let mut parts = Vec::new();
    for b in &built {
        found.extend(b.diags.iter().map(|d| (rulesets.len(), d.clone())));
        rulesets.push(b.ruleset.clone());
        parts.push(b.checked.clone());
    }
    cache.built = built;
    // A reference to a document of a pack the referring pack does not build on: say which pack
    // has it and which dependency would bring it in (it may be loaded in this ruleset, out of
    // reach, or only in another ruleset of the run).
    for (own, mut d) in found {
        if let Some((kind, id)) = &d.missing {
            let mut order = std::iter::once(own).chain((0..rulesets.len()).filter(|&i| i != own));
            let user = d.pack.clone().unwrap_or_default();
            // A pack is never told to depend on itself.
            let hit = order.find_map(|i| rulesets[i].get(*kind, id).map(|e| (i, e)));
            if let Some((i, e)) = hit.filter(|(_, e)| e.pack != user) {
                let r#where =
                    if i == own { String::new() } else { format!(" (loaded in ruleset `{}`)", rulesets[i].id) };
                d.hint = Some(format!("pack `{}` defines it{}: make `{user}` depend on `{}`", e.pack, r#where, e.pack));
            }
        }
        diags.push(d);
    }
    // Requested packs that belong to no ruleset still get their documents checked.
    let in_sets: BTreeSet<usize> = sets.iter().flat_map(|s| s.order.iter().copied()).collect();
    for &i in requested.difference(&in_sets) {
        let set = pack::LoadSet { root: i, order: vec![i] };
        let (_, d, checked) = ruleset::build(packs, &set, validators, &memo, read);
        diags.extend(d);
        parts.push(std::sync::Arc::new(checked));
    }
    // The last load's records of the rulesets built again are freed on a core of the pool (a
    // millisecond of a save's reload on the bundled content): nothing waits on it.
    rayon::spawn(move || drop(memo));
    cache.checked = parts;
    rulesets
}

/// A reference no ruleset of the run resolves may name a document of a library pack the run did
/// not load: an extension nothing asked for (`content/cav-invented`, a mod of `mods/`), which
/// joins no load set unless it is requested or depended on. Those packs' documents are read only
/// now, when such a reference is left, so the reference's hint names the pack and the dependency
/// to add, as it does for a pack the run loaded.
fn hint_unloaded_packs(
    packs: &mut [Pack],
    needed: &BTreeSet<usize>,
    rulesets: &[Ruleset],
    cache: &mut pack::Cache,
    diags: &mut [Diagnostic],
) {
    let unresolved = |d: &Diagnostic| {
        d.missing.as_ref().is_some_and(|(kind, id)| rulesets.iter().all(|r| r.get(*kind, id).is_none()))
    };
    if !diags.iter().any(unresolved) {
        return;
    }
    let unloaded: Vec<usize> = (0..packs.len()).filter(|i| !needed.contains(i)).collect();
    for &i in &unloaded {
        // Problems in a pack nobody asked about are not reported.
        pack::read_documents(&mut packs[i], cache, &mut Vec::new());
    }
    for d in diags.iter_mut().filter(|d| unresolved(d)) {
        let Some((kind, id)) = &d.missing else { continue };
        let defines = |p: &&Pack| {
            p.docs.iter().any(|raw| {
                let v = &raw.doc.value;
                v.get("kind").and_then(serde_json::Value::as_str) == Some(kind.tag())
                    && v.get("id").and_then(serde_json::Value::as_str) == Some(id.as_str())
            })
        };
        if let Some(p) = unloaded.iter().map(|&i| &packs[i]).find(defines) {
            let user = d.pack.clone().unwrap_or_default();
            d.hint = Some(format!(
                "pack `{}` defines it ({}, not loaded in this run): make `{user}` depend on `{}`",
                p.id,
                diag::display_path(&p.dir),
                p.id
            ));
        }
    }
}

/// A document read from a file outside the loaded packs (a roster given on the command line).
#[derive(Debug, Clone)]
pub struct LooseDoc {
    pub doc: cav_format::Document,
    pub prov: std::sync::Arc<yaml::Provenance>,
}

/// Read the `kind` documents of one file that need not be inside a pack (a force roster): the
/// same safe reading, YAML limits and schema as pack files, located in `loaded.sources` so its
/// diagnostics render like the others. Documents of another kind are an error.
pub fn read_loose(loaded: &mut Loaded, path: &Path, kind: cav_format::DocKind) -> (Vec<LooseDoc>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut cache = pack::Cache::default();
    cache.sources = std::mem::take(&mut loaded.sources);
    let read = pack::read_text(path, &mut cache, None);
    loaded.sources = std::mem::take(&mut cache.sources);
    let file = match read {
        Ok(f) => f,
        Err(d) => return (Vec::new(), vec![*d]),
    };
    let text = loaded.sources.get(file).text.clone();
    let docs = match yaml::parse(&text, file) {
        Ok(d) => d,
        Err(d) => return (Vec::new(), d),
    };
    let validators = schema::Validators::shared();
    let mut out = Vec::new();
    for d in docs {
        let tag = d.value.get("kind").and_then(serde_json::Value::as_str);
        if tag != Some(kind.tag()) {
            diags.push(
                Diagnostic::error("wrong-kind", format!("expected a `kind: {}` document", kind.tag()))
                    .at(Some(d.prov.locate("/kind").unwrap_or(d.root)))
                    .pointer("/kind")
                    .expected(format!("kind: {}", kind.tag())),
            );
            continue;
        }
        if !validators.check(kind, &d.value, &d.prov, "", &mut diags) {
            continue;
        }
        match cav_format::Document::decode(kind, ruleset::strip_meta((*d.value).clone())) {
            Ok(doc) => out.push(LooseDoc { doc, prov: d.prov.clone() }),
            Err(e) => diags.push(Diagnostic::error("decode", e.to_string()).at(Some(d.root))),
        }
    }
    for d in &mut diags {
        if d.pack.as_deref() == Some("") {
            d.pack = None;
        }
    }
    (out, diags)
}
