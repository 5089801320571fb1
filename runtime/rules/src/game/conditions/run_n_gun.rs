//! `run-n-gun`: the assault of a run 'n gun action.

use super::*;

pub static RUN_N_GUN: Condition = Condition { id: "run-n-gun", test: |_, s, _| holds(s.weapons_fired > 0) };
