//! Models: the data card, its damage track and the weapons mounted on it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// A model's data card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub id: Id,
    /// Model name as printed, e.g. `Dictator-B`.
    pub name: String,
    /// Faction the model belongs to.
    pub faction: String,
    pub model_type: ModelType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chassis: Option<Chassis>,
    /// Its battlefield task (CAV's attack, recon, transport…: force building and pre-game moves
    /// read it); absent in a game without tasks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<Task>,
    /// Id of the move class (`walker`, `tracked`, …).
    #[schemars(extend("x-cav-ref" = "move_class"))]
    pub move_class: Id,
    /// How an aircraft flies: rotor and VTOL aircraft land and take off anywhere, fixed-wing
    /// ones only on a landing field (001 L3670-3692). Not for other model types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub airframe: Option<Airframe>,
    /// Threat value (points cost); 0 in a game whose forces are not bought.
    #[serde(default)]
    pub tv: u32,
    /// Base width across flats in inches (hex base).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_size: Option<f64>,
    pub damage_track: DamageTrack,
    #[serde(default)]
    pub weapons: Vec<WeaponMount>,
    #[serde(default)]
    pub special_attributes: Vec<SaRef>,
    /// Values of the attributes its ruleset declares (`attributes:` of the ruleset), by id.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub attributes: std::collections::BTreeMap<Id, i32>,
    /// This card is the weapon of a battlefield asset's emplacement (an asset with
    /// `emplacement:`, the Bunker Weapon Emplacement): it stands in the asset's terrain piece,
    /// is attacked only through it, and fires on its side's one emplacement card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub emplacement: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Where the card comes from, e.g. `000 L222`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Chassis size class of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Chassis {
    ExtraSmall,
    Small,
    Medium,
    Large,
    ExtraLarge,
    Light,
    Heavy,
    ExtraHeavy,
}

/// The model's task symbol; decides which squads it may join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Attack,
    FireSupport,
    Recon,
    Transport,
    FlightAttack,
    FlightFireSupport,
    FlightRecon,
    FlightTransport,
}

/// Weapon mounting location on the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Mount {
    /// Front
    F,
    /// Back (rear)
    B,
    /// Left (arm or side)
    L,
    /// Right (arm or side)
    R,
    /// Turret (360°)
    T,
}

/// How an aircraft flies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Airframe {
    Rotor,
    Vtol,
    FixedWing,
}

/// Per-column card values. Column 0 is the undamaged column; each damage point moves one column
/// right; damage past the last column puts the model out of action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageTrack {
    /// Number of damage tracks (DT); the card has columns 0..=damage_tracks.
    #[schemars(range(max = 99))]
    pub damage_tracks: u32,
    /// Move value per column.
    pub mv: PerColumn<u32>,
    /// Armor value per column; absent: 0 in every column (a game without armor values).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub av: Option<PerColumn<u32>>,
    /// Damage-control value per column (repair target); may go negative on the card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<PerColumn<i32>>,
    /// Experience value (target point of experience rolls); full rules only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exp: Option<PerColumn<u32>>,
    /// Close-combat value Hard/Soft per column; Quick-Start cards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccv: Option<PerColumn<Rav>>,
    /// What the MV, AV and DC columns hold. `printed` (the default): the card as the book prints
    /// it, with its special attributes' design changes (Improved Armor's +1 AV, Encumbered's −1 MV)
    /// already in the numbers. `chassis`: the bare chassis, as a community author designing a unit
    /// writes it; the engine applies those design changes when it compiles the card.
    #[serde(default, skip_serializing_if = "CardValues::is_printed")]
    pub values: CardValues,
}

/// Whether a card's MV, AV and DC already hold its special attributes' design changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardValues {
    /// As printed: the design changes are in the numbers.
    #[default]
    Printed,
    /// The bare chassis: the engine applies the design changes.
    Chassis,
}

impl CardValues {
    fn is_printed(&self) -> bool {
        *self == CardValues::Printed
    }
}

/// A weapon system as mounted on a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponMount {
    /// Id of the weapon system.
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub weapon: Id,
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 99))]
    pub quantity: u32,
    /// Mounting locations, one per weapon.
    #[serde(default)]
    pub mount: Vec<Mount>,
    /// RAV per damage-track column when the card prints it; else the weapon's RAV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rav: Option<PerColumn<Rav>>,
    /// Special attributes this mount adds to the weapon's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<SaRef>,
}

fn one() -> u32 {
    1
}
