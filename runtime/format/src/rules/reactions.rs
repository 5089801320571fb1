//! Reactions out of turn: defensive fire, counter-battery fire, close defense (Anti-Infantry)
//! and over-watch.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// Defensive fire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefensiveFireRules {
    /// Farthest range band (id) defensive fire may reach.
    pub max_band: Id,
    /// Defensive fire takes no modifier that helps it (Quick-Start); otherwise the combat
    /// modifier table's `defensive-fire` row applies like any other.
    pub drops_bonuses: bool,
}

/// Counter-battery fire: a model with the special attribute `sa`, targeted by an enemy's
/// indirect attack or with an enemy strike point landing within `within` inches, answers at once
/// with an indirect attack whose strike point is the firing model's place, no strike-point roll
/// (the `counter-battery` action type's cost, paid from its next activation; the combat roll's
/// `counter-battery` row) — unless it made a combat action this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterBatteryRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub within: f64,
}

/// A reaction at close quarters (Anti-Infantry): a model with the special attribute `sa`,
/// attacked (combat or close combat) by an enemy model with the trait `against` from within
/// `reach` inches, may strike first, before that attack's rolls: an area attack centred on
/// itself with `rav` and `special_attributes` (its area, Limited Ammo, …), each combat roll on
/// the standard dice against `tp`. It costs `cost` AP, paid from its next activation, and is
/// refused when that would leave it owing more than a whole activation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseDefenseRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub against: crate::ModelTrait,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub reach: f64,
    pub cost: u32,
    #[schemars(range(max = 100))]
    pub tp: u32,
    pub rav: crate::Rav,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<crate::SaRef>,
}

/// Over-watch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverwatchRules {
    /// AP cost of each further attack from a watch already fired from: paid by renewing the
    /// watch in a later activation, or owed by the next activation when the model fires.
    pub refire_cost: u32,
    /// Model state a model gains when it goes on over-watch (Stationary in the full rules);
    /// absent = none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Id>,
}

/// A moment at which the other side may react out of turn (`reaction_windows:` of the ruleset):
/// Infinity's Automatic Reaction Orders (004 L44-46, L496-526), Sythopian Wars' reactions to a
/// command aimed at a unit (002 L154, L196). The reacting model's controller chooses one of the
/// action types the window offers, or none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReactionWindow {
    pub id: Id,
    pub name: String,
    /// When it opens.
    pub opens: WindowOpens,
    /// Who may react.
    pub who: Reactors,
    /// How far (inches, centre to centre) a reactor may stand from the acting model; absent: any
    /// distance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = crate::limits::MAX_BOARD_INCHES))]
    pub within: Option<f64>,
    /// The action types a reacting model may take (`combat`, `move`…), aimed at the acting model
    /// when they aim at a model.
    #[schemars(extend("x-cav-ref" = "action_type"))]
    pub actions: Vec<Id>,
    /// The acting model's action types that open it (Sythopian Wars' escape from a charge,
    /// 002 L378-384); empty: any action that `opens` names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "action_type"), length(max = 32))]
    pub opened_by: Vec<Id>,
    /// Whether the reaction resolves before the declared action or after it. Damage lands at the
    /// end of the acting model's activation either way, so fire exchanged in one window is
    /// simultaneous.
    pub resolves: ReactionOrder,
    /// What a reaction costs (default `owed_ap`).
    #[serde(default)]
    pub cost: ReactionCost,
    /// A reacting model reacts at most once a turn (default: once per window opened).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once_a_turn: bool,
    /// A reacting model reacts at most once during one activation of the acting model (an
    /// Infinity order: one ARO per trooper, 004 L116).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once_an_activation: bool,
    /// The reaction is its side's next activation: in alternating activations the turn passes
    /// over that side once (Sythopian Wars' reacting to a command, 002 L140-146). A unit's
    /// reaction counts, and pays a `pool` cost, once for all its models.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counts_as_activation: bool,
    /// The action slots (`action_slots:`) a reaction in it uses, all of which its unit must have
    /// free, instead of its action's own (Covering Fire uses shoot, run and defend, 002 L140).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 32))]
    pub uses: Vec<Id>,
    /// A reaction in it takes the place of the target's: the model the action is aimed at, and its
    /// unit, do not react to it (Covering Fire: the original target forfeits any action, L272).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub target_forfeits: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// When a reaction window opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WindowOpens {
    /// An enemy declares an action aimed at a model (an attack, a charge, a target-lock).
    AimedAtModel,
    /// An enemy declares any action.
    AnyAction,
}

/// Who may react in a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reactors {
    /// The model the action is aimed at.
    Target,
    /// Every enemy model on the table that sees the acting model: a line of sight, and the
    /// acting model inside what it sees where the ruleset narrows that (`sight.vision_half_width`).
    InSight,
    /// Every model of the unit of the model the action is aimed at (each of them reacting; the
    /// unit pays once).
    TargetUnit,
    /// Models of the target's side outside the target's unit; the first to react names the one
    /// unit whose models react (Sythopian Wars' Covering Fire, 002 L270-272).
    OtherUnit,
}

/// When a reaction resolves against the action that opened its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReactionOrder {
    Before,
    After,
}

/// What a reaction costs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReactionCost {
    /// Its action type's AP, owed by the reactor's next activation.
    #[default]
    OwedAp,
    /// A point of its side's pool this turn (a pooled turn: it counts as one of the side's
    /// activations, 002 L154); refused when the side has none left.
    Pool,
    /// Nothing (Infinity's AROs, 004 L44-46).
    Free,
}
