//! The Special action (001 L2837, L5782-5792): an action a special attribute or upgrade grants;
//! what it does is the granting rule's: a script's `special_action` handler, or switching on an
//! upgrade whose grants apply only in its state (`Upgrade::switch`). The action is legal only
//! for a model with one of them.

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
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if let Some(t) = action.target
            && (t >= game.models.len() || !game.models[t].on_table())
        {
            return Err("no such model on the table".into());
        }
        // An option must be one a special attribute of the model offers.
        if let Some(option) = &action.option {
            let sas = &game.rules.sas;
            let offered: Vec<&str> = game
                .card(model)
                .sas
                .iter()
                .flat_map(|&(sa, _)| sas[sa as usize].special_options.iter().map(String::as_str))
                .collect();
            if !offered.contains(&option.as_str()) {
                let offered = if offered.is_empty() { "none".to_owned() } else { offered.join(", ") };
                return Err(format!(
                    "no special attribute of this model offers the special action option `{option}` (offered: {offered})"
                ));
            }
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
        // (The model's own card: the one it plays as while switched on has no switches.)
        let switches: Vec<_> = engine.game.rules.cards[engine.game.models[model].card]
            .switch
            .as_ref()
            .map(|s| s.states.clone())
            .unwrap_or_default();
        if switches.is_empty() && !engine.hooks.handles(&engine.game, model, HookPoint::SpecialAction) {
            return Err(ActionError::Illegal("no special attribute of this model grants a special action".into()));
        }
        emit!(engine, Event::SpecialAction { model, target: action.target });
        for state in switches {
            if !engine.game.models[model].has_state(state) {
                engine.add_own_state(model, state)?;
            }
        }
        let ctx = HookCtx { option: action.option.clone(), ..HookCtx::new(HookPoint::SpecialAction, model) };
        engine.call_hooks(ctx.target(action.target))?;
        Ok(())
    }
}

impl Action {
    /// The Special action its special attribute grants, on `target` if it needs one.
    pub fn special(target: Option<usize>) -> Action {
        Action { target, ..Action::new(Special.name()) }
    }
}
