//! Objective areas scored at each turn's end (001 L2473-2501). (Who holds them, and the victory
//! they decide at the turn limit, are in `victory`.)

use super::Feature;
use crate::game::*;

/// The scenario's objective areas (`ObjectiveDef`).
pub(crate) struct Objectives;

impl Feature for Objectives {
    fn name(&self) -> &'static str {
        "objective areas"
    }
    fn scoring(&self, e: &mut Engine) {
        if let Some((side, points, areas)) = e.score_objectives() {
            let name = e.game.sides[side].clone();
            emit!(e, Event::ObjectiveScored { side: name, points, areas });
        }
    }
}
