//! `sa-`: the roller (model or weapon) has the special attribute (`sa-<SA id>`; counts its rating).

use super::*;

pub static ATTACKER_SA: Condition = Condition {
    id: "sa-",
    test: |g, s, arg| {
        let card = g.card(s.attacker);
        let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        rating(card.sas.iter().chain(weapon_sas), arg)
    },
};
