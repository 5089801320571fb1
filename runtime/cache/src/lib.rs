//! The persistent cache: results `cav` has already computed, found again by a strong hash of
//! everything they depend on, so a run over unchanged content answers at once (`cav validate`).
//!
//! It is a trust boundary, built as one (docs/security.md, "The result cache"):
//! - it lives in the user's cache directory (`CAV_CACHE_DIR`, else `$XDG_CACHE_HOME/cav` or the
//!   platform's cache directory), never inside a pack or a content root — the caller refuses a
//!   directory that is ([`Store::inside`]) — so a downloaded mod cannot ship an entry;
//! - an entry's name is its [`Key`], a BLAKE3 hash of the build of `cav` and of every input of
//!   the result (each file's path and exact bytes, the options, the working directory); its
//!   header repeats the format, the build and the key, and carries the BLAKE3 hash of its
//!   payload. Every read checks all of them and the length: a truncated, corrupted, foreign or
//!   planted entry is ignored, noted once, removed and written again by the run that missed;
//! - entries are written to a temporary file and renamed into place, so concurrent `cav`
//!   processes see a whole entry or none; the directory is bounded (`limits::CACHE_MAX_*`), the
//!   entries used longest ago going first;
//! - only files named as entries are ever read or removed: `cav cache clear` on a directory
//!   shared with other programs leaves their files alone.
//!
//! A result is only as good as its key: a caller hashes every input the result depends on, and
//! gives up caching ([`Uncacheable`]) where it cannot see them all (a link, a special file, a
//! tree past the input limits).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::SystemTime;

use cav_format::limits::{
    CACHE_MAX_BYTES, CACHE_MAX_ENTRIES, CACHE_MAX_ENTRY_BYTES, CACHE_MAX_INPUT_BYTES, CACHE_MAX_INPUT_FILES,
};

/// The entry format: a change of the header or of what a payload means changes it, and entries of
/// another format live in another folder (`v<FORMAT>`), never read.
pub const FORMAT: u32 = 1;
const MAGIC: &[u8; 8] = b"CAVCACHE";
/// Magic, format, build, key, payload length, payload hash.
const HEADER: usize = 8 + 4 + 32 + 32 + 8 + 32;

/// The name of a result: a BLAKE3 hash of everything it depends on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key(pub [u8; 32]);

impl Key {
    pub fn hex(&self) -> String {
        blake3::Hash::from_bytes(self.0).to_hex().to_string()
    }
}

/// Why a result cannot be cached: one of its inputs cannot be hashed soundly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uncacheable(pub String);

/// A key in the making. Each field is written with its name and length, so no two different
/// sequences of fields hash alike.
pub struct KeyBuilder {
    hasher: blake3::Hasher,
    files: usize,
    bytes: u64,
}

impl KeyBuilder {
    /// A key for results of this kind (`"validate"`…), made by this build of `cav`.
    pub fn new(purpose: &str, build: &[u8; 32]) -> KeyBuilder {
        let mut k = KeyBuilder { hasher: blake3::Hasher::new(), files: 0, bytes: 0 };
        k.field("format", &FORMAT.to_le_bytes()).field("build", build).field("purpose", purpose.as_bytes());
        k
    }

    pub fn field(&mut self, name: &str, value: &[u8]) -> &mut KeyBuilder {
        for part in [name.as_bytes(), value] {
            self.hasher.update(&(part.len() as u64).to_le_bytes());
            self.hasher.update(part);
        }
        self
    }

    pub fn path(&mut self, name: &str, path: &Path) -> &mut KeyBuilder {
        self.field(name, path.as_os_str().as_encoded_bytes())
    }

    /// Every directory and file below `root`, by path relative to it, each file with its exact
    /// bytes; a missing root is hashed as missing. A link or a special file anywhere makes the
    /// result uncacheable (what a link reaches can change without the tree changing), as does a
    /// tree past `CACHE_MAX_INPUT_FILES` or `CACHE_MAX_INPUT_BYTES`.
    pub fn tree(&mut self, root: &Path) -> Result<&mut KeyBuilder, Uncacheable> {
        let Ok(real) = root.canonicalize() else {
            return match std::fs::symlink_metadata(root) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(self.path("missing", root)),
                _ => Err(Uncacheable(format!("{} cannot be read", root.display()))),
            };
        };
        self.path("tree", root).path("real", &real);
        let mut files = Vec::new();
        for entry in walkdir::WalkDir::new(&real).follow_links(false).sort_by_file_name() {
            let e = entry.map_err(|e| Uncacheable(format!("{} cannot be read: {e}", root.display())))?;
            let rel = e.path().strip_prefix(&real).unwrap_or(e.path()).to_owned();
            let t = e.file_type();
            if t.is_dir() {
                self.path("dir", &rel);
            } else if t.is_file() {
                self.files += 1;
                // Sizes are summed as the tree is walked: a tree too large to hash is known
                // before any of it is read.
                let size =
                    e.metadata().map_err(|e| Uncacheable(format!("{} cannot be read: {e}", root.display())))?.len();
                self.bytes += size;
                if self.bytes > CACHE_MAX_INPUT_BYTES {
                    return Err(Uncacheable(format!("more than {CACHE_MAX_INPUT_BYTES} bytes of files")));
                }
                files.push((rel, e.path().to_owned(), size));
            } else {
                let what = if t.is_symlink() { "a symbolic link" } else { "a special file" };
                return Err(Uncacheable(format!("{} is {what}", e.path().display())));
            }
            if self.files > CACHE_MAX_INPUT_FILES {
                return Err(Uncacheable(format!("more than {CACHE_MAX_INPUT_FILES} files")));
            }
        }
        // The files are read and hashed side by side (the reads wait on the disk), then taken in
        // order.
        use rayon::prelude::*;
        let hashed: Vec<Result<blake3::Hash, Uncacheable>> =
            files.par_iter().map(|(_, path, size)| hash_file(path, *size)).collect();
        for ((rel, _, _), h) in files.iter().zip(hashed) {
            self.path("file", rel).field("bytes", h?.as_bytes());
        }
        Ok(self)
    }

    /// One file named on a command line (a roster), by its path and exact bytes; a missing file
    /// is hashed as missing. A link, a special file (a FIFO, a device) or a file past
    /// `CACHE_MAX_INPUT_BYTES` makes the result uncacheable: it is never read here, and the
    /// command's own reading says what is wrong with it.
    pub fn file(&mut self, name: &str, path: &Path) -> Result<&mut KeyBuilder, Uncacheable> {
        self.path(name, path);
        let meta = match std::fs::symlink_metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(self.field("missing", &[])),
            Err(e) => return Err(Uncacheable(format!("{} cannot be read: {e}", path.display()))),
        };
        if !meta.is_file() {
            return Err(Uncacheable(format!("{} is not a regular file", path.display())));
        }
        if meta.len() > CACHE_MAX_INPUT_BYTES {
            return Err(Uncacheable(format!("{} is more than {CACHE_MAX_INPUT_BYTES} bytes", path.display())));
        }
        let h = hash_file(path, meta.len())?;
        Ok(self.field("bytes", h.as_bytes()))
    }

    pub fn finish(&self) -> Key {
        Key(*self.hasher.finalize().as_bytes())
    }
}

/// The hash of a regular file of `size` bytes, opened without following a link or blocking on a
/// FIFO, read whole (content files are small) into a buffer of that size; a file whose size
/// changed since is changing now, and a result of it would not be the result of any one version.
fn hash_file(path: &Path, size: u64) -> Result<blake3::Hash, Uncacheable> {
    let cannot = |e: std::io::Error| Uncacheable(format!("{} cannot be read: {e}", path.display()));
    let f = open_no_follow(path).map_err(cannot)?;
    if !f.metadata().map_err(cannot)?.is_file() {
        return Err(Uncacheable(format!("{} is not a regular file", path.display())));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    f.take(size + 1).read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 != size {
        return Err(Uncacheable(format!("{} changed while it was read", path.display())));
    }
    Ok(blake3::hash(&bytes))
}

/// What identifies a program on this machine: its path, size and time of last change (a rebuilt
/// or reinstalled `cav` has a new one), or "none" where there is none.
pub fn program_stamp(path: Option<&Path>) -> Vec<u8> {
    let Some(path) = path else { return b"none".to_vec() };
    let mut out = path.as_os_str().as_encoded_bytes().to_vec();
    if let Ok(m) = std::fs::metadata(path) {
        out.extend(m.len().to_le_bytes());
        let t = m.modified().ok().and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok()).unwrap_or_default();
        out.extend(t.as_nanos().to_le_bytes());
    }
    out
}

/// The build id: a hash of the programs' stamps and version. Entries of another build have
/// other keys (the build is hashed into each) and are never read; the bound removes them in time.
pub fn build_id(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    for p in parts {
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p);
    }
    *h.finalize().as_bytes()
}

/// Where the cache lives unless told: `CAV_CACHE_DIR`, else the platform's cache directory
/// (`$XDG_CACHE_HOME`, else `~/.cache`, on Linux) with `cav` below it.
/// A relative `CAV_CACHE_DIR` is refused (it would move with the working directory, into
/// content among other places).
pub fn default_dir() -> Result<PathBuf, String> {
    match std::env::var_os("CAV_CACHE_DIR") {
        Some(d) if !d.is_empty() => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                Ok(d)
            } else {
                Err(format!("CAV_CACHE_DIR ({}) is not an absolute path", d.display()))
            }
        }
        _ => dirs::cache_dir()
            .map(|d| d.join("cav"))
            .ok_or_else(|| "no cache directory is known: set CAV_CACHE_DIR".into()),
    }
}

/// Open for reading without following a link at the last step or blocking on a FIFO; what was
/// opened is checked by the caller.
fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    options.open(path)
}

/// The cache directory of one build of `cav`.
pub struct Store {
    dir: PathBuf,
    build: [u8; 32],
    /// What went wrong, each said once (damaged entries, a directory that cannot be written).
    notes: Mutex<Vec<String>>,
    max_bytes: u64,
    max_entries: usize,
}

/// What `cav cache info` tells.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Info {
    pub entries: usize,
    pub bytes: u64,
}

/// A file of the cache directory named as one of ours: an entry, or a temporary file not yet
/// renamed.
struct Found {
    path: PathBuf,
    len: u64,
    used: SystemTime,
    temporary: bool,
}

static TEMP: AtomicU64 = AtomicU64::new(0);

impl Store {
    pub fn new(dir: PathBuf, build: [u8; 32]) -> Store {
        Store { dir, build, notes: Mutex::new(Vec::new()), max_bytes: CACHE_MAX_BYTES, max_entries: CACHE_MAX_ENTRIES }
    }

    /// The same with other bounds (tests).
    pub fn with_bounds(mut self, max_bytes: u64, max_entries: usize) -> Store {
        (self.max_bytes, self.max_entries) = (max_bytes, max_entries);
        self
    }

    pub fn build(&self) -> &[u8; 32] {
        &self.build
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the cache directory is `root` or below it (then it must not be used: a pack or a
    /// content root could carry entries).
    pub fn inside(&self, root: &Path) -> bool {
        let real = |p: &Path| {
            // The cache directory may not exist yet: its nearest existing ancestor decides.
            let mut p = p.to_path_buf();
            let mut rest = Vec::new();
            loop {
                if let Ok(r) = p.canonicalize() {
                    return rest.into_iter().rev().fold(r, |acc: PathBuf, part: std::ffi::OsString| acc.join(part));
                }
                match (p.file_name().map(|f| f.to_owned()), p.parent()) {
                    (Some(f), Some(parent)) => {
                        rest.push(f);
                        p = parent.to_path_buf();
                    }
                    _ => return p,
                }
            }
        };
        real(&self.dir).starts_with(real(root))
    }

    /// What went wrong so far, each problem once.
    pub fn notes(&self) -> Vec<String> {
        self.notes.lock().map(|n| n.clone()).unwrap_or_default()
    }

    fn note(&self, msg: String) {
        if let Ok(mut n) = self.notes.lock()
            && !n.contains(&msg)
        {
            n.push(msg);
        }
    }

    fn entry_path(&self, key: &Key) -> PathBuf {
        let hex = key.hex();
        self.dir.join(format!("v{FORMAT}")).join(&hex[..2]).join(hex)
    }

    /// The payload stored under `key`, verified; `None` on a miss or a bad entry (noted, removed).
    pub fn get(&self, key: &Key) -> Option<Vec<u8>> {
        let path = self.entry_path(key);
        let bad = |why: String| {
            self.note(format!("ignored {}: {why}; it is removed", path.display()));
            // A folder planted in an entry's place goes too (`remove_dir_all` follows no link).
            let _ = std::fs::remove_file(&path).or_else(|_| std::fs::remove_dir_all(&path));
            None
        };
        // Opened first, then what was opened is looked at: a link at the last step is not
        // followed, a FIFO does not block.
        let file = match open_no_follow(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => return bad(format!("cannot be opened ({e})")),
        };
        let meta = match file.metadata() {
            Ok(m) => m,
            Err(e) => return bad(format!("cannot be read ({e})")),
        };
        if !meta.file_type().is_file() {
            return bad("not a regular file".into());
        }
        if meta.len() > HEADER as u64 + CACHE_MAX_ENTRY_BYTES {
            return bad("larger than any entry".into());
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        if let Err(e) = file.take(HEADER as u64 + CACHE_MAX_ENTRY_BYTES + 1).read_to_end(&mut bytes) {
            self.note(format!("cannot read {}: {e}", path.display()));
            return None;
        }
        match decode(&bytes, &self.build, key) {
            Ok(()) => {
                // Used now: the bound removes the entries used longest ago first.
                if let Ok(f) = std::fs::File::options().write(true).open(&path) {
                    let _ = f.set_modified(SystemTime::now());
                }
                bytes.drain(..HEADER);
                Some(bytes)
            }
            Err(why) => bad(why),
        }
    }

    /// Drop the entry under `key`: its payload, though whole, is not one the caller can use.
    pub fn discard(&self, key: &Key, why: &str) {
        let path = self.entry_path(key);
        self.note(format!("ignored {}: {why}; it is removed", path.display()));
        let _ = std::fs::remove_file(&path);
    }

    /// Store `payload` under `key`: written whole to a temporary file, then renamed into place.
    pub fn put(&self, key: &Key, payload: &[u8]) {
        if self.write(key, payload) {
            self.bound();
        }
    }

    /// Store several entries, the folder held within its bounds once after them.
    pub fn put_many(&self, entries: &[(Key, Vec<u8>)]) {
        let mut wrote = false;
        for (key, payload) in entries {
            wrote |= self.write(key, payload);
        }
        if wrote {
            self.bound();
        }
    }

    /// Write one entry; whether it was written.
    fn write(&self, key: &Key, payload: &[u8]) -> bool {
        if payload.len() as u64 > CACHE_MAX_ENTRY_BYTES {
            self.note(format!("a result of {} bytes is larger than an entry may be: not cached", payload.len()));
            return false;
        }
        let path = self.entry_path(key);
        let Some(folder) = path.parent() else { return false };
        let tmp = folder.join(format!(".tmp-{}-{}", std::process::id(), TEMP.fetch_add(1, Ordering::Relaxed)));
        let written = create_private_dir(folder).and_then(|()| {
            let mut f = std::fs::File::options().write(true).create_new(true).open(&tmp)?;
            f.write_all(&encode(&self.build, key, payload))?;
            // Not synced: an entry a crash leaves cut short or empty fails the length and hash
            // checks of its next read, and is written again (a sync per entry cost ~1 ms).
            std::fs::rename(&tmp, &path)
        });
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            self.note(format!("cannot write to {}: {e}; results are not cached", self.dir.display()));
            return false;
        }
        true
    }

    /// Our files in the cache directory (entries of every format, temporary files).
    fn found(&self) -> Vec<Found> {
        let mut out = Vec::new();
        let Ok(versions) = std::fs::read_dir(&self.dir) else { return out };
        for v in versions.flatten() {
            let name = v.file_name();
            let name = name.to_string_lossy();
            if !(name.starts_with('v') && name.len() > 1 && name[1..].bytes().all(|b| b.is_ascii_digit())) {
                continue;
            }
            let Ok(folders) = std::fs::read_dir(v.path()) else { continue };
            for folder in folders.flatten() {
                let fname = folder.file_name();
                if !(fname.len() == 2 && fname.to_string_lossy().bytes().all(|b| b.is_ascii_hexdigit())) {
                    continue;
                }
                let Ok(files) = std::fs::read_dir(folder.path()) else { continue };
                for f in files.flatten() {
                    let n = f.file_name();
                    let n = n.to_string_lossy();
                    let entry = n.len() == 64 && n.bytes().all(|b| b.is_ascii_hexdigit());
                    let temporary = n.starts_with(".tmp-");
                    if !(entry || temporary) {
                        continue;
                    }
                    let Ok(m) = std::fs::symlink_metadata(f.path()) else { continue };
                    if !m.file_type().is_file() {
                        continue; // a planted folder or link: `get` removes one in an entry's place
                    }
                    let used = m.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                    out.push(Found { path: f.path(), len: m.len(), used, temporary });
                }
            }
        }
        out
    }

    /// Keep the directory within its bounds: temporary files an hour old (left by a process that
    /// stopped) go, then the entries used longest ago until a quarter of the room is free.
    fn bound(&self) {
        let mut found = self.found();
        let hour_ago = SystemTime::now() - std::time::Duration::from_secs(3600);
        found.retain(|f| {
            let stale = f.temporary && f.used < hour_ago;
            if stale {
                let _ = std::fs::remove_file(&f.path);
            }
            !stale
        });
        // Temporary files young enough to be another process's write in progress are left
        // alone and not counted.
        found.retain(|f| !f.temporary);
        let (mut bytes, mut count) = (found.iter().map(|f| f.len).sum::<u64>(), found.len());
        if bytes <= self.max_bytes && count <= self.max_entries {
            return;
        }
        found.sort_by_key(|f| f.used);
        for f in &found {
            if bytes <= self.max_bytes / 4 * 3 && count <= self.max_entries / 4 * 3 {
                break;
            }
            if std::fs::remove_file(&f.path).is_ok() {
                bytes -= f.len;
                count -= 1;
            }
        }
    }

    pub fn info(&self) -> Info {
        let found: Vec<Found> = self.found().into_iter().filter(|f| !f.temporary).collect();
        Info { entries: found.len(), bytes: found.iter().map(|f| f.len).sum() }
    }

    /// Remove every entry (and temporary file) of every format; other files stay. A file gone
    /// already (another process's bound) is no matter; any other failure is reported once all
    /// the rest are removed.
    pub fn clear(&self) -> std::io::Result<Info> {
        let mut removed = Info::default();
        let mut failed = None;
        for f in self.found() {
            match std::fs::remove_file(&f.path) {
                Ok(()) if !f.temporary => {
                    removed.entries += 1;
                    removed.bytes += f.len;
                }
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => failed = failed.or(Some(e)),
            }
            if let Some(folder) = f.path.parent() {
                let _ = std::fs::remove_dir(folder); // only when empty
            }
        }
        failed.map_or(Ok(removed), Err)
    }
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

fn encode(build: &[u8; 32], key: &Key, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT.to_le_bytes());
    out.extend_from_slice(build);
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(blake3::hash(payload).as_bytes());
    out.extend_from_slice(payload);
    out
}

/// Check an entry's header against what was asked for, and its payload against its hash.
fn decode(bytes: &[u8], build: &[u8; 32], key: &Key) -> Result<(), String> {
    if bytes.len() < HEADER {
        return Err("shorter than its header".into());
    }
    let (header, payload) = bytes.split_at(HEADER);
    if &header[..8] != MAGIC {
        return Err("not a cache entry".into());
    }
    if header[8..12] != FORMAT.to_le_bytes() {
        return Err("of another format".into());
    }
    if header[12..44] != build[..] {
        return Err("written by another build of cav".into());
    }
    if header[44..76] != key.0 {
        return Err("stored under another key".into());
    }
    let len = u64::from_le_bytes(header[76..84].try_into().unwrap_or_default());
    if len != payload.len() as u64 {
        return Err(format!("{} bytes long where its header says {len}", payload.len()));
    }
    if header[84..116] != *blake3::hash(payload).as_bytes() {
        return Err("its contents do not match their hash".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path) -> Store {
        Store::new(dir.join("cache"), [7; 32])
    }

    fn key(s: &str) -> Key {
        let mut k = KeyBuilder::new("test", &[7; 32]);
        k.field("s", s.as_bytes());
        k.finish()
    }

    #[test]
    fn a_stored_result_is_found_again_and_only_under_its_key() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        assert_eq!(s.get(&key("a")), None);
        s.put(&key("a"), b"payload");
        assert_eq!(s.get(&key("a")).as_deref(), Some(&b"payload"[..]));
        assert_eq!(s.get(&key("b")), None);
        assert_eq!(s.info(), Info { entries: 1, bytes: (HEADER + 7) as u64 });
        assert!(s.notes().is_empty(), "{:?}", s.notes());
        // Another build reads none of it (its keys differ anyway: they hash the build).
        assert_eq!(Store::new(t.path().join("cache"), [8; 32]).get(&key("a")), None);
    }

    #[test]
    fn entries_put_together_are_each_found_and_bounded_once_after() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path()).with_bounds(u64::MAX, 4);
        let many: Vec<(Key, Vec<u8>)> = (0..6).map(|i| (key(&i.to_string()), vec![i as u8; 3])).collect();
        s.put_many(&many);
        // Six written, then the folder brought under four: a quarter of the room freed.
        assert_eq!(s.info().entries, 3);
        let found = many.iter().filter(|(k, v)| s.get(k).as_ref() == Some(v)).count();
        assert_eq!(found, 3, "the entries kept are whole");
        assert!(s.notes().is_empty(), "{:?}", s.notes());
    }

    #[test]
    fn every_damaged_byte_is_caught_and_the_entry_removed() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let k = key("a");
        s.put(&k, b"the result");
        let path = s.entry_path(&k);
        let good = std::fs::read(&path).unwrap();
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x20;
            std::fs::write(&path, &bad).unwrap();
            assert_eq!(s.get(&k), None, "byte {i} changed and the entry was still read");
            assert!(!path.exists(), "byte {i}: the bad entry stays");
        }
        for len in 0..good.len() {
            std::fs::write(&path, &good[..len]).unwrap();
            assert_eq!(s.get(&k), None, "truncated to {len} bytes and still read");
        }
        let mut longer = good.clone();
        longer.push(0);
        std::fs::write(&path, &longer).unwrap();
        assert_eq!(s.get(&k), None);
        // An entry moved under another key is refused too.
        std::fs::create_dir_all(s.entry_path(&key("b")).parent().unwrap()).unwrap();
        std::fs::write(s.entry_path(&key("b")), &good).unwrap();
        assert_eq!(s.get(&key("b")), None);
        std::fs::write(&path, &good).unwrap();
        assert_eq!(s.get(&k).as_deref(), Some(&b"the result"[..]));
        assert!(!s.notes().is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_planted_link_or_folder_is_not_followed() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let k = key("a");
        let path = s.entry_path(&k);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        assert_eq!(s.get(&k), None);
        assert!(std::fs::symlink_metadata(&path).is_err(), "the link is removed, not what it points to");
        std::fs::create_dir_all(path.join("inner")).unwrap();
        assert_eq!(s.get(&k), None);
        assert!(!path.exists(), "a folder in an entry's place is removed");
        s.put(&k, b"x");
        assert_eq!(s.get(&k).as_deref(), Some(&b"x"[..]));
        // A folder named as an entry that `clear` meets is not an entry; clear goes on.
        let other = s.entry_path(&key("b"));
        std::fs::create_dir_all(&other).unwrap();
        assert_eq!(s.clear().unwrap().entries, 1);
        assert!(other.exists());
    }

    #[test]
    fn clear_removes_entries_and_nothing_else() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        s.put(&key("a"), b"1");
        s.put(&key("b"), b"2");
        std::fs::write(s.dir().join("notes.txt"), "mine").unwrap();
        std::fs::write(s.entry_path(&key("a")).with_file_name("README"), "mine too").unwrap();
        assert_eq!(s.clear().unwrap().entries, 2);
        assert_eq!(s.info().entries, 0);
        assert!(s.dir().join("notes.txt").exists());
        assert!(s.entry_path(&key("a")).with_file_name("README").exists());
    }

    #[test]
    fn a_tree_key_follows_every_byte_and_name() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("pack");
        std::fs::create_dir_all(root.join("models")).unwrap();
        std::fs::write(root.join("models/a.yaml"), "id: a\n").unwrap();
        let hash = || {
            let mut k = KeyBuilder::new("test", &[0; 32]);
            k.tree(&root).map(|k| k.finish())
        };
        let first = hash().unwrap();
        assert_eq!(hash().unwrap(), first);
        std::fs::write(root.join("models/a.yaml"), "id: b\n").unwrap();
        let changed = hash().unwrap();
        assert_ne!(changed, first);
        std::fs::rename(root.join("models/a.yaml"), root.join("models/b.yaml")).unwrap();
        assert_ne!(hash().unwrap(), changed);
        std::fs::create_dir(root.join("empty")).unwrap();
        let with_dir = hash().unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", root.join("link.yaml")).unwrap();
            assert!(hash().is_err(), "a link makes the tree uncacheable");
            std::fs::remove_file(root.join("link.yaml")).unwrap();
        }
        assert_eq!(hash().unwrap(), with_dir);
        // A missing root is an input too.
        let mut k = KeyBuilder::new("test", &[0; 32]);
        assert!(k.tree(&t.path().join("none")).is_ok());
    }

    #[test]
    fn fields_do_not_run_into_each_other() {
        let a = KeyBuilder::new("t", &[0; 32]).field("x", b"ab").field("y", b"c").finish();
        let b = KeyBuilder::new("t", &[0; 32]).field("x", b"a").field("y", b"bc").finish();
        assert_ne!(a, b);
    }

    #[test]
    fn the_directory_stays_bounded() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path()).with_bounds(100 * (HEADER as u64 + 10), 40);
        for i in 0..60 {
            s.put(&key(&i.to_string()), b"");
        }
        let info = s.info();
        assert!((20..=40).contains(&info.entries), "{info:?}");
        // The one used last stays; by size too.
        s.put(&key("big"), &[0; 1000]);
        assert!(s.get(&key("big")).is_some());
        for i in 0..20 {
            s.put(&key(&format!("b{i}")), &[0; 300]);
        }
        assert!(s.info().bytes <= 100 * (HEADER as u64 + 10), "{:?}", s.info());
    }

    #[test]
    fn a_cache_inside_a_content_root_is_seen() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::new(t.path().join("content/pack/.cache/cav"), [0; 32]);
        assert!(s.inside(&t.path().join("content")));
        assert!(!s.inside(&t.path().join("mods")));
    }
}
