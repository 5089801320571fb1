//! Every full-rules scenario plays to a result from bot-built rosters, seed after seed, and the
//! same seed gives the same event log (001 L1589-2501).

use std::path::Path;

use cav_rules::{Engine, Event, SeededDice, bot::Bot, hooks::NoHooks, setup::roster_game};

/// Seeds per scenario: 1 to 100 (`SCENARIO_SEEDS` changes it).
fn seeds() -> u64 {
    std::env::var("SCENARIO_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(100)
}

#[test]
fn every_scenario_plays_to_a_result_and_repeats_itself() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    assert_eq!(rules.scenarios.len(), 10);
    let mut decided = 0;
    for (sc, s) in rules.scenarios.clone().iter().enumerate() {
        for seed in 1..=seeds() {
            let forces: Vec<_> = (0..s.sides.len() as u64)
                .map(|side| {
                    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: seed * 10 + side };
                    let f = cav_forces::build(rs, &req).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.id));
                    cav_forces::roster_force(rs, &f, &mut rules).unwrap()
                })
                .collect();
            let play = || {
                let mut dice = SeededDice::new(seed);
                let mut log: Vec<Event> = Vec::new();
                let game = roster_game(&rules, sc, &forces, &mut dice, &mut log, Some(seed));
                let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
                let end = engine.play(&mut Bot::default()).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.id));
                (end, serde_json::to_string(&log).unwrap())
            };
            let (end, a) = play();
            let (_, b) = play();
            assert_eq!(a, b, "{} seed {seed}: the same seed gives the same log", s.id);
            assert!(a.contains("\"game_end\""), "{} seed {seed} ends", s.id);
            decided += u32::from(end.winner.is_some());
        }
    }
    assert!(decided > 0);
}

/// A roster plays with its pool as the starting TVP, the pool it left unspent as its force group
/// bonus, and its strike pools for the game; what the strike pools still hold at the end joins the
/// bonus in the scores (001 L1830-1845).
#[test]
fn a_roster_brings_its_pool_and_its_force_group_bonus() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: 7 };
    let mut f = cav_forces::build(rs, &req).unwrap();
    f.strike_pools.insert(cav_format::StrikePackage::Space, 40);
    // A pool 123 above what the roster spends (strike pools included).
    f.tvp = cav_forces::costs(rs, &f).total() + 123;
    let force = cav_forces::roster_force(rs, &f, &mut rules).unwrap();
    assert_eq!(force.pool, Some(f.tvp));
    assert_eq!(force.bonus, 123);
    assert_eq!(force.strike_pools.get(&cav_format::StrikePackage::Space), Some(&40));
    // The roster has no FIST model: nothing is called, and the 40 TV join the surviving TVP.
    let sc = rules.scenario("this-is-war").unwrap();
    let mut dice = cav_rules::SeededDice::new(1);
    let game =
        cav_rules::setup::roster_game(&rules, sc, &[force.clone(), force], &mut dice, &mut cav_rules::NoLog, None);
    let (start, surviving) = game.scores()[0];
    assert_eq!(start, f.tvp);
    assert_eq!(
        surviving,
        game.models.iter().enumerate().filter(|(_, m)| m.side == 0).map(|(i, _)| game.surviving_tv(i)).sum::<u32>()
            + 123
            + 40
    );
}

/// The assets a roster buys that act from a side's hand (SIGINT, recon drones, resupply drops)
/// go to its side in `cav play`; terrain-piece assets are not among them.
#[test]
fn a_roster_holds_the_assets_it_bought_off_the_table() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: 7 };
    let mut f = cav_forces::build(rs, &req).unwrap();
    let asset = |id: &str, count| cav_format::ForceAsset { asset: id.into(), count };
    f.assets = vec![asset("sigint", 2), asset("trench", 1), asset("recon-drone", 1)];
    let force = cav_forces::roster_force(rs, &f, &mut rules).unwrap();
    let held: Vec<(&str, u32)> = force.held.iter().map(|&(a, n)| (rules.assets[a].id.as_str(), n)).collect();
    assert_eq!(held, [("sigint", 2), ("recon-drone", 1)]);
    let sc = rules.scenario("this-is-war").unwrap();
    let mut dice = cav_rules::SeededDice::new(1);
    let game =
        cav_rules::setup::roster_game(&rules, sc, &[force.clone(), force], &mut dice, &mut cav_rules::NoLog, None);
    assert_eq!(game.held[1].len(), 2);
}
