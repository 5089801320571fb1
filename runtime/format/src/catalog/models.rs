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
#[schemars(transform = other_keys_are_columns)]
pub struct DamageTrack {
    /// Number of damage tracks (DT); the card has columns 0..=damage_tracks.
    #[schemars(range(max = 99))]
    pub damage_tracks: u32,
    /// Close-combat value Hard/Soft per column; Quick-Start cards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccv: Option<PerColumn<Rav>>,
    /// What the columns of the attributes with an engine role hold. `printed` (the default): the
    /// card as the book prints it, with its special attributes' design changes (Improved Armor's
    /// +1 AV, Encumbered's −1 MV) already in the numbers. `chassis`: the bare chassis, as a
    /// community author designing a unit writes it; the engine applies those design changes when
    /// it compiles the card.
    #[serde(default, skip_serializing_if = "CardValues::is_printed")]
    pub values: CardValues,
    /// The values of the ruleset's per-column attributes (`attributes:` with `per_column: true`:
    /// CAV's MV, AV, DC and EXP), by id: one value, or one per column (`mv: [6, 6, 5, 5]`). A key
    /// the ruleset does not declare so is an error when the ruleset compiles.
    #[serde(flatten)]
    pub columns: std::collections::BTreeMap<Id, PerColumn<i32>>,
}

/// The schema of `DamageTrack`: schemars gives the flattened map's values as `patternProperties`
/// of the id pattern, which `ccv` and `values` match too; as `additionalProperties` they apply to
/// the other keys only (which keys the ruleset declares is checked when it compiles).
fn other_keys_are_columns(schema: &mut schemars::Schema) {
    let Some(obj) = schema.as_object_mut() else { return };
    let Some(serde_json::Value::Object(patterns)) = obj.remove("patternProperties") else { return };
    if let Some((_, mut values)) = patterns.into_iter().next() {
        if let Some(v) = values.as_object_mut() {
            let what = "A per-column attribute of the ruleset (`attributes:` with `per_column: true`: CAV's mv, \
                        av, dc, exp), by its id (any id but the track's own `damage_tracks`, `ccv` and `values`): one value, or \
                        one per column.";
            v.insert("description".into(), what.into());
        }
        obj.insert("additionalProperties".into(), values);
    }
    // Its other keys are ids (a key is a JSON pointer's step in every diagnostic).
    let names =
        serde_json::json!({"anyOf": [{"enum": ["damage_tracks", "ccv", "values"]}, {"pattern": crate::ID_PATTERN}]});
    obj.insert("propertyNames".into(), names);
}

impl DamageTrack {
    /// A track of `damage_tracks` with these per-column attributes.
    pub fn new<'a>(damage_tracks: u32, columns: impl IntoIterator<Item = (&'a str, PerColumn<i32>)>) -> Self {
        DamageTrack {
            damage_tracks,
            ccv: None,
            values: CardValues::Printed,
            columns: columns.into_iter().map(|(k, v)| (Id(k.to_owned()), v)).collect(),
        }
    }

    /// The values of per-column attribute `id`, when the card sets it.
    pub fn get(&self, id: &str) -> Option<&PerColumn<i32>> {
        self.columns.get(&Id(id.to_owned()))
    }
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
