//! `attacker-`: the roller is in the model state (`attacker-<state id>`).

use super::*;

pub static ATTACKER_STATE: Condition =
    Condition { id: "attacker-", test: |g, s, arg| holds(g.models[s.attacker].has_state(arg)) };
