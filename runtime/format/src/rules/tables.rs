//! Lookup tables (damage, critical, random terrain, victory levels, scenario selection): rows
//! by key, and the outcome each row applies.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// What a lookup table is indexed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LookupKey {
    /// A dice roll given by `dice`.
    Roll,
    /// Margin of success of the combat roll (Quick-Start damage tables).
    MarginOfSuccess,
    /// MoS + RAV − AV (full rules combat damage table).
    FinalResult,
    /// Victory ratio × 10 (winner's score ÷ loser's score, one decimal).
    VictoryRatioTenths,
    /// Not rolled: the rows are a list of named entries, `min`/`max` number them (1, 2, …).
    Ordinal,
}

/// Effects of a table row, applied by the engine's procedures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Damage points to the defender (or the losing model in close combat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Damage points to both models (close combat tie).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_both: Option<u32>,
    /// Pilot check with this modifier (0 = plain check), in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_check: Option<i32>,
    /// Model states applied (ids of model-state documents).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub states: Vec<Id>,
    /// Roll on the critical damage table.
    #[serde(default)]
    pub critical: bool,
    /// Change to action points per activation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points: Option<i32>,
    /// Action points set to this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points_set: Option<u32>,
    /// Change to MV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_value: Option<i32>,
    /// MV multiplied by this factor (rounded down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_factor: Option<f64>,
    /// Lasting modifier to the model's combat rolls, in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_modifier: Option<i32>,
    /// The model can make no more combat actions.
    #[serde(default)]
    pub no_combat: bool,
    /// All RAV and CCV become 0.
    #[serde(default)]
    pub weapons_zeroed: bool,
    /// The model is destroyed (crew killed).
    #[serde(default)]
    pub destroyed: bool,
    /// A result that is chosen or placed (terrain type id, victory level id, scenario id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Id>,
    /// A number the row gives (e.g. a starting threat value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// One row of a lookup table; `max` absent on the last row means "and above".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRow {
    pub min: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    /// Label, in our words.
    pub name: String,
    #[serde(default)]
    pub effect: Outcome,
    /// Footnote ids this row carries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub footnotes: Vec<Id>,
}

/// A footnote of a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Footnote {
    pub id: Id,
    pub text: String,
}

/// A lookup table: damage tables, critical tables, random terrain, victory levels, scenario selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub id: Id,
    pub name: String,
    pub key: LookupKey,
    /// Dice expression when `key` is `roll`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// Rows in ascending order, without gaps.
    pub rows: Vec<TableRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub footnotes: Vec<Footnote>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
