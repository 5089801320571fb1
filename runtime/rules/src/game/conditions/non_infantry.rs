//! `non-infantry`: the roller's model type lacks the trait `infantry` (the full rules' point-blank
//! modifier is for non-infantry attackers, 001 L4824-4832).

use super::*;

pub static NON_INFANTRY: Condition = Condition {
    id: "non-infantry",
    test: |g, s, _| holds(!g.rules.has_trait(g.card(s.attacker).model_type, ModelTrait::Infantry)),
};
