//! What an attack leaves where it lands, and the terrain laid during play: a minefield seeded by
//! a shell or a strike (FASCAM, cluster munitions: `MountDef::lays`), terrain left by one (a smoke
//! shell's cloud, a smoke screen: `MountDef::leaves`), a lingering cloud (the nano-disassemblers':
//! `MountDef::cloud`) that drifts and may be destroyed, a script's piece (`ctx.place_terrain`),
//! and their lifting when their time is up.

use super::*;
use crate::game::state::{Laid, Seeker};
use cav_format::LastsFor;

/// What an attack did as it landed (`Engine::land`): whether it still attacks there, and the
/// models it spares (their anti-nano pods met it).
pub(crate) struct Landing {
    pub attacks: bool,
    pub spared: Vec<usize>,
}

impl Engine<'_, '_> {
    /// What mount `weapon` of `by` does at `point` as it lands, before any attack there: what its
    /// blast destroys outright, the minefield it lays, the cloud it leaves to linger, the terrain
    /// it leaves (a strip lies along `heading`; absent, square to the line from `by` to the
    /// point). Whether an attack is still to be made there: not where a minefield was laid, nor
    /// with no RAV at all (a smoke shell). Terrain past the cap of laid pieces is not laid, and
    /// the log says so (a `forbidden` event), rather than ending the game.
    pub(crate) fn land(
        &mut self,
        by: usize,
        weapon: usize,
        point: P,
        heading: Option<f64>,
    ) -> Result<Landing, EngineError> {
        let r = self.rules();
        let m = &self.cardr(by).weapons[weapon];
        let (aoe, lays, leaves, cloud) = (m.aoe, m.lays, m.leaves.clone(), m.cloud.is_some());
        let attacks = m.rav.iter().any(|&(h, s)| h.is_some() || s.is_some());
        let side = self.game.models[by].side;
        if let Some(d) = m.destroys.clone() {
            self.blast(by, point, aoe, &d)?;
        }
        if let Some(asset) = lays {
            let area = Polygon::regular(point, aoe, 24);
            self.game.lay_minefield(asset, None, side, area, Some((by, weapon))).map_err(|e| self.illegal(by, e))?;
            let (side_name, name) = (self.game.sides[side].clone(), r.assets[asset].name.clone());
            let detail = format!("a minefield laid at ({:.1}, {:.1})", point.x, point.y);
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left: 0 });
            return Ok(Landing { attacks: false, spared: Vec::new() });
        }
        // A model it reaches that carries what meets the cloud (an anti-nano pod) spends one use:
        // the cloud is destroyed, and the attack spares that model (001 L9702-9707).
        let mut spared = Vec::new();
        if cloud {
            for i in 0..self.game.models.len() {
                let (at, base) = (self.game.models[i].pos, self.cardr(i).base_radius);
                if i == by || !self.game.models[i].on_table() || at.dist(point) > aoe + base {
                    continue;
                }
                if let Some(sa) = self.game.pulse(i, by, weapon) {
                    self.game.models[i].spend_charge(sa);
                    let name = self.cardr(by).weapons[weapon].name.clone();
                    emit!(self, Event::Cloud { model: i, weapon: name, at: point, radius: aoe, change: "pulsed" });
                    spared.push(i);
                }
            }
        }
        if cloud && spared.is_empty() {
            // Live clouds count against the cap of laid pieces (each drifts every turn).
            use cav_format::limits::SCRIPT_PLACED_TERRAIN;
            if self.game.minefields.iter().filter(|f| f.cloud.is_some()).count() >= SCRIPT_PLACED_TERRAIN {
                let reason = format!("{SCRIPT_PLACED_TERRAIN} clouds already linger on the table");
                emit!(self, Event::Forbidden { model: by, what: "terrain", reason });
            } else {
                self.game.lay_cloud(by, weapon, point, aoe);
                let weapon = self.cardr(by).weapons[weapon].name.clone();
                emit!(self, Event::Cloud { model: by, weapon, at: point, radius: aoe, change: "laid" });
            }
        }
        if let Some(l) = leaves {
            let thrown = self.roll(by, "lasts", l.dice, Vec::new(), None, None, false).total.max(0) as u32;
            let left = if l.halved { thrown.div_ceil(2) } else { thrown }.saturating_add(l.add).max(1);
            let laid = Laid { by, left, counts: l.counts };
            match l.strip {
                Some((length, width)) => {
                    let from = self.game.models[by].pos;
                    let along = heading.unwrap_or_else(|| from.bearing(point) + 90.0);
                    let (a, b) = crate::game::state::strip_ends(point, along, length);
                    let side = P::heading(along + 90.0).scale(width / 2.0);
                    let poly = Polygon { points: vec![a + side, b + side, b + side.scale(-1.0), a + side.scale(-1.0)] };
                    let reach = (length * length + width * width).sqrt() / 2.0;
                    self.lay_terrain(l.terrain, poly, point, reach, laid, (0.0, length, width))
                }
                None => {
                    let poly = Polygon::regular(point, aoe, 24);
                    self.lay_terrain(l.terrain, poly, point, aoe, laid, (aoe, 0.0, 0.0))
                }
            }
            .unwrap_or_else(|reason| emit!(self, Event::Forbidden { model: by, what: "terrain", reason }));
        }
        Ok(Landing { attacks, spared })
    }

    /// A seeking submunition released over `point` by mount `weapon` of `by` (001 L9067-9074,
    /// SADARM): it attacks the one model it finds there (`aimed` if that one will do), or waits
    /// over the point for one.
    pub(crate) fn seek(&mut self, by: usize, weapon: usize, point: P, aimed: Option<usize>) -> Result<(), EngineError> {
        let radius = self.cardr(by).weapons[weapon].aoe;
        let name = self.cardr(by).weapons[weapon].name.clone();
        match self.sought(by, weapon, point, radius, aimed) {
            Some(target) => {
                emit!(self, Event::Submunition { model: by, weapon: name, at: point, radius, change: "found" });
                self.preset_attack(by, weapon, target, "submunition")
            }
            None => {
                self.game.seekers.push(Seeker { model: by, weapon, at: point, radius });
                emit!(self, Event::Submunition { model: by, weapon: name, at: point, radius, change: "waits" });
                Ok(())
            }
        }
    }

    /// The model a seeking submunition of mount `weapon` of `by` over `point` attacks: an enemy
    /// on the table of a type it seeks, whose base its area reaches, painted for `by` by a TAG
    /// (its own counts while it is on the table). `aimed` if that one will do; else the nearest
    /// to the point (the firer's choice, read as the likeliest).
    fn sought(&self, by: usize, weapon: usize, point: P, radius: f64, aimed: Option<usize>) -> Option<usize> {
        let g = &self.game;
        let kinds = self.cardr(by).weapons[weapon].seeks.as_ref()?;
        let own_tag = g.models[by].on_table();
        let fits = |i: usize| {
            let (m, c) = (&g.models[i], g.card(i));
            m.side != g.models[by].side
                && g.attackable(i)
                && kinds.contains(&c.model_type)
                && m.pos.dist(point) <= radius + c.base_radius
                && g.painted_for(by, i, own_tag)
        };
        aimed.filter(|&t| fits(t)).or_else(|| {
            (0..g.models.len())
                .filter(|&i| fits(i))
                .min_by(|&a, &b| g.models[a].pos.dist(point).total_cmp(&g.models[b].pos.dist(point)))
        })
    }

    /// As an action ends, each waiting submunition that now finds a model attacks it and is gone.
    pub(crate) fn seekers_search(&mut self) -> Result<(), EngineError> {
        let mut i = 0;
        while i < self.game.seekers.len() {
            let s = self.game.seekers[i].clone();
            let Some(target) = self.sought(s.model, s.weapon, s.at, s.radius, None) else {
                i += 1;
                continue;
            };
            self.game.seekers.remove(i);
            let weapon = self.cardr(s.model).weapons[s.weapon].name.clone();
            emit!(self, Event::Submunition { model: s.model, weapon, at: s.at, radius: s.radius, change: "found" });
            self.preset_attack(s.model, s.weapon, target, "submunition")?;
        }
        Ok(())
    }

    /// The waiting submunitions that fall and self-destruct (001 L9072-9074): `model`'s as its
    /// next activation begins; at a turn's end (`None`), those whose firer is out of play (its
    /// next activation will never come).
    pub(crate) fn seekers_fall(&mut self, model: Option<usize>) {
        let models = &self.game.models;
        let falls = |s: &Seeker| match model {
            Some(m) => s.model == m,
            None => !models[s.model].in_play(),
        };
        let (fallen, kept): (Vec<Seeker>, Vec<Seeker>) =
            std::mem::take(&mut self.game.seekers).into_iter().partition(falls);
        self.game.seekers = kept;
        for s in fallen {
            let weapon = self.cardr(s.model).weapons[s.weapon].name.clone();
            emit!(self, Event::Submunition { model: s.model, weapon, at: s.at, radius: s.radius, change: "fell" });
        }
    }

    /// A blast that destroys outright, with no roll (001 L11362-11366: the MOAB's overpressure;
    /// a Super-Thermex warhead): every soft model (soft and not hard) whose base it reaches,
    /// every structure not hardened that it reaches, which collapses, and the trees of the woods
    /// it reaches (001 L11337-11340: rough ground after).
    fn blast(&mut self, by: usize, point: P, radius: f64, d: &cav_format::Destroys) -> Result<(), EngineError> {
        if d.soft {
            let soft: Vec<usize> = (0..self.game.models.len())
                .filter(|&i| {
                    let c = self.cardr(i);
                    i != by
                        && self.game.models[i].on_table()
                        && c.soft
                        && !c.hard
                        && self.game.models[i].pos.dist(point) <= radius + c.base_radius
                })
                .collect();
            for i in soft {
                emit!(self, Event::Abandoned { model: i, reason: "destroyed by the blast".into() });
                self.destroy(i);
            }
        }
        if d.structures {
            let r = self.rules();
            let reached: Vec<usize> = (0..self.game.board.areas.len())
                .filter(|&a| {
                    let area = &self.game.board.areas[a];
                    r.terrains[area.terrain].structure.is_some_and(|s| !s.hard)
                        && (area.poly.contains(point) || area.poly.distance(point) <= radius)
                })
                .collect();
            for a in reached {
                self.collapse(a)?;
            }
        }
        if let Some(to) = d.fells_woods_to.as_ref().and_then(|t| self.rules().terrain(t.as_str())) {
            let r = self.rules();
            for a in 0..self.game.board.areas.len() {
                let area = &self.game.board.areas[a];
                let woods = r.terrains[area.terrain].cover_when_crossed;
                if woods && (area.poly.contains(point) || area.poly.distance(point) <= radius) {
                    let (center, radius) = (area.center, area.radius);
                    self.game.board.areas[a].terrain = to;
                    self.game.board_version += 1;
                    emit!(self, Event::TerrainPlaced { terrain: r.terrains[to].id.clone(), center, radius });
                }
            }
        }
        Ok(())
    }

    /// What lands where it may not: the rules refuse it as part of `by`'s action.
    fn illegal(&self, by: usize, reason: String) -> EngineError {
        EngineError::IllegalAction { model: self.game.models[by].name.clone(), action: "land".into(), reason }
    }

    /// The terrain a model in a state with a trail (`StateDef::trail`, a smoke generator's line)
    /// lays behind it over the action just resolved: the legs of its path from `path[from]` on,
    /// each a strip of the trail's width running from the back of its base at the leg's start to
    /// the back of its base at the leg's end (as long as the leg), all lasting one roll.
    pub(crate) fn lay_trail(&mut self, model: usize, from: usize) {
        let r = self.rules();
        let me = &self.game.models[model];
        let Some(t) = me.states.iter().find_map(|(s, _)| r.states[*s as usize].trail.as_ref()) else { return };
        let legs: Vec<(P, P)> = me.path.get(from..).unwrap_or_default().windows(2).map(|w| (w[0], w[1])).collect();
        let legs: Vec<(P, P)> = legs.into_iter().filter(|(a, b)| a.dist(*b) > 1e-9).collect();
        if legs.is_empty() {
            return;
        }
        let (terrain, width) = (t.terrain, t.strip.map_or(0.0, |s| s.1));
        let thrown = self.roll(model, "lasts", t.dice, Vec::new(), None, None, false).total.max(0) as u32;
        let left = if t.halved { thrown.div_ceil(2) } else { thrown }.saturating_add(t.add).max(1);
        let laid = Laid { by: model, left, counts: t.counts };
        let back = self.cardr(model).base_radius;
        for (a, b) in legs {
            let along = a.bearing(b);
            let behind = P::heading(along).scale(-back);
            let (a, b) = (a + behind, b + behind);
            let length = a.dist(b);
            let side = P::heading(along + 90.0).scale(width / 2.0);
            let poly = Polygon { points: vec![a + side, b + side, b + side.scale(-1.0), a + side.scale(-1.0)] };
            let center = a + (b - a).scale(0.5);
            let reach = (length * length + width * width).sqrt() / 2.0;
            if let Err(reason) = self.lay_terrain(terrain, poly, center, reach, laid, (0.0, length, width)) {
                emit!(self, Event::Forbidden { model, what: "terrain", reason });
            }
        }
    }

    /// Lay a piece of `terrain` for as long as `laid` says; `shape` is (radius, length, width)
    /// as the event shows it. At most `SCRIPT_PLACED_TERRAIN` laid pieces lie on the table.
    pub(crate) fn lay_terrain(
        &mut self,
        terrain: usize,
        poly: Polygon,
        center: P,
        radius: f64,
        laid: Laid,
        (shown_radius, length, width): (f64, f64, f64),
    ) -> Result<(), String> {
        use cav_format::limits::SCRIPT_PLACED_TERRAIN;
        if self.game.board.areas.iter().filter(|a| a.lasts.is_some()).count() >= SCRIPT_PLACED_TERRAIN {
            return Err(format!("{SCRIPT_PLACED_TERRAIN} laid terrain pieces already lie on the table"));
        }
        self.game.board.areas.push(Area { terrain, poly, center, radius, lasts: Some(laid) });
        self.game.board_version += 1;
        let name = self.rules().terrains[terrain].id.clone();
        let (activations, turns) = match laid.counts {
            LastsFor::Activations => (laid.left, 0),
            LastsFor::Turns => (0, laid.left),
        };
        emit!(
            self,
            Event::TerrainLaid {
                model: laid.by,
                terrain: name,
                at: center,
                radius: shown_radius,
                length,
                width,
                activations,
                turns
            }
        );
        Ok(())
    }

    /// Lift laid terrain: at the start of `model`'s activation, the pieces it laid for some of its
    /// activations count one more and go when none is left; at the end of a turn (`None`), the
    /// pieces laid for some turns count one more, and those laid for activations of models no
    /// longer on the table go.
    pub(crate) fn lift_laid_terrain(&mut self, model: Option<usize>) {
        let mut lifted = Vec::new();
        let models = &self.game.models;
        self.game.board.areas.retain_mut(|a| {
            let Some(laid) = &mut a.lasts else { return true };
            let keep = match (model, laid.counts) {
                (Some(m), LastsFor::Activations) if m == laid.by => {
                    laid.left = laid.left.saturating_sub(1);
                    laid.left > 0
                }
                (Some(_), _) => true,
                (None, LastsFor::Turns) => {
                    laid.left = laid.left.saturating_sub(1);
                    laid.left > 0
                }
                (None, LastsFor::Activations) => models[laid.by].on_table(),
            };
            if !keep {
                lifted.push((a.terrain, a.center));
            }
            keep
        });
        if lifted.is_empty() {
            return;
        }
        self.game.board_version += 1;
        for (terrain, at) in lifted {
            let terrain = self.rules().terrains[terrain].id.clone();
            emit!(self, Event::TerrainLifted { terrain, at });
        }
    }

    /// At a turn's end, each cloud no model stands in drifts (001 L9010-9014): the drift dice
    /// give the distance and, counted from the table's top edge (the book names no reference
    /// for a cloud, which has no facing), the direction; it stops short of the first model
    /// its path meets, and at the board's edge.
    pub(crate) fn drift_clouds(&mut self) {
        const STEP: f64 = 0.25;
        for f in 0..self.game.minefields.len() {
            let Some((at, radius)) = self.game.minefields[f].cloud else { continue };
            if touches_a_model(&self.game, at, radius) {
                continue;
            }
            let r = self.rules();
            let (faces, dist) = r.drift.roll(self.dice);
            let face = faces.first().copied().unwrap_or(1);
            let dir = P::heading(self.dice.drift_direction(face, r.drift.sides));
            let inches = f64::from(dist);
            let max = inches.min(self.board_exit(at, dir));
            let mut moved = 0.0;
            while moved < max {
                let next = (moved + STEP).min(max);
                if touches_a_model(&self.game, at + dir.scale(next), radius) {
                    break;
                }
                moved = next;
            }
            let to = at + dir.scale(moved);
            let mf = &mut self.game.minefields[f];
            mf.cloud = Some((to, radius));
            mf.area = Polygon::regular(to, radius, 24);
            let (by, weapon) = (mf.model, mf.weapon);
            emit!(self, Event::Drift { model: by, from: at, to, inches });
            let weapon = self.cardr(by).weapons[weapon].name.clone();
            emit!(self, Event::Cloud { model: by, weapon, at: to, radius, change: "drifted" });
        }
    }

    /// The clouds mount `weapon` of `attacker` destroys (001 L9016-9022: its weapon is among those
    /// the cloud's mount names) that `reaches` (centre, radius) says its attack reaches: each is
    /// gone, with no roll.
    pub(crate) fn clear_clouds(&mut self, attacker: usize, weapon: usize, reaches: impl Fn(P, f64) -> bool) {
        let id = &self.cardr(attacker).weapons[weapon].weapon;
        for f in 0..self.game.minefields.len() {
            let mf = &self.game.minefields[f];
            let Some((at, radius)) = mf.cloud else { continue };
            let cleared_by = self.cardr(mf.model).weapons[mf.weapon].cloud.as_deref().unwrap_or_default();
            if !cleared_by.contains(id) || !reaches(at, radius) {
                continue;
            }
            let weapon = self.cardr(mf.model).weapons[mf.weapon].name.clone();
            let mf = &mut self.game.minefields[f];
            (mf.cloud, mf.charges) = (None, Some(0));
            emit!(self, Event::Cloud { model: attacker, weapon, at, radius, change: "cleared" });
        }
    }
}

/// Whether a round cloud at `c` touches the base of a model on the table.
fn touches_a_model(g: &Game, c: P, radius: f64) -> bool {
    g.models.iter().enumerate().any(|(i, m)| m.on_table() && m.pos.dist(c) <= radius + g.card(i).base_radius)
}
