//! Strike points and drift (indirect fire, strikes): where a shell lands, relocating it, drifting
//! off the board.

use super::engine::{Situation, round2};
use super::*;

impl<'a, 'r> Engine<'a, 'r> {
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
            from = self.fumbled_point(attacker, target, weapon, aim, ctrl)?;
        }
        self.drift(attacker, from, r.bands[band].drift_bonus, ctx).map(Some)
    }

    /// Where a fumbled strike point drifts from: the defender moves it to any legal location
    /// (the enemy nearest `aim` answers where no model was aimed at); `aim` itself if no enemy
    /// answers.
    fn fumbled_point(
        &mut self,
        attacker: usize,
        target: Option<usize>,
        weapon: usize,
        aim: P,
        ctrl: &mut dyn Controller,
    ) -> Result<P, EngineError> {
        let r = self.rules();
        let mut from = aim;
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
            return Ok(from);
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
        Ok(from)
    }

    /// A missed strike point drifts from `from`: the drift die gives the distance (plus `bonus`
    /// inches, `drift` modifiers added) and the direction.
    pub(crate) fn drift(&mut self, attacker: usize, from: P, bonus: u32, ctx: HookCtx) -> Result<P, EngineError> {
        let r = self.rules();
        let Some(drift) = &r.drift else {
            return Err(EngineError::IllegalAction {
                model: self.game.models[attacker].name.clone(),
                action: "drift".into(),
                reason: "the ruleset has no drift dice (`dice.drift`)".into(),
            });
        };
        let (faces, dist) = drift.roll(self.dice);
        let face = faces.first().copied().unwrap_or(1);
        let inches = f64::from(dist) + f64::from(bonus);
        let more =
            self.call_hooks(HookCtx { point: HookPoint::Drift, value: Some(inches), ..ctx })?.sum(Quantity::Drift);
        let inches = (inches + f64::from(more)).max(0.0);
        // The die's point gives the direction, clockwise from the attacker's facing.
        let dir = P::heading(self.game.models[attacker].facing + self.dice.drift_direction(face, drift.sides));
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
            && angle_diff(ua.facing, ua.pos.bearing(p)).abs() > r.proc.sight.arc_half() + 1e-9
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
    pub(super) fn nearest_enemy(&self, attacker: usize, p: P) -> Option<usize> {
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
}
