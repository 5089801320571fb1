//! `attacker-burning-hacked-stunned-suppressed`: the attacker has any of the states its id names
//! (001 L4683, L4711: one modifier however many of them it has).

use super::*;

const ID: &str = "attacker-burning-hacked-stunned-suppressed";

pub static ATTACKER_DISRUPTED: Condition = Condition {
    id: ID,
    test: |g, s, _| {
        let states = &g.rules.states;
        holds(g.models[s.attacker].states.iter().any(|(st, _)| ATTACKER_DISRUPTED.names(&states[*st as usize].id)))
    },
};

impl Condition {
    /// Whether this condition's id names the state `id` (`attacker-burning-hacked-…`); a table
    /// row with it replaces those states' own roll modifiers, as `attacker-<state>` rows do.
    pub fn names(&self, id: &str) -> bool {
        self.id == ID && ID.trim_start_matches("attacker-").split('-').any(|n| n == id)
    }
}
