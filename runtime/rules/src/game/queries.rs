//! The questions every procedure asks of the game: a model's card column and values, distances
//! and range bands, heights, the states and own effects that hold now.

use cav_format::{ModelTrait, RangeMeasure, StateDuration};

use super::state::{Game, Model};
use crate::geom::P;

impl<'r> Game<'r> {
    /// The action slots `model`'s unit has used this turn, this activation's included.
    pub fn slots_taken(&self, model: usize) -> u32 {
        let now = if self.active == Some(model) { self.slots_now } else { 0 };
        self.models[model].slots_used | now
    }

    /// Whether `model`'s unit has the action slots the ruleset's action type `action` uses still
    /// free this turn (an action that uses none always has).
    pub fn slots_allow(&self, model: usize, action: &str) -> bool {
        match self.rules.slot_uses.get(action) {
            None => true,
            Some(slots) => {
                slots.mask & self.slots_taken(model) == 0 && (!slots.any || self.free_slot(model, slots.mask).is_some())
            }
        }
    }

    /// The first action slot `model`'s unit has free this turn beside `mask` (the slots the
    /// action uses anyway), in the ruleset's order.
    pub fn free_slot(&self, model: usize, mask: u32) -> Option<u32> {
        let taken = self.slots_taken(model) | mask;
        (0..self.rules.action_slots.len() as u32).find(|bit| taken & (1 << bit) == 0)
    }

    /// Damage-track column in use.
    pub fn column(&self, model: usize) -> usize {
        let me = &self.models[model];
        (me.damage as usize).min(self.rules.cards[me.card].columns - 1)
    }

    /// `model`'s values of the ruleset's attributes (`Rules::attributes` order): as its card gives
    /// them in its current damage column, with what a damage table changed for good.
    pub fn attributes(&self, model: usize) -> std::borrow::Cow<'_, [i32]> {
        let card = self.card(model).attributes_at(self.column(model));
        let changed = self.models[model].changed_attributes();
        if changed.is_empty() {
            return std::borrow::Cow::Borrowed(card);
        }
        // Within the attribute's bounds, whatever the card's column now gives.
        let bounds = &self.rules.attribute_bounds;
        card.iter()
            .zip(changed)
            .zip(bounds)
            .map(|((v, by), &(lo, hi))| v.saturating_add(*by).clamp(lo, hi.max(lo)))
            .collect()
    }

    /// The action points `model`'s activations start from: the ruleset's, or by its attribute's
    /// value where the ruleset says so (`Rules::action_points_by`).
    pub fn action_points(&self, model: usize) -> u32 {
        let Some(by) = &self.rules.action_points_by else { return self.rules.action_points };
        let value = self.attributes(model).get(by.attribute).copied().unwrap_or(0);
        by.steps.iter().find(|(most, _)| most.is_none_or(|m| value <= m)).map_or(0, |&(_, points)| points)
    }

    /// The card `model` plays as: its own, or the one its switched upgrades give while their
    /// states are on (`CardDef::switch`).
    #[inline]
    pub fn card(&self, model: usize) -> &crate::compile::CardDef {
        self.rules.card_of(&self.models[model])
    }

    /// The gap between two bases (edge to edge): what base contact and adjacency are about. On a
    /// hex board, the hexes between the two models' hexes (neighbours: 0, in contact), in hex
    /// sizes.
    pub fn distance(&self, model: usize, other: usize) -> f64 {
        let (a, b) = (&self.models[model], &self.models[other]);
        if let Some(g) = &self.rules.hexes {
            let hexes = crate::compile::HexGeometry::hexes(g.hex_at(a.pos), g.hex_at(b.pos));
            return f64::from(hexes.saturating_sub(1)) * g.across_flats;
        }
        (a.pos.dist(b.pos) - self.card(model).base_radius - self.card(other).base_radius).max(0.0)
    }

    /// The range between two models as the ruleset measures it (`sight.range_measured`): what
    /// range bands, minimum and point-blank range are read against. On a hex board, the hexes
    /// from one model's hex to the other's, in hex sizes (a pack whose hexes are abstract,
    /// `hex_size: 1`, writes its ranges in hexes).
    pub fn range(&self, model: usize, other: usize) -> f64 {
        if let Some(g) = &self.rules.hexes {
            let (a, b) = (g.hex_at(self.models[model].pos), g.hex_at(self.models[other].pos));
            return f64::from(crate::compile::HexGeometry::hexes(a, b)) * g.across_flats;
        }
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => self.distance(model, other),
            RangeMeasure::CentreToCentre => self.models[model].pos.dist(self.models[other].pos),
        }
    }

    /// The hex a model stands in, on a hex board.
    pub fn hex_of(&self, model: usize) -> Option<crate::compile::Hex> {
        self.rules.hexes.as_ref().map(|g| g.hex_at(self.models[model].pos))
    }

    /// The range from a model to a point on the board (a strike point), measured as
    /// [`range`](Self::range) measures it between models.
    pub fn range_to_point(&self, model: usize, p: P) -> f64 {
        if let Some(g) = &self.rules.hexes {
            let hexes = crate::compile::HexGeometry::hexes(g.hex_at(self.models[model].pos), g.hex_at(p));
            return f64::from(hexes) * g.across_flats;
        }
        (self.models[model].pos.dist(p) - self.range_offset(model)).max(0.0)
    }

    /// How much nearer than its centre a model's ranges start: its base's radius when ranges
    /// are measured from the edge of the base, 0 from its centre.
    pub fn range_offset(&self, model: usize) -> f64 {
        match self.rules.proc.sight.range_measured {
            RangeMeasure::EdgeToEdge => self.card(model).base_radius,
            RangeMeasure::CentreToCentre => 0.0,
        }
    }

    /// Is the point on the board (edges included)?
    pub fn on_board(&self, p: P) -> bool {
        let [w, h] = self.board.size;
        (-1e-9..=w + 1e-9).contains(&p.x) && (-1e-9..=h + 1e-9).contains(&p.y)
    }

    /// Lying down: gone prone, or in the ruleset's prone state (a knocked-down CAV).
    pub fn lying(&self, model: usize) -> bool {
        let me = &self.models[model];
        me.prone || self.rules.proc.damage.prone_state.is_some_and(|s| me.has_state(s))
    }

    pub fn enemies(&self, model: usize) -> impl Iterator<Item = usize> + '_ {
        let side = self.models[model].side;
        (0..self.models.len()).filter(move |&i| self.models[i].side != side && self.models[i].on_table())
    }

    /// The enemies still in the fight: on the table and not out of action (what a bot aims at;
    /// an out-of-action model may still be attacked).
    pub fn fighting_enemies(&self, model: usize) -> impl Iterator<Item = usize> + '_ {
        self.enemies(model).filter(|&i| !self.models[i].out_of_action)
    }

    pub fn state_blocks(&self, model: usize, f: impl Fn(&crate::compile::StateDef) -> bool) -> bool {
        self.models[model].states.iter().any(|(s, _)| f(&self.rules.states[*s as usize]))
    }

    /// Current move value: card column, criticals and states.
    pub fn move_value(&self, model: usize) -> u32 {
        let me = &self.models[model];
        if self.state_blocks(model, |s| s.no_move)
            || self.rules.has_trait(self.card(model).model_type, ModelTrait::Towed)
        {
            return 0;
        }
        let base = self.damaged_mv(model);
        let states: i32 = me.states.iter().map(|(s, _)| self.rules.states[*s as usize].move_value).sum();
        (((base + states).max(0) as f64) * me.mv_factor).floor() as u32
    }

    /// The structure (board area) a ground model stands inside, if any.
    pub fn structure_at(&self, model: usize) -> Option<usize> {
        if self.flying(model) || !self.models[model].on_table() {
            return None;
        }
        let p = self.models[model].pos;
        (0..self.board.areas.len()).find(|&a| {
            let area = &self.board.areas[a];
            // Every area's corners lie within its radius of its centre (to rounding, allowed for
            // here): a point farther out cannot be inside, and the polygon test need not run.
            self.rules.terrains[area.terrain].structure.is_some()
                && area.center.dist(p) <= area.radius.abs() * (1.0 + 1e-9) + 1e-9
                && area.poly.contains(p)
        })
    }

    /// Whether the model is in flight: its type flies and it has not landed.
    pub fn flying(&self, model: usize) -> bool {
        self.rules.has_trait(self.card(model).model_type, ModelTrait::Flies) && !self.models[model].landed
    }

    /// A trait of the model's type as it stands now: `flies` only while in flight.
    pub fn has_trait_now(&self, model: usize, t: ModelTrait) -> bool {
        if t == ModelTrait::Flies { self.flying(model) } else { self.rules.has_trait(self.card(model).model_type, t) }
    }

    /// The move value damage and criticals leave, states aside: 0 = it will never move again.
    pub fn lasting_move_value(&self, model: usize) -> u32 {
        let base = self.damaged_mv(model);
        ((base.max(0) as f64) * self.models[model].mv_factor).floor() as u32
    }

    /// The MV of the model's damage-track column with its criticals' changes, less any part of
    /// the loss against its first column that its card gives back (Relentless, 001 L8119-8123).
    fn damaged_mv(&self, model: usize) -> i32 {
        let card = self.card(model);
        let now = (card.movement[self.column(model)] as i32).saturating_add(self.models[model].mv_add);
        let lost = (card.movement.first().map_or(0, |&m| m as i32) - now).max(0);
        now + lost.min(card.mv_loss_cut.max(0))
    }

    /// Why the ruleset's action type `action` is closed to `model` (its `model_types:`), or to
    /// being aimed at `target` (its `target_model_types:`, or another unit than the one its unit
    /// declared: `one_target_per_unit`); `None` when it is open.
    pub fn action_closed(&self, model: usize, action: &str, target: Option<usize>) -> Option<String> {
        let types = self.rules.action_model_types.get(action)?;
        let card = self.card(model);
        let ty = card.model_type;
        let opened = || card.sas.iter().any(|(s, _)| types.open_with.contains(s));
        if !types.by.is_empty() && !types.by.contains(&ty) && !opened() {
            return Some(format!("{} models may not take the {action} action", self.rules.type_name(ty)));
        }
        if types.not_if_targeted
            && (0..self.models.len()).any(|m| self.same_unit(m, model) && self.models[m].has(&super::TARGETED))
        {
            return Some(format!("an enemy targeted its unit this turn: no {action} action"));
        }
        // (A target that is no model is the action's own refusal to make.)
        let target = target.filter(|&t| t < self.models.len())?;
        if types.one_target
            && let Some(declared) = self.unit_target(model)
            && !self.same_unit(declared, target)
        {
            let unit = self.models[declared].squad.map_or(&self.models[declared].name, |s| &self.squads[s].name);
            return Some(format!("its unit declared {unit} the target of its {action} action this activation"));
        }
        let ty = self.card(target).model_type;
        (!types.at.is_empty() && !types.at.contains(&ty))
            .then(|| format!("the {action} action may not be aimed at {} models", self.rules.type_name(ty)))
    }

    /// The model whose unit `model`'s unit declared as the target of this activation's action
    /// aimed at one unit (`one_target_per_unit`), if it declared one.
    pub fn unit_target(&self, model: usize) -> Option<usize> {
        self.squads.get(self.models[model].squad?)?.target
    }

    /// Whether two models serve in one unit (a model in no squad is a unit of its own).
    pub fn same_unit(&self, a: usize, b: usize) -> bool {
        a == b || self.models[a].squad.is_some_and(|s| self.models[b].squad == Some(s))
    }

    pub fn can_fight(&self, model: usize) -> bool {
        let me = &self.models[model];
        !me.no_combat
            && !me.out_of_action
            && !self.state_blocks(model, |s| s.no_combat || s.no_actions && s.duration == StateDuration::Permanent)
    }

    /// Ground level under a point (hills raise it).
    pub fn ground(&self, p: P) -> i32 {
        let areas = &self.board.areas;
        self.board_index()
            .raising
            .iter()
            .map(|&i| &areas[i as usize])
            .filter(|a| a.center.dist(p) <= a.radius && a.poly.contains(p))
            .map(|a| self.rules.terrains[a.terrain].elevation)
            .max()
            .unwrap_or(0)
    }

    pub(super) fn height(&self, model: usize) -> i32 {
        let me = &self.models[model];
        let own = if self.lying(model) {
            self.rules.proc.sight.prone_height
        } else {
            self.rules.model_type(self.card(model).model_type).map_or(0, |t| t.height) // compile refuses unplayed types
        };
        own + self.ground(me.pos)
    }

    /// Total elevation level: the model's own height (prone height when prone) plus the ground
    /// it stands on.
    pub fn elevation(&self, model: usize) -> i32 {
        self.height(model)
    }

    /// The close-combat value of `model` against `other` now: hard or soft by the other's card,
    /// in the current column; 0 with its weapons zeroed.
    pub fn ccv(&self, model: usize, other: usize) -> i32 {
        let (hard, soft) = self.card(model).ccv[self.column(model)];
        let oc = self.card(other);
        let v = if oc.soft && !oc.hard { soft } else { hard };
        if self.models[model].zeroed { 0 } else { v.map_or(0, i32::from) }
    }

    /// The range band mount `weapon` of `attacker` is in against `target`, if any (at the range
    /// as the ruleset measures it).
    pub fn band(&self, attacker: usize, weapon: usize, target: usize) -> Option<usize> {
        let m = self.card(attacker).weapons.get(weapon)?;
        let dist = self.range(attacker, target);
        let band = self.rules.bands.iter().position(|b| dist <= m.range * b.multiplier)?;
        Some(self.shifted_band(attacker, weapon, Some(target), dist, band))
    }

    /// The band an attack counts as: the measured `band` shifted by the mount's range-band
    /// effects that hold against `target` (Improved Range: one band shorter, 001 L7691-7699),
    /// never past the shortest or the longest band. Out of range stays out of range.
    pub fn shifted_band(&self, attacker: usize, weapon: usize, target: Option<usize>, dist: f64, band: usize) -> usize {
        let Some(m) = self.card(attacker).weapons.get(weapon) else { return band };
        if m.band_shift.is_empty() {
            return band;
        }
        let s = crate::game::engine::Situation {
            attacker,
            defender: target,
            weapon: Some(weapon),
            band: Some(band),
            distance: dist,
            ..Default::default()
        };
        let shift: i32 =
            m.band_shift.iter().filter(|(_, when)| when.iter().all(|c| c.times(self, &s) > 0)).map(|(v, _)| *v).sum();
        (band as i32 + shift).clamp(0, self.rules.bands.len() as i32 - 1) as usize
    }

    /// Whether one of the model's own declarative effects on `target` holds for it now: one
    /// without conditions, or one whose `when:` conditions hold with the model as the roller
    /// (Improved Handling's drift for aircraft and quad CAVs only).
    pub fn own_effect_holds(&self, model: usize, target: cav_format::ModifierTarget) -> bool {
        self.own_effect(model, target).is_some()
    }

    /// The largest value of the model's own declarative effects on `target` that hold for it now
    /// (as `own_effect_holds`), if any does (a drift's widest angle off the facing).
    pub fn own_effect(&self, model: usize, target: cav_format::ModifierTarget) -> Option<i32> {
        let s = crate::game::engine::Situation { attacker: model, ..Default::default() };
        self.card(model)
            .sas
            .iter()
            .flat_map(|&(sa, _)| &self.rules.sas[sa as usize].effects)
            .filter(|e| e.target == target && e.value > 0 && e.when.iter().all(|c| c.times(self, &s) > 0))
            .map(|e| e.value)
            .max()
    }

    /// A shift by `model` (keeping its facing) from `from` to `to`: a lateral shift straight
    /// sideways, or a drift forwards and aside up to its `drift` effect's degrees off the facing,
    /// as the model's chassis allows (001 L7659-7676). Its cost per inch travelled (a drift pays only for the inches
    /// gained forwards), or why it may not.
    pub fn shift_cost_factor(&self, model: usize, from: P, to: P) -> Result<f64, String> {
        if to.dist(from) <= 1e-9 {
            return Ok(1.0);
        }
        let off = crate::geom::angle_diff(self.models[model].facing, from.bearing(to)).abs();
        let drift = self.own_effect(model, cav_format::ModifierTarget::Drift).map(|d| f64::from(d.min(89)));
        if off > 90.0 + 1e-6 {
            return Err("a shift goes sideways or forwards, not back".into());
        }
        if (off - 90.0).abs() < 1e-6 {
            return match self.own_effect_holds(model, cav_format::ModifierTarget::LateralShift) {
                true => Ok(1.0),
                false => Err("this model drifts forwards and aside but does not shift straight sideways".into()),
            };
        }
        match drift {
            Some(widest) if off <= widest + 1e-6 => Ok(off.to_radians().cos()),
            Some(widest) => Err(format!("a drift goes at most {widest}° off the facing, or straight sideways")),
            None => Err("this model shifts straight sideways only: it has no drift".into()),
        }
    }

    /// Whether the model stands in terrain its move class may not enter, where only a special
    /// attribute brought it (Amphibious under water, 001 L6649-6655).
    pub fn underwater(&self, model: usize) -> bool {
        let index = self.board_index();
        if index.entered_with.is_empty() {
            return false;
        }
        let (pos, mc) = (self.models[model].pos, self.card(model).move_class);
        index.entered_with.iter().map(|&i| &self.board.areas[i as usize]).any(|a| {
            self.terrain_cost(model, mc, &self.rules.terrains[a.terrain]) == crate::compile::Cost::No
                && a.center.dist(pos) <= a.radius
                && a.poly.contains(pos)
        })
    }

    /// Whether special attribute `sa` of mount `weapon` of `attacker` applies to an attack on
    /// `target`: a special attribute given under a condition (`MountDef::sa_when`) only while it
    /// holds.
    pub fn mount_sa_holds(
        &self,
        attacker: usize,
        weapon: usize,
        sa: crate::compile::SaIx,
        target: Option<usize>,
    ) -> bool {
        let Some(m) = self.card(attacker).weapons.get(weapon) else { return true };
        let mut when = m.sa_when.iter().filter(|(s, _)| *s == sa).peekable();
        if when.peek().is_none() {
            return true;
        }
        let s = crate::game::engine::Situation {
            attacker,
            defender: target,
            weapon: Some(weapon),
            distance: target.map_or(0.0, |t| self.range(attacker, t)),
            ..Default::default()
        };
        when.all(|(_, c)| c.times(self, &s) > 0)
    }

    /// Whether `model` carries the ruleset's asset-user special attribute (Combat Engineer): the
    /// models that use field repair modules and lay barriers.
    pub fn asset_user(&self, model: usize) -> bool {
        self.rules.asset_user.is_some_and(|u| self.card(model).sas.iter().any(|(s, _)| *s == u))
    }

    /// Whether `target` is painted for `attacker`'s weapons (a TAG, 001 L8528-8560): it is in a
    /// painted state (the `tag` action of a model of another side), or the attacker carries a
    /// TAG that reaches it in its line of sight (painting it as part of its combat action).
    /// The single-use upgrade (its entry in `Rules::sas`) of `model` with a use left that meets
    /// the cloud of mount `weapon` of `by` (`MountDef::cloud_stopped_by`: an anti-nano pod).
    pub fn pulse(&self, model: usize, by: usize, weapon: usize) -> Option<crate::compile::SaIx> {
        let stopped_by = &self.card(by).weapons.get(weapon)?.cloud_stopped_by;
        if stopped_by.is_empty() {
            return None;
        }
        self.card(model).sas.iter().find_map(|&(sa, rating)| {
            let left = rating.max(0) as u32 > self.models[model].charges_spent(sa);
            (left && stopped_by.contains(&self.rules.sas[sa as usize].id)).then_some(sa)
        })
    }

    /// Whether mount `m` homes on `target` (`MountDef::homes_on`): then it needs no target-lock.
    pub fn homes_on(&self, m: &crate::compile::MountDef, target: usize) -> bool {
        m.homes_on.iter().any(|&s| self.models[target].has_state(s))
    }

    pub fn rav(&self, attacker: usize, weapon: usize, target: usize) -> i32 {
        if self.models[attacker].zeroed {
            return 0;
        }
        let (hard, soft) = self.card(attacker).weapons[weapon].rav[self.column(attacker)];
        let dc = self.card(target);
        let v = if dc.soft && !dc.hard { soft } else { hard };
        v.map_or(self.rules.proc.rolls.na_rav, i32::from)
    }
    pub(super) fn card_of(&self, m: &Model) -> &crate::compile::CardDef {
        self.rules.card_of(m)
    }
}

// (Questions of the compiled rules about a model of the game: here, so the compiled rules know
// nothing of the game.)
impl crate::compile::Rules {
    /// The card model `m` plays as (`CardDef::switch`).
    #[inline]
    pub fn card_of(&self, m: &Model) -> &crate::compile::CardDef {
        &self.cards[self.card_ix_of(m)]
    }

    /// The index of the card model `m` plays as: its own, or one its switched upgrades give.
    #[inline]
    pub fn card_ix_of(&self, m: &Model) -> usize {
        match &self.cards[m.card].switch {
            None => m.card,
            Some(sw) => sw.card(m.card, |s| m.has_state(s)),
        }
    }
}
