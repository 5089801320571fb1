//! The infantry charge (001 L3494-3515, example L3629): a move towards an enemy (`target`); if it
//! ends short of base contact, the model runs on straight at it for up to the ruleset's
//! `charge.inches`, whatever its MV. Still short, its activation ends. Once per activation.

use cav_format::ModelTrait;
use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind, ENGAGED};
use crate::event::Event;
use crate::game::{Controller, Engine, Game, Lasts, Mark};

/// The model charged this activation.
pub static CHARGED: Mark = Mark { name: "charged", lasts: Lasts::Turn };

pub struct Charge;

impl ActionKind for Charge {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "charge"
    }
    fn repeatable(&self) -> bool {
        true
    }
    /// Into contact with its target (judged at the target's place).
    fn moves_to(&self, game: &Game, action: &Action) -> Option<crate::geom::P> {
        Some(game.models.get(action.target?)?.pos)
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if game.rules.proc.charge.is_none() {
            return Err("this ruleset has no charge".into());
        }
        if !game.rules.has_trait(game.card(model).model_type, ModelTrait::Infantry) {
            return Err("only infantry charge".into());
        }
        let me = &game.models[model];
        if me.has(&CHARGED) {
            return Err("a model charges once per activation".into());
        }
        if me.has(&ENGAGED) {
            return Err("a model in close combat must break before it moves away".into());
        }
        let t = action.target()?;
        match game.models.get(t) {
            Some(o) if o.side != me.side && o.on_table() => Ok(()),
            _ => Err("a charge needs an enemy model on the table".into()),
        }
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        engine.game.models[model].mark(&CHARGED);
        let at = engine.game.models[target].pos;
        let outer = engine.game.closing_on.replace(target);
        let moved = engine.charge_moves(model, target, at, ctrl);
        engine.game.closing_on = outer;
        moved
    }
}

impl Engine<'_, '_> {
    /// A charge's moves at `target` (standing at `at`): up to the move value, then the ruleset's
    /// charge bonus straight on; still short, the activation ends.
    fn charge_moves(
        &mut self,
        model: usize,
        target: usize,
        at: crate::geom::P,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let contact = self.rules().proc.movement.contact_distance;
        match self.movement_hook(model, None)? {
            Ok(budget) => {
                self.do_move(model, at, budget, ctrl).map_err(ActionError::Illegal)?;
            }
            Err(reason) => {
                emit!(self, Event::Forbidden { model, what: "move", reason });
                return Ok(());
            }
        }
        let g = &self.game;
        if !g.models[model].on_table() || !g.models[target].on_table() || g.distance(model, target) <= contact {
            return Ok(());
        }
        // The charge bonus: straight on, whatever the MV costs, as far as the bonus reaches.
        let bonus = self.rules().proc.charge.map_or(0.0, |c| c.inches);
        let (from, gap) = (g.models[model].pos, g.distance(model, target));
        let run = gap.min(bonus);
        let to = from + (at - from).scale(run / from.dist(at).max(1e-9));
        if run > 1e-9 {
            self.do_move(model, to, Some(u32::MAX / 4), ctrl).map_err(ActionError::Illegal)?;
        }
        if self.game.distance(model, target) > contact {
            self.game.activation_over = true;
            let reason = "the charge fell short: the activation ends".to_owned();
            emit!(self, Event::Forbidden { model, what: "charge", reason });
        }
        Ok(())
    }
}

impl Action {
    pub fn charge(target: usize) -> Action {
        Action::new(Charge.name()).on(target)
    }
}
