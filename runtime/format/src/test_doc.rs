//! Scenario tests: a board, models, forced dice, forced actions, and what must follow.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::Id;

/// A terrain area of a test board: a circle (`at` + `radius`) or a polygon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestTerrain {
    pub terrain: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// Corner points in inches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub polygon: Vec<[f64; 2]>,
}

/// A model placed by a test.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestModel {
    /// Name the test uses for this model.
    pub id: Id,
    pub model: Id,
    pub side: Id,
    pub at: [f64; 2],
    /// Degrees, 0 = towards +y, clockwise.
    #[serde(default)]
    pub facing: f64,
    #[serde(default)]
    pub damage: u32,
    /// Model states it starts with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<Id>,
    #[serde(default)]
    pub prone: bool,
    /// Test id of the model it holds a target-lock on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<Id>,
}

/// What a model does, in order; consecutive steps of one model form one activation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestStep {
    /// Test id of the model that acts.
    pub model: Id,
    /// The action's name as the engine lists it (`move`, `reverse`, `stand-up`, `go-prone`,
    /// `target-lock`, `fire`, `salvo`, `run-n-gun`, `close-combat`, `break`, `overwatch`,
    /// `repair`), or `end` to close the activation early.
    #[serde(rename = "do")]
    pub action: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Id>,
    /// Indexes of the model's weapon mounts (0 = first on the card).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<usize>,
    #[serde(default)]
    pub indirect: bool,
}

/// The expected state of one model afterwards.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestModelState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Exactly these model states (ids), in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub states: Option<Vec<Id>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mission_kill: Option<bool>,
}

/// What must follow.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TestExpect {
    /// Events that must occur in this order (others may come between). Each is matched on the
    /// keys it gives; `model` and `target` are test ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<serde_json::Value>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<Id, TestModelState>,
    /// The run must stop with an error containing this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Every forced die must be used.
    #[serde(default = "yes")]
    pub all_dice_used: bool,
}

fn yes() -> bool {
    true
}

/// A scenario test (`cav test`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Test {
    pub id: Id,
    pub name: String,
    /// The ruleset pack id the test runs under.
    pub ruleset: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default = "board")]
    pub board: [f64; 2],
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TestTerrain>,
    pub models: Vec<TestModel>,
    /// Forced die faces, in the order the engine asks for them.
    #[serde(default)]
    pub dice: Vec<u32>,
    pub steps: Vec<TestStep>,
    /// Weapon mounts a model fires when it may react out of turn (defensive fire, over-watch);
    /// models not listed do not react.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reactions: BTreeMap<Id, Vec<usize>>,
    pub expect: TestExpect,
}

fn board() -> [f64; 2] {
    [48.0, 48.0]
}
