//! `defender-arc-`: the attacker stands in this arc around the defender
//! (`procedures.sight.defense_arcs`, 003 L126-130): its bearing off the defender's facing is
//! past the arcs before it and at most this one's `up_to` (on a line between two arcs, the
//! forward one).

use super::*;

pub static DEFENDER_ARC: Condition = Condition {
    id: "defender-arc-",
    test: |g, s, arg| {
        let Some(d) = s.defender else { return 0 };
        let (attacker, defender) = (&g.models[s.attacker], &g.models[d]);
        let off = angle_diff(defender.facing, defender.pos.bearing(attacker.pos)).abs();
        let arcs = &g.rules.proc.sight.defense_arcs;
        holds(arcs.iter().position(|a| off <= a.up_to + 1e-9) == Some(usize::from(arg)))
    },
};
