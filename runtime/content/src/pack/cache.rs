//! The cache of files read and parsed by earlier loads, so that watch mode reparses only the files
//! whose text changed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, FileId, Sources};
use crate::yaml::{self, YamlDoc};

/// Files read and parsed by earlier loads, so a reload parses only the files whose text changed
/// and reads again only those whose [`Stamp`] changed (watch mode).
#[derive(Default)]
pub struct Cache {
    pub sources: Sources,
    /// The file last read at each path, and its stamp when it may be trusted (see [`Stamp`]).
    by_path: std::collections::HashMap<PathBuf, (FileId, Option<Stamp>)>,
    pub(super) parsed: std::collections::HashMap<FileId, Result<Vec<YamlDoc>, Vec<Diagnostic>>>,
    /// The schema checks and decoding of the last load's entries, one record per ruleset built
    /// (see [`crate::ruleset::Checked`]).
    pub(crate) checked: Vec<Arc<crate::ruleset::Checked>>,
    /// The rulesets of the last load, as built and checked (see [`crate::reuse`]).
    pub(crate) built: Vec<crate::reuse::Built>,
    /// How many rulesets the last load took as the load before built them.
    pub(crate) reused: usize,
    /// Set when a sweep numbered the files afresh (see [`Cache::take_renumbered`]).
    renumbered: bool,
    /// Empty slots kept before numbering afresh; `None`: `WATCH_CACHE_EMPTY_SLOTS`, or the number
    /// of files read where that is more.
    empty_slots: Option<usize>,
    /// Files read since the last [`Cache::sweep`]; the others are old versions or gone.
    used: std::collections::HashSet<FileId>,
    /// Slots of `sources` emptied by a sweep (kept so the other file ids stay valid).
    emptied: usize,
    /// Files read so far, for a progress display on another thread.
    pub files_read: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Bytes of text this load has read (`MAX_LOAD_BYTES`); set to 0 as a load starts.
    pub(crate) load_bytes: u64,
    /// Files the last load read (the others it took unchanged, see [`Stamp`]).
    pub(crate) read: usize,
    /// How old a file's times must be when it is read for its stamp to be trusted; `None`:
    /// [`SETTLED`] (tests set less).
    settle: Option<std::time::Duration>,
}

impl Cache {
    /// A cache that trusts the stamp of a file whose times are `settle` older than its read
    /// (tests: 0 trusts every stamp, where [`SETTLED`] would make them wait).
    pub fn settling_for(settle: std::time::Duration) -> Cache {
        Cache { settle: Some(settle), ..Cache::default() }
    }

    /// How many files the last load read; it took the others unchanged from the load before.
    pub fn files_read_last(&self) -> usize {
        self.read
    }

    /// A cache that numbers its files afresh once it holds more than `n` empty slots (tests: 0
    /// numbers them afresh on every sweep that forgets a file).
    pub fn keeping_empty_slots(n: usize) -> Cache {
        Cache { empty_slots: Some(n), ..Cache::default() }
    }

    /// How many rulesets the last load took unchanged from the load before (see
    /// [`crate::reuse`]): the rest were built and checked again.
    pub fn rulesets_reused(&self) -> usize {
        self.reused
    }

    /// The file id of this text: the earlier one when the file has not changed. `stamp`: the
    /// file's as it was read at `.1`, kept if a later load may trust it (see [`Stamp`]).
    pub(super) fn add(&mut self, path: &Path, text: String, stamp: Option<(Stamp, std::time::SystemTime)>) -> FileId {
        let stamp = stamp.filter(|(s, at)| s.settled(*at, self.settle.unwrap_or(SETTLED))).map(|(s, _)| s);
        if let Some((f, kept)) = self.by_path.get_mut(path)
            && *self.sources.get(*f).text == *text
        {
            *kept = stamp;
            self.used.insert(*f);
            return *f;
        }
        let f = self.sources.add(path, Arc::from(text));
        self.by_path.insert(path.to_owned(), (f, stamp));
        self.used.insert(f);
        f
    }

    /// The file last read at `path` and its length, when its stamp says it has not changed since
    /// (one `stat`, where reading it again costs an open, a read and the path resolved link by
    /// link). Only files read from a pack (its manifest and documents) have a stamp.
    pub(super) fn unchanged(&self, path: &Path) -> Option<(FileId, usize)> {
        let (f, stamp) = self.by_path.get(path)?;
        let now = Stamp::of(&std::fs::metadata(path).ok()?)?;
        (Some(now) == *stamp).then(|| (*f, self.sources.get(*f).text.len()))
    }

    /// Take the file an unchanged path holds (see [`Cache::unchanged`]) into this load.
    pub(super) fn keep(&mut self, f: FileId) {
        self.used.insert(f);
    }

    /// Trust no stamp of a file at or under these paths: the next load reads them again. A
    /// watcher that knows which paths changed says so; the stamps alone would see it too (a
    /// write changes the times, and a file written as it was read is never trusted), this makes
    /// sure on a file system whose times lie.
    pub fn forget_stamps(&mut self, changed: &[PathBuf]) {
        for (path, (_, stamp)) in &mut self.by_path {
            if changed.iter().any(|c| path.starts_with(c)) {
                *stamp = None;
            }
        }
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
        self.by_path.retain(|_, (f, _)| used.contains(f));
        self.parsed.retain(|f, _| used.contains(f));
        let mut sources = Sources::default();
        let mut emptied = 0;
        let limit = self.empty_slots.unwrap_or(used.len().max(cav_format::limits::WATCH_CACHE_EMPTY_SLOTS));
        if self.emptied + dead > limit {
            // Too many empty slots: number the files afresh (their parses, which carry the file
            // id, are redone on the next load), and so are the rulesets, whose findings name files
            // by id, and the schema checks of the entries, whose provenance names them too.
            self.parsed.clear();
            self.built.clear();
            self.checked.clear();
            self.renumbered = true;
            let mut ids: Vec<FileId> = used.into_iter().collect();
            ids.sort();
            let renumbered: std::collections::HashMap<FileId, FileId> =
                ids.into_iter().map(|old| (old, sources.add_shared(self.sources.shared(old)))).collect();
            for (f, _) in self.by_path.values_mut() {
                *f = renumbered[f];
            }
        } else {
            // Keep the ids: an emptied slot costs a pointer (to one empty file) instead of the file.
            let mut empty = Sources::default();
            let none = empty.add(Path::new(""), Arc::from(""));
            for i in 0..self.sources.len() as u32 {
                if used.contains(&FileId(i)) {
                    sources.add_shared(self.sources.shared(FileId(i)));
                } else {
                    sources.add_shared(empty.shared(none));
                    emptied += 1;
                }
            }
        }
        self.sources = sources;
        self.emptied = emptied;
    }

    /// Whether a sweep numbered the files afresh since the last call: the next load then parses
    /// and checks every file again, as the first did (and needs the memory it needed).
    pub fn take_renumbered(&mut self) -> bool {
        std::mem::take(&mut self.renumbered)
    }

    /// Bytes of file text the cache holds (for tests and diagnostics of watch mode).
    pub fn text_bytes(&self) -> usize {
        (0..self.sources.len() as u32).map(|i| self.sources.get(FileId(i)).text.len()).sum()
    }

    /// Parse these files (on every core) and keep the results for [`Cache::parse`].
    pub(super) fn parse_all(&mut self, files: &[FileId]) {
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
    pub(super) fn parse(&mut self, file: FileId) -> Result<Vec<YamlDoc>, Vec<Diagnostic>> {
        if let Some(r) = self.parsed.get(&file) {
            return r.clone();
        }
        let text = self.sources.get(file).text.clone();
        let r = yaml::parse(&text, file);
        self.parsed.insert(file, r.clone());
        r
    }
}

/// What a file's metadata says of its text: the same file (device and inode, links followed),
/// the same length, the same modification and change times as when it was read. A write changes
/// the times; so does a rename over it or a link swapped in (another inode). A stamp is trusted
/// only when both times were at least [`SETTLED`] older than the moment the file was read: a file
/// written again within its file system's timestamp granularity of being read could otherwise
/// keep its times (git's "racily clean" entries), so a file saved just before a load is read
/// once more by the next one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// How much older than the read a file's times must be for its stamp to be trusted: far more
/// than any local file system's timestamp granularity (a jiffy, a second, FAT's two seconds).
pub const SETTLED: std::time::Duration = std::time::Duration::from_secs(3);

impl Stamp {
    /// The stamp of a file whose metadata this is; `None` on systems without inodes (every load
    /// then reads every file).
    pub fn of(meta: &std::fs::Metadata) -> Option<Stamp> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Some(Stamp {
                dev: meta.dev(),
                ino: meta.ino(),
                len: meta.len(),
                mtime: (meta.mtime(), meta.mtime_nsec()),
                ctime: (meta.ctime(), meta.ctime_nsec()),
            })
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            None
        }
    }

    /// Were both times at least `settle` older than `read_at`?
    pub fn settled(&self, read_at: std::time::SystemTime, settle: std::time::Duration) -> bool {
        let Some(at) = read_at.checked_sub(settle).and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()) else {
            return false;
        };
        let at = (i64::try_from(at.as_secs()).unwrap_or(i64::MAX), i64::from(at.subsec_nanos()));
        self.mtime < at && self.ctime < at
    }
}
