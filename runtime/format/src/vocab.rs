//! The engine's whole vocabulary, declared once: every word a pack may use where the engine has
//! to understand it — hook points, effect targets, condition ids and families, action ids, model
//! types and their traits, engine options and their values, and the effects a hook may ask for.
//!
//! Each word says whether the engine implements it or only recognises it. Everything else is
//! generated from these tables: the schema enums (so editors complete the words), the Luau
//! definitions, `docs/vocabulary.md`, and the checks `cav validate` runs when it compiles a
//! ruleset. A word outside the vocabulary is an error; a word that is recognised but not
//! implemented is a warning that says so.
//!
//! To teach the engine a new word: add its entry here, then its implementation (a condition, an
//! action, an effect) in `cav-rules`; a test there fails when the two disagree.
//!
//! The words live in one module per family (below); every one is re-exported here
//! (`cav_format::vocab::X`).

/// Whether the engine implements a word or only recognises it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Implemented,
    /// Recognised, with the reason it does nothing yet (said in the warning).
    Recognised(&'static str),
}

impl Status {
    pub fn implemented(self) -> bool {
        self == Status::Implemented
    }
    /// `implemented`, or `recognised: <why>`.
    pub fn describe(self) -> String {
        match self {
            Status::Implemented => "implemented".into(),
            Status::Recognised(why) => format!("recognised, not implemented: {why}"),
        }
    }
}

use Status::{Implemented as I, Recognised as R};

/// A closed set of words that is a serde enum in the documents (hook points, effect targets, …).
macro_rules! words {
    ($(#[$meta:meta])* $name:ident, $what:literal { $( $variant:ident = $id:literal, $status:expr, $doc:literal; )* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum $name { $( #[doc = $doc] #[serde(rename = $id)] $variant, )* }

        /// A plain string enum (what editors complete best), each word's meaning beside it.
        impl JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                let ids: Vec<&str> = vec![$( $id, )*];
                let docs: Vec<String> = vec![$( format!("{}{}", $doc, match $status {
                    Status::Implemented => String::new(),
                    Status::Recognised(why) => format!(" (recognised, not implemented: {why})"),
                }), )*];
                schemars::json_schema!({
                    "type": "string",
                    "enum": ids,
                    "enumDescriptions": docs,
                    "description": format!("A {} of the engine's vocabulary (docs/vocabulary.md).", $what),
                })
            }
        }

        impl $name {
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )* ];
            /// The word as packs and scripts write it.
            pub fn id(self) -> &'static str {
                match self { $( $name::$variant => $id, )* }
            }
            pub fn doc(self) -> &'static str {
                match self { $( $name::$variant => $doc, )* }
            }
            pub fn status(self) -> Status {
                match self { $( $name::$variant => $status, )* }
            }
            pub fn from_id(id: &str) -> Option<$name> {
                match id { $( $id => Some($name::$variant), )* _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }
    };
}

mod actions;
mod conditions;
mod hooks;
mod models;
mod modifier_targets;
mod options;
mod page;
mod ruleset;

pub use actions::*;
pub use conditions::*;
pub use hooks::*;
pub use models::*;
pub use modifier_targets::*;
pub use options::*;
pub use page::*;
pub use ruleset::*;
