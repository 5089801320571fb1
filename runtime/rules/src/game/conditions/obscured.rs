//! `obscured`: the obscurement points of the terrain along the line of sight to the defender
//! (`Game::obscurement`); holds once per point (003 L18-41, L132-134: obscurement is a firing
//! modifier).

use super::*;

pub static OBSCURED: Condition = Condition {
    id: "obscured",
    test: |g, s, _| s.defender.map_or(0, |d| i32::try_from(g.obscurement(s.attacker, d)).unwrap_or(i32::MAX)),
};
