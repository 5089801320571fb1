//! A bot that builds a legal force for a faction and a threat value pool: squads of models the
//! faction may field, then upgrades with the specialization bonus. Every step is kept only if the
//! roster still passes [`crate::check`], so the bot can never produce what the check refuses.
//! All choices come from one seeded dice source: the same seed and content give the same force.

use cav_content::{Ruleset, Severity};
use cav_format::*;
use cav_rules::dice::{Dice, SeededDice};

use crate::check::{may_field, percent};
use crate::roster::{Roster, costs};

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildRequest {
    pub faction: String,
    pub tvp: u32,
    pub seed: u64,
}

/// Tries before the bot stops looking for another squad it can afford.
const SQUAD_TRIES: u32 = 40;
/// Tries at fitting an upgrade with what the bonus leaves.
const UPGRADE_TRIES: u32 = 60;

fn pick<'x, T>(dice: &mut SeededDice, items: &'x [T]) -> Option<&'x T> {
    if items.is_empty() {
        return None;
    }
    let n = items.len().min(u32::MAX as usize) as u32;
    items.get(dice.roll(n) as usize - 1)
}

fn legal(rs: &Ruleset, force: &Force) -> bool {
    !crate::check(rs, force, &|_| None, None).iter().any(|d| d.severity == Severity::Error)
}

/// Build a legal force, or say why none can be built.
pub fn build(rs: &Ruleset, req: &BuildRequest) -> Result<Force, String> {
    let r = Roster::new(rs);
    let rules = crate::force_rules(rs).ok_or_else(|| format!("ruleset `{}` does not build forces", rs.id))?;
    let faction = r
        .faction(&req.faction)
        .or_else(|| {
            let want = cav_content::ruleset::normalise_name(&req.faction);
            r.factions().find(|f| cav_content::ruleset::normalise_name(&f.name) == want)
        })
        .ok_or_else(|| {
            let ids: Vec<&str> = r.factions().map(|f| f.id.as_str()).collect();
            format!("no faction `{}`; factions: {}", req.faction, ids.join(", "))
        })?;
    let mut dice = SeededDice::new(req.seed);
    // Models of a declared faction that is not a fixture's only (a hand-written roster of the
    // fixture faction may still field them).
    let fieldable: Vec<&Model> = r
        .models()
        .filter(|m| r.faction_of(m).is_some_and(|f| !f.fixture) && may_field(&r, rules, faction, m).is_ok())
        .collect();
    if fieldable.is_empty() {
        return Err(format!("no model of the loaded content may serve in a {} force", faction.name));
    }
    let mut force = Force {
        id: Id(format!("{}-{}-tv-{}", faction.id.as_str(), req.seed, req.tvp)),
        name: format!("{} force group (built by the bot, seed {})", faction.name, req.seed),
        faction: faction.id.clone(),
        doctrine: None,
        tvp: req.tvp,
        squads: Vec::new(),
        assets: Vec::new(),
        strike_pools: Default::default(),
        summary: None,
        notes: Vec::new(),
    };
    // The faction's own models come first: a squad is of them wherever one fits its type, and of
    // open or allied models only where none does.
    let own: Vec<&Model> =
        fieldable.iter().filter(|m| r.faction_of(m).is_some_and(|f| f.id == faction.id)).copied().collect();
    let mut types: Vec<&SquadType> = r.squad_types().collect();
    types.sort_by(|a, b| a.id.as_str().cmp(b.id.as_str()));
    let mut misses = 0;
    while misses < SQUAD_TRIES {
        let Some(ty) = pick(&mut dice, &types) else { break };
        match squad(rules, ty, &fieldable, &own, &mut dice) {
            Some(sq) => {
                force.squads.push(sq);
                if legal(rs, &force) {
                    misses = 0;
                } else {
                    force.squads.pop();
                    misses += 1;
                }
            }
            None => misses += 1,
        }
    }
    if force.squads.is_empty() {
        return Err(format!("no legal squad of {} models fits in {} TV", faction.name, req.tvp));
    }
    upgrades(rs, &r, &mut force, percent(req.tvp, rules.specialization_bonus_percent), &mut dice);
    let spent = costs(rs, &force);
    force.summary = Some(format!(
        "Built for {} TV: models {}, upgrades {} (bonus {}).",
        req.tvp,
        spent.models,
        spent.upgrades,
        percent(req.tvp, rules.specialization_bonus_percent)
    ));
    Ok(force)
}

/// One squad of `ty` from the fieldable models — of the faction's `own` where any fits — : a
/// first model sets the task, type and variety, and the rest share them (so sameness rules hold),
/// sized at random within the type's limits.
fn squad(
    rules: &ForceRules,
    ty: &SquadType,
    fieldable: &[&Model],
    own: &[&Model],
    dice: &mut SeededDice,
) -> Option<ForceSquad> {
    let reserved_elsewhere = |m: &Model| {
        m.special_attributes.iter().any(|s| rules.reserved.iter().any(|x| x.sa == *s.id() && x.squad_type != ty.id))
    };
    let fits = |m: &&&Model| {
        (ty.model_types.is_empty() || ty.model_types.contains(&m.model_type))
            && (ty.tasks.is_empty() || m.task.is_some_and(|t| ty.tasks.contains(&t)))
            && !reserved_elsewhere(m)
    };
    let own_pool: Vec<&Model> = own.iter().filter(fits).copied().collect();
    let pool: Vec<&Model> =
        if own_pool.is_empty() { fieldable.iter().filter(fits).copied().collect() } else { own_pool };
    let first = *pick(dice, &pool)?;
    let mates: Vec<&Model> = pool
        .iter()
        .filter(|m| {
            m.task == first.task
                && (!(ty.same_model_type || ty.one_variety) || m.model_type == first.model_type)
                && (!ty.one_variety || m.chassis == first.chassis)
        })
        .copied()
        .collect();
    let weight = |m: &Model| {
        rules
            .heavy_models
            .iter()
            .filter(|h| m.special_attributes.iter().any(|s| *s.id() == h.sa))
            .map(|h| h.counts_as)
            .max()
            .unwrap_or(1)
    };
    let span = ty.max_models.saturating_sub(ty.min_models) + 1;
    let target = ty.min_models + dice.roll(span.clamp(1, 99)) - 1;
    let mut models: Vec<ForceModel> = Vec::new();
    let mut size = 0;
    while size < target {
        let m = *pick(dice, &mates)?;
        let w = weight(m);
        if size + w > ty.max_models {
            break;
        }
        size += w;
        match models.iter_mut().find(|x| x.model == m.id) {
            Some(x) => x.count += 1,
            None => models.push(ForceModel { model: m.id.clone(), count: 1, upgrades: Vec::new() }),
        }
    }
    if size < ty.min_models {
        return None;
    }
    Some(ForceSquad { squad_type: ty.id.clone(), name: None, models })
}

/// Spend the specialization bonus (not the reserve, so models keep the whole pool) on upgrades,
/// one model entry at a time, keeping each only if the force stays legal.
fn upgrades(rs: &Ruleset, r: &Roster, force: &mut Force, bonus: u32, dice: &mut SeededDice) {
    let ups: Vec<&Upgrade> = rs
        .of_kind(DocKind::Upgrade)
        .filter_map(|e| match e.doc.as_deref()? {
            Document::Upgrade(u) if u.profiles.is_empty() => Some(u),
            _ => None,
        })
        .collect();
    let slots: Vec<(usize, usize)> =
        force.squads.iter().enumerate().flat_map(|(si, s)| (0..s.models.len()).map(move |mi| (si, mi))).collect();
    for _ in 0..UPGRADE_TRIES {
        let (Some(&(si, mi)), Some(up)) = (pick(dice, &slots), pick(dice, &ups)) else { return };
        let entry = &mut force.squads[si].models[mi];
        if r.model(entry.model.as_str()).is_none() || entry.upgrades.iter().any(|u| u.id() == &up.id) {
            continue;
        }
        entry.upgrades.push(ForceUpgrade::Plain(up.id.clone()));
        if !legal(rs, force) || costs(rs, force).specializations() > bonus {
            force.squads[si].models[mi].upgrades.pop();
        }
    }
}
