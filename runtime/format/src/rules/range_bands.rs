//! Range-band tables: the bands, their multiples of a weapon's range and target points.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// One range band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub id: Id,
    pub name: String,
    /// Upper limit as a multiple of the weapon's RNG.
    pub multiplier: f64,
    /// Base target point of a direct-fire combat roll; needed unless the ruleset's attack is
    /// rolled by its roll kinds (`procedures.attack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_tp: Option<u32>,
    /// Base target point of an indirect-fire strike-point roll; needed once a weapon fires
    /// indirectly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strike_point_tp: Option<u32>,
    /// Inches added to a drift roll at this band.
    #[serde(default)]
    pub drift_bonus: u32,
}

/// Range bands and their target points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBands {
    pub id: Id,
    pub name: String,
    /// Shortest first.
    pub bands: Vec<RangeBand>,
    /// Target point of the combat roll against models caught by a successful strike point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indirect_combat_tp: Option<u32>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
