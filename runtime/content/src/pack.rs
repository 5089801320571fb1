//! Packs on disk: finding them, reading their files safely, their manifests and dependencies,
//! and the order they load in.

mod cache;
mod discover;
mod documents;
mod license;
mod manifest;
mod plan;
mod read;

use std::path::PathBuf;

use cav_format::{Manifest, PackKind};
use semver::Version;

use crate::diag::FileId;
use crate::yaml::YamlDoc;

pub use cache::{Cache, SETTLED, Stamp};
pub use discover::discover;
pub use documents::read_documents;
pub use manifest::{DepKind, Dependency, parse_dependency, read_manifest};
pub use plan::{LoadSet, plan};
pub use read::{
    MAX_FILE_BYTES, MAX_LOAD_BYTES, RealDirs, read_in_pack, read_text, resolve_below, resolve_inside,
    resolve_inside_below,
};

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

impl Pack {
    /// The game its manifest names (`game:`), if any.
    pub fn declared_game(&self) -> Option<&str> {
        self.manifest.as_ref().and_then(|m| m.game.as_ref()).map(|g| g.0.as_str())
    }
}
