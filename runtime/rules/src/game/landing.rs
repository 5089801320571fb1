//! What an attack leaves where it lands, and the terrain laid during play: a minefield seeded by
//! a shell or a strike (FASCAM, cluster munitions: `MountDef::lays`), terrain left by one (a smoke
//! shell's cloud, a smoke screen: `MountDef::leaves`), a script's piece (`ctx.place_terrain`), and
//! their lifting when their time is up.

use super::*;
use crate::game::state::Laid;
use cav_format::LastsFor;

impl Engine<'_, '_> {
    /// What mount `weapon` of `by` leaves at `point` as it lands: the minefield it lays, or the
    /// terrain it leaves (a strip lies along `heading`; absent, square to the line from `by` to
    /// the point). Whether an attack is still to be made there: not where a minefield was laid,
    /// nor with no RAV at all (a smoke shell).
    pub(crate) fn land(
        &mut self,
        by: usize,
        weapon: usize,
        point: P,
        heading: Option<f64>,
    ) -> Result<bool, EngineError> {
        let r = self.rules();
        let m = &self.cardr(by).weapons[weapon];
        let (aoe, lays, leaves) = (m.aoe, m.lays, m.leaves.clone());
        let attacks = m.rav.iter().any(|&(h, s)| h.is_some() || s.is_some());
        let side = self.game.models[by].side;
        if let Some(asset) = lays {
            let area = Polygon::regular(point, aoe, 24);
            self.game.lay_minefield(asset, None, side, area, Some((by, weapon))).map_err(|e| self.illegal(by, e))?;
            let (side_name, name) = (self.game.sides[side].clone(), r.assets[asset].name.clone());
            let detail = format!("a minefield laid at ({:.1}, {:.1})", point.x, point.y);
            emit!(self, Event::AssetUsed { side: side_name, asset: name, detail, left: 0 });
            return Ok(false);
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
                        .map_err(|e| self.illegal(by, e))?;
                }
                None => {
                    let poly = Polygon::regular(point, aoe, 24);
                    self.lay_terrain(l.terrain, poly, point, aoe, laid, (aoe, 0.0, 0.0))
                        .map_err(|e| self.illegal(by, e))?;
                }
            }
        }
        Ok(attacks)
    }

    /// What lands where it may not: the rules refuse it as part of `by`'s action.
    fn illegal(&self, by: usize, reason: String) -> EngineError {
        EngineError::IllegalAction { model: self.game.models[by].name.clone(), action: "land".into(), reason }
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
}
