//! Sythopian Wars' turn as data, played by bots: alternating unit activations paid from command
//! points, and a unit answering a SHOOT with its own command (002 L140-146), which is its side's
//! next activation — the alternation passes over that side once.

use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
use cav_rules::{Engine, Event, Game, Rules};

fn rules() -> Rules {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("mods/sythopian-wars")], library: vec![] });
    cav_compile::validate(&mut loaded).into_iter().flatten().next().expect("the Sythopian Wars pack compiles")
}

/// Two units of three line troopers facing each other 14" apart; the log of a game of bots.
fn game(rules: &Rules, seed: u64) -> (Vec<Event>, Vec<String>) {
    game_at(rules, seed, [11.0, 25.0])
}

/// `game`, the units at these distances up the board (48" square).
fn game_at(rules: &Rules, seed: u64, ys: [f64; 2]) -> (Vec<Event>, Vec<String>) {
    let mut game = Game::new(
        rules,
        cav_rules::game::Board { size: [48.0, 48.0], areas: Vec::new() },
        vec!["confederation".into(), "asylumists".into()],
    );
    let line = rules.card("line-trooper").unwrap();
    for (side, y) in ys.into_iter().enumerate() {
        let members = (0..3).map(|i| game.add_model(line, side, P::new(15.0 + 2.0 * i as f64, y), 180.0 * side as f64));
        let members = members.collect();
        game.add_squad(format!("unit {side}"), "unit".into(), members);
    }
    let sides = game.sides.clone();
    let mut dice = cav_rules::SeededDice::new(seed);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut bot = cav_rules::bot::Bot::default();
    for _ in 0..6 {
        if engine.play_turn(&mut bot).unwrap().is_some() {
            break;
        }
    }
    (log, sides)
}

#[test]
fn a_units_reaction_is_its_sides_next_activation() {
    let rules = rules();
    let mut passes = 0;
    for seed in 1..40 {
        let (log, sides) = game(&rules, seed);
        // Per turn: the sides that reacted (a unit, once) and have an activation to pass over.
        let mut owed = [0u32; 2];
        let mut spent = [0u32; 2];
        let mut reacted_now: Vec<usize> = Vec::new();
        for e in &log {
            match e {
                Event::TurnStart { .. } => (owed, spent) = ([0; 2], [0; 2]),
                Event::Activation { .. } => reacted_now.clear(),
                Event::Reacted { model, window, .. } => {
                    assert_eq!(window, "reacting-to-a-command");
                    // (Models 0-2 are the first side's unit, 3-5 the second's.)
                    let side = model / 3;
                    if !reacted_now.iter().any(|m| m / 3 == side) {
                        owed[side] += 1;
                    }
                    reacted_now.push(*model);
                }
                Event::PoolSpent { side, .. } => {
                    let s = sides.iter().position(|x| x == side).unwrap();
                    spent[s] += 1;
                    assert!(spent[s] <= 4, "seed {seed}: a side spends at most its 4 command points a turn");
                }
                Event::ActivationPassed { side } => {
                    let s = sides.iter().position(|x| x == side).unwrap();
                    assert!(owed[s] > 0, "seed {seed}: {side}'s activation passed without a reaction of its");
                    owed[s] -= 1;
                    passes += 1;
                }
                _ => {}
            }
        }
    }
    assert!(passes > 0, "some game's reaction passed over its side's activation");
}

/// Out of range of each other, bots close in by RUN (002 L132: twice the Move value) where the
/// unit still has its run action, and the log says so. (A run may stop short, at base contact.)
#[test]
fn bots_run_to_close_in() {
    let rules = rules();
    let (mut runs, mut far) = (0, 0);
    for seed in 1..=4 {
        let (log, _) = game_at(&rules, seed, [2.0, 46.0]);
        for (i, e) in log.iter().enumerate() {
            if let Event::ActionTaken { model, action } = e
                && action == "RUN"
            {
                runs += 1;
                let moved = log[i + 1..].iter().find_map(|e| match e {
                    Event::Moved { model: m, from, to, .. } if m == model => Some(from.dist(*to)),
                    _ => None,
                });
                assert!(moved.is_some_and(|d| d <= 12.0 + 1e-6), "a run goes at most twice the Move value: {moved:?}");
                far += usize::from(moved.is_some_and(|d| d > 6.0 + 1e-6));
            }
        }
    }
    assert!(runs > 0 && far > 0, "the bots ran, beyond the Move value of 6: {runs} runs, {far} beyond");
}
