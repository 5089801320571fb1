//! Salvo fire (001 L5123-5165): several weapons of one type fire as one combat roll, a mode of
//! the Combat action.

use super::{Action, ActionError, ActionKind};
use crate::game::{Controller, Engine, Shot};
use cav_format::vocab::ActionKind as ActionWord;

pub struct SalvoFire;

impl ActionKind for SalvoFire {
    fn id(&self) -> ActionWord {
        ActionWord::SalvoFire
    }
    fn name(&self) -> &'static str {
        "salvo"
    }
    fn counts_as(&self) -> ActionWord {
        ActionWord::Combat
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        engine.salvo(model, target, &action.weapons, ctrl)
    }
}

impl Action {
    pub fn salvo(target: usize, weapons: Vec<usize>) -> Action {
        Action::new(SalvoFire.name()).on(target).with(weapons)
    }
}

impl Engine<'_, '_> {
    /// Several weapons of the same type fire as one combat roll, +1 per weapon beyond the first
    /// (through the ruleset's `salvo-fire` modifier).
    pub(crate) fn salvo(
        &mut self,
        attacker: usize,
        target: usize,
        weapons: &[usize],
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        if target >= self.game.models.len() || self.game.models[target].side == self.game.models[attacker].side {
            return Err(ActionError::Illegal("the target is not an enemy model".into()));
        }
        let card = self.cardr(attacker);
        let Some(&first) = weapons.first() else { return Err(ActionError::Illegal("no weapons declared".into())) };
        if weapons.iter().any(|&weapon| card.weapons.get(weapon).is_none_or(|m| m.weapon != card.weapons[first].weapon))
        {
            return Err(ActionError::Illegal("a salvo uses weapons of one type only".into()));
        }
        let count: u32 = weapons.iter().map(|&weapon| card.weapons[weapon].quantity).sum();
        // A salvo is several weapons by definition, not by a number of the rules.
        if count < 2 {
            return Err(ActionError::Illegal("a salvo needs at least two weapons".into()));
        }
        let Shot::Direct { band, distance } = self.game.shot(attacker, first, target, false) else {
            return Err(ActionError::Illegal("the salvo's weapons cannot fire at that target directly".into()));
        };
        let answer = self.declare_defensive_fire(attacker, target, ctrl)?;
        self.attack_roll(attacker, first, target, band, distance, count as i32 - 1, 0, false)?;
        self.resolve_defensive_fire(attacker, target, answer).map_err(ActionError::from)
    }
}
