//! `light-cover`: the defender has light cover.

use super::*;

pub static LIGHT_COVER: Condition =
    Condition { id: "light-cover", test: |_, s, _| holds(s.cover == Some(Cover::Light)) };
