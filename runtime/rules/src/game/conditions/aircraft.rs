//! `aircraft`: the roller's model type has the trait `aircraft` (Improved Handling's drift is for
//! aircraft and quad CAVs, 001 L7659-7665).

use super::*;

pub static AIRCRAFT: Condition = Condition {
    id: "aircraft",
    test: |g, s, _| holds(g.rules.has_trait(g.card(s.attacker).model_type, ModelTrait::Aircraft)),
};
