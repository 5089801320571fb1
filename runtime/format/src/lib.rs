//! Types of every document a CAV content pack holds. They are the single source of the JSON
//! Schemas in `schemas/` (see [`schema_for_kind`]); this crate has no loading logic.
//!
//! Every YAML document names its kind in a `kind:` key; documents of one kind may
//! `extends:` another document of the same kind in the same pack.

pub mod catalog;
pub mod common;
pub mod event_kinds;
pub mod force;
pub mod limits;
pub mod manifest;
pub mod refs;
pub mod rulebook;
pub mod rules;
pub mod test_doc;
pub mod vocab;
pub mod xml;

use schemars::{JsonSchema, Schema, generate::SchemaSettings};
use serde::{Deserialize, Serialize};

pub use catalog::*;
pub use common::*;
pub use event_kinds::{EVENT_KINDS, EventField, EventKind};
pub use force::*;
pub use manifest::*;
pub use rulebook::{RuleSection, Rulebook};
pub use rules::*;
pub use test_doc::*;
pub use vocab::{ActionKind, HookEffect, HookPoint, ModelTrait, ModelType, ModifierTarget, Quantity, RangeMeasure};

macro_rules! doc_kinds {
    ($( $variant:ident = $tag:literal : $ty:ty , $title:literal ;)*) => {
        /// The kinds of document a pack can hold, named by the `kind:` key of each document.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
        #[serde(rename_all = "snake_case")]
        pub enum DocKind { $( $variant, )* }

        impl DocKind {
            pub const ALL: &'static [DocKind] = &[ $( DocKind::$variant, )* ];

            /// The `kind:` tag.
            pub fn tag(self) -> &'static str {
                match self { $( DocKind::$variant => $tag, )* }
            }

            /// Plural human title, for listings.
            pub fn title(self) -> &'static str {
                match self { $( DocKind::$variant => $title, )* }
            }

            pub fn from_tag(tag: &str) -> Option<DocKind> {
                match tag { $( $tag => Some(DocKind::$variant), )* _ => None }
            }

            fn raw_schema(self, settings: SchemaSettings) -> Schema {
                match self { $( DocKind::$variant => settings.into_generator().into_root_schema_for::<$ty>(), )* }
            }
        }

        /// A decoded document of any kind. (Built once per load; variant sizes do not matter.)
        #[allow(clippy::large_enum_variant)]
        #[derive(Debug, Clone, PartialEq)]
        pub enum Document { $( $variant($ty), )* }

        impl Document {
            /// Decode a schema-valid JSON value (without `kind`/`extends`) as a document of `kind`.
            pub fn decode(kind: DocKind, value: serde_json::Value) -> Result<Document, serde_json::Error> {
                Ok(match kind { $( DocKind::$variant => Document::$variant(serde_json::from_value(value)?), )* })
            }

            pub fn kind(&self) -> DocKind {
                match self { $( Document::$variant(_) => DocKind::$variant, )* }
            }

            pub fn to_value(&self) -> serde_json::Value {
                match self { $( Document::$variant(d) => serde_json::to_value(d).unwrap_or_default(), )* }
            }
        }
    };
}

doc_kinds! {
    Model = "model": Model, "models";
    Weapon = "weapon": Weapon, "weapon systems";
    SpecialAttribute = "special_attribute": SpecialAttribute, "special attributes";
    Upgrade = "upgrade": Upgrade, "upgrades";
    Asset = "asset": Asset, "battlefield assets";
    Strike = "strike": Strike, "strikes";
    Ruleset = "ruleset": Ruleset, "rulesets";
    RangeBands = "range_bands": RangeBands, "range-band tables";
    ModifierTable = "modifier_table": ModifierTable, "modifier tables";
    Table = "table": Table, "lookup tables";
    MoveClass = "move_class": MoveClass, "move classes";
    Terrain = "terrain": Terrain, "terrain types";
    ModelState = "model_state": ModelState, "model states";
    ActionType = "action_type": ActionType, "action types";
    SquadType = "squad_type": SquadType, "squad types";
    Faction = "faction": Faction, "factions";
    Force = "force": Force, "forces";
    Scenario = "scenario": Scenario, "scenarios";
    Patch = "patch": Patch, "patches";
    Test = "test": Test, "scenario tests";
    Rulebook = "rulebook": Rulebook, "rulebooks";
}

/// Draft-07 settings: the YAML language server handles draft-07 best.
pub fn schema_settings() -> SchemaSettings {
    SchemaSettings::draft07().with_transform(schemars::transform::RecursiveTransform(standard_formats))
}

/// The formats draft-07 defines. schemars names Rust's number types as formats (`uint32`,
/// `double`…), which editors and standard validators warn about as unknown: those become the
/// ranges they stand for (`minimum`/`maximum`), and the format goes.
const DRAFT07_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn standard_formats(schema: &mut schemars::Schema) {
    let Some(obj) = schema.as_object_mut() else { return };
    let Some(format) = obj.get("format").and_then(serde_json::Value::as_str) else { return };
    if DRAFT07_FORMATS.contains(&format) {
        return;
    }
    let range: (Option<i64>, Option<i64>) = match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "int32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "uint8" => (Some(0), Some(u8::MAX.into())),
        "uint16" => (Some(0), Some(u16::MAX.into())),
        "uint32" => (Some(0), Some(u32::MAX.into())),
        "uint" | "uint64" | "uint128" => (Some(0), None),
        _ => (None, None),
    };
    obj.remove("format");
    // A bound the type already states more tightly (`#[schemars(range(…))]`) stays.
    if let Some(min) = range.0 {
        let tighter = obj.get("minimum").and_then(serde_json::Value::as_f64).is_some_and(|m| m >= min as f64);
        if !tighter {
            obj.insert("minimum".into(), min.into());
        }
    }
    if let Some(max) = range.1 {
        let tighter = obj.get("maximum").and_then(serde_json::Value::as_f64).is_some_and(|m| m <= max as f64);
        if !tighter {
            obj.insert("maximum".into(), max.into());
        }
    }
}

/// The JSON Schema of one document kind, with the `kind` and `extends` keys every document may carry.
pub fn schema_for_kind(kind: DocKind) -> serde_json::Value {
    let mut schema = kind.raw_schema(schema_settings()).to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("$id".into(), format!("https://cav.dev/schemas/{}.schema.json", kind.tag()).into());
        if let Some(props) = obj.get_mut("properties").and_then(|p| p.as_object_mut()) {
            let mut with_kind = serde_json::Map::new();
            with_kind
                .insert("kind".into(), serde_json::json!({ "const": kind.tag(), "description": "Document kind." }));
            if kind != DocKind::Patch {
                with_kind.insert(
                    "extends".into(),
                    serde_json::json!({
                        "type": "string",
                        "pattern": ID_PATTERN,
                        "description": "Id of a document of the same kind in this pack whose values this one starts from."
                    }),
                );
            }
            with_kind.extend(std::mem::take(props));
            *props = with_kind;
        }
        if let Some(req) = obj.get_mut("required").and_then(|r| r.as_array_mut()) {
            req.insert(0, "kind".into());
        }
        if kind != DocKind::Patch {
            variant_required(obj);
        }
    }
    schema
}

/// The condition under which a document's fields are all required: it does not start from
/// another (`extends:`). Docs and tests find the variant rule by it.
pub fn not_a_variant() -> serde_json::Value {
    // (`properties` beside each `required`: a strict validator, Ajv's `strictRequired`, wants a
    // required key declared where it is required.)
    serde_json::json!({ "not": { "properties": { "extends": true }, "required": ["extends"] } })
}

/// A document with `extends:` takes every value it does not write from its parent (the loader
/// merges them before anything is checked against the rules), so it needs only `kind` and `id`;
/// the rest of the required fields are required of a document without `extends:`. Editors then
/// accept a variant as `cav validate` does, and every key and value check still applies.
fn variant_required(obj: &mut serde_json::Map<String, serde_json::Value>) {
    let Some(required) = obj.get("required").and_then(|r| r.as_array()).cloned() else { return };
    let (always, rest): (Vec<_>, Vec<_>) =
        required.into_iter().partition(|f| matches!(f.as_str(), Some("kind" | "id")));
    if rest.is_empty() {
        return;
    }
    obj.insert("required".into(), always.into());
    let declared: serde_json::Map<String, serde_json::Value> =
        rest.iter().filter_map(|f| f.as_str()).map(|f| (f.to_owned(), true.into())).collect();
    let rule = serde_json::json!({ "if": not_a_variant(), "then": { "properties": declared, "required": rest } });
    match obj.get_mut("allOf").and_then(|a| a.as_array_mut()) {
        Some(all) => all.push(rule),
        None => {
            obj.insert("allOf".into(), serde_json::json!([rule]));
        }
    }
}

/// The JSON Schema of `pack.yaml`.
pub fn manifest_schema() -> serde_json::Value {
    let mut schema = schema_settings().into_generator().into_root_schema_for::<Manifest>().to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("$id".into(), "https://cav.dev/schemas/pack.schema.json".into());
    }
    schema
}

/// Every schema file `cav schema` writes: `(file name, schema)`.
pub fn all_schemas() -> Vec<(String, serde_json::Value)> {
    let mut out = vec![("pack.schema.json".to_owned(), manifest_schema())];
    for &k in DocKind::ALL {
        out.push((format!("{}.schema.json", k.tag()), schema_for_kind(k)));
    }
    out
}

/// Schema files rendered as text, exactly as committed under `schemas/`.
pub fn render_schema(schema: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}
