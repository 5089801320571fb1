//! Transport's moment of the turn: Airborne riders may jump as their flying transport's move ends
//! (001 L6499-6503). (Mounting and dismounting are actions: `actions::transport`.)

use super::Feature;
use crate::game::*;

/// What transport keeps on a model: the transport it rides in — off the table, in play (it
/// activates, to dismount, and counts for its side), and lost with the transport.
#[derive(Debug, Clone, Default)]
pub struct OnModel {
    pub aboard: Option<usize>,
}

/// Riders aboard transports.
pub(crate) static TRANSPORT: Feature = Feature {
    configured_by,
    action_resolved: Some(action_resolved),
    ..Feature::new(cav_format::vocab::Feature::Transport)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.proc.transport.is_some().then_some("`procedures.transport`")
}

fn action_resolved(
    e: &mut Engine,
    model: usize,
    path_from: usize,
    ctrl: &mut dyn Controller,
) -> Result<(), EngineError> {
    if e.game.models[model].on_table() && e.game.models[model].path.len() > path_from + 1 {
        e.airborne_jumps(model, ctrl)?;
    }
    Ok(())
}
