//! `direct-fire`: the roll is a direct-fire combat roll (a weapon fired at a model it sees, not a
//! strike-point or secondary roll of indirect fire, not close combat).

use super::*;

pub static DIRECT_FIRE: Condition = Condition { id: "direct-fire", test: |_, s, _| holds(s.direct) };
