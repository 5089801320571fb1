//! `cav bench`: how fast the engine plays on this machine, in the figures docs/speed.md tracks —
//! the Quick-Start duel per core (native and scripted), full-rules battles per core, and the
//! exact odds of one attack. Wall clock, one core, event log off; the instruction counts that
//! stay stable on a shared machine come from `scripts/bench-games` (callgrind).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use cav_rules::hooks::{Hooks, NoHooks};
use cav_rules::odds::{Attack, AttackSpec, Budget, exact};
use cav_rules::{Engine, Game, NoLog, Rules, SeededDice, bot::Bot, setup};
use schemars::JsonSchema;
use serde::Serialize;

use crate::Format;

/// `cav bench --format json`: rates on one core of this machine, wall clock.
#[derive(Serialize, JsonSchema)]
pub struct BenchReport {
    /// The Quick-Start "Stand and Fight!" duel between two bots.
    pub duel: Rates,
    /// Full-rules "This is WAR!" battles, bot-built rosters of `tv` a side (built once).
    pub battle: Rates,
    pub tv: u32,
    /// Exact odds of a Quick-Start Dictator-B's Medium MAC shot at another at 18" (the medium
    /// band): every die sequence played through the engine and the packs' scripts.
    pub odds: OddsRate,
}

#[derive(Serialize, JsonSchema)]
pub struct Rates {
    pub games: u64,
    /// Games per second with hooks off (the packs' declarative effects only).
    pub native_per_second: f64,
    /// Games per second with the packs' Luau scripts running in the sandbox.
    pub scripted_per_second: f64,
    /// Turns played over every game of both runs: the same games each time for the same content.
    pub turns: u64,
}

#[derive(Serialize, JsonSchema)]
pub struct OddsRate {
    pub attacks: u64,
    /// Die sequences in one enumeration.
    pub sequences: u64,
    pub ms_per_attack: f64,
}

pub struct Options {
    pub games: u64,
    pub battles: u64,
    pub odds: u64,
    pub tv: u32,
    pub format: Format,
}

pub fn run(root: &Path, o: Options) -> Result<ExitCode, String> {
    if o.games == 0 || o.battles == 0 || o.odds == 0 {
        return Err("--games, --battles and --odds must each be at least 1".into());
    }
    let loaded = crate::project::load(vec![root.join("content")], root);
    if loaded.error_count() > 0 {
        return Err("the bundled content has errors: run `cav validate content`".into());
    }
    let ruleset = |id: &str| loaded.ruleset(id).ok_or_else(|| format!("no ruleset `{id}` in content/"));
    let compile =
        |id: &str| cav_compile::compile_rules(ruleset(id)?).map_err(|_| format!("ruleset `{id}` does not compile"));
    let mut quick = compile("cav-quickstart")?;
    let mut full = compile("cav-full")?;
    let bar = crate::progress::progress(2 * (o.games + o.battles) + o.odds, "benchmarking");

    // The duel.
    let sc = quick.scenario("stand-and-fight").ok_or("no scenario `stand-and-fight` in the Quick-Start")?;
    let duel = |d: &mut SeededDice| setup::scenario_game(&quick, sc, d, &mut NoLog, None);
    let (duel_native, t1) = rate(o.games, "duel", &bar, &mut NoHooks, duel)?;
    let mut host = lua_host(&quick)?;
    let (duel_scripted, t2) = rate(o.games, "duel", &bar, &mut host, duel)?;
    drop(host);

    // Full-rules battles between two rosters the bot builds once.
    let rs = ruleset("cav-full")?;
    let sc = full.scenario("this-is-war").ok_or("no scenario `this-is-war` in the full rules")?;
    let mut forces = Vec::new();
    for side in 0..2 {
        let req = cav_forces::BuildRequest { faction: "open".into(), tvp: o.tv, seed: 7 + side };
        let force = cav_forces::build(rs, &req).map_err(|e| format!("no roster of {} TV: {e}", o.tv))?;
        forces.push(cav_forces::roster_force(rs, &force, &mut full).map_err(|e| format!("roster: {e}"))?);
    }
    let battle = |d: &mut SeededDice| setup::roster_game(&full, sc, &forces, d, &mut NoLog, None);
    let (battle_native, t3) = rate(o.battles, "battle", &bar, &mut NoHooks, battle)?;
    let mut host = lua_host(&full)?;
    let (battle_scripted, t4) = rate(o.battles, "battle", &bar, &mut host, battle)?;
    drop(host);

    // Exact odds of one shot of the Dictator-B's 2× Medium MAC (`cav odds … --shots 1`).
    let card = quick.card("dictator-b").ok_or("no Dictator-B in the Quick-Start")?;
    cav_rules::odds::with_shots(&mut quick, card, &[0], 1).map_err(|e| format!("odds: {e}"))?;
    let spec = AttackSpec {
        attacker: "dictator-b#1-shot".into(),
        target: "dictator-b".into(),
        weapons: vec![0],
        range: 18.0,
        ..AttackSpec::default()
    };
    let mut host = lua_host(&quick)?;
    let attack = Attack::new(&quick, &spec, &mut host).map_err(|e| format!("odds: {e}"))?;
    let mut sequences = 0;
    let start = Instant::now();
    for _ in 0..o.odds {
        sequences = exact(&attack, &mut host, &mut Budget::default()).map_err(|e| format!("odds: {e}"))?.leaves;
        bar.inc(1);
    }
    let ms_per_attack = start.elapsed().as_secs_f64() * 1e3 / o.odds as f64;
    bar.finish_and_clear();

    let report = BenchReport {
        duel: Rates {
            games: o.games,
            native_per_second: duel_native,
            scripted_per_second: duel_scripted,
            turns: t1 + t2,
        },
        battle: Rates {
            games: o.battles,
            native_per_second: battle_native,
            scripted_per_second: battle_scripted,
            turns: t3 + t4,
        },
        tv: o.tv,
        odds: OddsRate { attacks: o.odds, sequences, ms_per_attack },
    };
    match o.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?),
        Format::Human => print!("{}", human(&report)),
    }
    Ok(ExitCode::SUCCESS)
}

/// Games per second of `n` games, seeds 0 to n − 1, each set up by `start`, and the turns they
/// played.
fn rate<'r>(
    n: u64,
    what: &str,
    bar: &indicatif::ProgressBar,
    hooks: &mut dyn Hooks,
    start: impl Fn(&mut SeededDice) -> Game<'r>,
) -> Result<(f64, u64), String> {
    let mut bot = Bot::default();
    let mut turns = 0;
    let clock = Instant::now();
    for seed in 0..n {
        let mut dice = SeededDice::new(seed);
        let game = start(&mut dice);
        let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut *hooks };
        turns += u64::from(engine.play(&mut bot).map_err(|e| format!("{what} seed {seed}: {e}"))?.turns);
        bar.inc(1);
    }
    Ok((n as f64 / clock.elapsed().as_secs_f64(), turns))
}

fn lua_host(rules: &Rules) -> Result<cav_script::LuaHost, String> {
    cav_script::LuaHost::new(rules, cav_script::Limits::default()).map_err(|e| format!("the scripts do not load: {e}"))
}

fn human(r: &BenchReport) -> String {
    let rates = |x: &Rates, what: &str| {
        format!(
            "  native    {:>10.1} {what}/s\n  scripted  {:>10.1} {what}/s  ({:.2}× native)\n",
            x.native_per_second,
            x.scripted_per_second,
            x.scripted_per_second / x.native_per_second
        )
    };
    format!(
        "Quick-Start duel \"Stand and Fight!\", {} games each, one core, event log off:\n{}\
         Full rules \"This is WAR!\", {} TV a side (rosters built once), {} battles each:\n{}\
         Exact odds of a Dictator-B Medium MAC shot at 18\" (medium band), {} sequences:\n  {:.2} ms an attack ({} attacks)\n\
         Wall clock on this machine; the instruction counts docs/speed.md records: scripts/bench-games.\n",
        r.duel.games,
        rates(&r.duel, "games"),
        r.tv,
        r.battle.games,
        rates(&r.battle, "battles"),
        r.odds.sequences,
        r.odds.ms_per_attack,
        r.odds.attacks,
    )
}
