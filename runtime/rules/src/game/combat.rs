//! The attack procedures the combat actions share: combat rolls, hits and damage-table rows,
//! shock tests, out of ammo, strike points and drift, area attacks.

use super::engine::{Situation, round2};
use super::sight::cover_rank;
use super::*;
use crate::event::HitChange;
use cav_format::LookupKey;
use cav_format::rules::AmmoEmpties;

/// A direct-fire shot aimed (`Engine::aim`), ready to roll.
#[derive(Debug, Clone)]
pub(crate) struct Aimed {
    pub ctx: HookCtx,
    pub situation: Situation,
    pub mods: Vec<ModApplied>,
    /// A handler's dice for the roll (`ctx.set_dice`).
    pub dice: Option<DiceExpr>,
}

impl<'a, 'r> Engine<'a, 'r> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn attack_roll(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        band: usize,
        distance: f64,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<(), EngineError> {
        self.direct_roll(attacker, weapon, target, band, distance, salvo_extra, weapons_fired, defensive)?;
        self.area_rolls(attacker, weapon, target, band, salvo_extra, weapons_fired, defensive)
    }

    /// The rolls at the models around an attack's target that a direct-fire weapon's area
    /// reaches (`attack_roll` after its roll at the target).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn area_rolls(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        band: usize,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<(), EngineError> {
        // A direct-fire weapon with an area (the rotary autocannons, 001 L13349-13352; AoE,
        // 001 L6752-6762): every other model whose base the area around the target's centre
        // touches, and which the attacker sees, takes a direct-fire roll at the attack's TP.
        let m = &self.cardr(attacker).weapons[weapon];
        if m.aoe <= 0.0 || m.template.is_some() {
            return Ok(());
        }
        let (centre, radius) = (self.game.models[target].pos, m.aoe);
        let caught: Vec<usize> = (0..self.game.models.len())
            .filter(|&i| i != attacker && i != target && self.game.models[i].on_table())
            .filter(|&i| self.game.models[i].pos.dist(centre) <= radius + self.cardr(i).base_radius)
            .collect();
        for other in caught {
            if !self.game.models[other].on_table() || self.game.models[attacker].out_of_ammo[weapon] {
                continue;
            }
            if !self.game.sight(attacker, other, false).0 {
                continue;
            }
            let distance = self.game.range(attacker, other);
            self.direct_roll(attacker, weapon, other, band, distance, salvo_extra, weapons_fired, defensive)?;
        }
        Ok(())
    }

    /// One direct-fire combat roll of `attacker`'s mount `weapon` at `target` in `band`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn direct_roll(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        band: usize,
        distance: f64,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<(), EngineError> {
        let m = &self.cardr(attacker).weapons[weapon];
        // A template weapon lays its strip whatever the path that fires it (a reaction too).
        if m.template.is_some() {
            return self.template_attack(attacker, weapon, target);
        }
        let Some(aimed) = self.aim(attacker, weapon, target, band, distance, salvo_extra, weapons_fired, defensive)?
        else {
            return Ok(());
        };
        self.roll_aimed(attacker, weapon, target, band, aimed)
    }

    /// The roll of a direct-fire shot aimed, and what it comes to.
    #[inline(always)]
    pub(crate) fn roll_aimed(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        band: usize,
        aimed: Aimed,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(attacker).weapons[weapon];
        let Aimed { ctx, situation: s, mods, dice } = aimed;
        // A ruleset whose attack is rolled by its roll kinds.
        if let Some(a) = &r.attack {
            return self.rolled_attack(a, ctx, &s, mods, dice);
        }
        let dice = dice.unwrap_or(r.standard);
        // (A shifted critical never falls onto a fumble: `RollRule::critical_at`.)
        let crit_at = r.critical_at(m.crit_shift, false);
        let tp = r.bands[band].combat_tp;
        let out = self.combat_roll(ctx, "combat", dice, mods, Some(tp), crit_at, false)?;
        self.state_test(attacker, weapon, target, out.success)?;
        if out.fumble {
            self.out_of_ammo(attacker, weapon)?;
            return Ok(());
        }
        if out.success {
            self.hit(attacker, weapon, target, out.margin, &[], Some(band))?;
        }
        Ok(())
    }

    /// The start of one direct-fire shot: the attack said, its situation, its combat modifiers
    /// (tables, special attributes, states, handlers) and a handler's dice; `None` when a
    /// handler stopped it before it was rolled.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn aim(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        band: usize,
        distance: f64,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<Option<Aimed>, EngineError> {
        let r = self.rules();
        let m = &self.cardr(attacker).weapons[weapon];
        if m.single_use || m.charges.is_some() {
            self.game.single_use_fired.push((attacker, weapon));
        }
        // Guided missiles where the ruleset says, and a guided munition diving on its point, meet
        // only the cover the target stands in.
        let guided = m.requires_target_lock && self.rules().proc.sight.guided_ignore_cover || m.guided_strike.is_some();
        let (_, cover, cover_extra) = self.game.sight_cover(attacker, target, guided);
        emit!(
            self,
            Event::Attack {
                model: attacker,
                target,
                weapon: m.name.clone(),
                mode: "direct",
                distance: round2(distance),
                band: Some(r.bands[band].name.clone())
            }
        );
        let s = Situation {
            attacker,
            defender: Some(target),
            weapon: Some(weapon),
            band: Some(band),
            distance,
            cover: Some(cover),
            cover_extra,
            primary: true,
            salvo_extra,
            weapons_fired,
            defensive,
            // Split fire counts for the active model's own attacks only, not its answers.
            extra_targets: if !defensive && self.game.active == Some(attacker) { self.game.extra_targets } else { 0 },
            direct: true,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.combat_mods, ModifierTarget::CombatRoll, &s, true);
        let ctx =
            HookCtx::new(HookPoint::CombatTp, attacker).target(target).weapon(weapon).band(band).defensive(defensive);
        let mut answer = self.call_hooks_on_copy(&ctx)?;
        // A handler may stop this weapon's shot before it is rolled (Point Defense).
        if let Some(reason) = answer.forbid {
            emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
            return Ok(None);
        }
        mods.extend(answer.take(Quantity::Roll));
        if defensive && r.proc.defensive_fire.is_some_and(|d| d.drops_bonuses) {
            mods.retain(|m| m.value <= 0); // the ruleset's defensive fire takes no bonuses
        }
        Ok(Some(Aimed { ctx, situation: s, mods, dice: answer.dice }))
    }

    /// Shock and the like: the targeted model tests against the rating or gains a state — every
    /// model targeted, or only a model the roll hit (`hit`), as the `shock-trigger` option says.
    pub(crate) fn state_test(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        hit: bool,
    ) -> Result<(), EngineError> {
        let Some((tp, state)) = self.cardr(attacker).weapons[weapon].state_test else { return Ok(()) };
        if self.rules().engine_options.shock_trigger == ShockTrigger::Hit && !hit {
            return Ok(());
        }
        if self.rules().states[state as usize].immune.contains(&self.cardr(target).model_type) {
            let name = self.rules().states[state as usize].name.clone();
            emit!(self, Event::StateIgnored { model: target, state: name, why: "immune" });
            return Ok(());
        }
        let s = Situation { attacker: target, ..Situation::default() };
        let mods = self.modifiers(&[], ModifierTarget::PilotCheck, &s, true);
        let out = self.roll(target, "state-test", self.rules().standard, mods, Some(tp), None, false);
        if !out.success {
            self.game.models[target].pending.states.push(state);
        }
        Ok(())
    }

    pub(crate) fn out_of_ammo(&mut self, attacker: usize, weapon: usize) -> Result<(), EngineError> {
        // `crit_fumble` hears every critical fumble, whether or not the weapon can run dry.
        let mods = self.call_hooks(HookCtx::new(HookPoint::CritFumble, attacker).weapon(weapon))?.take(Quantity::Roll);
        // Each earlier fumble of this model in the same action makes the check harder.
        let earlier = self.game.fumbles.iter().filter(|&&m| m == attacker).count() as u32;
        self.game.fumbles.push(attacker);
        let on = self.cardr(attacker).weapons[weapon].out_of_ammo_on;
        if on == 0 {
            return Ok(());
        }
        let rolls = &self.rules().proc.rolls;
        // (A card whose weapon may run dry needs the die: `cav-compile` says so.)
        let Some(die) = rolls.out_of_ammo_die else { return Ok(()) };
        let (step, empties) = (rolls.out_of_ammo_step, rolls.out_of_ammo_empties);
        let tp = on.saturating_add(1).saturating_add(step.saturating_mul(earlier)).min(i32::MAX as u32) as i32;
        let out = self.roll(attacker, "out-of-ammo", die, mods, Some(tp), None, false);
        if !out.success {
            let card = self.cardr(attacker);
            let name = card.weapons[weapon].name.clone();
            let jams: Vec<usize> = match empties {
                AmmoEmpties::Mount => vec![weapon],
                AmmoEmpties::Weapon => {
                    let id = &card.weapons[weapon].weapon;
                    (0..card.weapons.len()).filter(|&k| card.weapons[k].weapon == *id).collect()
                }
            };
            let me = &mut self.game.models[attacker];
            let saved = me.ammo_reserve > 0;
            if saved {
                me.ammo_reserve -= 1;
            } else {
                for k in jams {
                    me.out_of_ammo[k] = true;
                }
            }
            emit!(self, Event::OutOfAmmo { model: attacker, weapon: name, saved_by_reserve: saved });
        }
        Ok(())
    }

    /// A hit: margin + RAV (+ any area trade-off) against AV, then the damage table.
    pub(crate) fn hit(
        &mut self,
        attacker: usize,
        weapon: usize,
        target: usize,
        margin: i32,
        extra_rav: &[ModApplied],
        band: Option<usize>,
    ) -> Result<(), EngineError> {
        let reduce = self.cardr(target).damage_result;
        let ctx = HookCtx::new(HookPoint::DamageCalc, attacker).target(target).weapon(weapon).band(band);
        let mut answer = self.call_hooks_on_copy(&ctx)?;
        let mos = (margin - reduce).max(0).saturating_add(answer.sum(Quantity::Mos)).max(0);
        let rav = self.game.rav(attacker, weapon, target);
        // A model inside a structure adds its armor class to its AV (001 L6184-6190).
        let shelter = self.game.structure_at(target).map_or(0, |a| self.game.structure_ac(a));
        // The target's conditional AV effects (Reactive Armor against solid rounds, …).
        let s = Situation { attacker, defender: Some(target), weapon: Some(weapon), band, ..Situation::default() };
        let conditional = self.conditional_effects(target, ModifierTarget::ArmorValue, &s);
        let av = (self.cardr(target).armor[self.game.column(target)] as i32)
            .saturating_add(conditional)
            .saturating_add(answer.sum(Quantity::Av))
            .saturating_add(shelter);
        // Modifiers never take an attack's RAV below 0 (SMART's trade, 001 L8345-8350).
        let extra = extra_rav.iter().fold(0i32, |a, m| a.saturating_add(m.value));
        let rav_total = rav.saturating_add(extra).saturating_add(answer.sum(Quantity::Rav)).max(rav.min(0));
        let penetrated = mos.saturating_add(rav_total) >= av;
        // The weapon's name is only read by the log (a copy costs an allocation).
        let name = if self.log.narrative() { self.cardr(attacker).weapons[weapon].name.clone() } else { String::new() };
        // Why the numbers differ from the roll's margin and the cards (only for a narrative:
        // names cost allocations).
        let mut changes = Vec::new();
        if self.log.narrative() {
            let sas_with = |model: usize, t: ModifierTarget| -> String {
                let r = self.rules();
                let names: Vec<&str> = self
                    .cardr(model)
                    .sas
                    .iter()
                    .map(|&(sa, _)| &r.sas[sa as usize])
                    .filter(|sa| sa.effects.iter().any(|e| e.target == t))
                    .map(|sa| sa.name.as_str())
                    .collect();
                if names.is_empty() { "the target's card".to_owned() } else { names.join(", ") }
            };
            let cut = margin.max(0).min(reduce);
            if cut != 0 {
                changes.push(HitChange {
                    to: "MoS",
                    source: sas_with(target, ModifierTarget::DamageResult),
                    value: -cut,
                });
            }
            for (to, q) in [("MoS", Quantity::Mos), ("RAV", Quantity::Rav), ("AV", Quantity::Av)] {
                changes.extend(answer.take(q).into_iter().map(|m| HitChange { to, source: m.source, value: m.value }));
            }
            changes.extend(extra_rav.iter().map(|m| HitChange { to: "RAV", source: m.source.clone(), value: m.value }));
            let table_cut = self.cardr(target).damage_table_result;
            if table_cut != 0 {
                changes.push(HitChange {
                    to: "result",
                    source: sas_with(target, ModifierTarget::DamageTableResult),
                    value: -table_cut,
                });
            }
            if conditional != 0 {
                changes.push(HitChange {
                    to: "AV",
                    source: sas_with(target, ModifierTarget::ArmorValue),
                    value: conditional,
                });
            }
            if shelter != 0 {
                changes.push(HitChange {
                    to: "AV",
                    source: "inside a structure (its armor class)".to_owned(),
                    value: shelter,
                });
            }
        }
        emit!(
            self,
            Event::Hit { model: attacker, target, weapon: name, margin: mos, rav: rav_total, av, penetrated, changes }
        );
        if penetrated {
            // The damage table says what it is read by: the margin or the final result.
            let index = match self.rules().damage.key {
                Some(LookupKey::FinalResult) => mos.saturating_add(rav_total).saturating_sub(av),
                _ => mos,
            };
            // Taken off the table's result, not the margin, and never below 0 (001 L8089-8097).
            let index = index.saturating_sub(self.cardr(target).damage_table_result).max(index.min(0));
            self.damage_result(&ctx, index)?;
        }
        self.call_hooks(HookCtx { point: HookPoint::OnHit, ..ctx })?;
        Ok(())
    }

    /// A penetrating hit: the damage table's row for `index` (the margin or the final result, as
    /// the ruleset reads it), `damage_table` handlers, and what the row gives (damage, a pilot
    /// check, states, a critical).
    fn damage_result(&mut self, ctx: &HookCtx, index: i32) -> Result<(), EngineError> {
        let r = self.rules();
        let (attacker, target, weapon) = (ctx.model, ctx.target.unwrap_or(ctx.model), ctx.weapon.unwrap_or(0));
        let Some(row) = r.damage.row(index) else { return Ok(()) };
        let ty = self.cardr(target).model_type;
        // Dug in, infantry are never "in the open" (001 L5359-5361).
        let open = || {
            if self.game.models[target].has(&crate::game::actions::DUG_IN) {
                return false;
            }
            let at = self.game.models[target].pos;
            self.game.board.areas.iter().filter(|x| x.poly.contains(at)).all(|x| r.terrains[x.terrain].open)
        };
        // A dispersed model (infantry in the full rules) takes the ruleset's fixed damage.
        let dispersed = r.proc.damage.dispersed.filter(|_| r.has_trait(ty, ModelTrait::Dispersed));
        let base = match dispersed {
            Some(d) => d.per_hit + if open() { d.in_open } else { 0 },
            None => {
                let mut factor = 1;
                if r.has_trait(ty, ModelTrait::Infantry) && open() {
                    factor = self.cardr(attacker).weapons[weapon].open_infantry_factor;
                }
                (row.damage + row.damage_both) * factor
            }
        };
        let at = HookPoint::DamageTable;
        let answer = if self.hooks.wants_at(&self.game, at, ctx.model, ctx.target, ctx.weapon) {
            self.run_hooks(HookCtx { point: at, value: Some(f64::from(base)), ..ctx.clone() })?
        } else {
            Answer::default()
        };
        if let Some(reason) = answer.forbid {
            emit!(self, Event::Forbidden { model: attacker, what: "damage", reason });
            return Ok(());
        }
        let damage = base.saturating_add_signed(answer.sum(Quantity::Damage));
        emit!(self, Event::DamageResult { target, row: row.name.clone(), damage });
        self.game.damage_dealt[self.game.models[attacker].side] += damage;
        self.take_damage(attacker, target, damage);
        if row.damage_both > 0 {
            self.game.models[attacker].pending.damage += row.damage_both;
        }
        let p = &mut self.game.models[target].pending;
        if let Some(pc) = row.pilot_check {
            // One pilot check per activation, at the worst modifier called for.
            p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
        }
        p.states.extend(row.states.iter().copied());
        if row.critical && dispersed.is_none() && r.engine_options.ranged_critical == RangedCritical::Critical {
            p.criticals += 1;
        }
        Ok(())
    }

    /// Cover a model stands in or is next to, against indirect fire (for secondary rolls): not
    /// what indirect fire ignores (smoke, 001 L4119-4121).
    pub(crate) fn standing_cover(&self, target: usize) -> Cover {
        let g = &self.game;
        let p = g.models[target].pos;
        let reach = g.card(target).base_radius + self.rules().proc.sight.adjacent_cover;
        let elevation = g.elevation(target);
        g.board
            .areas
            .iter()
            .filter(|area| area.poly.distance(p) <= reach)
            .filter(|area| !self.rules().terrains[area.terrain].no_cover_from_indirect)
            // Ground it stands on raises it: no cover to it.
            .filter(|area| !(self.rules().terrains[area.terrain].raises_ground && area.poly.contains(p)))
            .map(|area| g.area_cover(area, elevation).0)
            .filter(|c| *c != Cover::Blocking)
            .max_by_key(|c| cover_rank(*c))
            .unwrap_or(Cover::None)
    }

    /// Single-use mounts that fired (by any path: the action, a reaction during it) are spent,
    /// once the action is over: the copies of one mount fire together (`single_use`).
    /// A mount a single-use upgrade arms spends one purchase, and is out of ammo with the last.
    pub(crate) fn spend_single_use(&mut self) {
        let mut fired = std::mem::take(&mut self.game.single_use_fired);
        fired.sort_unstable();
        fired.dedup();
        for (m, w) in fired {
            if let Some(sa) = self.cardr(m).weapons.get(w).and_then(|x| x.charges) {
                let bought = self.cardr(m).sas.iter().find(|(x, _)| *x == sa).map_or(1, |(_, n)| (*n).max(1) as u32);
                if self.game.models[m].spend_charge(sa) < bought {
                    continue;
                }
            }
            if self.game.models[m].out_of_ammo.get(w).is_some_and(|spent| !spent) {
                self.game.models[m].out_of_ammo[w] = true;
                let weapon = self.cardr(m).weapons[w].name.clone();
                emit!(self, Event::OutOfAmmo { model: m, weapon, saved_by_reserve: false });
            }
        }
    }
}
