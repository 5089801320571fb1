//! Battlefield assets: placement, footprint, minefields and weapon emplacements.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::{AttackProfile, Cost, is_zero};

/// A battlefield asset (Appendix C).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Asset {
    pub id: Id,
    pub name: String,
    pub cost: Cost,
    pub placement: AssetPlacement,
    /// Footprint and elevation in our words ("3\"×1\" wall, E1").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Cover it gives to models behind or in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<crate::rules::Cover>,
    /// The terrain piece the asset is on the table (its cover, elevation, movement costs, a
    /// structure's sections): scenario tests place it with `terrain: [{asset: …}]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Option<Id>,
    /// Other terrain pieces a buyer may set down instead of `terrain`, at the same price (a
    /// roster's `variant:`: the vehicle revetment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub variants: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackProfile>,
    /// A minefield: scenario tests lay it with `terrain: [{asset: …, side: …}]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mines: Option<Mines>,
    /// A weapon emplacement: model cards naming this asset (`emplacement:`) are its weapons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emplacement: Option<Emplacement>,
    /// The piece's footprint on the table (inches): what a roster's pre-deployment piece covers
    /// when `cav play` sets it down (a minefield's template, a trench section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Footprint>,
    /// How many of it a force group may buy for each squad it fields (SIGINT, recon drones,
    /// resupply drops: one); `cav force check` holds a roster to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 99))]
    pub max_per_squad: Option<u32>,
    /// Purchase or use limits in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// What the asset does while a side holds it off the table (`draw_deck_card`,
    /// `skip_card`, `reload_ammo_bins`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// When an asset comes into play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AssetPlacement {
    PreDeployment,
    DuringPlay,
    EndPhase,
    DrawDeck,
}

/// A minefield (001 L10701-10761): it attacks each enemy model (of the kind `against`) that
/// touches it during a move action, once per action, with the asset's `attack` (its RAV, its
/// base target point on the pre-set dice), and is spent after `charges` attacks. Models of the
/// side that laid it pass safely.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mines {
    pub against: MinesAgainst,
    #[schemars(range(min = 1, max = 100))]
    pub charges: u32,
}

/// What a minefield attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MinesAgainst {
    /// Models on the ground (not aircraft in flight).
    Ground,
    /// Aircraft flying nap of the earth over it.
    LowFlying,
}

/// A weapon emplacement (001 L10544-10564): each of its weapon cards stands in the asset's
/// `terrain:` piece, laid under it; a side's emplacements share one activation (one draw-deck
/// card), in which each has `action_points`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Emplacement {
    #[schemars(range(max = 10))]
    pub action_points: u32,
    /// Added to its price when its weapon sits in a roof turret (a card mounting it on `T`);
    /// the asset's `cost` is per bunker section, and the weapon card's own TV is added too.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = 10000))]
    pub turret_tv: u32,
}

/// An asset piece's footprint: round (`radius`), or `length` by `width`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Footprint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub radius: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub length: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub width: Option<f64>,
}
