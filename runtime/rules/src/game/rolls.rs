//! Rolls: the modifiers of a table, special attributes and states for one roll, the dice, and the
//! judgement against a target point by the ruleset's roll kind (`Rules::verdict`: its fumbles,
//! criticals and 10+ rows).

use super::engine::Situation;
use super::*;
use crate::compile::{RollRule, Scale, Verdict};

impl Engine<'_, '_> {
    /// The sum of `model`'s own declarative effects on `target` that carry `when:` conditions,
    /// tested in the situation `s` (whose attacker may be another model: the AV a hit meets).
    /// Their unconditional effects are in the card already.
    pub(crate) fn conditional_effects(&self, model: usize, target: ModifierTarget, s: &Situation) -> i32 {
        let r = self.rules();
        self.game
            .card(model)
            .sas
            .iter()
            .flat_map(|&(sa, rating)| r.sas[sa as usize].effects.iter().map(move |e| (e, rating)))
            .filter(|(e, _)| e.target == target && !e.when.is_empty())
            .filter(|(e, _)| e.when.iter().all(|c| c.times(&self.game, s) > 0))
            .map(|(e, rating)| if e.per_rating { e.value * rating } else { e.value })
            .sum()
    }

    /// Sum the modifiers of a table and the attacker's declarative effects for one roll.
    pub(crate) fn modifiers(&self, table: &[Mod], target: ModifierTarget, s: &Situation, own: bool) -> Vec<ModApplied> {
        let g = &self.game;
        // Names cost an allocation each; without a narrative only the values matter.
        let logging = self.log.narrative();
        let name = |n: &str| if logging { n.to_owned() } else { String::new() };
        let r = self.rules();
        let mut out = Vec::new();
        let a = s.attacker;
        for m in table {
            let times = match m.cond.times(g, s) {
                0 => continue,
                t => t,
            };
            if m.also.iter().any(|c| c.times(g, s) == 0) {
                continue;
            }
            let mut v = match m.scale {
                Scale::Once => m.value,
                Scale::PerRating | Scale::PerCount => m.value * times,
                Scale::PerAdditional => m.value * times,
                Scale::PerWeapon => m.value * s.weapons_fired.max(1),
                Scale::Steps => match stepped_value(m, g, s) {
                    Some(v) => v,
                    None => continue,
                },
            };
            if let Some(max) = m.max {
                let max = if m.max_per_weapon { max.abs() * s.weapons_fired.max(1) } else { max.abs() };
                v = v.clamp(-max, max);
            }
            if v != 0 {
                out.push(ModApplied { source: name(&m.name), value: v, charge: None });
            }
        }
        // Declarative effects of the attacker's and the weapon's special attributes.
        let card = g.card(a);
        let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        let declined = |sa: u16, weapon: Option<usize>| g.active == Some(a) && g.declined.contains(&(sa, weapon));
        let of_card = card.sas.iter().map(|x| (x, None));
        for ((sa, rating), mount) in of_card.chain(weapon_sas.iter().map(|x| (x, s.weapon))) {
            if declined(*sa, mount) || mount.is_some_and(|w| !g.mount_sa_holds(a, w, *sa, s.defender)) {
                continue;
            }
            let def = &r.sas[*sa as usize];
            // A single-use upgrade's rating is its purchases: one helps this roll, if any is left.
            if def.charges && g.models[a].charges_spent(*sa) >= (*rating).max(0) as u32 {
                continue;
            }
            for e in def.effects.iter().filter(|e| e.target == target) {
                if e.when.iter().all(|c| c.times(g, s) > 0) {
                    let per_rating = e.per_rating && !def.charges;
                    let v = if per_rating { e.value * rating } else { e.value } * r.sign;
                    out.push(ModApplied { source: name(&def.name), value: v, charge: def.charges.then_some(*sa) });
                }
            }
        }
        // States: a table row naming the state (or a group it is in) takes precedence over its
        // generic modifier.
        let named = |st: StateIx, attacker_side: bool| {
            let def = if attacker_side { &conditions::ATTACKER_STATE } else { &conditions::DEFENDER_STATE };
            table.iter().any(|m| m.cond.is(def, st))
                || attacker_side
                    && r.states[st as usize]
                        .groups
                        .iter()
                        .any(|&g| table.iter().any(|m| m.cond.is(&conditions::ATTACKER_IN_GROUP, g)))
        };
        if own {
            for (st, _) in &g.models[a].states {
                let def = &r.states[*st as usize];
                if def.own_roll_modifier != 0 && !named(*st, true) {
                    out.push(ModApplied { source: name(&def.name), value: def.own_roll_modifier, charge: None });
                }
            }
        }
        if let Some(d) = s.defender {
            for (st, _) in &g.models[d].states {
                let def = &r.states[*st as usize];
                if def.attacker_modifier != 0 && !named(*st, false) {
                    out.push(ModApplied {
                        source: if logging { format!("target {}", def.name) } else { String::new() },
                        value: def.attacker_modifier,
                        charge: None,
                    });
                }
            }
        }
        if target == ModifierTarget::CombatRoll && g.models[a].crit_combat != 0 {
            out.push(ModApplied { source: name("critical damage"), value: g.models[a].crit_combat, charge: None });
        }
        if target == ModifierTarget::CombatRoll
            && let Some(w) = s.weapon
            && g.models[a].weapon_mod(w) != 0
        {
            out.push(ModApplied { source: name("weapon damage"), value: g.models[a].weapon_mod(w), charge: None });
        }
        out
    }

    /// Roll `expr`, add modifiers, compare with a target point.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn roll(
        &mut self,
        model: usize,
        kind: &'static str,
        expr: DiceExpr,
        mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> RollOut {
        let thrown = expr.roll_total(self.dice);
        self.judge(model, kind, expr, thrown, mods, target, crit_at, ten_plus)
    }

    /// A combat roll: the dice, then `combat_dice` (handlers see the natural dice and may still
    /// add `roll` modifiers or act), then the judgement.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn combat_roll(
        &mut self,
        ctx: HookCtx,
        kind: &'static str,
        expr: DiceExpr,
        mut mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> Result<RollOut, EngineError> {
        // `combat_dice` handlers read each die (and may throw one again); else only the total counts.
        let mut thrown =
            if self.hooks.wants(HookPoint::CombatDice) { expr.roll(self.dice) } else { expr.roll_total(self.dice) };
        let model = ctx.model;
        // A C3 point declared with the action inspires its first target-point roll.
        if target.is_some()
            && std::mem::take(&mut self.game.features.c3.inspired)
            && let Some(c3) = &self.rules().c3
        {
            let (_, extra) = c3.inspire.roll_total(self.dice);
            mods.push(ModApplied { source: "C3: Inspire".into(), value: extra, charge: None });
        }
        // (Asked before the roll is copied into the context: most combat rolls have no handler.)
        if self.hooks.wants_at(&self.game, HookPoint::CombatDice, model, ctx.target, ctx.weapon) {
            let total = mods.iter().fold(thrown.1, |t, m| t.saturating_add(m.value));
            let mut ctx = ctx;
            ctx.point = HookPoint::CombatDice;
            ctx.roll = Some(Roll {
                model,
                kind: kind.into(),
                dice: expr.label(),
                natural: thrown.0.clone(),
                mods: mods.clone(),
                total,
                target,
                margin: target.map(|t| total.saturating_sub(t)),
                success: None,
                critical: None,
            });
            let mut answer = self.call_hooks(ctx)?;
            mods.extend(answer.take(Quantity::Roll));
            // A re-roll (Full-Auto) throws one die again, never out of a critical fumble.
            let nat = thrown.1.saturating_sub(expr.plus).max(0) as u32;
            let fumbled = self
                .rules()
                .engine_roll(ten_plus)
                .is_some_and(|k| expr == k.dice && k.natural_row(nat) == Some(cav_format::NaturalVerdict::Fumble));
            if let Some(die) = answer.reroll.filter(|&d| d < thrown.0.len() && !fumbled) {
                thrown.0[die] = self.dice.roll(expr.sides);
                thrown.1 = expr.total_of(&thrown.0);
            }
        }
        Ok(self.judge(model, kind, expr, thrown, mods, target, crit_at, ten_plus))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn judge(
        &mut self,
        model: usize,
        kind: &'static str,
        expr: DiceExpr,
        (natural, sum): (Vec<u32>, i32),
        mods: Vec<ModApplied>,
        target: Option<i32>,
        crit_at: Option<u32>,
        ten_plus: bool,
    ) -> RollOut {
        let r = self.rules();
        let Verdict { fumble, crit, .. } = r.verdict(expr, sum, sum, None, crit_at, ten_plus);
        let mut mods = mods;
        // The single-use upgrades this roll took are spent, one purchase each.
        let mut taken: Vec<u16> = mods.iter().filter_map(|m| m.charge).collect();
        taken.dedup();
        for sa in taken {
            self.game.models[model].spend_charge(sa);
        }
        if crit && let Some(bonus) = r.engine_roll(ten_plus).and_then(RollRule::critical_bonus) {
            let (_, v) = bonus.roll_total(self.dice);
            mods.push(ModApplied { source: "critical success bonus die".into(), value: v, charge: None });
        }
        // Saturating: modifiers come from packs and scripts, and must not wrap a total around.
        let total = mods.iter().fold(sum, |total, m| total.saturating_add(m.value));
        let Verdict { success, margin, .. } = r.verdict(expr, sum, total, target, crit_at, ten_plus);
        emit!(
            self,
            Event::Roll(Roll {
                model,
                kind: kind.into(),
                dice: expr.label(),
                natural,
                mods,
                total,
                target,
                margin,
                success,
                critical: if fumble {
                    Some("fumble")
                } else if crit {
                    Some("success")
                } else {
                    None
                },
            })
        );
        RollOut { total, success: success.unwrap_or(false), margin: margin.unwrap_or(0), fumble, crit }
    }

    pub(crate) fn ten_plus(&self, k: RollKind) -> bool {
        self.rules().proc.rolls.ten_plus_rolls.contains(&k)
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct RollOut {
    pub(crate) total: i32,
    pub(crate) success: bool,
    pub(crate) margin: i32,
    pub(crate) fumble: bool,
    pub(crate) crit: bool,
}

/// A modifier by steps (`Mod::steps`): its value for the condition's count, 0 included; `None`
/// where it says nothing — a condition not played, or one about a defender where the roll has
/// none. (Out of line: most rows have no steps, and the loop over rows runs for every roll.)
#[cold]
#[inline(never)]
fn stepped_value(m: &Mod, g: &Game, s: &Situation) -> Option<i32> {
    if m.count == crate::compile::Cond::NEVER || s.defender.is_none() && m.count.about_defender() {
        return None;
    }
    Some(m.step(m.count.times(g, s)).unwrap_or(0))
}
