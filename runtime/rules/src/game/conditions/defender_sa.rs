//! `defender-sa-`: the defender has the special attribute (`defender-sa-<SA id>`; counts its rating).

use super::*;

pub static DEFENDER_SA: Condition =
    Condition { id: "defender-sa-", test: |g, s, arg| s.defender.map_or(0, |d| rating(g.card(d).sas.iter(), arg)) };
