//! Combat actions: salvos, split fire, mixed weapon types, run 'n gun, and calling a
//! battlefield strike package.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// What a salvo may mix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SalvoRules {
    /// Weapons of one system but different classes (light and medium LBGs) fire one salvo, at
    /// the RAV of the weakest of them.
    pub mixed_classes: bool,
}

/// Split fire: one combat action, several targets, each with its own weapons.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MultipleTargetRules {
    /// The targets must all stand in one firing arc of the attacker (front, back, left, right).
    pub same_arc: bool,
    /// Every attack rolls at the band of the farthest target.
    pub farthest_band: bool,
    /// A target-lock taken this activation on a model the combat action does not attack counts
    /// as one more target.
    pub lock_counts: bool,
}

/// Direct-fire attacks with more than one weapon type (by models without the `infantry` trait):
/// every weapon rolls at the farthest band any of them is in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MixedWeaponRules {
    /// The band (id) the weapons in range roll at when a declared weapon turns out to be out of
    /// range.
    pub out_of_range_band: Id,
}

/// Run 'n gun.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunNGunRules {
    /// Move actions' worth of (reduced) MV the model moves before its assault.
    pub moves: u32,
    /// MV lost during a run 'n gun.
    pub mv_penalty: u32,
    /// At or below this MV the penalty is `low_mv_penalty` instead.
    pub low_mv: u32,
    pub low_mv_penalty: u32,
}

/// Calling a battlefield strike package (001 L11009-11071): a model with the caller special
/// attribute (`force_building.strike_caller_sa`) spends the strike's cost from its side's pool for
/// the strike's package, names a point within the strike's range of its centre and rolls for the
/// strike point at `strike_point_tp` (no range bands), with the modifiers of the ruleset's
/// `strike_package_modifiers` table (the caller's FIST rating), not those of its own weapons'
/// strike-point rolls. Every model under the strike's area is then attacked
/// with the strike's profile, on the ruleset's pre-set dice (`dice.preset_tp`) against its
/// `base_tp`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikePackageRules {
    #[schemars(range(min = 2, max = 100))]
    pub strike_point_tp: i32,
}
