//! `attacker-in-<group>`: the attacker is in a state of the group (model states' `groups:`; the
//! full rules' `disrupted`: burning, hacked, stunned or suppressed, 001 L4683, L4711 — one
//! modifier however many of them it has).

use super::*;

pub static ATTACKER_IN_GROUP: Condition = Condition {
    id: "attacker-in-",
    test: |g, s, group| {
        let states = &g.rules.states;
        holds(g.models[s.attacker].states.iter().any(|(st, _)| states[*st as usize].groups.contains(&group)))
    },
};
