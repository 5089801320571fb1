//! Pack discovery, reading files safely, manifests and dependency resolution.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use cav_format::{Manifest, PackKind};
use semver::{Version, VersionReq};

use crate::diag::{Diagnostic, FileId, Loc, Sources};
use crate::yaml::{self, YamlDoc};

/// Largest content file the loader reads. A rules document is a few kB; anything near this is a mistake.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
pub use cav_format::limits::MAX_LOAD_BYTES;

/// Kernel pseudo-filesystems: nothing a pack reads may resolve into them, whatever its directory.
const FORBIDDEN_ROOTS: [&str; 3] = ["/proc", "/dev", "/sys"];

/// `path` with every link resolved, when that stays inside `base` (itself canonical) and out of
/// `/proc`, `/dev` and `/sys`; `None` when it leaves (or cannot be resolved).
pub fn resolve_inside(base: &Path, path: &Path) -> Option<PathBuf> {
    let real = path.canonicalize().ok()?;
    let forbidden = FORBIDDEN_ROOTS.iter().any(|r| real.starts_with(r));
    (real.starts_with(base) && !forbidden).then_some(real)
}

/// The diagnostic for a link (or path) that resolves outside its pack. It names the link, never
/// the target or its content.
fn outside_pack(path: &Path, pack: &str) -> Diagnostic {
    Diagnostic::error("outside-pack", "symbolic link leads outside the pack directory; it is not read")
        .path(path)
        .pack(pack)
        .expected("files and directories inside the pack (links may point only within the pack)")
        .hint(Some("copy the file into the pack instead of linking to it".into()))
}

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

/// One YAML document read from a pack file.
#[derive(Debug, Clone)]
pub struct RawDoc {
    pub file: FileId,
    pub doc: YamlDoc,
}

/// A pack found on disk, with every document it holds.
#[derive(Debug)]
pub struct Pack {
    pub id: String,
    pub dir: PathBuf,
    /// `dir` with links resolved: every file the pack reads must resolve inside it.
    pub real_dir: PathBuf,
    pub manifest: Option<Manifest>,
    pub version: Version,
    pub kind: PackKind,
    pub depends: Vec<Dependency>,
    pub script_roots: Vec<PathBuf>,
    pub manifest_file: Option<FileId>,
    pub docs: Vec<RawDoc>,
}

/// Files read and parsed by earlier loads, so a reload reads every file but parses only those
/// whose text changed (watch mode).
#[derive(Default)]
pub struct Cache {
    pub sources: Sources,
    by_path: std::collections::HashMap<PathBuf, FileId>,
    parsed: std::collections::HashMap<FileId, Result<Vec<YamlDoc>, Vec<Diagnostic>>>,
    /// The schema checks and decoding of the last load's entries (see [`crate::ruleset::Checked`]).
    pub(crate) checked: crate::ruleset::Checked,
    /// Files read since the last [`Cache::sweep`]; the others are old versions or gone.
    used: std::collections::HashSet<FileId>,
    /// Slots of `sources` emptied by a sweep (kept so the other file ids stay valid).
    emptied: usize,
    /// Files read so far, for a progress display on another thread.
    pub files_read: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Bytes of text this load has read (`MAX_LOAD_BYTES`); set to 0 as a load starts.
    pub(crate) load_bytes: u64,
}

impl Cache {
    /// The file id of this text: the earlier one when the file has not changed.
    fn add(&mut self, path: &Path, text: String) -> FileId {
        if let Some(&f) = self.by_path.get(path)
            && *self.sources.get(f).text == *text
        {
            self.used.insert(f);
            return f;
        }
        let f = self.sources.add(path, Arc::from(text));
        self.by_path.insert(path.to_owned(), f);
        self.used.insert(f);
        f
    }

    /// Forget every file the loads since the last sweep did not read: earlier versions of saved
    /// files, deleted files, files of packs no longer loaded. Their text, line index and parse go;
    /// the files read keep their ids and parses. Without this, a long watch session keeps every
    /// saved version of every file. A load's [`crate::Loaded`] holds its own copy of the sources,
    /// so its diagnostics stay readable.
    pub fn sweep(&mut self) {
        let used = std::mem::take(&mut self.used);
        let dead = self.sources.len() - self.emptied - used.len();
        if dead == 0 {
            return;
        }
        self.by_path.retain(|_, f| used.contains(f));
        self.parsed.retain(|f, _| used.contains(f));
        let mut sources = Sources::default();
        let mut emptied = 0;
        if self.emptied + dead > used.len().max(cav_format::limits::WATCH_CACHE_EMPTY_SLOTS) {
            // Too many empty slots: number the files afresh (their parses, which carry the file
            // id, are redone on the next load).
            self.parsed.clear();
            let mut ids: Vec<FileId> = used.into_iter().collect();
            ids.sort();
            let renumbered: std::collections::HashMap<FileId, FileId> = ids
                .into_iter()
                .map(|old| {
                    let file = self.sources.get(old);
                    (old, sources.add(&file.path, file.text.clone()))
                })
                .collect();
            for f in self.by_path.values_mut() {
                *f = renumbered[f];
            }
        } else {
            // Keep the ids: an emptied slot costs a few dozen bytes instead of the file.
            let empty: Arc<str> = Arc::from("");
            for i in 0..self.sources.len() as u32 {
                let file = self.sources.get(FileId(i));
                if used.contains(&FileId(i)) {
                    sources.add(&file.path, file.text.clone());
                } else {
                    sources.add(Path::new(""), empty.clone());
                    emptied += 1;
                }
            }
        }
        self.sources = sources;
        self.emptied = emptied;
    }

    /// Bytes of file text the cache holds (for tests and diagnostics of watch mode).
    pub fn text_bytes(&self) -> usize {
        (0..self.sources.len() as u32).map(|i| self.sources.get(FileId(i)).text.len()).sum()
    }

    /// Parse these files (on every core) and keep the results for [`Cache::parse`].
    fn parse_all(&mut self, files: &[FileId]) {
        use rayon::prelude::*;
        let sources = &self.sources;
        let parsed: Vec<_> = files
            .par_iter()
            .map(|&f| {
                let text = sources.get(f).text.clone();
                (f, yaml::parse(&text, f))
            })
            .collect();
        self.parsed.extend(parsed);
    }

    /// Parse a file once; later loads of the unchanged file reuse the result.
    fn parse(&mut self, file: FileId) -> Result<Vec<YamlDoc>, Vec<Diagnostic>> {
        if let Some(r) = self.parsed.get(&file) {
            return r.clone();
        }
        let text = self.sources.get(file).text.clone();
        let r = yaml::parse(&text, file);
        self.parsed.insert(file, r.clone());
        r
    }
}

/// Read a file as UTF-8 text within the size limit; problems become diagnostics.
pub fn read_text(path: &Path, cache: &mut Cache, pack: Option<&str>) -> Result<FileId, Box<Diagnostic>> {
    read_resolved(path, path, cache, pack)
}

/// Read a file of a pack: `path` must resolve inside the pack's real directory (see
/// [`resolve_inside`]); the text is read from the resolved path and shown under `path`.
pub fn read_in_pack(path: &Path, real_dir: &Path, pack: &str, cache: &mut Cache) -> Result<FileId, Box<Diagnostic>> {
    let raw = read_raw_in_pack(path, real_dir, pack)?;
    record(path, raw, cache, Some(pack))
}

/// [`read_in_pack`] up to the text, without the cache (so files can be read side by side).
fn read_raw_in_pack(path: &Path, real_dir: &Path, pack: &str) -> Result<RawText, Box<Diagnostic>> {
    match resolve_inside(real_dir, path) {
        Some(real) => read_raw(path, &real, Some(pack)),
        None if path.canonicalize().is_ok() => Err(Box::new(outside_pack(path, pack))),
        None => Err(Box::new(Diagnostic::error("io", "cannot read file: not found").path(path).pack(pack))),
    }
}

/// A file's bytes, as UTF-8 text if they are.
type RawText = Result<String, std::string::FromUtf8Error>;

/// Open a file whose path was resolved inside its pack: a link swapped in at the last step since
/// is refused (`O_NOFOLLOW`), and a FIFO swapped in does not block the open (`O_NONBLOCK`; the
/// caller then refuses anything that is not a regular file).
fn open_no_follow(real: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(real)
}

/// Read `real` (already checked), recorded under the name `path`.
fn read_resolved(path: &Path, real: &Path, cache: &mut Cache, pack: Option<&str>) -> Result<FileId, Box<Diagnostic>> {
    let raw = read_raw(path, real, pack)?;
    record(path, raw, cache, pack)
}

fn in_pack(d: Diagnostic, pack: Option<&str>) -> Box<Diagnostic> {
    Box::new(match pack {
        Some(p) => d.pack(p),
        None => d,
    })
}

/// Read `real` (already checked) within the size limit; `path` names it in diagnostics.
fn read_raw(path: &Path, real: &Path, pack: Option<&str>) -> Result<RawText, Box<Diagnostic>> {
    let with_pack = |d: Diagnostic| in_pack(d, pack);
    // Open first, then look at what was opened: the checks below apply to the very file read,
    // even if the path changes in between (no link at the last step, no blocking on a FIFO).
    let file = open_no_follow(real)
        .map_err(|e| with_pack(Diagnostic::error("io", format!("cannot read file: {e}")).path(path)))?;
    let meta =
        file.metadata().map_err(|e| with_pack(Diagnostic::error("io", format!("cannot read file: {e}")).path(path)))?;
    if !meta.is_file() {
        return Err(with_pack(Diagnostic::error("io", "not a regular file").path(path).expected("a YAML file")));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(with_pack(
            Diagnostic::error(
                "too-large",
                format!("file is {} bytes, over the {} byte limit", meta.len(), MAX_FILE_BYTES),
            )
            .path(path)
            .expected(format!("a content file of at most {} MiB", MAX_FILE_BYTES / 1024 / 1024))
            .hint(Some("split the file into several documents".into())),
        ));
    }
    // At most one byte over the limit, even if the file grew since `metadata`.
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut std::io::Read::take(file, MAX_FILE_BYTES + 1), &mut bytes)
        .map_err(|e| with_pack(Diagnostic::error("io", format!("cannot read file: {e}")).path(path)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(with_pack(Diagnostic::error("too-large", "file grew over the size limit while read").path(path)));
    }
    Ok(String::from_utf8(bytes))
}

/// Files a pack's reader reads at once (see where it is used).
const READ_BATCH: usize = 16;

/// `path` is not loaded: the files of this load before it already fill `MAX_LOAD_BYTES`.
fn over_load_budget(path: &Path, pack: Option<&str>) -> Box<Diagnostic> {
    in_pack(
        Diagnostic::error(
            "too-large",
            format!("the files of this load come to more than {MAX_LOAD_BYTES} bytes by here; this file is not loaded"),
        )
        .path(path)
        .expected(format!("content of at most {} MiB in all the packs loaded together", MAX_LOAD_BYTES / 1024 / 1024))
        .hint(Some("load fewer packs at once, or make the large files smaller".into())),
        pack,
    )
}

/// Record text read from `path` in the cache; text that is not UTF-8 becomes a diagnostic.
fn record(path: &Path, raw: RawText, cache: &mut Cache, pack: Option<&str>) -> Result<FileId, Box<Diagnostic>> {
    let with_pack = |d: Diagnostic| in_pack(d, pack);
    let size = match &raw {
        Ok(text) => text.len(),
        Err(e) => e.as_bytes().len(),
    };
    cache.load_bytes = cache.load_bytes.saturating_add(size as u64);
    if cache.load_bytes > MAX_LOAD_BYTES {
        return Err(over_load_budget(path, pack));
    }
    match raw {
        Ok(text) => Ok(cache.add(path, text)),
        Err(e) => {
            let good = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let prefix = String::from_utf8_lossy(&bytes[..good]);
            let line = prefix.matches('\n').count() as u32 + 1;
            let col = prefix.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
            // Keep the readable part so the caret can point at the bad byte.
            let file = cache.sources.add(path, Arc::from(String::from_utf8_lossy(&bytes).into_owned()));
            let pos = crate::diag::Pos { line, col };
            Err(with_pack(
                Diagnostic::error("encoding", format!("invalid UTF-8 at byte {good}"))
                    .at(Some(Loc { file, start: pos, end: pos }))
                    .expected("UTF-8 text"),
            ))
        }
    }
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

fn is_yaml(p: &Path) -> bool {
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

/// Check a pack's `license:` (an SPDX license expression, strict: ids as the SPDX list spells
/// them, no deprecated ids) against the pack in `real_dir`: a `LicenseRef-<name>` needs its
/// text at `LICENSES/LicenseRef-<name>.txt` (the REUSE convention) inside the pack. On error, the
/// message and a hint.
fn check_license(text: &str, real_dir: &Path) -> Result<(), (String, Option<String>)> {
    // The text is the pack author's: shown escaped (no control characters reach a terminal) and
    // cut short.
    let show = |t: &str| t.chars().take(80).flat_map(char::escape_debug).collect::<String>();
    let shown = show(text);
    let expr = spdx::Expression::parse(text).map_err(|e| {
        let at = text.get(e.span.clone()).filter(|t| !t.is_empty()).unwrap_or(text);
        // A near miss of an SPDX id ("Apache 2.0", "cc0") gets its id as the hint.
        let unknown = matches!(e.reason, spdx::error::Reason::UnknownTerm | spdx::error::Reason::UnknownLicense);
        let hint = unknown
            .then(|| spdx::imprecise_license_id(at).or_else(|| spdx::imprecise_license_id(text)))
            .flatten()
            .map(|(id, _)| format!("did you mean `{}`?", id.name));
        (format!("license `{shown}` is not an SPDX license expression: {} (at `{}`)", e.reason, show(at)), hint)
    })?;
    for req in expr.requirements() {
        let spdx::LicenseItem::Other(r) = &req.req.license else { continue };
        if let Some(doc) = &r.doc_ref {
            return Err((
                format!("license `{shown}` refers to another SPDX document (`DocumentRef-{}`)", show(doc)),
                Some(format!("name the license `LicenseRef-{}` and put its text in the pack", show(&r.lic_ref))),
            ));
        }
        // SPDX refs are letters, digits, `.` and `-` only: the name is a file name, never a path.
        let file = format!("LICENSES/LicenseRef-{}.txt", r.lic_ref);
        let found = resolve_inside(real_dir, &real_dir.join(&file)).is_some_and(|p| p.is_file());
        if !found {
            return Err((
                format!("license `LicenseRef-{}` has no text in the pack: {file} is missing", r.lic_ref),
                Some(format!("add {file} with the license's text, or use an SPDX id")),
            ));
        }
    }
    Ok(())
}

/// Read every YAML document below the pack directory (except `pack.yaml`).
pub fn read_documents(pack: &mut Pack, cache: &mut Cache, diags: &mut Vec<Diagnostic>) {
    let mut files = Vec::new();
    // Links are followed only while they stay inside the pack: a link that leaves it is reported
    // and neither read nor walked (`filter_entry` prunes it before walkdir descends).
    let mut outside = Vec::new();
    let walk = walkdir::WalkDir::new(&pack.dir).follow_links(true).sort_by_file_name().into_iter().filter_entry(|e| {
        if e.depth() == 0 || !e.path_is_symlink() {
            return true;
        }
        if e.path().canonicalize().is_err() {
            return true; // a dangling link: walkdir reports it
        }
        let inside = resolve_inside(&pack.real_dir, e.path()).is_some();
        if !inside {
            outside.push(e.path().to_owned());
        }
        inside
    });
    for entry in walk {
        match entry {
            Ok(e) => {
                let p = e.path();
                // A `.yaml` that is not a regular file (a FIFO, a device) goes to the reader too,
                // which refuses it with a diagnostic instead of skipping it without a word.
                if !e.file_type().is_dir() && is_yaml(p) && p != pack.dir.join("pack.yaml") {
                    files.push(p.to_owned());
                }
            }
            Err(e) => {
                let path = e.path().map(Path::to_path_buf).unwrap_or_else(|| pack.dir.clone());
                let (code, msg) = match e.loop_ancestor() {
                    Some(anc) => {
                        ("symlink-loop", format!("symbolic link loops back to {}", crate::diag::display_path(anc)))
                    }
                    None => ("io", format!("cannot read: {e}")),
                };
                diags.push(
                    Diagnostic::error(code, msg)
                        .path(&path)
                        .pack(&pack.id)
                        .expected("a directory tree without link cycles"),
                );
            }
        }
    }
    diags.extend(outside.iter().map(|p| outside_pack(p, &pack.id)));
    // Files are read side by side (the calls wait on the disk), a batch of a fixed size at a
    // time, then recorded in order; once the load's budget is passed the rest are not read at all
    // (the batch size is fixed, so which files are read never depends on the machine).
    let mut read = Vec::with_capacity(files.len());
    for batch in files.chunks(READ_BATCH) {
        if cache.load_bytes > MAX_LOAD_BYTES {
            read.extend(batch.iter().map(|path| Err(over_load_budget(path, Some(&pack.id)))));
            continue;
        }
        let raw: Vec<_> = {
            use rayon::prelude::*;
            let files_read = &cache.files_read;
            batch
                .par_iter()
                .map(|path| {
                    files_read.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    // Checked again as it is read: every file must resolve inside the pack.
                    read_raw_in_pack(path, &pack.real_dir, &pack.id)
                })
                .collect()
        };
        read.extend(batch.iter().zip(raw).map(|(path, r)| r.and_then(|raw| record(path, raw, cache, Some(&pack.id)))));
    }
    // The files are independent: parse the new ones on every core, then take them in order.
    let fresh: Vec<FileId> =
        read.iter().filter_map(|r| r.as_ref().ok().copied()).filter(|f| !cache.parsed.contains_key(f)).collect();
    cache.parse_all(&fresh);
    for r in read {
        let file = match r {
            Ok(f) => f,
            Err(d) => {
                diags.push(*d);
                continue;
            }
        };
        match cache.parse(file) {
            Ok(docs) if docs.is_empty() || docs.iter().all(|d| d.value.is_null()) => diags.push(
                Diagnostic::error("empty-file", "file holds no document")
                    .in_file(file)
                    .pack(&pack.id)
                    .expected("at least one document with a `kind:` key")
                    .hint(Some("delete the file, or add a document".into())),
            ),
            Ok(docs) => {
                pack.docs.extend(docs.into_iter().filter(|d| !d.value.is_null()).map(|doc| RawDoc { file, doc }))
            }
            Err(errs) => diags.extend(errs.into_iter().map(|d| d.pack(&pack.id))),
        }
    }
}

/// The packs one ruleset is built from, in load order (dependencies first).
#[derive(Debug, Clone)]
pub struct LoadSet {
    /// The ruleset pack this set is built around.
    pub root: usize,
    pub order: Vec<usize>,
}

/// Check dependencies of all packs and compute one load set per ruleset pack that was asked for
/// (or that an asked-for extension builds on).
pub fn plan(packs: &[Pack], requested: &BTreeSet<usize>, diags: &mut Vec<Diagnostic>) -> Vec<LoadSet> {
    let by_id: BTreeMap<&str, usize> = packs.iter().enumerate().map(|(i, p)| (p.id.as_str(), i)).collect();
    let dep_diag = |p: &Pack, d: &Dependency, code: &'static str, msg: String, expected: String| {
        let mut diag = Diagnostic::error(code, msg).pack(&p.id).expected(expected).at(d.loc);
        if d.loc.is_none()
            && let Some(f) = p.manifest_file
        {
            diag = diag.in_file(f);
        }
        diag
    };
    // An extension joins every ruleset whose packs satisfy its dependencies: asked for alone
    // (`cav test mods/x`), it brings those rulesets, so it is checked and tested under each (one
    // that builds on no ruleset brings them all).
    let mut requested = requested.clone();
    let reach = |start: usize| {
        let mut seen = BTreeSet::from([start]);
        let mut st = vec![start];
        while let Some(i) = st.pop() {
            st.extend(edges(packs, &by_id, i).filter(|&j| seen.insert(j)));
        }
        seen
    };
    let installed: Vec<(usize, BTreeSet<usize>)> =
        (0..packs.len()).filter(|&i| packs[i].kind == PackKind::Ruleset).map(|r| (r, reach(r))).collect();
    let extensions: Vec<usize> = requested.iter().copied().filter(|&e| packs[e].kind == PackKind::Extension).collect();
    for e in extensions {
        let needs: Vec<usize> = reach(e).into_iter().filter(|&j| packs[j].kind == PackKind::Ruleset).collect();
        for (r, closure) in &installed {
            if needs.iter().all(|n| closure.contains(n)) {
                requested.insert(*r);
            }
        }
    }
    let requested = &requested;
    // Validate each requested pack's dependency edges once.
    let mut relevant: BTreeSet<usize> = requested.clone();
    let mut stack: Vec<usize> = requested.iter().copied().collect();
    while let Some(i) = stack.pop() {
        for d in &packs[i].depends {
            if d.kind == DepKind::Incompatible {
                continue;
            }
            match by_id.get(d.id.as_str()) {
                Some(&j) => {
                    if let Some(req) = &d.req
                        && !req.matches(&packs[j].version)
                    {
                        diags.push(dep_diag(
                            &packs[i],
                            d,
                            "version-mismatch",
                            format!(
                                "pack `{}` needs `{}` {req}, but version {} is installed",
                                packs[i].id, d.id, packs[j].version
                            ),
                            format!("`{}` {req}", d.id),
                        ));
                    }
                    if relevant.insert(j) {
                        stack.push(j);
                    }
                }
                None if d.kind == DepKind::Required => {
                    let hint = crate::diag::did_you_mean(&d.id, by_id.keys().copied());
                    diags.push(
                        dep_diag(
                            &packs[i],
                            d,
                            "missing-dependency",
                            format!("pack `{}` depends on `{}`, which was not found", packs[i].id, d.id),
                            "an installed pack with that id (searched content/, mods/ and the given paths)".into(),
                        )
                        .hint(hint),
                    );
                }
                None => {}
            }
        }
    }
    // Cycles: one depth-first walk over the relevant packs (iterative, so a long chain cannot
    // overflow the stack), each cycle reported once, at the edge that closes it.
    let mut cyclic = BTreeSet::new();
    for cycle in find_cycles(packs, &by_id, &relevant) {
        let names: Vec<&str> = cycle.iter().map(|&c| packs[c].id.as_str()).collect();
        let p = &packs[cycle[0]];
        let d = p.depends.iter().find(|d| d.id == packs[cycle[1 % cycle.len()]].id);
        let mut diag =
            Diagnostic::error("dependency-cycle", format!("dependency cycle: {} → {}", names.join(" → "), names[0]))
                .pack(&p.id)
                .expected("dependencies that form no loop");
        match d.and_then(|d| d.loc) {
            Some(l) => diag = diag.at(Some(l)),
            None => diag = diag.in_file(p.manifest_file.unwrap_or(FileId(0))),
        }
        diags.push(diag);
        cyclic.extend(cycle);
    }
    // Load sets: one per ruleset reachable from the request. What each pack reaches is worked
    // out once for all (whether it reaches a cycle, which rulesets), so planning stays linear in
    // packs and dependencies whatever the number of extensions.
    let closure = |starts: &[usize]| -> BTreeSet<usize> {
        let mut seen: BTreeSet<usize> = starts.iter().copied().collect();
        let mut st: Vec<usize> = starts.to_vec();
        while let Some(i) = st.pop() {
            for j in edges(packs, &by_id, i) {
                if seen.insert(j) {
                    st.push(j);
                }
            }
        }
        seen
    };
    let n = packs.len();
    // Packs from which a cycle can be reached: backwards from the cycles.
    let mut needed_by: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &i in &relevant {
        for j in edges(packs, &by_id, i) {
            needed_by[j].push(i);
        }
    }
    let mut reaches_cycle = vec![false; n];
    let mut queue: Vec<usize> = cyclic.iter().copied().collect();
    for &c in &queue {
        reaches_cycle[c] = true;
    }
    while let Some(x) = queue.pop() {
        for &y in &needed_by[x] {
            if !std::mem::replace(&mut reaches_cycle[y], true) {
                queue.push(y);
            }
        }
    }
    // The rulesets each cycle-free pack builds on (memoised, post-order, no recursion).
    let mut rulesets_of: Vec<Option<BTreeSet<usize>>> = vec![None; n];
    for &start in &relevant {
        if reaches_cycle[start] || rulesets_of[start].is_some() {
            continue;
        }
        let mut stack = vec![(start, false)];
        while let Some((i, children_done)) = stack.pop() {
            if rulesets_of[i].is_some() {
                continue;
            }
            if children_done {
                let mut set: BTreeSet<usize> = BTreeSet::new();
                if packs[i].kind == PackKind::Ruleset {
                    set.insert(i);
                }
                for j in edges(packs, &by_id, i) {
                    set.extend(rulesets_of[j].iter().flatten());
                }
                rulesets_of[i] = Some(set);
            } else {
                stack.push((i, true));
                stack.extend(edges(packs, &by_id, i).filter(|&j| rulesets_of[j].is_none()).map(|j| (j, false)));
            }
        }
    }
    let rulesets: BTreeSet<usize> = relevant.iter().copied().filter(|&i| packs[i].kind == PackKind::Ruleset).collect();
    let mut sets = Vec::new();
    for &r in &rulesets {
        if reaches_cycle[r] {
            continue; // the ruleset itself cannot be ordered; the cycle is reported
        }
        // An extension joins each ruleset it builds on (every ruleset, if it builds on none) unless
        // it declares a pack of that ruleset incompatible (`! cav-quickstart`: a mod for the full
        // rules only). One caught in a cycle joins no ruleset (its cycle is reported); the rest
        // still load.
        let base = closure(&[r]);
        let refuses = |e: usize| {
            packs[e]
                .depends
                .iter()
                .any(|d| d.kind == DepKind::Incompatible && by_id.get(d.id.as_str()).is_some_and(|j| base.contains(j)))
        };
        let mut starts = vec![r];
        starts.extend(requested.iter().copied().filter(|&e| {
            packs[e].kind == PackKind::Extension
                && !reaches_cycle[e]
                && !refuses(e)
                && rulesets_of[e].as_ref().is_some_and(|rs| rs.iter().all(|x| base.contains(x)))
        }));
        let members = closure(&starts);
        // Incompatibilities inside the set.
        for &m in &members {
            for d in packs[m].depends.iter().filter(|d| d.kind == DepKind::Incompatible) {
                if let Some(&j) = by_id.get(d.id.as_str())
                    && members.contains(&j)
                {
                    diags.push(dep_diag(
                        &packs[m],
                        d,
                        "incompatible-packs",
                        format!(
                            "pack `{}` cannot be loaded together with `{}`, but both are in ruleset `{}`",
                            packs[m].id, d.id, packs[r].id
                        ),
                        format!("`{}` not loaded alongside `{}`", d.id, packs[m].id),
                    ));
                }
            }
        }
        sets.push(LoadSet { root: r, order: topo_order(packs, &by_id, &members) });
    }
    sets
}

/// The dependency edges of pack `i` to installed packs (incompatibilities are not edges).
fn edges<'a>(packs: &'a [Pack], by_id: &'a BTreeMap<&str, usize>, i: usize) -> impl Iterator<Item = usize> + 'a {
    packs[i]
        .depends
        .iter()
        .filter(|d| d.kind != DepKind::Incompatible)
        .filter_map(|d| by_id.get(d.id.as_str()).copied())
}

/// Every cycle among `from` and what they depend on, each once (the packs of the cycle in
/// dependency order, starting at the pack whose edge closes it). Linear in packs + edges.
fn find_cycles(packs: &[Pack], by_id: &BTreeMap<&str, usize>, from: &BTreeSet<usize>) -> Vec<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath(usize),
        Done,
    }
    let mut mark = vec![Mark::New; packs.len()];
    let mut cycles = Vec::new();
    for &start in from {
        if mark[start] != Mark::New {
            continue;
        }
        // The path being walked, each pack with the edges it has left to follow.
        let mut path: Vec<(usize, Vec<usize>)> = Vec::new();
        mark[start] = Mark::OnPath(0);
        path.push((start, edges(packs, by_id, start).collect::<Vec<_>>().into_iter().rev().collect()));
        while let Some((_, todo)) = path.last_mut() {
            match todo.pop() {
                Some(j) => match mark[j] {
                    Mark::New => {
                        mark[j] = Mark::OnPath(path.len());
                        path.push((j, edges(packs, by_id, j).collect::<Vec<_>>().into_iter().rev().collect()));
                    }
                    Mark::OnPath(at) => cycles.push(path[at..].iter().map(|(p, _)| *p).collect()),
                    Mark::Done => {}
                },
                None => {
                    let (done, _) = path.pop().expect("the loop holds a last entry");
                    mark[done] = Mark::Done;
                }
            }
        }
    }
    cycles
}

/// Dependencies first; among packs free to go, alphabetical by id, so the order never depends on
/// the disk. Kahn's algorithm with a heap: O((packs + edges) log packs).
fn topo_order(packs: &[Pack], by_id: &BTreeMap<&str, usize>, members: &BTreeSet<usize>) -> Vec<usize> {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let mut waiting: HashMap<usize, usize> = HashMap::new();
    let mut needed_by: HashMap<usize, Vec<usize>> = HashMap::new();
    for &m in members {
        let deps: BTreeSet<usize> = edges(packs, by_id, m).filter(|j| members.contains(j) && *j != m).collect();
        waiting.insert(m, deps.len());
        for j in deps {
            needed_by.entry(j).or_default().push(m);
        }
    }
    let mut ready: BinaryHeap<Reverse<(&str, usize)>> =
        waiting.iter().filter(|(_, n)| **n == 0).map(|(&m, _)| Reverse((packs[m].id.as_str(), m))).collect();
    let mut order = Vec::with_capacity(members.len());
    while let Some(Reverse((_, n))) = ready.pop() {
        order.push(n);
        for &m in needed_by.get(&n).map(Vec::as_slice).unwrap_or(&[]) {
            let w = waiting.get_mut(&m).expect("every member is counted");
            *w -= 1;
            if *w == 0 {
                ready.push(Reverse((packs[m].id.as_str(), m)));
            }
        }
    }
    order // short of `members` only on a cycle, which is reported elsewhere
}
