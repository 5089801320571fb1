//! `cav play`: a headless game between bots, told as a narrative; the event log as JSONL, its
//! first line the header `cav replay` reads (`replay.rs`).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_rules::event::Event;
use cav_rules::game::{Game, GameEnd};

use crate::EXIT_INVALID;
use crate::narrative::narrate;
use crate::project::content_errors;
use crate::replay;
use crate::result_cache::RulesCache;
use crate::rosters::{InvalidRoster, Rosters, field_rosters};
use crate::runner::{Content, Forces, KeptGame, Played, fixed_forces, kept_game, load_and_keep, play_game};

/// What `cav play` writes besides its summary.
pub struct Outputs {
    /// The event log (JSON lines, a header first).
    pub log: Option<PathBuf>,
    /// The board as the game ended, as SVG.
    pub svg: Option<PathBuf>,
    /// The summary only, no narrative.
    pub quiet: bool,
}

/// `cav play`: set the game up, play it, tell it, and write the log when asked. A game whose
/// scenario fixes its forces starts from the rules an earlier run compiled from the same content
/// (`result_cache::RulesCache`), when there are any: the same game, told the same way.
#[allow(clippy::too_many_arguments)]
pub fn run(
    root: &Path,
    scenario: Option<String>,
    ruleset: &str,
    seed: u64,
    outputs: Outputs,
    rosters: Rosters,
    search: Option<Vec<String>>,
    no_cache: bool,
) -> Result<ExitCode, String> {
    // A log that cannot be written is said before the game, not after it.
    let log_file = match &outputs.log {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?),
        None => None,
    };
    let cache = RulesCache::open(root, ruleset, no_cache);
    if let Some(KeptGame { kept, sc, rosters, told }) =
        kept_game(cache.as_ref(), scenario.as_deref(), seed, Forces::Chosen(&rosters))
    {
        eprint!("{told}");
        let pins = outputs.log.as_ref().map(|_| kept.pins);
        let (on_table, forces) = rosters.map_or((None, Vec::new()), |(squads, sides)| (Some(squads), sides));
        return play_and_tell(
            &kept.rules,
            &kept.ruleset,
            sc,
            on_table.as_deref(),
            forces,
            seed,
            pins,
            &outputs,
            log_file,
            search.as_deref(),
        );
    }
    let Content { mut loaded, rs, rules, .. } = load_and_keep(root, ruleset, cache.as_ref())?;
    let Some(mut rules) = rules else {
        return Ok(content_errors(&loaded, "fix them before playing (`cav validate` shows warnings too)"));
    };
    // What the log is pinned to, read before the game so a problem stops it first.
    let pins = outputs.log.as_ref().map(|_| replay::pins(&rs)).transpose()?;
    let sc = match &scenario {
        Some(id) => rules.scenario(id).ok_or_else(|| {
            let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
            format!("no scenario `{id}` in {}; scenarios: {}", rules.id, ids.join(", "))
        })?,
        None => match fixed_forces(&rules, None) {
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
    // The players bring rosters (or the bot builds them): deployed in each side's zone.
    let (rosters_on_table, forces) = match field_rosters(
        &mut loaded,
        &rs,
        &mut rules,
        sc,
        seed,
        &rosters,
        cache.as_ref().map(|c| (c, scenario.as_deref())),
    )? {
        Ok(Some((squads, chosen))) => (Some(squads), chosen),
        Ok(None) => (None, Vec::new()),
        Err(InvalidRoster) => return Ok(ExitCode::from(EXIT_INVALID)),
    };
    let search = search.as_deref();
    play_and_tell(&rules, &rs.id, sc, rosters_on_table.as_deref(), forces, seed, pins, &outputs, log_file, search)
}

/// Play scenario `sc` of `ruleset` (its pack's id) from `seed`, tell it, write the log and the
/// board when asked, and sum up.
#[allow(clippy::too_many_arguments)]
fn play_and_tell(
    rules: &cav_rules::Rules,
    ruleset: &str,
    sc: usize,
    rosters_on_table: Option<&[cav_rules::setup::RosterForce]>,
    forces: Vec<replay::SideForce>,
    seed: u64,
    pins: Option<replay::Pins>,
    Outputs { log, svg, quiet }: &Outputs,
    log_file: Option<std::fs::File>,
    search: Option<&[String]>,
) -> Result<ExitCode, String> {
    // The sides the searching bot plays, by name (`--bot`).
    let sides: Vec<String> = rules.scenarios[sc].sides.iter().map(|(n, _)| n.clone()).collect();
    let search_bot: Vec<String> = match search {
        None => Vec::new(),
        Some([]) => sides,
        Some(named) => {
            if let Some(n) = named.iter().find(|n| !sides.contains(n)) {
                return Err(format!(
                    "--bot: no side `{n}` in scenario `{}`; its sides: {}",
                    rules.scenarios[sc].id,
                    sides.join(", ")
                ));
            }
            sides.into_iter().filter(|s| named.contains(s)).collect()
        }
    };
    let Some(played) = play_game(rules, sc, rosters_on_table, seed, &search_bot) else {
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
    if let (Some(path), Some(file), Some(pins)) = (log, log_file, pins) {
        let header =
            replay::Header::new(ruleset, &rules.scenarios[sc].id, seed, events.len(), forces, search_bot, pins);
        write_log(path, file, &header, &events)?;
    }
    if let Some(path) = svg {
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
    summary(&mut out, rules, &game, &end);
    Ok(ExitCode::SUCCESS)
}

/// The event log as JSON lines: the header `cav replay` reads, then every event.
fn write_log(path: &Path, file: std::fs::File, header: &replay::Header, events: &[Event]) -> Result<(), String> {
    let werr = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
    let mut w = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut w, header).map_err(|e| werr(&e))?;
    w.write_all(b"\n").map_err(|e| werr(&e))?;
    for e in events {
        serde_json::to_writer(&mut w, e).map_err(|e| werr(&e))?;
        w.write_all(b"\n").map_err(|e| werr(&e))?;
    }
    w.flush().map_err(|e| werr(&e))?;
    Ok(())
}

/// The summary after the game: the winner, the length, each side's damage dealt, each model's fate.
fn summary(out: &mut impl std::io::Write, rules: &cav_rules::Rules, game: &Game, end: &GameEnd) {
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
}
