//! Whole games on the bundled content: every seed ends (a winner or a declared draw) without an
//! engine error, the same seed replays identically, and different seeds differ.

use std::path::Path;

use cav_rules::{Engine, Event, Rules, SeededDice, bot::Bot, event::NoLog, hooks::NoHooks, setup::scenario_game};

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0);
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
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
    for model in &mut game.models {
        model.states.push((disabled, u32::MAX));
    }
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let end = engine.play(&mut Bot::default()).unwrap();
    assert_eq!(end.winner, None);
    assert_eq!(end.turns, rules.turn_limit);
    assert!(end.reason.contains("turn limit"), "{}", end.reason);
}

/// A controller that asks for anything at all: every answer is a clean error or a legal move,
/// never a panic or a hang.
/// (Mostly the bot, so games get deep, with a wild request one time in `odds`.)
struct Chaos(SeededDice, Bot, u32);

impl cav_rules::Controller for Chaos {
    fn decide(&mut self, g: &cav_rules::Game, model: usize, ap: u32) -> cav_rules::Action {
        use cav_rules::Dice;
        use cav_rules::geom::P;
        if self.0.roll(self.2) != 1 {
            return self.1.decide(g, model, ap);
        }
        let r = |d: &mut SeededDice, n: u32| d.roll(n) as usize - 1;
        let n = g.models.len() as u32 + 1; // sometimes out of range on purpose
        let p = P::new(self.0.roll(80) as f64 - 16.0, self.0.roll(80) as f64 - 16.0);
        let target = r(&mut self.0, n);
        let weapons: Vec<usize> = (0..r(&mut self.0, 4)).map(|_| r(&mut self.0, 5)).collect();
        // Any action the engine lists, by name, with whatever arguments (sometimes none at all).
        let kinds = cav_rules::game::actions::ALL;
        let kind = kinds[r(&mut self.0, kinds.len() as u32)].name();
        let mut action = cav_rules::Action::new(kind);
        if r(&mut self.0, 8) != 0 {
            action = action.at(p).on(target).with(weapons);
        }
        action.indirect = r(&mut self.0, 2) == 1;
        action
    }
}

#[test]
fn any_controller_input_ends_in_a_result_not_a_panic() {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").unwrap();
    let (mut ok, mut illegal) = (0, 0);
    let n: u64 = std::env::var("CAV_CHAOS_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    for seed in 0..n {
        let mut dice = SeededDice::new(seed);
        let game = scenario_game(&rules, sc, &mut dice, &mut cav_rules::NoLog, None);
        let mut engine = Engine { game, dice: &mut dice, log: &mut cav_rules::NoLog, hooks: &mut NoHooks };
        match engine.play(&mut Chaos(SeededDice::new(seed + 1000), Bot::default(), 1 + (seed % 20) as u32)) {
            Ok(_) => ok += 1,
            Err(cav_rules::game::EngineError::IllegalAction { reason, .. }) => {
                assert!(!reason.is_empty());
                illegal += 1;
            }
            Err(e) => panic!("seed {seed}: unexpected {e}"),
        }
    }
    assert!(illegal > 0 && ok > 0 && ok + illegal == n, "ok {ok}, illegal {illegal}");
}

/// `Game::copy_from` (the odds' replay) makes a game the very game `clone` would, whichever way
/// the two games differ: one played to its end made the start again, and the start made the end.
#[test]
fn a_game_copied_into_another_is_its_clone() {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").unwrap();
    for seed in [1, 7] {
        let mut dice = SeededDice::new(seed);
        let start = scenario_game(&rules, sc, &mut dice, &mut NoLog, Some(seed));
        let mut engine = Engine { game: start.clone(), dice: &mut dice, log: &mut NoLog, hooks: &mut NoHooks };
        engine.play(&mut Bot::default()).unwrap();
        let end = engine.game;
        let (mut a, mut b) = (end.clone(), start.clone());
        // Models to drop and models to add.
        a.models.push(a.models[0].clone());
        b.models.pop();
        a.copy_from(&start);
        b.copy_from(&end);
        assert_eq!(format!("{a:?}"), format!("{start:?}"), "seed {seed}");
        assert_eq!(format!("{b:?}"), format!("{end:?}"), "seed {seed}");
        assert_ne!(format!("{start:?}"), format!("{end:?}"), "seed {seed}: the game changed");
    }
}
