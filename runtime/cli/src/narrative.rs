//! The narrative of a game: one line (or none) per event, indented by nesting, models by name —
//! what `cav play` prints and `cav test --verbose` shows of a failing test.

use std::fmt::Write;

use cav_rules::compile::HexGeometry;
use cav_rules::event::{Event, Roll};
use cav_rules::game::Game;
use cav_rules::geom::P;

fn name<'g>(g: &'g Game, model: usize) -> &'g str {
    g.models.get(model).map_or("?", |x| x.name.as_str())
}

fn roll_text(g: &Game, r: &Roll) -> String {
    let faces: Vec<String> = r.natural.iter().map(u32::to_string).collect();
    let mut s = format!("{} [{}]", r.dice, faces.join(","));
    // A roll kind that must stay under its target takes its modifiers on the target.
    let under = g.rules.roll_kinds.iter().any(|k| k.id == r.kind && k.succeeds == cav_format::RollDirection::AtMost);
    let mods = |s: &mut String| {
        for m in &r.mods {
            let _ = write!(s, " {:+} {}", m.value, m.source);
        }
    };
    if !under {
        mods(&mut s);
    }
    let _ = write!(s, " = {}", r.total);
    match r.target {
        Some(t) if under && !r.mods.is_empty() => {
            let base = r.mods.iter().fold(t, |t, m| t.saturating_sub(m.value));
            let _ = write!(s, " vs {base}");
            mods(&mut s);
            let _ = write!(s, " = {t}");
        }
        Some(t) => {
            let _ = write!(s, " vs {t}");
        }
        None => {}
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

/// One line (or none) per event, indented by nesting. Names, labels, flags and script prints come
/// from packs: a control character in them is shown escaped (`\u{1b}`), never sent to the
/// terminal or the report as it is.
pub fn narrate(g: &Game, e: &Event) -> Option<String> {
    let line = cav_content::diag::shown(&told(g, e)?);
    // A turn and the game's end open a paragraph: the blank line is ours, added after escaping.
    Some(if matches!(e, Event::TurnStart { .. } | Event::GameEnd { .. }) { format!("\n{line}") } else { line })
}

fn told(g: &Game, e: &Event) -> Option<String> {
    match e {
        Event::GameStart { .. }
        | Event::TerrainPlaced { .. }
        | Event::Deployed { .. }
        | Event::TurnStart { .. }
        | Event::ObjectiveScored { .. }
        | Event::C3Spent { .. }
        | Event::SquadActivation { .. }
        | Event::ActivationPassed { .. }
        | Event::PoolFilled { .. }
        | Event::PoolSpent { .. }
        | Event::Reacted { .. }
        | Event::Answered { .. }
        | Event::ActionTaken { .. }
        | Event::Activation { .. }
        | Event::AssetUsed { .. }
        | Event::HvoTaken { .. }
        | Event::HvoDropped { .. }
        | Event::Container { .. }
        | Event::Regrouped { .. }
        | Event::GameEnd { .. } => course(g, e),
        Event::Moved { .. }
        | Event::StoodUp { .. }
        | Event::Turned { .. }
        | Event::WentProne { .. }
        | Event::TargetLock { .. }
        | Event::LockShared { .. }
        | Event::Overwatch { .. }
        | Event::PoppedUp { .. }
        | Event::OverwatchFire { .. }
        | Event::CloseDefense { .. }
        | Event::CounterBattery { .. }
        | Event::DefensiveFire { .. }
        | Event::CloseCombat { .. }
        | Event::Flight { .. }
        | Event::Towing { .. }
        | Event::Mounted { .. }
        | Event::Dismounted { .. }
        | Event::LeftBoard { .. }
        | Event::Placed { .. }
        | Event::MarkerPlaced { .. }
        | Event::MarkerRemoved { .. }
        | Event::SpecialAction { .. }
        | Event::Forbidden { .. } => orders(g, e),
        Event::Attack { .. }
        | Event::NoAttack { .. }
        | Event::Roll(_)
        | Event::StrikePoint { .. }
        | Event::Aimed { .. }
        | Event::StrikeCalled { .. }
        | Event::Drift { .. }
        | Event::Hit { .. }
        | Event::DamageResult { .. }
        | Event::Opposed { .. }
        | Event::DamagePoints { .. }
        | Event::OutOfAmmo { .. } => fire(g, e),
        Event::DamageApplied { .. }
        | Event::DamageShared { .. }
        | Event::HeldDamage { .. }
        | Event::Melee { .. }
        | Event::OutOfCoherency { .. }
        | Event::StateGained { .. }
        | Event::StateEnded { .. }
        | Event::StateIgnored { .. }
        | Event::Critical { .. }
        | Event::TableResult { .. }
        | Event::AttributeChanged { .. }
        | Event::WeaponDamaged { .. }
        | Event::TableRollsCut { .. }
        | Event::Repaired { .. }
        | Event::MissionKill { .. }
        | Event::Abandoned { .. }
        | Event::Destroyed { .. }
        | Event::OutOfAction { .. } => harm(g, e),
        Event::StructureAttack { .. }
        | Event::StructureHit { .. }
        | Event::StructureCollapsed { .. }
        | Event::StructureWorn { .. }
        | Event::TerrainLaid { .. }
        | Event::Submunition { .. }
        | Event::Cloud { .. }
        | Event::TerrainLifted { .. } => battlefield(g, e),
        Event::ScriptPrint { .. } | Event::ScriptEffect { .. } => scripts(g, e),
        Event::ActivationEnd { .. } | Event::TurnEnd { .. } => None,
    }
}

/// Where a point is: `(x, y)` in inches, or on a hex board the hex, `hex [column, row]`.
fn place(g: &Game, p: P) -> String {
    match &g.rules.hexes {
        Some(h) => {
            let [c, r] = h.offset(h.hex_at(p));
            format!("hex [{c}, {r}]")
        }
        None => format!("({:.1}, {:.1})", p.x, p.y),
    }
}

/// A distance: inches, or on a hex board hexes (the straight line between hex centres, in
/// hex sizes).
fn length(g: &Game, inches: f64) -> String {
    match &g.rules.hexes {
        Some(h) => {
            let n = (inches / h.across_flats).round();
            format!("{n:.0} hex{}", if n == 1.0 { "" } else { "es" })
        }
        None => format!("{inches:.1}\""),
    }
}

/// The game's course: set-up, turns and activations, objectives, assets and the end.
fn course(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::GameStart { ruleset, scenario, seed, board, .. } => {
            format!(
                "{scenario} under {ruleset}, board {}\"×{}\", seed {}",
                board[0],
                board[1],
                seed.map_or("forced".into(), |s| s.to_string())
            )
        }
        Event::TerrainPlaced { terrain, center, radius } => match &g.rules.hexes {
            Some(_) => format!("  terrain: {terrain} at {}", place(g, *center)),
            None => format!("  terrain: {terrain} ({:.0}\" across) at {}", radius * 2.0, place(g, *center)),
        },
        Event::Deployed { model, at, facing, .. } => {
            format!("  {} deploys at {} facing {facing:.0}°", name(g, *model), place(g, *at))
        }
        Event::TurnStart { turn } => format!("Turn {turn}"),
        Event::ObjectiveScored { side, points, areas: 0 } => format!("  {side} scores {points} objective point(s)"),
        Event::ObjectiveScored { side, points, areas } => {
            format!("  {side} controls {areas} objective area(s) and scores {points}")
        }
        Event::C3Spent { side, model, what, left } => {
            format!("  {side} spends a C3 point: {what} for {} ({left} left)", name(g, *model))
        }
        Event::SquadActivation { squad, side, models } => format!("  {side}'s {squad} activates ({models} models)"),
        Event::ActivationPassed { side } => format!("  {side}'s activation was its reaction: the turn passes"),
        Event::Reacted { model, target, window, action } => {
            format!("  {} reacts to {} ({window}): {action}", name(g, *model), name(g, *target))
        }
        Event::ActionTaken { model, action } => format!("    {} takes {action}", name(g, *model)),
        Event::Answered { model, target, answer, weapon } => match weapon {
            Some(w) => format!("  {} answers {} with {answer} ({w})", name(g, *model), name(g, *target)),
            None => format!("  {} answers {} with {answer}", name(g, *model), name(g, *target)),
        },
        Event::PoolFilled { side, pool, points } => format!("  {side} has {points} {pool}(s) this turn"),
        Event::PoolSpent { side, model, pool, left } => {
            format!("  {side} spends one {pool} on {} ({left} left)", name(g, *model))
        }
        Event::Activation { model, ap } => format!("  {} activates with {ap} AP", name(g, *model)),
        Event::AssetUsed { side, asset, detail, left } => format!("  {side} uses {asset}: {detail} ({left} left)"),
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
        Event::GameEnd { winner, turns, reason } => {
            format!(
                "Game over after {turns} turns: {} ({reason})",
                winner.as_ref().map_or("no winner".to_owned(), |w| format!("{w} wins"))
            )
        }
        _ => return None,
    })
}

/// What a model does: moves, stances, reactions, close combat, flight, transport, special actions.
fn orders(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::Moved { model, from, to, mv_spent, facing } => format!(
            "    {} moves {} to {} for {mv_spent} MV, facing {facing:.0}°",
            name(g, *model),
            match &g.rules.hexes {
                Some(h) => length(g, f64::from(HexGeometry::hexes(h.hex_at(*from), h.hex_at(*to))) * h.across_flats),
                None => length(g, from.dist(*to)),
            },
            place(g, *to)
        ),
        Event::StoodUp { model } => format!("    {} stands up", name(g, *model)),
        Event::Turned { model, facing, toward } => {
            format!("    {} turns to face {}, facing {facing:.0}°", name(g, *model), name(g, *toward))
        }
        Event::WentProne { model } => format!("    {} goes prone", name(g, *model)),
        Event::TargetLock { model, target } => format!("    {} locks on to {}", name(g, *model), name(g, *target)),
        Event::LockShared { model, from, target } => {
            format!("    {} shares its lock on {} with {}", name(g, *from), name(g, *target), name(g, *model))
        }
        Event::Overwatch { model } => format!("    {} goes on over-watch", name(g, *model)),
        Event::PoppedUp { model } => format!("    {} pops up over the terrain for a snapshot", name(g, *model)),
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
        Event::LeftBoard { model } => format!("    {} leaves the board", name(g, *model)),
        Event::Placed { model, at } => format!("    {} is placed at {}", name(g, *model), place(g, *at)),
        Event::MarkerPlaced { source, id, at } => format!("    marker {id} ({source}) lies at {}", place(g, *at)),
        Event::MarkerRemoved { source, id } => format!("    marker {id} ({source}) is taken off the board"),
        Event::SpecialAction { model, target } => format!(
            "    {} takes a special action{}",
            name(g, *model),
            target.map(|t| format!(" on {}", name(g, t))).unwrap_or_default()
        ),
        Event::Forbidden { model, what, reason } => format!("    {}: {what} forbidden ({reason})", name(g, *model)),
        _ => return None,
    })
}

/// Attacks and their dice: declarations, rolls, strike points and drift, hits, damage table, ammunition.
fn fire(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::Attack { model, target, weapon, mode, distance, band } => format!(
            "    {} fires {weapon} ({mode}) at {}, {}{}",
            name(g, *model),
            name(g, *target),
            if g.rules.hexes.is_some() { length(g, *distance) } else { format!("{distance}\"") },
            band.as_ref().map(|b| format!(", {b} range")).unwrap_or_default()
        ),
        Event::NoAttack { model, weapon, reason, .. } => {
            format!("    {}: {weapon} cannot fire ({reason})", name(g, *model))
        }
        Event::Roll(r) => format!("      {} roll: {}", r.kind, roll_text(g, r)),
        Event::StrikePoint { at, .. } => format!("      strike point hit at ({:.1}, {:.1})", at.x, at.y),
        Event::Aimed { model, target, weapon, at, distance, band } => format!(
            "    {} aims {weapon} at {} ({:.1}, {:.1}), {distance}\", {band} range",
            name(g, *model),
            target.map_or_else(|| "the ground at".to_owned(), |t| format!("{}'s place", name(g, t))),
            at.x,
            at.y
        ),
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
            if *penetrated { format!("penetrates{}", why(changes, "result")) } else { "deflected".to_owned() }
        ),
        Event::DamageResult { row, damage, .. } => format!("      damage table: {row} ({damage} to apply)"),
        Event::Opposed { target, contest, standing, theirs_standing, .. } => format!(
            "      {contest}: {standing} hit roll{} stand{}; {}'s roll {}",
            if *standing == 1 { "" } else { "s" },
            if *standing == 1 { "s" } else { "" },
            name(g, *target),
            if *theirs_standing > 0 { "stands" } else { "is beaten" }
        ),
        Event::DamagePoints { target, rolls, hits, dealing, damage, .. } => format!(
            "      {hits} of {rolls} hit roll{} on {} stand{}, {dealing} dealing: {damage} damage to apply",
            if *rolls == 1 { "" } else { "s" },
            name(g, *target),
            if *hits == 1 { "s" } else { "" }
        ),
        Event::OutOfAmmo { model, weapon, saved_by_reserve } => {
            if *saved_by_reserve {
                format!("      {}: {weapon} would be out of ammo; an ammo bin saves it", name(g, *model))
            } else {
                format!("      {}: {weapon} is out of ammo", name(g, *model))
            }
        }
        _ => return None,
    })
}

/// Damage and states: damage taken and repaired, states gained and lost, criticals, models lost.
fn harm(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::DamageApplied { model, points, column, total } => {
            format!("    {} takes {points} damage ({total} in all, column {column})", name(g, *model))
        }
        Event::DamageShared { hit, model, points } => {
            format!("    {points} of the damage to {}'s unit goes to {}", name(g, *hit), name(g, *model))
        }
        Event::Melee { model, target, hits, target_hits } => {
            let unit = |m: usize| g.models[m].squad.map_or_else(|| name(g, m).to_owned(), |s| g.squads[s].name.clone());
            format!("  close combat: {} {hits} hits, {} {target_hits}", unit(*model), unit(*target))
        }
        Event::HeldDamage { unit, points, held } if *points >= 0 => {
            format!("    {unit} holds {points} more damage ({held} in all)")
        }
        Event::HeldDamage { unit, points, held } => {
            format!("    {unit} sheds {} held damage ({held} left)", points.unsigned_abs())
        }
        Event::OutOfCoherency { model, lost: false } => {
            format!("    {} is out of its unit's coherency", name(g, *model))
        }
        Event::OutOfCoherency { model, .. } => {
            format!("    {} is left behind out of its unit's coherency and lost", name(g, *model))
        }
        Event::StateGained { model, state } => {
            let said = g.rules.states.iter().find(|s| s.name == *state).and_then(|s| s.narrative.clone());
            format!("    {} {}", name(g, *model), said.unwrap_or_else(|| format!("is {state}")))
        }
        Event::StateEnded { model, state } => format!("    {} is no longer {state}", name(g, *model)),
        Event::StateIgnored { model, state, why } => match *why {
            "immune" => format!("    {} is not {state}: its type is immune", name(g, *model)),
            _ => format!("    {} is not {state}: a state it has supersedes it", name(g, *model)),
        },
        Event::Critical { model, result } => format!("    {} critical damage: {result}", name(g, *model)),
        Event::TableResult { model, table, key, result } => {
            format!("    {} {table} ({key}): {result}", name(g, *model))
        }
        Event::AttributeChanged { model, attribute, value } => {
            format!("    {}'s {attribute} is now {value}", name(g, *model))
        }
        Event::WeaponDamaged { model, weapon, lost: true, .. } => format!("    {}'s {weapon} is lost", name(g, *model)),
        Event::WeaponDamaged { model, weapon, modifier, .. } => {
            format!("    {}'s {weapon} is damaged: {modifier:+} to its rolls", name(g, *model))
        }
        Event::TableRollsCut { model, table } => {
            format!("    {}: no more rolls on {table} (the limit of chained table rolls is reached)", name(g, *model))
        }
        Event::Repaired { model, points, column } => {
            format!("    {} repairs {points} damage (column {column})", name(g, *model))
        }
        Event::MissionKill { model, reason } => {
            format!("    {} is a mission kill ({reason}) and must retreat", name(g, *model))
        }
        Event::Abandoned { model, reason } => format!("    {} is lost: {reason}", name(g, *model)),
        Event::Destroyed { model } => format!("    {} is destroyed", name(g, *model)),
        Event::OutOfAction { model } => format!("    {} is out of action", name(g, *model)),
        _ => return None,
    })
}

/// The battlefield changing: structures attacked and collapsing, terrain laid and lifted, clouds and submunitions.
fn battlefield(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::StructureAttack { model, weapon, at, distance, band } => match band {
            Some(band) => format!(
                "    {} fires its {weapon} at the structure at ({:.1}, {:.1}), {distance}\" ({band})",
                name(g, *model),
                at.x,
                at.y
            ),
            None => format!("    {} strikes the structure at ({:.1}, {:.1})", name(g, *model), at.x, at.y),
        },
        Event::StructureHit { at, damage, armor_class, damage_points } => format!(
            "    the structure at ({:.1}, {:.1}) takes {damage} damage: armor class {armor_class}, {damage_points} damage points left",
            at.x, at.y
        ),
        Event::StructureCollapsed { at } => format!("    the structure at ({:.1}, {:.1}) collapses", at.x, at.y),
        Event::StructureWorn { at, armor_class } => {
            format!("    the structure at ({:.1}, {:.1}) is down to armor class {armor_class}", at.x, at.y)
        }
        Event::TerrainLaid { model, terrain, at, radius, length, width, activations, turns } => {
            let shape =
                if *length > 0.0 { format!("{length}\"×{width}\" strip") } else { format!("{radius}\" radius") };
            let time = if *turns > 0 { format!("{turns} turns") } else { format!("{activations} of its activations") };
            format!("    {} lays {terrain} ({shape}) at ({:.1}, {:.1}) for {time}", name(g, *model), at.x, at.y)
        }
        Event::Submunition { model, weapon, at, radius, change } => {
            let (x, y) = (at.x, at.y);
            match *change {
                "waits" => format!(
                    "    {}'s {weapon} submunition hangs over ({x:.1}, {y:.1}), seeking a painted target within {radius}\"",
                    name(g, *model)
                ),
                "found" => format!("    {}'s {weapon} submunition finds its target", name(g, *model)),
                _ => format!("    {}'s {weapon} submunition falls and self-destructs", name(g, *model)),
            }
        }
        Event::Cloud { model, weapon, at, radius, change } => {
            let (x, y) = (at.x, at.y);
            match *change {
                "laid" => format!("    {}'s {weapon} leaves a {radius}\" cloud at ({x:.1}, {y:.1})", name(g, *model)),
                "drifted" => format!("    the cloud of {}'s {weapon} drifts to ({x:.1}, {y:.1})", name(g, *model)),
                "pulsed" => {
                    format!("    {}'s anti-nano pulse destroys the {weapon} cloud at ({x:.1}, {y:.1})", name(g, *model))
                }
                _ => format!("    {} destroys the cloud at ({x:.1}, {y:.1})", name(g, *model)),
            }
        }
        Event::TerrainLifted { terrain, at } => format!("    the {terrain} at ({:.1}, {:.1}) is gone", at.x, at.y),
        _ => return None,
    })
}

/// What scripts said and did.
fn scripts(g: &Game, e: &Event) -> Option<String> {
    Some(match e {
        Event::ScriptPrint { model, text } => format!("      [script, {}] {text}", name(g, *model)),
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
                "refill_ammo_bins" => format!("refills {on}'s ammo bins ({value})"),
                "set_flag" if on.is_empty() => format!("remembers {detail}"),
                "set_flag" => format!("remembers on {on}: {detail}"),
                other => other.to_owned(),
            };
            format!("      [{point}] {whose}: {what}")
        }
        _ => return None,
    })
}

/// What changed a hit's margin, RAV or AV, and why: ` (−1 Reinforced, +1 Overcharge)`.
fn why(changes: &[cav_rules::event::HitChange], to: &str) -> String {
    let parts: Vec<String> = changes
        .iter()
        .filter(|c| c.to == to)
        .map(|c| format!("{}{} {}", if c.value < 0 { "−" } else { "+" }, c.value.unsigned_abs(), c.source))
        .collect();
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) }
}
