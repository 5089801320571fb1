//! The kinds of roll a ruleset makes and the contests between them (`roll_kinds:`, `contests:`):
//! the dice in the notation players know, which way a result succeeds, the natural results that
//! decide whatever the modifiers, criticals, and how two sides' rolls are compared. Scripts roll
//! them with `ctx.make_roll` and `ctx.contest`; `cav odds` and the narrative read the same model.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// One kind of roll: "an attribute test", "a target lock", "a BS roll".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollKindDef {
    pub id: Id,
    /// The dice: `2d6`, `1d20`, `3d6kh2`, `2d20kl1`, `1d6x` (exploding), `1d10r1` (a 1 rolled
    /// again), `6d6cs>=4` (the result is how many dice show 4 or more), `1d6+1`.
    pub dice: String,
    /// Which way a result succeeds against the roll's target: `at_least` (the result reaches a
    /// target point: 2d6 ≥ 8) or `at_most` (the result is at most an attribute: d20 ≤ BS).
    pub succeeds: RollDirection,
    /// Natural results (the dice kept, before modifiers) that decide whatever the modifiers and
    /// the target, first match first: `{at_most: 2, result: fumble}`, `{equal: 6, result: failure}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub natural: Vec<NaturalResult>,
    /// A successful result equal to its target is a critical (d20 roll-under games).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub critical_on_target: bool,
    /// A natural result from `at_least` up is a critical success that adds its `bonus` dice to
    /// the result without deciding the roll by itself (a 2d6 combat roll of 12 adds 1d6, and may
    /// still miss). It counts on the rolls whose procedure reads a critical (attacks, close
    /// combat, repair, a script's roll); a `critical_success` modifier shifts the threshold,
    /// never onto a natural result a `fumble` or `failure` row decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical: Option<CriticalRule>,
    /// What a target beyond what the dice can show means (an `at_least` roll needing 7 on a d6):
    /// `impossible` (the default: only a natural `success` row can pass) or `max_then_roll_again`
    /// (the dice must show their highest, then a second roll must show its highest too).
    #[serde(default, skip_serializing_if = "BeyondReach::is_default")]
    pub beyond_reach: BeyondReach,
    pub summary: String,
    /// Where the rules define it (`002 L44`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A critical success that adds dice rather than deciding the roll.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CriticalRule {
    /// The lowest natural result (the dice kept, before modifiers) that is a critical.
    #[schemars(range(min = 1))]
    pub at_least: u32,
    /// Dice added to the result of a critical (`1d6`); absent: a critical adds nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bonus: Option<String>,
}

/// Which way a roll succeeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollDirection {
    AtLeast,
    AtMost,
}

/// A natural result that decides a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NaturalResult {
    /// The natural result is this or more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<u32>,
    /// The natural result is this or less.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<u32>,
    /// The natural result is exactly this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub equal: Option<u32>,
    pub result: NaturalVerdict,
}

impl NaturalResult {
    pub fn holds(&self, natural: u32) -> bool {
        self.at_least.is_none_or(|n| natural >= n)
            && self.at_most.is_none_or(|n| natural <= n)
            && self.equal.is_none_or(|n| natural == n)
    }
}

/// What a natural result makes of a roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NaturalVerdict {
    /// It succeeds.
    Success,
    /// It fails.
    Failure,
    /// It succeeds, critically.
    Critical,
    /// It fails, critically.
    Fumble,
}

/// What a target beyond what the dice can show means.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BeyondReach {
    #[default]
    Impossible,
    MaxThenRollAgain,
}

impl BeyondReach {
    fn is_default(&self) -> bool {
        *self == BeyondReach::Impossible
    }
}

/// A contest: two sides roll, each against its own target, and the results are compared.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContestDef {
    pub id: Id,
    /// The roll kind (of `roll_kinds:`) both sides make.
    pub roll: Id,
    /// How the winner is found: `total` (the higher result; targets are not used), `margin`
    /// (the larger margin of success over each side's own target), or `best_success`
    /// (failures are discarded; each success cancels the other side's lower successes, so one
    /// roll can be held against many).
    pub compare: ContestCompare,
    /// Equal results: `starter` (the side that starts the contest wins), `other`, `both_stand`
    /// or `both_cancel`.
    pub ties: ContestTies,
    /// Under `best_success`, a critical beats any success that is not one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub critical_wins: bool,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// How a contest's results are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContestCompare {
    Total,
    Margin,
    BestSuccess,
}

/// Who wins equal results.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContestTies {
    Starter,
    Other,
    BothStand,
    BothCancel,
}
