//! Battlefield upgrades: category, munition profiles, grants and variants.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::{AttackProfile, Cost};

/// A battlefield upgrade (Appendix B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upgrade {
    pub id: Id,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub category: UpgradeCategory,
    /// Flat cost; munitions give a cost per launcher profile instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(default)]
    pub restriction: Restriction,
    /// Per-launcher attack profiles of a munition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<AttackProfile>,
    /// Special attributes the upgrade grants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<SaRef>,
    /// The grants are alternatives for one weapon type (Amped Weapons: Piercing or Shredder): a
    /// roster fitting the upgrade names the weapon (`weapon:`) and the grant it takes (`choice:`),
    /// and only that weapon's mounts get it, with its RAV effects.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub choose_grant: bool,
    /// Each purchase is used once (the Claymore's one Anti-Infantry blast, a Satchel Charge):
    /// the close-defense reaction its grants arm fires once per purchase (a model that has it
    /// of its own keeps it), and its own conditional modifiers help one roll per purchase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub single_use: bool,
    /// It may be bought several times for the same model: a roster says how many (`times:`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeatable: bool,
    /// The ranks or sizes it is bought at (the Officer's Lieutenant to Colonel): a roster names
    /// one (`variant:`), whose cost, grant rating and carrier minimum replace the upgrade's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<UpgradeVariant>,
    /// Model states of a target its munition homes on: at a target in one of them it needs no
    /// target-lock (HARM homes on a switched-on APA or ECM, `apa-active`, `ecm-active`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub homes_on: Vec<Id>,
    /// A model state its Special action (1 AP) puts the model in: its grants apply only while
    /// the model is in it (the External Fire Control Pod's FCS, the Fire-Suppression System's
    /// Fire-Proof 1). The state's own `duration` says how long one switch lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub switch: Option<Id>,
    /// Upgrades in the same group exclude each other (`movement`, `armor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_group: Option<Id>,
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Upgrade category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeCategory {
    ArtilleryAmmo,
    GuidedMissileAmmo,
    PylonAmmo,
    RocketAmmo,
    General,
}

/// One rank or size of an upgrade (`Upgrade::variants`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpgradeVariant {
    pub id: Id,
    pub name: String,
    /// Its cost, counted like the upgrade's (`per_damage_track` and all).
    pub tv: u32,
    /// The rating of each special attribute the upgrade grants, at this variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// The fewest damage tracks its carrier may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_damage_tracks: Option<u32>,
}
