//! `counter-battery`: the roll belongs to a counter-battery answer (`procedures.counter_battery`).

use super::*;

pub static COUNTER_BATTERY: Condition = Condition { id: "counter-battery", test: |g, _, _| holds(g.counter_battery) };
