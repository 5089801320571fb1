//! Repair (001 L5836-5886): a roll against the repair target point with the card's damage control;
//! success removes damage (some always lingers).

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{HookPoint, ModifierTarget, Quantity, RollKind, StateDuration};

use super::{Action, ActionError, ActionKind};
use crate::event::{Event, ModApplied};
use crate::game::engine::Situation;
use crate::game::{Controller, Engine, EngineError, Game};
use crate::hooks::HookCtx;

pub struct Repair;

impl ActionKind for Repair {
    fn id(&self) -> ActionWord {
        ActionWord::Repair
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, _: &Action) -> Result<(), String> {
        if game.rules.proc.repair.is_none() {
            return Err("this ruleset has no repair".into());
        }
        if game.card(model).damage_control[game.column(model)].is_none() {
            return Err("the model has no damage-control value".into());
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
        Ok(engine.repair(model)?)
    }
}

impl Action {
    pub fn repair() -> Action {
        Action::new(Repair.name())
    }
}

impl Engine<'_, '_> {
    pub(crate) fn repair(&mut self, model: usize) -> Result<(), EngineError> {
        let r = self.rules();
        // (`check` refused the action without the ruleset's repair rules.)
        let Some(rules) = &r.proc.repair else { return Ok(()) };
        let dc = self.card_dc(model).unwrap_or(0);
        let s = Situation { attacker: model, ..Situation::default() };
        let mut mods = self.modifiers(&[], ModifierTarget::RepairRoll, &s, true);
        mods.insert(0, ModApplied { source: "damage control".into(), value: dc, charge: None });
        mods.extend(self.call_hooks(HookCtx::new(HookPoint::Repair, model))?.take(Quantity::Roll));
        let out = self.roll(
            model,
            "repair",
            r.standard,
            mods,
            Some(rules.target_point as i32),
            r.critical_at(0, self.ten_plus(RollKind::RepairRoll)),
            self.ten_plus(RollKind::RepairRoll),
        );
        let lingering = rules.lingering_damage;
        if out.fumble {
            self.game.models[model].pending.damage += rules.fumble_damage;
            // `crit_fumble` hears a repair's fumble too (no weapon): Experimental Nano-Tech burns out.
            self.call_hooks(HookCtx::new(HookPoint::CritFumble, model))?;
        } else if out.success {
            // Rugged: every success counts as a critical one.
            let crit = out.crit || self.game.card(model).repair_critical;
            let want = if crit { rules.critical_restores } else { rules.restores };
            let me = &mut self.game.models[model];
            let can = me.damage.saturating_sub(lingering);
            let points = want.min(can);
            me.damage -= points;
            let states = &r.states;
            me.states.retain(|(s, _)| states[*s as usize].duration != StateDuration::UntilRepaired);
            let column = self.game.column(model);
            emit!(self, Event::Repaired { model, points, column });
        }
        Ok(())
    }
}
