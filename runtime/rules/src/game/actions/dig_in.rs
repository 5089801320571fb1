//! Digging in (001 L4277-4285, L5359-5361): an infantry model entrenches where the terrain allows
//! (not on the ruleset's `not_on` terrain): at least the ruleset's cover against every attack in
//! sight, and no extra damage for standing in the open, until it moves. Read as the model's
//! Special action (one per activation).

use cav_format::ModelTrait;
use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game, Lasts, Mark};

/// Dug in; moving ends it.
pub static DUG_IN: Mark = Mark { name: "dug-in", lasts: Lasts::Cleared };

pub struct DigIn;

impl ActionKind for DigIn {
    fn id(&self) -> ActionWord {
        ActionWord::DigIn
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, _action: &Action) -> Result<(), String> {
        let Some((_, not_on)) = &game.rules.proc.dig_in else { return Err("this ruleset has no digging in".into()) };
        if !game.rules.has_trait(game.card(model).model_type, ModelTrait::Infantry) {
            return Err("only infantry dig in".into());
        }
        let at = game.models[model].pos;
        if let Some(a) = game.board.areas.iter().find(|a| not_on.contains(&a.terrain) && a.poly.contains(at)) {
            return Err(format!("infantry cannot dig in on {}", game.rules.terrains[a.terrain].id));
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.game.models[model].mark(&DUG_IN);
        emit!(engine, Event::SpecialAction { model, target: None });
        Ok(())
    }
}

impl Action {
    pub fn dig_in() -> Action {
        Action::new(DigIn.name())
    }
}
