//! `tagged`: the defender is painted for the attacker by a TAG (its own, or a friend's `tag`
//! action: `Game::painted`).

use super::*;

pub static TAGGED: Condition =
    Condition { id: "tagged", test: |g, s, _| holds(s.defender.is_some_and(|d| g.painted(s.attacker, d))) };
