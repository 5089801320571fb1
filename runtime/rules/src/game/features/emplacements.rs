//! Weapon emplacements (001 L10544-10562): an asset placed as a model that fires once on its
//! side's card.

use super::Feature;
use crate::game::*;

/// Weapon emplacements (`CardDef::emplacement`).
pub(crate) static EMPLACEMENTS: Feature = Feature {
    configured_by,
    action_points: Some(action_points),
    ..Feature::new(cav_format::vocab::Feature::Emplacements)
};

fn configured_by(rules: &Rules) -> Option<&'static str> {
    rules.assets.iter().any(|a| a.emplacement_ap.is_some()).then_some("an asset with `emplacement:`")
}

/// A weapon emplacement's action points are its asset's (`emplacement_ap`) at most.
fn action_points(e: &mut Engine, model: usize, ap: u32, _: &mut dyn Controller) -> u32 {
    match e.cardr(model).emplacement.and_then(|a| e.rules().assets[a].emplacement_ap) {
        Some(limit) => ap.min(limit),
        None => ap,
    }
}
