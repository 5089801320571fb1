//! Rules documents: ruleset parameters, tables, terrain, move classes, model states,
//! action types, squad types and scenarios. Every number of the rules lives in these.
//!
//! One module per document kind, and one per part of the rules the ruleset's `procedures:`
//! configure; every type is re-exported here (`cav_format::rules::X`).

mod action_types;
mod attack;
mod attributes;
mod board;
mod close_combat;
mod combat;
mod damage;
mod model_states;
mod modifier_tables;
mod movement;
mod procedures;
mod range_bands;
mod reactions;
mod roll_kinds;
mod ruleset;
mod scenarios;
mod setup;
mod sight;
mod squads;
mod structures;
mod tables;
mod terrain;
mod transport;
mod turn_order;
mod victory;

pub use action_types::*;
pub use attack::*;
pub use attributes::*;
pub use board::*;
pub use close_combat::*;
pub use combat::*;
pub use damage::*;
pub use model_states::*;
pub use modifier_tables::*;
pub use movement::*;
pub use procedures::*;
pub use range_bands::*;
pub use reactions::*;
pub use roll_kinds::*;
pub use ruleset::*;
pub use scenarios::*;
pub use setup::*;
pub use sight::*;
pub use squads::*;
pub use structures::*;
pub use tables::*;
pub use terrain::*;
pub use transport::*;
pub use turn_order::*;
pub use victory::*;
