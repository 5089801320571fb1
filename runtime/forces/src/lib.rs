//! Force building (full rules, 001 L594-1336): is a roster legal, what does it cost, and a bot
//! that builds a legal one for a budget.
//!
//! Every number and limit comes from the ruleset's data — its `force_building:` section, the
//! `squad_type`, `faction`, `model`, `upgrade` and `asset` documents — so a mod that changes a
//! squad's size or the specialization bonus changes the check without a recompile. Each
//! violation is a located diagnostic that cites the document (and so the rulebook line) it
//! comes from.

mod build;
mod check;
mod roster;

pub use build::{BuildRequest, build};
pub use check::check;
pub use roster::{Costs, Roster, c3_points, costs, to_yaml};

use cav_content::Ruleset;
use cav_format::{Document, ForceRules, Ruleset as RulesetDoc};

/// The ruleset document of a loaded ruleset.
pub fn ruleset_doc(rs: &Ruleset) -> Option<&RulesetDoc> {
    match rs.get(cav_format::DocKind::Ruleset, &rs.id)?.doc.as_ref()? {
        Document::Ruleset(r) => Some(r),
        _ => None,
    }
}

/// The force-building rules of a ruleset; `None` when its scenarios fix their forces.
pub fn force_rules(rs: &Ruleset) -> Option<&ForceRules> {
    ruleset_doc(rs)?.force_building.as_ref()
}
