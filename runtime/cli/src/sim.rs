//! `cav sim`: many bot games of a scenario in parallel, and their statistics (the balance lab,
//! runtime/lab); `cav sim --vs CHANGE`: every seed again with one change, and the paired
//! difference; `cav sim merge`: results of shards as one.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_lab::{Change, SimResult, VsResult, wilson};
use clap::{Args, Subcommand, ValueEnum};

use crate::EXIT_INVALID;
use crate::project::{content_errors, load};
use crate::replay::SideForce;
use crate::result_cache::{KeptB, RulesCache};
use crate::rosters::{Chosen, InvalidRoster, Rosters, field_rosters, pick};
use crate::runner::{Content, Forces, KeptGame, kept_game, load_and_keep};

/// The sides `--bot` gives the searching bot: `None` for the rules bot everywhere, an empty list
/// for every side, else the sides named (`SIDE=search`; `SIDE=rules` is the default).
pub(crate) fn search_sides(bots: &[String]) -> Result<Option<Vec<String>>, String> {
    let mut every: Option<&str> = None;
    let (mut search, mut rules) = (Vec::new(), Vec::new());
    for b in bots {
        match b.split_once('=') {
            None if b == "rules" || b == "search" => {
                if every.is_some_and(|e| e != b) {
                    return Err("--bot: `rules` and `search` both given for every side".to_owned());
                }
                every = Some(b.as_str());
            }
            Some((side, "search")) if !side.is_empty() => search.push(side.to_owned()),
            Some((side, "rules")) if !side.is_empty() => rules.push(side.to_owned()),
            _ => return Err(format!("--bot {b}: expected `rules`, `search` or `SIDE=search` (`SIDE=rules`)")),
        }
    }
    if every == Some("search") {
        if let Some(side) = rules.first() {
            return Err(format!("--bot: `search` for every side and `{side}=rules`: name the sides that search"));
        }
        return Ok(Some(Vec::new()));
    }
    if let Some(side) = search.iter().find(|s| rules.contains(s)) {
        return Err(format!("--bot: side `{side}` given both bots"));
    }
    Ok((!search.is_empty()).then_some(search))
}

/// What `cav sim` and `cav sim merge` write.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    /// The table.
    Human,
    /// Every count and sum, sorted (what `cav sim merge` reads).
    Json,
    /// One row per quantity: run, quantity, name, games, value, low, high.
    Csv,
}

#[derive(Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Game k plays with seed S+k (S = --seed), so a game is replayed by `cav play SCENARIO --seed S+k`; the \
    games run on every core, one Lua host per worker, and the result does not depend on the thread count.\n\
    A scenario that leaves forces to the players plays rosters: --force FILE per side in the scenario's side order, \
    and the bot builds the others (--tv, --faction) once, from the first seed; every game, and B, field the same \
    rosters, and the result's content hash includes them (so shards of other rosters do not merge).\n\
    --shard i/n plays the i-th of n contiguous slices of the seeds, so n machines (or processes) can share a run; \
    `cav sim merge` adds their JSON results and refuses results of other content or overlapping seeds. The result \
    holds only counts and sums (schemas/reports/sim.schema.json), so the merge of the n shards is byte-identical to \
    the unsharded run.\n\
    Win rates carry their Wilson 95 % score interval; mean turns ± the sample standard deviation; a weapon's hit rate \
    is hits per shot, its penetration rate penetrating hits per hit. Where hits read a damage table \
    (`procedures.attack.damage_table`), damage is only the points table rows deal; results are the rows attacks landed on \
    enemy models, effects those that changed the model (a weapon's effects per shot), and every row landed is listed.\n\
    --bot rules (the default) plays the rules bot, a fixed policy; --bot search, or SIDE=search for one side, plays \
    the searching bot, which knows no game: at each decision it plays every action the rules accept now (targets, \
    weapons and points from the board) out to the end of the turn over 8 dice samples of its own, the rules bot \
    playing on, and declares the one leaving the best material, never a weapon its rollouts found could not hit. It \
    is ~1,000x slower (about one full-rules game a second per core) and as deterministic; the result names the sides \
    it played and merges only with results of the same bots.\n\
    Every report counts, per side, the actions the bot declared and the rules accepted (per game, beside the decisions \
    it was asked for), its shots and hopeless shots, the reactions it took, and each special attribute's uses (rolls and hits it changed, effects \
    its script applied) with the games it was used in of those it was carried in.\n\
    --vs CHANGE plays every seed twice: A as the content is, B with the change; both are reported as above, then \
    B − A for each side's win rate, the draw rate, the mean length and each side's damage per game, with a 95 % \
    interval computed from the per-game differences of the same seed (d̄ ± 1.96·s/√n, s the sample deviation of \
    the differences), which the pairing makes much tighter than two separate runs; under remove-sa an SA the bots \
    never used in A is reported as not exercised (the difference says nothing about it). Changes, applied to the \
    content as patches of a generated pack (so B is loaded, checked and compiled as any content is; the result \
    cache keeps it, for the same change on the same content, rosters and mod: files):\n  \
    swap:MODEL=OTHER[@SIDE]   the scenario fields OTHER wherever (on SIDE) it fields MODEL\n  \
    remove-sa:SA[@MODEL]      SA taken off every model card, weapon mount and weapon (or MODEL's card and mounts)\n  \
    option:NAME=VALUE         the ruleset plays another value of an option (one it declares, or an engine option)\n  \
    mod:PATH                  the pack(s) at PATH loaded too (one with a loaded pack's id replaces it)\n\
    A change that names nothing, asks for what already is, or leaves the compiled rules as they are is refused \
    (exit 2). --format json of a --vs run (schemas/reports/sim-vs.schema.json) holds A, B (with its own content \
    hash) and the paired counts and sums, so its shards merge byte for byte too.\n\
    Exit codes: 0 success, 1 invalid content (or a game stopped), 2 usage (unknown scenario, bad --shard or --vs, \
    results that do not merge).\n\
    Examples:\n  cav sim stand-and-fight --games 2000\n  \
    cav sim stand-and-fight --games 1000 --seed 500 --format json --out run.json\n  \
    cav sim this-is-war --ruleset full --tv 1000 --games 100 --bot side-a=search\n  \
    cav sim stand-and-fight --games 1000 --shard 2/4 --format json --out shard2.json\n  \
    cav sim merge shard1.json shard2.json shard3.json shard4.json --out all.json\n  \
    cav sim merge all.json --format human\n  \
    cav sim stand-and-fight --games 10000 --plot charts/      win-rates.svg, turns.svg, weapons.svg\n  \
    cav sim stand-and-fight --games 2000 --vs swap:dictator-b=warden@black\n  \
    cav sim stand-and-fight --games 2000 --vs remove-sa:advanced-targeting-computer\n  \
    cav sim stand-and-fight --games 2000 --vs option:ranged-critical=no-critical --plot charts/\n  \
    cav sim stand-and-fight --games 2000 --vs mod:../my-mod --format csv\n  \
    cav sim no-man-s-land --ruleset full --games 200 --force mods/iron-wolves/forces/wolf-pack.yaml --faction iron-wolves"
)]
pub struct SimCommand {
    #[command(subcommand)]
    merge: Option<SimSub>,
    /// Scenario id (`cav list scenario`): one that fixes its forces, or one whose players bring rosters (--force).
    #[arg(required = true)]
    scenario: Option<String>,
    /// Ruleset: `quickstart`, `full`, or a ruleset pack id.
    #[arg(long, default_value = "quickstart")]
    ruleset: String,
    /// How many games (seeds S..S+N).
    #[arg(long, required = true, value_parser = clap::value_parser!(u64).range(1..))]
    games: Option<u64>,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the i-th of n contiguous slices of the seeds (1-based: `1/4` … `4/4`).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Play every seed with this change too (B) and report B − A, paired by seed:
    /// `swap:MODEL=OTHER[@SIDE]`, `remove-sa:SA[@MODEL]`, `option:NAME=VALUE` or `mod:PATH`.
    #[arg(long, value_name = "CHANGE")]
    vs: Option<String>,
    /// `json`: the result with every count and sum, sorted (for `cav sim merge`); `csv`: one row
    /// per quantity.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Who plays: `rules` (the rules bot, fast), `search` (the searching bot for every side), or
    /// `SIDE=search` (repeatable: those sides search, the others play the rules bot).
    #[arg(long, value_name = "BOT", default_value = "rules")]
    bot: Vec<String>,
    /// Write the output to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write SVG charts to DIR: win rates with their 95 % intervals, game lengths, damage
    /// per game, weapons by range band.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    // The rosters (--force, --tv, --faction, as in `cav play`); the bot builds missing ones once,
    // from the first seed, and every game fields the same rosters.
    #[command(flatten)]
    rosters: Rosters,
}

#[derive(Subcommand)]
enum SimSub {
    /// Add the JSON results of `cav sim` runs (shards) into one: the same content, scenario and
    /// ruleset, seeds that do not overlap (and, for `--vs` runs, the same change and B content).
    Merge {
        /// Result files written by `cav sim --format json`.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// `human`: the table instead of the merged JSON.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Write the output to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also write SVG charts of the merged result to DIR.
        #[arg(long, value_name = "DIR")]
        plot: Option<PathBuf>,
    },
}

pub fn run(mut cmd: SimCommand, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    if let Some(SimSub::Merge { files, format, out, plot }) = cmd.merge.take() {
        return merge(&files, format, out.as_deref(), plot.as_deref());
    }
    let (Some(scenario), Some(games)) = (cmd.scenario.take(), cmd.games) else {
        return Err("name a scenario and --games N".into());
    };
    let seeds = seed_slice(cmd.seed, games, cmd.shard.as_deref())?;
    let searching = search_sides(&cmd.bot)?;
    let bots = match &searching {
        None => cav_lab::Bots::Rules,
        Some(sides) if sides.is_empty() => cav_lab::Bots::Search,
        Some(sides) => cav_lab::Bots::SearchFor(sides),
    };
    let change = cmd.vs.as_deref().map(Change::parse).transpose().map_err(|e| format!("--vs {e}"))?;
    // An output that cannot be written is said before the games, not after them.
    let file = match &cmd.out {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?),
        None => None,
    };
    // A run starts from what an earlier run made of the same content (`RulesCache`): the rules,
    // the rosters chosen, and for `--vs` the B made with the same change for those rosters.
    let cache = RulesCache::open(root, &cmd.ruleset, no_cache);
    let kept = kept_game(cache.as_ref(), Some(&scenario), cmd.seed, Forces::Chosen(&cmd.rosters));
    let kept = kept.and_then(|game| match &change {
        None => Some((game, None)),
        Some(c) => {
            let cache = cache.as_ref()?;
            let recorded = game.rosters.as_ref().map(|(_, sides)| sides.as_slice());
            let b = cache.kept_b(&cache.vs_key(&scenario, c, recorded)?)?;
            let mut rules = b.rules;
            let rosters = match &b.picked {
                Some(p) => Some(p.field(&mut rules).ok()?.0),
                None => None,
            };
            Some((game, Some((ContentB { rules, hash: b.hash, rosters, change: b.change }, b.told))))
        }
    });
    let (rules, hash, rosters, b) = match kept {
        Some((KeptGame { kept, rosters, told, .. }, b)) => {
            eprint!("{told}");
            let b = b.map(|(b, told)| {
                eprint!("{told}");
                b
            });
            let mut hash = kept.pins.content_hash().to_owned();
            if let Some((_, sides)) = &rosters {
                hash = cav_lab::rosters_hash(&hash, sides)?;
            }
            (kept.rules, hash, rosters, b)
        }
        None => match loaded_arms(&cmd, root, &scenario, change.as_ref(), cache.as_ref())? {
            Ok(arms) => arms,
            Err(code) => return Ok(code),
        },
    };
    let squads = rosters.as_ref().map(|(squads, _)| squads.as_slice());
    // A side the scenario does not have is a usage error, said before any game.
    if let (Some(named), Some(sc)) = (&searching, rules.scenario(&scenario)) {
        let sides: Vec<&str> = rules.scenarios[sc].sides.iter().map(|(n, _)| n.as_str()).collect();
        if let Some(n) = named.iter().find(|n| !sides.contains(&n.as_str())) {
            return Err(format!("--bot: no side `{n}` in scenario `{scenario}`; its sides: {}", sides.join(", ")));
        }
    }
    // The workers only count (an atomic add); a thread of its own moves the bar, so the games
    // never wait on the bar's lock.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let bar = std::io::stderr().is_terminal().then(|| {
        let what = if b.is_some() { "seeds (A and B)" } else { "games" };
        let bar = indicatif::ProgressBar::new(seeds.end - seeds.start).with_style(
            indicatif::ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, {{eta}} left"
            ))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let (b, n) = (bar.clone(), done.clone());
        std::thread::spawn(move || {
            while !b.is_finished() {
                b.set_position(n.load(std::sync::atomic::Ordering::Relaxed));
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        bar
    });
    let started = std::time::Instant::now();
    let progress = || {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let result = match &b {
        Some(b) => cav_lab::run_vs(
            cav_lab::Arm { rules: &rules, content_hash: &hash, rosters: squads, bots },
            cav_lab::Arm { rules: &b.rules, content_hash: &b.hash, rosters: b.rosters.as_deref(), bots },
            &b.change,
            &scenario,
            seeds,
            &progress,
        )
        .map(Run::Vs),
        None => cav_lab::run(
            cav_lab::Arm { rules: &rules, content_hash: &hash, rosters: squads, bots },
            &scenario,
            seeds,
            &progress,
        )
        .map(Run::Plain),
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let result = match result {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(EXIT_INVALID));
        }
    };
    if cmd.format == Format::Human {
        let secs = started.elapsed().as_secs_f64();
        let (n, what) = match &result {
            Run::Plain(r) => (r.games, "games"),
            Run::Vs(r) => (2 * r.a.games, "games (A and B)"),
        };
        eprintln!("{n} {what} in {secs:.1} s ({:.0} games/s)", n as f64 / secs.max(1e-9));
    }
    write_out(&result, cmd.format, cmd.out.as_deref(), file)?;
    if let Some(dir) = &cmd.plot {
        plot(&result, dir)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A's rules, content hash and rosters, and B: loaded, checked and compiled from the content
/// (and A's rules kept for the next run). `Err`: the exit code of content with errors or of
/// invalid rosters, already told.
#[allow(clippy::type_complexity)]
fn loaded_arms(
    cmd: &SimCommand,
    root: &Path,
    scenario: &str,
    change: Option<&Change>,
    cache: Option<&RulesCache>,
) -> Result<
    Result<
        (cav_rules::Rules, String, Option<(Vec<cav_rules::setup::RosterForce>, Vec<SideForce>)>, Option<ContentB>),
        ExitCode,
    >,
    String,
> {
    let Content { mut loaded, rs, rules, .. } = load_and_keep(root, &cmd.ruleset, cache)?;
    let rs = &rs;
    let Some(mut rules) = rules else {
        return Ok(Err(content_errors(&loaded, "fix them before simulating (`cav validate` shows warnings too)")));
    };
    // Usage errors (exit 2) before any game: the scenario must exist.
    let Some(sc) = rules.scenario(scenario) else {
        let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
        let hint = cav_content::diag::did_you_mean(scenario, ids.iter().copied())
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        return Err(format!("no scenario `{scenario}` in {}{hint}; scenarios: {}", rules.id, ids.join(", ")));
    };
    // Rosters, where the players bring them: chosen once (files, or the bot's from the first
    // seed), the same for every game and for B.
    let mut hash = cav_lab::content_hash(rs)?;
    let rosters = match field_rosters(
        &mut loaded,
        rs,
        &mut rules,
        sc,
        cmd.seed,
        &cmd.rosters,
        cache.map(|c| (c, Some(scenario))),
    )? {
        Ok(rosters) => rosters,
        Err(InvalidRoster) => return Ok(Err(ExitCode::from(EXIT_INVALID))),
    };
    if let Some((_, sides)) = &rosters {
        hash = cav_lab::rosters_hash(&hash, sides)?;
    }
    // B, when asked for: loaded, checked and compiled as any content is.
    let b = match change {
        Some(c) => {
            let recorded = rosters.as_ref().map(|(_, sides)| sides.as_slice());
            match content_b(c, rs, &rules, scenario, root, recorded, cmd.seed, cache)? {
                Ok(b) => Some(b),
                Err(code) => return Ok(Err(code)),
            }
        }
        None => None,
    };
    Ok(Ok((rules, hash, rosters, b)))
}

/// A plain result or a paired one (one value per run: its size does not matter).
#[allow(clippy::large_enum_variant)]
enum Run {
    Plain(SimResult),
    Vs(VsResult),
}

/// The B side of a paired run.
struct ContentB {
    rules: cav_rules::Rules,
    hash: String,
    /// A's rosters fielded under B's content, where the players bring rosters.
    rosters: Option<Vec<cav_rules::setup::RosterForce>>,
    /// The change as results record it (`mod:` by pack ids and versions, not by path).
    change: String,
}

/// Load, check and compile the content with `change` (and field A's rosters in it, where the
/// players bring them), and keep it in `cache` for the next run with the same content, change
/// and rosters. A change that names nothing or changes nothing is `Err` (exit 2); content that
/// the change leaves with errors is reported here and gives `Ok(Err(exit code))`.
#[allow(clippy::too_many_arguments)]
fn content_b(
    change: &Change,
    rs: &cav_content::Ruleset,
    rules: &cav_rules::Rules,
    scenario: &str,
    root: &Path,
    recorded: Option<&[SideForce]>,
    seed: u64,
    cache: Option<&RulesCache>,
) -> Result<Result<ContentB, ExitCode>, String> {
    let spec = change.spec();
    // Taken before anything is read: a file that changes meanwhile makes the key taken again
    // at the end differ, and B is not kept.
    let key = cache.and_then(|c| c.vs_key(scenario, change, recorded));
    let mut told = String::new();
    let mut mods: Vec<(String, String)> = Vec::new(); // (id, version) of the packs `mod:` adds
    let (extra, replaced, temp) = match change {
        Change::AddPacks { path } => {
            if !path.exists() {
                return Err(format!(
                    "--vs {spec}: no such file or directory: expected a pack directory or a folder of packs"
                ));
            }
            let mut diags = Vec::new();
            let dirs = cav_content::pack::discover(path, &mut diags);
            let mut cache = cav_content::pack::Cache::default();
            let mut ids = Vec::new();
            for d in &dirs {
                if let Some(p) = cav_content::pack::read_manifest(d, &mut cache, &mut Vec::new()) {
                    let canon = |x: &Path| x.canonicalize().unwrap_or_else(|_| x.to_owned());
                    if let Some(same) = rs.packs.iter().find(|q| canon(&q.dir) == canon(d)) {
                        return Err(format!(
                            "--vs {spec}: pack `{}` is already loaded in {} as it is (from {}), so B would be A: \
                             expected a pack that is not, or a working copy elsewhere",
                            same.id,
                            rs.id,
                            d.display()
                        ));
                    }
                    mods.push((p.id.clone(), p.version.to_string()));
                    ids.push(p.id);
                }
            }
            if mods.is_empty() {
                return Err(format!(
                    "--vs {spec}: no pack there: expected a directory with a pack.yaml, or one whose sub-directories have one"
                ));
            }
            (dirs, ids, None)
        }
        _ => {
            let rostered: Option<Vec<String>> = recorded.map(|sides| {
                let models = sides.iter().flat_map(|s| &s.force.squads).flat_map(|q| &q.models);
                models.map(|m| m.model.to_string()).collect()
            });
            let patches = change.patches(rs, scenario, rostered.as_deref()).map_err(|e| format!("--vs {spec}: {e}"))?;
            for n in &patches.notes {
                let line = format!("note: --vs {spec}: {n}");
                eprintln!("{line}");
                told.push_str(&line);
                told.push('\n');
            }
            let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
            let dir = std::env::temp_dir().join(format!("cav-sim-vs-{}-{nanos}", std::process::id()));
            let pack = cav_lab::change::write_pack(&dir, rs, &spec, &patches.docs);
            let pack = match pack {
                Ok(p) => p,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&dir);
                    return Err(e);
                }
            };
            (vec![pack], vec![], Some(dir))
        }
    };
    let mut loaded = load(cav_lab::change::b_paths(rs, &extra, &replaced), root);
    let compiled = cav_compile::validate(&mut loaded);
    if let Some(dir) = temp {
        let _ = std::fs::remove_dir_all(dir);
    }
    let Some(ix) = loaded.rulesets.iter().position(|r| r.id == rs.id) else {
        return Err(format!("--vs {spec}: ruleset {} is not loaded any more", rs.id));
    };
    let rs_b = &loaded.rulesets[ix].clone();
    for (id, _) in &mods {
        if rs_b.pack(id).is_none() {
            return Err(format!(
                "--vs {spec}: pack `{id}` does not join {}: expected a pack whose dependencies are in it",
                rs.id
            ));
        }
    }
    let Some(mut rules_b) = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0) else {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: with --vs {spec} the content has errors (above)");
        return Ok(Err(ExitCode::from(EXIT_INVALID)));
    };
    // B's rules as compiled, before A's rosters are fielded in them: what a later run starts from.
    let unfielded = key.is_some().then(|| rules_b.clone());
    let (mut rosters, mut picked) = (None, None);
    if let Some(recorded) = recorded {
        let sc = rules_b.scenario(scenario).ok_or_else(|| format!("--vs {spec}: no scenario `{scenario}` in B"))?;
        match pick(&mut loaded, rs_b, &rules_b, sc, seed, &Chosen::Recorded(recorded))? {
            Ok(p) => {
                rosters = Some(p.field(&mut rules_b)?.0);
                picked = Some(p);
            }
            Err(InvalidRoster) => return Ok(Err(ExitCode::from(EXIT_INVALID))),
        }
    }
    if cav_lab::same_rules(rules, &rules_b) {
        return Err(format!(
            "--vs {spec} leaves the compiled rules as they are (nothing the engine plays changes): expected a change \
             that does"
        ));
    }
    let mut hash = cav_lab::content_hash(rs_b)?;
    if let Some(recorded) = recorded {
        hash = cav_lab::rosters_hash(&hash, &recorded)?;
    }
    let recorded_as = match change {
        Change::AddPacks { .. } => {
            let names: Vec<String> = mods.iter().map(|(id, v)| format!("{id} {v}")).collect();
            format!("mod:{}", names.join(", "))
        }
        _ => spec,
    };
    if let (Some(cache), Some(key), Some(unfielded)) = (cache, key, unfielded) {
        let kept = KeptB { rules: unfielded, hash: hash.clone(), change: recorded_as.clone(), picked, told };
        cache.keep_b(key, &kept, || cache.vs_key(scenario, change, recorded));
    }
    Ok(Ok(ContentB { rules: rules_b, hash, change: recorded_as, rosters }))
}

/// The SVG charts of a result, written to `dir` (made if missing); their paths on stderr.
fn plot(r: &Run, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let charts: Vec<(String, String)> = match r {
        Run::Plain(r) => cav_lab::plot::charts(r).into_iter().map(|(n, s)| (n.to_owned(), s)).collect(),
        Run::Vs(r) => cav_lab::plot::charts_vs(r),
    };
    for (name, svg) in charts {
        let path = dir.join(name);
        std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

/// Seeds S..S+N, or the i-th of n contiguous slices of them (`--shard i/n`, 1-based).
fn seed_slice(seed: u64, games: u64, shard: Option<&str>) -> Result<std::ops::Range<u64>, String> {
    let end =
        seed.checked_add(games).ok_or_else(|| format!("--seed {seed} with --games {games} runs past the last seed"))?;
    let Some(spec) = shard else { return Ok(seed..end) };
    let bad = || format!("--shard `{spec}`: expected I/N with 1 <= I <= N (e.g. `--shard 2/4`)");
    let (i, n) = spec.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i == 0 || i > n {
        return Err(bad());
    }
    let at = |k: u64| seed + (u128::from(games) * u128::from(k) / u128::from(n)) as u64;
    Ok(at(i - 1)..at(i))
}

fn merge(files: &[PathBuf], format: Format, out: Option<&Path>, plot_dir: Option<&Path>) -> Result<ExitCode, String> {
    let mut merged: Option<Run> = None;
    for f in files {
        let text = read_result(f)?;
        let not = |e: serde_json::Error| format!("{} is not a result of `cav sim --format json`: {e}", f.display());
        let value: serde_json::Value = serde_json::from_str(&text).map_err(not)?;
        let cannot = |e: String| format!("cannot merge {}: {e}", f.display());
        let r = if value.get("paired").is_some() {
            let r: VsResult = serde_json::from_value(value).map_err(not)?;
            r.consistent().map_err(cannot)?;
            Run::Vs(r)
        } else {
            let r: SimResult = serde_json::from_value(value).map_err(not)?;
            r.consistent().map_err(cannot)?;
            Run::Plain(r)
        };
        merged = Some(match (merged, r) {
            (None, r) => r,
            (Some(Run::Plain(m)), Run::Plain(r)) => Run::Plain(SimResult::merge(m, &r).map_err(cannot)?),
            (Some(Run::Vs(m)), Run::Vs(r)) => Run::Vs(VsResult::merge(m, &r).map_err(cannot)?),
            _ => return Err(cannot("a paired result (`--vs`) and a plain one do not merge".into())),
        });
    }
    let merged = merged.ok_or("no file to merge")?;
    let file = match out {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?),
        None => None,
    };
    write_out(&merged, format, out, file)?;
    if let Some(dir) = plot_dir {
        plot(&merged, dir)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A result file's text: a regular file (a FIFO is refused, not waited on) of at most
/// `MAX_SIM_RESULT_BYTES`, checked before it is read.
fn read_result(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let max = cav_format::limits::MAX_SIM_RESULT_BYTES;
    let file = crate::input::open_input(path, max, "a result of `cav sim`")?;
    let mut text = String::new();
    // At most one byte more than allowed, should the file grow while read.
    file.take(max + 1).read_to_string(&mut text).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if text.len() as u64 > max {
        return Err(format!("{} grew past {max} bytes while read", path.display()));
    }
    Ok(text)
}

fn write_out(r: &Run, format: Format, path: Option<&Path>, file: Option<std::fs::File>) -> Result<(), String> {
    let text = match (format, r) {
        (Format::Json, Run::Plain(r)) => serde_json::to_string_pretty(r).map_err(|e| e.to_string())? + "\n",
        (Format::Json, Run::Vs(r)) => serde_json::to_string_pretty(r).map_err(|e| e.to_string())? + "\n",
        (Format::Human, Run::Plain(r)) => human(r),
        (Format::Human, Run::Vs(r)) => human_vs(r),
        (Format::Csv, r) => csv(r),
    };
    match (path, file) {
        (Some(p), Some(mut f)) => {
            std::io::Write::write_all(&mut f, text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", p.display()))
        }
        _ => {
            print!("{text}");
            Ok(())
        }
    }
}

/// A signed figure: percentage points for a rate, else the number.
fn signed(x: f64, rate: bool) -> String {
    if rate { format!("{:+.1}", 100.0 * x) } else { format!("{x:+.2}") }
}

/// The paired report: what B changes, A's and B's tables, then B − A with its intervals.
fn human_vs(r: &VsResult) -> String {
    let mut o = String::new();
    let seeds: Vec<String> = r.a.seeds.iter().map(|s| format!("{}..{}", s.first, s.end())).collect();
    let short = |h: &str| h.get(..12).unwrap_or(h).to_owned();
    let _ = writeln!(
        o,
        "{} ({}): {} paired games, seeds {}\n  A: as the content is (content {})\n  B: --vs {} (content {})\n",
        r.a.scenario,
        r.a.ruleset,
        r.a.games,
        if seeds.is_empty() { "none".to_owned() } else { seeds.join(", ") },
        short(&r.a.content_hash),
        r.change,
        short(&r.b.content_hash)
    );
    let _ = writeln!(o, "A — as is\n{}", indent(&human(&r.a)));
    let _ = writeln!(o, "B — {}\n{}", r.change, indent(&human(&r.b)));
    let _ = writeln!(o, "B − A, paired by seed ({}): 95 % interval from the per-game differences", r.change);
    let rows = r.rows();
    let w = rows.iter().map(|d| d.name.len()).max().unwrap_or(0).max(8);
    let _ = writeln!(o, "  {:w$}  {:>8}  {:>8}  {:>9}  {:>18}", "", "A", "B", "B − A", "95 % interval");
    for d in &rows {
        let val = |x: f64| if d.rate { pct(x) } else { format!("{x:.2}") };
        let unit = if d.rate { " pp" } else { "" };
        let interval = match d.diff.interval {
            Some((lo, hi)) => format!("[{}, {}]", signed(lo, d.rate), signed(hi, d.rate)),
            None => "-".to_owned(),
        };
        let mark = if d.diff.excludes_zero() { "  *" } else { "" };
        let _ = writeln!(
            o,
            "  {:w$}  {:>8}  {:>8}  {:>9}  {interval:>18}{mark}",
            d.name,
            val(d.a),
            val(d.b),
            format!("{}{unit}", signed(d.diff.mean, d.rate))
        );
    }
    let _ = writeln!(o, "  (pp: percentage points; *: the interval leaves out 0)");
    let n = r.a.games;
    let unused = r.removed_sa_uses().filter(|(_, uses)| *uses == 0).map(|(sa, _)| sa);
    if let Some(sa) = unused {
        // Never used in A: whatever B did, the games did not put the SA to the test.
        let _ =
            writeln!(o, "\n  {sa}: not exercised by the bots in A ({n} games) — the difference says nothing about it");
        if r.paired.games_changed > 0 {
            let _ = writeln!(
                o,
                "  (no roll, hit or script effect named it, yet B changed the result of {} games: it acts through \
                 what the log does not name, a card value or a trait the engine reads)",
                r.paired.games_changed
            );
        }
    } else if r.paired.games_changed == 0 {
        let _ = writeln!(
            o,
            "\n  no difference: B played all {n} games to the same result as A (winner, turns, damage, weapons, \
             states) — the change does nothing in this scenario"
        );
    } else {
        let _ = writeln!(
            o,
            "\n  B changed the winner (or a draw) in {} of {n} games, and the result at all (winner, turns, damage, \
             weapons, states) in {}",
            r.outcomes_changed(),
            r.paired.games_changed
        );
    }
    if let Some((sa, uses)) = r.removed_sa_uses().filter(|(_, uses)| *uses > 0) {
        let per = if n == 0 { 0.0 } else { uses as f64 / n as f64 };
        let _ = writeln!(o, "  {sa}: used {uses} times in A ({per:.2} per game)");
    }
    o
}

fn indent(text: &str) -> String {
    text.lines().map(|l| if l.is_empty() { String::new() } else { format!("  {l}\n") }).collect()
}

/// One row per quantity: `run` (A, B, B-A), `quantity`, `name` (a side or a weapon), games, the
/// value and its 95 % interval where there is one (Wilson for a rate of one run, the paired
/// interval for B-A).
fn csv(r: &Run) -> String {
    fn field(s: &str) -> String {
        if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() }
    }
    let mut o = String::from("run,quantity,name,games,value,low,high\n");
    let mut row = |run: &str, q: &str, name: &str, games: u64, v: f64, ci: Option<(f64, f64)>| {
        let (lo, hi) = ci.map_or((String::new(), String::new()), |(l, h)| (format!("{l:.6}"), format!("{h:.6}")));
        let _ = writeln!(o, "{run},{q},{},{games},{v:.6},{lo},{hi}", field(name));
    };
    let mut one = |run: &str, r: &SimResult| {
        let n = r.games;
        let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        for s in &r.sides {
            let w = r.wins.get(s).copied().unwrap_or(0);
            row(run, "win_rate", s, n, per(w), Some(wilson(w, n)));
        }
        row(run, "draw_rate", "", n, per(r.draws), Some(wilson(r.draws, n)));
        row(run, "mean_turns", "", n, r.mean_turns(), None);
        for s in &r.sides {
            row(run, "damage_per_game", s, n, per(r.damage.get(s).copied().unwrap_or(0)), None);
        }
        if r.damage_model.is_some() || !r.table_results.is_empty() {
            for s in &r.sides {
                row(run, "effects_per_game", s, n, per(r.effects.get(s).copied().unwrap_or(0)), None);
            }
            for (name, k) in &r.table_results {
                row(run, "table_results_per_game", name, n, per(*k), None);
            }
            for (w, st) in r.weapons.iter().filter(|(_, s)| s.shots > 0) {
                row(run, "table_results_per_shot", w, n, st.table_results as f64 / st.shots as f64, None);
                row(run, "effects_per_shot", w, n, st.effects as f64 / st.shots as f64, None);
            }
        }
        for (w, st) in &r.weapons {
            if st.shots > 0 {
                row(run, "hit_rate", w, n, st.hits as f64 / st.shots as f64, Some(wilson(st.hits, st.shots)));
                row(run, "damage_per_shot", w, n, st.damage as f64 / st.shots as f64, None);
                let p = st.hopeless as f64 / st.shots as f64;
                row(run, "hopeless_per_shot", w, n, p, Some(wilson(st.hopeless, st.shots)));
            }
            if st.hits > 0 {
                let p = st.penetrations as f64 / st.hits as f64;
                row(run, "penetrations_per_hit", w, n, p, Some(wilson(st.penetrations, st.hits)));
            }
        }
        for (w, bands) in &r.bands {
            for (band, st) in bands.iter().filter(|(_, s)| s.shots > 0) {
                let name = format!("{w} · {band}");
                row(
                    run,
                    "hit_rate_at_band",
                    &name,
                    n,
                    st.hits as f64 / st.shots as f64,
                    Some(wilson(st.hits, st.shots)),
                );
            }
        }
        for (m, d) in &r.model_damage {
            row(run, "model_damage_per_game", m, n, per(*d), None);
        }
        for (side, u) in &r.usage {
            row(run, "decisions_per_game", side, n, per(u.decisions), None);
            if u.shots > 0 {
                let p = u.hopeless as f64 / u.shots as f64;
                row(run, "side_hopeless_per_shot", side, n, p, Some(wilson(u.hopeless, u.shots)));
            }
            for (a, k) in &u.actions {
                row(run, "action_uses_per_game", &format!("{side} · {a}"), n, per(*k), None);
            }
            for (a, k) in &u.reactions {
                row(run, "reaction_uses_per_game", &format!("{side} · {a}"), n, per(*k), None);
            }
            for (sa, s) in &u.sas {
                let name = format!("{side} · {sa}");
                row(run, "sa_uses_per_game", &name, n, per(s.uses), None);
                if s.carried > 0 {
                    let used = s.games.min(s.carried);
                    row(
                        run,
                        "sa_used_in_games_carried",
                        &name,
                        n,
                        used as f64 / s.carried as f64,
                        Some(wilson(used, s.carried)),
                    );
                }
            }
        }
        for (src, m) in &r.modifiers {
            row(run, "modifier_rolls_per_game", src, n, per(m.rolls), None);
            if m.rolls > 0 {
                let d = m.decided as f64 / m.rolls as f64;
                row(run, "modifier_decided_per_roll", src, n, d, Some(wilson(m.decided, m.rolls)));
            }
        }
    };
    match r {
        Run::Plain(r) => one("A", r),
        Run::Vs(v) => {
            one("A", &v.a);
            one("B", &v.b);
            for d in v.rows() {
                let (q, name) = match d.name.as_str() {
                    "draws" => ("draw_rate", String::new()),
                    "turns" => ("mean_turns", String::new()),
                    n => match (n.strip_suffix(" wins"), n.strip_suffix(" damage"), n.strip_suffix(" effects")) {
                        (Some(s), _, _) => ("win_rate", s.to_owned()),
                        (_, Some(s), _) => ("damage_per_game", s.to_owned()),
                        (_, _, Some(s)) => ("effects_per_game", s.to_owned()),
                        _ => (n, String::new()),
                    },
                };
                row("B-A", q, &name, v.a.games, d.diff.mean, d.diff.interval);
            }
        }
    }
    o
}

/// What the figures count where hits land table rows (a damage model by tables,
/// `procedures.attack.damage_table`, or a script's rows), and every row landed.
fn table_note(r: &SimResult) -> String {
    let mut text = match &r.damage_model {
        Some(t) => format!(
            "damage model: each hit reads `{t}` by its margin × a weapon value in multiples of the target's armor; \
             the row changes the target and may roll on further tables (every standing hit reads it: pen/hit counts \
             those). "
        ),
        None => "table rows: scripts landed rows of lookup tables on models. ".to_owned(),
    };
    text.push_str(
        "damage: only the points rows deal (`damage:` of a row; a hit's margin × weapon value is not in the event \
         log and is not counted). results: rows an attack landed on an enemy model, the row a hit reads and every \
         row it rolls on; effects: those that changed the model themselves (not a row of no effect, nor one that \
         only rolls on another table).",
    );
    if r.table_results_unattributed > 0 {
        let _ = write!(
            text,
            " {} rows below landed outside an attack on an enemy model (a script's row at another moment, a row on \
             the attacker's own side): in no weapon's, side's or model's count.",
            r.table_results_unattributed
        );
    }
    let mut o = String::new();
    wrapped(&mut o, &text);
    // Every row landed, most first.
    let mut rows: Vec<(&String, &u64)> = r.table_results.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let w = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).max(11);
    let _ = writeln!(o, "\n  {:w$}  {:>8}  {:>8}", "table · row", "landed", "per game");
    for (name, n) in rows {
        let per = if r.games == 0 { 0.0 } else { *n as f64 / r.games as f64 };
        let pad = w - name.chars().count().min(w);
        let _ = writeln!(o, "  {name}{:pad$}  {n:>8}  {per:>8.2}", "");
    }
    o
}

/// Per side, the actions, reactions and special attributes used per game: one column per side,
/// most used first; an SA's cell adds the games it was used in of those it was carried in.
fn usage(r: &SimResult) -> String {
    let mut o = String::new();
    let sides: Vec<&String> = r.sides.iter().filter(|s| r.usage.contains_key(*s)).collect();
    let per = |n: u64| if r.games == 0 { 0.0 } else { n as f64 / r.games as f64 };
    let table = |o: &mut String, title: &str, rows: Vec<(String, Vec<String>)>| {
        if rows.is_empty() {
            return;
        }
        let w = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).max(title.chars().count());
        let cw: Vec<usize> = (0..sides.len())
            .map(|k| rows.iter().map(|(_, c)| c[k].chars().count()).max().unwrap_or(0).max(sides[k].chars().count()))
            .collect();
        let pad = |t: &str, w: usize| format!("{}{t}", " ".repeat(w.saturating_sub(t.chars().count())));
        let head: Vec<String> = sides.iter().zip(&cw).map(|(s, &w)| pad(s, w)).collect();
        let _ = writeln!(o, "  {title}{}  {}", " ".repeat(w - title.chars().count()), head.join("  "));
        for (name, cells) in rows {
            let cells: Vec<String> = cells.iter().zip(&cw).map(|(c, &w)| pad(c, w)).collect();
            let _ = writeln!(o, "  {name}{}  {}", " ".repeat(w - name.chars().count()), cells.join("  "));
        }
    };
    // The names used by any side, most used (all sides together) first.
    let names = |of: &dyn Fn(&cav_lab::Usage) -> Vec<(String, u64)>| -> Vec<String> {
        let mut total: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
        for s in &sides {
            for (n, k) in of(&r.usage[*s]) {
                *total.entry(n).or_default() += k;
            }
        }
        let mut v: Vec<(String, u64)> = total.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.into_iter().map(|(n, _)| n).collect()
    };
    let counts = |rows: Vec<String>, get: &dyn Fn(&cav_lab::Usage, &str) -> u64| -> Vec<(String, Vec<String>)> {
        rows.into_iter()
            .map(|n| {
                let cells = sides.iter().map(|s| format!("{:.2}", per(get(&r.usage[*s], &n)))).collect();
                (n, cells)
            })
            .collect()
    };
    let mut actions = counts(names(&|u| u.actions.iter().map(|(n, k)| (n.clone(), *k)).collect()), &|u, n| {
        u.actions.get(n).copied().unwrap_or(0)
    });
    actions
        .push(("(decisions)".to_owned(), sides.iter().map(|s| format!("{:.2}", per(r.usage[*s].decisions))).collect()));
    actions.push(("(shots)".to_owned(), sides.iter().map(|s| format!("{:.2}", per(r.usage[*s].shots))).collect()));
    let hopeless = |u: &cav_lab::Usage| format!("{:.2} ({})", per(u.hopeless), rate(u.hopeless, u.shots));
    actions.push(("(hopeless shots)".to_owned(), sides.iter().map(|s| hopeless(&r.usage[*s])).collect()));
    table(&mut o, "action · per game", actions);
    // A reaction: taken, of the times the side was asked.
    let reactions: Vec<(String, Vec<String>)> =
        names(&|u| u.reactions.iter().chain(&u.reactions_offered).map(|(n, k)| (n.clone(), *k)).collect())
            .into_iter()
            .map(|n| {
                let cells = sides
                    .iter()
                    .map(|s| {
                        let u = &r.usage[*s];
                        let taken = u.reactions.get(&n).copied().unwrap_or(0);
                        match u.reactions_offered.get(&n) {
                            Some(&asked) => format!("{:.2} of {:.2}", per(taken), per(asked)),
                            None => format!("{:.2}", per(taken)),
                        }
                    })
                    .collect();
                (n, cells)
            })
            .collect();
    if !reactions.is_empty() {
        o.push('\n');
    }
    table(&mut o, "reaction · per game (taken of asked)", reactions);
    searched(&mut o, r, &sides, &table);
    let sas = names(&|u| u.sas.iter().map(|(n, s)| (n.clone(), s.uses)).collect());
    let (sas, unused): (Vec<String>, Vec<String>) =
        sas.into_iter().partition(|n| sides.iter().any(|s| r.usage[*s].sa_uses(n) > 0));
    let rows: Vec<(String, Vec<String>)> = sas
        .into_iter()
        .map(|n| {
            let cells = sides
                .iter()
                .map(|s| match r.usage[*s].sas.get(&n) {
                    Some(u) if u.carried > 0 || u.uses > 0 => {
                        let declined = if u.offered > 0 {
                            format!(", declined {}/{}", u.declined, u.offered)
                        } else {
                            String::new()
                        };
                        format!("{:.2} ({}/{}{declined})", per(u.uses), u.games, u.carried)
                    }
                    _ => "-".to_owned(),
                })
                .collect();
            (n, cells)
        })
        .collect();
    if !rows.is_empty() {
        o.push('\n');
    }
    table(&mut o, "special attribute · uses per game (games used/carried)", rows);
    if !unused.is_empty() {
        let _ = writeln!(o, "  never used (carried or offered, named by no event): {}", unused.join(", "));
    }
    let note = "(an action counts when the bot declared it and the rules accepted it; (decisions): the times it was \
                asked, passes included; (hopeless shots): shots whose hit roll could not succeed, and their share of \
                the side's shots; a reaction when taken; an SA each roll or hit it changed, effect its script \
                applied or out-of-ammo its reserve saved; an SA that acts only through card values or traits is \
                never counted)";
    wrapped(&mut o, note);
    o
}

/// A table's rows: a name and a cell per side.
type Rows = Vec<(String, Vec<String>)>;

/// For the sides a searching bot played: each action the ruleset has, per game, at how many
/// decisions the engine would accept it, how often it was played out and how often declared;
/// then, for each never declared, why: never accepted (the engine's most frequent reason), or
/// played out and never worth more than what the bot chose instead.
fn searched(o: &mut String, r: &SimResult, sides: &[&String], table: &dyn Fn(&mut String, &str, Rows)) {
    let searching: Vec<&String> = sides.iter().copied().filter(|s| !r.usage[*s].searched.is_empty()).collect();
    if searching.is_empty() {
        return;
    }
    let per = |n: u64| if r.games == 0 { 0.0 } else { n as f64 / r.games as f64 };
    let actions: std::collections::BTreeSet<&String> =
        searching.iter().flat_map(|s| r.usage[*s].searched.keys()).collect();
    let mut rows = Vec::new();
    let mut never = Vec::new();
    for a in actions {
        let cells = sides
            .iter()
            .map(|s| match r.usage[*s].searched.get(a) {
                Some(x) => {
                    let used = r.usage[*s].actions.get(a).copied().unwrap_or(0);
                    format!("{:.2} / {:.2} / {:.2}", per(x.available), per(x.weighed), per(used))
                }
                None => "-".to_owned(),
            })
            .collect();
        rows.push((cav_content::diag::shown(a), cells));
        for s in &searching {
            let Some(x) = r.usage[*s].searched.get(a) else { continue };
            if r.usage[*s].actions.get(a).copied().unwrap_or(0) > 0 {
                continue;
            }
            let reasons: Vec<String> = x
                .main_refusals(3)
                .into_iter()
                .map(|(reason, n)| format!("\"{}\" ({n})", cav_content::diag::shown(reason)))
                .collect();
            let why = match (x.available, x.weighed) {
                (0, _) if !reasons.is_empty() => format!("never accepted: {}", reasons.join("; ")),
                (0, _) => "never asked about".to_owned(),
                (n, 0) => format!("accepted at {n} decisions, never among the candidates played out"),
                (n, w) => format!("accepted at {n} decisions, played out at {w}, never worth more than the choice"),
            };
            never.push(format!("{} {}: {why}", cav_content::diag::shown(s), cav_content::diag::shown(a)));
        }
    }
    o.push('\n');
    table(o, "searching bot · per game (available / played out / used)", rows);
    if !never.is_empty() {
        let _ = writeln!(o, "  never used by the searching bot, and why:");
        for line in never {
            let _ = writeln!(o, "    {line}");
        }
    }
}

/// `text` as indented lines of at most 100 characters, broken between words.
fn wrapped(o: &mut String, text: &str) {
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 100 {
            let _ = writeln!(o, "  {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    let _ = writeln!(o, "  {line}");
}

fn pct(x: f64) -> String {
    format!("{:.1} %", 100.0 * x)
}

fn rate(a: u64, b: u64) -> String {
    if b == 0 { "-".to_owned() } else { pct(a as f64 / b as f64) }
}

/// The table: win rates with their interval, draws, turns, damage, and the weapons.
fn human(r: &SimResult) -> String {
    let mut o = String::new();
    let seeds: Vec<String> = r.seeds.iter().map(|s| format!("{}..{}", s.first, s.end())).collect();
    let _ = writeln!(
        o,
        "{} ({}): {} games, seeds {}, content {}",
        r.scenario,
        r.ruleset,
        r.games,
        if seeds.is_empty() { "none".to_owned() } else { seeds.join(", ") },
        r.content_hash.get(..12).unwrap_or(&r.content_hash)
    );
    if !r.search_bot.is_empty() {
        let per = r.rollouts.checked_div(r.games).unwrap_or(0);
        let _ = writeln!(
            o,
            "  searching bot: {} ({per} rollouts per game); rules bot: the others",
            r.search_bot.join(", ")
        );
    }
    let _ = writeln!(o);
    // Where hits land table rows (a damage model by tables, or a script's rows), what those rows
    // do is counted as effects beside the damage points, in every table below.
    let tables = r.damage_model.is_some() || !r.table_results.is_empty();
    let per_game = |n: u64| if r.games == 0 { 0.0 } else { n as f64 / r.games as f64 };
    let width = r.sides.iter().map(String::len).max().unwrap_or(0).max(5);
    let _ = write!(
        o,
        "  {:width$}  {:>7}  {:>8}  {:>18}  {:>9}  {:>8}",
        "side", "wins", "win rate", "95 % interval", "damage", "per game"
    );
    let _ = writeln!(o, "{}", if tables { format!("  {:>9}  {:>8}", "effects", "per game") } else { String::new() });
    for side in &r.sides {
        let wins = r.wins.get(side).copied().unwrap_or(0);
        let dmg = r.damage.get(side).copied().unwrap_or(0);
        let (lo, hi) = wilson(wins, r.games);
        let per = per_game(dmg);
        let _ = write!(
            o,
            "  {side:width$}  {wins:>7}  {:>8}  {:>18}  {dmg:>9}  {per:>8.2}",
            rate(wins, r.games),
            format!("[{}, {}]", pct(lo), pct(hi)),
        );
        let eff = r.effects.get(side).copied().unwrap_or(0);
        let _ = writeln!(o, "{}", if tables { format!("  {eff:>9}  {:>8.2}", per_game(eff)) } else { String::new() });
    }
    let (lo, hi) = wilson(r.draws, r.games);
    let _ = writeln!(
        o,
        "  {:width$}  {:>7}  {:>8}  {:>18}",
        "draws",
        r.draws,
        rate(r.draws, r.games),
        format!("[{}, {}]", pct(lo), pct(hi))
    );
    let (min, max) = (r.turns.keys().next(), r.turns.keys().next_back());
    let _ = writeln!(
        o,
        "\n  turns: mean {:.2} ± {:.2} (sd), shortest {}, longest {}",
        r.mean_turns(),
        r.sd_turns(),
        min.map_or("-".to_owned(), u32::to_string),
        max.map_or("-".to_owned(), u32::to_string)
    );
    if !r.weapons.is_empty() {
        let w = r.weapons.keys().map(String::len).max().unwrap_or(0).max(6);
        let _ = write!(
            o,
            "\n  {:w$}  {:>8}  {:>8}  {:>8}  {:>9}  {:>8}  {:>8}",
            "weapon", "shots", "hit rate", "pen/hit", "damage", "dmg/shot", "hopeless"
        );
        let cols = format!("  {:>9}  {:>9}  {:>8}", "results", "effects", "eff/shot");
        let _ = writeln!(o, "{}", if tables { cols.as_str() } else { "" });
        for (name, s) in &r.weapons {
            let per = if s.shots == 0 { "-".to_owned() } else { format!("{:.2}", s.damage as f64 / s.shots as f64) };
            let _ = write!(
                o,
                "  {name:w$}  {:>8}  {:>8}  {:>8}  {:>9}  {per:>8}  {:>8}",
                s.shots,
                rate(s.hits, s.shots),
                rate(s.penetrations, s.hits),
                s.damage,
                s.hopeless
            );
            let eff = if s.shots == 0 { "-".to_owned() } else { format!("{:.2}", s.effects as f64 / s.shots as f64) };
            let cols = format!("  {:>9}  {:>9}  {eff:>8}", s.table_results, s.effects);
            let _ = writeln!(o, "{}", if tables { cols.as_str() } else { "" });
        }
        let _ = writeln!(
            o,
            "  (hopeless: shots whose hit roll could not succeed — with its modifiers no result of its dice \
             reached the target)"
        );
    }
    if !r.bands.is_empty() {
        let rows: Vec<(String, &cav_lab::WeaponStats)> =
            r.bands.iter().flat_map(|(w, b)| b.iter().map(move |(band, s)| (format!("{w} · {band}"), s))).collect();
        let w = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).max(18);
        let _ = write!(
            o,
            "\n  {:w$}  {:>8}  {:>8}  {:>18}  {:>8}  {:>8}",
            "weapon · range band", "shots", "hit rate", "95 % interval", "dmg/shot", "hopeless"
        );
        let _ = writeln!(o, "{}", if tables { format!("  {:>8}", "eff/shot") } else { String::new() });
        for (name, s) in rows {
            let (lo, hi) = wilson(s.hits, s.shots);
            let per = if s.shots == 0 { "-".to_owned() } else { format!("{:.2}", s.damage as f64 / s.shots as f64) };
            let pad = w - name.chars().count().min(w);
            let _ = write!(
                o,
                "  {name}{:pad$}  {:>8}  {:>8}  {:>18}  {per:>8}  {:>8}",
                "",
                s.shots,
                rate(s.hits, s.shots),
                format!("[{}, {}]", pct(lo), pct(hi)),
                s.hopeless
            );
            let eff = if s.shots == 0 { "-".to_owned() } else { format!("{:.2}", s.effects as f64 / s.shots as f64) };
            let _ = writeln!(o, "{}", if tables { format!("  {eff:>8}") } else { String::new() });
        }
    }
    if tables {
        let names: std::collections::BTreeSet<&String> = r.model_damage.keys().chain(r.model_effects.keys()).collect();
        if !names.is_empty() {
            let w = names.iter().map(|n| n.len()).max().unwrap_or(0).max(5);
            let _ = writeln!(
                o,
                "\n  {:w$}  {:>9}  {:>8}  {:>9}  {:>8}",
                "model", "damage", "per game", "effects", "per game"
            );
            for m in names {
                let d = r.model_damage.get(m).copied().unwrap_or(0);
                let e = r.model_effects.get(m).copied().unwrap_or(0);
                let _ = writeln!(o, "  {m:w$}  {d:>9}  {:>8.2}  {e:>9}  {:>8.2}", per_game(d), per_game(e));
            }
        }
    } else if !r.model_damage.is_empty() {
        let w = r.model_damage.keys().map(String::len).max().unwrap_or(0).max(5);
        let _ = writeln!(o, "\n  {:w$}  {:>9}  {:>8}", "model", "damage", "per game");
        for (m, d) in &r.model_damage {
            let per = if r.games == 0 { 0.0 } else { *d as f64 / r.games as f64 };
            let _ = writeln!(o, "  {m:w$}  {d:>9}  {per:>8.2}");
        }
    }
    if tables {
        o.push('\n');
        o.push_str(&table_note(r));
    }
    if !r.states.is_empty() {
        let parts: Vec<String> = r.states.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let _ = writeln!(o, "\n  states inflicted: {}", parts.join(", "));
    }
    if !r.usage.is_empty() {
        o.push('\n');
        o.push_str(&usage(r));
    }
    if !r.modifiers.is_empty() {
        // Most used first: what changes the most rolls is what a balance question is about.
        let mut rows: Vec<(&String, &cav_lab::ModifierStats)> = r.modifiers.iter().collect();
        rows.sort_by(|a, b| (b.1.rolls + b.1.hits).cmp(&(a.1.rolls + a.1.hits)).then(a.0.cmp(b.0)));
        let w = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0).max(15);
        let _ = writeln!(
            o,
            "\n  {:w$}  {:>8}  {:>8}  {:>8}  {:>9}",
            "modifier source", "rolls", "decided", "per game", "hits"
        );
        for (name, m) in rows {
            let per = if r.games == 0 { 0.0 } else { m.rolls as f64 / r.games as f64 };
            let pad = w - name.chars().count().min(w);
            let _ = writeln!(o, "  {name}{:pad$}  {:>8}  {:>8}  {per:>8.2}  {:>9}", "", m.rolls, m.decided, m.hits);
        }
        let _ = writeln!(
            o,
            "  (rolls: rolls it changed; decided: rolls that without it would have gone the other way; hits: hits \
             whose margin, RAV or AV it changed)"
        );
    }
    o
}

#[cfg(test)]
mod tests {
    use super::{search_sides, seed_slice};

    #[test]
    fn bots_name_the_sides_that_search() {
        let of = |v: &[&str]| search_sides(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(of(&["rules"]), Ok(None));
        assert_eq!(of(&["red=rules"]), Ok(None));
        assert_eq!(of(&["search"]), Ok(Some(vec![])));
        assert_eq!(of(&["search", "search", "red=search"]), Ok(Some(vec![])));
        assert_eq!(of(&["rules", "red=search", "black=rules"]), Ok(Some(vec!["red".to_owned()])));
        for (bad, says) in [
            (&["rules", "search"][..], "both given"),
            (&["search", "red=rules"], "name the sides that search"),
            (&["red=search", "red=rules"], "side `red` given both bots"),
            (&["=search"], "expected `rules`"),
            (&["red=best"], "expected `rules`"),
            (&["mcts"], "expected `rules`"),
        ] {
            let err = of(bad).unwrap_err();
            assert!(err.contains(says), "{bad:?}: {err}");
        }
    }

    #[test]
    fn shards_cover_the_seeds_once() {
        assert_eq!(seed_slice(1, 10, None).unwrap(), 1..11);
        let parts: Vec<_> = (1..=4).map(|i| seed_slice(1, 10, Some(&format!("{i}/4"))).unwrap()).collect();
        assert_eq!(parts, vec![1..3, 3..6, 6..8, 8..11]);
        for bad in ["0/4", "5/4", "1/0", "x/4", "2", "1/-1"] {
            assert!(seed_slice(1, 10, Some(bad)).is_err(), "{bad}");
        }
        assert!(seed_slice(u64::MAX, 2, None).is_err());
    }
}
