//! The attributes a ruleset's models carry (`attributes:`): Resolve, BS, PH, WIP… and CAV's MV,
//! AV, DC and EXP. Each is declared once by the ruleset; a model sets it (`attributes:` of the
//! model, or its `damage_track:` for one with a value per damage column) or takes its default;
//! modifier rows, conditions and scripts read it (`model.attributes.resolve`); a `role` lends it
//! to the engine's movement, armour, repair or experience rolls, or (a weapon's) to its damage.

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
    /// A value per damage-track column, written in the model's `damage_track:` under its id
    /// (`mv: [6, 6, 5, 5]`); the value read is the model's current column's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_column: bool,
    /// A model may leave it out, and then has none (a card printing no DC): rules reading it see
    /// 0, and its role does not apply to the model.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// What the engine uses it for; one attribute of a ruleset per role.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<AttributeRole>,
    pub summary: String,
    /// Where the rules define it (`002 L44`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// An engine mechanism an attribute feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttributeRole {
    /// The distance a model's move action may go (CAV's MV); a ruleset without it moves nobody.
    Move,
    /// What an attack's margin plus its RAV must reach to damage the model (CAV's AV); absent: 0.
    Armor,
    /// The target point of a repair roll (CAV's DC); a model without it cannot be repaired.
    DamageControl,
    /// The target point of a pilot check where the ruleset sets none, and of a move through a
    /// structure (CAV's EXP); a model without it makes neither.
    Experience,
    /// A weapon attribute (`weapon_attributes:`): what a hit adds to its margin against armour
    /// (CAV's RAV). Its values are the `rav:` of weapons, cards' weapons and attacks (`5/2`:
    /// against hard and soft targets, per column on a card), chosen by the target; scripts read
    /// it against their target (`ctx.weapon.attributes.rav`). Without it, no document writes a
    /// `rav:`.
    Rav,
}
