//! Move and shoot (001 L5109-5121, 000 L788-798): a move and a combat action for the price of
//! both, the attack made from a point of the path. The engine moves in straight lines, so the
//! firing point (`via`) lies on the line to the declared end point (`to`); the model stops there,
//! attacks, then goes on with what is left of the move — less, or none, if its move value has
//! dropped meanwhile (damage normally lands at the end of the activation, so only what applies at
//! once, a hook's or a state's, can shorten it).

use super::{Action, ActionError, ActionKind, ENGAGED, ON_PATH};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};
use crate::geom::P;
use cav_format::vocab::ActionKind as ActionWord;

pub struct MoveAndShoot;

impl ActionKind for MoveAndShoot {
    fn id(&self) -> ActionWord {
        ActionWord::MoveAndShoot
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn splits(&self) -> bool {
        true
    }
    fn moves_to(&self, _: &Game, action: &Action) -> Option<P> {
        action.to
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.models[model].has(&ENGAGED) {
            return Err("a model in close combat must break before it moves away".into());
        }
        let to = action.to()?;
        action.target()?;
        super::firing_point_refusal(game, model, action.via.unwrap_or(to), to)
            .map_err(|why| format!("move and shoot: {why}"))?;
        super::combat::one_fire_mode(game, model, action)
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let to = action.to().map_err(ActionError::Illegal)?;
        let target = action.target().map_err(ActionError::Illegal)?;
        let via = action.via.unwrap_or(to);
        let (budget, spent) = match engine.movement_hook(model, None)? {
            Ok(budget) => (budget, engine.do_move(model, via, budget, ctrl).map_err(ActionError::Illegal)?),
            Err(reason) => {
                emit!(engine, Event::Forbidden { model, what: "move", reason });
                (Some(0), 0)
            }
        };
        engine.fire(model, target, &action.weapons, &action.split, action.indirect, 0, ctrl)?;
        let g = &engine.game;
        let left = budget.unwrap_or_else(|| g.move_value(model)).saturating_sub(spent);
        if g.models[model].on_table() && left > 0 && g.models[model].pos.dist(to) > ON_PATH {
            engine.do_move(model, to, Some(left), ctrl).map_err(ActionError::Illegal)?;
        }
        Ok(())
    }
}

impl Action {
    /// Move towards `to`, attacking `target` with these weapon mounts from `via` on the way.
    pub fn move_and_shoot(via: P, to: P, target: usize, weapons: Vec<usize>) -> Action {
        Action { via: Some(via), ..Action::new(MoveAndShoot.name()).at(to).on(target).with(weapons) }
    }
}
