//! Break (000 L891-903): leave close combat — a roll, then part of the MV away.

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{ModifierTarget, RollKind};

use super::{Action, ActionError, ActionKind, ENGAGED};
use crate::event::ModApplied;
use crate::game::engine::Situation;
use crate::game::{Controller, Engine, Game, Lasts, Mark};
use crate::geom::P;

/// Failed a break this turn: −1 in close combat (the `failed-break` condition) until the turn ends.
pub static FAILED_BREAK: Mark = Mark { name: "failed-break", lasts: Lasts::Turn };

pub struct Break;

impl ActionKind for Break {
    fn id(&self) -> ActionWord {
        ActionWord::Break
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn moves_to(&self, _: &Game, action: &Action) -> Option<P> {
        action.to
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        if !game.models[model].has(&ENGAGED) {
            return Err("the model is not in close combat".into());
        }
        action.to().map(|_| ())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let to = action.to().map_err(ActionError::Illegal)?;
        engine.break_away(model, to, ctrl)
    }
}

impl Action {
    /// Break away towards `to`.
    pub fn break_to(to: P) -> Action {
        Action::new(Break.name()).at(to)
    }
}

impl Engine<'_, '_> {
    /// Break: a roll with the CCV and the break table (models still in contact); success
    /// moves the model away with part of its MV, failure leaves it in place (−1 in close combat).
    pub(crate) fn break_away(&mut self, model: usize, to: P, ctrl: &mut dyn Controller) -> Result<(), ActionError> {
        let r = self.rules();
        let Some(rule) = &r.proc.break_away else {
            return Err(ActionError::Illegal("this ruleset has no break action".into()));
        };
        let tp = rule.target_point as i32;
        let contact = r.proc.movement.contact_distance;
        let side = self.game.models[model].side;
        let touching: Vec<usize> = (0..self.game.models.len())
            .filter(|&i| i != model && self.game.models[i].on_table() && self.game.distance(i, model) <= contact)
            .collect();
        let enemies: Vec<usize> = touching.iter().copied().filter(|&i| self.game.models[i].side != side).collect();
        let ccv = enemies.first().map_or(0, |&e| {
            let (h, s) = self.cardr(model).ccv[self.game.column(model)];
            let ec = self.cardr(e);
            (if ec.soft && !ec.hard { s } else { h }).map_or(0, i32::from)
        });
        let s = Situation { attacker: model, ..Situation::default() };
        // The break table: models still in contact (`friends-in-contact`, `enemies-in-contact`).
        let mut mods = self.modifiers(&r.break_mods, ModifierTarget::CombatRoll, &s, true);
        mods.insert(0, ModApplied { source: "close-combat value".into(), value: ccv, charge: None });
        let out = self.roll(model, "break", r.standard, mods, Some(tp), None, self.ten_plus(RollKind::BreakRoll));
        if !out.success {
            self.game.models[model].mark(&FAILED_BREAK);
            return Ok(());
        }
        self.game.models[model].unmark(&ENGAGED);
        let budget = (f64::from(self.game.move_value(model)) * rule.move_factor).floor() as u32;
        self.do_move(model, to, Some(budget.max(rule.minimum_move)), ctrl).map_err(ActionError::Illegal)?;
        // Enemies left alone are no longer held either.
        for e in enemies {
            let still = (0..self.game.models.len()).any(|i| {
                self.game.models[i].side != self.game.models[e].side
                    && self.game.models[i].on_table()
                    && self.game.distance(i, e) <= contact
            });
            if !still {
                self.game.models[e].unmark(&ENGAGED);
            }
        }
        Ok(())
    }
}
