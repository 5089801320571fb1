//! Reading a pack's files safely: never outside the pack, never a link swapped in, within the size
//! limits of one file and of one load.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Cache;
use super::cache::Stamp;
use crate::diag::{Diagnostic, FileId, Loc};

/// Largest content file the loader reads. A rules document is a few kB; anything near this is a mistake.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
pub use cav_format::limits::MAX_LOAD_BYTES;

/// Kernel pseudo-filesystems: nothing a pack reads may resolve into them, whatever its directory.
pub(super) const FORBIDDEN_ROOTS: [&str; 3] = ["/proc", "/dev", "/sys"];

/// `path` with every link resolved, when that stays inside `base` (itself canonical) and out of
/// `/proc`, `/dev` and `/sys`; `None` when it leaves (or cannot be resolved).
pub fn resolve_inside(base: &Path, path: &Path) -> Option<PathBuf> {
    inside(base, path.canonicalize().ok()?)
}

/// `real` (a resolved path) when it lies inside `base` and out of `/proc`, `/dev` and `/sys`.
fn inside(base: &Path, real: PathBuf) -> Option<PathBuf> {
    let forbidden = FORBIDDEN_ROOTS.iter().any(|r| real.starts_with(r));
    (real.starts_with(base) && !forbidden).then_some(real)
}

/// `root.join(rel)` with every link resolved, knowing `real_root` (`root` resolved): when no
/// component of `rel` is a link that is `real_root.join(rel)`, found with one `lstat` per
/// component of `rel` where `canonicalize` reads every component of the whole path (`readlink`
/// each: a reload asks this of every script module, thousands of system calls). A link, or a
/// `rel` with `.` or `..`, is resolved by `canonicalize`. `None` when it does not exist.
pub fn resolve_below(root: &Path, real_root: &Path, rel: &Path) -> Option<PathBuf> {
    let whole = || root.join(rel).canonicalize().ok();
    let mut at = root.to_path_buf();
    for part in rel.components() {
        let std::path::Component::Normal(name) = part else { return whole() };
        at.push(name);
        if std::fs::symlink_metadata(&at).ok()?.file_type().is_symlink() {
            return whole();
        }
    }
    Some(real_root.join(rel))
}

/// [`resolve_below`] held to [`resolve_inside`]'s test: inside `real_root`, out of `/proc`,
/// `/dev` and `/sys`.
pub fn resolve_inside_below(root: &Path, real_root: &Path, rel: &Path) -> Option<PathBuf> {
    inside(real_root, resolve_below(root, real_root, rel)?)
}

/// Directories resolved once each (`canonicalize`): a load, or a Lua host, asks the same few
/// script roots of every module they hold. Kept only as long as one load or one host: a link
/// changed later is seen by the next.
#[derive(Debug, Default)]
pub struct RealDirs(std::sync::Mutex<std::collections::HashMap<PathBuf, Option<PathBuf>>>);

impl RealDirs {
    /// `dir` with every link resolved; `None` when it cannot be.
    pub fn real(&self, dir: &Path) -> Option<PathBuf> {
        if let Ok(known) = self.0.lock()
            && let Some(real) = known.get(dir)
        {
            return real.clone();
        }
        let real = dir.canonicalize().ok();
        if let Ok(mut known) = self.0.lock() {
            known.insert(dir.to_owned(), real.clone());
        }
        real
    }
}

/// The diagnostic for a link (or path) that resolves outside its pack. It names the link, never
/// the target or its content.
pub(super) fn outside_pack(path: &Path, pack: &str) -> Diagnostic {
    Diagnostic::error("outside-pack", "symbolic link leads outside the pack directory; it is not read")
        .path(path)
        .pack(pack)
        .expected("files and directories inside the pack (links may point only within the pack)")
        .hint(Some("copy the file into the pack instead of linking to it".into()))
}

/// Read a file as UTF-8 text within the size limit; problems become diagnostics.
pub fn read_text(path: &Path, cache: &mut Cache, pack: Option<&str>) -> Result<FileId, Box<Diagnostic>> {
    read_resolved(path, path, cache, pack)
}

/// Read a file of a pack: `path` must resolve inside the pack's real directory (see
/// [`resolve_inside`]); the text is read from the resolved path and shown under `path`.
/// A file unchanged since the last load read it is not read again ([`Cache::unchanged`]).
pub fn read_in_pack(path: &Path, real_dir: &Path, pack: &str, cache: &mut Cache) -> Result<FileId, Box<Diagnostic>> {
    if let Some(kept) = cache.unchanged(path) {
        return keep(path, kept, cache, Some(pack));
    }
    let raw = read_raw_in_pack(path, real_dir, pack)?;
    record(path, raw, cache, Some(pack))
}

/// [`read_in_pack`] up to the text, without the cache (so files can be read side by side).
pub(super) fn read_raw_in_pack(path: &Path, real_dir: &Path, pack: &str) -> Result<Raw, Box<Diagnostic>> {
    match resolve_inside(real_dir, path) {
        Some(real) => read_raw(path, &real, Some(pack)),
        None if path.canonicalize().is_ok() => Err(Box::new(outside_pack(path, pack))),
        None => Err(Box::new(Diagnostic::error("io", "cannot read file: not found").path(path).pack(pack))),
    }
}

/// A file's bytes, as UTF-8 text if they are.
pub(super) type RawText = Result<String, std::string::FromUtf8Error>;

/// A file as read: its text, and its stamp and the moment it was read ([`Stamp`]).
pub(super) struct Raw {
    text: RawText,
    stamp: Option<(Stamp, std::time::SystemTime)>,
}

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
fn read_raw(path: &Path, real: &Path, pack: Option<&str>) -> Result<Raw, Box<Diagnostic>> {
    let with_pack = |d: Diagnostic| in_pack(d, pack);
    // Before the open: a write after this moment may keep the times of the file as read.
    let read_at = std::time::SystemTime::now();
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
    Ok(Raw { text: String::from_utf8(bytes), stamp: Stamp::of(&meta).map(|s| (s, read_at)) })
}

/// `path` is not loaded: the files of this load before it already fill `MAX_LOAD_BYTES`.
pub(super) fn over_load_budget(path: &Path, pack: Option<&str>) -> Box<Diagnostic> {
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

/// Take into this load the file `path` held at the last, unchanged since ([`Cache::unchanged`]):
/// it counts towards the load's bytes as if read.
pub(super) fn keep(
    path: &Path,
    (file, size): (FileId, usize),
    cache: &mut Cache,
    pack: Option<&str>,
) -> Result<FileId, Box<Diagnostic>> {
    count_load_bytes(path, size, cache, pack)?;
    cache.keep(file);
    Ok(file)
}

fn count_load_bytes(path: &Path, size: usize, cache: &mut Cache, pack: Option<&str>) -> Result<(), Box<Diagnostic>> {
    cache.load_bytes = cache.load_bytes.saturating_add(size as u64);
    if cache.load_bytes > MAX_LOAD_BYTES {
        return Err(over_load_budget(path, pack));
    }
    Ok(())
}

/// Record text read from `path` in the cache; text that is not UTF-8 becomes a diagnostic.
pub(super) fn record(
    path: &Path,
    Raw { text: raw, stamp }: Raw,
    cache: &mut Cache,
    pack: Option<&str>,
) -> Result<FileId, Box<Diagnostic>> {
    let with_pack = |d: Diagnostic| in_pack(d, pack);
    cache.read += 1;
    let size = match &raw {
        Ok(text) => text.len(),
        Err(e) => e.as_bytes().len(),
    };
    count_load_bytes(path, size, cache, pack)?;
    match raw {
        Ok(text) => Ok(cache.add(path, text, stamp)),
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// `resolve_below` answers what `canonicalize` answers, links and all, and
    /// `resolve_inside_below` what `resolve_inside` answers.
    #[test]
    fn resolve_below_agrees_with_canonicalize() {
        let tmp = tempfile::tempdir().unwrap();
        let (root, outside) = (tmp.path().join("pack/scripts"), tmp.path().join("elsewhere"));
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("a.luau"), "").unwrap();
        std::fs::write(root.join("sub/b.luau"), "").unwrap();
        std::fs::write(outside.join("c.luau"), "").unwrap();
        let link = |to: &Path, at: PathBuf| std::os::unix::fs::symlink(to, at).unwrap();
        link(&root.join("a.luau"), root.join("alias.luau"));
        link(&outside, root.join("away"));
        link(&outside.join("c.luau"), root.join("c.luau"));
        link(Path::new("/proc/self/status"), root.join("proc.luau"));
        // The root itself through a link, as a pack's `scripts:` may be.
        link(&root, tmp.path().join("linked"));
        let rels = [
            "a.luau",
            "sub/b.luau",
            "alias.luau",
            "away/c.luau",
            "c.luau",
            "proc.luau",
            "missing.luau",
            "sub/../a.luau",
        ];
        for root in [root.clone(), tmp.path().join("linked")] {
            let real_root = root.canonicalize().unwrap();
            for rel in rels {
                let rel = Path::new(rel);
                assert_eq!(resolve_below(&root, &real_root, rel), root.join(rel).canonicalize().ok(), "{rel:?}");
                assert_eq!(
                    resolve_inside_below(&root, &real_root, rel),
                    resolve_inside(&real_root, &root.join(rel)),
                    "{rel:?}"
                );
            }
            assert!(resolve_inside_below(&root, &real_root, Path::new("away/c.luau")).is_none());
            assert!(resolve_inside_below(&root, &real_root, Path::new("proc.luau")).is_none());
            assert!(resolve_inside_below(&root, &real_root, Path::new("alias.luau")).is_some());
        }
    }
}
