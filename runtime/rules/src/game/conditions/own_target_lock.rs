//! `own-target-lock`: the attacker holds a target-lock on the defender that it took itself, not one
//! a squad mate shared (EST: only the lock passes, not an advanced targeting computer's bonus,
//! 001 L7251-7267).

use super::*;

pub static OWN_TARGET_LOCK: Condition = Condition {
    id: "own-target-lock",
    test: |g, s, _| {
        let me = &g.models[s.attacker];
        holds(s.defender.is_some() && me.lock == s.defender && me.lock_from.is_none())
    },
};
