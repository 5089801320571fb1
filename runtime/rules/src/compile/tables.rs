//! Compiled modifier tables and lookup tables: conditions resolved, rows indexed.

use super::*;

/// A condition as a compiled modifier tests it: which of the engine's conditions
/// (`game::conditions::ALL`, by index: the compiled rules hold ids, not the engine's code) and
/// what a family member names (band, state or SA index; 0 for fixed ids).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cond {
    pub id: CondId,
    pub arg: u16,
}

/// An index into `game::conditions::ALL` (`game::conditions::find`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CondId(pub u8);

impl Cond {
    /// A condition the engine does not play (recognised but not implemented): it never holds.
    pub const NEVER: Cond = Cond { id: CondId(u8::MAX), arg: 0 };
}

/// One compiled situation modifier.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
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
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
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

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Band {
    pub id: String,
    pub name: String,
    pub multiplier: f64,
    pub combat_tp: i32,
    pub strike_point_tp: i32,
    pub drift_bonus: u32,
}

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
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
    /// Lasting changes to attributes: (index into `Rules::attributes`, change).
    pub attributes: Vec<(usize, AttributeChange)>,
    /// Normalised lasting modifier to one weapon's rolls (chosen by a die).
    pub weapon_modifier: i32,
    pub weapon_lost: bool,
    /// Rolls on further tables: (index into `Rules::lookup_tables`, added to the dice).
    pub roll_on: Vec<(usize, i32)>,
    /// Rolls of this same table more.
    pub roll_again: u32,
}

/// A lasting change to an attribute (`f::AttributeChange`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttributeChange {
    By(i32),
    /// A share in percent of the value, rounded toward 0, changing it by at least `at_least`.
    Share {
        percent: i32,
        at_least: u32,
    },
}

impl AttributeChange {
    /// The value after the change, within `lo..=hi`.
    pub fn apply(self, value: i32, (lo, hi): (i32, i32)) -> i32 {
        let changed = match self {
            AttributeChange::By(by) => value.saturating_add(by),
            AttributeChange::Share { percent, at_least } => {
                let share = i64::from(value) * i64::from(percent) / 100;
                let least = i64::from(at_least) * i64::from(percent.signum());
                let by = if share.abs() < least.abs() { least } else { share };
                (i64::from(value) + by).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
            }
        };
        changed.clamp(lo, hi.max(lo))
    }
}

#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct LookupTable {
    pub id: String,
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
