//! `salvo-fire`: a salvo-fire strike (counts the weapons beyond the first).

use super::*;

pub static SALVO_FIRE: Condition = Condition { id: "salvo-fire", test: |_, s, _| s.salvo_extra.max(0) };
