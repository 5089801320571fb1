//! Play N full-rules battles of 1,000 TV a side (rosters built by the bot, squads on the draw deck,
//! scenario "This is WAR!") with the event log off, and print games per second.
//! `cargo run --release -p cav-forces --example full_battles -- 200 [TV]`

use std::path::Path;
use std::time::Instant;

use cav_rules::{Engine, NoLog, SeededDice, bot::Bot, hooks::NoHooks, setup::roster_game};

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let tvp: u32 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let sc = rules.scenario("this-is-war").expect("scenario");
    // Two rosters, built once (building is not what is measured).
    let forces: Vec<cav_rules::setup::RosterForce> = (0..2)
        .map(|side| {
            let req = cav_forces::BuildRequest { faction: "open".into(), tvp, seed: 7 + side };
            let force = cav_forces::build(rs, &req).expect("a legal roster");
            cav_forces::roster_force(rs, &force, &mut rules).expect("cards")
        })
        .collect();
    let models: usize = forces.iter().flat_map(|f| &f.squads).map(|s| s.cards.len()).sum();
    let mut bot = Bot::default();
    let start = Instant::now();
    let (mut turns, mut decided) = (0, 0);
    for seed in 0..n {
        let mut dice = SeededDice::new(seed);
        let game = roster_game(&rules, sc, &forces, &mut dice, &mut NoLog, None);
        let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut NoHooks };
        let end = engine.play(&mut bot).expect("plays");
        turns += end.turns;
        decided += u64::from(end.winner.is_some());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} full-rules battles of {tvp} TV a side ({models} models), {turns} turns, {decided} decided, {:.1} games/s on one core",
        n as f64 / secs
    );
}
