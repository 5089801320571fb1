//! Weapon systems: fire mode, range and RAV, the targets they may not attack, template strips
//! and guided strikes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// A weapon system (Appendix E).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: Id,
    pub name: String,
    /// Weapon class, e.g. `Guided Missile`; left out by a game without weapon classes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub class: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub fire: FireMode,
    /// Short range band (RNG); medium, long and extreme derive from it through the range-band table.
    pub range: Distance,
    /// `NA` when the munition supplies it (artillery); left out: 0 (a game whose attack reads no
    /// RAV, `procedures.attack`).
    #[serde(default = "Rav::zero")]
    pub rav: Rav,
    #[serde(default)]
    pub special_attributes: Vec<SaRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard_points: Option<HardPoints>,
    #[serde(default)]
    pub restriction: Restriction,
    /// Threat value of the weapon in construction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tv: Option<u32>,
    /// Target classes this weapon cannot attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cannot_target: Vec<TargetClass>,
    /// Energy weapon (ion, laser, particle) — matters to some armor upgrades.
    #[serde(default)]
    pub energy: bool,
    /// Its damage profile comes from an ammo upgrade (howitzers, rocket artillery).
    #[serde(default)]
    pub ammo_dependent: bool,
    /// The firing model must hold a target-lock on the target (guided missiles).
    #[serde(default)]
    pub requires_target_lock: bool,
    /// A template weapon's (`fire: template`) strip, laid from the front of the firer's base
    /// towards the target: every model whose base it touches, friend or foe, gains the model
    /// state `gives`, with no combat roll (the Flamethrower's Burning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<WeaponTemplate>,
    /// An indirect weapon whose munition flies to the strike point and finishes there with a
    /// direct-fire roll (the infantry mortars' guided missiles): a missed strike point is lost,
    /// with no drift, and ends the combat action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guided_strike: Option<GuidedStrike>,
    /// Values of the weapon attributes its ruleset declares (`weapon_attributes:`), by id.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub attributes: std::collections::BTreeMap<Id, i32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// How a weapon delivers its attack. `melee`: a close-combat weapon, never shot; its model
/// fights with it in close combat (`procedures.melee`; Sythopian Wars' melee weapons, 002
/// L396-400).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FireMode {
    Direct,
    Indirect,
    Template,
    Special,
    Melee,
}

/// Target classes a weapon may be barred from attacking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetClass {
    Infantry,
    AircraftInFlight,
    Aircraft,
    Structure,
}

/// The strip a template weapon lays (`Weapon::template`), in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponTemplate {
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub length: f64,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub width: f64,
    /// The model state every model under it gains.
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub gives: Id,
}

/// How a guided indirect munition finishes its attack (`Weapon::guided_strike`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuidedStrike {
    /// The range band (by name, `Short`) whose target point the finishing direct-fire roll uses.
    pub band: String,
    /// Added to the strike-point roll (in the ruleset's convention) when the model aimed at is
    /// painted for the attacker (TAG).
    #[serde(default)]
    pub painted: i32,
}
