//! `cav play`: a headless game between bots, told as a narrative; the event log as JSONL.

use std::fmt::Write;

use cav_rules::event::{Event, Roll};
use cav_rules::game::Game;
use cav_rules::setup::RosterForce;

fn name<'g>(g: &'g Game, model: usize) -> &'g str {
    g.models.get(model).map_or("?", |x| x.name.as_str())
}

fn roll_text(r: &Roll) -> String {
    let faces: Vec<String> = r.natural.iter().map(u32::to_string).collect();
    let mut s = format!("{} [{}]", r.dice, faces.join(","));
    for m in &r.mods {
        let _ = write!(s, " {:+} {}", m.value, m.source);
    }
    let _ = write!(s, " = {}", r.total);
    if let Some(t) = r.target {
        let _ = write!(s, " vs {t}");
    }
    match (r.critical, r.success) {
        (Some("fumble"), _) => s.push_str(": critical fumble"),
        (Some("success"), Some(true)) => s.push_str(": critical success"),
        (_, Some(true)) => s.push_str(": success"),
        (_, Some(false)) => s.push_str(": failure"),
        _ => {}
    }
    if let (Some(m), Some(true)) = (r.margin, r.success) {
        let _ = write!(s, ", MoS {m}");
    }
    s
}

/// One line (or none) per event, indented by nesting.
pub fn narrate(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::GameStart { ruleset, scenario, seed, board } => {
            format!(
                "{scenario} under {ruleset}, board {}\"×{}\", seed {}",
                board[0],
                board[1],
                seed.map_or("forced".into(), |s| s.to_string())
            )
        }
        Event::TerrainPlaced { terrain, center, radius } => {
            format!("  terrain: {terrain} ({:.0}\" across) at ({:.1}, {:.1})", radius * 2.0, center.x, center.y)
        }
        Event::Deployed { model, at, facing, .. } => {
            format!("  {} deploys at ({:.1}, {:.1}) facing {facing:.0}°", name(g, *model), at.x, at.y)
        }
        Event::TurnStart { turn } => format!("\nTurn {turn}"),
        Event::ObjectiveScored { side, points, areas: 0 } => format!("  {side} scores {points} objective point(s)"),
        Event::ObjectiveScored { side, points, areas } => {
            format!("  {side} controls {areas} objective area(s) and scores {points}")
        }
        Event::C3Spent { side, model, what, left } => {
            format!("  {side} spends a C3 point: {what} for {} ({left} left)", name(g, *model))
        }
        Event::SquadActivation { squad, side, models } => format!("  {side}'s {squad} activates ({models} models)"),
        Event::Activation { model, ap } => format!("  {} activates with {ap} AP", name(g, *model)),
        Event::Moved { model, from, to, mv_spent, facing } => format!(
            "    {} moves {:.1}\" to ({:.1}, {:.1}) for {mv_spent} MV, facing {facing:.0}°",
            name(g, *model),
            from.dist(*to),
            to.x,
            to.y
        ),
        Event::StoodUp { model } => format!("    {} stands up", name(g, *model)),
        Event::WentProne { model } => format!("    {} goes prone", name(g, *model)),
        Event::TargetLock { model, target } => format!("    {} locks on to {}", name(g, *model), name(g, *target)),
        Event::LockShared { model, from, target } => {
            format!("    {} shares its lock on {} with {}", name(g, *from), name(g, *target), name(g, *model))
        }
        Event::Overwatch { model } => format!("    {} goes on over-watch", name(g, *model)),
        Event::OverwatchFire { model, target } => {
            format!("    {} on over-watch stops {} and fires", name(g, *model), name(g, *target))
        }
        Event::CloseDefense { model, target } => {
            format!("    {} strikes first at {} attacking from close quarters", name(g, *model), name(g, *target))
        }
        Event::CounterBattery { model, target } => {
            format!("    {} answers with counter-battery fire at {}", name(g, *model), name(g, *target))
        }
        Event::DefensiveFire { model, target } => {
            format!("    {} declares defensive fire at {}", name(g, *model), name(g, *target))
        }
        Event::CloseCombat { model, target, supporters } => {
            format!("    {} assaults {} in close combat ({supporters} supporting)", name(g, *model), name(g, *target))
        }
        Event::Attack { model, target, weapon, mode, distance, band } => format!(
            "    {} fires {weapon} ({mode}) at {}, {distance}\"{}",
            name(g, *model),
            name(g, *target),
            band.as_ref().map(|b| format!(", {b} range")).unwrap_or_default()
        ),
        Event::NoAttack { model, weapon, reason, .. } => {
            format!("    {}: {weapon} cannot fire ({reason})", name(g, *model))
        }
        Event::Roll(r) => format!("      {} roll: {}", r.kind, roll_text(r)),
        Event::StrikePoint { at, .. } => format!("      strike point hit at ({:.1}, {:.1})", at.x, at.y),
        Event::AssetUsed { side, asset, detail, left } => format!("  {side} uses {asset}: {detail} ({left} left)"),
        Event::StrikeCalled { model, strike, at, cost, pool_left } => format!(
            "    {} calls in {strike} at ({:.1}, {:.1}): {cost} TV from the strike pool, {pool_left} left",
            name(g, *model),
            at.x,
            at.y
        ),
        Event::Drift { to, inches, .. } => format!("      drifts {inches:.0}\" to ({:.1}, {:.1})", to.x, to.y),
        // An NA RAV (the ruleset's `na_rav`, plus any bonus) cannot hurt the target: say so.
        Event::Hit { target, margin, rav, av, penetrated, changes, .. }
            if g.rules.proc.rolls.na_rav < 0 && *rav <= g.rules.proc.rolls.na_rav / 2 =>
        {
            format!(
                "      hit: MoS {margin}{}, RAV NA against {} (AV {av}{}): {}",
                why(changes, "MoS"),
                name(g, *target),
                why(changes, "AV"),
                if *penetrated { "penetrates" } else { "it cannot hurt it" }
            )
        }
        Event::Hit { target, margin, rav, av, penetrated, changes, .. } => format!(
            "      hit: MoS {margin}{} + RAV {rav}{} = {} vs AV {av}{} of {}: {}",
            why(changes, "MoS"),
            why(changes, "RAV"),
            margin + rav,
            why(changes, "AV"),
            name(g, *target),
            if *penetrated { "penetrates" } else { "deflected" }
        ),
        Event::DamageResult { row, damage, .. } => format!("      damage table: {row} ({damage} to apply)"),
        Event::OutOfAmmo { model, weapon, saved_by_reserve } => {
            if *saved_by_reserve {
                format!("      {}: {weapon} would be out of ammo; an ammo bin saves it", name(g, *model))
            } else {
                format!("      {}: {weapon} is out of ammo", name(g, *model))
            }
        }
        Event::DamageApplied { model, points, column, total } => {
            format!("    {} takes {points} damage ({total} in all, column {column})", name(g, *model))
        }
        Event::StateGained { model, state } => {
            let said = g.rules.states.iter().find(|s| s.name == *state).and_then(|s| s.narrative.clone());
            format!("    {} {}", name(g, *model), said.unwrap_or_else(|| format!("is {state}")))
        }
        Event::StateEnded { model, state } => format!("    {} is no longer {state}", name(g, *model)),
        Event::Critical { model, result } => format!("    {} critical damage: {result}", name(g, *model)),
        Event::Repaired { model, points, column } => {
            format!("    {} repairs {points} damage (column {column})", name(g, *model))
        }
        Event::MissionKill { model, reason } => {
            format!("    {} is a mission kill ({reason}) and must retreat", name(g, *model))
        }
        Event::HvoTaken { model } => format!("    {} picks up the high-value operative", name(g, *model)),
        Event::HvoDropped { model, at } => {
            format!("    {} is lost: the high-value operative stays at ({:.1}, {:.1})", name(g, *model), at.x, at.y)
        }
        Event::Container { number, what, side } => match side {
            Some(side) => format!("  container {number} {what} by {side}"),
            None => format!("  container {number} {what}"),
        },
        Event::Regrouped { squad, joined, kind, models } => {
            format!("  {joined} regroups into {squad}: one {kind} squad of {models} models")
        }
        Event::StructureAttack { model, weapon, at, distance, band } => format!(
            "    {} fires its {weapon} at the structure at ({:.1}, {:.1}), {distance}\" ({band})",
            name(g, *model),
            at.x,
            at.y
        ),
        Event::StructureHit { at, damage, armor_class, damage_points } => format!(
            "    the structure at ({:.1}, {:.1}) takes {damage} damage: armor class {armor_class}, {damage_points} damage points left",
            at.x, at.y
        ),
        Event::StructureCollapsed { at } => format!("    the structure at ({:.1}, {:.1}) collapses", at.x, at.y),
        Event::StructureWorn { at, armor_class } => {
            format!("    the structure at ({:.1}, {:.1}) is down to armor class {armor_class}", at.x, at.y)
        }
        Event::Flight { model, what } => {
            let how = match *what {
                "noe" => "flies nap of the earth",
                "noe-ends" => "climbs out of nap of the earth",
                "landed" => "lands",
                _ => "takes off",
            };
            format!("    {} {how}", name(g, *model))
        }
        Event::Towing { model, what } => {
            let how = if *what == "limbered" { "limbers up to be towed" } else { "unlimbers, ready to fire" };
            format!("    {} {how}", name(g, *model))
        }
        Event::Mounted { model, transport } => format!("    {} boards {}", name(g, *model), name(g, *transport)),
        Event::Dismounted { model, transport, at } => {
            format!("    {} dismounts from {} at ({:.1}, {:.1})", name(g, *model), name(g, *transport), at.x, at.y)
        }
        Event::Abandoned { model, reason } => format!("    {} is lost: {reason}", name(g, *model)),
        Event::Destroyed { model } => format!("    {} is destroyed", name(g, *model)),
        Event::TerrainLaid { model, terrain, at, radius, activations } => format!(
            "    {} lays {terrain} ({radius}\" radius) at ({:.1}, {:.1}) for {activations} of its activations",
            name(g, *model),
            at.x,
            at.y
        ),
        Event::TerrainLifted { terrain, at } => format!("    the {terrain} at ({:.1}, {:.1}) is gone", at.x, at.y),
        Event::LeftBoard { model } => format!("    {} leaves the board", name(g, *model)),
        Event::ScriptPrint { model, text } => format!("      [script, {}] {text}", name(g, *model)),
        Event::SpecialAction { model, target } => format!(
            "    {} takes a special action{}",
            name(g, *model),
            target.map(|t| format!(" on {}", name(g, t))).unwrap_or_default()
        ),
        Event::Forbidden { model, what, reason } => format!("    {}: {what} forbidden ({reason})", name(g, *model)),
        Event::ScriptEffect { point, by, source, effect, model, quantity, value, detail } => {
            let whose = format!("{}'s {source}", name(g, *by));
            let on = model.map(|m| name(g, m)).unwrap_or_default();
            let detail = detail.clone().unwrap_or_default();
            let value = value.unwrap_or(0.0);
            let what = match *effect {
                "add_modifier" => {
                    format!("{value:+} {} ({detail})", quantity.unwrap_or("?"))
                }
                "forbid" => format!("forbids: {detail}"),
                "set_value" => format!("sets the value to {value}"),
                "deal_damage" => format!("deals {value} damage to {on}"),
                "apply_state" => format!("makes {on} {detail}"),
                "clear_state" => format!("ends {detail} on {on}"),
                "spend_ammo" => format!("empties {on}'s {detail}"),
                "restore_ammo" => format!("reloads {on}'s {detail}"),
                other => other.to_owned(),
            };
            format!("      [{point}] {whose}: {what}")
        }
        Event::ActivationEnd { .. } | Event::TurnEnd { .. } => return None,
        Event::GameEnd { winner, turns, reason } => {
            format!(
                "\nGame over after {turns} turns: {} ({reason})",
                winner.as_ref().map_or("no winner".to_owned(), |w| format!("{w} wins"))
            )
        }
    })
}

/// Rosters for a scenario that leaves forces to the players (`cav play --force …`).
pub struct Rosters {
    pub files: Vec<std::path::PathBuf>,
    pub tv: Option<u32>,
    pub faction: String,
}

/// Each side's roster — the file given for it, or one the bot builds — as squads of cards.
/// Says on stderr what of a roster is not played yet.
pub fn roster_squads(
    loaded: &mut cav_content::Loaded,
    ruleset: &str,
    rules: &mut cav_rules::Rules,
    sc: usize,
    seed: u64,
    r: &Rosters,
) -> Result<Result<Vec<RosterForce>, InvalidRoster>, String> {
    let rs = loaded.ruleset(ruleset).cloned().ok_or("no ruleset")?;
    let scenario = &rules.scenarios[sc].clone();
    let Some(force_rules) = cav_forces::force_rules(&rs) else {
        return Err(format!(
            "scenario `{}` does not fix its forces and ruleset `{}` does not build them",
            scenario.id, rs.id
        ));
    };
    if r.files.len() > scenario.sides.len() {
        return Err(format!("{} rosters for the {} sides of `{}`", r.files.len(), scenario.sides.len(), scenario.id));
    }
    let scenario_doc = match rs.get(cav_format::DocKind::Scenario, &scenario.id).and_then(|e| e.doc.as_ref()) {
        Some(cav_format::Document::Scenario(d)) => Some(d.clone()),
        _ => None,
    };
    let scenario_doc = scenario_doc.as_ref();
    if let Some(why) = scenario.unplayed_victory() {
        eprintln!(
            "note: the victory conditions of `{}` are not played yet ({why}); the game ends when a side has no models left, or at the turn limit by surviving TV",
            scenario.id
        );
    }
    let mut out = Vec::new();
    for (side, (side_name, _)) in scenario.sides.iter().enumerate() {
        let force = match r.files.get(side) {
            Some(file) => {
                let (docs, diags) = cav_content::read_loose(loaded, file, cav_format::DocKind::Force);
                let [doc] = docs.as_slice() else {
                    eprint!("{}", cav_content::diag::render_errors(&diags, &loaded.sources));
                    eprintln!("error: {} must hold exactly one valid `kind: force` document", file.display());
                    return Ok(Err(InvalidRoster));
                };
                let cav_format::Document::Force(f) = &doc.doc else {
                    return Err(format!("{} holds no `kind: force` document", file.display()));
                };
                let found = cav_forces::check(&rs, f, &|p| doc.prov.locate(p), None);
                if found.iter().any(|d| d.severity == cav_content::Severity::Error) {
                    eprint!("{}", cav_content::diag::render_errors(&found, &loaded.sources));
                    eprintln!(
                        "error: {} breaks the force-building rules (`cav force check` shows them)",
                        file.display()
                    );
                    return Ok(Err(InvalidRoster));
                }
                f.clone()
            }
            None => {
                // A side may get a share of the pool (a defender's 75 %, 001 L1989).
                let share = scenario_doc.and_then(|d| d.deployment.get(side)).map_or(100, |d| d.tv_percent);
                let tvp = (r.tv.unwrap_or(force_rules.recommended_tvp) as u64 * share as u64 / 100).max(1) as u32;
                let req = cav_forces::BuildRequest {
                    faction: r.faction.clone(),
                    tvp,
                    seed: seed.wrapping_mul(1_000).wrapping_add(side as u64),
                };
                cav_forces::build(&rs, &req)?
            }
        };
        let spent = cav_forces::costs(&rs, &force);
        let models: u32 = force.squads.iter().flat_map(|s| &s.models).map(|m| m.count).sum();
        eprintln!(
            "{side_name} fields `{}`: {} squads, {models} models, TV {} of a {} pool",
            force.id.as_str(),
            force.squads.len(),
            spent.total(),
            force.tvp
        );
        let squads = cav_forces::roster_force(&rs, &force, rules)?;
        if squads.bonus > 0 {
            eprintln!(
                "{side_name}'s force group bonus: {} TV of the pool left unspent, added to its surviving TVP with what its strike pools still hold at the end",
                squads.bonus
            );
        }
        let held = |id: &str| rules.assets.iter().any(|d| d.id == id && d.held());
        let (in_hand, unplaced): (Vec<&cav_format::ForceAsset>, Vec<_>) =
            force.assets.iter().partition(|a| held(a.asset.as_str()));
        if !in_hand.is_empty() {
            let ids: Vec<String> = in_hand.iter().map(|a| format!("{} × {}", a.asset.as_str(), a.count)).collect();
            eprintln!("{side_name} holds {} off the table", ids.join(", "));
        }
        if !unplaced.is_empty() {
            let ids: Vec<&str> = unplaced.iter().map(|a| a.asset.as_str()).collect();
            eprintln!(
                "note: {side_name}'s battlefield assets ({}) are not placed on the table in `cav play` yet: their TV is spent, they take no part",
                ids.join(", ")
            );
        }
        if !squads.strike_pools.is_empty() {
            let pools: Vec<String> = squads.strike_pools.iter().map(|(p, tv)| format!("{p:?} {tv} TV")).collect();
            eprintln!("{side_name}'s strike pools: {} (its FIST models call strikes from them)", pools.join(", "));
        }
        out.push(squads);
    }
    Ok(Ok(out))
}

/// A roster file that is not a legal force (already reported on stderr): invalid content, exit 1.
pub struct InvalidRoster;

/// What changed a hit's margin, RAV or AV, and why: ` (−1 Reinforced, +1 Overcharge)`.
fn why(changes: &[cav_rules::event::HitChange], to: &str) -> String {
    let parts: Vec<String> = changes
        .iter()
        .filter(|c| c.to == to)
        .map(|c| format!("{}{} {}", if c.value < 0 { "−" } else { "+" }, c.value.unsigned_abs(), c.source))
        .collect();
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) }
}
