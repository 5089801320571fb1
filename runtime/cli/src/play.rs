//! `cav play`: a headless game between bots, told as a narrative; the event log as JSONL.

use std::fmt::Write;

use cav_rules::event::{Event, Roll};
use cav_rules::game::Game;

fn name<'g>(g: &'g Game, u: usize) -> &'g str {
    g.units.get(u).map_or("?", |x| x.name.as_str())
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
        Event::Deployed { unit, at, facing, .. } => {
            format!("  {} deploys at ({:.1}, {:.1}) facing {facing:.0}°", name(g, *unit), at.x, at.y)
        }
        Event::TurnStart { turn } => format!("\nTurn {turn}"),
        Event::Activation { unit, ap } => format!("  {} activates with {ap} AP", name(g, *unit)),
        Event::Moved { unit, from, to, mv_spent, facing } => format!(
            "    {} moves {:.1}\" to ({:.1}, {:.1}) for {mv_spent} MV, facing {facing:.0}°",
            name(g, *unit),
            from.dist(*to),
            to.x,
            to.y
        ),
        Event::StoodUp { unit } => format!("    {} stands up", name(g, *unit)),
        Event::WentProne { unit } => format!("    {} goes prone", name(g, *unit)),
        Event::TargetLock { unit, target } => format!("    {} locks on to {}", name(g, *unit), name(g, *target)),
        Event::Overwatch { unit } => format!("    {} goes on over-watch", name(g, *unit)),
        Event::OverwatchFire { unit, target } => {
            format!("    {} on over-watch stops {} and fires", name(g, *unit), name(g, *target))
        }
        Event::DefensiveFire { unit, target } => {
            format!("    {} declares defensive fire at {}", name(g, *unit), name(g, *target))
        }
        Event::CloseCombat { unit, target, supporters } => {
            format!("    {} assaults {} in close combat ({supporters} supporting)", name(g, *unit), name(g, *target))
        }
        Event::Attack { unit, target, weapon, mode, distance, band } => format!(
            "    {} fires {weapon} ({mode}) at {}, {distance}\"{}",
            name(g, *unit),
            name(g, *target),
            band.as_ref().map(|b| format!(", {b} range")).unwrap_or_default()
        ),
        Event::NoAttack { unit, weapon, reason, .. } => {
            format!("    {}: {weapon} cannot fire ({reason})", name(g, *unit))
        }
        Event::Roll(r) => format!("      {} roll: {}", r.kind, roll_text(r)),
        Event::StrikePoint { at, .. } => format!("      strike point hit at ({:.1}, {:.1})", at.x, at.y),
        Event::Drift { to, inches, .. } => format!("      drifts {inches:.0}\" to ({:.1}, {:.1})", to.x, to.y),
        Event::Hit { target, margin, rav, av, penetrated, .. } => format!(
            "      hit: MoS {margin} + RAV {rav} = {} vs AV {av} of {}: {}",
            margin + rav,
            name(g, *target),
            if *penetrated { "penetrates" } else { "deflected" }
        ),
        Event::DamageResult { row, damage, .. } => format!("      damage table: {row} ({damage} to apply)"),
        Event::OutOfAmmo { unit, weapon, saved_by_reserve } => {
            if *saved_by_reserve {
                format!("      {}: {weapon} would be out of ammo; an ammo bin saves it", name(g, *unit))
            } else {
                format!("      {}: {weapon} is out of ammo", name(g, *unit))
            }
        }
        Event::DamageApplied { unit, points, column, total } => {
            format!("    {} takes {points} damage ({total} in all, column {column})", name(g, *unit))
        }
        Event::StateGained { unit, state } => format!("    {} is {state}", name(g, *unit)),
        Event::StateEnded { unit, state } => format!("    {} is no longer {state}", name(g, *unit)),
        Event::Critical { unit, result } => format!("    {} critical damage: {result}", name(g, *unit)),
        Event::Repaired { unit, points, column } => {
            format!("    {} repairs {points} damage (column {column})", name(g, *unit))
        }
        Event::MissionKill { unit, reason } => {
            format!("    {} is a mission kill ({reason}) and must retreat", name(g, *unit))
        }
        Event::Destroyed { unit } => format!("    {} is destroyed", name(g, *unit)),
        Event::LeftBoard { unit } => format!("    {} leaves the board", name(g, *unit)),
        Event::ScriptPrint { unit, text } => format!("      [script, {}] {text}", name(g, *unit)),
        Event::ActivationEnd { .. } | Event::TurnEnd { .. } => return None,
        Event::GameEnd { winner, turns, reason } => {
            format!(
                "\nGame over after {turns} turns: {} ({reason})",
                winner.as_ref().map_or("no winner".to_owned(), |w| format!("{w} wins"))
            )
        }
    })
}
