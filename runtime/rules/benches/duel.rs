//! Complete Quick-Start "Stand and Fight!" duels between two bots, event log off.
//! Run: `cargo bench -p cav-rules --bench duel` — reports time per game; games/s = 1 / median.

use std::path::Path;
use std::sync::OnceLock;

use cav_rules::{Engine, NoLog, Rules, SeededDice, bot::Bot, hooks::NoHooks, setup::scenario_game};

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

fn duel(seed: u64, bot: &mut Bot) -> u32 {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").expect("scenario");
    let mut dice = SeededDice::new(seed);
    let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
    let mut engine = Engine { game, dice: &mut dice, log: &mut NoLog, hooks: &mut NoHooks };
    engine.play(bot).expect("plays").turns
}

#[divan::bench]
fn quickstart_duel(b: divan::Bencher) {
    // One bot for all games, as a batch runner would keep it (it caches per-card analysis).
    let mut bot = Bot::default();
    let mut seed = 0u64;
    b.bench_local(|| {
        seed += 1;
        duel(seed, &mut bot)
    });
}

fn main() {
    rules();
    divan::main();
}
