//! Placing models and pieces: where an ambusher or a dropping squad may come down, and laying
//! emplacements, minefields, clouds and bomb strips on the board.

use cav_format::RangeMeasure;

use super::state::{Area, Game, Minefield};
use crate::geom::{P, Polygon};

impl Game<'_> {
    /// Why `model`, held back in ambush, may not be placed at `p` (`setup.ambush`, 001
    /// L6519-6535), if it may not: off the board or on another base, in the opponent's half (the
    /// half nearer its deployment zone, where the scenario has zones), too near an enemy, or too
    /// near an enemy recon model.
    pub fn ambush_refusal(&self, model: usize, p: P) -> Option<String> {
        self.ambush_refusal_among(model, p, 0..self.models.len())
    }

    /// Whether an attack may fall on `model`: it is on the table and not a weapon emplacement,
    /// which is attacked only through its bunker (001 L10544-10564; fire at the structure), by
    /// no area, template, close combat or missile.
    pub fn attackable(&self, model: usize) -> bool {
        self.models[model].on_table() && self.card(model).emplacement.is_none()
    }

    /// Whether `model` is held back for an orbital drop that may come this turn (it lands as it
    /// activates, on its unit's own card).
    pub fn drops_now(&self, model: usize) -> bool {
        let me = &self.models[model];
        me.dropping && me.waiting.is_some_and(|t| t <= self.turn) && !me.activated
    }

    /// [`Game::ambush_refusal`], looking only at the models `others` for bases and enemies too
    /// close: those a `Grid` finds near `p` give the same verdict (the first reason found may
    /// differ with the order).
    fn ambush_refusal_among(&self, model: usize, p: P, others: impl IntoIterator<Item = usize>) -> Option<String> {
        if self.models[model].dropping {
            return self.drop_refusal(model, p);
        }
        let Some(rule) = &self.rules.proc.setup.ambush else { return Some("this ruleset has no ambush".into()) };
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        if p.x < r || p.y < r || p.x > w - r || p.y > h - r {
            return Some("off the board".into());
        }
        let side = self.models[model].side;
        // The opponent's half: nearer an enemy's deployment zone than its own.
        let own = self.zones.get(side).copied().flatten();
        let nearer_foe = self
            .zones
            .iter()
            .enumerate()
            .any(|(i, z)| i != side && z.zip(own).is_some_and(|(z, o)| p.dist(z) < p.dist(o)));
        if nearer_foe {
            return Some("in the opponent's half of the board".into());
        }
        for i in others {
            let other = &self.models[i];
            if i == model || !other.on_table() {
                continue;
            }
            let gap = p.dist(other.pos) - r - self.card(i).base_radius;
            if gap < -1e-9 {
                return Some(format!("on {}'s base", other.name));
            }
            if other.side == side {
                continue;
            }
            // Measured as the ruleset measures between models (the full rules: centre to centre,
            // 001 L36-42).
            let apart = self.measured_from(p, r, i);
            if apart <= rule.enemy_within {
                return Some(format!("within {}\" of an enemy", rule.enemy_within));
            }
            if self.card(i).task.is_some_and(|t| rule.recon.contains(&t)) && apart <= rule.recon_within {
                return Some(format!("within {}\" of an enemy recon model", rule.recon_within));
            }
        }
        None
    }

    /// What measuring adds to a distance between centres: both base radii edge to edge, else 0.
    fn bases_apart(&self, r: f64, other: usize) -> f64 {
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => r + self.card(other).base_radius,
            RangeMeasure::CentreToCentre => 0.0,
        }
    }

    /// From a model of base radius `r` standing at `p` to model `other`, measured as the ruleset
    /// measures between models (`sight.range_measured`).
    fn measured_from(&self, p: P, r: f64, other: usize) -> f64 {
        let centres = p.dist(self.models[other].pos);
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => centres - r - self.card(other).base_radius,
            RangeMeasure::CentreToCentre => centres,
        }
    }

    /// Why `model`, held back for an orbital drop, may not name `p` as its landing zone, if it
    /// may not: off the board, or within the ruleset's distance of an enemy (001 L10215-10293).
    pub fn drop_refusal(&self, model: usize, p: P) -> Option<String> {
        let Some(rule) = &self.rules.proc.setup.orbital_drop else {
            return Some("this ruleset has no orbital drop".into());
        };
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        if p.x < r || p.y < r || p.x > w - r || p.y > h - r {
            return Some("off the board".into());
        }
        for i in self.enemies(model).filter(|&i| self.models[i].on_table()) {
            if self.measured_from(p, r, i) < rule.enemy_within {
                return Some(format!("within {}\" of an enemy", rule.enemy_within));
            }
        }
        None
    }

    /// Where `model` stands when it lands at `p`: there, or the nearest place around it on the
    /// board that is on no other model's base.
    pub fn beside_bases(&self, model: usize, p: P) -> P {
        let r = self.card(model).base_radius;
        let [w, h] = self.board.size;
        let free = |q: P| {
            q.x >= r
                && q.y >= r
                && q.x <= w - r
                && q.y <= h - r
                && (0..self.models.len()).all(|i| {
                    i == model
                        || !self.models[i].on_table()
                        || self.flying(i)
                        || q.dist(self.models[i].pos) >= r + self.card(i).base_radius - 1e-9
                })
        };
        if free(p) {
            return p;
        }
        for ring in 1..=200 {
            let d = f64::from(ring) * 0.25;
            if let Some(q) = (0..24).map(|k| p + P::heading(f64::from(k) * 15.0).scale(d)).find(|&q| free(q)) {
                return q;
            }
        }
        p
    }

    /// Whether models of `card` drop in (`setup.orbital_drop`): the card carries its upgrade.
    pub fn drops_in(&self, card: usize) -> bool {
        let Some(rule) = &self.rules.proc.setup.orbital_drop else { return false };
        let Some(u) = self.rules.upgrade(rule.upgrade.as_str()) else { return false };
        let sa = self.rules.upgrades[u].sa;
        self.rules.cards[card].sas.iter().any(|(x, _)| *x == sa)
    }

    /// Legal places for `model` held back in ambush, nearest to an enemy first: rings around
    /// each enemy just beyond the ruleset's distances, and the way from where it waits to each
    /// enemy, inch by inch.
    pub fn ambush_spots(&self, model: usize) -> Vec<P> {
        if self.models[model].dropping {
            let Some(rule) = &self.rules.proc.setup.orbital_drop else { return Vec::new() };
            let r = self.card(model).base_radius;
            let mut spots = Vec::new();
            for i in self.enemies(model).filter(|&i| self.models[i].on_table()) {
                for extra in [0.25, 2.0, 6.0] {
                    let ring = rule.enemy_within + self.bases_apart(r, i) + extra;
                    spots.extend((0..24).map(|k| self.models[i].pos + P::heading(f64::from(k) * 15.0).scale(ring)));
                }
            }
            spots.retain(|&p| self.drop_refusal(model, p).is_none());
            return spots;
        }
        let Some(rule) = &self.rules.proc.setup.ambush else { return Vec::new() };
        let (me, r) = (self.models[model].pos, self.card(model).base_radius);
        let mut spots: Vec<P> = vec![me];
        let enemies: Vec<usize> = (0..self.models.len())
            .filter(|&i| self.models[i].side != self.models[model].side && self.models[i].on_table())
            .collect();
        for &i in &enemies {
            let other = self.models[i].pos;
            let reach = if self.card(i).task.is_some_and(|t| rule.recon.contains(&t)) {
                rule.recon_within
            } else {
                rule.enemy_within
            };
            for extra in [0.25, 2.0, 6.0] {
                let ring = reach + self.bases_apart(r, i) + extra;
                spots.extend((0..24).map(|k| other + P::heading(f64::from(k) * 15.0).scale(ring)));
            }
            let steps = me.dist(other).min(200.0) as usize;
            let dir = other - me;
            spots.extend((1..steps).map(|k| me + dir.scale(k as f64 / steps as f64)));
        }
        // Grids of the models on the table and of the enemies: each spot is checked against the
        // models near it, not every model (a battle's spots × its models made large ones slow).
        let on_table = (0..self.models.len()).filter(|&i| i != model && self.models[i].on_table());
        let widest = on_table.clone().map(|i| self.card(i).base_radius).fold(0.0, f64::max);
        let near = r + widest + rule.enemy_within.max(rule.recon_within).max(0.0) + 0.01;
        let models = crate::geom::Grid::new(on_table.map(|i| (i, self.models[i].pos)), near);
        spots.retain(|&p| self.ambush_refusal_among(model, p, models.near(p, near)).is_none());
        let foes = crate::geom::Grid::new(enemies.iter().map(|&e| (e, self.models[e].pos)), near);
        // Each spot's distance worked out once, not at every comparison.
        let mut keyed: Vec<(f64, P)> = spots.into_iter().map(|p| (foes.nearest(p), p)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
        keyed.into_iter().map(|(_, p)| p).collect()
    }

    /// Lay the terrain piece of weapon emplacement `model` (its asset's `terrain:`) under it:
    /// `sections` squares as wide as its base in a row, square to its facing, the first under it
    /// and the others to its right.
    pub fn place_emplacement(&mut self, model: usize, sections: u32) {
        let Some(asset) = self.card(model).emplacement else { return };
        let Some(terrain) = self.rules.assets[asset].terrain else { return };
        let (at, half, facing) = (self.models[model].pos, self.card(model).base_radius, self.models[model].facing);
        let n = f64::from(sections.max(1));
        let (ahead, right) = (P::heading(facing).scale(half), P::heading(facing + 90.0).scale(half));
        let (near, far) = (at + right.scale(-1.0), at + right.scale(2.0 * n - 1.0));
        let corners = vec![near + ahead, far + ahead, far + ahead.scale(-1.0), near + ahead.scale(-1.0)];
        let center = at + right.scale(n - 1.0);
        self.board.areas.push(Area {
            terrain,
            poly: Polygon { points: corners },
            center,
            radius: half * (n * n + 1.0).sqrt(),
            lasts: None,
        });
        self.board_version += 1;
    }

    /// The strip of a template weapon of `model` laid towards `towards`: from the front of its
    /// base, `length` inches on.
    pub fn template_strip(&self, model: usize, towards: P, length: f64) -> (P, P) {
        let me = &self.models[model];
        let dir = P::heading(me.pos.bearing(towards));
        let start = me.pos + dir.scale(self.card(model).base_radius);
        (start, start + dir.scale(length))
    }

    /// Lay minefield `asset` (one with `mines`) on `area`, sparing `side`'s models (none: it
    /// spares no one). Its attacks are those of `attack` (model, mount: the shell or strike
    /// that seeded it), else of the asset's own off-table model of `owner`'s side.
    pub fn lay_minefield(
        &mut self,
        asset: usize,
        side: Option<usize>,
        owner: usize,
        area: Polygon,
        attack: Option<(usize, usize)>,
    ) -> Result<(), String> {
        let a = self.rules.assets.get(asset).ok_or("no such asset")?;
        let Some((against, charges, card)) = a.mines else {
            return Err(format!("asset `{}` is not a minefield", a.id));
        };
        let (model, weapon) = match attack {
            Some(by) => by,
            None => {
                let n = area.points.len().max(1) as f64;
                let at = area.points.iter().fold(P::default(), |acc, p| acc + *p).scale(1.0 / n);
                let model = self.add_model(card, owner, at, 0.0);
                self.models[model].asset = true;
                (model, 0)
            }
        };
        let charges = Some(charges);
        self.features.minefields.fields.push(Minefield {
            asset: Some(asset),
            against,
            side,
            area,
            charges,
            cloud: None,
            model,
            weapon,
        });
        Ok(())
    }

    /// Leave the cloud of mount `weapon` of `by` (`MountDef::cloud`) at `at`, `radius` wide: it
    /// attacks models on the ground with that mount, sparing no one, and never runs out.
    pub fn lay_cloud(&mut self, by: usize, weapon: usize, at: P, radius: f64) {
        self.features.minefields.fields.push(Minefield {
            asset: None,
            against: cav_format::MinesAgainst::Ground,
            side: None,
            area: Polygon::regular(at, radius, 24),
            charges: None,
            cloud: Some((at, radius)),
            model: by,
            weapon,
        });
    }
}

/// The two ends of a strip `length` long centred on `at`, along `facing` (a bomb rack's carpet).
pub(crate) fn strip_ends(at: P, facing: f64, length: f64) -> (P, P) {
    let half = P::heading(facing).scale(length / 2.0);
    (at + half.scale(-1.0), at + half)
}
