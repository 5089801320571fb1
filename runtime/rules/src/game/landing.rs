//! What an attack leaves where it lands, and the terrain laid during play: a minefield seeded by
//! a shell or a strike (FASCAM, cluster munitions: `MountDef::lays`), terrain left by one (a smoke
//! shell's cloud, a smoke screen: `MountDef::leaves`), a lingering cloud (the nano-disassemblers':
//! `MountDef::cloud`) that drifts and may be destroyed, a script's piece (`ctx.place_terrain`),
//! and their lifting when their time is up.

use super::*;
use crate::game::state::Laid;

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
            if self.game.features.minefields.fields.iter().filter(|f| f.cloud.is_some()).count()
                >= SCRIPT_PLACED_TERRAIN
            {
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
                    let (a, b) = crate::game::placement::strip_ends(point, along, length);
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
                // Woods: obscuring terrain that does not lift, not a screen laid in play for a
                // while (smoke lifts, it does not fall).
                let woods = r.terrains[area.terrain].obscures() && area.lasts.is_none();
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
}
