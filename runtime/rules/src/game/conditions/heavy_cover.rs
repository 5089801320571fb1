//! `heavy-cover`: the defender has heavy cover.

use super::*;

pub static HEAVY_COVER: Condition =
    Condition { id: "heavy-cover", test: |_, s, _| holds(s.cover == Some(Cover::Heavy)) };
