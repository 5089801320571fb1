//! `attacker-attribute-` and `defender-attribute-`: an attribute the ruleset's models carry
//! (`attributes:`), of the roller or of the defender: holds while it is above 0 and counts its
//! value, so a `per_count` modifier scales with it.

use super::*;

/// The value of attribute `arg` of `model`'s card, 0 where it is below.
fn value(g: &Game, model: usize, arg: u16) -> i32 {
    g.attributes(model).get(arg as usize).copied().unwrap_or(0).max(0)
}

pub static ATTACKER_ATTRIBUTE: Condition =
    Condition { id: "attacker-attribute-", test: |g, s, arg| value(g, s.attacker, arg) };

pub static DEFENDER_ATTRIBUTE: Condition =
    Condition { id: "defender-attribute-", test: |g, s, arg| s.defender.map_or(0, |d| value(g, d, arg)) };
