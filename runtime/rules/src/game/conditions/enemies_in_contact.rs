//! `enemies-in-contact`: enemy models in base contact with the roller (counts them).

use super::*;

pub static ENEMIES_IN_CONTACT: Condition =
    Condition { id: "enemies-in-contact", test: |g, s, _| in_contact(g, s.attacker, false) };
