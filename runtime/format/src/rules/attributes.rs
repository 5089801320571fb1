//! The attributes a ruleset's models carry beside CAV's damage track (`attributes:`): Resolve,
//! BS, PH, WIP… Each is declared once by the ruleset; a model sets it (`attributes:` of the
//! model) or takes its default; scripts read it (`model.attributes.resolve`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// One attribute a ruleset's models carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttributeDef {
    pub id: Id,
    /// The name players read (`Resolve`, `BS`).
    pub name: String,
    /// The value of a model that does not set it; left out: every model must set it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<i32>,
    /// The lowest value a model may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i32>,
    /// The highest value a model may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    pub summary: String,
    /// Where the rules define it (`002 L44`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
