//! `point-blank`: a direct-fire attack at or inside the ruleset's point-blank distance.

use super::*;

pub static POINT_BLANK: Condition = Condition {
    id: "point-blank",
    test: |g, s, _| holds(g.rules.point_blank.is_some_and(|pb| s.distance <= pb) && s.defender.is_some()),
};
