//! Structures: a terrain's sections and armor class, models pushing through them, attacks on
//! them and their collapse.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// A structure type: damage points per section, the section's size (2"×2" in the full rules) and
/// armor class (001 L5905-6090).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureDef {
    /// Damage points per section.
    #[schemars(range(min = 1, max = 1000))]
    pub damage_points: u32,
    /// The side of one square section in inches: a building has its area's worth of sections
    /// (at least one), and a model crossing it meets one per this many inches of its path.
    #[schemars(range(min = 0.25, max = 100.0))]
    pub section: f64,
    #[schemars(range(max = 100))]
    pub armor_class: u32,
    /// Hard (hardened) or soft.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hard: bool,
}

/// Models of these types moving into or through a structure make an opposed roll for each
/// 2"×2" section crossed — their EXP against its armor class — and take `damage` for each lost
/// (001 L6154-6164).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureMovementRules {
    pub model_types: Vec<ModelType>,
    pub damage: u32,
}

/// Attacking a structure (001 L6170-6303): direct fire at a point of it, a combat roll helped by
/// `target_bonus` (structures are always stationary), then, when MoS + RAV reaches its armor
/// class, the structure damage table by the final result, and its critical table. A structure
/// out of damage points, or whose critical says `collapse_result`, becomes `collapse_terrain`:
/// models inside of `collapse_removes` types leave play, the others take `collapse_damage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureAttackRules {
    pub target_bonus: i32,
    pub collapse_terrain: Id,
    pub collapse_result: Id,
    /// The critical result that sets the structure burning (armor class and damage points −1 at
    /// every turn's end).
    pub burning_result: Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collapse_removes: Vec<ModelType>,
    pub collapse_damage: u32,
}
