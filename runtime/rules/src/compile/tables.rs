//! Compiled modifier tables and lookup tables: conditions resolved, rows indexed.

use super::*;

/// A condition as a compiled modifier tests it: which of the engine's conditions
/// (`game::conditions::ALL`, by index: the compiled rules hold ids, not the engine's code) and
/// what a family member names (band, state or SA index; 0 for fixed ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cond {
    pub id: CondId,
    pub arg: u16,
}

/// An index into `game::conditions::ALL` (`game::conditions::find`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CondId(pub u8);

impl Cond {
    /// A condition the engine does not play (recognised but not implemented): it never holds.
    pub const NEVER: Cond = Cond { id: CondId(u8::MAX), arg: 0 };
}

/// One compiled situation modifier.
#[derive(Debug, Clone)]
pub struct Mod {
    pub name: String,
    /// Normalised: positive helps the roller.
    pub value: i32,
    pub scale: Scale,
    pub max: Option<i32>,
    /// `max` is per weapon fired.
    pub max_per_weapon: bool,
    pub cond: Cond,
    /// Further conditions that must all hold.
    pub also: Vec<Cond>,
    /// `Scale::Steps`: the value by what `count` counts, 0 included (`f::SituationModifier::
    /// steps`): (at most, value), normalised. Such a row's `cond` is `always`, so the rows
    /// without steps, walked for every roll, pay nothing for them.
    pub steps: Box<[(Option<i32>, i32)]>,
    pub count: Cond,
}

/// What a compiled modifier row scales with: the pack's `scale`, or its `steps`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Once,
    PerRating,
    PerCount,
    PerAdditional,
    PerWeapon,
    Steps,
}

impl From<f::ModifierScale> for Scale {
    fn from(s: f::ModifierScale) -> Scale {
        match s {
            f::ModifierScale::Once => Scale::Once,
            f::ModifierScale::PerRating => Scale::PerRating,
            f::ModifierScale::PerCount => Scale::PerCount,
            f::ModifierScale::PerAdditional => Scale::PerAdditional,
            f::ModifierScale::PerWeapon => Scale::PerWeapon,
        }
    }
}

impl Mod {
    /// The step value for `count` (`None`: past every step).
    pub fn step(&self, count: i32) -> Option<i32> {
        self.steps.iter().find(|(most, _)| most.is_none_or(|m| count <= m)).map(|&(_, v)| v)
    }
}

#[derive(Debug, Clone)]
pub struct Band {
    pub id: String,
    pub name: String,
    pub multiplier: f64,
    pub combat_tp: i32,
    pub strike_point_tp: i32,
    pub drift_bonus: u32,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub min: i32,
    pub max: Option<i32>,
    pub name: String,
    pub damage: u32,
    pub damage_both: u32,
    /// Normalised pilot-check modifier (positive helps the pilot).
    pub pilot_check: Option<i32>,
    pub states: Vec<StateIx>,
    pub critical: bool,
    pub action_points: i32,
    pub action_points_set: Option<u32>,
    pub move_value: i32,
    pub move_factor: Option<f64>,
    /// Normalised lasting modifier to the model's combat rolls.
    pub combat_modifier: i32,
    pub no_combat: bool,
    pub weapons_zeroed: bool,
    pub destroyed: bool,
    pub result: Option<String>,
    /// A number the row's `result` names (a structure's armor-class change).
    pub value: i32,
}

#[derive(Debug, Clone, Default)]
pub struct LookupTable {
    pub name: String,
    /// What the table is indexed by (the combat damage table: the margin of success or the final
    /// result); `None` for a table the ruleset does not name.
    pub key: Option<f::LookupKey>,
    pub dice: Option<DiceExpr>,
    pub rows: Vec<Row>,
}

impl LookupTable {
    pub fn row(&self, key: i32) -> Option<&Row> {
        self.rows.iter().find(|r| key >= r.min && r.max.is_none_or(|m| key <= m)).or_else(|| {
            // Below the first row: the first row (a table that starts at 0 and a key of 0 or less).
            self.rows.first().filter(|r| key < r.min)
        })
    }
}
