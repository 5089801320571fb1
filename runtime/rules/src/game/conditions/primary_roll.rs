//! `primary-roll`: the roll of the attack itself, not a secondary roll under the template.

use super::*;

pub static PRIMARY_ROLL: Condition = Condition { id: "primary-roll", test: |_, s, _| holds(s.primary) };
