//! The conditions the engine tests when it sums a roll's modifiers: one file per condition id
//! (or family) of the vocabulary (`cav_format::vocab`), listed once in [`ALL`]. A condition says
//! how many times it holds for a roll: 0 = not, 1 = once, more for conditions that count
//! (supporters, models in contact, an SA's rating).
//!
//! To add a condition: its vocabulary entry in `runtime/format/src/vocab/conditions.rs`, one file here and
//! its line in `ALL`. A test checks that the two lists agree.

use cav_format::{Cover, ModelTrait};

use crate::geom::angle_diff;

use super::engine::Situation;
use super::state::Game;
use crate::compile::{Cond, CondId};

/// One condition: its id (a family's prefix, e.g. `band-`, for families) and its test. `arg`
/// is what a family member names (a band, state or SA index), resolved when the rules compile.
pub struct Condition {
    pub id: &'static str,
    pub test: fn(&Game, &Situation, u16) -> i32,
}

impl std::fmt::Debug for Condition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Condition({})", self.id)
    }
}

mod aircraft;
mod always;
mod attacker_in_group;
mod attacker_sa;
mod attacker_state;
mod attribute;
mod back_arc;
mod band;
mod close_combat;
mod close_combat_support;
mod consecutive_attempt;
mod counter_battery;
mod defender_arc;
mod defender_in_flight;
mod defender_sa;
mod defender_state;
mod defender_terrain;
mod defensive_fire;
mod direct_fire;
mod enemies_in_contact;
mod energy_weapon;
mod extra_woods;
mod failed_break;
mod friends_in_contact;
mod heavy_cover;
mod light_cover;
mod los_to_strike_point;
mod movement;
mod multiple_targets;
mod no_cover;
mod non_infantry;
mod obscured;
mod own_action;
mod own_target_lock;
mod point_blank;
mod primary_roll;
mod quad_cav;
mod run_n_gun;
mod salvo_fire;
mod squad_sa;
mod strike_package;
mod tagged;
mod target_locked;
mod upgrade;

pub use attacker_in_group::ATTACKER_IN_GROUP;
pub use attacker_sa::ATTACKER_SA;
pub use attacker_state::ATTACKER_STATE;
pub use band::BAND;
pub use defender_state::DEFENDER_STATE;

impl Cond {
    /// Whether the condition reads the roll's defender (`defender-…`): with none, it says nothing.
    pub fn about_defender(self) -> bool {
        ALL.get(usize::from(self.id.0)).is_some_and(|c| c.id.starts_with("defender-"))
    }
}

/// Every condition the engine implements.
pub static ALL: &[&Condition] = &[
    &always::ALWAYS,
    &point_blank::POINT_BLANK,
    &light_cover::LIGHT_COVER,
    &no_cover::NO_COVER,
    &own_target_lock::OWN_TARGET_LOCK,
    &heavy_cover::HEAVY_COVER,
    &extra_woods::EXTRA_WOODS,
    &obscured::OBSCURED,
    &defender_terrain::DEFENDER_TERRAIN,
    &defender_arc::DEFENDER_ARC,
    &movement::DEFENDER_MOVED,
    &movement::ATTACKER_MOVED,
    &movement::ATTACKER_SPEED,
    &salvo_fire::SALVO_FIRE,
    &multiple_targets::MULTIPLE_TARGETS,
    &squad_sa::SQUAD_SA,
    &run_n_gun::RUN_N_GUN,
    &defensive_fire::DEFENSIVE_FIRE,
    &consecutive_attempt::CONSECUTIVE_ATTEMPT,
    &los_to_strike_point::LOS_TO_STRIKE_POINT,
    &primary_roll::PRIMARY_ROLL,
    &target_locked::TARGET_LOCKED,
    &tagged::TAGGED,
    &counter_battery::COUNTER_BATTERY,
    &quad_cav::QUAD_CAV,
    &aircraft::AIRCRAFT,
    &non_infantry::NON_INFANTRY,
    &close_combat_support::CLOSE_COMBAT_SUPPORT,
    &failed_break::FAILED_BREAK,
    &friends_in_contact::FRIENDS_IN_CONTACT,
    &enemies_in_contact::ENEMIES_IN_CONTACT,
    &back_arc::BACK_ARC,
    &band::BAND,
    &attacker_in_group::ATTACKER_IN_GROUP,
    &attacker_state::ATTACKER_STATE,
    &defender_state::DEFENDER_STATE,
    &attacker_sa::ATTACKER_SA,
    &defender_sa::DEFENDER_SA,
    &direct_fire::DIRECT_FIRE,
    &close_combat::CLOSE_COMBAT,
    &strike_package::STRIKE_PACKAGE,
    &defender_in_flight::DEFENDER_IN_FLIGHT,
    &energy_weapon::ENERGY_WEAPON,
    &energy_weapon::NON_ENERGY_WEAPON,
    &energy_weapon::LASER_GUIDED,
    &upgrade::UPGRADE,
    &attribute::ATTACKER_ATTRIBUTE,
    &attribute::DEFENDER_ATTRIBUTE,
    &own_action::OWN_ACTION,
];

/// The condition with this id (a fixed id, or a family's prefix), as the compiled rules hold it.
pub fn find(id: &str) -> Option<CondId> {
    ALL.iter().position(|c| c.id == id).map(|i| CondId(i as u8))
}

impl Cond {
    /// Whether this is `def` naming `arg`.
    pub fn is(self, def: &'static Condition, arg: u16) -> bool {
        ALL.get(self.id.0 as usize).is_some_and(|c| std::ptr::eq(*c, def)) && self.arg == arg
    }

    /// How many times it holds for this roll (0 = not; `Cond::NEVER` never does).
    pub fn times(self, game: &Game, s: &Situation) -> i32 {
        match ALL.get(self.id.0 as usize) {
            Some(c) => (c.test)(game, s, self.arg),
            None => 0,
        }
    }
}

fn holds(x: bool) -> i32 {
    i32::from(x)
}

/// The rating of SA `arg` among `sas` (at least 1 when present), 0 when absent.
fn rating<'s>(mut sas: impl Iterator<Item = &'s (u16, i32)>, arg: u16) -> i32 {
    sas.find(|(x, _)| *x == arg).map_or(0, |(_, r)| (*r).max(1))
}

/// Models on the table in base contact with `model`: its friends or its enemies.
fn in_contact(g: &Game, model: usize, friends: bool) -> i32 {
    let side = g.models[model].side;
    let contact = g.rules.proc.movement.contact_distance;
    (0..g.models.len())
        .filter(|&i| i != model && g.models[i].on_table() && (g.models[i].side == side) == friends)
        .filter(|&i| g.distance(i, model) <= contact)
        .count() as i32
}

#[cfg(test)]
mod tests {
    use cav_format::vocab::{self, CONDITION_FAMILIES, CONDITIONS};

    /// The vocabulary and the implementation agree: every id declared implemented has a
    /// condition here, and every condition here is declared implemented.
    #[test]
    fn implemented_conditions_are_the_declared_ones() {
        assert!(super::ALL.len() < u8::MAX as usize, "a `CondId` is a u8 (u8::MAX is `Cond::NEVER`)");
        let mut declared: Vec<&str> = CONDITIONS.iter().filter(|c| c.status.implemented()).map(|c| c.id).collect();
        declared.extend(CONDITION_FAMILIES.iter().filter(|f| f.status.implemented()).map(|f| f.prefix));
        let mut here: Vec<&str> = super::ALL.iter().map(|c| c.id).collect();
        declared.sort();
        here.sort();
        assert_eq!(declared, here);
        for c in super::ALL {
            let member = format!("{}x", c.id);
            assert!(
                vocab::condition(c.id).is_some() || vocab::condition(&member).is_some(),
                "{} is not in the vocabulary",
                c.id
            );
        }
    }
}
