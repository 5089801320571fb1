//! `extra-woods`: the woods along the line of sight are worth more points than the cover type's
//! own modifier (light 1, heavy 2); holds once per extra point (the full rules' woods stacking,
//! 001 L4161-4181: two intervening light woods and the defender's own near its edge are heavy
//! cover worth +3).

use super::*;

pub static EXTRA_WOODS: Condition = Condition { id: "extra-woods", test: |_, s, _| s.cover_extra.max(0) };
