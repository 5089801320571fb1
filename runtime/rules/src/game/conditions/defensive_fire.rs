//! `defensive-fire`: a defensive-fire shot.

use super::*;

pub static DEFENSIVE_FIRE: Condition = Condition { id: "defensive-fire", test: |_, s, _| holds(s.defensive) };
