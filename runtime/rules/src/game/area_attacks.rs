//! Area attacks: templates, carpets and blasts that hit every model under them.

use super::engine::{Situation, round2};
use super::*;

impl<'a, 'r> Engine<'a, 'r> {
    /// Secondary combat rolls against every model the weapon's area touches at `point`
    /// (`salvo_extra`: the weapons of a salvo beyond the first), after what it leaves there
    /// (`Engine::land`; `heading`: the direction of a strip it leaves, as declared).
    pub(crate) fn area_attack(
        &mut self,
        attacker: usize,
        weapon: usize,
        point: P,
        aimed: Option<usize>,
        salvo_extra: i32,
        heading: Option<f64>,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(attacker).weapons[weapon];
        // A guided munition at its point finishes with one direct-fire roll at the model there.
        if let Some((band, _)) = m.guided_strike {
            return self.guided_finish(attacker, weapon, point, aimed, band, salvo_extra);
        }
        if m.single_use || m.charges.is_some() {
            self.game.single_use_fired.push((attacker, weapon));
        }
        let max = m.range * r.bands.last().map_or(1.0, |b| b.multiplier);
        // (A bomb has no reach: it falls where it falls.)
        if m.dropped.is_none() && self.game.range_to_point(attacker, point) > max {
            return Ok(()); // drifted beyond the weapon's reach
        }
        // `landing`: a handler may destroy the munition where it lands (Point Defense meets a
        // final strike point near its model).
        let ctx = HookCtx::new(HookPoint::Landing, attacker).target(aimed).weapon(weapon).at(point);
        if let Some(reason) = self.call_hooks(ctx)?.forbid {
            emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
            return Ok(());
        }
        // What it leaves there (a minefield, a smoke cloud), and whether it still attacks.
        let landing = self.land(attacker, weapon, point, heading)?;
        if !landing.attacks {
            return Ok(());
        }
        if self.cardr(attacker).weapons[weapon].seeks.is_some() {
            return self.seek(attacker, weapon, point, aimed);
        }
        let (r, m) = (self.rules(), &self.cardr(attacker).weapons[weapon]);
        // The aimed model counts as the target only if the final point lies on its base.
        let aimed = aimed.filter(|&target| self.game.models[target].pos.dist(point) <= self.cardr(target).base_radius);
        // `attack_targets`: the area may change (a set value only shrinks it; modifiers widen it
        // by at most `SCRIPT_AREA_GROWTH`) and the RAV of every hit may change.
        let full = m.aoe;
        let ctx = HookCtx::new(HookPoint::AttackTargets, attacker).target(aimed).weapon(weapon).value(full);
        let answer = self.call_hooks(ctx)?;
        let radius = (answer.value.unwrap_or(full) + f64::from(answer.sum(Quantity::Area)))
            .clamp(0.0, full + cav_format::limits::SCRIPT_AREA_GROWTH);
        let extra_rav: Vec<ModApplied> =
            answer.mods.iter().filter(|(q, _)| *q == Quantity::Rav).map(|(_, m)| m.clone()).collect();
        let name = m.name.clone();
        let (preset_tp, strike, rolls) = (m.preset_tp, m.strike.is_some(), m.combat_rolls.max(1));
        let fixed_tp = m.fixed_tp;
        // The weapon's (or strike's) Blaster widens the critical window of its rolls here too.
        let crit_at = r.critical_at(m.crit_shift, false);
        let victims = self.area_victims(attacker, weapon, point, radius, heading);
        for target in victims {
            if !self.game.models[target].on_table() || landing.spared.contains(&target) {
                continue;
            }
            // Blocking cover between the attacker and the model, next to either, stops the roll
            // where the ruleset says so.
            // (A strike package comes from off the table: the caller's position does not matter.)
            if !strike
                && self.rules().proc.sight.blocking_cover_stops_indirect
                && self.game.blocking_next_to(attacker, target)
            {
                continue;
            }
            // `area_effect`: each model under the template, before its roll; forbid spares it.
            let ctx = HookCtx::new(HookPoint::AreaEffect, attacker).target(target).weapon(weapon);
            let mut under = self.call_hooks_on_copy(&ctx)?;
            if let Some(reason) = under.forbid.take() {
                emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
                continue;
            }
            let dist = self.game.range(attacker, target);
            emit!(
                self,
                Event::Attack {
                    model: attacker,
                    target,
                    weapon: name.clone(),
                    mode: "secondary",
                    distance: round2(dist),
                    band: None
                }
            );
            let cover = self.standing_cover(target);
            let s = Situation {
                attacker,
                defender: Some(target),
                weapon: Some(weapon),
                distance: dist,
                cover: Some(cover),
                salvo_extra,
                strike,
                ..Situation::default()
            };
            let under_mods = under.take(Quantity::Roll);
            // Some attacks make several separate rolls against each model (the Hammer Strike: 3).
            for _ in 0..rolls {
                if !self.game.models[target].on_table() {
                    break;
                }
                let mut mods = self.modifiers(&r.indirect_mods, ModifierTarget::CombatRoll, &s, false);
                mods.extend(under_mods.iter().cloned());
                let ctx = HookCtx { point: HookPoint::CombatTp, ..ctx.clone() };
                let mut answer = self.call_hooks_on_copy(&ctx)?;
                if let Some(reason) = answer.forbid {
                    emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
                    continue;
                }
                mods.extend(answer.take(Quantity::Roll));
                // A strike package's (or any profile's) pre-set base TP rolls the pre-set dice
                // (001 L11065-11071); a handler may name other dice.
                let (dice, tp) = match (fixed_tp, preset_tp, r.preset) {
                    (Some(tp), _, _) => (r.standard, tp),
                    (None, Some(tp), Some(dice)) => (dice, tp),
                    _ => (r.standard, r.indirect_tp),
                };
                let dice = answer.dice.unwrap_or(dice);
                let out = self.combat_roll(ctx, "secondary-combat", dice, mods, Some(tp), crit_at, false)?;
                self.state_test(attacker, weapon, target, out.success)?;
                if out.success {
                    self.hit(attacker, weapon, target, out.margin, &extra_rav, None)?;
                }
            }
        }
        Ok(())
    }

    /// A guided munition's finishing direct-fire roll at `band`: at the model on whose base
    /// `point` lies (the aimed one first), if any.
    fn guided_finish(
        &mut self,
        attacker: usize,
        weapon: usize,
        point: P,
        aimed: Option<usize>,
        band: usize,
        salvo_extra: i32,
    ) -> Result<(), EngineError> {
        let at_point =
            |g: &Game, i: usize| g.models[i].on_table() && g.models[i].pos.dist(point) <= g.card(i).base_radius;
        let target = aimed
            .filter(|&t| at_point(&self.game, t))
            .or_else(|| (0..self.game.models.len()).find(|&i| i != attacker && at_point(&self.game, i)));
        if let Some(target) = target {
            let distance = self.game.range(attacker, target);
            self.direct_roll(attacker, weapon, target, band, distance, salvo_extra, 0, false)?;
        }
        Ok(())
    }

    /// The models the weapon's area at `point` touches (a circle of `radius`, or its strip along
    /// `heading`), the attacker aside.
    fn area_victims(&self, attacker: usize, weapon: usize, point: P, radius: f64, heading: Option<f64>) -> Vec<usize> {
        let m = &self.cardr(attacker).weapons[weapon];
        // A strip (a bomb rack's carpet, a gunship's corridor) lies along the direction declared,
        // else the attacker's heading, centred on the point.
        let along = heading.unwrap_or(self.game.models[attacker].facing);
        let strip =
            m.strip.map(|(length, width)| (crate::game::placement::strip_ends(point, along, length), width / 2.0));
        (0..self.game.models.len())
            .filter(|&i| {
                let (at, base) = (self.game.models[i].pos, self.cardr(i).base_radius);
                i != attacker
                    && self.game.attackable(i)
                    && match strip {
                        Some(((a, b), half)) => crate::geom::seg_point_dist(a, b, at) <= half + base,
                        None => at.dist(point) <= radius + base,
                    }
            })
            .collect()
    }
}
