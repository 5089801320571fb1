//! Reactions out of turn: defensive fire, counter-battery fire, close defense (Anti-Infantry)
//! and over-watch.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// Defensive fire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefensiveFireRules {
    /// Farthest range band (id) defensive fire may reach.
    pub max_band: Id,
    /// Defensive fire takes no modifier that helps it (Quick-Start); otherwise the combat
    /// modifier table's `defensive-fire` row applies like any other.
    pub drops_bonuses: bool,
}

/// Counter-battery fire: a model with the special attribute `sa`, targeted by an enemy's
/// indirect attack or with an enemy strike point landing within `within` inches, answers at once
/// with an indirect attack whose strike point is the firing model's place, no strike-point roll
/// (the `counter-battery` action type's cost, paid from its next activation; the combat roll's
/// `counter-battery` row) — unless it made a combat action this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterBatteryRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub within: f64,
}

/// A reaction at close quarters (Anti-Infantry): a model with the special attribute `sa`,
/// attacked (combat or close combat) by an enemy model with the trait `against` from within
/// `reach` inches, may strike first, before that attack's rolls: an area attack centred on
/// itself with `rav` and `special_attributes` (its area, Limited Ammo, …), each combat roll on
/// the standard dice against `tp`. It costs `cost` AP, paid from its next activation, and is
/// refused when that would leave it owing more than a whole activation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseDefenseRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub against: crate::ModelTrait,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub reach: f64,
    pub cost: u32,
    #[schemars(range(max = 100))]
    pub tp: u32,
    pub rav: crate::Rav,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<crate::SaRef>,
}

/// Over-watch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverwatchRules {
    /// AP cost of each further attack from a watch already fired from: paid by renewing the
    /// watch in a later activation, or owed by the next activation when the model fires.
    pub refire_cost: u32,
    /// Model state a model gains when it goes on over-watch (Stationary in the full rules);
    /// absent = none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Id>,
}
