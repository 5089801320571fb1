//! The attack procedures the combat actions share: combat rolls, hits and damage-table rows,
//! shock tests, out of ammo, strike points and drift, area attacks.

use super::engine::{Situation, round2};
use super::state::cover_rank;
use super::*;
use crate::event::HitChange;
use cav_format::LookupKey;
use cav_format::rules::AmmoEmpties;

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
    fn direct_roll(
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
        let r = self.rules();
        let m = &self.cardr(attacker).weapons[weapon];
        // A template weapon lays its strip whatever the path that fires it (a reaction too).
        if m.template.is_some() {
            return self.template_attack(attacker, weapon, target);
        }
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
            return Ok(());
        }
        mods.extend(answer.take(Quantity::Roll));
        let dice = answer.dice.unwrap_or(r.standard);
        if defensive && r.proc.defensive_fire.is_some_and(|d| d.drops_bonuses) {
            mods.retain(|m| m.value <= 0); // the ruleset's defensive fire takes no bonuses
        }
        // A critical success can never need less than a roll above a critical fumble.
        let crit_at = (r.critical_success as i32 + m.crit_shift).max(r.critical_fumble as i32 + 1) as u32;
        let tp = r.bands[band].combat_tp;
        let out = self.combat_roll(ctx, "combat", dice, mods, Some(tp), Some(crit_at), false)?;
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
        let (die, step, empties) = (rolls.out_of_ammo_die, rolls.out_of_ammo_step, rolls.out_of_ammo_empties);
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
        let av = (self.cardr(target).av[self.game.column(target)] as i32)
            .saturating_add(conditional)
            .saturating_add(answer.sum(Quantity::Av))
            .saturating_add(shelter);
        // Modifiers never take an attack's RAV below 0 (SMART's trade, 001 L8345-8350).
        let extra = extra_rav.iter().fold(0i32, |a, m| a.saturating_add(m.value));
        let rav_total = rav.saturating_add(extra).saturating_add(answer.sum(Quantity::Rav)).max(rav.min(0));
        let penetrated = mos.saturating_add(rav_total) >= av;
        // The weapon's name is only read by the log (a copy costs an allocation).
        let name = if self.log.enabled() { self.cardr(attacker).weapons[weapon].name.clone() } else { String::new() };
        // Why the numbers differ from the roll's margin and the cards (only when logging: names
        // cost allocations).
        let mut changes = Vec::new();
        if self.log.enabled() {
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
            self.damage_result(ctx.clone(), index)?;
        }
        self.call_hooks(HookCtx { point: HookPoint::OnHit, ..ctx })?;
        Ok(())
    }

    /// A penetrating hit: the damage table's row for `index` (the margin or the final result, as
    /// the ruleset reads it), `damage_table` handlers, and what the row gives (damage, a pilot
    /// check, states, a critical).
    fn damage_result(&mut self, ctx: HookCtx, index: i32) -> Result<(), EngineError> {
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
        let answer = self.call_hooks(HookCtx { point: HookPoint::DamageTable, value: Some(f64::from(base)), ..ctx })?;
        if let Some(reason) = answer.forbid {
            emit!(self, Event::Forbidden { model: attacker, what: "damage", reason });
            return Ok(());
        }
        let damage = base.saturating_add_signed(answer.sum(Quantity::Damage));
        emit!(self, Event::DamageResult { target, row: row.name.clone(), damage });
        self.game.damage_dealt[self.game.models[attacker].side] += damage;
        let p = &mut self.game.models[target].pending;
        p.damage += damage;
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

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn strike_point(
        &mut self,
        attacker: usize,
        target: Option<usize>,
        weapon: usize,
        band: usize,
        distance: f64,
        aim: P,
        run_n_gun: i32,
        ctrl: &mut dyn Controller,
    ) -> Result<Option<P>, EngineError> {
        let r = self.rules();
        emit!(
            self,
            Event::Aimed {
                model: attacker,
                target,
                weapon: self.cardr(attacker).weapons[weapon].name.clone(),
                at: aim,
                distance: round2(distance),
                band: r.bands[band].name.clone(),
            }
        );
        let attempts = match self.game.models[attacker].strike_memory {
            Some((p, n, hit)) if p.dist(aim) < 0.5 => {
                if hit {
                    emit!(self, Event::StrikePoint { model: attacker, at: aim });
                    return Ok(Some(aim)); // a repeat at a point already hit needs no roll
                }
                n as i32
            }
            _ => 0,
        };
        let los = match target {
            Some(t) => self.game.sight(attacker, t, false).0,
            None => self.game.sees_point(attacker, aim),
        };
        let s = Situation {
            attacker,
            defender: target,
            weapon: Some(weapon),
            band: Some(band),
            distance,
            primary: true,
            attempts,
            los_to_point: los,
            extra_targets: if self.game.active == Some(attacker) { self.game.extra_targets } else { 0 },
            // A run 'n gun's weapons make its strike-point roll harder, one each (001 L5216-5218).
            weapons_fired: run_n_gun,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.strike_point_mods, ModifierTarget::StrikePointRoll, &s, true);
        let ctx = HookCtx::new(HookPoint::StrikePoint, attacker).target(target).weapon(weapon).band(band);
        let mut answer = self.call_hooks_on_copy(&ctx)?;
        // A handler may stop the munition before it lands (Point Defense shoots it down).
        if let Some(reason) = answer.forbid {
            emit!(self, Event::Forbidden { model: attacker, what: "attack", reason });
            return Ok(None);
        }
        mods.extend(answer.take(Quantity::Roll));
        // A guided munition homes on a painted target (the mortars' TAG bonus).
        let guided = self.cardr(attacker).weapons[weapon].guided_strike;
        if let Some((_, painted)) = guided
            && painted != 0
            && target.is_some_and(|t| self.game.painted(attacker, t))
        {
            mods.push(ModApplied { source: "painted target (guided munition)".into(), value: painted, charge: None });
        }
        // Chain-Fire Pod: a squad mate's roll at this target this turn stands for this one.
        // (A chain is at a model: a point with none aimed at starts no chain.)
        let chain = (self.cardr(attacker).chain_fire.zip(self.game.models[attacker].squad).zip(target))
            .filter(|(((reach, _), _), target)| self.game.range(attacker, *target) <= *reach);
        let turn = self.game.turn;
        if let Some((((_, _), squad), target)) = chain
            && let Some(link) = self.game.chains.iter().find(|c| (c.0, c.1, c.2) == (squad, target, turn)).map(|c| c.3)
        {
            return match link {
                Some(point) => {
                    emit!(self, Event::StrikePoint { model: attacker, at: point });
                    Ok(Some(point))
                }
                None => self.drift(attacker, aim, r.bands[band].drift_bonus, ctx).map(Some),
            };
        }
        let tp = r.bands[band].strike_point_tp;
        let out = self.roll(
            attacker,
            "strike-point",
            r.standard,
            mods,
            Some(tp),
            None,
            self.ten_plus(RollKind::StrikePointRoll),
        );
        self.game.models[attacker].strike_memory = Some((aim, attempts as u32 + 1, out.success));
        // The first of a chain, holding a target-lock on the target, sets it for its squad mates.
        if let Some((((_, true), squad), target)) = chain
            && self.game.models[attacker].lock == Some(target)
            && !self.game.chains.iter().any(|c| (c.0, c.1, c.2) == (squad, target, turn))
        {
            self.game.chains.retain(|c| c.2 == turn);
            self.game.chains.push((squad, target, turn, out.success.then_some(aim)));
        }
        if out.success {
            emit!(self, Event::StrikePoint { model: attacker, at: aim });
            return Ok(Some(aim));
        }
        if out.fumble {
            self.out_of_ammo(attacker, weapon)?;
        }
        if guided.is_some() {
            return Ok(None); // a guided munition that misses its point is lost: no drift
        }
        let mut from = aim;
        if out.fumble {
            // The defender moves the strike point to any legal location (000 L766-770); the
            // engine suggests a few, and picks among them for a controller that does not choose.
            let m = &self.cardr(attacker).weapons[weapon];
            let (min, max) = (m.min_range, m.range * r.bands.last().map_or(1.0, |b| b.multiplier));
            let ua = &self.game.models[attacker];
            // Ranges are measured as the ruleset measures them; the point is placed from the centre.
            let reach = self.game.range_offset(attacker);
            let options: Vec<P> = (-2..=2)
                .flat_map(|k| {
                    let dir = P::heading(ua.facing + f64::from(k) * 20.0);
                    let far = (max - 0.5).min(self.board_exit(ua.pos, dir) - reach);
                    [min + 1.0, (min + far) / 2.0, far]
                        .into_iter()
                        .filter(move |&d| d > min && d <= far)
                        .map(move |d| ua.pos + dir.scale(d + reach))
                })
                .filter(|&p| self.relocation_refusal(attacker, weapon, p).is_none())
                .collect();
            // At a point with no model, the enemy nearest it answers for its side.
            let defender = target.or_else(|| self.nearest_enemy(attacker, aim));
            let Some(defender) = defender else {
                return self.drift(attacker, from, r.bands[band].drift_bonus, ctx).map(Some);
            };
            match ctrl.relocate_strike_point(&self.game, attacker, defender, &options) {
                Some(p) => match self.relocation_refusal(attacker, weapon, p) {
                    None => from = p,
                    Some(why) => {
                        return Err(EngineError::IllegalAction {
                            model: self.game.models[defender].name.clone(),
                            action: format!("moving the fumbled strike point to ({:.2}, {:.2})", p.x, p.y),
                            reason: why,
                        });
                    }
                },
                None => {
                    if let Some(p) = self.relocate(defender, &options) {
                        from = p;
                    }
                }
            }
        }
        self.drift(attacker, from, r.bands[band].drift_bonus, ctx).map(Some)
    }

    /// A missed strike point drifts from `from`: the drift die gives the distance (plus `bonus`
    /// inches, `drift` modifiers added) and the direction.
    pub(crate) fn drift(&mut self, attacker: usize, from: P, bonus: u32, ctx: HookCtx) -> Result<P, EngineError> {
        let r = self.rules();
        let (faces, dist) = r.drift.roll(self.dice);
        let face = faces.first().copied().unwrap_or(1);
        let inches = f64::from(dist) + f64::from(bonus);
        let more =
            self.call_hooks(HookCtx { point: HookPoint::Drift, value: Some(inches), ..ctx })?.sum(Quantity::Drift);
        let inches = (inches + f64::from(more)).max(0.0);
        // The die's point gives the direction, clockwise from the attacker's facing.
        let dir = P::heading(self.game.models[attacker].facing + self.dice.drift_direction(face, r.drift.sides));
        // The drift decides the final point of impact on the game board (001 L4846-4850), and a
        // strike point is a location on the board (000 L768): a drift that would carry it off
        // the board stops at the edge.
        let to = from + dir.scale(inches.min(self.board_exit(from, dir)));
        emit!(self, Event::Drift { model: attacker, from, to, inches });
        Ok(to)
    }

    /// The strike-point roll of a strike package called in (`call-strike`): no range band, the
    /// ruleset's `strike_point_tp`, the strike-package table's modifiers (the caller's FIST
    /// rating) and `strike_point` handlers; a miss drifts, with no
    /// band's extra inches. Returns where the strike lands.
    pub(crate) fn strike_package_point(
        &mut self,
        caller: usize,
        mount: usize,
        aim: P,
        aimed: Option<usize>,
    ) -> Result<P, EngineError> {
        let r = self.rules();
        let Some(tp) = r.proc.strike_point_tp else { return Ok(aim) };
        let los = aimed.is_some_and(|t| self.game.sight(caller, t, false).0);
        let s = Situation {
            attacker: caller,
            defender: aimed,
            weapon: Some(mount),
            distance: self.game.models[caller].pos.dist(aim),
            primary: true,
            los_to_point: los,
            strike: true,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.strike_package_mods, ModifierTarget::StrikePointRoll, &s, true);
        let ctx = HookCtx::new(HookPoint::StrikePoint, caller).target(aimed).weapon(mount);
        mods.extend(self.call_hooks_on_copy(&ctx)?.take(Quantity::Roll));
        let ten_plus = self.ten_plus(RollKind::StrikePointRoll);
        let out = self.roll(caller, "strike-point", r.standard, mods, Some(tp), None, ten_plus);
        if out.success {
            emit!(self, Event::StrikePoint { model: caller, at: aim });
            return Ok(aim);
        }
        self.drift(caller, aim, 0, ctx)
    }

    /// How far from `from` (on the board) along the unit direction `dir` the board's edge is.
    pub(crate) fn board_exit(&self, from: P, dir: P) -> f64 {
        let [w, h] = self.game.board.size;
        let axis = |p: f64, d: f64, size: f64| {
            if d > 1e-12 {
                (size - p) / d
            } else if d < -1e-12 {
                -p / d
            } else {
                f64::INFINITY
            }
        };
        axis(from.x, dir.x, w).min(axis(from.y, dir.y, h)).max(0.0)
    }

    /// When the defender's controller has no preference: the option farthest from all of its
    /// side's models (attacker sensible, deterministic choice).
    /// Why a fumbled strike point may not be moved to `p`, if it may not: the new point lies on
    /// the game board, in the attacker's front arc, outside the weapon's minimum range and
    /// within its extreme band (000 L766-770).
    pub(crate) fn relocation_refusal(&self, attacker: usize, weapon: usize, p: P) -> Option<String> {
        let r = self.rules();
        let m = &self.cardr(attacker).weapons[weapon];
        let (min, max) = (m.min_range, m.range * r.bands.last().map_or(1.0, |b| b.multiplier));
        let ua = &self.game.models[attacker];
        let range = self.game.range_to_point(attacker, p);
        if !self.game.on_board(p) {
            Some("off the game board".into())
        } else if ua.pos.dist(p) > 1e-9
            && angle_diff(ua.facing, ua.pos.bearing(p)).abs() > r.proc.sight.arc_half_width + 1e-9
        {
            Some("outside the attacker's front arc".into())
        } else if range < min - 1e-9 {
            Some(format!("inside the weapon's minimum range ({range:.2}\" of {min}\")"))
        } else if range > max + 1e-9 {
            Some(format!("beyond the weapon's extreme band ({range:.2}\" of {max}\")"))
        } else {
            None
        }
    }

    /// The enemy of `attacker` on the table nearest `p`, if any.
    fn nearest_enemy(&self, attacker: usize, p: P) -> Option<usize> {
        let side = self.game.models[attacker].side;
        (0..self.game.models.len())
            .filter(|&m| self.game.models[m].side != side && self.game.models[m].on_table())
            .min_by(|&a, &b| self.game.models[a].pos.dist(p).total_cmp(&self.game.models[b].pos.dist(p)))
    }

    pub(crate) fn relocate(&self, target: usize, options: &[P]) -> Option<P> {
        let side = self.game.models[target].side;
        let nearest_friend = |p: P| {
            self.game
                .models
                .iter()
                .filter(|u| u.side == side && u.on_table())
                .map(|u| u.pos.dist(p))
                .fold(f64::INFINITY, f64::min)
        };
        options.iter().copied().max_by(|x, y| nearest_friend(*x).total_cmp(&nearest_friend(*y)))
    }

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
            let at_point =
                |g: &Game, i: usize| g.models[i].on_table() && g.models[i].pos.dist(point) <= g.card(i).base_radius;
            let target = aimed
                .filter(|&t| at_point(&self.game, t))
                .or_else(|| (0..self.game.models.len()).find(|&i| i != attacker && at_point(&self.game, i)));
            if let Some(target) = target {
                let distance = self.game.range(attacker, target);
                self.direct_roll(attacker, weapon, target, band, distance, salvo_extra, 0, false)?;
            }
            return Ok(());
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
        // A strip (a bomb rack's carpet, a gunship's corridor) lies along the direction declared,
        // else the attacker's heading, centred on the point.
        let along = heading.unwrap_or(self.game.models[attacker].facing);
        let strip = m.strip.map(|(length, width)| (crate::game::state::strip_ends(point, along, length), width / 2.0));
        // The weapon's (or strike's) Blaster widens the critical window of its rolls here too.
        let crit_at = (r.critical_success as i32 + m.crit_shift).max(r.critical_fumble as i32 + 1) as u32;
        let victims: Vec<usize> = (0..self.game.models.len())
            .filter(|&i| {
                let (at, base) = (self.game.models[i].pos, self.cardr(i).base_radius);
                i != attacker
                    && self.game.attackable(i)
                    && match strip {
                        Some(((a, b), half)) => crate::geom::seg_point_dist(a, b, at) <= half + base,
                        None => at.dist(point) <= radius + base,
                    }
            })
            .collect();
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
                let out = self.combat_roll(ctx, "secondary-combat", dice, mods, Some(tp), Some(crit_at), false)?;
                self.state_test(attacker, weapon, target, out.success)?;
                if out.success {
                    self.hit(attacker, weapon, target, out.margin, &extra_rav, None)?;
                }
            }
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
