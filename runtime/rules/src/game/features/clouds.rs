//! Lingering clouds (the nano-disassemblers', `MountDef::cloud`): they drift at each turn's end
//! and the weapons their mount names destroy them.

use super::Feature;
use crate::game::*;

/// Lingering clouds (`minefields::Kept::fields` with a `cloud`).
pub(crate) static CLOUDS: Feature =
    Feature { configured_by, turn_end: Some(turn_end), ..Feature::new(cav_format::vocab::Feature::Clouds) };

fn configured_by(rules: &Rules) -> Option<&'static str> {
    super::any_attack(rules, |m| m.cloud.is_some(), |p| p.cloud.is_some())
        .then_some("a weapon or munition with `cloud:`")
}

fn turn_end(e: &mut Engine) -> Result<(), EngineError> {
    e.drift_clouds()
}

impl Engine<'_, '_> {
    /// At a turn's end, each cloud no model stands in drifts (001 L9010-9014): the drift dice
    /// give the distance and, counted from the table's top edge (the book names no reference
    /// for a cloud, which has no facing), the direction; it stops short of the first model
    /// its path meets, and at the board's edge.
    pub(crate) fn drift_clouds(&mut self) -> Result<(), EngineError> {
        const STEP: f64 = 0.25;
        for f in 0..self.game.features.minefields.fields.len() {
            let Some((at, radius)) = self.game.features.minefields.fields[f].cloud else { continue };
            if touches_a_model(&self.game, at, radius) {
                continue;
            }
            let Some(drift) = &self.rules().drift else {
                return Err(EngineError::IllegalAction {
                    model: "a cloud".into(),
                    action: "drift".into(),
                    reason: "the ruleset has no drift dice (`dice.drift`)".into(),
                });
            };
            let (faces, dist) = drift.roll(self.dice);
            let face = faces.first().copied().unwrap_or(1);
            let dir = P::heading(self.dice.drift_direction(face, drift.sides));
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
            let mf = &mut self.game.features.minefields.fields[f];
            mf.cloud = Some((to, radius));
            mf.area = Polygon::regular(to, radius, 24);
            let (by, weapon) = (mf.model, mf.weapon);
            emit!(self, Event::Drift { model: by, from: at, to, inches });
            let weapon = self.cardr(by).weapons[weapon].name.clone();
            emit!(self, Event::Cloud { model: by, weapon, at: to, radius, change: "drifted" });
        }
        Ok(())
    }

    /// The clouds mount `weapon` of `attacker` destroys (001 L9016-9022: its weapon is among those
    /// the cloud's mount names) that `reaches` (centre, radius) says its attack reaches: each is
    /// gone, with no roll.
    pub(crate) fn clear_clouds(&mut self, attacker: usize, weapon: usize, reaches: impl Fn(P, f64) -> bool) {
        let id = &self.cardr(attacker).weapons[weapon].weapon;
        for f in 0..self.game.features.minefields.fields.len() {
            let mf = &self.game.features.minefields.fields[f];
            let Some((at, radius)) = mf.cloud else { continue };
            let cleared_by = self.cardr(mf.model).weapons[mf.weapon].cloud.as_deref().unwrap_or_default();
            if !cleared_by.contains(id) || !reaches(at, radius) {
                continue;
            }
            let weapon = self.cardr(mf.model).weapons[mf.weapon].name.clone();
            let mf = &mut self.game.features.minefields.fields[f];
            (mf.cloud, mf.charges) = (None, Some(0));
            emit!(self, Event::Cloud { model: attacker, weapon, at, radius, change: "cleared" });
        }
    }
}

/// Whether a round cloud at `c` touches the base of a model on the table.
fn touches_a_model(g: &Game, c: P, radius: f64) -> bool {
    g.models.iter().enumerate().any(|(i, m)| m.on_table() && m.pos.dist(c) <= radius + g.card(i).base_radius)
}
