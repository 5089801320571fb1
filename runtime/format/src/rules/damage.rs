//! Damage and its end: pilot checks, wrecks, damage to dispersed infantry, mission kills, out of
//! action; and the repair roll.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// Damage, pilot checks and destruction. A ruleset whose models have no pilots, go prone by no
/// state and leave no wrecks may leave the section out.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageRules {
    /// Target point of a pilot check; absent = the card's EXP value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_check_tp: Option<u32>,
    /// Damage points taken on a critical failure of a pilot check.
    #[serde(default)]
    pub pilot_fumble_damage: u32,
    /// State applied by a failed pilot check; needed when a model type has `pilot-checks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_fail_state: Option<Id>,
    /// State a model that goes prone gains; absent: nobody may go prone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prone_state: Option<Id>,
    /// Terrain type a destroyed model leaves behind; needed when a model type has `leaves-wreck`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wreck_terrain: Option<Id>,
    /// Smallest radius of a wreck (inches); otherwise the model's base.
    #[serde(default)]
    pub wreck_minimum_radius: f64,
    /// Damage a model with the `dispersed` trait takes from each successful attack, whatever
    /// the damage table's row; absent: such models read the table like any other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispersed: Option<DispersedDamage>,
    /// Which models are mission kills and where they withdraw; absent: no model is.
    #[serde(default)]
    pub mission_kill: MissionKillRules,
    /// Which models damaged past their last column stay on the table out of action instead of
    /// being destroyed; absent: every such model is destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_action: Option<OutOfActionRules>,
    /// Damage to a model of a unit (squad) is the unit's, shared out among its models; absent:
    /// each hit damages the model it hits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit_pool: Option<UnitDamagePool>,
}

/// A unit's damage pool (Sythopian Wars, 002 L286-294): the damage of a hit on any of its models
/// goes to its models in the order `allocation` gives, each taking what destroys it before the
/// next takes any.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitDamagePool {
    pub allocation: Allocation,
    /// Only models the attacker sees take damage; what is left when none is, is lost.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_sight_only: bool,
    /// Points too few to slay a whole model (Sythopian Wars' stunned models and sustained damage,
    /// 002 L286-308); left out: they land on the next model's damage track.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leftover: Option<Leftover>,
}

/// What a unit's leftover damage does, once an activation's hits on it are summed and whole
/// models slain in the pool's order: one model gains `state` (the next in the order not in it
/// yet), and the points stay on the unit as held damage. Held damage reaching a model's hit
/// points removes a model — one in `state` first — and that many points with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leftover {
    /// The state a model gains (`stunned`): what it forbids is the state's own data.
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub state: Id,
    /// A test each model in `state` makes as its unit activates, before any action; left out: a
    /// model stays in the state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Recovery>,
}

/// The test of a model in a unit's leftover state as the unit activates (002 L296-300).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Recovery {
    /// The roll kind of the test (`roll_kinds:`).
    pub roll: Id,
    /// The model's attribute the roll is judged against (`attributes:`).
    pub attribute: Id,
    /// What each success does: take a point of held damage off the unit (bringing the model back
    /// once none is held), or bring the tested model back.
    pub success: RecoverySuccess,
}

/// What a recovery test's success does first (`Recovery::success`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecoverySuccess {
    /// A point of held damage comes off the unit; with none left, the tested model leaves the state.
    HeldPoint,
    /// The tested model leaves the state; the unit keeps its held damage.
    Model,
}

/// The order a unit's models take its damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Allocation {
    /// The model closest to the attacker first (centre to centre; the first deployed on a tie).
    ClosestToAttacker,
}

/// Out of action (the full rules, 001 L5365-5380): a model damaged past its last column stays on
/// the table — in the way of other models, a target still — but takes no further part: it never
/// activates or reacts, holds nothing and counts for its side no more. Any further damage
/// destroys it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutOfActionRules {
    /// Model types that go out of action; the others are destroyed.
    pub model_types: Vec<ModelType>,
    /// A model undamaged before the damage that takes it past its last column is destroyed
    /// outright (all its damage tracks lost at once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undamaged_destroyed: bool,
    /// A model in flight is destroyed outright.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_flight_destroyed: bool,
}

/// Mission kills: models that must leave the table, checked at the end of every activation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissionKillRules {
    /// A model that can never make a combat action again (no usable weapon, disabled).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cannot_fight: bool,
    /// A model in the last column of its damage track.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_column: bool,
    /// Model types with any of these traits are never mission kills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<crate::vocab::ModelTrait>,
    /// Where it goes: off the nearest board edge, or off its own deployment zone's edge.
    #[serde(default)]
    pub withdraw_to: WithdrawTo,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawTo {
    #[default]
    NearestEdge,
    OwnEdge,
}

/// The damage a `dispersed` model (infantry) takes from a successful attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DispersedDamage {
    /// Damage points per successful attack.
    pub per_hit: u32,
    /// Further points when it stands in open terrain (terrain marked `open`, or none).
    pub in_open: u32,
}

/// The repair roll.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepairRules {
    /// Target point of the repair roll (the card's DC is added to the roll).
    pub target_point: u32,
    /// Damage points a successful repair removes.
    pub restores: u32,
    /// Damage points repaired on a critical success.
    pub critical_restores: u32,
    /// Damage points taken on a critical failure.
    pub fumble_damage: u32,
    /// Damage points that stay after any repair (the model never returns to column 0).
    pub lingering_damage: u32,
}
