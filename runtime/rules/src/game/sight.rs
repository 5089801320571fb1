//! Line of sight and cover (001 L3913-4060): what blocks a line, the cover that counts, the
//! obscurement terrain adds along it (CAV's woods stacking, 003's obscurement per hex), aircraft, fire over structures, designator lines; answers remembered per board.

use cav_format::Cover;

use super::state::{Area, Game};
use crate::geom::P;

impl<'r> Game<'r> {
    /// Line of sight and the best cover that counts between attacker and defender.
    /// `only_defenders_own`: guided missiles and rockets ignore intervening cover (000 L686).
    pub fn sight(&self, attacker: usize, target: usize, only_defenders_own: bool) -> (bool, Cover) {
        let v = self.sight_full(attacker, target, only_defenders_own);
        (v.los, v.cover)
    }

    /// How many points of obscurement along the line of sight go beyond the cover type's own
    /// (the full rules' woods stacking: two intervening light woods and the defender's own near
    /// its edge are heavy cover worth 3), for the `extra-woods` condition.
    pub fn cover_extra(&self, attacker: usize, target: usize, only_defenders_own: bool) -> i32 {
        self.sight_full(attacker, target, only_defenders_own).extra
    }

    /// `sight`'s cover and `cover_extra` together (one line of sight asked for both).
    pub fn sight_cover(&self, attacker: usize, target: usize, only_defenders_own: bool) -> (bool, Cover, i32) {
        let v = self.sight_full(attacker, target, only_defenders_own);
        (v.los, v.cover, v.extra)
    }

    fn sight_full(&self, attacker: usize, target: usize, only_defenders_own: bool) -> Sight {
        let key = SightKey {
            attacker,
            target,
            own: only_defenders_own,
            pa: self.models[attacker].pos,
            pd: self.models[target].pos,
            areas: self.board.areas.len(),
            version: self.board_version,
            models: self.models_fingerprint(),
        };
        if let Some((_, v)) = self.sight_memo.borrow().iter().find(|(k, _)| *k == key) {
            return self.dug_in(target, *v);
        }
        let v = self.sight_uncached(attacker, target, only_defenders_own);
        let mut memo = self.sight_memo.borrow_mut();
        if memo.len() >= 8 {
            memo.remove(0);
        }
        memo.push((key, v));
        self.dug_in(target, v)
    }

    /// A dug-in target has at least the ruleset's dig-in cover where it is in sight.
    fn dug_in(&self, target: usize, v: Sight) -> Sight {
        match &self.rules.proc.dig_in {
            Some((cover, _))
                if v.los
                    && self.models[target].has(&super::actions::DUG_IN)
                    && cover_rank(*cover) > cover_rank(v.cover) =>
            {
                Sight { cover: *cover, ..v }
            }
            _ => v,
        }
    }

    fn sight_uncached(&self, attacker: usize, target: usize, only_defenders_own: bool) -> Sight {
        if let Some(air) = self.rules.proc.sight.aircraft
            && (self.flying(attacker) || self.flying(target))
        {
            return self.sight_with_aircraft(attacker, target, air);
        }
        let end = SightEnd {
            pos: self.models[target].pos,
            height: self.height(target),
            radius: self.card(target).base_radius,
            model: Some(target),
        };
        match self.rules.hexes {
            Some(_) => self.sight_hex(attacker, end, only_defenders_own),
            None => self.sight_to(attacker, end, only_defenders_own, None),
        }
    }

    /// The obscurement points along the line of sight from `attacker` to `target` (terrain
    /// `obscurement`), for the `obscured` condition and what scripts and maps ask.
    pub fn obscurement(&self, attacker: usize, target: usize) -> u32 {
        self.sight_full(attacker, target, false).obscurement
    }

    /// Whether `attacker` sees the ground at `p` (an indirect attack's strike point with no model
    /// on it): the line of sight to a model standing there, as tall as the ground and no wider
    /// than a point.
    pub fn sees_point(&self, attacker: usize, p: P) -> bool {
        if self.rules.proc.sight.aircraft.is_some() && self.flying(attacker) {
            // From the air only the terrain the point lies in can hide it (001 L4233-4275).
            let ground = self.ground(p);
            return !self
                .board
                .areas
                .iter()
                .any(|a| a.poly.contains(p) && self.area_cover(a, ground).0 == Cover::Blocking);
        }
        let end = SightEnd { pos: p, height: self.ground(p), radius: 0.0, model: None };
        let v = match self.rules.hexes {
            Some(_) => self.sight_hex(attacker, end, false),
            None => self.sight_to(attacker, end, false, None),
        };
        v.los
    }

    /// `sight_to` on a hex board: the line is the hexes between the two (`HexGeometry::lines`): a
    /// piece of terrain is crossed where a hex of the line but the attacker's lies in it, a model
    /// where its hex is on the line; where the line runs along a hexside, each side is traced and
    /// the one that hides less counts (the attacker's choice: a reading).
    fn sight_hex(&self, attacker: usize, end: SightEnd, only_defenders_own: bool) -> Sight {
        let Some(g) = &self.rules.hexes else { return self.sight_to(attacker, end, only_defenders_own, None) };
        let from = g.hex_at(self.models[attacker].pos);
        let (line, other) = crate::compile::HexGeometry::lines(from, g.hex_at(end.pos));
        let traced = |hexes: &[crate::compile::Hex]| {
            // The pieces any hex of the line but the attacker's lies in.
            let mut pieces: Vec<u32> =
                hexes.iter().filter(|&&h| h != from).flat_map(|&h| self.piece_ixs_in(h)).collect();
            pieces.sort_unstable();
            pieces.dedup();
            let crossed = HexLine { geometry: *g, from, hexes, pieces };
            self.sight_to(attacker, end, only_defenders_own, Some(&crossed))
        };
        let a = traced(&line);
        match other {
            Some(other) => {
                let b = traced(&other);
                let hides = |s: &Sight| (!s.los, cover_rank(s.cover), s.extra, s.obscurement);
                if hides(&b) < hides(&a) { b } else { a }
            }
            None => a,
        }
    }

    /// `sight_uncached` towards `end`, a model on the ground or a point: along the segment between
    /// the two (`line: None`), or a hex line (`sight_hex`).
    fn sight_to(&self, attacker: usize, end: SightEnd, only_defenders_own: bool, line: Option<&HexLine>) -> Sight {
        let (pa, pd) = (self.models[attacker].pos, end.pos);
        let (ha, hd) = (self.height(attacker), end.height);
        let (ra, rd) = (self.card(attacker).base_radius, end.radius);
        let sight = &self.rules.proc.sight;
        let adj = sight.adjacent_cover;
        // Models this close ignore light and heavy cover between them.
        let close = sight.cover_ignored_within.is_some_and(|d| match end.model {
            Some(target) => self.distance(attacker, target) < d,
            None => pa.dist(pd) - ra < d,
        });
        let mut best = Cover::None;
        // Obscuring terrain (counted wherever the line crosses it) adds up: the points of all of
        // it make the total; only those of pieces no model stands in near their edge make the
        // cover type (001 L4078-4096, L4149-4159). On a hex board the pieces are counted hex by
        // hex afterwards (`hex_obscurement`).
        let (mut all, mut away) = (0u32, 0u32);
        let mut hex_pieces: Vec<(u32, u32, bool)> = Vec::new();
        for (ix, area) in self.board.areas.iter().enumerate() {
            let t = &self.rules.terrains[area.terrain];
            let obscures = t.obscures();
            // Its cover goes by its height against the target's where the ruleset says so (not
            // for obscuring terrain, which has no height), else it is what its document names.
            let by_elevation = !sight.cover_by_elevation.is_empty() && t.elevation > 0 && !obscures;
            if t.cover == Cover::None && !by_elevation && !obscures || t.raises_ground && t.elevation <= 0 {
                continue;
            }
            // Cheap rejects first: pieces far from both ends and from the line between them (on a
            // hex board: in no hex of the line).
            let hex_crossed = match line {
                Some(line) => Some(line.pieces.binary_search(&(ix as u32)).is_ok()),
                None if crate::geom::seg_point_dist(pa, pd, area.center) > area.radius + ra.max(rd) + adj => continue,
                None => None,
            };
            if hex_crossed == Some(false) && !(area.center.dist(pd) <= area.radius + 1e-6 && area.poly.contains(pd)) {
                continue;
            }
            // Ground a model stands on raises it; it is no cover for or against that model. A
            // structure a model is inside shelters it by its armor class, not as cover.
            if (t.raises_ground || t.structure.is_some()) && (area.poly.contains(pa) || area.poly.contains(pd)) {
                continue;
            }
            let standing_in = area.poly.contains(pd);
            if only_defenders_own && !standing_in {
                continue;
            }
            // A trench or fighting position shelters only the models it is for.
            if standing_in && end.model.is_some_and(|target| !self.sheltered(area, target)) {
                continue;
            }
            // (On a continuous board the segment test waits until here: the dearest, and not
            // needed for the piece the target stands in.)
            if !standing_in && !hex_crossed.unwrap_or_else(|| area.poly.touches_segment(pa, pd)) {
                continue;
            }
            // Low terrain the attacker fires over (Pop-Up, hull-down) does not stop its sight.
            if self.fires_over(attacker, area).is_some() {
                continue;
            }
            let (mut cover, height) = self.area_cover(area, hd);
            // Against a model firing over it, it gives the cover the ruleset says (hull-down: heavy);
            // a model risen over it for a snapshot has none from it (over-watch fire at it).
            let mut counts_as = false;
            match end.model.and_then(|target| self.fires_over(target, area).map(|f| (target, f))) {
                Some((target, f)) if f.snapshot && self.models[target].has(&crate::game::actions::POPPED_UP) => {
                    continue;
                }
                Some((_, f)) => {
                    counts_as = f.counts_as.is_some();
                    cover = f.counts_as.unwrap_or(cover);
                }
                None => {}
            }
            if cover == Cover::None && !obscures || close && cover != Cover::Blocking {
                continue;
            }
            let counts = if obscures {
                // Crossed, it counts — but not the attacker's own, while the attacker stands
                // within the adjacent distance of its edge (on a hex board: the attacker's hex
                // is not counted, `hex_obscurement`).
                line.is_some() || standing_in || !area.poly.contains(pa) || area.poly.edge_distance(pa) - ra > adj
            } else {
                // The ways cover counts (000 L670-676, 001 L4016-4032), cheapest first.
                standing_in
                    || sight.cover_next_to_attacker && area.poly.distance(pa) <= ra + adj
                    || area.poly.distance(pd) <= rd + adj
                    || height >= ha && height >= hd
            };
            if !counts {
                continue;
            }
            if let Some(o) = t.obscurement
                && cover != Cover::Blocking
            {
                // (Obscuring terrain whose cover blocks blocks wherever crossed, below.) A piece that counts as other cover (hull-down behind a wood) is that cover's
                // points.
                let points =
                    if counts_as { u32::from(cover_rank(cover)) } else { self.obscurement_points(o, end.model) };
                let near_edge = |p: P, r: f64| area.poly.contains(p) && area.poly.edge_distance(p) - r <= adj;
                let is_away = !near_edge(pa, ra) && !near_edge(pd, rd);
                if line.is_some() {
                    hex_pieces.push((ix as u32, points, is_away));
                    continue;
                }
                let points = match o.per_inches {
                    None => points,
                    Some(per) => {
                        // (NaN and nonsense count nothing; `as` saturates.)
                        let n = area.poly.length_inside(pa, pd) / per;
                        points.saturating_mul(if n.is_finite() && n > 0.0 {
                            n.floor().min(f64::from(u16::MAX)) as u32
                        } else {
                            0
                        })
                    }
                };
                all = all.saturating_add(points);
                if is_away {
                    away = away.saturating_add(points);
                }
            } else if cover_rank(cover) > cover_rank(best) {
                best = cover;
            }
        }
        if let Some(line) = line
            && !hex_pieces.is_empty()
        {
            all = self.hex_obscurement(line, &hex_pieces, false);
            away = self.hex_obscurement(line, &hex_pieces, true);
        }
        // Other models on the line, as cover objects of the ruleset's kinds (never for guided
        // missiles and rockets: no model is something the defender stands in).
        if !only_defenders_own && best != Cover::Blocking {
            for other in 0..self.models.len() {
                if other == attacker || Some(other) == end.model || !self.models[other].on_table() {
                    continue;
                }
                let cover = self.model_cover(other);
                if cover_rank(cover) <= cover_rank(best) {
                    continue;
                }
                let (po, ro) = (self.models[other].pos, self.card(other).base_radius);
                let on_line = match line {
                    Some(line) => line.crosses(po),
                    None => crate::geom::seg_point_dist(pa, pd, po) < ro,
                };
                if !on_line {
                    continue; // the line passes beside its base (or its hex)
                }
                // Counted as terrain is (000 L673-677): as tall as both models, or next to either.
                let gap = |p: P, r: f64| p.dist(po) - r - ro;
                let ho = self.height(other);
                if ho >= ha && ho >= hd || gap(pa, ra) <= adj || gap(pd, rd) <= adj {
                    best = cover;
                }
            }
        }
        // The ruleset's cover by obscurement: by the points of the pieces away from either model
        // (obscurement counting only as a model's own makes the first entry too).
        let by_points = &sight.obscurement_cover;
        let obscured = match (all, by_points.len()) {
            (0, _) | (_, 0) => Cover::None,
            (_, n) => by_points[(away.max(1) as usize - 1).min(n - 1)],
        };
        let terrain_points = i32::from(cover_rank(best));
        if cover_rank(obscured) > cover_rank(best) {
            best = obscured;
        }
        let extra = if best == Cover::Blocking {
            0
        } else {
            (terrain_points.max(i32::try_from(all).unwrap_or(i32::MAX)) - i32::from(cover_rank(best))).max(0)
        };
        let los = best != Cover::Blocking && sight.obscured_at.is_none_or(|at| all < at);
        Sight { los, cover: best, extra, obscurement: all }
    }

    /// A terrain's obscurement points against the line's end: a small enough target model meets
    /// its `small_targets` points.
    fn obscurement_points(&self, o: crate::compile::ObscurementDef, target: Option<usize>) -> u32 {
        let small = o.small_targets.filter(|&(attribute, most, _)| {
            target.is_some_and(|m| self.attributes(m).get(attribute).is_some_and(|&size| size <= most))
        });
        small.map_or(o.points, |(_, _, points)| points)
    }

    /// The obscurement of the pieces `sight_to` found along a hex line — (board index, points,
    /// away from either model's edge) — counted hex by hex (003 L18-41): each terrain's points
    /// for every `per_hexes` of its hexes on the line but the attacker's (several pieces of it
    /// in one hex: one hex). `only_away`: of the pieces away from the models only.
    fn hex_obscurement(&self, line: &HexLine, pieces: &[(u32, u32, bool)], only_away: bool) -> u32 {
        // (terrain, points, hex) for each hex of the line a counted piece lies in.
        let mut hexes: Vec<(usize, u32, crate::compile::Hex)> = Vec::new();
        for &h in line.hexes.iter().filter(|&&h| h != line.from) {
            for ix in self.piece_ixs_in(h) {
                // (`pieces` is in board order, as `sight_to` walked the board.)
                if let Ok(i) = pieces.binary_search_by_key(&ix, |&(p, _, _)| p)
                    && (pieces[i].2 || !only_away)
                {
                    hexes.push((self.board.areas[ix as usize].terrain, pieces[i].1, h));
                }
            }
        }
        hexes.sort_unstable_by_key(|&(t, points, h)| (t, points, h.x, h.y));
        hexes.dedup();
        let mut total = 0u32;
        for group in hexes.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
            let (t, points, _) = group[0];
            let per = self.rules.terrains[t].obscurement.map_or(1, |o| o.per_hexes.max(1));
            let n = u32::try_from(group.len()).unwrap_or(u32::MAX);
            total = total.saturating_add(points.saturating_mul(n / per));
        }
        total
    }

    /// Sight where one side flies (001 L4233-4275): a line of sight over terrain and models;
    /// a flying target's cover is only tall terrain crossed next to its ground attacker, a ground
    /// target's only the terrain it stands in or next to; between two aircraft, none.
    fn sight_with_aircraft(&self, attacker: usize, target: usize, air: cav_format::AircraftSight) -> Sight {
        let (pa, pd) = (self.models[attacker].pos, self.models[target].pos);
        let (ra, rd) = (self.card(attacker).base_radius, self.card(target).base_radius);
        let adj = self.rules.proc.sight.adjacent_cover;
        let (fa, fd) = (self.flying(attacker), self.flying(target));
        let mut best = Cover::None;
        for area in &self.board.areas {
            let t = &self.rules.terrains[area.terrain];
            let crossed = area.poly.touches_segment(pa, pd);
            let counts = match (fa, fd) {
                // Tall terrain hugged by the ground attacker; or woods it stands deep inside, which
                // screen it both ways (001 L4247-4252).
                (false, true) => {
                    t.elevation >= air.ground_attacker_cover_elevation && crossed && area.poly.distance(pa) <= ra + adj
                        || t.obscures() && area.poly.contains(pa) && area.poly.edge_distance(pa) - ra > adj
                }
                (true, false) => area.poly.contains(pd) || crossed && area.poly.distance(pd) <= rd + adj,
                _ => false,
            };
            if !counts {
                continue;
            }
            let (cover, _) = self.area_cover(area, self.height(target));
            if cover_rank(cover) > cover_rank(best) {
                best = cover;
            }
        }
        // Seen over everything else: only tall terrain hugged by a ground attacker can hide an
        // aircraft (it is blocking cover there, as for any target next to it).
        // Aircraft see over obscuring terrain as over everything else.
        Sight { los: best != Cover::Blocking, cover: best, extra: 0, obscurement: 0 }
    }

    /// The ruleset's way for `model` to fire over `area` (`sight.fire_over`), if it has one:
    /// its special attribute (or a weapon it carries) and type, terrain no higher than the
    /// entry's level beside it (not under it); or, for an entry naming terrain, a piece of it the
    /// model stands in and is sheltered by.
    pub fn fires_over(&self, model: usize, area: &Area) -> Option<&crate::compile::FireOverDef> {
        let rules = &self.rules.proc.fire_over;
        if rules.is_empty() {
            return None;
        }
        let (card, pos) = (self.card(model), self.models[model].pos);
        let elevation = self.rules.terrains[area.terrain].elevation;
        rules.iter().find(|f| {
            let placed = if f.terrain.is_empty() {
                (f.sa.is_some_and(|sa| card.sas.iter().any(|(s, _)| *s == sa))
                    || card.weapons.iter().any(|m| f.weapons.contains(&m.weapon)))
                    && !area.poly.contains(pos)
                    && area.poly.distance(pos) <= card.base_radius + f.within
            } else {
                f.terrain.contains(&area.terrain) && area.poly.contains(pos) && self.sheltered(area, model)
            };
            placed
                && (f.model_types.is_empty() || f.model_types.contains(&card.model_type))
                && (1..=f.max_elevation).contains(&elevation)
        })
    }

    /// Whether a shot by `model` at `target` is a snapshot over low terrain beside it (Pop-Up:
    /// a `sight.fire_over` entry with `snapshot`), crossing it on the line between them.
    pub fn snapshot_at(&self, model: usize, target: usize) -> bool {
        let snapshots = self.rules.proc.fire_over.iter().any(|f| f.snapshot);
        let (a, b) = (self.models[model].pos, self.models[target].pos);
        snapshots
            && self
                .board
                .areas
                .iter()
                .any(|area| area.poly.touches_segment(a, b) && self.fires_over(model, area).is_some_and(|f| f.snapshot))
    }

    /// A piece with room for so many models (`room`: a bunker section) that `model` may not
    /// end a move in at `p`, because others fill it: the piece's terrain and its room.
    pub fn full_piece_at(&self, model: usize, p: P) -> Option<(&str, u32)> {
        self.board.areas.iter().find_map(|a| {
            let t = &self.rules.terrains[a.terrain];
            let room = t.room?;
            if !a.poly.contains(p) || a.poly.contains(self.models[model].pos) {
                return None;
            }
            let inside = (0..self.models.len())
                .filter(|&m| m != model && self.models[m].on_table() && a.poly.contains(self.models[m].pos))
                .count();
            (inside >= room as usize).then_some((t.id.as_str(), room))
        })
    }

    /// Whether `model`, standing in `area`, takes its cover (`shelters`: a trench covers two
    /// infantry models, 001 L10986-10990): of a type it shelters, and among the `at_most` of
    /// those in it nearest its centre (ties: the earlier model).
    pub fn sheltered(&self, area: &Area, model: usize) -> bool {
        let Some(s) = &self.rules.terrains[area.terrain].shelters else { return true };
        let of_type =
            |m: usize| s.model_types.is_empty() || self.rules.type_in(&s.model_types, self.card(m).model_type);
        if !of_type(model) {
            return false;
        }
        let Some(limit) = s.at_most else { return true };
        let mine = (self.models[model].pos.dist(area.center), model);
        let ahead = (0..self.models.len())
            .filter(|&m| {
                m != model && self.models[m].on_table() && of_type(m) && area.poly.contains(self.models[m].pos)
            })
            .filter(|&m| (self.models[m].pos.dist(area.center), m) < mine)
            .count();
        ahead < limit as usize
    }

    /// The cover a terrain area gives a target at total elevation `target_elevation`, and how
    /// tall the area stands: by its height against the target's where the ruleset says so
    /// (`sight.cover_by_elevation`; not obscuring terrain, which has no height), else the cover its document
    /// names.
    pub fn area_cover(&self, area: &Area, target_elevation: i32) -> (Cover, i32) {
        let t = &self.rules.terrains[area.terrain];
        let levels = &self.rules.proc.sight.cover_by_elevation;
        // A hill is its level; other objects stand on the ground under them.
        let height = t.elevation + if t.raises_ground { 0 } else { self.ground(area.center) };
        if levels.is_empty() || t.elevation <= 0 || t.obscures() {
            return (t.cover, height);
        }
        let below = (target_elevation - height).max(0) as usize;
        (levels.get(below).copied().unwrap_or(Cover::None), height)
    }

    /// Whether blocking cover on the line between two models lies next to either of them (within
    /// the ruleset's adjacent distance): what stops an indirect attack's combat roll where the
    /// ruleset says so (`sight.blocking_cover_stops_indirect`).
    pub fn blocking_next_to(&self, attacker: usize, target: usize) -> bool {
        let (pa, pd) = (self.models[attacker].pos, self.models[target].pos);
        let (ra, rd) = (self.card(attacker).base_radius, self.card(target).base_radius);
        let adj = self.rules.proc.sight.adjacent_cover;
        let hd = self.height(target);
        self.board.areas.iter().any(|area| {
            let t = &self.rules.terrains[area.terrain];
            // Ground a model stands on raises it; it is no cover for or against that model.
            let stood_on = t.raises_ground && (area.poly.contains(pa) || area.poly.contains(pd));
            !stood_on
                && (area.poly.distance(pa) <= ra + adj || area.poly.distance(pd) <= rd + adj)
                && area.poly.touches_segment(pa, pd)
                && self.area_cover(area, hd).0 == Cover::Blocking
        })
    }

    /// The cover a model gives standing on someone else's line of sight, by the ruleset.
    fn model_cover(&self, model: usize) -> Cover {
        let ty = self.card(model).model_type;
        let lying = self.lying(model);
        self.rules
            .proc
            .sight
            .model_cover
            .iter()
            .find(|c| self.rules.type_in(&c.model_types, ty))
            .map_or(Cover::None, |c| if lying { c.prone } else { c.standing })
    }

    /// What the models add to a line-of-sight answer: where each stands, whether it is lying
    /// down and still on the table (0 when the ruleset's models never obstruct).
    /// (FNV-1a over 64-bit words: this runs on every sight query, where SipHash cost a tenth of
    /// a game's instructions; a memo of 8 answers needs no collision resistance.)
    fn models_fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |x: u64| h = (h ^ x).wrapping_mul(0x0000_0100_0000_01b3);
        let obstruct = !self.rules.proc.sight.model_cover.is_empty();
        for (i, m) in self.models.iter().enumerate() {
            // Lying down changes a model's own height, whatever the ruleset says of cover.
            mix(u64::from(self.lying(i)) | u64::from(obstruct && m.on_table()) << 1);
            if obstruct {
                mix(m.pos.x.to_bits());
                mix(m.pos.y.to_bits());
            }
            // A size changed for good changes what small targets hide behind (`small_targets`).
            for &v in m.changed_attributes() {
                mix(v as u64);
            }
        }
        h
    }

    pub fn painted(&self, attacker: usize, target: usize) -> bool {
        self.painted_for(attacker, target, true)
    }

    /// `painted`, counting the attacker's own TAG only when `own_tag` (not for a Pop-Up
    /// snapshot, 001 L8012-8016).
    pub fn painted_for(&self, attacker: usize, target: usize, own_tag: bool) -> bool {
        let states = &self.rules.states;
        let me = &self.models[target];
        (me.side != self.models[attacker].side && me.states.iter().any(|(s, _)| states[*s as usize].painted))
            || own_tag
                && self.card(attacker).tag.is_some_and(|reach| {
                    self.range(attacker, target) <= reach
                        && self.sight(attacker, target, false).0
                        && self.designator_line(attacker, target)
                })
    }

    /// Whether a TAG's beam passes from `a` to `b`: no terrain that blocks designators (smoke)
    /// lies across the line or under either model.
    pub fn designator_line(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.models[a].pos, self.models[b].pos);
        !self.board.areas.iter().any(|area| {
            self.rules.terrains[area.terrain].blocks_designators
                && (area.poly.touches_segment(pa, pb) || area.poly.contains(pa) || area.poly.contains(pb))
        })
    }
}

/// A line-of-sight answer: is there one, the cover type, the obscurement points beyond the
/// type, and the obscurement along the line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Sight {
    los: bool,
    cover: Cover,
    extra: i32,
    obscurement: u32,
}

/// A hex line of sight: the hexes it crosses, from the attacker's, and the terrain pieces (board
/// indices, sorted) those but the attacker's lie in.
struct HexLine<'h> {
    geometry: crate::compile::HexGeometry,
    from: crate::compile::Hex,
    hexes: &'h [crate::compile::Hex],
    pieces: Vec<u32>,
}

impl HexLine<'_> {
    /// Whether the line crosses the hex of point `p` (a model's; not the attacker's own).
    fn crosses(&self, p: P) -> bool {
        let h = self.geometry.hex_at(p);
        h != self.from && self.hexes.contains(&h)
    }
}

/// Where a line of sight ends: a model, or a point on the ground (`model: None`).
#[derive(Debug, Clone, Copy)]
struct SightEnd {
    pos: P,
    height: i32,
    radius: f64,
    model: Option<usize>,
}

/// What a line-of-sight answer depends on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct SightKey {
    attacker: usize,
    target: usize,
    own: bool,
    pa: P,
    pd: P,
    areas: usize,
    version: u64,
    models: u64,
}

pub(super) fn cover_rank(c: Cover) -> u8 {
    match c {
        Cover::None => 0,
        Cover::Light => 1,
        Cover::Heavy => 2,
        Cover::Blocking => 3,
    }
}
