//! Run 'n gun (001 L5204-5230): two move actions at reduced MV and one assault — direct fire, or
//! indirect whose strike-point roll suffers instead — whose rolls suffer per weapon fired. The
//! attack is made at the end of the move, or from a point of it (`via`), after which the model
//! completes its move (001 L7063-7068): counter-battery fire at its firing place then lands once
//! it has moved on, unless the answering model is on over-watch.

use super::{Action, ActionError, ActionKind, ENGAGED, ON_PATH};
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
    fn moves_to(&self, _: &Game, action: &Action) -> Option<P> {
        action.to
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.rules.proc.run_n_gun.is_none() {
            return Err("this ruleset has no run 'n gun".into());
        }
        if game.models[model].has(&ENGAGED) {
            return Err("a model in close combat must break before it moves away".into());
        }
        let to = action.to()?;
        if let Some(via) = action.via {
            super::firing_point_refusal(game, model, via, to).map_err(|why| format!("run 'n gun: {why}"))?;
        }
        super::combat::one_fire_mode(game, model, action)?;
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
        // The ruleset's move actions' worth of reduced MV, to the firing point; the assault; then
        // the rest of the move.
        let via = action.via.unwrap_or(to);
        let (budget, spent) = match engine.movement_hook(model, Some(per_move * rule.moves))? {
            Ok(budget) => (budget, engine.do_move(model, via, budget, ctrl).map_err(ActionError::Illegal)?),
            Err(reason) => {
                emit!(engine, Event::Forbidden { model, what: "move", reason });
                (Some(0), 0)
            }
        };
        let card = engine.cardr(model);
        let count: u32 = action.weapons.iter().filter_map(|&weapon| card.weapons.get(weapon)).map(|m| m.quantity).sum();
        // Move left only when it fired from a point of its path (without one it fired at the end).
        let moves_on = action.via.is_some() && engine.game.models[model].pos.dist(to) > ON_PATH;
        engine.game.counter_battery_waits = moves_on;
        let fired = engine.fire(model, target, &action.weapons, &[], action.indirect, count as i32, ctrl);
        engine.game.counter_battery_waits = false;
        if let Err(e) = fired {
            engine.game.counter_battery_pending.clear();
            return Err(e);
        }
        let g = &engine.game;
        let left = budget.unwrap_or_else(|| g.move_value(model)).saturating_sub(spent);
        let moved = if moves_on && g.models[model].on_table() && left > 0 {
            engine.do_move(model, to, Some(left), ctrl).map(|_| ()).map_err(ActionError::Illegal)
        } else {
            Ok(())
        };
        // What answered lands once the move is over (or stopped), whatever stopped it.
        engine.counter_battery_lands(model)?;
        moved
    }
}

impl Action {
    pub fn run_n_gun(to: P, target: usize, weapons: Vec<usize>) -> Action {
        Action::new(RunNGun.name()).at(to).on(target).with(weapons)
    }
}
