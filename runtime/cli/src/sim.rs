//! `cav sim`: many bot games of a scenario in parallel, and their statistics (the balance lab,
//! runtime/lab); `cav sim merge`: results of shards as one.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_lab::{SimResult, wilson};
use clap::{Args, Subcommand};

use crate::{EXIT_INVALID, Format, load, select_rulesets};

#[derive(Args)]
#[command(
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    after_help = "Game k plays with seed S+k (S = --seed), so a game is replayed by `cav play SCENARIO --seed S+k`; the \
    games run on every core, one Lua host per worker, and the result does not depend on the thread count.\n\
    Only scenarios that fix their forces are played (the Quick-Start's); others are refused (exit 2).\n\
    --shard i/n plays the i-th of n contiguous slices of the seeds, so n machines (or processes) can share a run; \
    `cav sim merge` adds their JSON results and refuses results of other content or overlapping seeds. The result \
    holds only counts and sums (schemas/reports/sim.schema.json), so the merge of the n shards is byte-identical to \
    the unsharded run.\n\
    Win rates carry their Wilson 95 % score interval; mean turns ± the sample standard deviation; a weapon's hit rate \
    is hits per shot, its penetration rate penetrating hits per hit.\n\
    Exit codes: 0 success, 1 invalid content (or a game stopped), 2 usage (unknown scenario, bad --shard, results \
    that do not merge).\n\
    Examples:\n  cav sim stand-and-fight --games 2000\n  \
    cav sim stand-and-fight --games 1000 --seed 500 --format json --out run.json\n  \
    cav sim stand-and-fight --games 1000 --shard 2/4 --format json --out shard2.json\n  \
    cav sim merge shard1.json shard2.json shard3.json shard4.json --out all.json\n  \
    cav sim merge all.json --format human\n  \
    cav sim stand-and-fight --games 10000 --plot charts/      win-rates.svg, turns.svg, weapons.svg"
)]
pub struct SimCommand {
    #[command(subcommand)]
    merge: Option<SimSub>,
    /// Scenario id (one that fixes its forces: `cav list scenario`).
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
    /// `json`: the result with every count and sum, sorted (for `cav sim merge`).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Write the output to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also write SVG charts to DIR: win rates with their 95 % intervals, game lengths, weapons.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
}

#[derive(Subcommand)]
enum SimSub {
    /// Add the JSON results of `cav sim` runs (shards) into one: the same content, scenario and
    /// ruleset, seeds that do not overlap.
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

pub fn run(cmd: SimCommand, root: &Path) -> Result<ExitCode, String> {
    if let Some(SimSub::Merge { files, format, out, plot }) = cmd.merge {
        return merge(&files, format, out.as_deref(), plot.as_deref());
    }
    let (Some(scenario), Some(games)) = (cmd.scenario, cmd.games) else {
        return Err("name a scenario and --games N".into());
    };
    let seeds = seed_slice(cmd.seed, games, cmd.shard.as_deref())?;
    // An output that cannot be written is said before the games, not after them.
    let file = match &cmd.out {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?),
        None => None,
    };
    let mut loaded = load(vec![], root);
    let compiled = cav_compile::validate(&mut loaded);
    let rs = select_rulesets(&loaded, Some(&cmd.ruleset))?.into_iter().next().ok_or("no ruleset")?;
    let ix = loaded.rulesets.iter().position(|r| r.id == rs.id).unwrap_or(0);
    let Some(rules) = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0) else {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: the content has errors; fix them before simulating (`cav validate` shows warnings too)");
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    // Usage errors (exit 2) before any game: the scenario must exist and fix its forces.
    let Some(sc) = rules.scenario(&scenario) else {
        let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
        let hint = cav_content::diag::did_you_mean(&scenario, ids.iter().copied())
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        return Err(format!("no scenario `{scenario}` in {}{hint}; scenarios: {}", rules.id, ids.join(", ")));
    };
    if rules.scenarios[sc].forces.is_empty() {
        return Err(format!(
            "scenario `{scenario}` leaves forces to the players (rosters); `cav sim` plays only scenarios that fix \
             their forces for now (`cav play {scenario} --ruleset {}` plays one game with bot-built rosters)",
            cmd.ruleset
        ));
    }
    let hash = cav_lab::content_hash(rs)?;
    // The workers only count (an atomic add); a thread of its own moves the bar, so the games
    // never wait on the bar's lock.
    let done = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(seeds.end - seeds.start).with_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, {eta} left")
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
    let result = cav_lab::run(&rules, &hash, &scenario, seeds, &|| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    });
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
        eprintln!("{} games in {secs:.1} s ({:.0} games/s)", result.games, result.games as f64 / secs.max(1e-9));
    }
    write_out(&result, cmd.format, cmd.out.as_deref(), file)?;
    if let Some(dir) = &cmd.plot {
        plot(&result, dir)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The SVG charts of a result, written to `dir` (made if missing); their paths on stderr.
fn plot(r: &SimResult, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, svg) in cav_lab::plot::charts(r) {
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
    let mut merged: Option<SimResult> = None;
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let r: SimResult = serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a result of `cav sim --format json`: {e}", f.display()))?;
        merged = Some(match merged {
            None => r,
            Some(m) => SimResult::merge(m, &r).map_err(|e| format!("cannot merge {}: {e}", f.display()))?,
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

fn write_out(r: &SimResult, format: Format, path: Option<&Path>, file: Option<std::fs::File>) -> Result<(), String> {
    let text = match format {
        Format::Json => serde_json::to_string_pretty(r).map_err(|e| e.to_string())? + "\n",
        Format::Human => human(r),
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
    let _ = writeln!(o);
    let width = r.sides.iter().map(String::len).max().unwrap_or(0).max(5);
    let _ = writeln!(
        o,
        "  {:width$}  {:>7}  {:>8}  {:>18}  {:>9}  {:>8}",
        "side", "wins", "win rate", "95 % interval", "damage", "per game"
    );
    for side in &r.sides {
        let wins = r.wins.get(side).copied().unwrap_or(0);
        let dmg = r.damage.get(side).copied().unwrap_or(0);
        let (lo, hi) = wilson(wins, r.games);
        let per = if r.games == 0 { 0.0 } else { dmg as f64 / r.games as f64 };
        let _ = writeln!(
            o,
            "  {side:width$}  {wins:>7}  {:>8}  {:>18}  {dmg:>9}  {per:>8.2}",
            rate(wins, r.games),
            format!("[{}, {}]", pct(lo), pct(hi)),
        );
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
        let _ = writeln!(
            o,
            "\n  {:w$}  {:>8}  {:>8}  {:>8}  {:>9}  {:>8}",
            "weapon", "shots", "hit rate", "pen/hit", "damage", "dmg/shot"
        );
        for (name, s) in &r.weapons {
            let per = if s.shots == 0 { "-".to_owned() } else { format!("{:.2}", s.damage as f64 / s.shots as f64) };
            let _ = writeln!(
                o,
                "  {name:w$}  {:>8}  {:>8}  {:>8}  {:>9}  {per:>8}",
                s.shots,
                rate(s.hits, s.shots),
                rate(s.penetrations, s.hits),
                s.damage
            );
        }
    }
    if !r.states.is_empty() {
        let parts: Vec<String> = r.states.iter().map(|(s, n)| format!("{s} {n}")).collect();
        let _ = writeln!(o, "\n  states inflicted: {}", parts.join(", "));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::seed_slice;

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
