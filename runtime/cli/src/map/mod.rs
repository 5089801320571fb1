//! `cav map`: the board of a game at a chosen moment, as SVG — to scale, terrain by type and
//! elevation, every model with its base, facing and front arc, the lines of sight between
//! enemies with their cover and range, and the range-band rings of one model's first weapon.
//! The game is the one `cav play SCENARIO --seed S` plays (with its rosters, for a scenario that
//! leaves forces to them); the moment is the start of a turn. Labels are placed greedily so that
//! no text overlaps another or a model (`Placer`); what finds no room is numbered into a key.

mod draw;
mod labels;
mod legend;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_rules::Game;
use clap::Args;

use crate::EXIT_INVALID;
use crate::project::content_errors;
use crate::result_cache::RulesCache;
use crate::rosters::{InvalidRoster, Rosters, field_rosters};
use crate::runner::{Content, Forces, KeptGame, kept_game, load_and_keep, run_game};
pub use draw::svg;

#[derive(Args)]
#[command(
    after_help = "The game is the one `cav play SCENARIO --seed S` plays (bots on both sides, the packs' scripts \
    on; for a scenario that leaves forces to rosters, the same --force, --tv and --faction); --turn T draws the \
    board as turn T starts (after T-1 whole turns; a game that ends sooner is drawn as it ended). Lines of sight join \
    every pair of enemy models still in play: green clear, amber light cover, red heavy cover, dashed grey no line of \
    sight; each is labelled with the range in inches where there is room (else on the line's tooltip). Rings mark \
    where each range band of the --rings model's first weapon ends.\n\
    Labels never overlap one another or a model: one that finds no room is numbered on the board and written out \
    in the key below it; squad mates standing together are boxed with one label and numbered in the key.\n\
    Examples:\n  cav map stand-and-fight --seed 3 --turn 3 --svg map.svg\n  \
    cav map stand-and-fight --seed 3 --turn 1 --rings black --svg start.svg\n  \
    cav map no-man-s-land --ruleset full --tv 1200 --turn 2 --rings 3 --svg full.svg"
)]
pub struct MapCommand {
    /// Scenario id.
    scenario: String,
    #[arg(long, default_value = "quickstart")]
    ruleset: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw the board as this turn starts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    turn: u32,
    /// The model whose first weapon's band rings are drawn: its name, its number (the `model` of
    /// the log's events, from 0), its card's id or its side (the first such model); default: the
    /// first model.
    #[arg(long, value_name = "MODEL")]
    rings: Option<String>,
    /// Write the SVG to FILE.
    #[arg(long, value_name = "FILE")]
    svg: PathBuf,
    #[command(flatten)]
    rosters: Rosters,
}

pub fn run(cmd: MapCommand, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    // Loaded as `cav play` loads (from kept rules where it may), so a roster scenario gets the
    // same rosters.
    let cache = RulesCache::open(root, &cmd.ruleset, no_cache);
    let (rules, sc, rosters) =
        match kept_game(cache.as_ref(), Some(&cmd.scenario), cmd.seed, Forces::Chosen(&cmd.rosters)) {
            Some(KeptGame { kept, sc, rosters, told }) => {
                eprint!("{told}");
                (kept.rules, sc, rosters.map(|(squads, _)| squads))
            }
            None => {
                let Content { mut loaded, rs, rules, .. } = load_and_keep(root, &cmd.ruleset, cache.as_ref())?;
                let Some(mut rules) = rules else {
                    return Ok(content_errors(&loaded, "fix them first (`cav validate`)"));
                };
                let sc = rules.scenario(&cmd.scenario).ok_or_else(|| {
                    let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
                    format!("no scenario `{}` in {}; scenarios: {}", cmd.scenario, rules.id, ids.join(", "))
                })?;
                let rosters = match field_rosters(
                    &mut loaded,
                    &rs,
                    &mut rules,
                    sc,
                    cmd.seed,
                    &cmd.rosters,
                    cache.as_ref().map(|c| (c, Some(cmd.scenario.as_str()))),
                )? {
                    Ok(fielded) => fielded.map(|(squads, _)| squads),
                    Err(InvalidRoster) => return Ok(ExitCode::from(EXIT_INVALID)),
                };
                (rules, sc, rosters)
            }
        };
    // The game `cav play` plays (`runner::play_game`), stopped as turn T starts.
    let played = run_game(&rules, sc, rosters.as_deref(), cmd.seed, |engine| -> Result<_, String> {
        let mut bot = cav_rules::bot::Bot::default();
        for _ in 1..cmd.turn {
            if let Some(end) = engine.play_turn(&mut bot).map_err(|e| format!("the game stopped: {e}"))? {
                return Ok(Some(end));
            }
        }
        Ok(None)
    });
    let Some((game, events, ended)) = played else { return Ok(ExitCode::from(EXIT_INVALID)) };
    let ended = ended?;
    let game = &game;
    // The strike points and drift of the turn just played.
    let since = events.iter().rposition(|e| matches!(e, cav_rules::Event::TurnStart { .. })).unwrap_or(0);
    let marks = &events[since..];
    let rings = match &cmd.rings {
        None => 0,
        Some(r) => ringed(game, r)?,
    };
    let moment = match &ended {
        Some(_) => format!("as the game ended in turn {}", game.turn),
        None => format!("start of turn {}", cmd.turn),
    };
    let title = format!("{} — seed {}, {moment}", rules.scenarios[sc].name, cmd.seed);
    std::fs::write(&cmd.svg, svg(game, &title, rings, marks))
        .map_err(|e| format!("cannot write {}: {e}", cmd.svg.display()))?;
    eprintln!("wrote {} ({title})", cmd.svg.display());
    Ok(ExitCode::SUCCESS)
}

/// The model `--rings` names: by name, by number, by card id, by side, the first that matches in
/// that order; none: an error listing what it may name.
fn ringed(game: &Game, r: &str) -> Result<usize, String> {
    let models = 0..game.models.len();
    let found = models
        .clone()
        .find(|&m| game.models[m].name == r)
        .or_else(|| r.parse::<usize>().ok().filter(|&m| m < game.models.len()))
        .or_else(|| models.clone().find(|&m| game.card(m).id == r))
        .or_else(|| models.clone().find(|&m| game.sides[game.models[m].side] == r));
    found.ok_or_else(|| {
        let list: Vec<String> =
            models.map(|m| format!("{m} `{}` ({})", game.models[m].name, game.card(m).id)).collect();
        format!(
            "no model `{r}` in this game: --rings takes a model's name, number or card id, or a side ({}); models: {}",
            game.sides.join(", "),
            list.join(", ")
        )
    })
}

/// Pixels per inch: 12; a hex board smaller than 48" is drawn as large as a 48" table, so its
/// hexes stay readable.
fn scale(game: &Game) -> f64 {
    let longest = game.board.size[0].max(game.board.size[1]);
    if game.rules.hexes.is_some() && longest > 0.0 { (576.0 / longest).clamp(12.0, 96.0) } else { 12.0 }
}
const MARGIN: f64 = 30.0;
const SIDE_COLOURS: [&str; 4] = ["#c0392b", "#222222", "#2563a8", "#2e8b57"];
/// Font sizes: model and squad labels, lines of sight, terrain and rings, marker numbers, legend.
const LABEL: f64 = 11.0;
const SIGHT: f64 = 10.0;
const SMALL: f64 = 9.0;
const NUMBER: f64 = 10.0;
const LEGEND: f64 = 11.0;
/// Squad mates standing within `SQUAD_LINK` inches of one another (centre to centre, in a chain)
/// and within `SQUAD_SPAN` across are drawn as one group: a dashed box, one label, each model
/// numbered in the key.
const SQUAD_LINK: f64 = 5.0;
const SQUAD_SPAN: f64 = 12.0;
/// Gaps (px) between a marker and its label tried in turn; from `LEADER` on, a leader line joins
/// them.
const GAPS: [f64; 7] = [2.0, 6.0, 12.0, 22.0, 36.0, 54.0, 76.0];
const LEADER: f64 = 12.0;

/// A model as the key and its tooltip name it: with its side (unless its name says it) and its
/// damage, or that it is destroyed.
fn full(game: &Game, i: usize) -> String {
    let m = &game.models[i];
    let fate = if m.destroyed { "destroyed".to_owned() } else { format!("{} damage", m.damage) };
    // Names the bots give start with the side ("red Dictator-B"); others are told it.
    let side = &game.sides[m.side];
    if m.name.starts_with(&format!("{side} ")) {
        format!("{} ({fate})", m.name)
    } else {
        format!("{} ({side}, {fate})", m.name)
    }
}

/// A model as its label on the board names it.
fn short(game: &Game, i: usize) -> String {
    let m = &game.models[i];
    if m.destroyed { format!("{} (destroyed)", m.name) } else { format!("{} ({} damage)", m.name, m.damage) }
}
