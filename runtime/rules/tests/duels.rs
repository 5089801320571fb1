//! Whole games on the bundled content: every seed ends (a winner or a declared draw) without an
//! engine error, the same seed replays identically, and different seeds differ.

use std::path::Path;

use cav_rules::{Engine, Event, Rules, SeededDice, bot::Bot, hooks::NoHooks, setup::scenario_game};

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0);
    cav_rules::compile(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

fn play(rules: &Rules, seed: u64) -> (cav_rules::GameEnd, Vec<Event>) {
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut dice = SeededDice::new(seed);
    let mut log = Vec::new();
    let game = scenario_game(rules, sc, &mut dice, &mut log, Some(seed));
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let end = engine.play(&mut Bot::default()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    (end, log)
}

#[test]
fn many_duels_end_cleanly() {
    let rules = rules();
    let mut winners = [0u32; 3];
    for seed in 0..300 {
        let (end, _) = play(&rules, seed);
        assert!(end.turns <= rules.turn_limit, "seed {seed} ran past the turn limit");
        winners[end.winner.map_or(2, |w| w)] += 1;
    }
    // Two identical models: both sides win a fair share.
    assert!(winners[0] > 60 && winners[1] > 60, "red/black/draw = {winners:?}");
}

#[test]
fn same_seed_same_log_different_seed_different_log() {
    let rules = rules();
    let (_, a) = play(&rules, 42);
    let (_, b) = play(&rules, 42);
    let (_, c) = play(&rules, 43);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Two models that can never hurt each other: the game ends at the turn limit as a draw.
#[test]
fn a_game_that_cannot_end_is_a_declared_draw_at_the_turn_limit() {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut game = scenario_game(&rules, sc, &mut dice, &mut log, Some(1));
    let disabled = rules.state("disabled").unwrap();
    for u in &mut game.units {
        u.states.push((disabled, u32::MAX));
    }
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let end = engine.play(&mut Bot::default()).unwrap();
    assert_eq!(end.winner, None);
    assert_eq!(end.turns, rules.turn_limit);
    assert!(end.reason.contains("turn limit"), "{}", end.reason);
}
