//! Minefields (001 L10701-10761): a model moving into or through one is attacked by it, once per
//! action. (Laying them is `placement`; seeding them by a shell is `landing`.)

use super::Feature;
use crate::game::*;

/// A minefield on the table: the asset, the side that laid it, its template, the charges left,
/// and the off-table model of the laying side that makes its attacks.
#[derive(Debug, Clone)]
pub struct Minefield {
    /// The asset it is; `None`: a cloud a shell left (`MountDef::cloud`).
    pub asset: Option<usize>,
    /// What it attacks: models on the ground, or flying nap of the earth.
    pub against: cav_format::MinesAgainst,
    /// The side whose models pass safely; `None`: its mines spare no one (FASCAM).
    pub side: Option<usize>,
    pub area: Polygon,
    /// Attacks left; `None`: it never runs out (a cloud).
    pub charges: Option<u32>,
    /// A cloud's centre and radius: it drifts, and the weapons its mount names destroy it.
    pub cloud: Option<(P, f64)>,
    /// The model and mount whose attack the mines make: the asset's own off-table model, or the
    /// shell or strike that seeded them.
    pub model: usize,
    pub weapon: usize,
}

kept! {
    /// What minefields keep: the minefields on the table, and the (minefield, model) pairs attacked
    /// during the current action (one attack per action each).
    pub struct Kept {
        /// Minefields on the table (001 L10701-10761).
        pub fields: Vec<Minefield>,
        pub mined: Vec<(usize, usize)>,
    }
}

/// Minefields on the table.
pub(crate) static MINEFIELDS: Feature = Feature {
    configured_by,
    action_declared: Some(action_declared),
    model_moved: Some(model_moved),
    ..Feature::new(cav_format::vocab::Feature::Minefields)
};

/// Each minefield attacks a model once per action: a new action, a new count.
fn action_declared(e: &mut Engine, _: usize, _: &Action, _: ActionWord) {
    e.game.features.minefields.mined.clear();
}

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.assets.iter().any(|a| a.mines.is_some()).then_some("an asset with `mines:`")
}

fn model_moved(e: &mut Engine, model: usize, route: &[P]) -> Result<(), EngineError> {
    e.minefields_crossed(model, route)
}

impl Engine<'_, '_> {
    /// Minefields (001 L10701-10761) and clouds (001 L9002-9022): each enemy minefield (or any
    /// cloud) of the mover's kind (on the ground, or flying nap of the earth) that its base
    /// touched on its route (`from`, …, `to`) attacks it once this action, with the asset's
    /// profile (or the seeding shell's) on the pre-set dice, and loses a charge; at none left it
    /// is spent (a cloud never is). Damage lands at the end of the activation, as all damage
    /// does, so attacking as the move ends is the book's "before the move is finished".
    pub(crate) fn minefields_crossed(&mut self, model: usize, route: &[P]) -> Result<(), EngineError> {
        if self.game.features.minefields.fields.is_empty() || !self.game.models[model].on_table() {
            return Ok(());
        }
        let radius = self.game.card(model).base_radius;
        let touches = |area: &crate::geom::Polygon| {
            route.windows(2).any(|leg| {
                let (from, to) = (leg[0], leg[1]);
                area.touches_segment(from, to)
                    || area.points.iter().enumerate().any(|(i, &c)| {
                        let d = area.points[(i + 1) % area.points.len()];
                        crate::geom::seg_point_dist(from, to, c) <= radius
                            || crate::geom::seg_point_dist(c, d, from) <= radius
                            || crate::geom::seg_point_dist(c, d, to) <= radius
                    })
            })
        };
        for f in 0..self.game.features.minefields.fields.len() {
            let g = &self.game;
            let mf = &g.features.minefields.fields[f];
            let kind = match mf.against {
                cav_format::MinesAgainst::Ground => !g.flying(model),
                cav_format::MinesAgainst::LowFlying => g.flying(model) && g.models[model].features.flight.noe,
            };
            if mf.side == Some(g.models[model].side)
                || mf.charges == Some(0)
                || g.features.minefields.mined.contains(&(f, model))
                || !kind
                || !touches(&mf.area)
            {
                continue;
            }
            self.game.features.minefields.mined.push((f, model));
            let (mine, weapon) =
                (self.game.features.minefields.fields[f].model, self.game.features.minefields.fields[f].weapon);
            // A cloud met by the mover's anti-nano pod is destroyed with no attack (001 L9702-9707).
            if let Some((at, radius)) = self.game.features.minefields.fields[f].cloud
                && let Some(sa) = self.game.pulse(model, mine, weapon)
            {
                self.game.models[model].spend_charge(sa);
                let mf = &mut self.game.features.minefields.fields[f];
                (mf.cloud, mf.charges) = (None, Some(0));
                let name = self.cardr(mine).weapons[weapon].name.clone();
                emit!(self, Event::Cloud { model, weapon: name, at, radius, change: "pulsed" });
                continue;
            }
            if let Some(c) = &mut self.game.features.minefields.fields[f].charges {
                *c -= 1;
            }
            self.preset_attack(mine, weapon, model, "mines")?;
            let mf = &self.game.features.minefields.fields[f];
            if let (Some(0), Some(asset)) = (mf.charges, mf.asset) {
                let owner = self.game.models[mf.model].side;
                let (side, asset) = (self.game.sides[owner].clone(), self.game.rules.assets[asset].name.clone());
                emit!(self, Event::AssetUsed { side, asset, detail: "the minefield is spent".into(), left: 0 });
            }
            if !self.game.models[model].on_table() {
                break;
            }
        }
        Ok(())
    }
}
