//! Moving: terrain costs, roads, climbing, turning, backwards, base contact, over-watch interrupts.

use super::*;

/// How a move action goes: forwards, turning to its direction; backwards, keeping its facing
/// (`reverse`); or sideways or diagonally forwards keeping its facing (`shift`, Improved
/// Handling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stride {
    Forward,
    Reverse,
    Shift,
}

impl Game<'_> {
    /// The models a move of `model` may come closer to than the ruleset's `enemy_clearance`
    /// (by index; empty where there is no clearance): a charge closes on its target's unit, and
    /// on units it is in close combat with already (one that intervened, 002 L388).
    pub(crate) fn closes_on(&self, model: usize) -> Vec<bool> {
        let mut closes_on =
            vec![false; if self.rules.proc.movement.enemy_clearance > 0.0 { self.models.len() } else { 0 }];
        if let Some(t) = self.closing_on.filter(|_| !closes_on.is_empty()) {
            let engaged: Vec<usize> = (0..self.models.len()).filter(|&j| self.in_reach(model, j)).collect();
            for (i, c) in closes_on.iter_mut().enumerate() {
                *c = self.same_unit(t, i) || engaged.iter().any(|&j| self.same_unit(i, j));
            }
        }
        closes_on
    }

    /// The facing changes `model` pays for in turning `turn` degrees: one change of up to the
    /// ruleset's free angle costs nothing while `free_left` (one per move action, 001 L2963-2989)
    /// and the card has no Reduced Turn (every change paid, 001 L8059-8067); each further step of
    /// up to that angle is paid (`movement.extra_turn_cost` each).
    pub(crate) fn paid_turns(&self, model: usize, turn: f64, free_left: bool) -> u32 {
        let step = self.rules.proc.movement.free_turn_degrees;
        let free = if free_left && !self.card(model).no_free_turn { step } else { 0.0 };
        if turn <= free + 1e-9 { 0 } else { ((turn - free) / step.max(1.0)).ceil() as u32 }
    }
}

impl Game<'_> {
    /// Extra MV per inch for moving backwards at a point; `None` where backwards is not allowed.
    pub(crate) fn reverse_extra_at(&self, model: usize, p: P) -> Option<u32> {
        let g = self;
        // A model without a facing moves in any direction at no extra cost (001 L3580-3582).
        if g.rules.has_trait(g.card(model).model_type, ModelTrait::NoFacing) {
            return Some(0);
        }
        let radius = g.card(model).base_radius;
        let pr = &g.rules.proc;
        let touched: Vec<usize> =
            g.board.areas.iter().filter(|a| a.poly.distance(p) <= radius).map(|a| a.terrain).collect();
        if touched.is_empty() {
            return pr.movement.reverse_open;
        }
        touched
            .iter()
            .map(|t| pr.movement.reverse_cost.get(t).copied().or(pr.movement.reverse_other))
            .collect::<Option<Vec<u32>>>()?
            .into_iter()
            .max()
    }
}

impl<'a, 'r> Engine<'a, 'r> {
    /// Cost in MV per inch and the ground level at a step of a move, or `None` where the model
    /// may not go (prohibited terrain touched at the step's end).
    pub(crate) fn step_cost(&self, model: usize, mid: P, next: P, step: f64) -> Option<(u32, i32, u32)> {
        let g = &self.game;
        let radius = g.card(model).base_radius;
        let mc = g.card(model).move_class;
        let p = &g.rules.proc;
        let sas = &g.card(model).sas;
        // Superior Mobility and its like: the terrain's penalties do not apply to this model.
        let waived = |t: &crate::compile::TerrainDef| {
            !t.waived_by.is_empty() && sas.iter().any(|(s, _)| t.waived_by.contains(s))
        };
        // Amphibious and its like: terrain the move class may not enter, at the open cost + extra.
        let entered = |t: &crate::compile::TerrainDef| {
            t.entered_with.iter().find(|(w, _)| sas.iter().any(|(s, _)| s == w)).map(|(_, extra)| *extra)
        };
        // Combined terrain counts terrain types, not areas: the levels of one stepped hill are one
        // type (001 L3197-3201). (More than `TYPES` types under one base count each further
        // area as a type.)
        const TYPES: usize = 16;
        let (mut highest, mut count, mut types, mut added) = (0u32, 0u32, [usize::MAX; TYPES], 0u32);
        for a in &g.board.areas {
            if a.center.dist(next) > a.radius + radius + step {
                continue; // far away: no polygon test needed
            }
            let t = &g.rules.terrains[a.terrain];
            let cost = g.terrain_cost(model, mc, t);
            if cost == Cost::No && entered(t).is_none() && a.poly.distance(next) <= radius {
                return None;
            }
            // Terrain counts once any part of the base touches it (sampled mid-step).
            if a.poly.distance(mid) <= radius {
                let c = match cost {
                    Cost::No if let Some(extra) = entered(t) => p.movement.open_ground_cost.saturating_add(extra),
                    Cost::PerInch(_) if waived(t) => p.movement.open_ground_cost,
                    Cost::PerInch(c) => c,
                    Cost::RoadBonus => p.movement.road_cost,
                    Cost::No => p.movement.open_ground_cost, // not under the base's end: passing its edge
                };
                // A modifier layer adds to the ground it lies on (deep snow on a road): its own cost,
                // nothing where it is waived or only passed at its edge.
                if t.modifier {
                    let own = match cost {
                        Cost::PerInch(x) if !waived(t) => x,
                        Cost::No if entered(t).is_some() => c,
                        Cost::RoadBonus => c,
                        _ => 0,
                    };
                    added = added.saturating_add(own);
                    continue;
                }
                highest = highest.max(c);
                let known = &types[..(count as usize).min(TYPES)];
                if !known.contains(&a.terrain) {
                    if let Some(slot) = types.get_mut(count as usize) {
                        *slot = a.terrain;
                    }
                    count += 1;
                }
            }
        }
        // Combined terrain: the highest cost plus the ruleset's extra for each further type.
        let per_inch = if count == 0 {
            p.movement.open_ground_cost
        } else {
            highest + (count - 1) * p.movement.combined_terrain_extra
        }
        .saturating_add(added);
        let ground = g.ground(next);
        let climb = g
            .board
            .areas
            .iter()
            .filter(|a| {
                g.rules.terrains[a.terrain].raises_ground && a.center.dist(next) <= a.radius && a.poly.contains(next)
            })
            .map(|a| match g.rules.terrains[a.terrain].climb[mc] {
                Cost::PerInch(_) if waived(&g.rules.terrains[a.terrain]) => 0,
                Cost::PerInch(c) => c,
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        Some((per_inch, ground, climb))
    }

    /// One move action (or the moving part of a run 'n gun / break, with `budget` MV): straight
    /// towards `to`, turning first, paying terrain costs, stopping at base contact, and giving
    /// enemies on over-watch the chance to stop it and fire.
    pub(crate) fn do_move(
        &mut self,
        model: usize,
        to: P,
        budget: Option<u32>,
        ctrl: &mut dyn Controller,
    ) -> Result<u32, String> {
        self.do_move_mode(model, to, budget, Stride::Forward, ctrl)
    }

    /// `movement`: before a move action's path is paid, handlers may refuse the move (`Ok(Err)`)
    /// or change its move value; returns the budget to move with (`None`: the card's MV).
    pub(crate) fn movement_hook(
        &mut self,
        model: usize,
        budget: Option<u32>,
    ) -> Result<Result<Option<u32>, String>, EngineError> {
        // A ruleset's own move (a run) goes its `move_times` the move value.
        let times = self.game.acting_as.and_then(|d| self.rules().own_actions.get(d as usize)).map(|o| o.move_times);
        let budget = match times {
            Some(times) if (times - 1.0).abs() > 1e-9 => {
                let mv = budget.unwrap_or_else(|| self.game.move_value(model));
                Some((f64::from(mv) * times + 1e-9).floor() as u32)
            }
            _ => budget,
        };
        if !self.hooks.wants(HookPoint::Movement) {
            return Ok(Ok(budget));
        }
        let mv = budget.unwrap_or_else(|| self.game.move_value(model));
        let answer = self.call_hooks(HookCtx::new(HookPoint::Movement, model).value(f64::from(mv)))?;
        if let Some(reason) = answer.forbid {
            return Ok(Err(reason));
        }
        Ok(Ok(match answer.sum(Quantity::Mv) {
            0 => budget,
            more => Some(mv.saturating_add_signed(more)),
        }))
    }

    pub(crate) fn do_move_mode(
        &mut self,
        model: usize,
        to: P,
        budget: Option<u32>,
        stride: Stride,
        ctrl: &mut dyn Controller,
    ) -> Result<u32, String> {
        let reverse = stride == Stride::Reverse;
        self.game.settled_reactions.clear();
        let g = &self.game;
        let me = &g.models[model];
        if me.prone || self.has_stand_up_state(model) {
            // Where the ruleset says so, the move stands the model up first and goes on with
            // what MV is left.
            let Some(cost) = self.rules().proc.movement.stand_up_cost else {
                return Err("the model must stand up first".into());
            };
            let mv = budget.unwrap_or_else(|| g.move_value(model));
            if mv < cost {
                return Err(format!("standing up costs {cost} MV and the model has {mv}"));
            }
            self.stand_up(model);
            if mv == cost {
                return Ok(cost);
            }
            return Ok(self.do_move_mode(model, to, Some(mv - cost), stride, ctrl).unwrap_or(0) + cost);
        }
        let mv = budget.unwrap_or_else(|| g.move_value(model));
        if mv == 0 && !me.mission_kill {
            return Err("the model cannot move".into());
        }
        // Suppressed models may not close on any enemy.
        if g.state_blocks(model, |s| s.no_advance) {
            let closer = g.enemies(model).any(|e| to.dist(g.models[e].pos) < me.pos.dist(g.models[e].pos) - 1e-9);
            if closer {
                return Err("a suppressed model may not move closer to an enemy".into());
            }
        }
        if g.rules.hexes.is_some() {
            return self.do_hex_move(model, to, budget, stride, ctrl);
        }
        let from = me.pos;
        let travel = if to.dist(from) > 1e-9 { from.bearing(to) } else { me.facing };
        if reverse && angle_diff(me.facing, travel).abs() < 90.0 {
            return Err("moving backwards needs a point behind the model".into());
        }
        // A shift is a lateral shift (straight sideways) or a drift (forwards and aside, up to
        // 45° off the facing), as the model's chassis allows (001 L7659-7676); a drift pays only
        // for the inches gained forwards.
        let drift_factor = if stride == Stride::Shift { g.shift_cost_factor(model, from, to)? } else { 1.0 };
        // Backwards or shifting the model keeps its facing; forwards it turns to the direction
        // of travel.
        let heading = if stride == Stride::Forward { travel } else { me.facing };
        // A model without a facing never pays for turning.
        let no_facing = self.rules().has_trait(g.card(model).model_type, ModelTrait::NoFacing);
        let signed_turn = if no_facing { 0.0 } else { angle_diff(me.facing, heading) };
        let turn = signed_turn.abs();
        let p = &self.rules().proc;
        // One facing change per move action is free (001 L2963-2989); a later one in the same
        // action (a path with corners) is paid for in full — two Move actions taken as one move
        // have two (001 L2975-2997).
        // Reduced Turn: no free facing change at all, every turn is paid for (001 L8059-8067).
        let extra_turns = g.paid_turns(model, turn, me.free_turns > 0);
        let spent = extra_turns * p.movement.extra_turn_cost;
        let radius = g.card(model).base_radius;
        let dir = P::heading(travel);
        let total = from.dist(to);
        let step: f64 = 0.5;
        // A move that stays on a road the whole way ignores the terrain the road crosses.
        let road = self.road_along(model, from, dir, total, step);
        let road_bonus = if road.is_some_and(|(_, bonus)| bonus) { p.movement.road_bonus } else { 0 };
        let (mut moved, mut inch_cost) = (0.0, 0.0f64);
        let mut ground = g.ground(from);
        let retreating = me.mission_kill;
        // Nap of the earth costs more per inch; aircraft in flight never stop at base contact.
        let noe_extra = if me.features.flight.noe { p.flight.as_ref().map_or(0, |f| f.noe_extra_cost) } else { 0 };
        let flying = g.flying(model);
        // A ruleset's own move that may not enter cover (a run) stops at its edge.
        let in_cover = |g: &Game, at: P| {
            g.board.areas.iter().any(|a| {
                g.rules.terrains[a.terrain].cover != cav_format::Cover::None
                    && a.center.dist(at) <= a.radius + radius
                    && a.poly.distance(at) <= radius
            })
        };
        let avoids = g.acting_as.and_then(|d| g.rules.own_actions.get(d as usize)).is_some_and(|o| o.avoids_cover);
        let avoid_cover = avoids && !in_cover(g, from);
        let clearance = p.movement.enemy_clearance;
        let closes_on = g.closes_on(model);
        // Turning: handlers may make the model skid or spin instead (which ends the move).
        if turn > 1e-9 && self.turned_aside(model, signed_turn)? {
            let facing = self.game.models[model].facing;
            self.end_move(model, from, facing, spent, stride, retreating, 0.0, &[])?;
            return Ok(spent);
        }
        self.game.models[model].facing = heading;
        if turn > 1e-9 {
            let m = &mut self.game.models[model];
            m.free_turns = m.free_turns.saturating_sub(1);
        }
        while moved + 1e-9 < total {
            let g = &self.game;
            let d = step.min(total - moved);
            let mut next = from + dir.scale(moved + d);
            let mid = from + dir.scale(moved + d / 2.0);
            let Some((mut per_inch, new_ground, climb)) = self.step_cost(model, mid, next, step) else { break };
            if let Some((c, _)) = road {
                per_inch = c;
            }
            per_inch += noe_extra;
            if reverse {
                match self.reverse_extra(model, mid) {
                    Some(x) => per_inch += x,
                    None => break,
                }
            }
            let climb = if new_ground > ground { climb.saturating_mul(new_ground.abs_diff(ground)) } else { 0 };
            let mut step_cost = per_inch as f64 * d * drift_factor + climb as f64;
            let budget_now = budget.unwrap_or_else(|| g.move_value(model)) + road_bonus;
            let may_exceed = moved + d <= p.movement.minimum_move + 1e-9 && extra_turns == 0;
            if spent as f64 + inch_cost + step_cost > budget_now as f64 + 1e-9 && !may_exceed {
                break;
            }
            if avoid_cover && in_cover(g, next) {
                // Up to the edge: the farthest point of this step short of the cover.
                let (mut lo, mut hi) = (moved, moved + d);
                for _ in 0..30 {
                    let m = (lo + hi) / 2.0;
                    if in_cover(g, from + dir.scale(m)) { hi = m } else { lo = m }
                }
                let part = (lo - moved) / d;
                inch_cost += step_cost * part;
                self.game.models[model].pos = from + dir.scale(lo);
                break;
            }
            // Stay on the board (a retreating model may leave it).
            let inside = next.x >= 0.0 && next.y >= 0.0 && next.x <= g.board.size[0] && next.y <= g.board.size[1];
            if !inside && !retreating && !g.may_exit(model, next) && !g.may_carry_off(model, next) {
                break;
            }
            // Stop at base contact — or, closing on an enemy, at the ruleset's clearance from it:
            // find the exact point along this step.
            let mut contact = false;
            let here = g.models[model].pos;
            let keep = |i: usize| {
                let base = radius + g.card(i).base_radius;
                let enemy = clearance > 0.0
                    && g.models[i].side != g.models[model].side
                    && !closes_on.get(i).copied().unwrap_or(false);
                if enemy && g.models[i].pos.dist(next) < g.models[i].pos.dist(here) { base + clearance } else { base }
            };
            if let Some(o) = (0..g.models.len()).find(|&i| {
                i != model && !flying && g.models[i].on_table() && !g.flying(i) && g.models[i].pos.dist(next) < keep(i)
            }) {
                let want = keep(o);
                let (mut lo, mut hi) = (moved, moved + d);
                for _ in 0..30 {
                    let m = (lo + hi) / 2.0;
                    if (from + dir.scale(m)).dist(g.models[o].pos) < want { hi = m } else { lo = m }
                }
                next = from + dir.scale(lo);
                step_cost *= (lo - moved) / d;
                contact = true;
            }
            ground = new_ground;
            inch_cost += step_cost;
            moved = if contact { moved + (next.dist(from) - moved).max(0.0) } else { moved + d };
            self.game.models[model].pos = next;
            if contact {
                break;
            }
            // Over-watch: an enemy holding its fire may stop the move here and shoot.
            if self.overwatch_check(model, ctrl).map_err(|e| e.to_string())? && !self.game.models[model].on_table() {
                break;
            }
        }
        // The road bonus is MV the move may spend (001 L2899-2903).
        // (Less a hair: a drift's cost is a sum of cosines, which lands just above whole inches.)
        let spent = (spent + (inch_cost - 1e-6).max(0.0).ceil() as u32).min(mv.max(1).saturating_add(road_bonus));
        let gone = self.game.models[model].pos.dist(from);
        self.end_move(model, from, heading, spent, stride, retreating, gone, &[])?;
        Ok(spent)
    }

    /// The road a move from `from` along `dir` stays on the whole way (sampled every `step`
    /// inches), if any: its cost per inch, and whether it gives the road bonus.
    fn road_along(&self, model: usize, from: P, dir: P, total: f64, step: f64) -> Option<(u32, bool)> {
        let g = &self.game;
        let p = &self.rules().proc;
        let radius = g.card(model).base_radius;
        let mc = g.card(model).move_class;
        let road_cost = |a: &Area| match g.terrain_cost(model, mc, &g.rules.terrains[a.terrain]) {
            Cost::PerInch(c) => Some((c, false)),
            Cost::RoadBonus => Some((p.movement.road_cost, true)),
            Cost::No => None,
        };
        let on_road = |p: P| {
            g.board
                .areas
                .iter()
                .find(|a| {
                    g.rules.terrains[a.terrain].road
                        && a.center.dist(p) <= a.radius + radius
                        && a.poly.distance(p) <= radius
                })
                .and_then(road_cost)
        };
        let samples = (total / step).ceil().max(1.0) as usize;
        let road = (0..samples)
            .map(|k| on_road(from + dir.scale((k as f64 + 0.5) * step).scale(1.0)))
            .collect::<Option<Vec<_>>>();
        road.filter(|_| total > 0.0).and_then(|r| r.first().copied())
    }

    /// What a move leaves once the model has stopped at its last point: dug-in lost, distance
    /// moved (`gone`: inches, or hexes × their size on a hex board), states that last until it
    /// moves ended, the `Moved` event, its path, and leaving the table.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn end_move(
        &mut self,
        model: usize,
        from: P,
        heading: f64,
        spent: u32,
        stride: Stride,
        retreating: bool,
        gone: f64,
        corners: &[P],
    ) -> Result<(), String> {
        let pos = self.game.models[model].pos;
        let me = &mut self.game.models[model];
        if pos.dist(from) > 1e-9 {
            me.unmark(&crate::game::actions::DUG_IN);
        }
        me.moved += gone;
        me.mv_spent = me.mv_spent.saturating_add(spent);
        if stride == Stride::Forward {
            me.moved_forward += gone;
        }
        let states = &self.game.rules.states;
        self.game.models[model].states.retain(|(s, _)| states[*s as usize].duration != StateDuration::UntilMoves);
        emit!(self, Event::Moved { model, from, to: pos, mv_spent: spent, facing: heading });
        let path = &mut self.game.models[model].path;
        if path.is_empty() {
            path.push(from);
        }
        for &p in corners.iter().chain([&pos]) {
            if path.len() < 64 {
                path.push(p);
            } else if let Some(last) = path.last_mut() {
                *last = p; // (full: the end of the move is kept)
            }
        }
        let b = self.game.board.size;
        if pos.dist(from) > 1e-9 && (pos.x < 0.0 || pos.y < 0.0 || pos.x > b[0] || pos.y > b[1]) {
            // Off the table: a retreat, or an exit the scenario scores.
            self.game.models[model].exited = !retreating;
            self.game.models[model].left_board = true;
            emit!(self, Event::LeftBoard { model });
        }
        let straight;
        let mut bent = Vec::new();
        let route: &[P] = if corners.is_empty() {
            straight = [from, pos];
            &straight
        } else {
            bent.push(from);
            bent.extend_from_slice(corners);
            bent.push(pos);
            &bent
        };
        for f in features::each(self.game.schedule.model_moved) {
            if let Some(run) = f.model_moved {
                run(self, model, route).map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }

    /// `facing_change`: `model` is about to turn `degrees` (signed: + clockwise) during a move.
    /// Whether its handlers moved or turned a model (a skid, a spin-out — even one a base
    /// stopped at once) or took it off the table: the move then ends.
    pub(crate) fn turned_aside(&mut self, model: usize, degrees: f64) -> Result<bool, String> {
        let pos = self.game.models[model].pos;
        let at = HookCtx::new(HookPoint::FacingChange, model).value(degrees).at(pos);
        let answer = self.call_hooks(at).map_err(|e| e.to_string())?;
        Ok(answer.forced || !self.game.models[model].on_table())
    }

    /// A forced move (`ctx.move_model`: a dodge, a skid, a push): straight towards `to`, at most
    /// `SCRIPT_FORCED_MOVE` inches, keeping the facing and spending no MV; it stops before
    /// another model's base, terrain its move class may not enter, and the board's edge. On a
    /// hex board, hex by hex (`forced_hex_move`).
    pub(crate) fn forced_move(&mut self, model: usize, to: P) -> Result<(), String> {
        if !self.game.models[model].on_table() {
            return Err(format!("{} is not on the table", self.game.models[model].name));
        }
        if self.game.rules.hexes.is_some() {
            return self.forced_hex_move(model, to).map(|_| ());
        }
        let g = &self.game;
        let from = g.models[model].pos;
        let total = from.dist(to).min(cav_format::limits::SCRIPT_FORCED_MOVE);
        let (radius, mc) = (g.card(model).base_radius, g.card(model).move_class);
        let dir = if total > 1e-9 { (to - from).scale(1.0 / from.dist(to)) } else { P::default() };
        // In quarter inches, the last step short.
        let (step, mut gone) = (0.25f64, 0.0);
        while gone + 1e-9 < total {
            let g = &self.game;
            let d = step.min(total - gone);
            let next = from + dir.scale(gone + d);
            let [w, h] = g.board.size;
            let off = next.x < 0.0 || next.y < 0.0 || next.x > w || next.y > h;
            let sas = &g.card(model).sas;
            let closed = g.board.areas.iter().any(|a| {
                let t = &g.rules.terrains[a.terrain];
                g.terrain_cost(model, mc, t) == Cost::No
                    && !t.entered_with.iter().any(|(w, _)| sas.iter().any(|(s, _)| s == w))
                    && a.center.dist(next) <= a.radius + radius
                    && a.poly.distance(next) <= radius
            });
            let blocked = (0..g.models.len()).any(|i| {
                i != model
                    && g.models[i].on_table()
                    && !g.flying(i)
                    && g.models[i].pos.dist(next) < radius + g.card(i).base_radius
            });
            if off || closed || blocked {
                break;
            }
            gone += d;
            self.game.models[model].pos = next;
        }
        if gone <= 0.0 {
            return Ok(()); // it went nowhere: nothing of a move happened
        }
        let facing = self.game.models[model].facing;
        self.end_move(model, from, facing, 0, Stride::Shift, false, gone, &[])
    }

    /// A script's placement of a model (`ctx.place_model`): at `to` (on a hex board, its hex's
    /// centre), facing as it did, if the spot is on the board, open to its move class and clear
    /// of other models; told as `placed`. Why not, where not.
    pub(crate) fn place_model(&mut self, model: usize, to: P) -> Result<(), String> {
        let g = &self.game;
        if !g.models[model].on_table() {
            return Err(format!("{} is not on the table", g.models[model].name));
        }
        let at = match &g.rules.hexes {
            Some(h) => h.centre(h.hex_at(to)),
            None => to,
        };
        let [w, h] = g.board.size;
        if at.x < 0.0 || at.y < 0.0 || at.x > w || at.y > h {
            return Err(format!("({:.1}, {:.1}) is off the board", at.x, at.y));
        }
        let (radius, mc) = (g.card(model).base_radius, g.card(model).move_class);
        let sas = &g.card(model).sas;
        let closed = g.board.areas.iter().any(|a| {
            let t = &g.rules.terrains[a.terrain];
            g.terrain_cost(model, mc, t) == Cost::No
                && !t.entered_with.iter().any(|(w, _)| sas.iter().any(|(s, _)| s == w))
                && a.center.dist(at) <= a.radius + radius
                && a.poly.contains(at)
        });
        if closed {
            return Err("its move class may not enter the terrain there".into());
        }
        let on_another = (0..g.models.len()).any(|i| {
            i != model
                && g.models[i].on_table()
                && !g.flying(i)
                && g.models[i].pos.dist(at) < radius + g.card(i).base_radius
        });
        if on_another {
            return Err("another model stands there".into());
        }
        self.game.models[model].pos = at;
        self.game.board_version += 1;
        emit!(self, Event::Placed { model, at });
        Ok(())
    }

    /// A forced turn (`ctx.turn_model`): the model faces `facing` (a hexside on a hex board),
    /// told as a move of no distance.
    pub(crate) fn forced_turn(&mut self, model: usize, facing: f64) {
        let facing = match &self.game.rules.hexes {
            Some(g) => g.snap_facing(facing),
            None => crate::geom::normalise_deg(facing),
        };
        let at = self.game.models[model].pos;
        self.game.models[model].facing = facing;
        emit!(self, Event::Moved { model, from: at, to: at, mv_spent: 0, facing });
    }

    /// Extra MV per inch for moving backwards at a point; `None` where backwards is not allowed.
    pub(crate) fn reverse_extra(&self, model: usize, p: P) -> Option<u32> {
        self.game.reverse_extra_at(model, p)
    }

    /// An attack on `target` with no strike point and no range (a minefield's, a missile's
    /// blast): the pre-set dice against the mount's base target point (`combat_tp` handlers may
    /// change it), then the hit as any weapon's.
    /// `mode` names the attack in its event (`mines`, `missile`, `submunition`).
    pub(crate) fn preset_attack(
        &mut self,
        mine: usize,
        weapon: usize,
        target: usize,
        mode: &'static str,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let m = &self.cardr(mine).weapons[weapon];
        let (name, preset_tp) = (m.name.clone(), m.preset_tp);
        // Its Blaster widens the critical window here too (a SADARM submunition's).
        let crit_at = r.critical_at(m.crit_shift, false);
        emit!(self, Event::Attack { model: mine, target, weapon: name, mode, distance: 0.0, band: None });
        let (dice, tp) = match (preset_tp, r.preset) {
            (Some(tp), Some(dice)) => (dice, tp),
            _ => (r.standard, preset_tp.unwrap_or(r.indirect_tp)),
        };
        let ctx = HookCtx::new(HookPoint::CombatTp, mine).target(target).weapon(weapon);
        let mut answer = self.call_hooks_on_copy(&ctx)?;
        if let Some(reason) = answer.forbid {
            emit!(self, Event::Forbidden { model: mine, what: "attack", reason });
            return Ok(());
        }
        let mods = answer.take(Quantity::Roll);
        let dice = answer.dice.unwrap_or(dice);
        let out = self.combat_roll(ctx, "secondary-combat", dice, mods, Some(tp), crit_at, false)?;
        self.state_test(mine, weapon, target, out.success)?;
        if out.success {
            self.hit(mine, weapon, target, out.margin, &[], None)?;
        }
        Ok(())
    }
}
