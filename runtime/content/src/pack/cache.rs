//! The cache of files read and parsed by earlier loads, so that watch mode reparses only the files
//! whose text changed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::diag::{Diagnostic, FileId, Sources};
use crate::yaml::{self, YamlDoc};

/// Files read and parsed by earlier loads, so a reload reads every file but parses only those
/// whose text changed (watch mode).
#[derive(Default)]
pub struct Cache {
    pub sources: Sources,
    by_path: std::collections::HashMap<PathBuf, FileId>,
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
}

impl Cache {
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

    /// The file id of this text: the earlier one when the file has not changed.
    pub(super) fn add(&mut self, path: &Path, text: String) -> FileId {
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
            for f in self.by_path.values_mut() {
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
