//! Special attributes: what they attach to, their parameter and purchasable levels, the mount
//! they provide.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

use super::Mount;

/// A special ability or attribute (Appendix A).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialAttribute {
    pub id: Id,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub applies_to: AppliesTo,
    #[serde(default)]
    pub restriction: Restriction,
    pub parameter: SaParameter,
    /// Purchasable levels with their costs; one entry when the SA has no levels.
    #[serde(default)]
    pub levels: Vec<SaLevel>,
    /// The owner may decline to use it ("may" in the rule): before each action in which it could
    /// act, the player (or bot) is asked, and a declined SA neither modifies nor runs its script.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// Switched on by the model's Special action each turn (APA, ECM: its script's
    /// `special_action` handler): bots take that action first in each activation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub switched_on: bool,
    /// The options its Special action may be declared with (Smoke: `cloud` or `line`); its script
    /// reads the one declared as `ctx.option` (nil when none is named). A Special action naming
    /// an option no special attribute of the model offers is refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_options: Vec<Id>,
    /// The mount it provides and how many weapons each rating level holds there (the Turret: two
    /// on `T`): a card mounting more weapons there than its rating holds, or any without the
    /// special attribute, is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carries: Option<MountCapacity>,
    /// Special attributes a model with this one has as well (Orbital Flight: Reduced Turn and
    /// Shielded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<SaRef>,
    /// Moments of play the SA acts at.
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    /// Lua module (in the pack's script roots) implementing the behaviour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Declarative modifiers for simple numeric effects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// What a special attribute is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    Model,
    Weapon,
    ModelOrWeapon,
    /// A rule of the whole game (weather, a ruleset-wide roll rule): no model or weapon lists
    /// it; it applies to every game of the rulesets its pack joins, its script's handlers
    /// running at every moment of its hook points, after the models' (`ctx.role` `game`).
    Game,
    /// A rule of the games whose scenario (or scenario test) names it in its `rules:` (weather,
    /// a scenario's special rule), played as a rule of the whole game there and nowhere else.
    Scenario,
}

/// The shape of an SA's parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SaParameter {
    /// No parameter.
    None,
    /// A rating level (`Blaster 2`).
    Rating,
    /// A number in brackets that is not a level (`Minimum Range (14)`, `Shock (4)`).
    Value,
    /// Limited uses (`Ammo Bin [1]`).
    Uses,
}

/// One purchasable level of a special attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaLevel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Distance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard_points: Option<HardPoints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tv: Option<u32>,
    /// TV is per use (limited-use SAs) rather than flat.
    #[serde(default)]
    pub tv_per_use: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Weapons a special attribute holds on one mount (`SpecialAttribute::carries`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MountCapacity {
    pub mount: Mount,
    #[schemars(range(min = 1, max = 99))]
    pub per_rating: u32,
}
