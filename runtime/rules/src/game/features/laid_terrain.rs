//! Terrain laid during play (smoke, trails, a script's pieces): laying it, and lifting it when its
//! time is up (counted in the layer's activations or in turns).

use super::Feature;
use cav_format::LastsFor;

use crate::game::*;

/// A piece of terrain laid during play: the model that laid it, and how many more of what it
/// counts (that model's activations to start, or turns to end) before it is lifted.
#[derive(Debug, Clone, Copy)]
pub struct Laid {
    pub by: usize,
    pub left: u32,
    pub counts: cav_format::LastsFor,
}

/// Terrain laid during play (`Area::lasts`).
pub(crate) static LAID_TERRAIN: Feature = Feature {
    activation_start: Some(activation_start),
    action_resolved: Some(action_resolved),
    turn_end: Some(turn_end),
    ..Feature::new(cav_format::vocab::Feature::LaidTerrain)
};

fn activation_start(e: &mut Engine, model: usize) {
    e.lift_laid_terrain(Some(model));
}

fn action_resolved(e: &mut Engine, model: usize, path_from: usize, _: &mut dyn Controller) -> Result<(), EngineError> {
    if e.game.models[model].on_table() {
        e.lay_trail(model, path_from);
    }
    Ok(())
}

fn turn_end(e: &mut Engine) -> Result<(), EngineError> {
    e.lift_laid_terrain(None);
    Ok(())
}

impl Engine<'_, '_> {
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
}
