//! The turn's order when it is not a draw deck: sides alternating activations, or taking whole
//! player turns, each activation paid from a pool the side gets every turn (command points,
//! orders).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How the turn is sequenced (`turn_order:` of the ruleset). Left out, the turn is the draw deck
/// (`draw_deck:`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TurnOrder {
    pub scheme: TurnScheme,
    /// What each side gets to spend every turn, one per activation.
    pub pool: ActivationPool,
    /// How many times one unit may activate in a turn (default 1); 0: as often as its side pays.
    #[serde(default = "once")]
    #[schemars(range(max = 100))]
    pub activations_per_unit: u32,
    /// Which side acts first each turn (default: a roll among the sides).
    #[serde(default)]
    pub first: FirstSide,
}

fn once() -> u32 {
    1
}

/// The schemes of a pooled turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnScheme {
    /// The sides take turns activating one unit each; a side with nothing left to pay for (or no
    /// unit left to activate) passes, the others go on (002 L112-116).
    Alternating,
    /// Each side in turn spends its whole pool before the next side acts (004 L52-62).
    PlayerTurns,
}

/// A side's pool for a turn: `per_side`, plus `per_unit` for each of its units and `per_model`
/// for each of its models on the table at the start of the turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActivationPool {
    /// What the game calls a point of it (`command point`, `order`): the narrative's word.
    pub name: String,
    #[serde(default)]
    #[schemars(range(max = 1000))]
    pub per_side: u32,
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub per_unit: u32,
    #[serde(default)]
    #[schemars(range(max = 100))]
    pub per_model: u32,
}

/// Who acts first in a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstSide {
    /// A roll among the sides, each turn (a roll-off, 002 L19).
    #[default]
    Roll,
    /// The sides in their order, the first side first.
    SideOrder,
}
