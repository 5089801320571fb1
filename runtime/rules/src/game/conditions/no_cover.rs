//! `no-cover`: the defender has no cover from this attack (what "counts as in light cover" needs:
//! Rat, 001 L8035-8047).

use super::*;

pub static NO_COVER: Condition = Condition {
    id: "no-cover",
    test: |_, s, _| holds(s.defender.is_some() && matches!(s.cover, None | Some(Cover::None))),
};
