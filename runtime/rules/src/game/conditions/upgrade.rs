//! `upgrade-<upgrade>`: the roller's model carries the upgrade (fitted with `Rules::fit`, where it
//! rides on the card as a special attribute of its own; counts how many were bought).

use super::*;

pub static UPGRADE: Condition =
    Condition { id: "upgrade-", test: |g, s, arg| rating(g.card(s.attacker).sas.iter(), arg) };
