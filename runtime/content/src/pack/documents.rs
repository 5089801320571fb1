//! Reading every YAML document of a pack: the files below its directory, read side by side and
//! parsed on every core.

use std::path::{Path, PathBuf};

use super::discover::is_yaml;
use super::read::{keep, outside_pack, over_load_budget, read_raw_in_pack, record};
use super::{Cache, MAX_LOAD_BYTES, Pack, RawDoc, resolve_inside};
use crate::diag::{Diagnostic, FileId};

/// Files a pack's reader reads at once (see where it is used).
const READ_BATCH: usize = 16;

/// Read every YAML document below the pack directory (except `pack.yaml`).
pub fn read_documents(pack: &mut Pack, cache: &mut Cache, diags: &mut Vec<Diagnostic>) {
    let mut files = Vec::new();
    // Links are followed only while they stay inside the pack: a link that leaves it is reported
    // and neither read nor walked (`filter_entry` prunes it before walkdir descends).
    let mut outside = Vec::new();
    // Sorted by name, as `sort_by_file_name` would: siblings are their directory's path and a
    // separator followed by their names, so their paths' bytes compare as their names' do
    // (taking each file name parses the path again: that was ~3 % of a save's reload).
    let by_name = |a: &walkdir::DirEntry, b: &walkdir::DirEntry| {
        a.path().as_os_str().as_encoded_bytes().cmp(b.path().as_os_str().as_encoded_bytes())
    };
    let walk = walkdir::WalkDir::new(&pack.dir).follow_links(true).sort_by(by_name).into_iter().filter_entry(|e| {
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
        // A file the last load read, unchanged since, is not read again (one `stat` each, in
        // order); the others are read side by side, each checked again as it is read: every
        // file must resolve inside the pack.
        let kept: Vec<Option<(FileId, usize)>> = batch.iter().map(|path| cache.unchanged(path)).collect();
        let mut fresh = {
            use rayon::prelude::*;
            let to_read: Vec<&PathBuf> = batch.iter().zip(&kept).filter(|(_, k)| k.is_none()).map(|(p, _)| p).collect();
            let read_one = |path: &&PathBuf| read_raw_in_pack(path, &pack.real_dir, &pack.id);
            // Threads are woken only for more than one file: a save reads one.
            let fresh: Vec<_> = if to_read.len() > 1 {
                to_read.par_iter().map(read_one).collect()
            } else {
                to_read.iter().map(read_one).collect()
            };
            fresh.into_iter()
        };
        cache.files_read.fetch_add(batch.len(), std::sync::atomic::Ordering::Relaxed);
        let raw: Vec<_> = kept
            .into_iter()
            .map(|k| match k {
                Some(k) => Ok(Err(k)),
                None => fresh.next().expect("one read per file not kept").map(Ok),
            })
            .collect();
        read.extend(batch.iter().zip(raw).map(|(path, r)| {
            r.and_then(|got| match got {
                Ok(raw) => record(path, raw, cache, Some(&pack.id)),
                Err(kept) => keep(path, kept, cache, Some(&pack.id)),
            })
        }));
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
