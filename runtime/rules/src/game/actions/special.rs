//! The Special action (001 L2837, L5782-5792): an action a special attribute (or, later, an
//! upgrade or asset) grants; what it does is the granting rule's. Here that rule is a script's
//! `special_action` handler: the action is legal only for a model with one.

use cav_format::HookPoint;
use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};
use crate::hooks::HookCtx;

pub struct Special;

impl ActionKind for Special {
    fn id(&self) -> ActionWord {
        ActionWord::Special
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, _: usize, action: &Action) -> Result<(), String> {
        match action.target {
            Some(t) if t >= game.models.len() || !game.models[t].on_table() => Err("no such model on the table".into()),
            _ => Ok(()),
        }
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        if !engine.hooks.handles(&engine.game, model, HookPoint::SpecialAction) {
            return Err(ActionError::Illegal("no special attribute of this model grants a special action".into()));
        }
        emit!(engine, Event::SpecialAction { model, target: action.target });
        engine.call_hooks(HookCtx::new(HookPoint::SpecialAction, model).target(action.target))?;
        Ok(())
    }
}

impl Action {
    /// The Special action its special attribute grants, on `target` if it needs one.
    pub fn special(target: Option<usize>) -> Action {
        Action { target, ..Action::new(Special.name()) }
    }
}
