//! Complete Quick-Start "Stand and Fight!" duels between two bots, event log off, on one core:
//! `native` with hooks off (the packs' declarative effects only), `scripted` with the packs' Luau
//! special attributes running in the sandboxed host, as `cav play` and `cav sim` run them.
//! divan prints games per second (items/s) for each. Run: `cargo bench -p cav-cli --bench games`.
//! Instructions per game: `scripts/bench-games`.

use std::path::Path;
use std::sync::OnceLock;

use cav_rules::hooks::{Hooks, NoHooks};
use cav_rules::{Engine, NoLog, Rules, SeededDice, bot::Bot, setup::scenario_game};

fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("content")],
            library: vec![root.join("content"), root.join("mods")],
        });
        assert_eq!(loaded.error_count(), 0, "bundled content must be valid");
        cav_compile::compile_rules(loaded.ruleset("cav-quickstart").expect("quickstart")).expect("compiles")
    })
}

fn duel(seed: u64, bot: &mut Bot, hooks: &mut dyn Hooks) -> u32 {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").expect("scenario");
    let mut dice = SeededDice::new(seed);
    let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
    let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks };
    engine.play(bot).expect("plays").turns
}

#[divan::bench]
fn native(b: divan::Bencher) {
    // One bot for all games, as a batch runner keeps it (it caches per-card analysis).
    let (mut bot, mut seed) = (Bot::default(), 0u64);
    b.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        duel(seed, &mut bot, &mut NoHooks)
    });
}

#[divan::bench]
fn scripted(b: divan::Bencher) {
    let (mut bot, mut seed) = (Bot::default(), 0u64);
    let mut host = cav_script::LuaHost::new(rules(), cav_script::Limits::default()).expect("scripts load");
    b.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        duel(seed, &mut bot, &mut host)
    });
}

fn main() {
    rules();
    divan::main();
}
