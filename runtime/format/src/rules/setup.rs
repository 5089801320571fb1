//! Setting up a game: terrain feature size, the pre-game move, ambush and orbital drop.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// Setting up a game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupRules {
    /// Terrain features placed by the random-terrain table are circles of this diameter
    /// (inches); needed only by a ruleset with that table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_feature_size: Option<f64>,
    /// After deployment, models with one of these tasks may each make one move action before the
    /// first turn (the Recon pre-game move, 001 L2650-2656).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pre_game_move: Vec<crate::Task>,
    /// Models with this special attribute may be held back at deployment and placed as they
    /// activate (Ambush).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambush: Option<AmbushRules>,
    /// Models fitted with this upgrade stay off the table at set-up and drop in as they activate
    /// (the Orbital Drop Strike Team).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orbital_drop: Option<OrbitalDropRules>,
}

/// An orbital drop (`setup.orbital_drop`): a model with the `upgrade`, held back, names a
/// landing zone as it activates, not within `enemy_within` inches of an enemy; it drifts from
/// there (the ruleset's drift dice, no range band's extra inches) and lands, which costs it
/// `cost` AP of that activation. A model landing on another's base is set beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrbitalDropRules {
    pub upgrade: Id,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub enemy_within: f64,
    pub cost: u32,
}

/// Where a model held back in ambush may be placed (`setup.ambush`): not in the opponent's half
/// of the board (the half nearer its deployment zone), not within `enemy_within` inches of an
/// enemy, nor within `recon_within` of an enemy of one of the `recon` tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmbushRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub enemy_within: f64,
    pub recon_within: f64,
    pub recon: Vec<crate::Task>,
    /// Pieces whose setting-down an ambushing model of the listed types may delay: held back
    /// with it, one is set down under the model when it is placed (001 L6537-6557).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<AmbushPiece>,
}

/// A piece an ambushing model may bring with it (`AmbushRules::pieces`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmbushPiece {
    /// The asset (a pre-deployment piece with a footprint).
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub asset: Id,
    /// The model types that may bring it.
    pub model_types: Vec<ModelType>,
}

/// Playing on a smaller table than the scenarios' (option `table-size: small`): every move value
/// and weapon range (minimum ranges too) is scaled, and rounded as the ruleset says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SmallTableRules {
    /// What move values and ranges are multiplied by (0.5: halved).
    #[schemars(range(min = 0.01, max = 100.0))]
    pub scale: f64,
    pub rounding: Rounding,
}

/// How a scaled value is brought back to a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    Up,
    Down,
    Nearest,
}

impl Rounding {
    pub fn apply(self, x: f64) -> f64 {
        match self {
            Rounding::Up => x.ceil(),
            Rounding::Down => x.floor(),
            Rounding::Nearest => x.round(),
        }
    }
}
