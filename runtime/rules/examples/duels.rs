//! Play N Quick-Start duels with the event log off and print games per second.
//! `cargo run --release -p cav-rules --example duels -- 2000`

use std::path::Path;
use std::time::Instant;

use cav_rules::{Engine, NoLog, SeededDice, bot::Bot, hooks::NoHooks, setup::scenario_game};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav sim`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").expect("quickstart")).expect("compiles");
    let sc = rules.scenario("stand-and-fight").expect("scenario");
    let mut bot = Bot::default();
    let start = Instant::now();
    let mut turns = 0;
    for seed in 0..n {
        let mut dice = SeededDice::new(seed);
        let game = scenario_game(&rules, sc, &mut dice, &mut NoLog, None);
        let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut NoHooks };
        turns += engine.play(&mut bot).expect("plays").turns;
    }
    let secs = start.elapsed().as_secs_f64();
    println!("{n} games, {turns} turns, {:.0} games/s on one core", n as f64 / secs);
}
