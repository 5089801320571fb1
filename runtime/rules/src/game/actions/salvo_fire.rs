//! Salvo fire (001 L5123-5165): several weapons of one type fire as one combat roll, a mode of
//! the Combat action.

use super::{Action, ActionError, ActionKind};
use crate::game::shot::OUT_OF_RANGE;
use crate::game::{Controller, Engine, Game, Shot};
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
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        match action.target {
            Some(t) if !action.indirect && t < game.models.len() && game.snapshot_at(model, t) => {
                Err("a Pop-Up snapshot over the terrain allows no Salvo Fire".into())
            }
            _ => Ok(()),
        }
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        engine.salvo(model, target, &action.weapons, action.indirect, ctrl)
    }
}

impl Action {
    pub fn salvo(target: usize, weapons: Vec<usize>) -> Action {
        Action::new(SalvoFire.name()).on(target).with(weapons)
    }
    /// A salvo of indirect-fire weapons at the target's strike point.
    pub fn salvo_indirect(target: usize, weapons: Vec<usize>) -> Action {
        Action { indirect: true, ..Action::salvo(target, weapons) }
    }
}

impl Engine<'_, '_> {
    /// Several weapons of the same type fire as one combat roll, +1 per weapon beyond the first
    /// (through the ruleset's `salvo-fire` modifier). Indirect: one strike-point roll for the
    /// salvo, which takes no salvo bonus (000 L835, the strike-point table has no such row), then
    /// one secondary combat roll per model caught, with the bonus where the ruleset's secondary
    /// roll table has the `salvo-fire` row (000 L833: one combat roll for the assault).
    pub(crate) fn salvo(
        &mut self,
        attacker: usize,
        target: usize,
        weapons: &[usize],
        indirect: bool,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        if target >= self.game.models.len() || self.game.models[target].side == self.game.models[attacker].side {
            return Err(ActionError::Illegal("the target is not an enemy model".into()));
        }
        if self.game.models[target].features.transport.aboard.is_some() {
            return Err(ActionError::Illegal("the target rides in a transport: attack the transport".into()));
        }
        let card = self.cardr(attacker);
        let Some(&first) = weapons.first() else { return Err(ActionError::Illegal("no weapons declared".into())) };
        let mixed = self.rules().proc.salvo.is_some_and(|s| s.mixed_classes);
        let same = |m: &crate::compile::MountDef| {
            let f = &card.weapons[first];
            if mixed { m.class == f.class } else { m.weapon == f.weapon }
        };
        if weapons.iter().any(|&weapon| card.weapons.get(weapon).is_none_or(|m| !same(m))) {
            let what = if mixed { "one weapon system" } else { "one type" };
            return Err(ActionError::Illegal(format!("a salvo uses weapons of {what} only")));
        }
        // Mixed classes roll with the weakest one's RAV (001 L5143-5147): it stands for the salvo.
        let first = if mixed {
            weapons.iter().copied().min_by_key(|&w| self.game.rav(attacker, w, target)).unwrap_or(first)
        } else {
            first
        };
        // The copies that bear on the target (a side-mounted weapon of a vehicle, one side only).
        let count: u32 = weapons.iter().map(|&weapon| self.game.copies_in_arc(attacker, weapon, target)).sum();
        // A salvo is several weapons by definition, not by a number of the rules.
        if count < 2 {
            return Err(ActionError::Illegal("a salvo needs at least two weapons".into()));
        }
        let extra = count as i32 - 1;
        // `attack_declare` for each weapon of the salvo: a forbidden one forbids the salvo (its
        // weapons fire as one); a range change is read from the first weapon's answer.
        let mut shot = Shot::No(String::new());
        for (i, &weapon) in weapons.iter().enumerate() {
            let declared = match self.game.shot(attacker, weapon, target, indirect) {
                Shot::No(reason) if reason != OUT_OF_RANGE => Err(reason),
                s => self.declare(attacker, weapon, target, indirect, s)?,
            };
            match declared {
                Ok(s) if i == 0 => shot = s,
                Ok(_) => {}
                Err(reason) => shot = Shot::No(reason),
            }
            if matches!(shot, Shot::No(_)) {
                break;
            }
        }
        // Every weapon of the salvo was shot (the end of the combat action counts them all).
        let fired: Vec<usize> = weapons
            .iter()
            .flat_map(|&weapon| std::iter::repeat_n(weapon, self.game.copies_in_arc(attacker, weapon, target) as usize))
            .collect();
        match shot {
            Shot::Direct { band, distance } => {
                let answer = self.declare_defensive_fire(attacker, target, ctrl)?;
                self.attack_roll(attacker, first, target, band, distance, extra, 0, false)?;
                self.combat_end(attacker, &fired)?;
                self.resolve_defensive_fire(attacker, target, answer.as_deref()).map_err(ActionError::from)
            }
            Shot::Indirect { band, distance } => {
                let answer = self.declare_defensive_fire(attacker, target, ctrl)?;
                let aim = self.game.models[target].pos;
                if let Some(point) = self.strike_point(attacker, Some(target), first, band, distance, aim, 0, ctrl)? {
                    self.area_attack(attacker, first, point, Some(target), extra, None)?;
                }
                self.combat_end(attacker, &fired)?;
                self.resolve_defensive_fire(attacker, target, answer.as_deref()).map_err(ActionError::from)
            }
            Shot::No(reason) => {
                let how = if indirect { "indirectly" } else { "directly" };
                Err(ActionError::Illegal(format!("the salvo's weapons cannot fire at that target {how}: {reason}")))
            }
        }
    }
}
