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
    SchemaSettings::draft07()
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
    }
    schema
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
