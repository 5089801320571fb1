//! Strikes of the battlefield strike packages: their package, who calls them and on what
//! terms, and strikes that fly in as a missile.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::{AttackProfile, Cost};

/// A strike of a battlefield strike package (Appendix D).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strike {
    pub id: Id,
    pub name: String,
    pub package: StrikePackage,
    pub attack: AttackProfile,
    /// The strike is a missile that flies in as a model (the Cruise Missiles), instead of landing
    /// on a strike point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missile: Option<StrikeMissile>,
    pub cost: Cost,
    /// Special attributes that call this strike on their own terms, besides the ruleset's strike
    /// caller (Satellite Uplink's Hammer Strike, 001 L8202-8218).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called_by: Vec<StrikeCaller>,
    #[serde(default)]
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

/// Strike package a strike belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StrikePackage {
    Artillery,
    Air,
    Space,
}

/// A special attribute that calls a strike, and on what terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikeCaller {
    /// Id of the special attribute.
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// Action points the call costs; absent: the `call-strike` action's cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap: Option<u32>,
    /// Whether the strike's cost leaves the side's strike pool (false: the special attribute
    /// brings the strike itself).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub pays: bool,
    /// A roll that must reach its target point before the strike-point roll, or there is no
    /// strike (the BattleNet's authorization: 1d6 against 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization: Option<Authorization>,
}

/// A roll a strike call must pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Authorization {
    /// The dice (`1d6`).
    pub dice: String,
    /// The target point the dice must reach.
    #[schemars(range(min = -100, max = 100))]
    pub target: i32,
}

/// A strike that flies in as a model (`Strike::missile`): the model card it flies as (its MV,
/// AV, base; its attack is the strike's), placed at the launch point — in front of a friendly
/// model carrying the `launcher` weapon, else on the board edge nearest the caller — facing the
/// point the caller names; it makes `first_moves` moves at once and `moves` more each time the
/// caller activates (straight on once the caller is gone, at the end of each turn), towards that
/// point and on past it. The first model it touches (or, with an area, the point it touches
/// something at) takes the strike's attack on the pre-set dice (what its blast destroys outright
/// is the attack's `destroys`), and the missile is gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikeMissile {
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub launcher: Option<Id>,
    #[schemars(range(max = 10))]
    pub first_moves: u32,
    #[schemars(range(max = 10))]
    pub moves: u32,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}
