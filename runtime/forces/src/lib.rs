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
pub use check::{check, check_ruleset};
pub use roster::{Costs, Roster, c3_points, costs, to_yaml};

use cav_content::Ruleset;
use cav_format::{Document, ForceRules, Ruleset as RulesetDoc};

/// A roster as the engine deploys it: each squad's name, type and the cards of its models
/// (`count` copies each, looked up in the compiled rules, with their upgrades fitted — the fitted
/// cards are added to `rules`), and the force's C3 pool.
pub fn roster_force(
    rs: &Ruleset,
    force: &cav_format::Force,
    rules: &mut cav_rules::Rules,
) -> Result<cav_rules::setup::RosterForce, String> {
    // The pool left unspent; what the strike pools still hold at the end joins it then.
    let bonus = force.tvp.saturating_sub(roster::costs(rs, force).total());
    field(force, rules, c3_points(rs, force), bonus)
}

/// [`roster_force`] with what it reads of the content's ruleset given: the force's C3 points and
/// its force group bonus. A roster kept from an earlier run (with those two) is fielded from the
/// compiled rules alone.
pub fn field(
    force: &cav_format::Force,
    rules: &mut cav_rules::Rules,
    c3: u32,
    bonus: u32,
) -> Result<cav_rules::setup::RosterForce, String> {
    let mut squads = Vec::new();
    for (i, sq) in force.squads.iter().enumerate() {
        let mut cards = Vec::new();
        for m in &sq.models {
            let card = rules
                .card(m.model.as_str())
                .ok_or_else(|| format!("model `{}` is not in the rules", m.model.as_str()))?;
            let mut ups = Vec::new();
            for u in &m.upgrades {
                let ix = rules
                    .upgrade(u.id().as_str())
                    .ok_or_else(|| format!("upgrade `{}` is not in the rules", u.id()))?;
                ups.push(cav_rules::compile::Fitting {
                    upgrade: ix,
                    weapon: u.weapon().map(|w| w.as_str()),
                    choice: u.choice().map(|c| c.as_str()),
                    variant: u.variant().map(|v| v.as_str()),
                    times: u.times(),
                });
            }
            let card = rules.fit(card, &ups);
            cards.extend(std::iter::repeat_n(card, m.count as usize));
        }
        let name = sq.name.clone().unwrap_or_else(|| format!("{} {}", sq.squad_type.as_str(), i + 1));
        squads.push(cav_rules::setup::SquadCards { name, kind: sq.squad_type.as_str().to_owned(), cards });
    }
    // Each weapon emplacement bought: its weapon card (the check made sure it is one). Its model
    // counts towards what one side may field.
    let mut emplacements = Vec::new();
    for a in &force.assets {
        let Some(e) = &a.emplacement else { continue };
        let card =
            rules.card(e.model.as_str()).ok_or_else(|| format!("model `{}` is not in the rules", e.model.as_str()))?;
        let room = (cav_format::limits::MAX_MODELS_PER_SIDE + 1).saturating_sub(emplacements.len());
        emplacements.extend(std::iter::repeat_n((card, e.sections.clamp(1, 9)), (a.count as usize).min(room)));
    }
    let fielded: usize = squads.iter().map(|s| s.cards.len()).sum::<usize>() + emplacements.len();
    if fielded > cav_format::limits::MAX_MODELS_PER_SIDE {
        return Err(format!(
            "the force fields {fielded} models, more than the {} one side may field",
            cav_format::limits::MAX_MODELS_PER_SIDE
        ));
    }
    Ok(cav_rules::setup::RosterForce {
        squads,
        c3,
        pool: Some(force.tvp),
        bonus,
        strike_pools: force.strike_pools.clone(),
        held: force
            .assets
            .iter()
            .filter_map(|a| {
                let ix = rules.assets.iter().position(|d| d.id == a.asset.as_str() && d.held())?;
                Some((ix, a.count))
            })
            .collect(),
        pieces: force
            .assets
            .iter()
            .filter(|a| a.emplacement.is_none())
            .filter_map(|a| {
                let ix = rules.assets.iter().position(|d| d.id == a.asset.as_str() && d.piece.is_some())?;
                let variant = a.variant.as_ref().and_then(|v| rules.terrain(v.as_str()));
                Some((ix, variant, a.count))
            })
            .collect(),
        emplacements,
    })
}

/// The ruleset document of a loaded ruleset.
pub fn ruleset_doc(rs: &Ruleset) -> Option<&RulesetDoc> {
    match rs.get(cav_format::DocKind::Ruleset, &rs.id)?.doc.as_deref()? {
        Document::Ruleset(r) => Some(r),
        _ => None,
    }
}

/// The force-building rules of a ruleset; `None` when its scenarios fix their forces.
pub fn force_rules(rs: &Ruleset) -> Option<&ForceRules> {
    ruleset_doc(rs)?.force_building.as_ref()
}
