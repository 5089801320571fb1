//! The forces of a scenario that leaves them to the players: the rosters asked for on the
//! command line (`--force` files, or built by the bot) or recorded in a log, fielded as squads of
//! cards, and told on stderr.

use cav_rules::setup::RosterForce;
use serde::{Deserialize, Serialize};

use crate::replay::SideForce;
use crate::result_cache::RulesCache;

/// Rosters for a scenario that leaves forces to the players: the options `cav play` and
/// `cav sim` share.
#[derive(clap::Args, Clone)]
pub struct Rosters {
    /// A roster (`kind: force` file) per side, in the scenario's side order, for a scenario that
    /// leaves forces to the players; a side without one gets a roster built by the bot.
    #[arg(long = "force", value_name = "FILE")]
    pub files: Vec<std::path::PathBuf>,
    /// Threat value pool of the rosters the bot builds (default: the ruleset's recommended pool).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub tv: Option<u32>,
    /// Faction of the rosters the bot builds.
    #[arg(long, default_value = "open")]
    pub faction: String,
}

/// Each side's roster as squads of cards on the table, and as the log's header records it.
pub type Fielded = (Vec<RosterForce>, Vec<SideForce>);

/// Where each side's roster comes from: chosen now (a `--force` file, or the bot's), or as a log
/// recorded them (`cav replay`).
pub enum Chosen<'a> {
    Now(&'a Rosters),
    Recorded(&'a [SideForce]),
}

/// Each side's roster as chosen, with what fielding it reads of the content's ruleset (its C3
/// points and force group bonus, `cav_forces::field`) and what choosing it told on stderr: what
/// an earlier run keeps (`RulesCache::keep_rosters`), so a game with the same rosters starts from
/// the compiled rules alone.
#[derive(Serialize, Deserialize)]
pub struct Picked {
    /// The scenario they were chosen for (`Rules::scenarios` index).
    pub sc: usize,
    pub sides: Vec<SideForce>,
    /// Per side: C3 points, force group bonus.
    pub fielding: Vec<(u32, u32)>,
    pub told: String,
}

impl Picked {
    /// The squads on the table (each side's fitted cards added to `rules`, in side order), with
    /// the rosters as chosen.
    pub fn field(&self, rules: &mut cav_rules::Rules) -> Result<Fielded, String> {
        let mut out = Vec::new();
        for (s, &(c3, bonus)) in self.sides.iter().zip(&self.fielding) {
            out.push(cav_forces::field(&s.force, rules, c3, bonus)?);
        }
        Ok((out, self.sides.clone()))
    }
}

/// Choose each side's roster — the file given for it, one the bot builds, or the one a log
/// recorded — without fielding it ([`Picked::field`]). Rosters chosen now are told on stderr as
/// they are chosen (what each side fields, what of a roster is not played yet); recorded ones not.
pub fn pick(
    loaded: &mut cav_content::Loaded,
    rs: &cav_content::Ruleset,
    rules: &cav_rules::Rules,
    sc: usize,
    seed: u64,
    chosen: &Chosen,
) -> Result<Result<Picked, InvalidRoster>, String> {
    let mut told = String::new();
    let mut tell = |line: String| {
        eprintln!("{line}");
        told.push_str(&line);
        told.push('\n');
    };
    let scenario = &rules.scenarios[sc].clone();
    let Some(force_rules) = cav_forces::force_rules(rs) else {
        return Err(format!(
            "scenario `{}` does not fix its forces and ruleset `{}` does not build them",
            scenario.id, rs.id
        ));
    };
    let given = match chosen {
        Chosen::Now(r) => r.files.len(),
        Chosen::Recorded(f) => f.len(),
    };
    if given > scenario.sides.len() {
        return Err(format!("{given} rosters for the {} sides of `{}`", scenario.sides.len(), scenario.id));
    }
    let scenario_doc = match rs.get(cav_format::DocKind::Scenario, &scenario.id).and_then(|e| e.doc.as_deref()) {
        Some(cav_format::Document::Scenario(d)) => Some(d.clone()),
        _ => None,
    };
    let scenario_doc = scenario_doc.as_ref();
    if let Some(why) = scenario.unplayed_victory().filter(|_| matches!(chosen, Chosen::Now(_))) {
        tell(format!(
            "note: the victory conditions of `{}` are not played yet ({why}); the game ends when a side has no models left, or at the turn limit by surviving TV",
            scenario.id
        ));
    }
    let (mut fielding, mut sides) = (Vec::new(), Vec::new());
    // What fielding a roster reads of the ruleset: its C3 points and force group bonus.
    let costed =
        |f: &cav_format::Force| (cav_forces::c3_points(rs, f), f.tvp.saturating_sub(cav_forces::costs(rs, f).total()));
    for (side, (side_name, _)) in scenario.sides.iter().enumerate() {
        let (r, file) = match chosen {
            Chosen::Now(r) => (r, r.files.get(side)),
            Chosen::Recorded(f) => {
                let Some(f) = f.get(side) else {
                    return Err(format!("the log records no roster for side {side_name} of `{}`", scenario.id));
                };
                fielding.push(costed(&f.force));
                sides.push(f.clone());
                continue;
            }
        };
        let force = match file {
            Some(file) => match roster_file(loaded, rs, file)? {
                Ok(f) => f,
                Err(InvalidRoster) => return Ok(Err(InvalidRoster)),
            },
            None => {
                // A side may get a share of the pool (a defender's 75 %, 001 L1989).
                let share = scenario_doc.and_then(|d| d.deployment.get(side)).map_or(100, |d| d.tv_percent);
                let tvp = (r.tv.unwrap_or(force_rules.recommended_tvp) as u64 * share as u64 / 100).max(1) as u32;
                let req = cav_forces::BuildRequest {
                    faction: r.faction.clone(),
                    tvp,
                    seed: seed.wrapping_mul(1_000).wrapping_add(side as u64),
                };
                cav_forces::build(rs, &req)?
            }
        };
        let from = if file.is_some() { "roster" } else { "bot" };
        sides.push(SideForce { side: side_name.clone(), from: from.to_owned(), force: force.clone() });
        let spent = cav_forces::costs(rs, &force);
        let models: u32 = force.squads.iter().flat_map(|s| &s.models).map(|m| m.count).sum();
        tell(format!(
            "{side_name} fields `{}`: {} squads, {models} models, TV {} of a {} pool",
            force.id.as_str(),
            force.squads.len(),
            spent.total(),
            force.tvp
        ));
        let (c3, bonus) = costed(&force);
        tell_fielded(side_name, &force, bonus, rules, &mut tell);
        fielding.push((c3, bonus));
    }
    Ok(Ok(Picked { sc, sides, fielding, told }))
}

/// The roster of a `--force` file: its one `kind: force` document, held to the force-building
/// rules. `Ok(Err(InvalidRoster))`: it is not a legal force (said on stderr).
fn roster_file(
    loaded: &mut cav_content::Loaded,
    rs: &cav_content::Ruleset,
    file: &std::path::Path,
) -> Result<Result<cav_format::Force, InvalidRoster>, String> {
    let (docs, diags) = cav_content::read_loose(loaded, file, cav_format::DocKind::Force);
    let [doc] = docs.as_slice() else {
        eprint!("{}", cav_content::diag::render_errors(&diags, &loaded.sources));
        eprintln!("error: {} must hold exactly one valid `kind: force` document", file.display());
        return Ok(Err(InvalidRoster));
    };
    let cav_format::Document::Force(f) = &doc.doc else {
        return Err(format!("{} holds no `kind: force` document", file.display()));
    };
    let found = cav_forces::check(rs, f, &|p| doc.prov.locate(p), None);
    if found.iter().any(|d| d.severity == cav_content::Severity::Error) {
        eprint!("{}", cav_content::diag::render_errors(&found, &loaded.sources));
        eprintln!("error: {} breaks the force-building rules (`cav force check` shows them)", file.display());
        return Ok(Err(InvalidRoster));
    }
    Ok(Ok(f.clone()))
}

/// What a side's roster brings besides its squads, told on stderr: its force group bonus, the
/// assets it holds or sets down (and those not played yet), its strike pools.
fn tell_fielded(
    side_name: &str,
    force: &cav_format::Force,
    bonus: u32,
    rules: &cav_rules::Rules,
    tell: &mut impl FnMut(String),
) {
    if bonus > 0 {
        tell(format!(
            "{side_name}'s force group bonus: {} TV of the pool left unspent, added to its surviving TVP with what its strike pools still hold at the end",
            bonus
        ));
    }
    let held = |id: &str| rules.assets.iter().any(|d| d.id == id && d.held());
    let piece = |id: &str| rules.assets.iter().any(|d| d.id == id && d.piece.is_some());
    let (in_hand, rest): (Vec<&cav_format::ForceAsset>, Vec<_>) =
        force.assets.iter().partition(|a| held(a.asset.as_str()));
    let (set_down, unplaced): (Vec<&cav_format::ForceAsset>, Vec<_>) =
        rest.into_iter().partition(|a| piece(a.asset.as_str()));
    if !in_hand.is_empty() {
        let ids: Vec<String> = in_hand.iter().map(|a| format!("{} × {}", a.asset.as_str(), a.count)).collect();
        tell(format!("{side_name} holds {} off the table", ids.join(", ")));
    }
    if !set_down.is_empty() {
        let ids: Vec<String> = set_down
            .iter()
            .map(|a| match &a.variant {
                Some(v) => format!("{} ({v}) × {}", a.asset.as_str(), a.count),
                None => format!("{} × {}", a.asset.as_str(), a.count),
            })
            .collect();
        tell(format!(
            "{side_name} sets down {} before deployment, placed by the bot in front of its zone (a piece an ambushing model may bring waits for it)",
            ids.join(", ")
        ));
    }
    if !unplaced.is_empty() {
        let ids: Vec<&str> = unplaced.iter().map(|a| a.asset.as_str()).collect();
        tell(format!(
            "note: {side_name}'s battlefield assets ({}) are not placed on the table in `cav play` yet: their TV is spent, they take no part",
            ids.join(", ")
        ));
    }
    if !force.strike_pools.is_empty() {
        let pools: Vec<String> = force.strike_pools.iter().map(|(p, tv)| format!("{p:?} {tv} TV")).collect();
        tell(format!("{side_name}'s strike pools: {} (its FIST models call strikes from them)", pools.join(", ")));
    }
}

/// A roster file that is not a legal force (already reported on stderr): invalid content, exit 1.
pub struct InvalidRoster;

/// The rosters `rosters` asks for, fielded when scenario `sc` leaves forces to the players
/// (`cav play`, `cav sim`, `cav map`); `None` when it fixes its forces, where `--force` is a usage
/// error.
pub fn field_rosters(
    loaded: &mut cav_content::Loaded,
    rs: &cav_content::Ruleset,
    rules: &mut cav_rules::Rules,
    sc: usize,
    seed: u64,
    rosters: &Rosters,
    keep: Option<(&RulesCache, Option<&str>)>,
) -> Result<Result<Option<Fielded>, InvalidRoster>, String> {
    if rules.scenarios[sc].forces.is_empty() {
        // Kept for the next run of the same game (`keep`: the cache, the scenario as asked),
        // unless a roster file changed while it was chosen.
        let key = keep.and_then(|(cache, named)| cache.rosters_key(rules, sc, named, seed, rosters));
        let picked = match pick(loaded, rs, rules, sc, seed, &Chosen::Now(rosters))? {
            Ok(picked) => picked,
            Err(invalid) => return Ok(Err(invalid)),
        };
        if let (Some((cache, named)), Some(key)) = (keep, key)
            && cache.rosters_key(rules, sc, named, seed, rosters) == Some(key)
        {
            cache.keep_rosters(key, &picked);
        }
        Ok(Ok(Some(picked.field(rules)?)))
    } else if !rosters.files.is_empty() {
        Err(format!("scenario `{}` fixes its forces; --force is for scenarios that do not", rules.scenarios[sc].id))
    } else {
        Ok(Ok(None))
    }
}
