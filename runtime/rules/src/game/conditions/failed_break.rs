//! `failed-break`: the roller failed a break this turn.

use super::*;

pub static FAILED_BREAK: Condition = Condition { id: "failed-break", test: |_, s, _| holds(s.failed_break) };
