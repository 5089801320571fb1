//! `target-locked`: the attacker holds a target-lock on the defender.

use super::*;

pub static TARGET_LOCKED: Condition = Condition {
    id: "target-locked",
    test: |g, s, _| holds(s.defender.is_some() && g.models[s.attacker].lock == s.defender),
};
