//! Flight's moments of the turn: nap of the earth ends with a combat action (001 L3749-3750), and
//! with an activation that does not end with an NoE move. (The flight actions — land, take off,
//! the NoE move — are in `actions::flight`.)

use super::Feature;
use crate::game::*;

/// Aircraft flying nap of the earth (`Model::noe`).
pub(crate) struct Flight;

impl Feature for Flight {
    fn name(&self) -> &'static str {
        "nap of the earth"
    }
    /// An NoE move says so itself; any other action is not one.
    fn action_declared(&self, e: &mut Engine, model: usize, _: &Action, counts_as: ActionWord) {
        if counts_as == ActionWord::Combat {
            e.end_noe(model);
        }
    }
    fn activation_ending(&self, e: &mut Engine, model: usize) {
        if !e.game.models[model].noe_last {
            e.end_noe(model);
        }
    }
}
