//! `energy-weapon`, `non-energy-weapon`: the attack's weapon is, or is not, an energy weapon
//! (the weapon document's `energy:`; ion, laser and particle-bolt weapons). Neither holds for a
//! roll without a weapon (close combat).

use super::*;

fn energy(g: &Game, s: &Situation) -> Option<bool> {
    s.weapon.and_then(|w| g.card(s.attacker).weapons.get(w)).map(|m| m.energy)
}

pub static ENERGY_WEAPON: Condition =
    Condition { id: "energy-weapon", test: |g, s, _| holds(energy(g, s) == Some(true)) };

pub static NON_ENERGY_WEAPON: Condition =
    Condition { id: "non-energy-weapon", test: |g, s, _| holds(energy(g, s) == Some(false)) };

/// `laser-guided`: the attack's weapon fires a laser-guided munition (`MountDef::laser_guided`).
pub static LASER_GUIDED: Condition = Condition {
    id: "laser-guided",
    test: |g, s, _| holds(s.weapon.and_then(|w| g.card(s.attacker).weapons.get(w)).is_some_and(|m| m.laser_guided)),
};
