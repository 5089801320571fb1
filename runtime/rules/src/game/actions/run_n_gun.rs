//! Run 'n gun (001 L5204-5230): two move actions at reduced MV and one direct-fire assault whose
//! rolls suffer per weapon fired.

use super::{Action, ActionError, ActionKind, ENGAGED};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};
use crate::geom::P;
use cav_format::vocab::ActionKind as ActionWord;

pub struct RunNGun;

impl ActionKind for RunNGun {
    fn id(&self) -> ActionWord {
        ActionWord::RunNGun
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.rules.proc.run_n_gun.is_none() {
            return Err("this ruleset has no run 'n gun".into());
        }
        if game.models[model].has(&ENGAGED) {
            return Err("a model in close combat must break before it moves away".into());
        }
        action.to()?;
        action.target().map(|_| ())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let (to, target) = (action.to(), action.target());
        let (Ok(to), Ok(target), Some(rule)) = (to, target, &engine.rules().proc.run_n_gun) else {
            return Err(ActionError::Illegal("run 'n gun needs a point, a target and the ruleset's numbers".into()));
        };
        let mv = engine.game.move_value(model);
        let per_move = mv.saturating_sub(if mv <= rule.low_mv { rule.low_mv_penalty } else { rule.mv_penalty });
        // The ruleset's move actions' worth of reduced MV, then the assault.
        match engine.movement_hook(model, Some(per_move * rule.moves))? {
            Ok(budget) => {
                engine.do_move(model, to, budget, ctrl).map_err(ActionError::Illegal)?;
            }
            Err(reason) => emit!(engine, Event::Forbidden { model, what: "move", reason }),
        }
        let card = engine.cardr(model);
        let count: u32 = action.weapons.iter().filter_map(|&weapon| card.weapons.get(weapon)).map(|m| m.quantity).sum();
        engine.fire(model, target, &action.weapons, &[], false, count as i32, ctrl)
    }
}

impl Action {
    pub fn run_n_gun(to: P, target: usize, weapons: Vec<usize>) -> Action {
        Action::new(RunNGun.name()).at(to).on(target).with(weapons)
    }
}
