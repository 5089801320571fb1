//! `squad-sa-<SA>`: the other models of the roller's squad, on the table, that have the special
//! attribute — within its reach where its levels give one (FCS links squad-mates within 36":
//! 001 L7311-7325, L7345).

use super::*;

pub static SQUAD_SA: Condition = Condition {
    id: "squad-sa-",
    test: |g, s, arg| {
        let Some(squad) = g.models[s.attacker].squad else { return 0 };
        g.squads[squad]
            .members
            .iter()
            .filter(|&&m| m != s.attacker && g.models[m].on_table())
            .filter(|&&m| rating(g.card(m).sas.iter(), arg) > 0)
            .filter(|&&m| {
                g.rules.sas[arg as usize].reach.is_none_or(|r| g.models[m].pos.dist(g.models[s.attacker].pos) <= r)
            })
            .count() as i32
    },
};
