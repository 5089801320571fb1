//! A unit's damage pool (`procedures.damage.unit_pool`; Sythopian Wars, 002 L286-308): the damage
//! of a hit on any model of a unit is the unit's, shared out among its models in the pool's order.
//! With a leftover rule an activation's hits on the unit are summed as it ends and slay whole
//! models; fewer points put one model in the leftover state and stay on the unit as held damage,
//! which removes a model — one in the state first — once it reaches a model's hit points; and the
//! models in the state test to recover as their unit activates.

use super::Feature;
use crate::game::*;
use cav_format::RecoverySuccess;

pub(crate) static UNIT_DAMAGE: Feature = Feature {
    enabled: |r| r.proc.damage.unit_pool.is_some(),
    configured_by: |r| r.proc.damage.unit_pool.as_ref().map(|_| "`procedures.damage.unit_pool`"),
    squad_activates: Some(recover),
    ..Feature::new(cav_format::vocab::Feature::UnitDamage)
};

impl Engine<'_, '_> {
    /// `points` of damage from `attacker`'s hit on `target`, a model of unit `squad`: shared out
    /// at once in the pool's order (each model taking what destroys it before the next takes
    /// any), or, under a leftover rule, summed on the unit until the activation ends (`land`).
    pub(crate) fn pool_damage(&mut self, attacker: usize, target: usize, squad: usize, points: u32) {
        let Some(pool) = self.rules().proc.damage.unit_pool.as_ref() else { return };
        if pool.leftover.is_some() {
            let unit = &mut self.game.squads[squad];
            if unit.pending == 0 {
                unit.pending_from = attacker;
                unit.pending_hit = target;
            }
            unit.pending = unit.pending.saturating_add(points);
            return;
        }
        let mut left = points;
        for m in self.pool_order(attacker, squad) {
            if left == 0 {
                break;
            }
            let share = left.min(self.room(m));
            if share == 0 {
                continue;
            }
            self.game.models[m].pending.damage += share;
            left -= share;
            emit!(self, Event::DamageShared { hit: target, model: m, points: share });
        }
        // (Left over: no model the pool may reach is left; the rest is lost.)
    }

    /// The unit's models on the table in the order they take its damage from `attacker`'s hits.
    fn pool_order(&self, attacker: usize, squad: usize) -> Vec<usize> {
        let Some(pool) = self.rules().proc.damage.unit_pool.as_ref() else { return Vec::new() };
        let g = &self.game;
        let from = g.models[attacker].pos;
        let mut order: Vec<usize> = g.squads[squad]
            .members
            .iter()
            .copied()
            .filter(|&m| g.models[m].on_table())
            .filter(|&m| !pool.in_sight_only || g.sight(attacker, m, false).0)
            .collect();
        match pool.allocation {
            cav_format::rules::Allocation::ClosestToAttacker => {
                order.sort_by(|&a, &b| g.models[a].pos.dist(from).total_cmp(&g.models[b].pos.dist(from)));
            }
        }
        order
    }

    /// What is left of a model before it is destroyed (its last column passed: `apply_damage`),
    /// damage waiting for it counted.
    fn room(&self, m: usize) -> u32 {
        let me = &self.game.models[m];
        (self.cardr(m).columns as u32).saturating_sub(me.damage + me.pending.damage)
    }

    /// The end of an activation under a leftover rule: each unit's summed damage slays whole
    /// models in the pool's order; points too few for the next model put one model in the
    /// leftover state and are held by the unit (lost when no model the pool reaches is left,
    /// 002 L294); held damage as great as a model's hit points removes a model — one in the
    /// state first — and takes its hit points off. The states and damage land with the models'.
    pub(crate) fn land_unit_damage(&mut self) {
        let Some((state, _)) = self.rules().proc.damage.unit_pool.as_ref().and_then(|p| p.leftover) else { return };
        for squad in 0..self.game.squads.len() {
            let points = std::mem::take(&mut self.game.squads[squad].pending);
            if points == 0 {
                continue;
            }
            let (from, hit) = (self.game.squads[squad].pending_from, self.game.squads[squad].pending_hit);
            let order = self.pool_order(from, squad);
            let mut left = points;
            let open: Vec<usize> = order.into_iter().filter(|&m| self.room(m) > 0).collect();
            let mut slain = 0;
            for &m in &open {
                let room = self.room(m);
                if left < room {
                    break;
                }
                self.game.models[m].pending.damage += room;
                left -= room;
                slain += 1;
                emit!(self, Event::DamageShared { hit, model: m, points: room });
            }
            let rest = &open[slain..];
            if left == 0 || rest.is_empty() {
                continue;
            }
            let in_state = |e: &Self, m: usize| {
                e.game.models[m].has_state(state) || e.game.models[m].pending.states.contains(&state)
            };
            if let Some(&m) = rest.iter().find(|&&m| !in_state(self, m)) {
                self.game.models[m].pending.states.push(state);
            }
            self.hold(squad, left as i32);
            // Held damage as great as a model's hit points removes one: a model in the state first
            // (the closest), else the next in the order.
            loop {
                let alive = |e: &Self, m: usize| e.game.models[m].on_table() && e.room(m) > 0;
                let mut members: Vec<usize> = self.game.squads[squad]
                    .members
                    .iter()
                    .copied()
                    .filter(|&m| alive(self, m) && in_state(self, m))
                    .collect();
                let at = self.game.models[from].pos;
                members.sort_by(|&a, &b| self.game.models[a].pos.dist(at).total_cmp(&self.game.models[b].pos.dist(at)));
                let Some(m) = members.first().copied().or_else(|| rest.iter().copied().find(|&m| alive(self, m)))
                else {
                    break;
                };
                let hp = self.room(m);
                if self.game.squads[squad].held < hp {
                    break;
                }
                self.game.models[m].pending.damage += hp;
                emit!(self, Event::DamageShared { hit, model: m, points: hp });
                self.hold(squad, -(hp as i32));
            }
        }
    }

    /// The unit's held damage changes by `points`.
    pub(crate) fn hold(&mut self, squad: usize, points: i32) {
        let unit = &mut self.game.squads[squad];
        unit.held = unit.held.saturating_add_signed(points);
        let (name, held) = (unit.name.clone(), unit.held);
        emit!(self, Event::HeldDamage { unit: name, points, held });
    }
}

/// As a unit activates, before any action: each of its models in the leftover state tests to
/// recover; a success takes a point of held damage off the unit or brings the model back, as the
/// ruleset's `success` says (002 L296-300).
fn recover(e: &mut Engine, squad: usize, _ctrl: &mut dyn Controller) -> Result<Option<usize>, EngineError> {
    let Some((state, Some(_))) = e.rules().proc.damage.unit_pool.as_ref().and_then(|p| p.leftover) else {
        return Ok(None);
    };
    let testing: Vec<usize> = e.game.squads[squad]
        .members
        .iter()
        .copied()
        .filter(|&m| e.game.models[m].on_table() && e.game.models[m].has_state(state))
        .collect();
    for m in testing {
        e.recovery_test(m, squad, m)?;
    }
    Ok(None)
}

impl Engine<'_, '_> {
    /// A rally (an own action type that `recovers`): `model` makes the recovery test, and a
    /// success brings back the first model of its unit in the leftover state where no held
    /// damage is to come off first (002 L302-306).
    pub(crate) fn rally(&mut self, model: usize) -> Result<(), EngineError> {
        let (Some(squad), Some((state, _))) =
            (self.game.models[model].squad, self.rules().proc.damage.unit_pool.as_ref().and_then(|p| p.leftover))
        else {
            let reason = "a model in no unit has no held damage or stunned mate to rally".to_owned();
            emit!(self, Event::Forbidden { model, what: "rally", reason });
            return Ok(());
        };
        let g = &self.game;
        let back =
            g.squads[squad].members.iter().copied().find(|&m| g.models[m].on_table() && g.models[m].has_state(state));
        self.recovery_test(model, squad, back.unwrap_or(model))
    }

    /// `tester`, of unit `squad`, makes the pool's recovery test with its own attribute; a
    /// success takes a point of held damage off the unit or brings `back` out of the leftover
    /// state, as the test's `success` says.
    fn recovery_test(&mut self, tester: usize, squad: usize, back: usize) -> Result<(), EngineError> {
        let Some((state, Some(test))) = self.rules().proc.damage.unit_pool.as_ref().and_then(|p| p.leftover) else {
            return Ok(());
        };
        let r = self.rules();
        let kind = &r.roll_kinds[test.kind];
        let need = self.game.attributes(tester).get(test.attribute).copied().unwrap_or(0);
        let t = kind.throw_for_verdict(self.dice, 0, Some(need), false);
        let passed = t.success == Some(true);
        emit!(self, Event::Roll(kind.logged(tester, Vec::new(), t)));
        if !passed {
            return Ok(());
        }
        if test.success == RecoverySuccess::HeldPoint && self.game.squads[squad].held > 0 {
            self.hold(squad, -1);
        } else if self.game.models[back].has_state(state) {
            self.clear_state(back, state)?;
        }
        Ok(())
    }

    /// RALLY's other choice (an own action type that `returns_slain`): while every model of
    /// `model`'s unit on the table touches its side's table edge — the board edge nearest its
    /// deployment zone — the unit's slain models return whole, each placed within the unit's
    /// coherency distance of one of its models (002 L308). What stops it is said.
    pub(crate) fn return_slain(&mut self, model: usize) {
        let refuse = |e: &mut Self, reason: &str| {
            emit!(e, Event::Forbidden { model, what: "rally", reason: reason.to_owned() });
        };
        let g = &self.game;
        let Some(squad) = g.models[model].squad else { return refuse(self, "a model in no unit has no slain mates") };
        let Some(zone) = g.zones.get(g.models[model].side).copied().flatten() else {
            return refuse(self, "the game has no deployment zones: no table edge to rally at");
        };
        let [w, h] = g.board.size;
        // The gap between a base and the side's edge (the nearest to its zone).
        let edges = [zone.x, w - zone.x, zone.y, h - zone.y];
        let edge = (0..4).min_by(|&a, &b| edges[a].total_cmp(&edges[b])).unwrap_or(0);
        let gap = |p: P, r: f64| [p.x, w - p.x, p.y, h - p.y][edge] - r;
        let contact = self.rules().proc.movement.contact_distance;
        let members = g.squads[squad].members.clone();
        let standing: Vec<usize> = members.iter().copied().filter(|&m| g.models[m].on_table()).collect();
        if standing.iter().any(|&m| gap(g.models[m].pos, g.card(m).base_radius) > contact + 1e-6) {
            return refuse(self, "not every model of the unit touches its table edge");
        }
        let chain = self.rules().proc.coherency.as_ref().map_or(contact, |c| c.chain);
        let slain: Vec<usize> =
            members.into_iter().filter(|&m| g.models[m].destroyed && !g.models[m].left_board).collect();
        for m in slain {
            let Some(at) = self.game.return_spot(m, model, chain) else {
                refuse(self, "no room to place a returning model");
                continue;
            };
            let me = &mut self.game.models[m];
            (me.destroyed, me.out_of_action, me.damage, me.pos) = (false, false, 0, at);
            me.states.clear();
            me.pending = Default::default();
            let (name, side, facing) = (me.name.clone(), self.game.sides[me.side].clone(), me.facing);
            emit!(self, Event::Deployed { model: m, name, side, at, facing });
        }
    }
}

impl Game<'_> {
    /// A free place for `model` near `anchor`, on the board, on no other base, within `chain`
    /// (base edge to base edge) of a model of its unit on the table: searched ring by ring.
    fn return_spot(&self, model: usize, anchor: usize, chain: f64) -> Option<P> {
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        let from = self.models[anchor].pos;
        let mates: Vec<usize> = (0..self.models.len())
            .filter(|&m| m != model && self.same_unit(m, anchor) && self.models[m].on_table())
            .collect();
        for ring in 1..=40 {
            let d = self.card(anchor).base_radius + r + f64::from(ring) * 0.25;
            for step in 0..24 {
                let a = f64::from(step) * std::f64::consts::TAU / 24.0;
                let p = P::new(from.x + d * a.cos(), from.y + d * a.sin());
                let inside = p.x >= r && p.y >= r && p.x <= w - r && p.y <= h - r;
                let free = (0..self.models.len()).all(|o| {
                    o == model
                        || !self.models[o].on_table()
                        || self.models[o].pos.dist(p) >= self.card(o).base_radius + r
                });
                let near =
                    mates.iter().any(|&o| self.models[o].pos.dist(p) - self.card(o).base_radius - r <= chain + 1e-9);
                if inside && free && near {
                    return Some(p);
                }
            }
        }
        None
    }
}
