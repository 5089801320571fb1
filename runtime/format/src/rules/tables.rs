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
    /// What a hit of the ruleset's attack deals, counted as `procedures.attack.damage_table`
    /// says (the margin times the weapon's DM, in whole multiples of the target's armor).
    AttackDamage,
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
    /// Lasting changes to the model's attributes (of the ruleset's `attributes:`, not one with a
    /// `role`): `armor: -1`, or a share of its value, `crew: {percent: -10, at_least: 1}`. The
    /// value stays within the attribute's `min`/`max`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    #[schemars(extend("maxProperties" = 16))]
    pub attributes: std::collections::BTreeMap<Id, AttributeChange>,
    /// A lasting modifier to one weapon's rolls, in the ruleset's convention: the weapon is
    /// chosen by a die among the model's weapons not lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -100, max = 100))]
    pub weapon_modifier: Option<i32>,
    /// One weapon, chosen by a die among those not lost, is lost: it fires no more.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub weapon_lost: bool,
    /// Roll on these tables in turn (their `key: roll`, their dice plus `add`), each row applied
    /// to the same model: a system damage table's sub-tables.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 4))]
    pub roll_on: Vec<TableRoll>,
    /// Roll this table this many times more, with the same dice and `add` ("roll twice on this
    /// table": 2). A chain of rolls ends at `MAX_TABLE_ROLLS` rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 4))]
    pub roll_again: Option<u32>,
}

/// A lasting change to an attribute (`Outcome::attributes`): a number added, or a share of the
/// current value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum AttributeChange {
    /// Added to the value (`-1`).
    By(#[schemars(range(min = -100, max = 100))] i32),
    /// A share of the value, rounded toward 0: `{percent: -75, at_least: 1}` takes three quarters
    /// of it away, and at least 1.
    Share(ShareChange),
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareChange {
    /// The share of the current value added (negative: taken away), in percent.
    #[schemars(range(min = -100, max = 100))]
    pub percent: i32,
    /// The least the value changes by, in the share's direction.
    #[serde(default)]
    #[schemars(range(min = 0, max = 100))]
    pub at_least: u32,
}

/// A roll on another table (`Outcome::roll_on`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRoll {
    /// The table (`kind: table`, `key: roll`).
    #[schemars(extend("x-cav-ref" = "table"))]
    pub table: Id,
    /// Added to its dice ("roll on sub-table A, +1").
    #[serde(default)]
    #[schemars(range(min = -20, max = 20))]
    pub add: i32,
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
