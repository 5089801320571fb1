//! Attacks: direct and indirect fire, salvo, defensive fire, close combat and break, hits and damage-table rows.

use super::*;

impl<'a, 'r> Engine<'a, 'r> {
    pub(super) fn fire(
        &mut self,
        a: usize,
        d: usize,
        weapons: &[usize],
        indirect: bool,
        run_n_gun: i32,
        ctrl: &mut dyn Controller,
    ) -> Result<(), FireError> {
        if d >= self.game.units.len() || self.game.units[d].side == self.game.units[a].side {
            return Err(FireError::Illegal("the target is not an enemy model".into()));
        }
        if weapons.is_empty() {
            return Err(FireError::Illegal("no weapons declared".into()));
        }
        let mut shots = Vec::new();
        for &w in weapons {
            let shot = match self.game.shot(a, w, d, indirect) {
                Shot::No(reason) => Err(reason),
                s => match self
                    .hook_with(HookPoint::AttackDeclare, a, Some(d), Some(w), &mut Vec::new())
                    .map_err(FireError::Engine)?
                {
                    Some(reason) => Err(reason),
                    None => Ok(s),
                },
            };
            match shot {
                Err(reason) => {
                    let weapon = self.cardr(a).weapons.get(w).map(|m| m.name.clone()).unwrap_or_default();
                    emit!(self, Event::NoAttack { unit: a, target: d, weapon, reason });
                }
                Ok(s) => shots.push((w, s)),
            }
        }
        let answer = if shots.is_empty() { None } else { self.declare_defensive_fire(a, d, ctrl) };
        if indirect {
            // One strike-point roll for the whole assault, at the range of the first weapon.
            let Some(&(first, Shot::Indirect { band, distance })) = shots.first() else { return Ok(()) };
            let target_pos = self.game.units[d].pos;
            let point = self.strike_point(a, d, first, band, distance, target_pos, ctrl).map_err(FireError::Engine)?;
            for (w, _) in shots {
                self.area_attack(a, w, point, Some(d)).map_err(FireError::Engine)?;
            }
            return self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine);
        }
        for (w, shot) in shots {
            if !self.game.units[d].on_table() {
                break;
            }
            let Shot::Direct { band, distance } = shot else { continue };
            let m = &self.cardr(a).weapons[w];
            let quantity = m.quantity;
            for _ in 0..quantity {
                if !self.game.units[d].on_table() || self.game.units[a].out_of_ammo[w] {
                    break;
                }
                self.attack_roll(a, w, d, band, distance, 0, run_n_gun, false).map_err(FireError::Engine)?;
            }
        }
        self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine)
    }

    /// A model attacked before its own activation this turn may declare defensive fire.
    pub(super) fn declare_defensive_fire(
        &mut self,
        a: usize,
        d: usize,
        ctrl: &mut dyn Controller,
    ) -> Option<Vec<usize>> {
        let max = self.rules().proc.defensive_fire_max_band?;
        let def = &self.game.units[d];
        if def.activated || def.fired_this_turn || !def.on_table() || def.prone || !self.game.can_fight(d) {
            return None;
        }
        let n = self.cardr(d).weapons.len();
        let possible =
            (0..n).any(|k| matches!(self.game.shot(d, k, a, false), Shot::Direct { band, .. } if band <= max));
        if !possible {
            return None;
        }
        let weapons = ctrl.defensive_fire(&self.game, d, a)?;
        self.game.units[d].fired_this_turn = true;
        emit!(self, Event::DefensiveFire { unit: d, target: a });
        Some(weapons)
    }

    /// Defensive fire resolves after the attacker's assaults, with the defender's pre-damage values.
    pub(super) fn resolve_defensive_fire(
        &mut self,
        a: usize,
        d: usize,
        weapons: Option<Vec<usize>>,
    ) -> Result<(), EngineError> {
        let Some(weapons) = weapons else { return Ok(()) };
        let max = self.rules().proc.defensive_fire_max_band.unwrap_or(0);
        for k in weapons {
            let Shot::Direct { band, distance } = self.game.shot(d, k, a, false) else { continue };
            if band > max {
                continue;
            }
            for _ in 0..self.cardr(d).weapons[k].quantity {
                if self.game.units[a].on_table() && !self.game.units[d].out_of_ammo[k] {
                    self.attack_roll(d, k, a, band, distance, 0, 0, true)?;
                }
            }
        }
        Ok(())
    }

    /// Close combat: an opposed roll of 2d6 + CCV each; the winner's margin is read on the
    /// close-combat damage table (a tie hurts both).
    pub(super) fn close_combat(&mut self, a: usize, d: usize) -> Result<(), FireError> {
        let r = self.rules();
        let Some(table) = r.close_combat_damage.as_ref() else {
            return Err(FireError::Illegal("this ruleset has no close combat".into()));
        };
        if d >= self.game.units.len()
            || self.game.units[d].side == self.game.units[a].side
            || !self.game.units[d].on_table()
        {
            return Err(FireError::Illegal("the target is not an enemy model".into()));
        }
        let contact = r.proc.contact_distance;
        if self.game.distance(a, d) > contact {
            return Err(FireError::Illegal("close combat needs base-to-base contact".into()));
        }
        let supporters = (0..self.game.units.len())
            .filter(|&i| {
                i != a
                    && self.game.units[i].side == self.game.units[a].side
                    && self.game.units[i].on_table()
                    && self.game.distance(i, d) <= contact
            })
            .count() as i32;
        let supporters = supporters.min(r.proc.close_combat_max_attackers.map_or(i32::MAX, |m| m as i32 - 1));
        emit!(self, Event::CloseCombat { unit: a, target: d, supporters: supporters as u32 });
        let ccv = |g: &Game, x: usize, y: usize| {
            let (h, s) = g.card(x).ccv[g.column(x)];
            let yc = g.card(y);
            let v = if yc.soft && !yc.hard { s } else { h };
            if g.units[x].zeroed { 0 } else { v.map_or(0, i32::from) }
        };
        let roll_for = |this: &mut Self, x: usize, y: usize, sup: i32| {
            let s = Situation {
                attacker: x,
                defender: Some(y),
                supporters: sup,
                failed_break: this.game.units[x].failed_break,
                ..Situation::default()
            };
            let mut mods = this.modifiers(&r.close_combat_mods, ModifierTarget::CombatRoll, &s, true);
            mods.insert(0, ModApplied { source: "close-combat value".into(), value: ccv(&this.game, x, y) });
            this.roll(x, "close-combat", r.standard, mods, None, Some(r.critical_success), false)
        };
        let ra = roll_for(self, a, d, supporters);
        let rd = roll_for(self, d, a, 0);
        // A critical fumble hands the opponent an extra die.
        let bonus = |this: &mut Self, who: usize| {
            let Some(b) = r.critical_bonus else { return 0 };
            let (faces, v) = b.roll(this.dice);
            emit!(
                this,
                Event::Roll(Roll {
                    unit: who,
                    kind: "fumble-bonus",
                    dice: b.to_string(),
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
        let ta = ra.total + if rd.fumble { bonus(self, a) } else { 0 };
        let td = rd.total + if ra.fumble { bonus(self, d) } else { 0 };
        self.game.units[a].engaged = true;
        self.game.units[d].engaged = true;
        let (winner, loser, margin) = if ta >= td { (a, d, ta - td) } else { (d, a, td - ta) };
        let Some(row) = table.row(margin).cloned() else { return Ok(()) };
        let tie = ta == td;
        emit!(self, Event::DamageResult { target: loser, row: row.name.clone(), damage: row.damage + row.damage_both });
        if tie && row.damage_both > 0 {
            self.game.units[a].pending.damage += row.damage_both;
            self.game.units[d].pending.damage += row.damage_both;
        } else {
            self.game.damage_dealt[self.game.units[winner].side] += row.damage;
            let p = &mut self.game.units[loser].pending;
            p.damage += row.damage;
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

    /// Break: a 10+ roll with the CCV, +1 per friend and −1 per enemy still in contact; success
    /// moves the model away with part of its MV, failure leaves it in place (−1 in close combat).
    pub(super) fn break_away(&mut self, u: usize, to: P, ctrl: &mut dyn Controller) -> Result<(), FireError> {
        let r = self.rules();
        let Some(tp) = r.proc.break_tp else {
            return Err(FireError::Illegal("this ruleset has no break action".into()));
        };
        let contact = r.proc.contact_distance;
        let side = self.game.units[u].side;
        let touching: Vec<usize> = (0..self.game.units.len())
            .filter(|&i| i != u && self.game.units[i].on_table() && self.game.distance(i, u) <= contact)
            .collect();
        let enemies: Vec<usize> = touching.iter().copied().filter(|&i| self.game.units[i].side != side).collect();
        let friends = touching.len() - enemies.len();
        let ccv = enemies.first().map_or(0, |&e| {
            let (h, s) = self.cardr(u).ccv[self.game.column(u)];
            let ec = self.cardr(e);
            (if ec.soft && !ec.hard { s } else { h }).map_or(0, i32::from)
        });
        let s = Situation { attacker: u, ..Situation::default() };
        let mut mods = self.modifiers(&[], ModifierTarget::CombatRoll, &s, true);
        mods.insert(0, ModApplied { source: "close-combat value".into(), value: ccv });
        if friends > 0 {
            mods.push(ModApplied { source: "friendly models in contact".into(), value: friends as i32 });
        }
        if !enemies.is_empty() {
            mods.push(ModApplied { source: "enemy models in contact".into(), value: -(enemies.len() as i32) });
        }
        let out = self.roll(u, "break", r.standard, mods, Some(tp), None, self.ten_plus(RollKind::BreakRoll));
        if !out.success {
            self.game.units[u].failed_break = true;
            return Ok(());
        }
        self.game.units[u].engaged = false;
        let budget = (f64::from(self.game.move_value(u)) * r.proc.break_move_factor).floor() as u32;
        self.do_move(u, to, Some(budget.max(1)), ctrl).map_err(FireError::Illegal)?;
        // Enemies left alone are no longer held either.
        for e in enemies {
            let still = (0..self.game.units.len()).any(|i| {
                self.game.units[i].side != self.game.units[e].side
                    && self.game.units[i].on_table()
                    && self.game.distance(i, e) <= contact
            });
            if !still {
                self.game.units[e].engaged = false;
            }
        }
        Ok(())
    }

    /// Several weapons of the same type fire as one combat roll, +1 per weapon beyond the first
    /// (through the ruleset's `salvo-fire` modifier).
    pub(super) fn salvo(
        &mut self,
        a: usize,
        d: usize,
        weapons: &[usize],
        ctrl: &mut dyn Controller,
    ) -> Result<(), FireError> {
        if d >= self.game.units.len() || self.game.units[d].side == self.game.units[a].side {
            return Err(FireError::Illegal("the target is not an enemy model".into()));
        }
        let card = self.cardr(a);
        let Some(&first) = weapons.first() else { return Err(FireError::Illegal("no weapons declared".into())) };
        if weapons.iter().any(|&w| card.weapons.get(w).is_none_or(|m| m.weapon != card.weapons[first].weapon)) {
            return Err(FireError::Illegal("a salvo uses weapons of one type only".into()));
        }
        let count: u32 = weapons.iter().map(|&w| card.weapons[w].quantity).sum();
        if count < 2 {
            return Err(FireError::Illegal("a salvo needs at least two weapons".into()));
        }
        let Shot::Direct { band, distance } = self.game.shot(a, first, d, false) else {
            return Err(FireError::Illegal("the salvo's weapons cannot fire at that target directly".into()));
        };
        let answer = self.declare_defensive_fire(a, d, ctrl);
        self.attack_roll(a, first, d, band, distance, count as i32 - 1, 0, false).map_err(FireError::Engine)?;
        self.resolve_defensive_fire(a, d, answer).map_err(FireError::Engine)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn attack_roll(
        &mut self,
        a: usize,
        w: usize,
        d: usize,
        band: usize,
        distance: f64,
        salvo_extra: i32,
        weapons_fired: i32,
        defensive: bool,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(a).weapons[w];
        let (_, cover) = self.game.sight(a, d, m.requires_target_lock);
        emit!(
            self,
            Event::Attack {
                unit: a,
                target: d,
                weapon: m.name.clone(),
                mode: "direct",
                distance: round2(distance),
                band: Some(r.bands[band].name.clone())
            }
        );
        let s = Situation {
            attacker: a,
            defender: Some(d),
            weapon: Some(w),
            band: Some(band),
            distance,
            cover: Some(cover),
            primary: true,
            salvo_extra,
            weapons_fired,
            defensive,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.combat_mods, ModifierTarget::CombatRoll, &s, true);
        self.hook_with(HookPoint::CombatTp, a, Some(d), Some(w), &mut mods)?;
        if defensive {
            mods.retain(|m| m.value <= 0); // defensive fire takes no bonuses (000 L819)
        }
        let crit_at = (r.critical_success as i32 + m.crit_shift).max(2) as u32;
        let tp = r.bands[band].combat_tp;
        let out = self.roll(a, "combat", r.standard, mods, Some(tp), Some(crit_at), false);
        self.state_test(a, w, d)?;
        if out.fumble {
            self.out_of_ammo(a, w)?;
            return Ok(());
        }
        if out.success {
            self.hit(a, w, d, out.margin, 0)?;
        }
        Ok(())
    }

    /// Shock and the like: the targeted model tests against the rating or gains a state.
    pub(super) fn state_test(&mut self, a: usize, w: usize, d: usize) -> Result<(), EngineError> {
        let Some((tp, state)) = self.cardr(a).weapons[w].state_test else { return Ok(()) };
        if self.rules().shock_on_hit_only {
            return Ok(());
        }
        if self.rules().states[state as usize].immune.contains(&self.cardr(d).model_type) {
            return Ok(());
        }
        let s = Situation { attacker: d, ..Situation::default() };
        let mods = self.modifiers(&[], ModifierTarget::PilotCheck, &s, true);
        let out = self.roll(d, "state-test", self.rules().standard, mods, Some(tp), None, false);
        if !out.success {
            self.game.units[d].pending.states.push(state);
        }
        Ok(())
    }

    pub(super) fn out_of_ammo(&mut self, a: usize, w: usize) -> Result<(), EngineError> {
        let on = self.cardr(a).weapons[w].out_of_ammo_on;
        if on == 0 {
            return Ok(());
        }
        let mut mods = Vec::new();
        self.hook(HookPoint::CritFumble, a, &mut mods)?;
        let die = self.rules().proc.out_of_ammo_die;
        let out = self.roll(a, "out-of-ammo", die, mods, None, None, false);
        if out.total <= on as i32 {
            let name = self.cardr(a).weapons[w].name.clone();
            let unit = &mut self.game.units[a];
            let saved = unit.ammo_reserve > 0;
            if saved {
                unit.ammo_reserve -= 1;
            } else {
                unit.out_of_ammo[w] = true;
            }
            emit!(self, Event::OutOfAmmo { unit: a, weapon: name, saved_by_reserve: saved });
        }
        Ok(())
    }

    /// A hit: margin + RAV (+ any area trade-off) against AV, then the damage table.
    pub(super) fn hit(&mut self, a: usize, w: usize, d: usize, margin: i32, extra_rav: i32) -> Result<(), EngineError> {
        let r = self.rules();
        let reduce = self.cardr(d).damage_result;
        let mos = (margin - reduce).max(0);
        let rav = self.game.rav(a, w, d);
        let av = self.cardr(d).av[self.game.column(d)] as i32;
        let mut mods = Vec::new();
        self.hook_with(HookPoint::DamageCalc, a, Some(d), Some(w), &mut mods)?;
        let rav_total = rav + extra_rav + mods.iter().map(|m| m.value).sum::<i32>();
        let penetrated = mos + rav_total >= av;
        let weapon = self.cardr(a).weapons[w].name.clone();
        emit!(self, Event::Hit { unit: a, target: d, weapon, margin: mos, rav: rav_total, av, penetrated });
        if !penetrated {
            return Ok(());
        }
        let Some(row) = r.damage.row(mos).cloned() else { return Ok(()) };
        let mut factor = 1;
        if matches!(self.cardr(d).model_type, ModelType::Infantry | ModelType::PoweredInfantry) {
            let open = self
                .game
                .board
                .areas
                .iter()
                .filter(|x| x.poly.contains(self.game.units[d].pos))
                .all(|x| r.terrains[x.terrain].open);
            if open {
                factor = self.cardr(a).weapons[w].open_infantry_factor;
            }
        }
        self.hook(HookPoint::DamageTable, d, &mut Vec::new())?;
        let damage = (row.damage + row.damage_both) * factor;
        emit!(self, Event::DamageResult { target: d, row: row.name.clone(), damage });
        self.game.damage_dealt[self.game.units[a].side] += damage;
        let p = &mut self.game.units[d].pending;
        p.damage += damage;
        if row.damage_both > 0 {
            self.game.units[a].pending.damage += row.damage_both;
        }
        let p = &mut self.game.units[d].pending;
        if let Some(pc) = row.pilot_check {
            // One pilot check per activation, at the worst modifier called for.
            p.pilot_check = Some(p.pilot_check.map_or(pc, |x| x.min(pc)));
        }
        p.states.extend(row.states.iter().copied());
        if row.critical && !r.no_ranged_critical {
            p.criticals += 1;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn strike_point(
        &mut self,
        a: usize,
        d: usize,
        w: usize,
        band: usize,
        distance: f64,
        aim: P,
        ctrl: &mut dyn Controller,
    ) -> Result<P, EngineError> {
        let r = self.rules();
        let attempts = match self.game.units[a].strike_memory {
            Some((p, n, hit)) if p.dist(aim) < 0.5 => {
                if hit {
                    emit!(self, Event::StrikePoint { unit: a, at: aim });
                    return Ok(aim); // a repeat at a point already hit needs no roll
                }
                n as i32
            }
            _ => 0,
        };
        let los = self.game.sight(a, d, false).0;
        let s = Situation {
            attacker: a,
            defender: Some(d),
            weapon: Some(w),
            band: Some(band),
            distance,
            primary: true,
            attempts,
            los_to_point: los,
            ..Situation::default()
        };
        let mut mods = self.modifiers(&r.strike_point_mods, ModifierTarget::StrikePointRoll, &s, true);
        self.hook_with(HookPoint::StrikePoint, a, Some(d), Some(w), &mut mods)?;
        let tp = r.bands[band].strike_point_tp;
        let out =
            self.roll(a, "strike-point", r.standard, mods, Some(tp), None, self.ten_plus(RollKind::StrikePointRoll));
        self.game.units[a].strike_memory = Some((aim, attempts as u32 + 1, out.success));
        if out.success {
            emit!(self, Event::StrikePoint { unit: a, at: aim });
            return Ok(aim);
        }
        if out.fumble {
            self.out_of_ammo(a, w)?;
        }
        let mut from = aim;
        if out.fumble {
            // The defender moves the strike point within the attacker's front arc and range.
            let m = &self.cardr(a).weapons[w];
            let (min, max) = (m.min_range, m.range * r.bands.last().map_or(1.0, |b| b.multiplier));
            let ua = &self.game.units[a];
            let options: Vec<P> = (-2..=2)
                .flat_map(|k| {
                    let dir = P::heading(ua.facing + f64::from(k) * 20.0);
                    [min + 1.0, (min + max) / 2.0, max - 0.5].map(|dist| ua.pos + dir.scale(dist.max(0.5)))
                })
                .collect();
            let chosen = ctrl.relocate_strike_point(&self.game, a, d, &options).filter(|p| options.contains(p));
            if let Some(p) = chosen.or_else(|| self.relocate(d, &options)) {
                from = p;
            }
        }
        let (faces, dist) = r.drift.roll(self.dice);
        let face = faces.first().copied().unwrap_or(1);
        let inches = f64::from(dist) + f64::from(r.bands[band].drift_bonus);
        let mut mods = Vec::new();
        self.hook(HookPoint::Drift, a, &mut mods)?;
        let inches = (inches + f64::from(mods.iter().map(|m| m.value).sum::<i32>())).max(0.0);
        // The die's point gives the direction: the face's share of a full turn, clockwise from the
        // attacker's facing (a d10 showing 6 → 216°).
        let dir = P::heading(self.game.units[a].facing + f64::from(face) * 360.0 / f64::from(r.drift.sides));
        let to = from + dir.scale(inches);
        emit!(self, Event::Drift { unit: a, from, to, inches });
        Ok(to)
    }

    /// When the defender's controller has no preference: the option farthest from all of its
    /// side's models (a sensible, deterministic choice).
    pub(super) fn relocate(&self, d: usize, options: &[P]) -> Option<P> {
        let side = self.game.units[d].side;
        let nearest_friend = |p: P| {
            self.game
                .units
                .iter()
                .filter(|u| u.side == side && u.on_table())
                .map(|u| u.pos.dist(p))
                .fold(f64::INFINITY, f64::min)
        };
        options.iter().copied().max_by(|x, y| nearest_friend(*x).total_cmp(&nearest_friend(*y)))
    }

    /// Secondary combat rolls against every model the weapon's area touches at `point`.
    pub(super) fn area_attack(
        &mut self,
        a: usize,
        w: usize,
        point: P,
        aimed: Option<usize>,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(a).weapons[w];
        let max = m.range * r.bands.last().map_or(1.0, |b| b.multiplier);
        let from = self.game.units[a].pos;
        if point.dist(from) - self.cardr(a).base_radius > max {
            return Ok(()); // drifted beyond the weapon's reach
        }
        // The aimed model counts as the target only if the final point lies on its base.
        let aimed = aimed.filter(|&d| self.game.units[d].pos.dist(point) <= self.cardr(d).base_radius);
        let (radius, extra_rav) = self.hook_area(a, aimed, w, m.aoe)?;
        let name = m.name.clone();
        let victims: Vec<usize> = (0..self.game.units.len())
            .filter(|&i| {
                i != a
                    && self.game.units[i].on_table()
                    && self.game.units[i].pos.dist(point) <= radius + self.cardr(i).base_radius
            })
            .collect();
        for d in victims {
            if !self.game.units[d].on_table() {
                continue;
            }
            let dist = self.game.distance(a, d);
            emit!(
                self,
                Event::Attack {
                    unit: a,
                    target: d,
                    weapon: name.clone(),
                    mode: "secondary",
                    distance: round2(dist),
                    band: None
                }
            );
            let cover = self.standing_cover(d);
            let s = Situation {
                attacker: a,
                defender: Some(d),
                weapon: Some(w),
                distance: dist,
                cover: Some(cover),
                ..Situation::default()
            };
            let mut mods = self.modifiers(&r.indirect_mods, ModifierTarget::CombatRoll, &s, false);
            self.hook(HookPoint::CombatTp, a, &mut mods)?;
            let out = self.roll(
                a,
                "secondary-combat",
                r.standard,
                mods,
                Some(r.indirect_tp),
                Some(r.critical_success),
                false,
            );
            self.state_test(a, w, d)?;
            if out.success {
                self.hit(a, w, d, out.margin, extra_rav)?;
            }
        }
        Ok(())
    }

    /// Cover a model stands in or is next to (for secondary rolls).
    pub(super) fn standing_cover(&self, d: usize) -> Cover {
        let g = &self.game;
        let p = g.units[d].pos;
        let reach = g.card(d).base_radius + self.rules().proc.adjacent_cover;
        g.board
            .areas
            .iter()
            .filter(|a| a.poly.distance(p) <= reach)
            .map(|a| self.rules().terrains[a.terrain].cover)
            .filter(|c| *c != Cover::Blocking)
            .max_by_key(|c| cover_rank(*c))
            .unwrap_or(Cover::None)
    }
}
