//! Fighting in base contact: close combat, the break action, charging in and stomping.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::vocab::*;

/// Close combat.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseCombatRules {
    /// Most models that may attack one defender in close combat; absent = no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_attackers: Option<u32>,
}

/// The break action: leaving close combat (its roll's modifiers are the `break_modifiers` table).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakRules {
    /// Target point of the break roll (the model's CCV is added to the roll).
    pub target_point: u32,
    /// Share of its MV a model that breaks away may move.
    pub move_factor: f64,
    /// MV a model that breaks away may always spend.
    pub minimum_move: u32,
}

/// Charging (infantry): after its move, the model goes on straight towards the enemy it charges
/// for up to `inches`, whatever the MV; short of contact, its activation ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeRules {
    #[schemars(range(min = 0.0, max = 100.0))]
    pub inches: f64,
}

/// Stomp (001 L5623-5629): a model of a `by` type in base contact with an enemy on its last
/// damage column destroys it with a move action — a prone one of the `prone` types, or one of the
/// `standing` types (option `stomp-targets` may drop those).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StompRules {
    pub by: Vec<ModelType>,
    pub prone: Vec<ModelType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<ModelType>,
    /// The most damage-track columns the target may have left, the one it is on included (1: only
    /// a model on its last column is stomped).
    #[schemars(range(min = 1))]
    pub columns_left: u32,
}
