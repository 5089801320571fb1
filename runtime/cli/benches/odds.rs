//! Exact odds of one attack (`cav odds`): a Quick-Start Dictator-B's Medium MAC shot at another
//! Dictator-B at the middle of the medium band, every die sequence enumerated through the engine
//! and the packs' Luau scripts, as `cav odds dictator-b medium-mac dictator-b --band medium
//! --shots 1` does. Also one shot of that attack with seeded dice (what a Monte Carlo pays per attack).
//! Run: `cargo bench -p cav-cli --bench odds`.

use std::path::Path;
use std::sync::OnceLock;

use cav_rules::odds::{Attack, AttackSpec, exact};
use cav_rules::{Rules, SeededDice};

/// The Quick-Start rules, with a copy of the Dictator-B that fires one shot of its 2× Medium MAC
/// (`cav odds … --shots 1`): `dictator-b#1-shot`.
fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("content")],
            library: vec![root.join("content"), root.join("mods")],
        });
        assert_eq!(loaded.error_count(), 0, "bundled content must be valid");
        let mut rules =
            cav_compile::compile_rules(loaded.ruleset("cav-quickstart").expect("quickstart")).expect("compiles");
        let card = rules.card("dictator-b").expect("the Dictator-B");
        cav_rules::odds::with_shots(&mut rules, card, &[0], 1).expect("one shot");
        rules
    })
}

/// One shot at the middle of the 12" MAC's medium band (12, 24]: 18".
fn spec() -> AttackSpec {
    AttackSpec {
        attacker: "dictator-b#1-shot".into(),
        target: "dictator-b".into(),
        weapons: vec![0],
        range: 18.0,
        ..AttackSpec::default()
    }
}

#[divan::bench]
fn exact_odds(b: divan::Bencher) {
    let rules = rules();
    let mut host = cav_script::LuaHost::new(rules, cav_script::Limits::default()).expect("scripts load");
    let attack = Attack::new(rules, &spec(), &mut host).expect("sets up");
    b.counter(divan::counter::ItemsCount::new(1usize))
        .bench_local(|| exact(&attack, &mut host, &mut cav_rules::odds::Budget::default()).expect("enumerates").leaves);
}

#[divan::bench]
fn one_seeded_attack(b: divan::Bencher) {
    let rules = rules();
    let mut host = cav_script::LuaHost::new(rules, cav_script::Limits::default()).expect("scripts load");
    let attack = Attack::new(rules, &spec(), &mut host).expect("sets up");
    let mut events = Vec::new();
    let mut seed = 0u64;
    b.counter(divan::counter::ItemsCount::new(1usize)).bench_local(|| {
        seed += 1;
        attack.play(&mut SeededDice::new(seed), &mut host, &mut events).expect("plays")
    });
}

fn main() {
    rules();
    divan::main();
}
