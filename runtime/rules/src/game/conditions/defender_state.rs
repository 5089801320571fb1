//! `defender-`: the defender is in the model state (`defender-<state id>`).

use super::*;

pub static DEFENDER_STATE: Condition =
    Condition { id: "defender-", test: |g, s, arg| holds(s.defender.is_some_and(|d| g.models[d].has_state(arg))) };
