//! How a game is won beyond "last side standing" (001 L1677-1917): the scenario's victory kind,
//! surviving threat value, and the victory level of the winner's score over the loser's.

use cav_format::vocab::{RatioRounding, SurvivingFraction};
use cav_format::{BoardArea, BoardEdge, VictoryKind};

use super::engine::{Engine, GameEnd};
use super::state::Game;
use crate::compile::ObjectiveDef;
use crate::geom::P;

impl Game<'_> {
    /// The TV a model still counts for (001 L1769-1789): nothing once destroyed or off the table,
    /// else its TV times the share of its damage track left (option `surviving-tv-fraction`).
    pub fn surviving_tv(&self, model: usize) -> u32 {
        let m = &self.models[model];
        let card = &self.rules.cards[m.card];
        if !m.in_play() {
            return 0;
        }
        let columns = card.columns.max(1) as u64;
        let left = match self.rules.engine_options.surviving_fraction {
            SurvivingFraction::RemainingColumns => columns.saturating_sub(m.damage as u64),
            SurvivingFraction::RemainingTracks => columns.saturating_sub(1).saturating_sub(m.damage as u64),
        };
        (card.tv as u64 * left / columns) as u32
    }

    /// Per side: (starting TVP, surviving TVP). The starting TVP is the pool a roster was built
    /// to, else the models' TV; the surviving TVP adds the force group bonus (001 L1830-1845): the
    /// pool left unspent and the strike-package points not called in.
    pub fn scores(&self) -> Vec<(u32, u32)> {
        let unused = |side: usize| {
            self.features.strikes.pools.get(side).map_or(0, |p| p.values().fold(0u32, |a, &b| a.saturating_add(b)))
        };
        let mut out: Vec<(u32, u32)> =
            self.tv_bonus.iter().enumerate().map(|(side, b)| (0, b.saturating_add(unused(side)))).collect();
        out.resize(self.sides.len(), (0, 0));
        for (i, m) in self.models.iter().enumerate() {
            let s = &mut out[m.side];
            s.0 = s.0.saturating_add(self.rules.cards[m.card].tv);
            s.1 = s.1.saturating_add(self.surviving_tv(i));
        }
        for (s, pool) in out.iter_mut().zip(&self.tv_pool) {
            if let Some(pool) = pool {
                s.0 = *pool;
            }
        }
        out
    }
}

impl Engine<'_, '_> {
    /// The commander of each side, for a scenario won by keeping one's commander (Headhunter,
    /// 001 L2166-2192): the side's most valuable model (first on ties) — the bot's choice, and
    /// the reading until players are asked.
    pub(crate) fn choose_commanders(&mut self) {
        if self.game.victory != VictoryKind::Commander {
            return;
        }
        let rules = self.game.rules;
        self.game.commanders = (0..self.game.sides.len())
            .map(|side| {
                let mut best: Option<usize> = None;
                for (i, m) in self.game.models.iter().enumerate().filter(|(_, m)| m.side == side) {
                    if best.is_none_or(|b| rules.cards[m.card].tv > rules.cards[self.game.models[b].card].tv) {
                        best = Some(i);
                    }
                }
                best
            })
            .collect();
    }

    /// A side whose commander is gone loses (the scenario's victory kind `commander`).
    pub(crate) fn commander_lost(&self) -> Option<GameEnd> {
        if self.game.victory != VictoryKind::Commander {
            return None;
        }
        let keeps: Vec<usize> = (0..self.game.sides.len())
            .filter(|&s| self.game.commanders.get(s).copied().flatten().is_some_and(|c| self.game.models[c].in_play()))
            .collect();
        if keeps.len() == self.game.sides.len() {
            return None;
        }
        let winner = (keeps.len() == 1).then(|| keeps[0]);
        let reason = match winner {
            Some(w) => format!("{}'s commander survives the other's", self.game.sides[w]),
            None => "every commander is lost: a draw".to_owned(),
        };
        Some(GameEnd {
            winner,
            turns: self.game.turn,
            reason,
            damage_dealt: self.game.damage_dealt.clone(),
            level: None,
        })
    }

    /// The end at the turn limit: without a victory levels table a draw; with one, the higher
    /// surviving-TV score (surviving ÷ starting) wins at the level its ratio to the loser's reads
    /// (001 L1861-1917; option `victory-ratio-rounding`).
    pub(crate) fn at_turn_limit(&self) -> GameEnd {
        let limit = self.game.turn_limit;
        let draw = |reason: String| GameEnd {
            winner: None,
            turns: self.game.turn,
            reason,
            damage_dealt: self.game.damage_dealt.clone(),
            level: None,
        };
        if let Some(end) = self.objectives_at_limit().or_else(|| self.rescue_at_limit()) {
            return end;
        }
        let Some(table) = &self.game.rules.victory_levels else {
            return draw(format!("turn limit {limit} reached: a draw"));
        };
        let scores = self.game.scores();
        // Compare surviving/starting exactly: a/b > c/d ⇔ a·d > c·b.
        let better =
            |x: (u32, u32), y: (u32, u32)| (x.1 as u128 * y.0.max(1) as u128).cmp(&(y.1 as u128 * x.0.max(1) as u128));
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| better(scores[b], scores[a]).then(a.cmp(&b)));
        let text = |s: (u32, u32)| format!("{}/{}", s.1, s.0);
        if order.len() < 2 || better(scores[order[0]], scores[order[1]]).is_eq() {
            let all: Vec<String> = scores.iter().map(|s| text(*s)).collect();
            return draw(format!(
                "turn limit {limit} reached: surviving TV {} — equal scores, a draw",
                all.join(" vs ")
            ));
        }
        let (w, l) = (scores[order[0]], scores[order[1]]);
        // Ratio in tenths: (w.1/w.0) / (l.1/l.0) × 10 = 10·w.1·l.0 / (w.0·l.1).
        let num = 10u128 * w.1 as u128 * l.0 as u128;
        let den = w.0.max(1) as u128 * l.1 as u128;
        let tenths = if den == 0 {
            i32::MAX
        } else {
            let t = match self.game.rules.engine_options.ratio_rounding {
                RatioRounding::RoundHalfUp => (2 * num + den) / (2 * den),
                RatioRounding::Truncate => num / den,
            };
            t.min(i32::MAX as u128) as i32
        };
        let level = table.row(tenths).map(|r| r.name.clone());
        let ratio = if tenths == i32::MAX {
            "no score left to the loser".to_owned()
        } else {
            format!("ratio {}.{}", tenths / 10, tenths % 10)
        };
        GameEnd {
            winner: Some(order[0]),
            turns: self.game.turn,
            reason: format!(
                "turn limit {limit} reached: surviving TV {} against {} ({ratio}){}",
                text(w),
                text(l),
                level.as_ref().map(|l| format!(": {l}")).unwrap_or_default()
            ),
            damage_dealt: self.game.damage_dealt.clone(),
            level,
        }
    }
}

/// Is the base of radius `r` at `p` wholly inside `area` (`r` = 0: is its centre inside)?
pub(crate) fn inside(area: &BoardArea, p: P, r: f64) -> bool {
    match area {
        BoardArea::Rect(z) => p.x - r >= z.x && p.x + r <= z.x + z.width && p.y - r >= z.y && p.y + r <= z.y + z.height,
        BoardArea::Circle { at, radius } => P::new(at[0], at[1]).dist(p) + r <= *radius,
    }
}

/// The board edge a deployment zone lies along, if it touches one (the first of left, right,
/// bottom, top).
pub(crate) fn zone_edge(z: &cav_format::Rect, [w, h]: [f64; 2]) -> Option<BoardEdge> {
    let eps = 1e-6;
    if z.x <= eps {
        Some(BoardEdge::Left)
    } else if z.x + z.width >= w - eps {
        Some(BoardEdge::Right)
    } else if z.y <= eps {
        Some(BoardEdge::Bottom)
    } else if z.y + z.height >= h - eps {
        Some(BoardEdge::Top)
    } else {
        None
    }
}

/// Does the base of radius `r` at `p` touch `area`?
fn touches(area: &BoardArea, p: P, r: f64) -> bool {
    match area {
        BoardArea::Rect(z) => {
            let cx = p.x.clamp(z.x, z.x + z.width);
            let cy = p.y.clamp(z.y, z.y + z.height);
            P::new(cx, cy).dist(p) <= r
        }
        BoardArea::Circle { at, radius } => P::new(at[0], at[1]).dist(p) <= radius + r,
    }
}

impl Game<'_> {
    fn objectives(&self) -> Option<&ObjectiveDef> {
        self.rules.scenarios.get(self.scenario?)?.objectives.as_ref()
    }

    /// Models that count for objectives: on the table, not mission-killed or out of action,
    /// touching no neutral area.
    fn counts_for_objectives(&self, model: usize, o: &ObjectiveDef) -> bool {
        let m = &self.models[model];
        let r = self.rules.cards[m.card].base_radius;
        m.on_table()
            && m.features.missiles.missile.is_none()
            && !m.mission_kill
            && !m.out_of_action
            && !o.neutral.iter().any(|n| touches(n, m.pos, r))
    }

    /// Who controls each objective area: the one side with a model wholly inside it (001 L2473-2501).
    pub fn area_control(&self) -> Vec<Option<usize>> {
        let Some(o) = self.objectives() else { return Vec::new() };
        o.areas
            .iter()
            .map(|area| {
                let mut present = (0..self.models.len())
                    .filter(|&i| self.counts_for_objectives(i, o))
                    .filter(|&i| inside(area, self.models[i].pos, self.rules.cards[self.models[i].card].base_radius))
                    .map(|i| self.models[i].side);
                let first = present.next()?;
                present.all(|s| s == first).then_some(first)
            })
            .collect()
    }

    /// Whether the holder of a `hold_objective` scenario still has a model standing in its areas.
    pub fn holder_holds(&self) -> Option<bool> {
        let o = self.objectives()?;
        let holder = o.holder?;
        Some((0..self.models.len()).any(|i| {
            self.models[i].side == holder
                && self.models[i].on_table()
                && self.models[i].features.missiles.missile.is_none()
                && !self.models[i].mission_kill
                && !self.models[i].out_of_action
                && o.areas.iter().any(|a| inside(a, self.models[i].pos, 0.0))
        }))
    }

    /// The area this model keeps for its side: one its side controls, where it is the side's
    /// first model inside (bots hold it there).
    pub fn kept_area(&self, model: usize) -> Option<&BoardArea> {
        let o = self.objectives()?;
        if self.victory != VictoryKind::ObjectivePoints || !self.counts_for_objectives(model, o) {
            return None;
        }
        let side = self.models[model].side;
        let keeper = |a: &BoardArea| {
            (0..self.models.len()).find(|&i| {
                self.models[i].side == side
                    && self.counts_for_objectives(i, o)
                    && inside(a, self.models[i].pos, self.rules.cards[self.models[i].card].base_radius)
            })
        };
        o.areas
            .iter()
            .zip(self.area_control())
            .find(|(a, c)| *c == Some(side) && keeper(a) == Some(model))
            .map(|(a, _)| a)
    }

    /// A point the side should make for: the nearest objective area it does not control (or,
    /// holding, the area it must stand in), for bots.
    pub fn objective_for(&self, model: usize) -> Option<P> {
        let o = self.objectives()?;
        let me = &self.models[model];
        let centre = |a: &BoardArea| match a {
            BoardArea::Rect(z) => P::new(z.x + z.width / 2.0, z.y + z.height / 2.0),
            BoardArea::Circle { at, .. } => P::new(at[0], at[1]),
        };
        let wanted: Vec<P> = match self.victory {
            VictoryKind::ObjectivePoints if !self.features.missions.containers.is_empty() => {
                return self.mission_goal(model);
            }
            VictoryKind::ObjectivePoints => {
                // One keeper per area the side holds (its first model inside) stays; the others
                // make for the areas the side does not hold.
                let control = self.area_control();
                if let Some(a) = self.kept_area(model) {
                    return Some(centre(a));
                }
                o.areas.iter().zip(control).filter(|(_, c)| *c != Some(me.side)).map(|(a, _)| centre(a)).collect()
            }
            VictoryKind::HoldObjective => o.areas.iter().map(centre).collect(),
            VictoryKind::ExitModels => return self.exit_point(model),
            VictoryKind::Rescue => return self.mission_goal(model),
            _ => return None,
        };
        wanted.into_iter().min_by(|a, b| a.dist(me.pos).total_cmp(&b.dist(me.pos)))
    }
}

impl Engine<'_, '_> {
    /// At the end of a turn of an `objective_points` scenario (from its first scoring turn): the
    /// side controlling more areas than any other scores. Returns (side, points, areas).
    pub(crate) fn score_objectives(&mut self) -> Option<(usize, u32, u32)> {
        if self.game.victory != VictoryKind::ObjectivePoints {
            return None;
        }
        let (from, points) = {
            let o = self.game.objectives()?;
            (o.from_turn, o.points)
        };
        if self.game.turn < from {
            return None;
        }
        let mut held = vec![0u32; self.game.sides.len()];
        for side in self.game.area_control().into_iter().flatten() {
            held[side] += 1;
        }
        let best = *held.iter().max()?;
        let leaders: Vec<usize> = (0..held.len()).filter(|&s| held[s] == best).collect();
        let [side] = leaders.as_slice() else { return None };
        if best == 0 {
            return None;
        }
        let total = &mut self.game.objective_points[*side];
        *total = total.saturating_add(points);
        Some((*side, points, best))
    }

    /// The end at the turn limit of a scenario scored by objectives, if it is one.
    pub(crate) fn objectives_at_limit(&self) -> Option<GameEnd> {
        let limit = self.game.turn_limit;
        let end = |winner: Option<usize>, reason: String| GameEnd {
            winner,
            turns: self.game.turn,
            reason,
            damage_dealt: self.game.damage_dealt.clone(),
            level: None,
        };
        match self.game.victory {
            VictoryKind::ObjectivePoints if self.game.objectives().is_some() => {
                let op = &self.game.objective_points;
                let best = *op.iter().max()?;
                let leaders: Vec<usize> = (0..op.len()).filter(|&s| op[s] == best).collect();
                let text: Vec<String> = op.iter().map(u32::to_string).collect();
                Some(match leaders.as_slice() {
                    [w] => end(Some(*w), format!("turn limit {limit} reached: objective points {}", text.join(" to "))),
                    _ => {
                        end(None, format!("turn limit {limit} reached: objective points {}, a draw", text.join(" to ")))
                    }
                })
            }
            VictoryKind::DestroyedTv => {
                let destroyer = self.game.objectives()?.destroyer?;
                let own: u32 = self.game.scores()[destroyer].0;
                let destroyed: u32 = self
                    .game
                    .models
                    .iter()
                    .filter(|m| m.side != destroyer && m.destroyed)
                    .map(|m| self.game.rules.cards[m.card].tv)
                    .fold(0, u32::saturating_add);
                let name = &self.game.sides[destroyer];
                if destroyed >= own {
                    Some(end(Some(destroyer), format!("{name} destroyed {destroyed} TV, at least its own {own}")))
                } else {
                    let other = (0..self.game.sides.len()).find(|&s| s != destroyer);
                    Some(end(other, format!("{name} destroyed {destroyed} TV, short of its own {own}")))
                }
            }
            VictoryKind::ExitModels if self.game.objectives().is_some_and(|o| !o.exits.is_empty()) => {
                Some(self.exit_end(format!("turn limit {limit} reached")))
            }
            VictoryKind::HoldObjective => {
                let holder = self.game.objectives()?.holder?;
                if self.game.holder_holds()? {
                    Some(end(Some(holder), format!("{} still holds the objective at the end", self.game.sides[holder])))
                } else {
                    let other = (0..self.game.sides.len()).find(|&s| s != holder);
                    Some(end(other, format!("{} holds nothing of the objective at the end", self.game.sides[holder])))
                }
            }
            _ => None,
        }
    }
}

impl Game<'_> {
    /// The edges the model's side may leave the table across, scoring.
    fn exit_edges(&self, model: usize) -> impl Iterator<Item = BoardEdge> + '_ {
        let side = self.models[model].side;
        let exits = match self.victory {
            VictoryKind::ExitModels => self.objectives().map(|o| o.exits.as_slice()).unwrap_or_default(),
            _ => &[],
        };
        exits.iter().filter(move |(s, _)| *s == side).map(|(_, e)| *e)
    }

    /// May the model step to `p` off the table, across one of its side's exit edges?
    pub(crate) fn may_exit(&self, model: usize, p: P) -> bool {
        let [w, h] = self.board.size;
        let along_x = (0.0..=w).contains(&p.x);
        let along_y = (0.0..=h).contains(&p.y);
        self.exit_edges(model).any(|e| match e {
            BoardEdge::Left => p.x < 0.0 && along_y,
            BoardEdge::Right => p.x > w && along_y,
            BoardEdge::Bottom => p.y < 0.0 && along_x,
            BoardEdge::Top => p.y > h && along_x,
        })
    }

    /// Where a mission-killed model withdraws to: past its own deployment zone's board edge where
    /// the ruleset says so and the game has zones, else past the nearest edge.
    pub fn withdraw_point(&self, model: usize) -> P {
        let [w, h] = self.board.size;
        let p = self.models[model].pos;
        let beyond = |e: BoardEdge| match e {
            BoardEdge::Left => P::new(-5.0, p.y),
            BoardEdge::Right => P::new(w + 5.0, p.y),
            BoardEdge::Bottom => P::new(p.x, -5.0),
            BoardEdge::Top => P::new(p.x, h + 5.0),
        };
        let own = (self.rules.proc.damage.mission_kill.withdraw_to == cav_format::WithdrawTo::OwnEdge)
            .then(|| self.scenario.and_then(|s| self.rules.scenarios.get(s)))
            .flatten()
            .and_then(|s| s.sides.get(self.models[model].side))
            .and_then(|(_, z)| zone_edge(z, [w, h]));
        if let Some(edge) = own {
            return beyond(edge);
        }
        let near =
            [(p.x, BoardEdge::Left), (w - p.x, BoardEdge::Right), (p.y, BoardEdge::Bottom), (h - p.y, BoardEdge::Top)];
        near.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map_or(p, |(_, e)| beyond(*e))
    }

    /// A point past the model's nearest exit edge, for bots.
    fn exit_point(&self, model: usize) -> Option<P> {
        let [w, h] = self.board.size;
        let p = self.models[model].pos;
        self.exit_edges(model)
            .map(|e| match e {
                BoardEdge::Left => P::new(-5.0, p.y),
                BoardEdge::Right => P::new(w + 5.0, p.y),
                BoardEdge::Bottom => P::new(p.x, -5.0),
                BoardEdge::Top => P::new(p.x, h + 5.0),
            })
            .min_by(|a, b| a.dist(p).total_cmp(&b.dist(p)))
    }

    /// Per side, its exit score: the TV of its models that left across an exit edge, plus, where
    /// the scenario says so, the TV of the enemy models destroyed.
    pub fn exit_scores(&self) -> Vec<u32> {
        let count_destroyed = self.objectives().is_some_and(|o| o.count_destroyed);
        let mut out = vec![0u32; self.sides.len()];
        for m in &self.models {
            let tv = self.rules.cards[m.card].tv;
            if m.exited {
                out[m.side] = out[m.side].saturating_add(tv);
            }
            if count_destroyed && m.destroyed {
                for (side, score) in out.iter_mut().enumerate() {
                    if side != m.side {
                        *score = score.saturating_add(tv);
                    }
                }
            }
        }
        out
    }
}

impl Engine<'_, '_> {
    /// An exit scenario ends when a side has no model left on the table: the higher exit score
    /// wins (001 L2106-2146, L2297-2331).
    pub(crate) fn exits_decided(&self) -> Option<GameEnd> {
        if self.game.victory != VictoryKind::ExitModels || self.game.objectives().is_none_or(|o| o.exits.is_empty()) {
            return None;
        }
        let emptied =
            (0..self.game.sides.len()).find(|&s| !self.game.models.iter().any(|m| m.side == s && m.in_play()))?;
        Some(self.exit_end(format!("{} has no model left on the table", self.game.sides[emptied])))
    }

    fn exit_end(&self, why: String) -> GameEnd {
        let scores = self.game.exit_scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..scores.len()).filter(|&s| scores[s] == best).collect();
        let text: Vec<String> = scores.iter().map(u32::to_string).collect();
        let winner = match leaders.as_slice() {
            [w] => Some(*w),
            _ => None,
        };
        GameEnd {
            winner,
            turns: self.game.turn,
            reason: format!(
                "{why}: exit scores {}{}",
                text.join(" to "),
                if winner.is_none() { ", a draw" } else { "" }
            ),
            damage_dealt: self.game.damage_dealt.clone(),
            level: None,
        }
    }
}
