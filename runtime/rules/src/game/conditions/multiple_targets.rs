//! `multiple-targets`: the combat action's targets beyond the first (split fire, 001
//! L5075-5107; a target-lock on another model this activation, L5826-5832).

use super::*;

pub static MULTIPLE_TARGETS: Condition = Condition { id: "multiple-targets", test: |_, s, _| s.extra_targets };
