//! Running scenario tests (`kind: test` documents): set up a board, force the dice and the
//! actions, and compare what happened with what the test expects.
//!
//! A test's steps become activations of [`Engine::activate`] (consecutive actions of one model),
//! turn boundaries ([`Engine::end_turn`], [`Engine::begin_turn`]) and checks of the state. The
//! [`Scripted`] controller hands the engine each action when asked, checks the action points the
//! engine says are left, makes the checks due between two actions, and makes the player's choices
//! the test gives (reactions, over-watch, strike-point relocation, declined special attributes).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use cav_format::{EventField, EventKind, Id, Test, TestChoices, TestModelState, TestStep};
use serde_json::Value;

use crate::compile::{Fitting, Rules};
use crate::dice::ForcedDice;
use crate::event::Event;
use crate::game::actions::{ENGAGED, OVERWATCH};
use crate::game::{Action, Area, Board, Controller, Engine, Game, actions};
use crate::geom::{P, Polygon, angle_diff};
use crate::hooks::{Hooks, NoHooks};

mod events;
mod models;
mod scripted;
mod setup;
mod steps;
#[cfg(test)]
mod tests;

pub use events::failure_pointer;
use events::*;
use models::*;
use scripted::*;
pub(crate) use setup::setup;
use setup::*;
use steps::*;

/// `do: end` closes an activation early.
pub const END: &str = "end";
/// `do: next-turn` ends the turn and starts the next.
pub const NEXT_TURN: &str = "next-turn";
/// `do: play-turn` ends the turn, then plays the next one as a game does: the draw deck shuffled
/// with the test's dice (one die per card after the first), each card drawn activating its side's
/// next model, which passes; then the turn after starts.
pub const PLAY_TURN: &str = "play-turn";
/// `do: squad-activation` (with `squad:`) begins a squad's activation.
pub const SQUAD_ACTIVATION: &str = "squad-activation";
/// `do: end-squad-activation` ends it: what its models' attacks did lands.
pub const END_SQUAD_ACTIVATION: &str = "end-squad-activation";

/// How close an over-watch `at:` point must be to the mover (the engine offers the chance every
/// half inch).
const OVERWATCH_AT: f64 = 0.25 + 1e-6;
/// Numbers in expected events match to this (events round distances to two decimals).
const EVENT_NUMBER: f64 = 0.005 + 1e-9;

/// The result of one test.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    pub id: String,
    pub name: String,
    pub failures: Vec<String>,
    pub events: Vec<Event>,
}

impl TestOutcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

pub fn run_test(rules: &Rules, t: &Test) -> TestOutcome {
    run_test_with(rules, t, &mut NoHooks)
}

pub fn run_test_with(rules: &Rules, t: &Test, hooks: &mut dyn Hooks) -> TestOutcome {
    let mut out = TestOutcome { id: t.id.0.clone(), name: t.name.clone(), failures: Vec::new(), events: Vec::new() };
    // Models with upgrades play fitted cards, added to a copy of the rules for this test.
    let fitted;
    let rules = if t.models.iter().any(|m| !m.upgrades.is_empty()) {
        let mut own = rules.clone();
        for m in &t.models {
            if let Err(e) = fitted_card(&mut own, m) {
                // As with set-up, a test may expect the fitting refused.
                if !t.expect.error.as_ref().is_some_and(|want| e.contains(want.as_str())) {
                    out.failures.push(e);
                }
                return out;
            }
        }
        fitted = own;
        &fitted
    } else {
        rules
    };
    match setup(rules, t) {
        Ok((game, ids)) => play(t, game, &ids, hooks, &mut out),
        // A test may expect its own set-up to be refused (bad input must give a clear error).
        Err(e) => match &t.expect.error {
            Some(want) if e.contains(want.as_str()) => {}
            _ => out.failures.push(e),
        },
    }
    out
}
