//! Modifier tables: the situation modifiers of one kind of roll, each with its condition.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// What a roll modifier scales with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModifierScale {
    /// Applied once.
    Once,
    /// Times the SA's rating.
    PerRating,
    /// Times each additional weapon / target / attempt beyond the first.
    PerAdditional,
    /// Times each weapon declared or fired.
    PerWeapon,
    /// Times what the condition counts (models in contact, an SA's rating).
    PerCount,
}

/// One situation modifier of a roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationModifier {
    pub id: Id,
    /// Label shown in the narrative.
    pub name: String,
    /// Amount in the ruleset's modifier convention.
    pub value: i32,
    #[serde(default = "ModifierScale::once")]
    pub scale: ModifierScale,
    /// Largest total this modifier may reach (absolute value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    /// `max` counts per weapon fired: a cut that may cancel a per-weapon penalty but never turn
    /// it into a bonus (Assault against Run 'N Gun's +1 per weapon).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub max_per_weapon: bool,
    /// Condition id the engine tests (`light-cover`, `band-long`, `defender-knockdown`, …): a word
    /// of the engine's vocabulary (docs/vocabulary.md).
    #[schemars(schema_with = "crate::vocab::condition_schema")]
    pub condition: Id,
    /// Further conditions that must all hold (e.g. `target-locked` for a targeting computer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "crate::vocab::conditions_schema")]
    pub also: Vec<Id>,
    /// The modifier by what the condition counts, 0 included (hexes a target moved: 003
    /// L112-124): the first step whose `at_most` the count does not pass gives its `value` (in
    /// place of `value`); the last step may leave `at_most` out, for any count above; a count
    /// above every step takes none. `scale` must be `once`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 64))]
    pub steps: Vec<CountStep>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// One step of a modifier by count (`SituationModifier::steps`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountStep {
    /// The highest count it covers; left out on the last step: any higher count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i32>,
    pub value: i32,
}

impl ModifierScale {
    fn once() -> Self {
        ModifierScale::Once
    }
}

/// Which roll a modifier table modifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    CombatRoll,
    IndirectCombatRoll,
    StrikePointRoll,
    PilotCheck,
    RepairRoll,
    CloseCombatRoll,
    BreakRoll,
    /// The damage roll of each hit under `procedures.attack`.
    DamageRoll,
}

/// A table of situation modifiers for one kind of roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierTable {
    pub id: Id,
    pub name: String,
    pub roll: RollKind,
    pub modifiers: Vec<SituationModifier>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
