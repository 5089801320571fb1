//! `defender-in-flight`: the defender is flying now (an aircraft not landed): Anti-Aircraft's
//! bonus is against Move Class Air targets (001 L4936, L4976, L6679-6683).

use super::*;

pub static DEFENDER_IN_FLIGHT: Condition =
    Condition { id: "defender-in-flight", test: |g, s, _| holds(s.defender.is_some_and(|d| g.flying(d))) };
