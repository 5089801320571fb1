//! `band-`: the attack is in the range band (the family `band-<band id>`; `arg` is the band's index).

use super::*;

pub static BAND: Condition = Condition { id: "band-", test: |_, s, arg| holds(s.band == Some(usize::from(arg))) };
