//! What a weapon could do now: whether it can attack a target or a point (ready, in range, in arc,
//! in sight), and why not.

use cav_format::{ModelTrait, TargetClass};

use super::placement::strip_ends;
use super::state::{Game, Minefield};
use crate::geom::P;

/// Why `shot` refuses a target beyond the weapon's longest band.
pub const OUT_OF_RANGE: &str = "out of range";

/// What one weapon would do against a target right now.
#[derive(Debug, Clone, PartialEq)]
pub enum Shot {
    Direct { band: usize, distance: f64 },
    Indirect { band: usize, distance: f64 },
    No(String),
}

impl<'r> Game<'r> {
    /// Can mount `weapon` of `attacker` attack `target` now, and how?
    pub fn shot(&self, attacker: usize, weapon: usize, target: usize, indirect: bool) -> Shot {
        self.shot_with(attacker, weapon, target, indirect, 0.0)
    }

    /// `shot`, with the weapon's range changed by `more_range` inches (a script's `range`
    /// modifier at `attack_declare`).
    pub fn shot_with(&self, attacker: usize, weapon: usize, target: usize, indirect: bool, more_range: f64) -> Shot {
        self.shooter(attacker).answer(weapon, target, indirect, more_range).unwrap_or_else(|why| Shot::No(why.text()))
    }

    /// The questions `shot` asks of `attacker` alone, answered once for every weapon and target
    /// asked about through it (a bot weighing all its weapons, direct and indirect).
    /// Whether mount `weapon` of `attacker` may fire indirectly: an indirect-fire weapon, or a
    /// guided one where the ruleset lets those (`sight.guided_indirect`).
    pub fn fires_indirect(&self, attacker: usize, weapon: usize) -> bool {
        self.card(attacker)
            .weapons
            .get(weapon)
            .is_some_and(|m| m.indirect || m.requires_target_lock && self.rules.proc.sight.guided_indirect)
    }

    /// What mount `weapon` of `attacker` can do against the point `p` of the board, fired
    /// indirectly with no model aimed at (`Shot::Indirect` or why not).
    /// Whether mount `weapon` of `attacker` may attack the cloud at `p` to destroy it (a cloud
    /// lies there whose mount names the weapon, 001 L9016-9022): ready, in its arc, in reach (its
    /// range's longest band, or a template's length from the base) and in sight of the point.
    pub fn clears_cloud_at(&self, attacker: usize, weapon: usize, p: P) -> Result<(), String> {
        let shooter = self.shooter(attacker);
        let m = shooter.ready(weapon).map_err(Refusal::text)?;
        let clears = |f: &Minefield| {
            f.cloud.is_some_and(|(at, radius)| at.dist(p) <= radius)
                && self.card(f.model).weapons[f.weapon].cloud.as_deref().is_some_and(|ids| ids.contains(&m.weapon))
        };
        if !self.features.minefields.fields.iter().any(clears) {
            return Err(format!(
                "{}: only indirect fire is aimed at a point, or a weapon at a cloud there that it destroys",
                m.name
            ));
        }
        let reach = match m.template {
            Some((length, _, _)) => length + self.card(attacker).base_radius,
            None => m.range * self.rules.bands.last().map_or(1.0, |b| b.multiplier),
        };
        if self.range_to_point(attacker, p) > reach {
            return Err(format!("{}: {OUT_OF_RANGE}", m.name));
        }
        if !self.in_arc_at(attacker, weapon, p) {
            return Err(format!("{}: the cloud is out of its arc", m.name));
        }
        if !self.sees_point(attacker, p) {
            return Err(format!("{}: no line of sight to the point", m.name));
        }
        Ok(())
    }

    pub fn point_shot(&self, attacker: usize, weapon: usize, p: P, more_range: f64) -> Shot {
        self.shooter(attacker).at_point(weapon, p, more_range).unwrap_or_else(|why| Shot::No(why.text()))
    }

    pub fn shooter(&self, attacker: usize) -> Shooter<'_, 'r> {
        Shooter {
            g: self,
            attacker,
            underwater: std::cell::OnceCell::new(),
            in_structure: std::cell::OnceCell::new(),
            turn: std::cell::Cell::new(None),
        }
    }
}

/// Why a weapon may not attack: a fixed sentence, or one built only when someone reads it (a
/// caller asking only *whether* a weapon can fire never allocates the text).
#[derive(Debug, Clone, Copy)]
enum Refusal {
    Said(&'static str),
    InsideMinRange(f64),
}

impl Refusal {
    fn text(self) -> String {
        match self {
            Refusal::Said(s) => s.to_owned(),
            Refusal::InsideMinRange(r) => format!("inside minimum range {r}\""),
        }
    }
}

/// `Game::shot` for one attacker, remembering what depends on the attacker alone (whether it is
/// under water, whether it stands in a structure) between questions. The answers stay valid
/// while it lives: it borrows the game, so the state cannot change under it.
pub struct Shooter<'g, 'r> {
    g: &'g Game<'r>,
    attacker: usize,
    underwater: std::cell::OnceCell<bool>,
    in_structure: std::cell::OnceCell<bool>,
    /// The last target asked about and the attacker's turn towards it (`Game::turn_to`): the
    /// same for every weapon.
    turn: std::cell::Cell<Option<(usize, f64)>>,
}

impl Shooter<'_, '_> {
    /// What `Game::shot` answers, without its reason when the weapon cannot attack: `None` for
    /// every `Shot::No`.
    pub fn shot(&self, weapon: usize, target: usize, indirect: bool) -> Option<Shot> {
        self.answer(weapon, target, indirect, 0.0).ok()
    }

    /// `Game::in_arc` for the shooter's weapon, its turn towards `target` remembered.
    fn in_arc(&self, weapon: usize, target: usize) -> bool {
        let (g, attacker, at) = (self.g, self.attacker, self.g.models[target].pos);
        g.in_arc_turned(attacker, weapon, at, || match self.turn.get() {
            Some((t, v)) if t == target => v,
            _ => {
                let v = g.turn_to(attacker, at);
                self.turn.set(Some((target, v)));
                v
            }
        })
    }

    /// Whether `Game::sight` finds a line of sight to `target` (memoised there).
    fn los(&self, target: usize, only_defenders_own: bool) -> bool {
        self.g.sight(self.attacker, target, only_defenders_own).0
    }

    /// The mount `weapon`, if it may fire now at all: a weapon (not a strike package or a
    /// close-quarters reaction) with ammo, out of water, unlimbered.
    fn ready(&self, weapon: usize) -> Result<&'_ crate::compile::MountDef, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let me = &g.models[attacker];
        let Some(m) = g.card(attacker).weapons.get(weapon) else { return Err(Said("no such weapon")) };
        if m.strike.is_some() {
            return Err(Said("a strike package is called in (`call-strike`), not fired"));
        }
        if m.reaction {
            return Err(Said("it strikes only as a reaction, when attacked from close quarters"));
        }
        if m.melee {
            return Err(Said("a melee weapon strikes only in close combat"));
        }
        // (Over-watch, a shot back, counter-battery fire: no ranged weapon in close combat.)
        if g.in_close_combat(attacker) {
            return Err(Said("in close combat: its ranged weapons are of no use"));
        }
        if me.out_of_ammo[weapon] {
            return Err(Said("out of ammo"));
        }
        if me.weapon_lost(weapon) {
            return Err(Said("the weapon is lost"));
        }
        if *self.underwater.get_or_init(|| g.underwater(attacker)) {
            return Err(Said("under water: its weapons cannot fire"));
        }
        if me.has(&crate::game::actions::LIMBERED) {
            return Err(Said("limbered: the gun unlimbers before it fires"));
        }
        Ok(m)
    }

    /// An indirect attack at the point `p` of the board, with no model aimed at (001 L4474-4479):
    /// an indirect-fire weapon in reach; no line of sight needed.
    fn at_point(&self, weapon: usize, p: P, more_range: f64) -> Result<Shot, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let m = self.ready(weapon)?;
        if *self.in_structure.get_or_init(|| g.structure_at(attacker).is_some()) {
            return Err(Said("from inside a structure a model fires direct only"));
        }
        if m.dropped.is_some() {
            return Err(Said("a bomb falls beneath the aircraft: aim it at a model there"));
        }
        if m.template.is_some() {
            return Err(Said("a template weapon fires direct only"));
        }
        if m.requires_target_lock {
            return Err(Said("needs a target-lock on a model"));
        }
        if !m.indirect {
            return Err(Said("only an indirect-fire weapon fires at a point"));
        }
        if !g.on_board(p) {
            return Err(Said("the point is off the board"));
        }
        let dist = g.range_to_point(attacker, p);
        if m.min_range > 0.0 && dist <= m.min_range {
            return Err(Refusal::InsideMinRange(m.min_range));
        }
        let range = (m.range + more_range).max(0.0);
        let Some(band) = g.rules.bands.iter().position(|b| dist <= range * b.multiplier) else {
            return Err(Said(OUT_OF_RANGE));
        };
        Ok(Shot::Indirect { band: g.shifted_band(attacker, weapon, None, dist, band), distance: dist })
    }

    /// `Game::shot_with`, the refusal kept cheap. The checks and their order are `shot_with`'s.
    fn answer(&self, weapon: usize, target: usize, indirect: bool, more_range: f64) -> Result<Shot, Refusal> {
        use Refusal::Said;
        let (g, attacker) = (self.g, self.attacker);
        let me = &g.models[attacker];
        let m = self.ready(weapon)?;
        if g.models.get(target).is_some_and(|t| g.card_of(t).emplacement.is_some()) {
            return Err(Said("an emplacement is attacked through its bunker (fire at the structure)"));
        }
        let Some(aimed) = g.models.get(target) else { return Err(Said("no such model")) };
        if indirect && *self.in_structure.get_or_init(|| g.structure_at(attacker).is_some()) {
            return Err(Said("from inside a structure a model fires direct only"));
        }
        if !aimed.on_table() {
            return Err(Said("target is gone"));
        }
        let tc = g.card(target).model_type;
        if m.cannot_target.iter().any(|c| match c {
            TargetClass::Infantry => g.rules.has_trait(tc, ModelTrait::Infantry),
            TargetClass::Aircraft => g.rules.has_trait(tc, ModelTrait::Aircraft),
            TargetClass::AircraftInFlight => g.rules.has_trait(tc, ModelTrait::Aircraft) && g.flying(target),
            TargetClass::Structure => g.rules.has_trait(tc, ModelTrait::Structure),
        }) {
            return Err(Said("cannot attack that kind of model"));
        }
        // Nap of the earth hides an aircraft from the ground, but where it ended its activation
        // close to the attacker (and in sight: checked below) (001 L3742-3748).
        if aimed.features.flight.noe && !g.flying(attacker) {
            // Anti-Aircraft reaches farther (`noe_reach`: on the model, or on the weapon).
            let reach = |list: &[(u16, i32)]| {
                crate::compile::SaDef::card_effect(&g.rules.sas, list, cav_format::ModifierTarget::NoeReach)
                    .unwrap_or(0)
                    .max(0)
            };
            let exposed = g.rules.proc.flight.as_ref().map_or(0.0, |f| f.noe_exposed_within)
                + f64::from(reach(&g.card(attacker).sas).saturating_add(reach(&m.sas)));
            if g.active == Some(target) || g.range(attacker, target) > exposed {
                return Err(Said("flying nap of the earth"));
            }
        }
        // A bomb falls on the ground beneath the aircraft: it reaches what lies under its area
        // there, with no range band (001 L9278-9310, L9505-9549, L9187-9235).
        if m.dropped.is_some() {
            if !g.flying(attacker) || me.features.flight.noe {
                return Err(Said("a bomb is dropped from an aircraft in flight, not nap of the earth"));
            }
            if !indirect {
                return Err(Said("fires only indirectly"));
            }
            let under = g.card(target).base_radius;
            let dist = g.models[target].pos.dist(me.pos);
            let reach = match m.strip {
                Some((length, width)) => {
                    let (a, b) = strip_ends(me.pos, me.facing, length);
                    crate::geom::seg_point_dist(a, b, g.models[target].pos) <= width / 2.0 + under
                }
                None => dist <= m.aoe + under,
            };
            if !reach {
                return Err(Said("not beneath the bomb's area"));
            }
            return Ok(Shot::Indirect { band: 0, distance: dist });
        }
        // A template weapon reaches what its strip, laid towards the target, touches.
        if let Some((length, width, _)) = m.template {
            if indirect {
                return Err(Said("a template weapon fires direct only"));
            }
            let (a, b) = g.template_strip(attacker, aimed.pos, length);
            let dist = g.range(attacker, target);
            if crate::geom::seg_point_dist(a, b, aimed.pos) > width / 2.0 + g.card(target).base_radius {
                return Err(Said("beyond the template"));
            }
            if !self.in_arc(weapon, target) {
                return Err(Said("outside the weapon's firing arc"));
            }
            if !self.los(target, false) {
                return Err(Said("no line of sight"));
            }
            return Ok(Shot::Direct { band: 0, distance: dist });
        }
        if m.requires_target_lock
            && me.lock != Some(target)
            && !g.painted_for(attacker, target, !g.snapshot_at(attacker, target))
            && !g.homes_on(m, target)
        {
            return Err(Said("needs a target-lock"));
        }
        if indirect && !g.fires_indirect(attacker, weapon) {
            return Err(Said("cannot fire indirectly"));
        }
        if !indirect && m.indirect {
            return Err(Said("fires only indirectly"));
        }
        let dist = g.range(attacker, target);
        if m.min_range > 0.0 && dist <= m.min_range {
            return Err(Refusal::InsideMinRange(m.min_range));
        }
        let range = (m.range + more_range).max(0.0);
        let Some(band) = g.rules.bands.iter().position(|b| dist <= range * b.multiplier) else {
            return Err(Said(OUT_OF_RANGE));
        };
        let band = g.shifted_band(attacker, weapon, Some(target), dist, band);
        if indirect {
            return Ok(Shot::Indirect { band, distance: dist });
        }
        if !self.in_arc(weapon, target) {
            return Err(Said("outside the weapon's firing arc"));
        }
        if !self.los(target, m.requires_target_lock && g.rules.proc.sight.guided_ignore_cover) {
            return Err(Said("no line of sight"));
        }
        Ok(Shot::Direct { band, distance: dist })
    }
}
