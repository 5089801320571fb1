//! `los-to-strike-point`: the attacker sees the strike point.

use super::*;

pub static LOS_TO_STRIKE_POINT: Condition =
    Condition { id: "los-to-strike-point", test: |_, s, _| holds(s.los_to_point) };
