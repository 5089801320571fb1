//! Squad types and their sizes, and regrouping two under-strength squads.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// A squad type and its size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquadType {
    pub id: Id,
    pub name: String,
    pub class: crate::force::SquadClass,
    /// Squad size; a model with a heavy special attribute (Bulky) counts as more than one.
    pub min_models: u32,
    pub max_models: u32,
    /// Model tasks of the squad; empty = any task.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<crate::catalog::Task>,
    /// Models of other tasks the squad may take in place of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<crate::force::TaskSwap>,
    /// Model types allowed; empty = any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// At most this many squads of the type in one force group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_per_force: Option<u32>,
    /// Every model has the same task (flight squads).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_task: bool,
    /// Every model has the same model type (transport squads).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_model_type: bool,
    /// One variety of infantry only: one model type and chassis (light, heavy or powered).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_variety: bool,
    /// May add transports (the ruleset's transport task), all of one model type, up to the number
    /// its models need; they do not count towards the squad size.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transports: bool,
    /// C3 points the squad adds to its force's pool (001 L1278-1336).
    #[serde(default)]
    pub c3_points: u32,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Regroup (001 L5722-5780): two squads below their types' maximum sizes merge; the new squad
/// keeps a shared type, or becomes `mixed_becomes` when the types differ; models beyond its
/// maximum leave play; every model of it has `ap_left` AP this activation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegroupRules {
    pub mixed_becomes: Id,
    pub ap_left: u32,
}

/// Unit coherency (Sythopian Wars, 002 L104, L288): how close a unit's models keep together.
/// A move may not end a model out of it — counting what unit mates still to act this activation
/// may yet move — unless the model was out of it already and ends nearer its unit; at the end of
/// a unit's activation a model still out of it is reported, and one in a `left_behind` state is
/// lost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CoherencyRules {
    /// Each model within this many inches (base edge to base edge) of at least one other model
    /// of its unit.
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub chain: f64,
    /// And within this many times its own unmodified move (base edge to base edge) of every
    /// other model of its unit (Sythopian Wars' Run, twice the Move); left out: no such bound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 100.0))]
    pub spread_moves: Option<f64>,
    /// States whose model is removed from the battle, as if slain, when its unit's activation
    /// ends with the model out of coherency (a stunned model the unit moved away from); damage
    /// the unit holds loses that model's hit points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub left_behind: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}
