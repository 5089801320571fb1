//! A game as `cav play` runs it, in one place for `cav play`, `cav replay`, `cav sim` and `cav map`:
//! the chosen ruleset's rules compiled (or the content's errors told), the packs' scripts loaded,
//! and the scenario set up from a seed and played by the bots — so each plays the same game.

use std::path::Path;

use cav_content::{Loaded, Ruleset};
use cav_rules::event::Event;
use cav_rules::game::{EngineError, Game, GameEnd};
use cav_rules::setup::RosterForce;
use cav_rules::{Engine, Rules};

use crate::project::{content_errors, load, select_rulesets};
use crate::result_cache::{KeptRules, RulesCache, say_notes};
use crate::rosters::{Fielded, Rosters};

/// The content loaded and checked, with one ruleset chosen from it.
pub struct Content {
    pub loaded: Loaded,
    /// The ruleset chosen (a copy: the roster commands borrow `loaded` mutably beside it).
    pub rs: Ruleset,
    /// Its compiled rules; `None` when the content has errors (told by [`content_errors`], once
    /// the caller has said what it says first).
    pub rules: Option<Rules>,
    /// A finding depended on the moment of the run, not on the content: the rules are not kept
    /// ([`crate::result_cache::RulesCache::keep`]).
    pub transient: bool,
}

/// The content of `root` loaded and checked, and ruleset `want` chosen (`quickstart`, `full` or
/// a pack id) with its compiled rules.
pub fn load_ruleset(root: &Path, want: &str) -> Result<Content, String> {
    let mut loaded = load(vec![], root);
    let parts = cav_compile::validate_parts(&mut loaded);
    let transient = parts.transient();
    let compiled = parts.owned_rules();
    let rs = select_rulesets(&loaded, Some(want))?.into_iter().next().ok_or("no ruleset")?.clone();
    let ix = loaded.rulesets.iter().position(|r| r.id == rs.id).unwrap_or(0);
    let rules = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0);
    Ok(Content { loaded, rs, rules, transient })
}

/// [`load_ruleset`], its rules kept in `cache` for the next run (`RulesCache::keep`), and what
/// went wrong with the cache said.
pub fn load_and_keep(root: &Path, want: &str, cache: Option<&RulesCache>) -> Result<Content, String> {
    let content = load_ruleset(root, want)?;
    if let (Some(rules), Some(cache)) = (&content.rules, cache) {
        cache.keep(rules, &content.rs, content.transient);
    }
    say_notes(cache.map(RulesCache::store));
    Ok(content)
}

/// Where a game's forces come from, for [`kept_game`].
#[derive(Clone, Copy)]
pub enum Forces<'a> {
    /// The scenario fixes them.
    Fixed,
    /// The scenario fixes them, or the players bring these rosters (`--force`, or the bot's).
    Chosen(&'a Rosters),
    /// The scenario leaves them to the players, and a log recorded their rosters (`cav replay`).
    Recorded(&'a [crate::replay::SideForce]),
}

/// A game an earlier run's entries start without the content: the rules kept (with the fitted
/// cards of the rosters added), the scenario, and the rosters chosen then (`None`: the scenario
/// fixes its forces).
pub struct KeptGame {
    pub kept: KeptRules,
    pub sc: usize,
    pub rosters: Option<Fielded>,
    /// What choosing the rosters told on stderr: the caller tells it again, first.
    pub told: String,
}

/// The game of scenario `named` (else the ruleset's first that fixes its forces, else its first)
/// from `seed`, when an earlier run kept what it needs of the content: its rules, and for a
/// scenario that leaves forces to the players the rosters chosen then (with what choosing them
/// told on stderr, for the caller to tell again). `None`: the command loads the content
/// ([`load_and_keep`]).
pub fn kept_game(cache: Option<&RulesCache>, named: Option<&str>, seed: u64, forces: Forces) -> Option<KeptGame> {
    let cache = cache?;
    let mut kept = cache.get()?;
    let brought = match forces {
        Forces::Chosen(r) => !r.files.is_empty(),
        _ => matches!(forces, Forces::Recorded(_)),
    };
    let game = match (fixed_forces(&kept.rules, named), forces) {
        (Some(sc), _) if !brought => Some(KeptGame { kept, sc, rosters: None, told: String::new() }),
        (_, Forces::Chosen(_) | Forces::Recorded(_)) => {
            let sc = match named {
                Some(id) => kept.rules.scenario(id)?,
                None if fixed_forces(&kept.rules, None).is_none() && !kept.rules.scenarios.is_empty() => 0,
                None => return None,
            };
            let key = kept.rules.scenarios[sc].forces.is_empty().then(|| match forces {
                Forces::Recorded(sides) => cache.recorded_key(sides),
                Forces::Chosen(rosters) => cache.rosters_key(&kept.rules, sc, named, seed, rosters),
                _ => None,
            })??;
            let picked = cache.picked(&key).filter(|p| p.sc == sc)?;
            let fielded = picked.field(&mut kept.rules).ok()?;
            Some(KeptGame { kept, sc, rosters: Some(fielded), told: picked.told })
        }
        _ => None,
    };
    say_notes(Some(cache.store()));
    game
}

/// Scenario `named` if it fixes its forces, else (none named) the ruleset's first that does.
pub fn fixed_forces(rules: &Rules, named: Option<&str>) -> Option<usize> {
    match named {
        Some(id) => rules.scenario(id).filter(|&i| !rules.scenarios[i].forces.is_empty()),
        None => rules.scenarios.iter().position(|s| !s.forces.is_empty()),
    }
}

/// The compiled rules of one ruleset of the content (`quickstart`, `full` or a pack id): those an
/// earlier run kept for the same content (`RulesCache`), else loaded, checked and compiled now
/// (and kept); `None` once the content's errors are printed (the caller exits 1: invalid content).
pub fn compiled_rules(root: &Path, ruleset: &str, no_cache: bool) -> Result<Option<cav_rules::Rules>, String> {
    let cache = RulesCache::open(root, ruleset, no_cache);
    if let Some(kept) = cache.as_ref().and_then(RulesCache::get) {
        say_notes(cache.as_ref().map(RulesCache::store));
        return Ok(Some(kept.rules));
    }
    let Content { loaded, rules, .. } = load_and_keep(root, ruleset, cache.as_ref())?;
    if rules.is_none() {
        content_errors(&loaded, "fix them first (`cav validate`)");
    }
    Ok(rules)
}

/// The scripts of the packs, loaded for play; a script that fails to load is invalid content
/// (exit 1), not a usage error.
pub fn lua_host(rules: &cav_rules::Rules) -> Option<cav_script::LuaHost> {
    match cav_script::LuaHost::new(rules, cav_script::Limits::default()) {
        Ok(host) => Some(host),
        Err(e) => {
            eprintln!("error: scripts: {e}");
            None
        }
    }
}

/// A game played to its end (or to the error that stopped it).
pub struct Played<'r> {
    pub game: Game<'r>,
    pub events: Vec<Event>,
    pub result: Result<GameEnd, EngineError>,
}

/// Scenario `sc` played by the bots from `seed` (the searching bot for the sides named in
/// `search`, with a script host of its own for its rollouts; the rules bot for the others), with
/// the rosters on the table for a scenario that leaves forces to the players. `cav play` and
/// `cav replay` both play here, so a replay is the same game. `None`: the scripts did not load
/// (said on stderr).
pub fn play_game<'r>(
    rules: &'r Rules,
    sc: usize,
    rosters: Option<&[RosterForce]>,
    seed: u64,
    search: &[String],
) -> Option<Played<'r>> {
    let searching: Vec<bool> = rules.scenarios[sc].sides.iter().map(|(n, _)| search.contains(n)).collect();
    let (game, events, result) = if searching.contains(&true) {
        let mut rollout_host = lua_host(rules)?;
        let budget = cav_rules::search::Budget::default();
        let mut bot = cav_rules::search::Search::new(&mut rollout_host, searching, seed, budget);
        run_game(rules, sc, rosters, seed, |engine| engine.play(&mut bot))?
    } else {
        run_game(rules, sc, rosters, seed, |engine| engine.play(&mut cav_rules::bot::Bot::default()))?
    };
    Some(Played { game, events, result })
}

/// Scenario `sc` set up from `seed` — its own forces, or the rosters on the table — with the
/// packs' scripts, handed to `play` as an engine; the game as `play` left it, its events and what
/// `play` returned. `None`: the scripts did not load (said on stderr).
pub fn run_game<'r, T>(
    rules: &'r Rules,
    sc: usize,
    rosters: Option<&[RosterForce]>,
    seed: u64,
    play: impl FnOnce(&mut Engine<'_, 'r>) -> T,
) -> Option<(Game<'r>, Vec<Event>, T)> {
    let mut host = lua_host(rules)?;
    let mut events: Vec<Event> = Vec::new();
    let (game, out) = cav_rules::setup::run(rules, sc, rosters, seed, &mut events, &mut host, play);
    Some((game, events, out))
}
