//! Quick-Start duels with the pack scripts (Strike, SMART) running in the Lua host, against the
//! same duels with hooks disabled; prints games per second of each and the ratio.
//! `cargo run --release -p cav-script --example scripted_duels -- 3000`
//!
//! The scripts run under the sandbox's limits except its wall-clock cap per call
//! (`Limits::time`), which is raised to `SCRIPT_TIME` here: under callgrind (`scripts/bench-games`)
//! everything runs some fifty times slower and loading a module would trip the real cap of
//! 100 ms. The step budget, which stops a runaway loop whatever the machine, is unchanged.

use std::path::Path;
use std::time::{Duration, Instant};

use cav_rules::hooks::{Hooks, NoHooks};
use cav_rules::{Engine, NoLog, Rules, SeededDice, bot::Bot, setup::scenario_game};
use cav_script::{Limits, LuaHost};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav sim`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The wall-clock cap of one call in this benchmark: far above any slowdown of the bundled
/// scripts, even under valgrind.
const SCRIPT_TIME: Duration = Duration::from_secs(60);

/// `n` games; not inlined, so that callgrind can count its instructions alone
/// (`--toggle-collect=scripted_duels::run`, as `scripts/bench-games` does).
#[inline(never)]
fn run(rules: &Rules, n: u64, hooks: &mut dyn Hooks) -> f64 {
    let sc = rules.scenario("stand-and-fight").expect("scenario");
    let mut bot = Bot::default();
    let start = Instant::now();
    for seed in 0..n {
        let mut dice = SeededDice::new(seed);
        let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
        let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut *hooks };
        engine.play(&mut bot).expect("plays");
    }
    n as f64 / start.elapsed().as_secs_f64()
}

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").expect("quickstart")).expect("compiles");
    // `native` or `scripted` alone (for instruction counting under callgrind), or both.
    let mode = std::env::args().nth(2).unwrap_or_default();
    if mode == "native" {
        println!("hooks off: {:.0} games/s", run(&rules, n, &mut NoHooks));
        return;
    }
    let mut host = LuaHost::new(&rules, Limits { time: SCRIPT_TIME, ..Limits::default() }).expect("scripts load");
    if mode == "scripted" {
        println!("scripted SAs: {:.0} games/s", run(&rules, n, &mut host));
        return;
    }
    let native = run(&rules, n, &mut NoHooks);
    let scripted = run(&rules, n, &mut host);
    println!("hooks off: {native:.0} games/s; scripted SAs: {scripted:.0} games/s; ratio {:.2}", scripted / native);
}
