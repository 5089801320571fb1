//! The TAG's Special action (001 L8528-8560): a model with a TAG laser designator (`CardDef::tag`)
//! paints an enemy in its line of sight within the TAG's reach; the enemy gains the ruleset's
//! painted state, and every model of the side may then engage it with weapons that need a
//! target-lock (`Game::painted`). (A TAG used within a combat action needs no action: the
//! attacker's own weapons see the paint.)

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};

pub struct Tag;

/// The ruleset's painted state: the first with `painted`.
fn painted_state(game: &Game) -> Option<usize> {
    game.rules.states.iter().position(|s| s.painted)
}

impl ActionKind for Tag {
    fn id(&self) -> ActionWord {
        ActionWord::Tag
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        let target = action.target()?;
        let Some(reach) = game.card(model).tag else { return Err("the model carries no TAG".into()) };
        if painted_state(game).is_none() {
            return Err("the ruleset has no painted state (`painted: true`)".into());
        }
        if target >= game.models.len() || !game.models[target].on_table() {
            return Err("no such model on the table".into());
        }
        if game.models[target].side == game.models[model].side {
            return Err("a TAG paints enemies".into());
        }
        if game.range(model, target) > reach {
            return Err(format!("beyond the TAG's reach of {reach}\""));
        }
        if !game.sight(model, target, false).0 {
            return Err("a TAG needs a line of sight".into());
        }
        if !game.designator_line(model, target) {
            return Err("the smoke (or other terrain that stops a laser designator) blocks the TAG's beam".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        let Some(state) = painted_state(&engine.game) else {
            return Err(ActionError::Illegal("the ruleset has no painted state".into()));
        };
        emit!(engine, Event::SpecialAction { model, target: Some(target) });
        // A targeting attempt, as a target-lock is: counter-measures may block it.
        if !engine.targeting_attempt(model, target, "tag")? {
            return Ok(());
        }
        engine.add_state(target, state as crate::compile::StateIx)?;
        Ok(())
    }
}

impl Action {
    /// Paint `target` with the model's TAG for its side.
    pub fn tag(target: usize) -> Action {
        Action::new(Tag.name()).on(target)
    }
}
