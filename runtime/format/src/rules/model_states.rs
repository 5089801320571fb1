//! Model states (Suppressed, Stunned, Knockdown, …): how long they last and what they do.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// How long a model state lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StateDuration {
    /// Until the end of the model's next activation.
    NextActivation,
    /// Until the start of the model's next activation.
    UntilNextActivation,
    /// For a number of the model's activations (`activations`).
    Activations,
    /// Until the end of the turn it was gained in.
    UntilEndOfTurn,
    /// For a number of turns (`turns`), the one it was gained in counted: it ends at the end of
    /// the last.
    Turns,
    /// Until repaired.
    UntilRepaired,
    /// Until the model stands up (a move action).
    UntilStandUp,
    /// Until the model moves.
    UntilMoves,
    /// For the rest of the game.
    Permanent,
}

/// A model state (Suppressed, Stunned, Knockdown, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelState {
    pub id: Id,
    pub name: String,
    /// How a game's narrative says a model enters the state, in the book's words (`is knocked
    /// down`); left out: `is <name>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrative: Option<String>,
    pub duration: StateDuration,
    /// Named groups the state belongs to (`disrupted`): the `attacker-in-<group>` condition holds
    /// for a roller in any state of the group, once however many it has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Id>,
    /// `duration: activations` only: how many of the model's activations (1 if left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub activations: Option<u32>,
    /// `duration: turns` only: how many turns, the one it is gained in counted (1 if left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub turns: Option<u32>,
    /// Modifier to the model's own rolls while in this state, in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_roll_modifier: Option<i32>,
    /// Modifier to rolls attacking the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_modifier: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_value: Option<i32>,
    /// Action points gained (+) or lost (−) at the start of each of the model's activations while
    /// the state lasts (an ion disruptor's lost action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -10, max = 10))]
    pub action_points: Option<i32>,
    /// No actions at all during its next activation.
    #[serde(default)]
    pub no_actions: bool,
    /// No combat actions while the state lasts.
    #[serde(default)]
    pub no_combat: bool,
    /// Cannot move at all.
    #[serde(default)]
    pub no_move: bool,
    /// Cannot move closer to any enemy.
    #[serde(default)]
    pub no_advance: bool,
    /// Actions the model may not take while in it (Experimental Nano-Tech burnt out: `repair`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbids: Vec<crate::vocab::ActionKind>,
    /// Painted by a TAG: weapons that need a target-lock may engage the model without one, and
    /// the `tagged` condition holds against it. The `tag` action gives the first such state.
    #[serde(default)]
    pub painted: bool,
    /// States this one replaces while it lasts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub supersedes: Vec<Id>,
    /// Model types that cannot receive the state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immune: Vec<ModelType>,
    /// Terrain the model lays behind it while in the state (a smoke generator's line): each
    /// action that moves it leaves a strip this wide along the way it moved, from the back of its
    /// base, as long as the inches moved, lasting as `lasts` says (rolled once per action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trail: Option<Trail>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Terrain a model lays as it moves (`ModelState::trail`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trail {
    /// The terrain type laid (`smoke`).
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// The strip's width in inches.
    #[schemars(range(min = 0.0, max = 100.0))]
    pub width: f64,
    /// How long each strip stays, rolled when it is laid.
    pub lasts: crate::catalog::Lasting,
}
