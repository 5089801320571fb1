//! `close-combat-support`: supporting models in base contact (counts them).

use super::*;

pub static CLOSE_COMBAT_SUPPORT: Condition = Condition { id: "close-combat-support", test: |_, s, _| s.supporters };
