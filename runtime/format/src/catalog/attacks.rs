//! Attack profiles: what munitions, assets and strikes attack with, and what they leave where
//! they land (terrain, minefields, clouds, seeking submunitions).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

use super::{Cost, is_zero};

/// An attack profile: the stats a munition, asset or strike attacks with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackProfile {
    /// Launcher weapon id for munitions; absent for assets and strikes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub launcher: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Distance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rav: Option<Rav>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<SaRef>,
    /// Pre-set base target point (rolled on the ruleset's pre-set dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_tp: Option<u32>,
    /// Separate combat rolls each model under the attack takes (Orbital Precision Strike: 3);
    /// absent: one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 10))]
    pub combat_rolls: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Munitions only: the munition fires as this weapon (its range, fire mode, target-lock
    /// need, the targets it cannot attack and its special attributes), with the profile's RAV,
    /// range and special attributes over them (a pylon's guided missile fires as the Medium
    /// Guided Missile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub fires_as: Option<Id>,
    /// Munitions only: the mount fires once in the game, then it is spent (out of ammo).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub single_use: bool,
    /// Munitions only: a laser-guided shell (FASCAM's dearer version): the `laser-guided`
    /// condition holds for its rolls, so a ruleset may reward a TAG's paint on its target.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub laser_guided: bool,
    /// Munitions only: a bomb dropped from an aircraft in flight (not nap of the earth) on the
    /// ground beneath it, as an indirect attack with no strike-point roll: `exact` lands where
    /// the aircraft is, `drifts` always drifts from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped: Option<Dropped>,
    /// Munitions and strikes: the area is a strip this long and wide, centred on the point,
    /// instead of a circle: a bomb's along the aircraft's heading (the Bomb Rack's carpet; with
    /// `dropped` only), a strike's in the direction declared with the call (a gunship's strafing
    /// corridor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip: Option<Strip>,
    /// Munitions and strikes: the minefield (an asset with `mines:`) laid at the final strike
    /// point instead of an attack there (FASCAM, cluster munitions). Its template is the
    /// attack's area; its mines attack with this profile (RAV, base TP) and spare no side; the
    /// asset gives what they attack and how many charges they hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub lays: Option<Id>,
    /// Munitions and strikes: terrain left at the final strike point, besides any attack there
    /// (a smoke shell's cloud, a smoke screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaves: Option<Leaves>,
    /// Munitions and strikes: after the attack where it lands, a cloud as wide as the attack's
    /// area lingers there for the rest of the game (the nano-disassemblers'): it attacks with
    /// this profile every model that moves into it, friend or foe, once per action; at each
    /// turn's end, if no model is in it, it drifts (a drift roll, its direction counted from the
    /// table's top edge), stopping short of any model; an attack by a weapon it names destroys it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloud: Option<Cloud>,
    /// Munitions and strikes: what the blast destroys outright, with no roll, in its area before
    /// any attack there (the MOAB's overpressure, a Super-Thermex warhead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroys: Option<Destroys>,
    /// Munitions only: a seeking submunition (SADARM) instead of an attack on every model in
    /// the area: one attack, on the pre-set dice against the profile's base TP, at a single enemy
    /// model of these types in the area that a TAG paints for the firer (its own, or a friend's
    /// paint). With none there as it lands, it waits over the point until the firer's next
    /// activation begins, and attacks the first that is there and painted as an action ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeks: Option<Seeks>,
}

/// What a seeking submunition attacks (`AttackProfile::seeks`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seeks {
    /// The model types it attacks (an enemy's, painted by a TAG).
    #[schemars(length(min = 1))]
    pub model_types: Vec<crate::vocab::ModelType>,
}

/// What a blast destroys outright (`AttackProfile::destroys`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Destroys {
    /// Soft models (a model card the ruleset counts soft and not hard).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
    /// Structures that are not hardened: they collapse.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub structures: bool,
    /// Woods it reaches (obscuring terrain that does not lift; not a screen laid in play for a
    /// while, such as smoke) become this terrain (the trees it fells leave rough ground).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub fells_woods_to: Option<Id>,
}

/// A lingering cloud (`AttackProfile::cloud`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cloud {
    /// Weapons whose attack destroys the cloud with no roll: fired at a point in it, or a
    /// template that reaches it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub cleared_by: Vec<Id>,
    /// Single-use upgrades that meet it (the External Anti-Nano Pod's pulse): a model carrying
    /// one with a use left that the landing shell reaches, or that moves into the cloud, spends
    /// one; the cloud is destroyed and does not attack that model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    pub stopped_by: Vec<Id>,
}

/// Terrain an attack leaves where it lands (`AttackProfile::leaves`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leaves {
    /// The terrain type laid (`smoke`).
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// A strip this long and wide, centred on the point, in the direction the declaration names
    /// (a smoke screen); absent: a circle as wide as the attack's area of effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip: Option<Strip>,
    /// How long the piece stays, rolled when it is laid.
    pub lasts: Lasting,
}

/// How long laid terrain stays: `dice`, halved (rounded up) when `halved`, plus `add`, counted
/// in `counts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lasting {
    /// The dice rolled (`1d6`).
    pub dice: String,
    /// The roll is halved, rounded up (the Smoke special attribute's 1d6/2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halved: bool,
    /// Added to the roll (a smoke screen's 1d6+1).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = 100))]
    pub add: u32,
    /// What the number counts.
    pub counts: LastsFor,
}

/// What a laid piece's life is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LastsFor {
    /// Activations of the model that laid it: lifted as the last of them starts.
    Activations,
    /// Turns: lifted in the end phase of the last of them.
    Turns,
}

/// How a dropped bomb lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dropped {
    /// On the point beneath the aircraft.
    Exact,
    /// It always drifts from the point beneath the aircraft (no range band's extra inches).
    Drifts,
}

/// A strip-shaped area, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strip {
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub length: f64,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub width: f64,
}
