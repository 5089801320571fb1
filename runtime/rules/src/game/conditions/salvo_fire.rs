//! `salvo-fire`: a salvo-fire strike.

use super::*;

pub static SALVO_FIRE: Condition = Condition { id: "salvo-fire", test: |_, s, _| holds(s.salvo_extra > 0) };
