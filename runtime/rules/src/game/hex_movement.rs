//! Moving on a hex board: hex by hex along the cheapest path, paying for each hex entered the
//! stack of terrain in it — its base terrain, combined as the ruleset says, plus every modifier
//! layer (003 L17-28) — by the model's move class, in parts of one MV (`Rules::mv_parts`, so a
//! road's ½ is paid exactly), with climbing and going down by elevation, and facing changes
//! paid hexside by hexside.
//!
//! The path is found by our own bounded Dijkstra over `hexx` neighbours rather than
//! `hexx::algorithms::a_star`: that one searches the whole unbounded plane when the goal cannot
//! be reached, sums costs in `u32`, and returns nothing to walk towards. Here the search stays
//! on the board, looks at most `MAX_PATH_STATES` states (a hex, a facing, the free turns left: a
//! step limit, never time), works each hex's entry cost out once, and breaks ties by
//! coordinates, so a move is the same on every machine.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use super::movement::Stride;
use super::*;
use crate::compile::{Hex, TerrainDef};

/// Most states (hex, facing, free turns left) one path search looks at.
const MAX_PATH_STATES: usize = 100_000;

impl Game<'_> {
    /// What terrain `t` costs `model` (of move class `mc`) by its move class — or, where the
    /// terrain's costs go by size (`size_costs`), as the model's size says: another terrain's
    /// costs, or another class's column (003 L43-51).
    #[inline]
    pub fn terrain_cost(&self, model: usize, mc: usize, t: &TerrainDef) -> Cost {
        match &t.size_costs {
            None => t.costs[mc],
            Some(by) => self.sized_cost(model, mc, t, by),
        }
    }

    #[cold]
    fn sized_cost(&self, model: usize, mc: usize, t: &TerrainDef, by: &crate::compile::SizeCostsDef) -> Cost {
        let size = self.attributes(model).get(by.attribute).copied().unwrap_or(0);
        let Some(&(_, terrain, class)) = by.steps.iter().find(|(most, _, _)| most.is_none_or(|m| size <= m)) else {
            return t.costs[mc];
        };
        let paid = terrain.and_then(|i| self.rules.terrains.get(i)).unwrap_or(t);
        paid.costs.get(class.unwrap_or(mc)).copied().unwrap_or(Cost::No)
    }

    /// The terrain pieces in hex `h` (those its centre lies in), in board order: looked up in
    /// the board's index of pieces by hex, built once per board (a path search asks for
    /// thousands of hexes, and a board may hold tens of thousands of pieces).
    pub fn pieces_in(&self, h: Hex) -> impl Iterator<Item = &Area> + '_ {
        let areas = &self.board.areas;
        self.piece_ixs_in(h).into_iter().map(move |i| &areas[i as usize])
    }

    /// `pieces_in`, as indices into the board's pieces.
    pub(crate) fn piece_ixs_in(&self, h: Hex) -> Vec<u32> {
        let index = self.board_index();
        let c = self.rules.hexes.as_ref().map(|g| g.centre(h)).unwrap_or_default();
        let mut found: Vec<u32> = index.by_hex.get(&h).cloned().unwrap_or_default();
        // Pieces too big to index are looked at one by one.
        let areas = &self.board.areas;
        found.extend(index.loose.iter().copied().filter(|&i| {
            let a = &areas[i as usize];
            a.center.dist(c) <= a.radius + 1e-6 && a.poly.contains(c)
        }));
        found.sort_unstable();
        found
    }

    /// What entering hex `to` from its neighbour `from` costs `model`, in parts of one MV: the
    /// base terrain there (the highest cost plus the ruleset's extra for each further type; open
    /// ground where there is none; a road's own cost where a road runs through both hexes), every
    /// modifier layer's cost added, and the climb or descent between the two hexes' ground.
    /// `None` where the model may not enter it.
    pub(crate) fn hex_entry_cost(&self, model: usize, from: Hex, to: Hex) -> Option<u64> {
        let card = self.card(model);
        let mc = card.move_class;
        let mv = &self.rules.proc.movement;
        let parts = u64::from(self.rules.mv_parts.max(1));
        let waived = |t: &TerrainDef| !t.waived_by.is_empty() && card.sas.iter().any(|(s, _)| t.waived_by.contains(s));
        let entered = |t: &TerrainDef| {
            t.entered_with.iter().find(|(w, _)| card.sas.iter().any(|(s, _)| s == w)).map(|(_, extra)| *extra)
        };
        let open = u64::from(mv.open_ground_cost) * parts;
        // One terrain's cost here in parts, or `None`: it may not be entered.
        let cost_of = |t: &TerrainDef| -> Option<u64> {
            Some(match self.terrain_cost(model, mc, t) {
                Cost::No => open + u64::from(entered(t)?) * parts,
                Cost::PerInch(_) if waived(t) => {
                    if t.modifier {
                        0
                    } else {
                        open
                    }
                }
                Cost::PerInch(c) => u64::from(c),
                Cost::RoadBonus => u64::from(mv.road_cost) * parts,
            })
        };
        let road_from = self.pieces_in(from).any(|a| self.rules.terrains[a.terrain].road);
        let (mut highest, mut types, mut added, mut road) = (0u64, Vec::new(), 0u64, None::<u64>);
        for a in self.pieces_in(to) {
            let t = &self.rules.terrains[a.terrain];
            let c = cost_of(t)?;
            if t.modifier {
                added = added.saturating_add(c);
                continue;
            }
            if t.road && road_from {
                road = Some(road.map_or(c, |r| r.min(c)));
            }
            highest = highest.max(c);
            if !types.contains(&a.terrain) {
                types.push(a.terrain);
            }
        }
        let base = match (road, types.len()) {
            (Some(r), _) => r,
            (None, 0) => open,
            (None, n) => highest + (n as u64 - 1) * u64::from(mv.combined_terrain_extra) * parts,
        };
        // Climbing into a hex is paid by the terrain that raises it, going down by the one left.
        let (up, down) = (self.hex_ground(to), self.hex_ground(from));
        let level = |h: Hex, pick: fn(&TerrainDef) -> &Vec<Cost>| -> u64 {
            self.pieces_in(h)
                .map(|a| &self.rules.terrains[a.terrain])
                .filter(|t| t.raises_ground)
                .map(|t| match pick(t)[mc] {
                    Cost::PerInch(_) if waived(t) => 0,
                    Cost::PerInch(c) => u64::from(c),
                    _ => 0,
                })
                .max()
                .unwrap_or(0)
        };
        let slope = if up > down {
            level(to, |t| &t.climb).saturating_mul(u64::from(up.abs_diff(down)))
        } else if down > up {
            level(from, |t| &t.descent).saturating_mul(u64::from(down.abs_diff(up)))
        } else {
            0
        };
        Some(base.saturating_add(added).saturating_add(slope))
    }

    /// Terrain value `value` (`Rules::terrain_values`' index) at `p`: the highest of the base
    /// terrain there that has it (0 where none has), plus every modifier's; `None` where no
    /// terrain there has it (open ground has none). On any board: the pieces `p` lies in.
    pub fn terrain_value(&self, p: P, value: u16) -> Option<i32> {
        let of = |t: &TerrainDef| t.values.iter().find(|(v, _)| *v == value).map(|(_, x)| *x);
        let (mut base, mut added) = (None::<i32>, 0i32);
        for a in self.board.areas.iter().filter(|a| a.center.dist(p) <= a.radius + 1e-6 && a.poly.contains(p)) {
            let t = &self.rules.terrains[a.terrain];
            match (t.modifier, of(t)) {
                (true, Some(x)) => added = added.saturating_add(x),
                (false, Some(x)) => base = Some(base.map_or(x, |b: i32| b.max(x))),
                _ => {}
            }
        }
        let any = base.is_some()
            || self.board.areas.iter().any(|a| {
                a.center.dist(p) <= a.radius + 1e-6
                    && a.poly.contains(p)
                    && of(&self.rules.terrains[a.terrain]).is_some()
            });
        any.then(|| base.unwrap_or(0).saturating_add(added))
    }

    /// Extra MV per hex for backing into hex `h` (`movement.reverse_*`): by the terrain in it,
    /// the dearest; `None` where backing in is not allowed.
    fn hex_reverse_extra(&self, model: usize, h: Hex) -> Option<u32> {
        if self.rules.has_trait(self.card(model).model_type, ModelTrait::NoFacing) {
            return Some(0);
        }
        let pr = &self.rules.proc.movement;
        let touched: Vec<usize> = self.pieces_in(h).map(|a| a.terrain).collect();
        if touched.is_empty() {
            return pr.reverse_open;
        }
        touched
            .iter()
            .map(|t| pr.reverse_cost.get(t).copied().or(pr.reverse_other))
            .collect::<Option<Vec<u32>>>()?
            .into_iter()
            .max()
    }

    /// The ground level of a hex (the highest terrain raising it there).
    fn hex_ground(&self, h: Hex) -> i32 {
        self.pieces_in(h)
            .map(|a| &self.rules.terrains[a.terrain])
            .filter(|t| t.raises_ground)
            .map(|t| t.elevation)
            .max()
            .unwrap_or(0)
    }

    /// Whether another model on the table stands in hex `h` (a move may not enter it).
    fn hex_held(&self, model: usize, h: Hex) -> bool {
        let Some(g) = &self.rules.hexes else { return false };
        (0..self.models.len())
            .any(|i| i != model && self.models[i].on_table() && !self.flying(i) && g.hex_at(self.models[i].pos) == h)
    }

    /// The cheapest way for `model` from where it stands towards hex `goal`, turning as it
    /// goes: each step is (hex entered, facing after it, its cost in parts of one MV, whether it
    /// turned). Facing changes are part of the search (a hex at a time, forwards; backwards the
    /// facing is kept and only hexes behind are entered), so a straight road beats a zigzag one.
    /// To the goal where it can be reached, else to the hex reached nearest it (then the cheaper,
    /// then the lower coordinates). Only hexes on the board are entered, but for the first hex
    /// beyond it where the model may leave (and the goal is off the board); only hexes free of
    /// models on the ground, but for a model in flight; none that comes closer than the
    /// clearance to an enemy; a ruleset's own move that may not enter cover (`avoids_cover`: a
    /// run) enters no hex with terrain giving cover, unless it starts in one.
    pub(crate) fn hex_path(&self, model: usize, goal: Hex, reverse: bool) -> Vec<HexStep> {
        let Some(g) = &self.rules.hexes else { return Vec::new() };
        let me = &self.models[model];
        let start = g.hex_at(me.pos);
        let parts = u64::from(self.rules.mv_parts.max(1));
        let turn_cost = u64::from(self.rules.proc.movement.extra_turn_cost) * parts;
        let no_facing = self.rules.has_trait(self.card(model).model_type, ModelTrait::NoFacing);
        // A state: (x, y, facing in tenths of a degree, free facing changes left).
        type Key = (i32, i32, i32, u32);
        let key = |h: Hex, facing: f64, free: u32| (h.x, h.y, (facing * 10.0).round() as i32, free);
        let key_of = |h: Hex| (h.x, h.y);
        let facing0 = g.snap_facing(me.facing);
        let in_cover =
            |h: Hex| self.pieces_in(h).any(|a| self.rules.terrains[a.terrain].cover != cav_format::Cover::None);
        let avoids =
            self.acting_as.and_then(|d| self.rules.own_actions.get(d as usize)).is_some_and(|o| o.avoids_cover);
        let avoid_cover = avoids && !in_cover(start);
        // As on a continuous board: a model in flight passes over the models below it (and none
        // is in its way), nap of the earth costs more per hex, and a move keeps the ruleset's
        // clearance from enemies it does not close on (the gap between hexes: neighbours 0).
        let flying = self.flying(model);
        let noe = match &self.rules.proc.flight {
            Some(f) if me.features.flight.noe => u64::from(f.noe_extra_cost) * parts,
            _ => 0,
        };
        let clearance = self.rules.proc.movement.enemy_clearance;
        let closes_on = self.closes_on(model);
        let keep_clear: Vec<Hex> = (0..self.models.len())
            .filter(|&i| {
                let o = &self.models[i];
                clearance > 0.0
                    && !flying
                    && o.side != me.side
                    && o.on_table()
                    && !self.flying(i)
                    && !closes_on.get(i).copied().unwrap_or(false)
            })
            .map(|i| g.hex_at(self.models[i].pos))
            .collect();
        let gap = |a: Hex, b: Hex| f64::from(a.unsigned_distance_to(b).saturating_sub(1)) * g.across_flats;
        let too_close = |here: Hex, next: Hex| {
            keep_clear.iter().any(|&e| gap(next, e) + 1e-9 < clearance && gap(next, e) < gap(here, e))
        };
        // Off the board only where the model may leave it (a retreat, an exit the scenario
        // scores, carrying off the objective), and no farther than the first hex beyond.
        let retreating = me.mission_kill;
        let may_leave = |h: Hex| {
            let c = g.centre(h);
            retreating || self.may_exit(model, c) || self.may_carry_off(model, c)
        };
        let start_key = key(start, facing0, me.free_turns);
        // Cost so far and the step that led here (from state, the step).
        let mut best: BTreeMap<Key, (u64, Option<(Key, HexStep)>)> = BTreeMap::new();
        let mut open = BinaryHeap::new();
        best.insert(start_key, (0, None));
        open.push(Reverse((0u64, start_key)));
        let mut looked = 0;
        let mut reached: Option<Key> = None;
        // Each hex's entry cost from each neighbour, worked out once (states repeat hexes).
        type Between = ((i32, i32), (i32, i32));
        let mut entry: BTreeMap<Between, Option<u64>> = BTreeMap::new();
        while let Some(Reverse((cost, k))) = open.pop() {
            if best.get(&k).is_some_and(|&(c, _)| c < cost) {
                continue; // a cheaper way here was found since
            }
            let here = Hex::new(k.0, k.1);
            if here == goal {
                reached = Some(k);
                break;
            }
            looked += 1;
            if looked > MAX_PATH_STATES {
                break;
            }
            if here != start && !g.on_board(here, self.board.size) {
                continue; // a move ends in the first hex off the board
            }
            let (facing, free) = (f64::from(k.2) / 10.0, k.3);
            for next in here.all_neighbors() {
                if !g.on_board(next, self.board.size) && !may_leave(next)
                    || !flying && self.hex_held(model, next)
                    || avoid_cover && in_cover(next)
                    || too_close(here, next)
                {
                    continue;
                }
                let bearing = g.snap_facing(g.centre(here).bearing(g.centre(next)));
                let heading = if reverse || no_facing { facing } else { bearing };
                if reverse && !no_facing && angle_diff(facing, bearing).abs() < 90.0 {
                    continue; // backwards goes only to hexes behind
                }
                let turn = angle_diff(facing, heading).abs();
                let turned = turn > 1e-9;
                let turns = u64::from(self.paid_turns(model, turn, free > 0)) * turn_cost;
                let entered = *entry.entry((key_of(here), key_of(next))).or_insert_with(|| {
                    let enter = self.hex_entry_cost(model, here, next)?;
                    if !reverse {
                        return Some(enter);
                    }
                    self.hex_reverse_extra(model, next).map(|x| enter.saturating_add(u64::from(x) * parts))
                });
                let Some(enter) = entered.map(|e| e.saturating_add(noe)) else { continue };
                let step = HexStep { hex: next, facing: heading, cost: turns + enter, turn_cost: turns, turned };
                let total = cost.saturating_add(step.cost);
                let nk = key(next, heading, if turned { free.saturating_sub(1) } else { free });
                if best.get(&nk).is_none_or(|&(c, _)| total < c) {
                    best.insert(nk, (total, Some((k, step))));
                    open.push(Reverse((total, nk)));
                }
            }
        }
        let end = reached.or_else(|| {
            // (Off the board only towards a goal off it.)
            let goal_off = !g.on_board(goal, self.board.size);
            let nearest = best
                .iter()
                .filter(|&(&(x, y, _, _), _)| goal_off || g.on_board(Hex::new(x, y), self.board.size))
                .min_by_key(|&(&(x, y, f, free), &(c, _))| {
                    (Hex::new(x, y).unsigned_distance_to(goal), c, (x, y, f, Reverse(free)))
                });
            nearest.map(|(&k, _)| k)
        });
        let mut path = Vec::new();
        let mut at = end;
        while let Some(k) = at {
            match best.get(&k) {
                Some((_, Some((prev, step)))) => {
                    path.push(*step);
                    at = Some(*prev);
                }
                _ => break,
            }
        }
        path.reverse();
        path
    }
}

/// One hex of a move on a hex board (`Game::hex_path`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct HexStep {
    pub hex: Hex,
    /// The facing after the step.
    pub facing: f64,
    /// Parts of one MV: the facing change (where paid) and the hex's entry cost.
    pub cost: u64,
    /// Of it, the paid facing change.
    pub turn_cost: u64,
    /// Whether the step changed the facing.
    pub turned: bool,
}

impl Engine<'_, '_> {
    /// One move action on a hex board: along `hex_path` towards `to`, a hex at a time, turning
    /// to face each hex entered (forwards) or keeping the facing (backwards), paying each hex's
    /// entry cost and each paid facing change, until the MV (`budget`) is spent. The first hex
    /// may always be entered where the ruleset's minimum move reaches one hex. Enemies on
    /// over-watch may stop it at any hex.
    pub(crate) fn do_hex_move(
        &mut self,
        model: usize,
        to: P,
        budget: Option<u32>,
        stride: Stride,
        ctrl: &mut dyn Controller,
    ) -> Result<u32, String> {
        let g = &self.game;
        let Some(geo) = g.rules.hexes else { return Err("not a hex board".into()) };
        if stride == Stride::Shift {
            return Err("a sideways shift is not played on a hex board".into());
        }
        let reverse = stride == Stride::Reverse;
        let parts = u64::from(g.rules.mv_parts.max(1));
        let mv = budget.unwrap_or_else(|| g.move_value(model));
        let allowance = u64::from(mv) * parts;
        let from = g.models[model].pos;
        let size = g.board.size;
        let reach = -cav_format::limits::MAX_BOARD_INCHES..=2.0 * cav_format::limits::MAX_BOARD_INCHES;
        if !reach.contains(&to.x) || !reach.contains(&to.y) {
            return Err(format!("({}, {}) is nowhere near the board", to.x, to.y));
        }
        let mut goal = geo.hex_at(to);
        // A point just past the edge may lie in a hex of the board, and a point on the board in
        // a hex whose centre is past the edge: the move aims at the neighbour nearest the point
        // on the point's side of the edge (off the board only towards a point off it).
        let off = to.x < 0.0 || to.y < 0.0 || to.x > size[0] || to.y > size[1];
        if off == geo.on_board(goal, size) {
            let side = goal.all_neighbors().into_iter().filter(|&h| geo.on_board(h, size) != off);
            if let Some(h) = side.min_by(|&a, &b| geo.centre(a).dist(to).total_cmp(&geo.centre(b).dist(to))) {
                goal = h;
            }
        }
        let path = g.hex_path(model, goal, reverse);
        let first_hex_free = g.rules.proc.movement.minimum_move + 1e-9 >= geo.across_flats;
        let (mut spent, mut facing, mut gone) = (0u64, g.models[model].facing, 0u32);
        // Where the route bends on the way (hex centres; what the move crossed is judged along
        // the legs between them).
        let mut corners = Vec::new();
        let mut heading: Option<f64> = None;
        for step in path {
            if spent + step.cost > allowance && !(gone == 0 && step.turn_cost == 0 && first_hex_free) {
                break;
            }
            // Turning: handlers may make the model skid or spin instead (which ends the move).
            if step.turned && self.turned_aside(model, angle_diff(facing, step.facing))? {
                break;
            }
            spent += step.cost;
            facing = step.facing;
            bend(&mut corners, &mut heading, self.game.models[model].pos, geo.centre(step.hex));
            gone += 1;
            let m = &mut self.game.models[model];
            if step.turned {
                m.free_turns = m.free_turns.saturating_sub(1);
            }
            m.pos = geo.centre(step.hex);
            m.facing = facing;
            // Over-watch: an enemy holding its fire may stop the move here and shoot.
            if self.overwatch_check(model, ctrl).map_err(|e| e.to_string())? && !self.game.models[model].on_table() {
                break;
            }
        }
        // (A first hex entered whatever it cost spends the whole MV, no more.)
        let spent = u32::try_from(spent.div_ceil(parts)).unwrap_or(u32::MAX).min(mv.max(1));
        let (retreating, facing) = (self.game.models[model].mission_kill, self.game.models[model].facing);
        self.end_move(model, from, facing, spent, stride, retreating, f64::from(gone) * geo.across_flats, &corners)?;
        Ok(spent)
    }

    /// A forced move on a hex board (`ctx.move_model`): along the hex line towards `to`'s hex,
    /// at most `SCRIPT_FORCED_MOVE` inches of hexes, keeping the facing and spending no MV; it
    /// stops before a hex off the board, held by another model or closed to its move class.
    /// Hexes entered (0: it did not move).
    pub(crate) fn forced_hex_move(&mut self, model: usize, to: P) -> Result<u32, String> {
        let Some(geo) = self.game.rules.hexes else { return Ok(0) };
        let from = self.game.models[model].pos;
        let (line, _) = crate::compile::HexGeometry::lines(geo.hex_at(from), geo.hex_at(to));
        let most = (cav_format::limits::SCRIPT_FORCED_MOVE / geo.across_flats).floor() as usize;
        let (mut gone, mut corners, mut heading) = (0u32, Vec::new(), None);
        for w in line.windows(2).take(most) {
            let g = &self.game;
            let (here, next) = (w[0], w[1]);
            if !geo.on_board(next, g.board.size)
                || g.hex_held(model, next)
                || g.hex_entry_cost(model, here, next).is_none()
            {
                break;
            }
            bend(&mut corners, &mut heading, self.game.models[model].pos, geo.centre(next));
            self.game.models[model].pos = geo.centre(next);
            gone += 1;
        }
        if gone > 0 {
            let facing = self.game.models[model].facing;
            self.end_move(model, from, facing, 0, Stride::Shift, false, f64::from(gone) * geo.across_flats, &corners)?;
        }
        Ok(gone)
    }
}

/// A step of a hex move from `here` to `next`: `here` is a corner of the route where the step
/// goes another way than the one before it (`heading`: the last step's bearing).
fn bend(corners: &mut Vec<P>, heading: &mut Option<f64>, here: P, next: P) {
    let bearing = here.bearing(next);
    if heading.is_some_and(|h| angle_diff(h, bearing).abs() > 1e-6) {
        corners.push(here);
    }
    *heading = Some(bearing);
}
