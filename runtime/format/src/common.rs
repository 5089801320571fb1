//! Small value types shared by every document kind.

use std::borrow::Cow;
use std::fmt;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::vocab::{ModelType, ModifierTarget};

/// The pattern every document id and reference follows: lower-case words joined by `-`.
pub const ID_PATTERN: &str = "^[a-z0-9][a-z0-9-]*$";

/// A document id (`medium-mac`, `dictator-b`) or a reference to one.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Id(pub String);

impl Id {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for Id {
    fn from(s: &str) -> Self {
        Id(s.to_owned())
    }
}

impl JsonSchema for Id {
    fn schema_name() -> Cow<'static, str> {
        "Id".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": ID_PATTERN,
            "description": "An id: lower-case letters, digits and '-', e.g. `medium-mac`."
        })
    }
}

/// A ranged-attack value, written as on the data card: `5/2` (hard/soft), `4` (both), `NA/1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rav {
    /// Used against models with the SA Hard; `None` = NA (cannot hurt them).
    pub hard: Option<u8>,
    /// Used against models with the SA Soft; `None` = NA.
    pub soft: Option<u8>,
}

pub const RAV_PATTERN: &str = r"^(NA|[0-9]+)(/(NA|[0-9]+))?$";

impl Rav {
    /// A RAV of 0 against every target.
    pub fn zero() -> Rav {
        Rav { hard: Some(0), soft: Some(0) }
    }

    pub fn parse(s: &str) -> Option<Rav> {
        let part = |p: &str| -> Option<Option<u8>> { if p == "NA" { Some(None) } else { p.parse().ok().map(Some) } };
        match s.split_once('/') {
            Some((h, s)) => Some(Rav { hard: part(h.trim())?, soft: part(s.trim())? }),
            None => {
                let v = part(s.trim())?;
                Some(Rav { hard: v, soft: v })
            }
        }
    }
}

impl fmt::Display for Rav {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = |v: Option<u8>| v.map_or_else(|| "NA".to_owned(), |v| v.to_string());
        if self.hard == self.soft { f.write_str(&p(self.hard)) } else { write!(f, "{}/{}", p(self.hard), p(self.soft)) }
    }
}

impl Serialize for Rav {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Rav {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor, not an untagged enum: serde tries an untagged enum's variants in turn and
        // builds an error message for each one that fails, which made RAVs the costliest part of
        // decoding a model (every `5/2` first failed as an integer).
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Rav;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a RAV like `5/2`, `4` or `NA/1`")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Rav, E> {
                let v = u8::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(v), &self))?;
                Ok(Rav { hard: Some(v), soft: Some(v) })
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Rav, E> {
                let u = u64::try_from(v).map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(v), &self))?;
                self.visit_u64(u)
            }
            fn visit_str<E: serde::de::Error>(self, t: &str) -> Result<Rav, E> {
                Rav::parse(t).ok_or_else(|| E::custom(format!("`{t}` is not a RAV like `5/2`")))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for Rav {
    fn schema_name() -> Cow<'static, str> {
        "Rav".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "Ranged attack value Hard/Soft as printed on the card: `5/2`, `4` (both), `NA/1`.",
            "type": ["string", "integer"],
            "minimum": 0,
            "pattern": RAV_PATTERN
        })
    }
}

/// A value that is the same in every damage-track column, or one value per column (column 0 first).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PerColumn<T> {
    Columns(Vec<T>),
    Same(T),
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PerColumn<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor, not `#[serde(untagged)]` (which buffers the value and tries each variant,
        // building an error for each miss): a sequence is the columns, anything else one value.
        use serde::de::IntoDeserializer;
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for V<T> {
            type Value = PerColumn<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("one value, or a list of one value per damage-track column")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                Vec::<T>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq)).map(PerColumn::Columns)
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(PerColumn::Same)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(PerColumn::Same)
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(PerColumn::Same)
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(PerColumn::Same)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                T::deserialize(v.into_deserializer()).map(PerColumn::Same)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(PerColumn::Same)
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<T: Clone> PerColumn<T> {
    /// The value in damage-track column `col`; the last column's value past the end.
    pub fn at(&self, col: usize) -> Option<T> {
        match self {
            PerColumn::Same(v) => Some(v.clone()),
            PerColumn::Columns(v) => v.get(col).or(v.last()).cloned(),
        }
    }
    /// Number of columns this value spells out (`None` when the same in all).
    pub fn columns(&self) -> Option<usize> {
        match self {
            PerColumn::Same(_) => None,
            PerColumn::Columns(v) => Some(v.len()),
        }
    }
}

/// A distance in inches, or a word for ranges the table does not give as a number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Distance {
    Inches(f64),
    Special(SpecialDistance),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SpecialDistance {
    /// Not applicable ("NA" on the card).
    Na,
    /// Base-to-base contact.
    B2b,
    /// A template or a rule of the item's own.
    Special,
    /// Unlimited (anywhere on the table).
    Unlimited,
    /// Nap-of-Earth altitude.
    NapOfEarth,
}

/// Hard-point cost of a construction item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum HardPoints {
    Points(f64),
    Special(HardPointWord),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HardPointWord {
    /// "NA" in the stat block.
    Na,
    /// Cannot be chosen when building a model; only granted by rules or scenarios.
    Restricted,
}

/// A note on a document: a reading chosen where the source is unclear, or a value assumed
/// because the source text lost it. Notes are how the content stays honest about its sources.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Note {
    /// What was chosen, in our own words.
    pub text: String,
    /// JSON pointer of the value the note is about, e.g. `/damage_track/mv`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// `reading` (ambiguous text), `assumed` (value lost in the source), `reconstructed` (scrambled
    /// table), `unplayed` (not played yet), `book_silent` (the book gives no rules to play it).
    #[serde(default = "NoteKind::reading")]
    pub kind: NoteKind,
    /// The other reading, when one was rejected.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative: Option<String>,
    /// Ruleset option that lets players choose, if there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<Id>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoteKind {
    Reading,
    Assumed,
    Reconstructed,
    /// What of the entry the engine does not play yet: `cav coverage` lists it as a gap, so the
    /// entry is never shown as complete while part of it is missing.
    Unplayed,
    /// What the rulebook names but gives no rules to play (a procedure it refers to and does not
    /// contain): the text cites the line (`001 L7608`). `cav coverage` lists it as a limit of the
    /// book; the entry is complete as far as the book goes.
    BookSilent,
}

impl NoteKind {
    fn reading() -> Self {
        NoteKind::Reading
    }
}

/// A special attribute carried by a model or a weapon: `blaster`, or `{sa: blaster, rating: 2}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SaRef {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    Plain(Id),
    Rated(RatedSa),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RatedSa {
    /// Id of the special attribute.
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// Rating level (`Blaster 2` → 2), or the parameter in brackets (`Minimum Range (14)` → 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// Limited uses (`Ammo Bin [1]` → 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uses: Option<u32>,
    /// Only under this condition, in our words (e.g. "vs. aircraft only").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    /// Conditions of the engine's vocabulary that must all hold for it to apply to an attack
    /// (e.g. `[defender-in-flight]` for "vs. aircraft only"): its effects, its range-band shift
    /// and its script then apply only when they hold. On a weapon's special attributes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "crate::vocab::conditions_schema")]
    pub when: Vec<Id>,
}

impl SaRef {
    pub fn id(&self) -> &Id {
        match self {
            SaRef::Plain(id) => id,
            SaRef::Rated(r) => &r.sa,
        }
    }
    pub fn rating(&self) -> Option<i32> {
        match self {
            SaRef::Plain(_) => None,
            SaRef::Rated(r) => r.rating,
        }
    }
    pub fn uses(&self) -> Option<u32> {
        match self {
            SaRef::Plain(_) => None,
            SaRef::Rated(r) => r.uses,
        }
    }
}

/// Which models may carry or buy an item.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Restriction {
    /// Model types allowed; empty = any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// Minimum number of damage tracks ("(5+)" in the stat block).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_damage_tracks: Option<u32>,
    /// At most this many in one squad (upgrades: counted over the squad's models).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_squad: Option<u32>,
    /// At most this many in one force group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_force: Option<u32>,
    /// Weapons: at most this many on one model ("up to three light howitzers").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_model: Option<u32>,
    /// Weapons: at most this many of the weapon's class (`class:`) in any one mounting location
    /// ("a single cannon in any one location").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_location: Option<u32>,
    /// Weapons: each mounted separately, never as a matching set (a card's mount of quantity 1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub separate: bool,
    /// Anything else, in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// A declarative modifier: the small vocabulary simple numeric abilities use instead of a script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Modifier {
    /// The roll or value it changes.
    pub target: ModifierTarget,
    /// Amount in the ruleset's convention (see ruleset `modifier_convention`); `per_rating` multiplies by the rating.
    pub value: i32,
    #[serde(default)]
    pub per_rating: bool,
    /// Conditions (all must hold), as condition ids of the engine's vocabulary (e.g. `target-locked`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "crate::vocab::conditions_schema")]
    pub when: Vec<Id>,
    /// Model state the effect applies (`shock` → `suppressed`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Id>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rav(h: Option<u8>, s: Option<u8>) -> Rav {
        Rav { hard: h, soft: s }
    }

    #[test]
    fn ravs_decode_from_numbers_and_card_text() {
        let de = |v| serde_json::from_value::<Rav>(v);
        assert_eq!(de(json!(4)).unwrap(), rav(Some(4), Some(4)));
        assert_eq!(de(json!("5/2")).unwrap(), rav(Some(5), Some(2)));
        assert_eq!(de(json!("NA/1")).unwrap(), rav(None, Some(1)));
        assert_eq!(de(json!("NA")).unwrap(), rav(None, None));
        assert!(de(json!(256)).unwrap_err().to_string().contains("a RAV like"));
        assert!(de(json!(-1)).unwrap_err().to_string().contains("a RAV like"));
        assert!(de(json!("5/x")).unwrap_err().to_string().contains("`5/x` is not a RAV"));
        assert!(de(json!([5])).is_err());
    }

    #[test]
    fn per_column_values_are_one_value_or_a_list() {
        let ravs = serde_json::from_value::<PerColumn<Rav>>(json!(["6/2", 5, "NA/1"])).unwrap();
        assert_eq!(ravs, PerColumn::Columns(vec![rav(Some(6), Some(2)), rav(Some(5), Some(5)), rav(None, Some(1))]));
        assert_eq!(
            serde_json::from_value::<PerColumn<Rav>>(json!("4/3")).unwrap(),
            PerColumn::Same(rav(Some(4), Some(3)))
        );
        assert_eq!(serde_json::from_value::<PerColumn<u32>>(json!(7)).unwrap(), PerColumn::Same(7));
        assert_eq!(serde_json::from_value::<PerColumn<i32>>(json!([-1, 2])).unwrap(), PerColumn::Columns(vec![-1, 2]));
        assert!(serde_json::from_value::<PerColumn<u32>>(json!(-3)).is_err());
        assert!(serde_json::from_value::<PerColumn<u32>>(json!(["a"])).is_err());
        assert!(serde_json::from_value::<PerColumn<u32>>(json!({"a": 1})).is_err());
        // What serializes reads back.
        let back = serde_json::to_value(&ravs).unwrap();
        assert_eq!(serde_json::from_value::<PerColumn<Rav>>(back).unwrap(), ravs);
    }
}
