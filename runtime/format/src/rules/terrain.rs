//! Terrain types and move classes: movement costs, cover, elevation, and who may enter or
//! shelter in a piece.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::StructureDef;

/// A terrain type with its movement cost for every move class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub id: Id,
    pub name: String,
    pub cover: Cover,
    /// Elevation level of the terrain (E1 = 1, water depth as negative levels).
    #[serde(default)]
    pub elevation: i32,
    /// Extra cost per elevation level climbed, by move class (for hills and structures).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(extend("x-cav-ref-keys" = "move_class"))]
    pub climb_cost: BTreeMap<Id, TerrainCost>,
    /// Extra cost per elevation level gone down from it, by move class (a hex game's "elevation
    /// down", 003 L28). Hex boards only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(extend("x-cav-ref-keys" = "move_class"))]
    pub descent_cost: BTreeMap<Id, TerrainCost>,
    /// MV cost per inch (per hex entered, on a hex board) by move class id. A move class left out
    /// may not enter it.
    #[schemars(extend("x-cav-ref-keys" = "move_class"))]
    pub costs: BTreeMap<Id, TerrainCost>,
    /// `base` (the default: ground of its own, combined with other base terrain under a model as
    /// the ruleset's movement says) or `modifier` (it adds its cost to the base terrain it lies
    /// on: a hex game's forest density on scrub, snow on a road, 003 L17-28).
    #[serde(default, skip_serializing_if = "TerrainLayer::is_base")]
    pub layer: TerrainLayer,
    /// What it hides along a line of sight crossing it, wherever it does (001 L4072-4092, 003
    /// L18-41): summed over all terrain on the line — on a hex board the attacker's hex aside, on
    /// a continuous board the attacker's own piece while it stands within `adjacent_cover` of its
    /// edge; see `Obscurement`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub obscurement: Option<Obscurement>,
    /// Values the ruleset names (`terrain_values:`), by id: where a model stands, a base
    /// terrain's value (the highest of them) plus every modifier's; terrain without one leaves
    /// it out (003's "N/A": no hull down in the open).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<Id, i32>,
    /// Counts as clear/open for rules that care (infantry in the open, Ravage).
    #[serde(default)]
    pub open: bool,
    /// A road: a model whose whole move action stays on it ignores the other terrain there.
    #[serde(default)]
    pub road: bool,
    /// The terrain raises the ground it covers by `elevation` levels (hills); otherwise
    /// `elevation` is the height of the object for line of sight (woods, structures).
    #[serde(default)]
    pub raises_ground: bool,
    /// Indirect-fire attacks ignore the cover it gives a target (smoke in the full rules).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_cover_from_indirect: bool,
    /// A laser designator's beam (TAG) does not pass through it (smoke's carbon absorbs it,
    /// 001 L8389-8393): no paint across it or from or at a model inside it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocks_designators: bool,
    /// Whom it shelters when they stand in it (a trench, a fighting position): only models of
    /// these types take its cover there, at most `at_most` of them; absent: any model in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shelters: Option<Shelters>,
    /// How many models one piece holds (a bunker section: one infantry model): a move may not
    /// end in a piece already that full. Absent: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub room: Option<u32>,
    /// A structure (001 L5905-6303): its sections' damage points and armor class; a model inside
    /// adds the armor class to its AV and fires only direct.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<StructureDef>,
    /// Special attributes whose models ignore this terrain's movement penalties: they cross it at
    /// the open-ground cost and climb it for free (Superior Mobility: rough ground, light woods,
    /// one elevation level). Where their move class may not go, they still may not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub waived_by: Vec<Id>,
    /// Special attributes whose models may enter it where their move class may not, at the
    /// open-ground cost plus `extra` MV per inch (Amphibious through water); such a model is
    /// under it, and fires no weapon there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entered_with: Vec<EnteredWith>,
    /// Its movement costs by the model's size (003 L43-51, forests by vehicle size): steps by an
    /// attribute's value, the first the value is at most; each pays another terrain's costs
    /// (`as`), this one's in another move class's column (`class`), or its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_costs: Option<SizeCosts>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Cover a terrain type gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    None,
    Light,
    Heavy,
    Blocking,
}

/// A value terrain types carry (`terrain_values:` of the ruleset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainValueDef {
    pub id: Id,
    pub name: String,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Obscurement a terrain adds to a line of sight, wherever the line crosses it (whatever its
/// height and however far from both models): `points` for each piece crossed on a continuous
/// board (CAV's woods: each wood counts once, whatever its size, 001 L4086-4092), or for every
/// `per_inches` of the line inside it; on a hex board, for every `per_hexes` of its hexes on the
/// line (003's "1", "2", "1/2 hexes"). The sum along the line makes a cover type
/// (`sight.obscurement_cover`), blocks the line (`sight.obscured_at`) and is counted by the
/// `obscured` condition. Obscuring terrain makes no cover of its own type, unless that type is
/// `blocking`: then it blocks wherever crossed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Obscurement {
    #[schemars(range(min = 0, max = 100))]
    pub points: u32,
    /// Hex boards: how many of its hexes on the line give the points (absent: every hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 100))]
    pub per_hexes: Option<u32>,
    /// Continuous boards: the points for every this many inches of the line inside a piece
    /// (absent: once per piece crossed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.01, max = 1000.0))]
    pub per_inches: Option<f64>,
    /// Other points against a small target (003 L18, L23, L26: "2 obscurement for infantry and
    /// size <2 vehicles"): where the target's attribute is at most `at_most`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small_targets: Option<SmallTargets>,
}

/// The obscurement against small targets (`Obscurement::small_targets`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SmallTargets {
    /// The target's attribute (of `attributes:`) that is its size.
    pub attribute: Id,
    pub at_most: i32,
    #[schemars(range(min = 0, max = 100))]
    pub points: u32,
}

/// Movement costs by a model's size (`Terrain::size_costs`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeCosts {
    /// The model's attribute (of `attributes:`) that is its size.
    pub attribute: Id,
    /// Rising; the last may leave `at_most` out (any larger size).
    #[schemars(length(min = 1, max = 16))]
    pub steps: Vec<SizeStep>,
}

/// One step of `SizeCosts`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeStep {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i32>,
    /// The terrain whose costs a model of this size pays here (a denser or lighter forest).
    #[serde(default, rename = "as", skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub as_terrain: Option<Id>,
    /// The move class whose column it pays (a small vehicle paying as infantry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "move_class"))]
    pub class: Option<Id>,
}

/// How a terrain's cost combines with the terrain under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainLayer {
    #[default]
    Base,
    Modifier,
}

impl TerrainLayer {
    pub fn is_base(&self) -> bool {
        *self == TerrainLayer::Base
    }
}

/// Cost of moving through a terrain type: MV per inch (or per hex), a fraction of MV (`1/2`,
/// hex boards only), a bonus to overall MV, or not allowed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TerrainCost {
    PerInch(u32),
    Special(TerrainCostWord),
    Fraction(Fraction),
}

/// A fraction of MV, `numerator/denominator` (`1/2`: half a point), the denominator at most 12.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct Fraction(#[schemars(regex(pattern = r"^(0|[1-9][0-9]{0,3})/([1-9]|1[0-2])$"))] pub String);

impl Fraction {
    /// Numerator and denominator (the schema holds the shape; anything else is `None`).
    pub fn parts(&self) -> Option<(u32, u32)> {
        let (n, d) = self.0.split_once('/')?;
        let (n, d) = (n.parse().ok()?, d.parse().ok()?);
        (d > 0 && d <= 12 && n <= 9999).then_some((n, d))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainCostWord {
    /// Not allowed.
    Na,
    /// Costs 1 per inch and adds +1 to the model's overall MV (roads).
    RoadBonus,
}

/// Who takes a piece's cover standing in it (`Terrain::shelters`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shelters {
    /// The model types it shelters; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// How many of them at once: those standing nearest its centre; absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub at_most: Option<u32>,
}

/// A special attribute that lets its models enter a terrain their move class may not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnteredWith {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// MV per inch on top of the open-ground cost.
    #[schemars(range(max = 100))]
    pub extra: u32,
}

/// A move class (walker, tracked, hover, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveClass {
    pub id: Id,
    pub name: String,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}
