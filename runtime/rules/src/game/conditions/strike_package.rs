//! `strike-package`: the roll is for a battlefield strike package a model called in
//! (`call-strike`), not for one of its own weapons.

use super::*;

pub static STRIKE_PACKAGE: Condition = Condition { id: "strike-package", test: |_, s, _| holds(s.strike) };
