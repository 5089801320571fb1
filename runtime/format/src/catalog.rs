//! Catalog documents: models (data cards), weapon systems, special attributes, upgrades,
//! battlefield assets and strike packages.
//!
//! One module per document kind (and the attack profile munitions, assets and strikes share);
//! every type is re-exported here (`cav_format::catalog::X`), with the cost they all carry.

mod assets;
mod attacks;
mod models;
mod special_attributes;
mod strikes;
mod upgrades;
mod weapons;

pub use assets::*;
pub use attacks::*;
pub use models::*;
pub use special_attributes::*;
pub use strikes::*;
pub use upgrades::*;
pub use weapons::*;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Cost of an upgrade, asset or strike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    pub tv: u32,
    /// Multiplied by the model's number of damage tracks (battlefield upgrades).
    #[serde(default)]
    pub per_damage_track: bool,
    /// What one purchase buys when not obvious ("per 2\"×2\" section").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<String>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}
