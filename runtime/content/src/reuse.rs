//! What a reload reuses of the last load's rulesets: a ruleset none of whose inputs changed is
//! taken as it was built and checked, instead of being built and checked again (watch mode, where
//! a save changes one pack and most rulesets do not hold it).
//!
//! A ruleset's build and checks ([`crate::ruleset::build`], [`crate::checks::run`]) read only:
//! - the documents of its packs, known by the ids of their files (the [`crate::pack::Cache`] gives
//!   an unchanged file its earlier id, a changed one a new id, and never gives an id to another
//!   file without forgetting every [`Built`] first);
//! - the manifests and places of every pack found (a dependency is looked up among them all);
//! - the validators;
//! - whether each `script:` module is a file inside its script root ([`crate::checks`] looks at
//!   the disk). Those answers are asked again before a reuse.
//!
//! Everything else they see is a function of these, so a ruleset whose key and script answers
//! are equal is the same ruleset with the same findings.

use std::path::PathBuf;
use std::sync::Arc;

use crate::checks::{ScriptDisk, ScriptFile, script_files};
use crate::diag::{Diagnostic, FileId};
use crate::pack::{LoadSet, Pack};
use crate::ruleset::{Checked, Ruleset};

/// The inputs of one ruleset's build that are known before building it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    validators: u64,
    /// Every pack found.
    packs: Vec<PackKey>,
    root: usize,
    order: Vec<usize>,
    /// The files of each pack's documents, in `order`.
    docs: Vec<Vec<FileId>>,
}

/// What a ruleset's build reads of a pack besides its documents.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PackKey {
    id: String,
    dir: PathBuf,
    real_dir: PathBuf,
    manifest: Option<FileId>,
    script_roots: Vec<PathBuf>,
}

impl Key {
    pub(crate) fn of(packs: &[Pack], set: &LoadSet, validators: u64) -> Key {
        Key {
            validators,
            packs: packs
                .iter()
                .map(|p| PackKey {
                    id: p.id.clone(),
                    dir: p.dir.clone(),
                    real_dir: p.real_dir.clone(),
                    manifest: p.manifest_file,
                    script_roots: p.script_roots.clone(),
                })
                .collect(),
            root: set.root,
            order: set.order.clone(),
            docs: set.order.iter().map(|&i| packs[i].docs.iter().map(|d| d.file).collect()).collect(),
        }
    }

    /// A pack without a manifest file has nothing that tells its manifest apart from an earlier
    /// one: never reused.
    pub(crate) fn reusable(&self) -> bool {
        self.order.iter().all(|&i| self.packs[i].manifest.is_some())
    }
}

/// A ruleset as a load built and checked it.
#[derive(Clone)]
pub(crate) struct Built {
    pub(crate) key: Key,
    pub(crate) ruleset: Ruleset,
    /// What building and checking it found, before the hints that look at the other rulesets.
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) checked: Arc<Checked>,
    /// What the script check found on disk.
    scripts: Vec<ScriptFile>,
    /// Taken from the load before rather than built by this one.
    pub(crate) reused: bool,
}

impl Built {
    pub(crate) fn new(
        key: Key,
        ruleset: Ruleset,
        diags: Vec<Diagnostic>,
        checked: Arc<Checked>,
        disk: &ScriptDisk,
    ) -> Built {
        let scripts = script_files(&ruleset, disk);
        Built { key, ruleset, diags, checked, scripts, reused: false }
    }

    /// Is this the ruleset `key` would build now?
    pub(crate) fn answers(&self, key: &Key, disk: &ScriptDisk) -> bool {
        self.key == *key && key.reusable() && script_files(&self.ruleset, disk) == self.scripts
    }
}
