//! The scenario document: board, deployment zones and methods, fixed forces and placed terrain.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

use super::{Objectives, VictoryKind};

/// A rectangle on the board in inches, from the bottom-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A side's deployment zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    pub side: Id,
    pub zone: Rect,
    /// Share of the threat value pool this side gets, in percent.
    #[serde(default = "hundred")]
    pub tv_percent: u32,
    /// At least a share of the side's models start inside an area (half the defenders on the hill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<AreaShare>,
    /// How the side's squads come onto the table (001 L2606-2664).
    #[serde(default, skip_serializing_if = "DeploymentMethod::is_standard")]
    pub method: DeploymentMethod,
}

/// How a side deploys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeploymentMethod {
    /// Placed in the zone before the first turn.
    #[default]
    Standard,
    /// Each squad enters across the zone's table edge when it first activates, its first action a
    /// move.
    Rolling,
    /// As rolling, from this turn on; its squads have no draw-deck cards before.
    Delayed(#[schemars(range(min = 1, max = crate::limits::MAX_TURNS))] u32),
}

impl DeploymentMethod {
    pub fn is_standard(&self) -> bool {
        *self == DeploymentMethod::Standard
    }
    /// The turn the side's squads enter, for the methods that bring them on during play.
    pub fn enters(&self) -> Option<u32> {
        match self {
            DeploymentMethod::Standard => None,
            DeploymentMethod::Rolling => Some(1),
            DeploymentMethod::Delayed(t) => Some(*t),
        }
    }
}

/// A share of a side's models that deploy inside an area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AreaShare {
    pub area: BoardArea,
    /// Percent of the side's models, rounded up.
    #[schemars(range(max = 100))]
    pub percent: u32,
}

fn hundred() -> u32 {
    100
}

/// A model placed by the scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForcePlacement {
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    /// Where; omitted = the side deploys it in its zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    /// Hex boards: the hex it stands in, `[column, row]` (instead of `at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<[i32; 2]>,
    /// Facing in degrees, 0 = towards +y.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    /// The unit it serves in: the side's models naming one unit form it (a squad, activated
    /// together where the ruleset activates per squad). Left out: a unit of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 100))]
    pub unit: Option<String>,
}

/// A terrain feature a scenario places: a circle of the terrain type (`at` and `radius`), or on
/// a hex board the hexes it fills (`hexes`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacedTerrain {
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// Centre on the board, inches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.5, max = crate::limits::MAX_BOARD_INCHES))]
    pub radius: Option<f64>,
    /// Hex boards: the hexes it fills, each `[column, row]` as `cav map` labels them. Terrain of
    /// several documents in one hex stacks (a base and its modifiers).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = crate::limits::MAX_PLACED_HEXES))]
    pub hexes: Vec<[i32; 2]>,
}

/// An area of the board: a rectangle, or a circle around a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum BoardArea {
    Rect(Rect),
    Circle { at: [f64; 2], radius: f64 },
}

/// One side of a scenario's board in inches: more than 0, at most 1000 (`MAX_BOARD_INCHES`).
#[derive(JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)] // schema only
struct BoardSide(#[schemars(range(max = crate::limits::MAX_BOARD_INCHES), extend("exclusiveMinimum" = 0))] f64);

/// A scenario: forces, deployment, terrain and victory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: Id,
    pub name: String,
    /// Board width and depth in inches, each more than 0 and at most 1000 (`MAX_BOARD_INCHES`).
    #[schemars(with = "[BoardSide; 2]")]
    pub board: [f64; 2],
    pub deployment: Vec<Deployment>,
    /// Forces fixed by the scenario, by side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub forces: BTreeMap<Id, Vec<ForcePlacement>>,
    /// Number of terrain features each side places (dice expression) from the random-terrain table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_features: Option<String>,
    /// Agreed turn limit, if the scenario has one (at most `MAX_TURNS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::limits::MAX_TURNS))]
    pub turn_limit: Option<u32>,
    /// A game length rolled at the start instead (dice expression, `3d3`), kept from the players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_dice: Option<String>,
    pub victory: VictoryKind,
    /// Terrain the scenario sets on the board before any random feature (a central hill).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<PlacedTerrain>,
    /// The areas the victory kind scores: `objective_points` gives points each turn to the side
    /// controlling more of them, `hold_objective` asks whether the holder still stands in them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<Objectives>,
    /// Special rules in our words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<String>,
    /// The rules this scenario plays beyond its ruleset's: special attributes with `applies_to:
    /// scenario` (weather, a special rule as a script), played as rules of the whole game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 16))]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub rules: Vec<Id>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
