//! Counter-battery fire (001 L7031-7070): the answer of an enemy artillery model to indirect fire
//! aimed at it or landing near it, at the attacker's firing place.

use cav_format::HookPoint;
use cav_format::vocab::ActionKind as ActionWord;

use super::{FIRED_OUT_OF_TURN, MADE_COMBAT_ACTION};
use crate::event::Event;
use crate::game::{Controller, Engine, EngineError, Shot};
use crate::hooks::HookCtx;

impl Engine<'_, '_> {
    /// Counter-battery fire (001 L7031-7070): each enemy with the ruleset's counter-battery
    /// special attribute that `attacker`'s indirect fire aimed at, or whose strike point landed
    /// within reach of, may answer at once — unless it made a combat action this turn — with
    /// indirect weapons that reach the attacker: no strike-point roll, the point is the
    /// attacker's place, and the combat roll's `counter-battery` row applies.
    pub(super) fn counter_battery(
        &mut self,
        attacker: usize,
        landed: &[(Option<usize>, crate::geom::P)],
        ctrl: &mut dyn Controller,
    ) -> Result<(), EngineError> {
        let Some((sa, within)) = self.rules().proc.counter_battery else { return Ok(()) };
        if landed.is_empty() {
            return Ok(());
        }
        let side = self.game.models[attacker].side;
        for m in 0..self.game.models.len() {
            let g = &self.game;
            let me = &g.models[m];
            let called = landed.iter().any(|&(t, p)| t == Some(m) || me.pos.dist(p) <= within);
            if me.side == side
                || !me.on_table()
                || !called
                || me.has(&MADE_COMBAT_ACTION)
                || me.has(&FIRED_OUT_OF_TURN)
                || !g.card(m).sas.iter().any(|(s, _)| *s == sa)
                || !g.can_fight(m)
                || !g.models[attacker].on_table()
            {
                continue;
            }
            let shooter = g.shooter(m);
            let reach = |k: usize| {
                matches!(shooter.shot(k, attacker, true), Some(Shot::Indirect { .. })) && g.card(m).weapons[k].indirect
            };
            if !(0..g.card(m).weapons.len()).any(reach) {
                continue;
            }
            if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, m).target(attacker))?.forbid {
                emit!(self, Event::Forbidden { model: m, what: "reaction", reason });
                continue;
            }
            let Some(weapons) = ctrl.counter_battery(&self.game, m, attacker) else { continue };
            self.game.models[m].mark(&FIRED_OUT_OF_TURN);
            self.game.models[m].mark(&MADE_COMBAT_ACTION);
            let cost = self.rules().action_costs.get(ActionWord::CounterBattery.id()).copied().unwrap_or(0);
            self.game.models[m].ap_owed += cost;
            emit!(self, Event::CounterBattery { model: m, target: attacker });
            // Its point is the attacker's firing place. An attacker in a run 'n gun with move left
            // completes it before the answer lands (001 L7063-7068), unless the answering model
            // is on over-watch.
            let at = self.game.models[attacker].pos;
            if self.game.counter_battery_waits && !self.game.models[m].has(&crate::game::actions::OVERWATCH) {
                self.game.counter_battery_pending.push((m, weapons, at));
                continue;
            }
            self.counter_battery_fire(m, attacker, &weapons, at)?;
        }
        Ok(())
    }

    /// The counter-battery answers waiting for `attacker`'s move to end land now.
    pub(crate) fn counter_battery_lands(&mut self, attacker: usize) -> Result<(), EngineError> {
        for (m, weapons, at) in std::mem::take(&mut self.game.counter_battery_pending) {
            self.counter_battery_fire(m, attacker, &weapons, at)?;
        }
        Ok(())
    }

    /// `m`'s counter-battery fire with `weapons` at `at` (the attacker's firing place): no
    /// strike-point roll, each weapon that still reaches the attacker attacks the area there.
    fn counter_battery_fire(
        &mut self,
        m: usize,
        attacker: usize,
        weapons: &[usize],
        at: crate::geom::P,
    ) -> Result<(), EngineError> {
        self.game.counter_battery = true;
        for &k in weapons {
            let g = &self.game;
            if k >= g.card(m).weapons.len() {
                continue;
            }
            // Still within reach of the place (the attacker's, if it has not moved on since).
            let reaches = if g.models[attacker].pos.dist(at) < 1e-9 {
                matches!(g.shooter(m).shot(k, attacker, true), Some(Shot::Indirect { .. }))
            } else {
                matches!(g.point_shot(m, k, at, 0.0), Shot::Indirect { .. })
            };
            if g.card(m).weapons[k].indirect && g.models[m].in_play() && reaches && !g.models[m].out_of_ammo[k] {
                emit!(self, Event::StrikePoint { model: m, at });
                self.area_attack(m, k, at, Some(attacker), 0, None)?;
            }
        }
        self.game.counter_battery = false;
        Ok(())
    }
}
