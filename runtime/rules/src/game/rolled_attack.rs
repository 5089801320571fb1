//! An attack by the ruleset's roll kinds (`procedures.attack`): the hit rolls a shot makes
//! against a target summed from attributes, the target's opposing roll in a contest, and each
//! standing hit's damage roll (or saving roll) turned into damage points. The same roll kinds
//! judge a script's `ctx.make_roll`, the bots' odds and `cav dice --kind`.

use cav_format::limits::MAX_ATTACK_ROLLS;
use cav_format::{ContestCompare, DealsOn, Roller};

use super::engine::Situation;
use super::*;
use crate::compile::{AttackProc, RollRule, Term, Thrown};

impl Engine<'_, '_> {
    /// One direct-fire shot of `ctx.weapon` by `ctx.model` at `ctx.target`, in situation `s`,
    /// with the combat modifiers `mods` (tables, special attributes, states, handlers).
    pub(super) fn rolled_attack(
        &mut self,
        a: &AttackProc,
        ctx: HookCtx,
        s: &Situation,
        mods: Vec<ModApplied>,
        dice: Option<DiceExpr>,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let (attacker, weapon) = (ctx.model, ctx.weapon.unwrap_or(0));
        let target = ctx.target.unwrap_or(attacker);
        // The attributes as the attack begins (the cards do not change during it).
        let g = &self.game;
        let w = g.card(attacker).weapons.get(weapon).map_or(Vec::new(), |m| m.attributes.clone());
        let (mine, theirs) = (g.card(attacker).attributes.clone(), g.card(target).attributes.clone());
        let sum = |terms: &[Term]| Term::sum(terms, &mine, &theirs, &w);
        let rolls = if a.rolls.is_empty() { 1 } else { sum(&a.rolls).clamp(0, MAX_ATTACK_ROLLS) };
        let m = mods.iter().fold(0i32, |t, x| t.saturating_add(x.value));
        // A `combat_tp` handler's `ctx.set_dice` throws its dice for the hit roll of the kind.
        let loaded;
        let kind = match dice {
            Some(dice) => {
                loaded = RollRule { dice, odds: Default::default(), ..r.roll_kinds[a.hit.kind].clone() };
                &loaded
            }
            None => &r.roll_kinds[a.hit.kind],
        };
        let target_point = a.hit.bounded_target(kind, sum(&a.hit.target), m);
        // A reaction's attack is not opposed: the target declared its answer already (it is the
        // model the reaction answers). A target out of action takes no part: it cannot oppose.
        let opposed = a.opposed.as_ref().filter(|_| !self.game.reacting && !self.game.models[target].out_of_action);
        let mut hits: Vec<Thrown> = Vec::with_capacity(rolls as usize);
        for _ in 0..rolls {
            // Unopposed, only each roll's verdict matters; opposed, the value of a success too
            // where the contest compares successes (the odds walk them as such).
            let t = match opposed.map(|(c, _)| r.contests[*c].compare) {
                Some(ContestCompare::BestSuccess) => kind.throw_for_verdict(self.dice, m, Some(target_point), true),
                Some(_) => kind.throw(self.dice, m, Some(target_point)),
                None => kind.throw_for_verdict(self.dice, m, Some(target_point), false),
            };
            let logged = if self.log.enabled() { mods.clone() } else { Vec::new() };
            emit!(self, Event::Roll(kind.logged(attacker, logged, t.clone())));
            hits.push(t);
        }
        // The charges of single-use upgrades the rolls took.
        let mut taken: Vec<u16> = mods.iter().filter_map(|m| m.charge).collect();
        taken.dedup();
        for sa in taken {
            self.game.models[attacker].spend_charge(sa);
        }
        let stand: Vec<bool> = match opposed {
            Some((c, terms)) => {
                let contest = &r.contests[*c];
                let theirs_kind = &r.roll_kinds[contest.roll];
                let theirs = match contest.compare {
                    ContestCompare::BestSuccess => theirs_kind.throw_for_verdict(self.dice, 0, Some(sum(terms)), true),
                    _ => theirs_kind.throw(self.dice, 0, Some(sum(terms))),
                };
                emit!(self, Event::Roll(theirs_kind.logged(target, Vec::new(), theirs.clone())));
                let (mine_stand, their) = contest.decide(&hits, std::slice::from_ref(&theirs));
                let standing = mine_stand.iter().filter(|&&x| x).count() as u32;
                emit!(
                    self,
                    Event::Opposed {
                        model: attacker,
                        target,
                        contest: contest.id.clone(),
                        standing,
                        theirs_standing: u32::from(their.first().copied().unwrap_or(false)),
                    }
                );
                mine_stand
            }
            None => hits.iter().map(|t| t.success == Some(true)).collect(),
        };
        let standing = stand.iter().filter(|&&x| x).count() as u32;
        self.state_test(attacker, weapon, target, standing > 0)?;
        // A fumbled hit roll is heard as any critical fumble (out of ammo where the weapon may run dry).
        if hits.iter().any(|t| t.fumble) {
            self.out_of_ammo(attacker, weapon)?;
        }
        if standing == 0 {
            emit!(
                self,
                Event::DamagePoints { model: attacker, target, rolls: rolls as u32, hits: 0, dealing: 0, damage: 0 }
            );
            return Ok(());
        }
        let per_hit = if a.points.is_empty() { 1 } else { sum(&a.points).clamp(0, MAX_ATTACK_ROLLS) } as u32;
        let mut dealing = standing;
        if let Some(d) = &a.damage {
            let (roller, other) = match d.by {
                Roller::Attacker => (attacker, target),
                Roller::Target => (target, attacker),
            };
            let ds = Situation { attacker: roller, defender: Some(other), ..*s };
            let dmods = self.modifiers(&r.damage_roll_mods, ModifierTarget::DamageRoll, &ds, false);
            let dm = dmods.iter().fold(0i32, |t, x| t.saturating_add(x.value));
            let kind = &r.roll_kinds[d.roll.kind];
            let need = d.roll.bounded_target(kind, sum(&d.roll.target), dm);
            dealing = 0;
            for (hit, _) in hits.iter().zip(&stand).filter(|(_, s)| **s) {
                if a.critical_hits_deal && hit.critical {
                    dealing += 1;
                    continue;
                }
                let t = kind.throw_for_verdict(self.dice, dm, Some(need), false);
                let deals = match d.deals_on {
                    DealsOn::Success => t.success == Some(true),
                    DealsOn::Failure => t.success != Some(true),
                };
                dealing += u32::from(deals);
                let logged = if self.log.enabled() { dmods.clone() } else { Vec::new() };
                emit!(self, Event::Roll(kind.logged(roller, logged, t)));
            }
        }
        let damage = dealing.saturating_mul(per_hit);
        emit!(
            self,
            Event::DamagePoints { model: attacker, target, rolls: rolls as u32, hits: standing, dealing, damage }
        );
        if damage > 0 {
            self.game.damage_dealt[self.game.models[attacker].side] += damage;
            self.take_damage(attacker, target, damage);
        }
        self.call_hooks(HookCtx { point: HookPoint::OnHit, ..ctx })?;
        Ok(())
    }
}
