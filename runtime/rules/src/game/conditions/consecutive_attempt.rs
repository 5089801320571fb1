//! `consecutive-attempt`: a further strike-point attempt at the same point.

use super::*;

pub static CONSECUTIVE_ATTEMPT: Condition = Condition { id: "consecutive-attempt", test: |_, s, _| s.attempts.max(0) };
