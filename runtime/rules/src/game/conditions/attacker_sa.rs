//! `sa-`: the roller (model or weapon) has the special attribute (`sa-<SA id>`; counts its rating).

use super::*;

pub static ATTACKER_SA: Condition = Condition {
    id: "sa-",
    test: |g, s, arg| {
        let card = g.card(s.attacker);
        let weapon_sas = s.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        // A weapon's special attribute given under a condition counts only while it holds.
        let holds = |&&(sa, _): &&(u16, i32)| s.weapon.is_none_or(|w| g.mount_sa_holds(s.attacker, w, sa, s.defender));
        rating(card.sas.iter().chain(weapon_sas.iter().filter(holds)), arg)
    },
};
