//! Direct fire at a structure (001 L6170-6198): the combat action aimed at a point of a building
//! (`to`), each listed weapon in range and arc of that point rolling once per copy; the attack
//! procedure is `game/structures.rs`. A line of sight to a building is taken as given (it is a
//! large object; the book gives structures no cover).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game};

pub struct StructureFire;

impl ActionKind for StructureFire {
    fn id(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn name(&self) -> &'static str {
        "fire-at-structure"
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, _model: usize, action: &Action) -> Result<(), String> {
        if game.rules.proc.structure_attacks.is_none() {
            return Err("this ruleset has no attacks on structures".into());
        }
        let at = action.to()?;
        if game.structure_at_point(at).is_none() {
            return Err("there is no standing structure at that point".into());
        }
        if action.weapons.is_empty() {
            return Err("no weapons declared".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let at = action.to().map_err(ActionError::Illegal)?;
        for &w in &action.weapons {
            let g = &engine.game;
            let Some(area) = g.structure_at_point(at) else { break };
            let Some(m) = g.card(model).weapons.get(w) else {
                return Err(ActionError::Illegal(format!("no weapon mount {w}")));
            };
            let dist = g.range_to_point(model, at);
            let band = g
                .rules
                .bands
                .iter()
                .position(|b| dist <= m.range * b.multiplier)
                .map(|b| g.shifted_band(model, w, None, dist, b));
            let why = if g.models[model].out_of_ammo[w] {
                Some("out of ammo")
            } else if band.is_none() {
                Some(crate::game::shot::OUT_OF_RANGE)
            } else if !g.in_arc_at(model, w, at) {
                Some("not in its firing arc")
            } else if m.indirect || m.requires_target_lock {
                Some("structures take direct fire only")
            } else {
                None
            };
            if let Some(reason) = why {
                let (weapon, target) = (m.name.clone(), model);
                emit!(engine, Event::NoAttack { model, target: Some(target), weapon, reason: reason.into() });
                continue;
            }
            for _ in 0..g.copies_in_arc_at(model, w, at) {
                if engine.game.models[model].out_of_ammo[w] || engine.game.structure_at_point(at).is_none() {
                    break;
                }
                engine.attack_structure(model, w, area, Some(band.unwrap_or(0)), at)?;
            }
        }
        Ok(())
    }
}

impl Action {
    /// Direct fire with these weapon mounts at the structure standing at `at`.
    pub fn fire_at_structure(at: crate::geom::P, weapons: Vec<usize>) -> Action {
        Action::new(StructureFire.name()).at(at).with(weapons)
    }
}
