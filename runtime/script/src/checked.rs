//! The script check of a ruleset, kept so that a reload whose ruleset and script files are
//! unchanged gives its findings again without running the scripts or the type checker (watch
//! mode: a save of one pack leaves the other rulesets as they were).
//!
//! [`check_scripts`](crate::check_scripts) reads what [`ScriptInputs`] holds of the ruleset (the
//! documents that name a script, the script roots, the ids the hook definitions name) and the
//! files under the script roots (`require` cannot leave them), and runs `cav-typecheck`.
//! [`ScriptsChecked::replay`] holds the inputs equal and the files too: a hash of every path and
//! every byte under the roots. A result that depended on the moment (a clock limit) is not kept.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cav_content::Ruleset;
use cav_content::diag::{Diagnostic, FileId, Sources};
use cav_content::pack::{SETTLED, Stamp};

use crate::check::{Inputs, add_source, check_inputs};

/// What the script check reads of a ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptInputs(Inputs);

impl ScriptInputs {
    pub fn of(rs: &Ruleset) -> ScriptInputs {
        ScriptInputs(Inputs::of(rs))
    }
}

/// What one check of a ruleset's scripts found, and what it read.
#[derive(Debug, Clone)]
pub struct ScriptsChecked {
    inputs: ScriptInputs,
    /// Every path and byte under the script roots, hashed.
    roots: blake3::Hash,
    /// The hash of each file under the roots, by path, where its stamp may be trusted: a replay
    /// takes it for a file whose stamp is unchanged instead of reading the file again (a reload
    /// replays every unchanged ruleset's check, some 250 files read each time).
    stamps: Stamps,
    /// The files the check asked `sources` for, in order: their ids then, paths and texts.
    files: Vec<(FileId, PathBuf, Arc<str>)>,
    diags: Vec<Diagnostic>,
}

/// [`check_scripts`](crate::check_scripts), kept for [`ScriptsChecked::replay`] when it can be
/// (`None` when a finding depended on the moment or the roots could not be read whole).
pub fn check_scripts_kept(inputs: ScriptInputs, sources: &mut Sources) -> (Vec<Diagnostic>, Option<ScriptsChecked>) {
    let mut stamps = Stamps::new();
    let before = roots_hash(&inputs.0.roots, &Stamps::new(), Some(&mut stamps));
    let mut read = Vec::new();
    let diags = check_inputs(&inputs.0, sources, &mut read);
    // A file saved while the check ran: the hash taken before would not say what it read.
    let now = || roots_hash(&inputs.0.roots, &Stamps::new(), None);
    let kept = before.filter(|h| Some(*h) == now() && !diags.iter().any(|d| d.transient)).map(|roots| {
        let files = read
            .iter()
            .map(|&f| {
                let file = sources.get(f);
                (f, file.path.clone(), file.text.clone())
            })
            .collect();
        ScriptsChecked { inputs, roots, stamps, files, diags: diags.clone() }
    });
    (diags, kept)
}

impl ScriptsChecked {
    /// The findings again, for the same inputs, when no file under the script roots changed:
    /// the files are asked of `sources` in the same order as the check did, and the findings'
    /// file ids follow. `None` when anything changed: check again.
    pub fn replay(&self, inputs: &ScriptInputs, sources: &mut Sources) -> Option<Vec<Diagnostic>> {
        if self.inputs != *inputs || roots_hash(&inputs.0.roots, &self.stamps, None)? != self.roots {
            return None;
        }
        let ids: std::collections::HashMap<FileId, FileId> =
            self.files.iter().map(|(old, path, text)| (*old, add_source(sources, path, text.clone()))).collect();
        let now = |f: FileId| ids.get(&f).copied().unwrap_or(f);
        Some(
            self.diags
                .iter()
                .cloned()
                .map(|mut d| {
                    d.file = d.file.map(now);
                    if let Some(l) = d.loc.as_mut() {
                        l.file = now(l.file);
                    }
                    d
                })
                .collect(),
        )
    }
}

/// A file's stamp and the hash of its bytes.
type Stamps = std::collections::HashMap<PathBuf, (Stamp, blake3::Hash)>;

/// A hash of every path and every byte under the ruleset's script roots, never read past the
/// load's limits. A link is hashed by where it leads, not followed: what it leads to inside a
/// root is hashed there, and the check refuses what it leads to outside. `None` when the roots
/// cannot be read whole. A file whose stamp is in `known` unchanged is not read again: its
/// bytes' hash is taken from there (the loader trusts stamps alike, see [`Stamp`]); `learn`
/// gets the stamps that may be trusted of the files read.
fn roots_hash(
    roots: &[(String, Vec<PathBuf>)],
    known: &Stamps,
    mut learn: Option<&mut Stamps>,
) -> Option<blake3::Hash> {
    let mut roots: Vec<&Path> = roots.iter().flat_map(|(_, r)| r).map(PathBuf::as_path).collect();
    roots.sort();
    roots.dedup();
    let mut h = blake3::Hasher::new();
    let mut bytes = 0u64;
    for root in roots {
        h.update(root.as_os_str().as_encoded_bytes()).update(&[0]);
        if !root.exists() {
            h.update(b"absent\0");
            continue;
        }
        for entry in walkdir::WalkDir::new(root).sort_by_file_name() {
            let entry = entry.ok()?;
            h.update(entry.path().as_os_str().as_encoded_bytes()).update(&[0]);
            if entry.file_type().is_file() {
                let meta = entry.metadata().ok()?;
                bytes += meta.len();
                if meta.len() > cav_format::limits::MAX_FILE_BYTES || bytes > cav_format::limits::MAX_LOAD_BYTES {
                    return None;
                }
                let stamp = Stamp::of(&meta);
                let hash = match stamp.and_then(|s| known.get(entry.path()).filter(|(k, _)| *k == s)) {
                    Some((_, hash)) => *hash,
                    None => {
                        let read_at = std::time::SystemTime::now();
                        let hash = blake3::hash(&std::fs::read(entry.path()).ok()?);
                        if let (Some(learn), Some(s)) = (learn.as_deref_mut(), stamp)
                            && s.settled(read_at, SETTLED)
                        {
                            learn.insert(entry.path().to_owned(), (s, hash));
                        }
                        hash
                    }
                };
                h.update(hash.as_bytes());
            } else if entry.path_is_symlink() {
                let to = std::fs::read_link(entry.path()).ok()?;
                h.update(b"link\0").update(to.as_os_str().as_encoded_bytes()).update(&[0]);
            } else {
                h.update(b"other\0");
            }
        }
    }
    Some(h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A replay trusts a settled file's stamp instead of reading it, and reads it again once the
    /// stamp changes.
    #[test]
    fn roots_hash_trusts_settled_stamps_only() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("m.luau");
        std::fs::write(&file, "return {}\n").unwrap();
        let roots = [("p".to_owned(), vec![dir.path().to_owned()])];
        let mut fresh = Stamps::new();
        let read = roots_hash(&roots, &Stamps::new(), Some(&mut fresh)).unwrap();
        assert!(fresh.is_empty(), "a file written a moment ago is not trusted");
        std::thread::sleep(SETTLED);
        let mut learnt = Stamps::new();
        assert_eq!(roots_hash(&roots, &Stamps::new(), Some(&mut learnt)), Some(read), "the same bytes");
        assert_eq!(learnt.keys().collect::<Vec<_>>(), [&file]);
        assert_eq!(roots_hash(&roots, &learnt, None), Some(read));
        // Taken from `known`, not read: a different hash kept for the same stamp shows through.
        let mut told = learnt.clone();
        told.get_mut(&file).unwrap().1 = blake3::hash(b"other");
        assert_ne!(roots_hash(&roots, &told, None), Some(read));
        // Written again (the same length): a new stamp, so the file is read.
        std::fs::write(&file, "return {1}").unwrap();
        let now = roots_hash(&roots, &told, None).unwrap();
        assert_ne!(now, read);
        assert_eq!(Some(now), roots_hash(&roots, &Stamps::new(), None));
    }
}
