//! `cav play`: a headless game between bots, told as a narrative; the event log as JSONL, its
//! first line the header `cav replay` reads (`replay.rs`).

use std::fmt::Write;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_rules::event::{Event, Roll};
use cav_rules::game::{EngineError, Game, GameEnd};
use cav_rules::setup::RosterForce;

use crate::replay::{self, SideForce};
use crate::{EXIT_INVALID, load, lua_host, select_rulesets};

/// `cav play`: set the game up, play it, tell it, and write the log when asked.
/// What `cav play` writes besides its summary.
pub struct Outputs {
    /// The event log (JSON lines, a header first).
    pub log: Option<PathBuf>,
    /// The board as the game ended, as SVG.
    pub svg: Option<PathBuf>,
    /// The summary only, no narrative.
    pub quiet: bool,
}

pub fn run(
    root: &Path,
    scenario: Option<String>,
    ruleset: &str,
    seed: u64,
    Outputs { log, svg, quiet }: Outputs,
    rosters: Rosters,
) -> Result<ExitCode, String> {
    // A log that cannot be written is said before the game, not after it.
    let log_file = match &log {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?),
        None => None,
    };
    let mut loaded = load(vec![], root);
    let compiled = cav_compile::validate(&mut loaded);
    let rs = select_rulesets(&loaded, Some(ruleset))?.into_iter().next().ok_or("no ruleset")?.clone();
    let ix = loaded.rulesets.iter().position(|r| r.id == rs.id).unwrap_or(0);
    let Some(mut rules) = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0) else {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: the content has errors; fix them before playing (`cav validate` shows warnings too)");
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    // What the log is pinned to, read before the game so a problem stops it first.
    let pins = log.as_ref().map(|_| replay::pins(&rs)).transpose()?;
    let sc = match &scenario {
        Some(id) => rules.scenario(id).ok_or_else(|| {
            let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
            format!("no scenario `{id}` in {}; scenarios: {}", rules.id, ids.join(", "))
        })?,
        None => match rules.scenarios.iter().position(|s| !s.forces.is_empty()) {
            Some(i) => i,
            None if cav_forces::force_rules(&rs).is_some() && !rules.scenarios.is_empty() => 0,
            None => {
                return Err(format!(
                    "ruleset {} has no scenario that fixes its forces; name one with forces",
                    rules.id
                ));
            }
        },
    };
    let mut rosters_on_table = None;
    let mut forces = Vec::new();
    if rules.scenarios[sc].forces.is_empty() {
        // The players bring rosters (or the bot builds them): deployed in each side's zone.
        match roster_squads(&mut loaded, &rs, &mut rules, sc, seed, &Chosen::Now(&rosters))? {
            Ok((squads, chosen)) => {
                rosters_on_table = Some(squads);
                forces = chosen;
            }
            Err(InvalidRoster) => return Ok(ExitCode::from(EXIT_INVALID)),
        }
    } else if !rosters.files.is_empty() {
        return Err(format!(
            "scenario `{}` fixes its forces; --force is for scenarios that do not",
            rules.scenarios[sc].id
        ));
    }
    let Some(played) = play_game(&rules, sc, rosters_on_table.as_deref(), seed) else {
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let Played { game, events, result } = played;
    let mut out = std::io::stdout().lock();
    if !quiet {
        for e in &events {
            if let Some(line) = narrate(&game, e) {
                let _ = writeln!(out, "{line}");
            }
        }
    }
    if let (Some(path), Some(file), Some(pins)) = (&log, log_file, pins) {
        let header = replay::Header::new(&rs.id, &rules.scenarios[sc].id, seed, events.len(), forces, pins);
        let werr = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
        let mut w = std::io::BufWriter::new(file);
        serde_json::to_writer(&mut w, &header).map_err(|e| werr(&e))?;
        w.write_all(b"\n").map_err(|e| werr(&e))?;
        for e in &events {
            serde_json::to_writer(&mut w, e).map_err(|e| werr(&e))?;
            w.write_all(b"\n").map_err(|e| werr(&e))?;
        }
        w.flush().map_err(|e| werr(&e))?;
    }
    if let Some(path) = &svg {
        let title = format!("{} — seed {seed}, as the game ended", rules.scenarios[sc].name);
        let since = events.iter().rposition(|e| matches!(e, Event::TurnStart { .. })).unwrap_or(0);
        std::fs::write(path, crate::map::svg(&game, &title, 0, &events[since..]))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    let end = match result {
        Ok(end) => end,
        Err(e) => {
            eprintln!("error: the game stopped: {e}");
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    let _ = writeln!(out, "\nSummary");
    let _ = writeln!(out, "  winner: {}", end.winner.map_or("none (draw)".to_owned(), |w| game.sides[w].clone()));
    let _ = writeln!(out, "  turns: {}", end.turns);
    for (side, dealt) in game.sides.iter().zip(&end.damage_dealt) {
        let _ = writeln!(out, "  damage dealt by {side}: {dealt}");
    }
    for u in &game.models {
        let card = &rules.cards[u.card];
        let fate = if u.destroyed {
            "destroyed".to_owned()
        } else if u.exited {
            "left across its exit edge (scores)".to_owned()
        } else if u.left_board {
            "left the board".to_owned()
        } else {
            let states: Vec<&str> = u.states.iter().map(|(s, _)| rules.states[*s as usize].name.as_str()).collect();
            format!(
                "{} damage of {} tracks{}",
                u.damage,
                card.columns - 1,
                if states.is_empty() { String::new() } else { format!(", {}", states.join(", ")) }
            )
        };
        let _ = writeln!(out, "  {}: {fate}", u.name);
    }
    Ok(ExitCode::SUCCESS)
}

/// A game played to its end (or to the error that stopped it).
pub struct Played<'r> {
    pub game: Game<'r>,
    pub events: Vec<Event>,
    pub result: Result<GameEnd, EngineError>,
}

/// Scenario `sc` played by the bots from `seed`, with the rosters on the table for a scenario
/// that leaves forces to the players. `cav play` and `cav replay` both play here, so a replay is
/// the same game. `None`: the scripts did not load (said on stderr).
pub fn play_game<'r>(
    rules: &'r cav_rules::Rules,
    sc: usize,
    rosters: Option<&[RosterForce]>,
    seed: u64,
) -> Option<Played<'r>> {
    let mut dice = cav_rules::SeededDice::new(seed);
    let mut events: Vec<Event> = Vec::new();
    let game = match rosters {
        Some(forces) => cav_rules::setup::roster_game(rules, sc, forces, &mut dice, &mut events, Some(seed)),
        None => cav_rules::setup::scenario_game(rules, sc, &mut dice, &mut events, Some(seed)),
    };
    let mut host = lua_host(rules)?;
    let mut engine = cav_rules::Engine { game, dice: &mut dice, log: &mut events, hooks: &mut host };
    let result = engine.play(&mut cav_rules::bot::Bot::default());
    let game = engine.game;
    Some(Played { game, events, result })
}

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
        Event::Aimed { model, target, weapon, at, distance, band } => format!(
            "    {} aims {weapon} at {} ({:.1}, {:.1}), {distance}\", {band} range",
            name(g, *model),
            target.map_or_else(|| "the ground at".to_owned(), |t| format!("{}'s place", name(g, t))),
            at.x,
            at.y
        ),
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
            if *penetrated { format!("penetrates{}", why(changes, "result")) } else { "deflected".to_owned() }
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
        Event::StateIgnored { model, state, why } => match *why {
            "immune" => format!("    {} is not {state}: its type is immune", name(g, *model)),
            _ => format!("    {} is not {state}: a state it has supersedes it", name(g, *model)),
        },
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
        Event::OutOfAction { model } => format!("    {} is out of action", name(g, *model)),
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
                "refill_ammo_bins" => format!("refills {on}'s ammo bins ({value})"),
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

/// Each side's roster — the file given for it, one the bot builds, or the one a log recorded —
/// as squads of cards, with the rosters as chosen (for the log's header). Rosters chosen now are
/// told on stderr (what each side fields, what of a roster is not played yet); recorded ones not.
pub fn roster_squads(
    loaded: &mut cav_content::Loaded,
    rs: &cav_content::Ruleset,
    rules: &mut cav_rules::Rules,
    sc: usize,
    seed: u64,
    chosen: &Chosen,
) -> Result<Result<Fielded, InvalidRoster>, String> {
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
    let scenario_doc = match rs.get(cav_format::DocKind::Scenario, &scenario.id).and_then(|e| e.doc.as_ref()) {
        Some(cav_format::Document::Scenario(d)) => Some(d.clone()),
        _ => None,
    };
    let scenario_doc = scenario_doc.as_ref();
    if let Some(why) = scenario.unplayed_victory().filter(|_| matches!(chosen, Chosen::Now(_))) {
        eprintln!(
            "note: the victory conditions of `{}` are not played yet ({why}); the game ends when a side has no models left, or at the turn limit by surviving TV",
            scenario.id
        );
    }
    let (mut out, mut sides) = (Vec::new(), Vec::new());
    for (side, (side_name, _)) in scenario.sides.iter().enumerate() {
        let (r, file) = match chosen {
            Chosen::Now(r) => (r, r.files.get(side)),
            Chosen::Recorded(f) => {
                let Some(f) = f.get(side) else {
                    return Err(format!("the log records no roster for side {side_name} of `{}`", scenario.id));
                };
                let squads = cav_forces::roster_force(rs, &f.force, rules)?;
                out.push(squads);
                sides.push(f.clone());
                continue;
            }
        };
        let force = match file {
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
                let found = cav_forces::check(rs, f, &|p| doc.prov.locate(p), None);
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
                cav_forces::build(rs, &req)?
            }
        };
        let from = if file.is_some() { "roster" } else { "bot" };
        sides.push(SideForce { side: side_name.clone(), from: from.to_owned(), force: force.clone() });
        let spent = cav_forces::costs(rs, &force);
        let models: u32 = force.squads.iter().flat_map(|s| &s.models).map(|m| m.count).sum();
        eprintln!(
            "{side_name} fields `{}`: {} squads, {models} models, TV {} of a {} pool",
            force.id.as_str(),
            force.squads.len(),
            spent.total(),
            force.tvp
        );
        let squads = cav_forces::roster_force(rs, &force, rules)?;
        if squads.bonus > 0 {
            eprintln!(
                "{side_name}'s force group bonus: {} TV of the pool left unspent, added to its surviving TVP with what its strike pools still hold at the end",
                squads.bonus
            );
        }
        let held = |id: &str| rules.assets.iter().any(|d| d.id == id && d.held());
        let piece = |id: &str| rules.assets.iter().any(|d| d.id == id && d.piece.is_some());
        let (in_hand, rest): (Vec<&cav_format::ForceAsset>, Vec<_>) =
            force.assets.iter().partition(|a| held(a.asset.as_str()));
        let (set_down, unplaced): (Vec<&cav_format::ForceAsset>, Vec<_>) =
            rest.into_iter().partition(|a| piece(a.asset.as_str()));
        if !in_hand.is_empty() {
            let ids: Vec<String> = in_hand.iter().map(|a| format!("{} × {}", a.asset.as_str(), a.count)).collect();
            eprintln!("{side_name} holds {} off the table", ids.join(", "));
        }
        if !set_down.is_empty() {
            let ids: Vec<String> = set_down
                .iter()
                .map(|a| match &a.variant {
                    Some(v) => format!("{} ({v}) × {}", a.asset.as_str(), a.count),
                    None => format!("{} × {}", a.asset.as_str(), a.count),
                })
                .collect();
            eprintln!(
                "{side_name} sets down {} before deployment, placed by the bot in front of its zone (a piece an ambushing model may bring waits for it)",
                ids.join(", ")
            );
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
    Ok(Ok((out, sides)))
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
