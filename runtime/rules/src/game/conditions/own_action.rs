//! `action-`: the roll is made in an action of one of the ruleset's own action types (`does:`):
//! Sythopian Wars' SNAP FIRE, whose target locks hold only on a 1.

use super::*;

pub static OWN_ACTION: Condition = Condition { id: "action-", test: |g, _, arg| i32::from(g.acting_as == Some(arg)) };
