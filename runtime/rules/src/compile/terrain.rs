//! Compiled terrain: movement costs by model type, cover, what it blocks, fire over structures.

use super::*;

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
pub enum Cost {
    PerInch(u32),
    RoadBonus,
    No,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct TerrainDef {
    pub id: String,
    pub name: String,
    pub cover: f::Cover,
    pub elevation: i32,
    pub raises_ground: bool,
    /// Indirect-fire attacks ignore its cover.
    pub no_cover_from_indirect: bool,
    /// A TAG's beam does not pass through it (`f::Terrain::blocks_designators`).
    pub blocks_designators: bool,
    /// Whom it shelters standing in it (`f::Terrain::shelters`).
    pub shelters: Option<f::Shelters>,
    /// How many models one piece holds (`f::Terrain::room`).
    pub room: Option<u32>,
    pub road: bool,
    pub open: bool,
    pub structure: Option<f::StructureDef>,
    /// By move-class index, in parts of one MV (`Rules::mv_parts`; whole MV where it is 1).
    pub costs: Vec<Cost>,
    pub climb: Vec<Cost>,
    /// Paid per elevation level gone down from it (hex boards).
    pub descent: Vec<Cost>,
    /// It adds its cost to the base terrain it lies on (`f::TerrainLayer::Modifier`).
    pub modifier: bool,
    /// What it hides along a line of sight (`f::Terrain::obscurement`); terrain with one counts
    /// wherever a line crosses it.
    pub obscurement: Option<ObscurementDef>,
    /// Its costs by a model's size (`f::Terrain::size_costs`).
    pub size_costs: Option<SizeCostsDef>,
    /// Its values (`f::Terrain::values`): (index in `Rules::terrain_values`, value).
    pub values: Vec<(u16, i32)>,
    /// Special attributes whose models ignore its movement penalties (open-ground cost, no climb).
    pub waived_by: Vec<SaIx>,
    /// Special attributes whose models enter it where their move class may not, with the MV per
    /// inch they pay on top of the open-ground cost (Amphibious).
    pub entered_with: Vec<(SaIx, u32)>,
}

impl TerrainDef {
    /// Whether it obscures: counts wherever a line of sight crosses it (`obscurement`).
    #[inline]
    pub fn obscures(&self) -> bool {
        self.obscurement.is_some()
    }
}

/// What a terrain hides along a line (`f::Obscurement`), its attribute resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct ObscurementDef {
    pub points: u32,
    /// Hex boards (at least 1).
    pub per_hexes: u32,
    /// Continuous boards: per this many inches inside a piece; `None`: once per piece.
    pub per_inches: Option<f64>,
    /// (Index into `Rules::attributes`, at most, points) against a target that small.
    pub small_targets: Option<(usize, i32, u32)>,
}

/// A terrain's costs by a model's size (`f::SizeCosts`), resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SizeCostsDef {
    /// Index into `Rules::attributes`.
    pub attribute: usize,
    /// (At most; `None`: any larger), the terrain (index) whose costs apply, the move class
    /// (index) whose column applies.
    pub steps: Vec<(Option<i32>, Option<usize>, Option<usize>)>,
}

/// A way of firing over low terrain next to the model (`sight.fire_over`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct FireOverDef {
    pub sa: Option<SaIx>,
    /// Weapon ids whose carriers may fire over (instead of a special attribute).
    pub weapons: Vec<String>,
    /// Terrain (indices) a model standing in fires over (instead of terrain beside it).
    pub terrain: Vec<usize>,
    pub model_types: Vec<TypeIx>,
    pub within: f64,
    pub max_elevation: i32,
    pub counts_as: Option<f::Cover>,
    /// A snapshot (`f::FireOver::snapshot`).
    pub snapshot: bool,
}
