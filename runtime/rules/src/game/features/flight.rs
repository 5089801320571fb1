//! Flight's moments of the turn: nap of the earth ends with the actions the ruleset names
//! (`flight.noe_ends_with`), and with an activation that does not end with an NoE move. (The flight actions — land, take off,
//! the NoE move — are in `actions::flight`.)

use super::Feature;
use crate::game::*;

/// What flight keeps on a model: it is flying nap of the earth; `noe_last` — its activation's
/// last action so far was an NoE move.
#[derive(Debug, Clone, Default)]
pub struct OnModel {
    pub noe: bool,
    pub noe_last: bool,
}

/// Aircraft flying nap of the earth.
pub(crate) static FLIGHT: Feature = Feature {
    configured_by,
    action_declared: Some(action_declared),
    activation_ending: Some(activation_ending),
    ..Feature::new(cav_format::vocab::Feature::Flight)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.proc.flight.is_some().then_some("`procedures.flight`")
}

/// The ruleset's `flight.noe_ends_with` actions end it (an NoE move says so itself).
fn action_declared(e: &mut Engine, model: usize, _: &Action, counts_as: ActionWord) {
    if e.rules().proc.flight.as_ref().is_some_and(|f| f.noe_ends_with.contains(&counts_as)) {
        e.end_noe(model);
    }
    // Only an NoE move (which says so as it resolves) keeps it to the activation's end.
    e.game.models[model].features.flight.noe_last = false;
}

fn activation_ending(e: &mut Engine, model: usize) {
    if !e.game.models[model].features.flight.noe_last {
        e.end_noe(model);
    }
}
