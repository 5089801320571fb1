//! `pack.yaml`: the manifest every pack carries.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::DocKind;
use crate::common::Id;

/// Whether a pack is a ruleset (selectable with `--ruleset`) or an extension of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PackKind {
    Ruleset,
    Extension,
}

/// A pack manifest (`pack.yaml`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub id: Id,
    pub name: String,
    /// Semantic version of the pack, e.g. `1.2.0`.
    #[schemars(pattern(r"^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"))]
    pub version: String,
    pub kind: PackKind,
    /// The game the pack is for, e.g. `cav-so`. A ruleset names the game it defines (left out: the
    /// game of the ruleset it builds on, else a game of its own, named by its id); an extension joins only rulesets of its game — this, or
    /// the game of the rulesets it depends on. An extension that names no game and depends on no
    /// ruleset joins every ruleset while they are all of one game, and none once several games
    /// are installed (a warning says so).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authors: Vec<String>,
    /// The pack's license, as an SPDX license expression: `CC0-1.0`, `CC-BY-4.0`,
    /// `MIT OR Apache-2.0` (https://spdx.org/licenses/). A license without an SPDX id is
    /// `LicenseRef-<name>`, with its text in the pack at `LICENSES/LicenseRef-<name>.txt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// What the license does not cover, in words: the game's names, stats and rules, which the
    /// pack cites as facts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license_note: Option<String>,
    /// Dependencies, one string each: `cav-full >= 1.0` (required), `? other-pack` (optional,
    /// loaded first when present), `! rival-pack` (incompatible: never loaded together).
    #[serde(default)]
    #[schemars(inner(pattern(r"^\s*[?!]?\s*[a-z0-9][a-z0-9-]*(\s*(=|==|>=|<=|>|<|~|\^)?\s*[0-9][0-9A-Za-z.*+-]*(\s*,\s*(=|>=|<=|>|<|~|\^)?\s*[0-9][0-9A-Za-z.*+-]*)*)?\s*$")))]
    pub depends: Vec<String>,
    /// Directories (relative to the pack) that hold its Lua modules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scripts: Vec<String>,
}

/// What a patch changes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchTarget {
    pub kind: DocKind,
    pub id: Id,
}

/// A patch: a pack changes a document of a pack it depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Patch {
    pub target: PatchTarget,
    /// Values merged into the target (mappings merge key by key, everything else replaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<serde_json::Value>,
    /// JSON pointers of values removed from the target, e.g. `/special_attributes/2`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub remove: Vec<String>,
    /// Remove the whole target document.
    #[serde(default)]
    pub delete: bool,
    /// Why, in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}
