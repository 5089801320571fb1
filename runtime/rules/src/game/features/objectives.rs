//! Objective areas scored at each turn's end (001 L2473-2501). (Who holds them, and the victory
//! they decide at the turn limit, are in `victory`.)

use super::Feature;
use crate::game::*;

/// The scenario's objective areas (`ObjectiveDef`).
pub(crate) static OBJECTIVES: Feature =
    Feature { configured_by, scoring: Some(scoring), ..Feature::new(cav_format::vocab::Feature::Objectives) };

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules
        .scenarios
        .iter()
        .any(|s| s.victory == cav_format::VictoryKind::ObjectivePoints)
        .then_some("a scenario won by objective points")
}

fn scoring(e: &mut Engine) {
    if let Some((side, points, areas)) = e.score_objectives() {
        let name = e.game.sides[side].clone();
        emit!(e, Event::ObjectiveScored { side: name, points, areas });
    }
}
