//! `friends-in-contact`: friendly models in base contact with the roller (counts them).

use super::*;

pub static FRIENDS_IN_CONTACT: Condition =
    Condition { id: "friends-in-contact", test: |g, s, _| in_contact(g, s.attacker, true) };
