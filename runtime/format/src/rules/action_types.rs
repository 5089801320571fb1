//! Action types: what each action costs and who may take it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// How often an action type may be taken in one activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionCategory {
    Free,
    Repeatable,
    NonRepeatable,
}

/// An action type of the action types table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionType {
    /// The engine's action word (docs/vocabulary.md), or with `does:` the ruleset's own word.
    pub id: Id,
    pub name: String,
    /// The engine's action this one is a kind of, when the ruleset names an action of its own
    /// (Sythopian Wars' RUN is a `move`, DEFEND a `hold`): its `id` is then the ruleset's word,
    /// which scenario tests use (`do: run`), and its cost, slots and model types are its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub does: Option<ActionKind>,
    /// A move of this type goes this many times the model's move value (RUN: 2, 002 L132).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 10.0))]
    pub move_times: Option<f64>,
    /// A move of this type stops at the edge of terrain that gives cover: it may not enter it
    /// (RUN, 002 L132).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub avoids_cover: bool,
    /// A model state (of `model_state` documents) the model gains as the action resolves
    /// (DEFEND's +1 Resolve against shooting, 002 L262-264, read by a modifier row's
    /// `defender-<state>` condition).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub gives: Option<Id>,
    /// The hit rolls of its attacks under `procedures.attack`, as a sum of terms, instead of the
    /// attack's `rolls` (SNAP FIRE's one die whatever the weapon's RoF, 002 L148).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub attack_rolls: Vec<super::Term>,
    /// With `does: move`: a charge — a move aimed at an enemy model (a test step's `target`)
    /// into contact with it, as the engine's charge (`procedures.charge`), closing past the
    /// `movement.enemy_clearance` kept from the target's unit (Sythopian Wars, 002 L374-388).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub charges: bool,
    /// Each model taking it makes the unit pool's recovery test (`procedures.damage.unit_pool.
    /// leftover.recovery`) with its own attribute; a success takes a point of held damage off the
    /// unit or brings back a model of the unit in the leftover state, as the test's `success`
    /// says (Sythopian Wars' RALLY, a Resolve test per model not stunned, 002 L302-306).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recovers: bool,
    /// While every model of the unit on the table touches its side's table edge (the board edge
    /// nearest its deployment zone), the unit's slain models return, each placed within the
    /// unit's coherency distance of a model of it (RALLY's other choice, 002 L308). Needs the
    /// game's deployment zones.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub returns_slain: bool,
    /// A unit an enemy aimed an action at this turn (its declaration named a model of the unit)
    /// may not take it (RALLY, 002 L302).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub not_if_targeted: bool,
    /// Taken only where the terrain the model stands in has this value (`terrain_values:`):
    /// a hull-down position where the terrain allows one (003 L69).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needs_terrain_value: Option<Id>,
    pub category: ActionCategory,
    /// Action points it costs.
    pub cost: u32,
    /// Special attributes whose models take it for 0 AP (Locked-On's free target-lock); a
    /// non-repeatable action is still taken once per activation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub free_with: Vec<Id>,
    /// Model types that may take it; empty = all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// Upgrades that open it to a model of any type (Medic's repair for infantry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    pub open_with: Vec<Id>,
    /// The action slots of the ruleset (`action_slots`) it uses: a unit that used one this turn
    /// takes no action needing it again before the next turn (Sythopian Wars' action tracker,
    /// 002 L124).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub uses: Vec<Id>,
    /// It uses any one slot still free: the first, in the ruleset's order, its `uses` leave
    /// (002 L126, a Move that takes whichever action the unit has left).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub uses_any_slot: bool,
    /// Model types it may be aimed at, for an action aimed at a model (a target-lock); empty = all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_model_types: Vec<ModelType>,
    /// The models of a unit taking it in one activation of the unit all aim at the unit the
    /// first of them declared (Sythopian Wars' SHOOT, 002 L192, L200): another is refused.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_target_per_unit: bool,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
