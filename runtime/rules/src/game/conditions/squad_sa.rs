//! `squad-sa-<SA>`: the other models of the roller's squad, on the table, that have the special
//! attribute (FCS links squad-mates: 001 L7311-7325).

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
            .count() as i32
    },
};
