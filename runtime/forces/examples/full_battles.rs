//! Play N full-rules battles of 1,000 TV a side (rosters built by the bot, squads on the draw deck,
//! scenario "This is WAR!") with the event log off, and print games per second: once with the
//! packs' Luau scripts running in the sandbox (every scripted special attribute and upgrade), once
//! with the declarative and native paths only (no hooks), and the ratio.
//! `cargo run --release -p cav-forces --example full_battles -- 200 [TV] [lua|native|both]`

use std::path::Path;
use std::time::Instant;

use cav_rules::hooks::{Hooks, NoHooks};
use cav_rules::{Engine, NoLog, SeededDice, bot::Bot, setup::roster_game};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav sim`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let tvp: u32 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1000);
    let mode = std::env::args().nth(3).unwrap_or_else(|| "both".into());
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
    let scripted: usize = forces
        .iter()
        .flat_map(|f| &f.squads)
        .flat_map(|s| &s.cards)
        .filter(|&&c| rules.cards[c].sas.iter().any(|(sa, _)| rules.sas[*sa as usize].script.is_some()))
        .count();
    let play = |hooks: &mut dyn Hooks, label: &str| {
        let mut bot = Bot::default();
        let start = Instant::now();
        let (mut turns, mut decided) = (0, 0);
        for seed in 0..n {
            let mut dice = SeededDice::new(seed);
            let game = roster_game(&rules, sc, &forces, &mut dice, &mut NoLog, None);
            let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut *hooks };
            let end = engine.play(&mut bot).expect("plays");
            turns += end.turns;
            decided += u64::from(end.winner.is_some());
        }
        let rate = n as f64 / start.elapsed().as_secs_f64();
        println!(
            "{n} full-rules battles of {tvp} TV a side ({models} models, {scripted} with scripts), {turns} turns, {decided} decided, {rate:.1} games/s on one core ({label})"
        );
        rate
    };
    let native = (mode != "lua").then(|| play(&mut NoHooks, "declarative and native only"));
    let lua = (mode != "native").then(|| {
        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).expect("scripts load");
        play(&mut host, "scripts on")
    });
    if let (Some(native), Some(lua)) = (native, lua) {
        println!("scripts cost {:.2}x the time of the declarative and native paths", native / lua);
    }
}
