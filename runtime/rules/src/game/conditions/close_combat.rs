//! `close-combat`: the roll is a close-combat roll (an assault on a model in base contact).

use super::*;

pub static CLOSE_COMBAT: Condition = Condition { id: "close-combat", test: |_, s, _| holds(s.close_combat) };
