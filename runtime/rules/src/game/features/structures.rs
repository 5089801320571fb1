//! Structures as targets (001 L6170-6303): what a building has suffered, attacks on it, its
//! critical results, fire and collapse. A placed structure (a board area whose terrain has a
//! `structure:`) is one building: its damage points are its type's per section (its `section:` square) times its
//! sections, its armor class shared. The numbers are the terrain's, the ruleset's
//! `procedures.structure_attacks` and its structure tables.

use super::Feature;
use crate::compile::LookupTable;
use crate::event::{Event, ModApplied};
use crate::game::{Engine, EngineError, Game};
use crate::geom::P;
use crate::hooks::HookCtx;
use cav_format::{HookPoint, Quantity};

/// What one structure has suffered.
#[derive(Debug, Clone, Default)]
pub struct StructureState {
    pub area: usize,
    pub ac_lost: u32,
    pub dp_lost: u32,
    pub burning: bool,
    pub collapsed: bool,
}

kept! {
    /// What structures keep: what each has suffered (armor class and damage points lost, fire).
    pub struct Kept {
        pub states: Vec<StructureState>,
    }
}

/// Structures as targets (`Game::structures`).
pub(crate) static STRUCTURES: Feature = Feature {
    configured_by,
    model_moved: Some(model_moved),
    turn_end: Some(turn_end),
    ..Feature::new(cav_format::vocab::Feature::Structures)
};

fn configured_by(rules: &crate::compile::Rules) -> Option<&'static str> {
    (rules.proc.structure_movement.is_some() || rules.proc.structure_attacks.is_some())
        .then_some("`procedures.structure_movement` or `procedures.structure_attacks`")
}

fn model_moved(e: &mut Engine, model: usize, route: &[P]) -> Result<(), EngineError> {
    e.structure_crossing(model, route)
}

fn turn_end(e: &mut Engine) -> Result<(), EngineError> {
    e.structures_burn()
}

impl Game<'_> {
    pub(crate) fn structure_mut(&mut self, area: usize) -> &mut StructureState {
        let i = match self.features.structures.states.iter().position(|s| s.area == area) {
            Some(i) => i,
            None => {
                self.features.structures.states.push(StructureState { area, ..StructureState::default() });
                self.features.structures.states.len() - 1
            }
        };
        &mut self.features.structures.states[i]
    }

    fn structure_state(&self, area: usize) -> Option<&StructureState> {
        self.features.structures.states.iter().find(|s| s.area == area)
    }

    /// A structure's armor class now: its type's, less what it has lost.
    pub fn structure_ac(&self, area: usize) -> i32 {
        let def = self.rules.terrains[self.board.areas[area].terrain].structure;
        let lost = self.structure_state(area).map_or(0, |s| s.ac_lost);
        def.map_or(0, |d| d.armor_class as i32 - lost as i32).max(0)
    }

    /// Damage points a structure has left: its type's per section, times its sections.
    pub fn structure_dp(&self, area: usize) -> u32 {
        let a = &self.board.areas[area];
        let Some(def) = self.rules.terrains[a.terrain].structure else { return 0 };
        let pts = &a.poly.points;
        let twice: f64 =
            (0..pts.len()).map(|i| pts[i].x * pts[(i + 1) % pts.len()].y - pts[(i + 1) % pts.len()].x * pts[i].y).sum();
        let sections = ((twice.abs() / 2.0) / (def.section * def.section)).round().max(1.0) as u32;
        let lost = self.structure_state(area).map_or(0, |s| s.dp_lost);
        (def.damage_points.saturating_mul(sections)).saturating_sub(lost)
    }

    /// The standing structure at a point, if any.
    pub fn structure_at_point(&self, p: P) -> Option<usize> {
        (0..self.board.areas.len()).find(|&a| {
            self.rules.terrains[self.board.areas[a].terrain].structure.is_some()
                && self.board.areas[a].poly.contains(p)
                && self.structure_state(a).is_none_or(|s| !s.collapsed)
        })
    }
}

impl Engine<'_, '_> {
    /// One weapon's attack on the structure at `area` (a copy of the weapon; the action checked
    /// range and arc): a combat roll at the band's TP with the structures' bonus, then damage.
    /// With no band (a missile flying into it), the pre-set dice against the mount's base TP.
    pub(crate) fn attack_structure(
        &mut self,
        attacker: usize,
        weapon: usize,
        area: usize,
        band: Option<usize>,
        at: P,
    ) -> Result<(), EngineError> {
        let r = self.rules();
        let Some((rule, _)) = &r.proc.structure_attacks else { return Ok(()) };
        let m = &self.cardr(attacker).weapons[weapon];
        emit!(
            self,
            Event::StructureAttack {
                model: attacker,
                weapon: m.name.clone(),
                at,
                distance: crate::game::engine::round2(self.game.range_to_point(attacker, at)),
                band: band.map(|b| r.bands[b].name.clone())
            }
        );
        let mut mods = match band {
            Some(band) => {
                let s = crate::game::engine::Situation {
                    attacker,
                    weapon: Some(weapon),
                    band: Some(band),
                    primary: true,
                    direct: !m.indirect,
                    ..Default::default()
                };
                self.modifiers(&r.combat_mods, cav_format::ModifierTarget::CombatRoll, &s, true)
            }
            None => Vec::new(),
        };
        let name = if self.log.narrative() { "Structure (always stationary)".to_owned() } else { String::new() };
        mods.push(ModApplied { source: name, value: rule.target_bonus, charge: None });
        let crit_at = r.critical_at(m.crit_shift, false);
        let (dice, tp) = match (band, m.preset_tp, r.preset) {
            (Some(band), _, _) => (r.standard, r.bands[band].combat_tp),
            (None, Some(tp), Some(dice)) => (dice, tp),
            (None, tp, _) => (r.standard, tp.unwrap_or(r.indirect_tp)),
        };
        let out = self.roll(attacker, "combat", dice, mods, Some(tp), crit_at, false);
        if out.fumble {
            return self.out_of_ammo(attacker, weapon);
        }
        if !out.success {
            return Ok(());
        }
        let hard = r.terrains[self.game.board.areas[area].terrain].structure.is_some_and(|d| d.hard);
        let (h, sft) = m.rav[self.game.column(attacker)];
        let rav = if self.game.models[attacker].zeroed {
            0
        } else {
            (if hard { h } else { sft }).map_or(r.proc.rolls.na_rav, i32::from)
        };
        let ac = self.game.structure_ac(area);
        let sum = out.margin.saturating_add(rav);
        if sum < ac {
            self.structure_event(area, 0);
            return Ok(());
        }
        let Some(row) = r.structure_damage.as_ref().and_then(|t| t.row(sum - ac)).cloned() else { return Ok(()) };
        self.game.structure_mut(area).dp_lost += row.damage;
        self.structure_event(area, row.damage);
        if row.critical {
            self.structure_critical(attacker, area)?;
        }
        if self.game.structure_dp(area) == 0 {
            self.collapse(area)?;
        }
        Ok(())
    }

    fn structure_event(&mut self, area: usize, damage: u32) {
        let (at, armor_class, damage_points) =
            (self.game.board.areas[area].center, self.game.structure_ac(area), self.game.structure_dp(area));
        emit!(self, Event::StructureHit { at, damage, armor_class, damage_points });
    }

    /// A roll on the structure critical table: armor class lost, fire, or collapse.
    fn structure_critical(&mut self, attacker: usize, area: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let (Some((rule, _)), Some(table)) = (&r.proc.structure_attacks, r.structure_critical.as_ref()) else {
            return Ok(());
        };
        let table: &LookupTable = table;
        let dice = table.dice.unwrap_or(r.standard);
        let out = self.roll(attacker, "structure-critical", dice, Vec::new(), None, None, false);
        let Some(row) = table.row(out.total).cloned() else { return Ok(()) };
        let result = row.result.as_deref().unwrap_or("");
        if result == rule.collapse_result.as_str() {
            return self.collapse(area);
        }
        let st = self.game.structure_mut(area);
        if result == rule.burning_result.as_str() {
            st.burning = true;
        } else {
            st.ac_lost = st.ac_lost.saturating_add(row.value.unsigned_abs());
        }
        self.structure_event(area, 0);
        Ok(())
    }

    /// A structure collapses into the ruleset's collapse terrain; of the models inside, the
    /// ruleset's types leave play and the others take its collapse damage.
    pub(crate) fn collapse(&mut self, area: usize) -> Result<(), EngineError> {
        let r = self.rules();
        let Some((rule, rubble)) = &r.proc.structure_attacks else { return Ok(()) };
        let inside: Vec<usize> =
            (0..self.game.models.len()).filter(|&m| self.game.structure_at(m) == Some(area)).collect();
        self.game.structure_mut(area).collapsed = true;
        self.game.board.areas[area].terrain = *rubble;
        // The piece keeps its place in the list but is other terrain now: a line of sight
        // remembered across it (keyed by the board's version) is no longer the board's.
        self.game.board_version += 1;
        emit!(self, Event::StructureCollapsed { at: self.game.board.areas[area].center });
        for m in inside {
            if self.rules().type_in(&rule.collapse_removes, self.cardr(m).model_type) {
                self.destroy(m);
            } else {
                self.game.models[m].pending.damage += rule.collapse_damage;
                if self.game.active.is_none() {
                    self.resolve_pending(m)?;
                }
            }
        }
        Ok(())
    }

    /// A CAV or vehicle that moved from `from` into or through structures: for each section
    /// of path inside one, an opposed roll of its EXP against the structure's armor class (the
    /// larger margin wins, ties to the mover); each lost costs the ruleset's damage (001 L6154-6164).
    pub(crate) fn structure_crossing(&mut self, model: usize, route: &[P]) -> Result<(), EngineError> {
        let r = self.rules();
        let Some(rule) = &r.proc.structure_movement else { return Ok(()) };
        if !r.type_in(&rule.model_types, self.cardr(model).model_type) || self.game.flying(model) {
            return Ok(());
        }
        const STEP: f64 = 0.25;
        // Only buildings near the path can be crossed (most moves pass none).
        let near = |a: &crate::game::Area| {
            route.windows(2).any(|leg| crate::geom::seg_point_dist(leg[0], leg[1], a.center) <= a.radius)
        };
        let g = &self.game;
        if !g.board.areas.iter().any(|a| g.rules.terrains[a.terrain].structure.is_some() && near(a)) {
            return Ok(());
        }
        // The length of the route inside each building, leg by leg.
        let mut inside: Vec<(usize, f64)> = Vec::new();
        for leg in route.windows(2) {
            let (from, to) = (leg[0], leg[1]);
            let len = from.dist(to);
            let steps = (len / STEP).ceil() as usize;
            for k in 0..steps {
                let p = from + (to - from).scale((k as f64 + 0.5) / steps as f64);
                if let Some(a) = self.game.structure_at_point(p) {
                    match inside.iter_mut().find(|(x, _)| *x == a) {
                        Some((_, l)) => *l += len / steps as f64,
                        None => inside.push((a, len / steps as f64)),
                    }
                }
            }
        }
        let Some(exp) = self.cardr(model).experience[self.game.column(model)] else { return Ok(()) };
        for (area, length) in inside {
            let section =
                self.game.rules.terrains[self.game.board.areas[area].terrain].structure.map_or(1.0, |d| d.section);
            let sections = (length / section).ceil() as u32;
            for _ in 0..sections {
                let ac = self.game.structure_ac(area);
                let mods = self.call_hooks(HookCtx::new(HookPoint::OpposedRoll, model))?.take(Quantity::Roll);
                let mover = self.roll(model, "structure-crossing", r.standard, mods, Some(exp as i32), None, false);
                let wall = self.roll(model, "structure-resists", r.standard, Vec::new(), Some(ac), None, false);
                if mover.total - (exp as i32) < wall.total - ac {
                    self.game.models[model].pending.damage += rule.damage;
                }
            }
        }
        Ok(())
    }

    /// The end of a turn: burning structures lose a point of armor class and of damage points.
    pub(crate) fn structures_burn(&mut self) -> Result<(), EngineError> {
        let burning: Vec<usize> =
            self.game.features.structures.states.iter().filter(|s| s.burning && !s.collapsed).map(|s| s.area).collect();
        for area in burning {
            let st = self.game.structure_mut(area);
            st.ac_lost += 1;
            st.dp_lost += 1;
            self.structure_event(area, 1);
            if self.game.structure_dp(area) == 0 {
                self.collapse(area)?;
            }
        }
        Ok(())
    }
}
