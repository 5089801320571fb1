//! The shape of a ruleset's board (`board:`): continuous inches, CAV's (the default), or hexes —
//! flat- or pointy-topped, of a size in inches or abstract — measured, lined and faced by hex
//! (003 L3: a hex board with hexside facing).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The board's topology.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoardRules {
    /// `continuous` (positions in inches, any facing: the default) or `hex` (positions are
    /// hexes, distances counted in hexes, facings hexsides).
    #[serde(default)]
    pub topology: Topology,
    /// Which way a hex lies: `flat` (a flat top and bottom, columns of hexes) or `pointy`
    /// (a point at the top, rows of hexes). Hex boards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orientation: Option<HexOrientation>,
    /// Inches across the flats of one hex (the distance between two neighbours' centres), for
    /// placing models and terrain given in inches and for drawing; 1 where the game's hexes are
    /// abstract. Hex boards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.01, max = 100.0))]
    pub hex_size: Option<f64>,
}

/// A board's topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    #[default]
    Continuous,
    Hex,
}

/// Which way a hex lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HexOrientation {
    Flat,
    Pointy,
}

impl BoardRules {
    pub fn is_default(&self) -> bool {
        *self == BoardRules::default()
    }
}
