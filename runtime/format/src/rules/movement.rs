//! Moving: terrain costs, turning, reversing and contact; the states fast or still models gain;
//! flying (nap of the earth, landing fields).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// Movement. Every number has a neutral default, so a ruleset whose models simply move their
/// move value in inches over open ground may leave the section out: any facing change free, no
/// minimum move, 1 MV per inch, combined terrain at its highest cost, contact where bases touch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Degrees of facing change free with each move action (default 360: turning is free).
    #[serde(default = "full_circle")]
    pub free_turn_degrees: f64,
    /// MV each further facing change costs.
    #[serde(default)]
    pub extra_turn_cost: u32,
    /// Inches a model may always move per move action, whatever the terrain costs.
    #[serde(default)]
    pub minimum_move: f64,
    /// A model that is down (a state lasting `until_stand_up`) stands up as its move action
    /// begins, paying this much MV, and moves on with the rest (003 L273: a fallen walker spends
    /// 1 MP to stand). Left out: it must stand up by an action of its own first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 100))]
    pub stand_up_cost: Option<u32>,
    /// MV per inch where no terrain feature lies (open ground; default 1).
    #[serde(default = "one")]
    pub open_ground_cost: u32,
    /// Combined terrain: MV per inch added to the highest cost for each further terrain type under
    /// the base (types, not areas: the levels of a stepped hill are one type).
    #[serde(default)]
    pub combined_terrain_extra: u32,
    /// MV a whole move along a road adds (terrain whose cost is `road_bonus`).
    #[serde(default)]
    pub road_bonus: u32,
    /// MV per inch along such a road; needed when some terrain's cost is `road_bonus`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub road_cost: Option<u32>,
    /// Extra MV per inch when moving backwards over open ground.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_open_cost: Option<u32>,
    /// Extra MV per inch backwards, by terrain id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reverse_cost: BTreeMap<Id, u32>,
    /// Extra MV per inch backwards through any other terrain; absent = not allowed there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_cost_other: Option<u32>,
    /// Distance that counts as base-to-base contact (inches between bases; default 0).
    #[serde(default)]
    pub contact_distance: f64,
    /// Inches, base edge to base edge, a move may not come within of an enemy model: a move
    /// closing on one stops there (default 0: up to base contact; Sythopian Wars' 2", 002 L170).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 0.0, max = 100.0))]
    pub enemy_clearance: f64,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

fn full_circle() -> f64 {
    360.0
}

fn one() -> u32 {
    1
}

impl Default for MovementRules {
    fn default() -> Self {
        MovementRules {
            free_turn_degrees: full_circle(),
            extra_turn_cost: 0,
            minimum_move: 0.0,
            stand_up_cost: None,
            open_ground_cost: one(),
            combined_terrain_extra: 0,
            road_bonus: 0,
            road_cost: None,
            reverse_open_cost: None,
            reverse_cost: BTreeMap::new(),
            reverse_cost_other: None,
            contact_distance: 0.0,
            enemy_clearance: 0.0,
        }
    }
}

/// States gained by moving fast or not at all, at the end of the model's activation (the states'
/// own `immune` lists still apply).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementStateRules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fast: Option<FastMoveState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub still: Option<StillState>,
}

/// A model that moved forward at least `inches` in one activation gains `state`; one whose model
/// type has an `any_move` trait gains it with any move.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastMoveState {
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub state: Id,
    #[schemars(range(min = 0.0, max = crate::limits::MAX_BOARD_INCHES))]
    pub inches: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_move: Vec<crate::vocab::ModelTrait>,
}

/// A model that did not move in its activation gains `state`, unless its model type has one of
/// the `except` traits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StillState {
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub state: Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<crate::vocab::ModelTrait>,
}

/// Flying (001 L3640-3692, L3734-3750): models whose type has the `flies` trait are in flight
/// unless landed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlightRules {
    /// Nap of the earth: MV per inch on top of the normal cost; the move spends the whole MV.
    pub noe_extra_cost: u32,
    /// A ground attacker may target an aircraft flying nap of the earth only when it ended its
    /// activation within this many inches (and in sight).
    pub noe_exposed_within: f64,
    /// The actions, by what they count as, that end nap of the earth as they are declared (an NoE
    /// move keeps it; an activation that does not end with one ends it too).
    pub noe_ends_with: Vec<crate::vocab::ActionKind>,
    /// Landing fields: terrain where fixed-wing aircraft may land and take off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub landing_fields: Vec<Id>,
}
