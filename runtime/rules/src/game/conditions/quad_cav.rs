//! `quad-cav`: the roller's model type has the trait `four-legged`.

use super::*;

pub static QUAD_CAV: Condition = Condition {
    id: "quad-cav",
    test: |g, s, _| holds(g.rules.has_trait(g.card(s.attacker).model_type, ModelTrait::FourLegged)),
};
