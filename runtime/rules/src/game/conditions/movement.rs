//! `defender-moved`, `attacker-moved`, `attacker-speed`: how far a model moved and how fast,
//! counted for modifiers by steps (003 L94-124: firing modifiers by the attacker's speed and
//! the hexes the target moved).

use super::*;

/// Hexes moved on a hex board, whole inches elsewhere.
fn moved(g: &Game, model: usize) -> i32 {
    let inches = g.models[model].moved;
    let per = g.rules.hexes.as_ref().map_or(1.0, |h| h.across_flats);
    ((inches / per) + 1e-9).floor().min(f64::from(i32::MAX)) as i32
}

pub static DEFENDER_MOVED: Condition =
    Condition { id: "defender-moved", test: |g, s, _| s.defender.map_or(0, |d| moved(g, d)) };

pub static ATTACKER_MOVED: Condition = Condition { id: "attacker-moved", test: |g, s, _| moved(g, s.attacker) };

pub static ATTACKER_SPEED: Condition = Condition {
    id: "attacker-speed",
    test: |g, s, _| {
        let spent = u64::from(g.models[s.attacker].mv_spent) * 100;
        let mv = u64::from(g.move_value(s.attacker).max(1));
        i32::try_from(spent / mv).unwrap_or(i32::MAX)
    },
};
