//! Close combat (001 L5013-5035): an assault on an enemy in base contact; both are then engaged
//! until one breaks.

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{HookPoint, ModifierTarget, Quantity};

use super::break_::FAILED_BREAK;
use super::{Action, ActionError, ActionKind};
use crate::event::{Event, ModApplied, Roll};
use crate::game::engine::Situation;
use crate::game::{Controller, Engine, Game, Lasts, Mark};
use crate::hooks::HookCtx;

/// In base contact with an enemy after a close-combat assault: it must break to move away.
/// Lasts until the model breaks (or every enemy touching it has).
pub static ENGAGED: Mark = Mark { name: "engaged", lasts: Lasts::Cleared };

pub struct CloseCombat;

impl ActionKind for CloseCombat {
    fn id(&self) -> ActionWord {
        ActionWord::CloseCombat
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        // Attacked from close quarters, the target may strike first (Anti-Infantry).
        if target < engine.game.models.len() && engine.game.models[target].side != engine.game.models[model].side {
            engine.close_defense(model, target, ctrl)?;
            if !engine.game.models[model].in_play() || !engine.game.can_fight(model) {
                return Ok(());
            }
        }
        engine.close_combat(model, target)
    }
}

impl Action {
    pub fn close_combat(target: usize) -> Action {
        Action::new(CloseCombat.name()).on(target)
    }
}

impl Engine<'_, '_> {
    /// Close combat: an opposed roll of 2d6 + CCV each; the winner's margin is read on the
    /// close-combat damage table (a tie hurts both).
    pub(crate) fn close_combat(&mut self, attacker: usize, target: usize) -> Result<(), ActionError> {
        let r = self.rules();
        let Some(table) = r.close_combat_damage.as_ref() else {
            return Err(ActionError::Illegal("this ruleset has no close combat".into()));
        };
        if target >= self.game.models.len()
            || self.game.models[target].side == self.game.models[attacker].side
            || !self.game.models[target].on_table()
        {
            return Err(ActionError::Illegal("the target is not an enemy model".into()));
        }
        if !self.game.attackable(target) {
            return Err(ActionError::Illegal(
                "an emplacement is attacked through its bunker (fire at the structure)".into(),
            ));
        }
        let contact = r.proc.movement.contact_distance;
        if self.game.distance(attacker, target) > contact {
            return Err(ActionError::Illegal("close combat needs base-to-base contact".into()));
        }
        let supporters = (0..self.game.models.len())
            .filter(|&i| {
                i != attacker
                    && self.game.models[i].side == self.game.models[attacker].side
                    && self.game.models[i].on_table()
                    && self.game.distance(i, target) <= contact
            })
            .count() as i32;
        let supporters = supporters.min(r.proc.close_combat.max_attackers.map_or(i32::MAX, |m| m as i32 - 1));
        emit!(self, Event::CloseCombat { model: attacker, target, supporters: supporters as u32 });
        let ccv = |g: &Game, x: usize, y: usize| {
            let (h, s) = g.card(x).ccv[g.column(x)];
            let yc = g.card(y);
            let v = if yc.soft && !yc.hard { s } else { h };
            if g.models[x].zeroed { 0 } else { v.map_or(0, i32::from) }
        };
        let roll_for = |this: &mut Self, x: usize, y: usize, sup: i32| {
            let s = Situation {
                attacker: x,
                defender: Some(y),
                supporters: sup,
                failed_break: this.game.models[x].has(&FAILED_BREAK),
                close_combat: true,
                ..Situation::default()
            };
            let mut mods = this.modifiers(&r.close_combat_mods, ModifierTarget::CombatRoll, &s, true);
            mods.insert(
                0,
                ModApplied { source: "close-combat value".into(), value: ccv(&this.game, x, y), charge: None },
            );
            // An opposed roll: each side's `opposed_roll` handlers first, then its combat roll's.
            mods.extend(this.call_hooks(HookCtx::new(HookPoint::OpposedRoll, x).target(y))?.take(Quantity::Roll));
            let ctx = HookCtx::new(HookPoint::CombatTp, x).target(y);
            let mut answer = this.call_hooks_on_copy(&ctx)?;
            mods.extend(answer.take(Quantity::Roll));
            let dice = answer.dice.unwrap_or(r.standard);
            this.combat_roll(ctx, "close-combat", dice, mods, None, r.critical_at(0, false), false)
        };
        let ra = roll_for(self, attacker, target, supporters)?;
        let rd = roll_for(self, target, attacker, 0)?;
        // A critical fumble hands the opponent an extra die.
        let bonus = |this: &mut Self, who: usize| {
            let Some(b) = r.critical_bonus() else { return 0 };
            let (faces, v) = b.roll(this.dice);
            emit!(
                this,
                Event::Roll(Roll {
                    model: who,
                    kind: "fumble-bonus".into(),
                    dice: b.label(),
                    natural: faces,
                    mods: vec![],
                    total: v,
                    target: None,
                    margin: None,
                    success: None,
                    critical: None
                })
            );
            v
        };
        let ta = ra.total + if rd.fumble { bonus(self, attacker) } else { 0 };
        let td = rd.total + if ra.fumble { bonus(self, target) } else { 0 };
        self.game.models[attacker].mark(&ENGAGED);
        self.game.models[target].mark(&ENGAGED);
        let (winner, loser, margin) = if ta >= td { (attacker, target, ta - td) } else { (target, attacker, td - ta) };
        let tie = ta == td;
        // What comes off the margin of hits on the loser (Reinforced: 000 L1166, L1172), down
        // to 0 at most. Only the loser is protected: a win cut to 0 is still a win, so the loser
        // takes that row's damage and the winner none (the row's "both" is for a tied roll).
        let margin = if tie { margin } else { (margin - self.cardr(loser).damage_result).max(0) };
        let Some(row) = table.row(margin).cloned() else { return Ok(()) };
        emit!(self, Event::DamageResult { target: loser, row: row.name.clone(), damage: row.damage + row.damage_both });
        if tie && row.damage_both > 0 {
            self.game.models[attacker].pending.damage += row.damage_both;
            self.game.models[target].pending.damage += row.damage_both;
        } else {
            let damage = row.damage + row.damage_both;
            self.game.damage_dealt[self.game.models[winner].side] += damage;
            self.take_damage(winner, loser, damage);
            let p = &mut self.game.models[loser].pending;
            if let Some(pc) = row.pilot_check {
                p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
            }
            p.states.extend(row.states.iter().copied());
            if row.critical {
                p.criticals += 1;
            }
        }
        Ok(())
    }
}
