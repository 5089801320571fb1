//! Game state and the procedures of play. Pure: the only inputs are the compiled [`Rules`], the
//! injected [`Dice`], the [`Controller`] that decides, and the [`Hooks`] that special attributes
//! plug into; the only output is events in a [`Sink`].
//!
//! - [`state`]: the game state and its read-only queries (what hooks and controllers see);
//! - [`engine`]: the engine (state + dice + log + hooks): the turn loop, activations, rolls;
//! - [`actions`]: one module per action a model may take, listed in [`actions::ALL`];
//! - `movement`, `combat`, `damage`: the procedures the actions share (moving, attacks, the end
//!   of an activation).

// A prelude for the procedure modules (`use super::*`).
use cav_format::vocab::{ActionKind as ActionWord, C3Use, RangedCritical, ShockTrigger};
use cav_format::{Cover, HookEffect, HookPoint, ModelTrait, ModifierTarget, Quantity, RollKind, StateDuration};

use crate::compile::{Cost, Mod, Rules, StateIx};
use crate::dice::{Dice, DiceExpr};
use crate::event::{Event, ModApplied, Roll, Sink};
use crate::geom::{P, Polygon, angle_diff};
use crate::hooks::{Effect, HookCtx, Hooks, Queued};

macro_rules! emit {
    ($self:expr, $e:expr) => {
        if $self.log.enabled() {
            $self.log.push($e);
        }
    };
}

pub mod actions;
mod activation;
mod arcs;
mod board_index;
pub mod conditions;
mod controller;
pub mod engine;
pub mod features;
pub mod flags;
mod placement;
mod queries;
mod reactions;
pub mod resume;
mod rolled_attack;
mod rolls;
mod shot;
mod sight;
pub mod state;
mod turn;
// The procedures the actions share, by part of the turn (after `emit!`, which they use).
mod area_attacks;
mod combat;
mod damage;
mod hex_movement;
mod landing;
mod melee;
pub(crate) mod movement;
mod strike_points;
pub(crate) mod victory;

pub use actions::{Action, ActionError, ActionKind};
pub(crate) use activation::TARGETED;
pub use arcs::Arc;
pub use controller::{AttackAnswer, Controller};
pub use engine::{Answer, Engine, EngineError, GameEnd};
pub use features::{Feature, missions, structures};
pub use flags::{Flag, FlagScope, FlagValue, Flags};
pub use shot::{OUT_OF_RANGE, Shooter, Shot};
pub use state::{ActingAnswer, Area, Board, Game, Lasts, Mark, Marker, Model, Pending, Squad, Systems};
pub use turn::Card;
