//! `back-arc`: the attacker stands in the defender's rear firing arc, and the defender is not
//! infantry (001 L4790-4794: a direct-fire attack into a non-infantry model's back arc).

use super::*;

pub static BACK_ARC: Condition = Condition {
    id: "back-arc",
    test: |g, s, _| {
        let Some(d) = s.defender else { return 0 };
        let (attacker, defender) = (&g.models[s.attacker], &g.models[d]);
        let behind = 180.0 - angle_diff(defender.facing, defender.pos.bearing(attacker.pos)).abs();
        // (A ruleset without arcs may not use the condition: `required.rs` of the compiler.)
        holds(
            !g.rules.has_trait(g.card(d).model_type, ModelTrait::Infantry)
                && g.rules.proc.sight.arc_half_width.is_some_and(|half| behind <= half),
        )
    },
};
