//! Surviving threat value and the victory levels of the full rules, with the book's own numbers.

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Game, Rules, SeededDice};
use common::full_rules;

/// A copy of the Warg's card with another TV and track, pushed as a new card.
fn card(rules: &mut Rules, tv: u32, tracks: usize) -> usize {
    let mut c = rules.cards[rules.card("warg").unwrap()].clone();
    c.tv = tv;
    c.columns = tracks + 1;
    rules.cards.push(c);
    rules.cards.len() - 1
}

#[test]
fn a_damaged_model_keeps_its_share_of_tv_001_l1777_l1789() {
    let mut rules = full_rules();
    let big = card(&mut rules, 1500, 11);
    let mut game = Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["a".into()]);
    let m = game.add_model(big, 0, P::new(10.0, 10.0), 0.0);
    game.models[m].damage = 3;
    // 9 of 12 columns left: 1,500 × .75 = 1,125 (the book prints 1,175, an arithmetic slip).
    assert_eq!(game.surviving_tv(m), 1125);
    let mut tracks = rules.clone();
    tracks.engine_options.set("surviving-tv-fraction", "remaining-tracks");
    let mut game = Game::new(&tracks, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["a".into()]);
    let m = game.add_model(big, 0, P::new(10.0, 10.0), 0.0);
    game.models[m].damage = 3;
    assert_eq!(game.surviving_tv(m), 1000, "8 whole tracks of 12 columns");
    game.models[m].destroyed = true;
    assert_eq!(game.surviving_tv(m), 0);
}

/// Side a keeps 3,200 of 5,000 TV, side b 1,650 of 5,000: .64 ÷ .33 = 1.94 → 1.9, a major victory.
fn at_the_limit(rules: &Rules) -> cav_rules::GameEnd {
    let cards: Vec<usize> = rules.cards.iter().enumerate().rev().take(4).map(|(i, _)| i).collect();
    let (a_keep, a_lost, b_keep, b_lost) = (cards[3], cards[2], cards[1], cards[0]);
    let mut game = Game::new(rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["a".into(), "b".into()]);
    game.add_model(a_keep, 0, P::new(10.0, 5.0), 0.0);
    let gone = game.add_model(a_lost, 0, P::new(20.0, 5.0), 0.0);
    game.models[gone].destroyed = true;
    game.add_model(b_keep, 1, P::new(10.0, 40.0), 180.0);
    let gone = game.add_model(b_lost, 1, P::new(20.0, 40.0), 180.0);
    game.models[gone].destroyed = true;
    game.turn = game.turn_limit;
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().expect("the game ends at its turn limit")
}

#[test]
fn the_victory_level_reads_the_score_ratio_001_l1899_l1917() {
    let mut rules = full_rules();
    for tv in [3200, 1800, 1650, 3350] {
        card(&mut rules, tv, 4);
    }
    let end = at_the_limit(&rules);
    assert_eq!(end.winner, Some(0));
    assert_eq!(end.level.as_deref(), Some("Major victory"), "{}", end.reason);
    assert!(end.reason.contains("surviving TV 3200/5000 against 1650/5000 (ratio 1.9)"), "{}", end.reason);
    // Truncating instead of rounding cuts 1.939 to 1.9 too; 1.96 would differ: make b keep 1,630.
    let mut close = rules.clone();
    let n = close.cards.len();
    close.cards[n - 2].tv = 1630;
    close.cards[n - 1].tv = 3370;
    assert_eq!(at_the_limit(&close).level.as_deref(), Some("Decisive victory"), "1.963 rounds to 2.0");
    close.engine_options.set("victory-ratio-rounding", "truncate");
    assert_eq!(at_the_limit(&close).level.as_deref(), Some("Major victory"), "1.963 cuts to 1.9");
}

/// The book's force group bonus example: A spends 4,890 of a 5,000 pool and uses 100 of 200
/// strike points (bonus 210), B spends 4,950 (bonus 50); both keep 4,000 TV of models.
#[test]
fn the_force_group_bonus_adds_to_the_surviving_tvp_001_l1830_l1845() {
    let mut rules = full_rules();
    let keep = card(&mut rules, 4000, 4);
    let mut game = Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["a".into(), "b".into()]);
    game.add_model(keep, 0, P::new(10.0, 5.0), 0.0);
    game.add_model(keep, 1, P::new(10.0, 40.0), 180.0);
    game.tv_pool = vec![Some(5000), Some(5000)];
    game.tv_bonus = vec![210, 50];
    assert_eq!(game.scores(), vec![(5000, 4210), (5000, 4050)]);
    game.turn = game.turn_limit;
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let end = engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().expect("the limit ends the game");
    assert_eq!(end.winner, Some(0), "{}", end.reason);
}

#[test]
fn losing_the_commander_loses_headhunter_001_l2166_l2192() {
    let mut rules = full_rules();
    let (big, small) = (card(&mut rules, 600, 4), card(&mut rules, 200, 4));
    let mut game = Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["a".into(), "b".into()]);
    game.victory = cav_format::VictoryKind::Commander;
    for side in 0..2 {
        game.add_model(small, side, P::new(10.0, 5.0 + 35.0 * side as f64), 0.0);
        game.add_model(big, side, P::new(20.0, 5.0 + 35.0 * side as f64), 0.0);
    }
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.start().unwrap();
    assert_eq!(engine.game.commanders, vec![Some(1), Some(3)], "each side's most valuable model commands");
    engine.game.models[2].destroyed = true;
    assert!(engine.victory().is_none(), "b lost a model, not its commander");
    engine.game.models[3].destroyed = true;
    let end = engine.victory().expect("b's commander is gone");
    assert_eq!(end.winner, Some(0));
}

/// A game on scenario `id` with no forces and no random terrain: its own terrain and objectives.
fn on_scenario<'r>(rules: &'r Rules, id: &str) -> Game<'r> {
    let sc = rules.scenario(id).unwrap();
    assert!(rules.scenarios[sc].terrain_features.is_none());
    cav_rules::setup::scenario_game(rules, sc, &mut cav_rules::ForcedDice::new(vec![]), &mut cav_rules::NoLog, None)
}

fn without_random_terrain(mut rules: Rules) -> Rules {
    for s in &mut rules.scenarios {
        s.terrain_features = None;
    }
    rules
}

#[test]
fn no_mans_land_scores_the_side_holding_more_corners_001_l2265_l2501() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let mut game = on_scenario(&rules, "no-man-s-land");
    // side-a: two corners (top-left, bottom-left); side-b: one (top-right); one model of side-b
    // stands in No Man's Land and counts for nothing; bottom-right is contested.
    game.add_model(warg, 0, P::new(15.0, 9.0), 90.0);
    game.add_model(warg, 0, P::new(15.0, 39.0), 90.0);
    game.add_model(warg, 0, P::new(57.0, 39.0), 90.0);
    game.add_model(warg, 1, P::new(57.0, 9.0), 270.0);
    game.add_model(warg, 1, P::new(36.0, 9.0), 270.0);
    game.add_model(warg, 1, P::new(60.0, 42.0), 270.0);
    assert_eq!(game.area_control(), vec![Some(0), Some(1), Some(0), None]);
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.game.turn = 1;
    engine.end_turn().unwrap();
    assert_eq!(engine.game.objective_points, vec![0, 0], "nothing scores before the end of turn 2");
    engine.game.turn = 2;
    engine.end_turn().unwrap();
    assert_eq!(engine.game.objective_points, vec![1, 0]);
    engine.game.turn = engine.game.turn_limit;
    let end = engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().unwrap();
    assert_eq!(end.winner, Some(0), "{}", end.reason);
    assert!(end.reason.contains("objective points 1 to 0"), "{}", end.reason);
    assert!(log.iter().any(|e| matches!(e, cav_rules::Event::ObjectiveScored { points: 1, areas: 2, .. })));
}

#[test]
fn take_that_hill_goes_to_the_attacker_when_no_defender_stands_on_it_001_l1975_l2023() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let end_with = |defender_at: P| {
        let mut game = on_scenario(&rules, "take-that-hill");
        assert!(game.board.areas.iter().any(|a| rules.terrains[a.terrain].id == "hill"), "the central hill is placed");
        game.add_model(warg, 0, P::new(3.0, 24.0), 90.0);
        game.add_model(warg, 1, defender_at, 270.0);
        game.turn = game.turn_limit;
        let mut dice = SeededDice::new(1);
        let mut log = Vec::new();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().unwrap()
    };
    assert_eq!(end_with(P::new(38.0, 25.0)).winner, Some(1), "the defender is on the hill");
    assert_eq!(end_with(P::new(60.0, 40.0)).winner, Some(0), "the defender left the hill");
}

/// Moves each activated model to one point, then passes.
struct MoveTo(P);

impl cav_rules::Controller for MoveTo {
    fn decide(&mut self, g: &Game, _model: usize, _ap: u32) -> cav_rules::Action {
        if g.used.is_empty() { cav_rules::Action::move_to(self.0) } else { cav_rules::Action::pass() }
    }
}

#[test]
fn a_bridge_too_far_scores_the_tv_that_leaves_across_the_far_edge_001_l2297_l2331() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let mut game = on_scenario(&rules, "a-bridge-too-far");
    game.add_model(warg, 0, P::new(70.0, 24.0), 90.0);
    game.add_model(warg, 1, P::new(30.0, 10.0), 90.0);
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    // side-b may not leave across side-a's exit edge: it stops at the board's edge.
    engine.game.models[1].pos = P::new(70.0, 10.0);
    engine.activate(1, &mut MoveTo(P::new(78.0, 10.0))).unwrap();
    assert!(engine.game.models[1].on_table() && engine.game.models[1].pos.x <= 72.0);
    // side-a leaves across the right edge and scores its TV.
    engine.activate(0, &mut MoveTo(P::new(78.0, 24.0))).unwrap();
    assert!(engine.game.models[0].exited && !engine.game.models[0].on_table());
    let tv = rules.cards[warg].tv;
    assert_eq!(engine.game.exit_scores(), vec![tv, 0]);
    let end = engine.victory().expect("side-a has no model left on the table");
    assert_eq!(end.winner, Some(0), "{}", end.reason);
    assert!(end.reason.contains(&format!("exit scores {tv} to 0")), "{}", end.reason);
}

#[test]
fn breakthrough_counts_escaped_defenders_and_destroyed_attackers_001_l2106_l2146() {
    let rules = without_random_terrain(full_rules());
    let (warg, fenrir) = (rules.card("warg").unwrap(), rules.card("fenrir").unwrap());
    let mut game = on_scenario(&rules, "breakthrough");
    game.add_model(fenrir, 0, P::new(3.0, 24.0), 90.0); // attacker, destroyed
    game.add_model(warg, 0, P::new(3.0, 30.0), 90.0); // attacker
    game.add_model(warg, 1, P::new(69.0, 24.0), 270.0); // defender, escapes
    game.add_model(warg, 1, P::new(69.0, 30.0), 270.0); // defender, destroyed
    game.models[0].destroyed = true;
    game.models[2].exited = true;
    game.models[2].left_board = true;
    game.models[3].destroyed = true;
    let (w, f) = (rules.cards[warg].tv, rules.cards[fenrir].tv);
    assert_eq!(
        game.exit_scores(),
        vec![w, w + f],
        "attacker: the defender it destroyed; defender: escaped + destroyed"
    );
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    assert_eq!(engine.victory().expect("no defender left on the table").winner, Some(1));
}

#[test]
fn hold_at_all_cost_asks_the_defender_to_destroy_its_own_worth_001_l2160_l2164() {
    let rules = without_random_terrain(full_rules());
    let (warg, fenrir) = (rules.card("warg").unwrap(), rules.card("fenrir").unwrap());
    let (w, f) = (rules.cards[warg].tv, rules.cards[fenrir].tv);
    assert!(f >= w, "the Fenrir is worth at least a Warg");
    let end_with = |destroyed: &[usize]| {
        let mut game = on_scenario(&rules, "hold-at-all-cost");
        game.add_model(fenrir, 0, P::new(3.0, 10.0), 90.0); // attacker
        game.add_model(warg, 0, P::new(3.0, 20.0), 90.0); // attacker
        game.add_model(warg, 1, P::new(60.0, 24.0), 270.0); // defender: its own worth is one Warg
        for &m in destroyed {
            game.models[m].destroyed = true;
        }
        game.turn = game.turn_limit;
        let mut dice = SeededDice::new(1);
        let mut log = Vec::new();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().unwrap()
    };
    let held = end_with(&[1]);
    assert_eq!(held.winner, Some(1), "a Warg destroyed is the defender's own worth: {}", held.reason);
    let short = end_with(&[]);
    assert_eq!(short.winner, Some(0), "{}", short.reason);
    assert!(short.reason.contains(&format!("destroyed 0 TV, short of its own {w}")), "{}", short.reason);
}

#[test]
fn time_stands_still_rolls_its_length_001_l1943_l1973() {
    let rules = without_random_terrain(full_rules());
    let sc = rules.scenario("time-stands-still-for-no-one").unwrap();
    // 1d3 turns, then the two hidden picks: 2 + 3 + 1 = 6 turns.
    let game = cav_rules::setup::scenario_game(
        &rules,
        sc,
        &mut cav_rules::ForcedDice::new(vec![2, 3, 1]),
        &mut cav_rules::NoLog,
        None,
    );
    assert_eq!(game.turn_limit, 6);
}

#[test]
fn half_the_defenders_or_more_start_on_the_hill_001_l2005_l2011() {
    let rules = without_random_terrain(full_rules());
    let sc = rules.scenario("take-that-hill").unwrap();
    let warg = rules.card("warg").unwrap();
    let force = |n: usize| cav_rules::setup::RosterForce {
        squads: vec![cav_rules::setup::SquadCards { name: "s".into(), kind: "attack".into(), cards: vec![warg; n] }],
        c3: 0,
        pool: None,
        bonus: 0,
        strike_pools: Default::default(),
        held: Vec::new(),
        pieces: Vec::new(),
        emplacements: Vec::new(),
    };
    let game = cav_rules::setup::roster_game(
        &rules,
        sc,
        &[force(4), force(5)],
        &mut cav_rules::ForcedDice::new(vec![]),
        &mut cav_rules::NoLog,
        None,
    );
    let on_hill = game.models.iter().filter(|m| m.side == 1 && m.pos.dist(P::new(36.0, 24.0)) <= 8.0).count();
    assert_eq!(on_hill, 3, "5 defenders: 50 % rounded up on the hill, the rest off it");
    let attacker_zone = &rules.scenarios[sc].sides[0].1;
    assert!(game.models.iter().filter(|m| m.side == 1).all(|m| m.pos.x > attacker_zone.x + attacker_zone.width));
}

#[test]
fn a_mission_kill_withdraws_to_its_own_deployment_edge_001_l1801_l1807() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let mut game = on_scenario(&rules, "this-is-war");
    // Side 1 deploys along the right edge: its model withdraws right even from the left half.
    let m = game.add_model(warg, 1, P::new(10.0, 24.0), 0.0);
    assert!(game.withdraw_point(m).x > 72.0, "{:?}", game.withdraw_point(m));
    let m = game.add_model(warg, 0, P::new(60.0, 24.0), 0.0);
    assert!(game.withdraw_point(m).x < 0.0, "{:?}", game.withdraw_point(m));
    // The other reading: the nearest edge.
    let mut nearest = rules.clone();
    nearest.proc.damage.mission_kill.withdraw_to = cav_format::WithdrawTo::NearestEdge;
    let mut game = on_scenario(&nearest, "this-is-war");
    let m = game.add_model(warg, 1, P::new(10.0, 24.0), 0.0);
    assert!(game.withdraw_point(m).x < 0.0);
}

/// Rosters of four Wargs a side on "This is WAR!" with side-b deploying by the given method.
fn deploying(rules: &Rules, method: cav_format::DeploymentMethod) -> Game<'_> {
    let mut rules = rules.clone();
    let sc = rules.scenario("this-is-war").unwrap();
    rules.scenarios[sc].methods[1] = method;
    let rules: &'static Rules = Box::leak(Box::new(rules));
    let warg = rules.card("warg").unwrap();
    let force = || cav_rules::setup::RosterForce {
        squads: vec![cav_rules::setup::SquadCards { name: "s".into(), kind: "attack".into(), cards: vec![warg; 4] }],
        c3: 0,
        pool: None,
        bonus: 0,
        strike_pools: Default::default(),
        held: Vec::new(),
        pieces: Vec::new(),
        emplacements: Vec::new(),
    };
    cav_rules::setup::roster_game(
        rules,
        sc,
        &[force(), force()],
        &mut cav_rules::ForcedDice::new(vec![]),
        &mut cav_rules::NoLog,
        None,
    )
}

#[test]
fn rolling_deployment_enters_across_the_edge_moving_first_001_l2612_l2618() {
    let rules = without_random_terrain(full_rules());
    let game = deploying(&rules, cav_format::DeploymentMethod::Rolling);
    let b: Vec<usize> = (0..game.models.len()).filter(|&m| game.models[m].side == 1).collect();
    assert!(b.iter().all(|&m| !game.models[m].on_table() && game.models[m].in_play()), "side-b waits off the table");
    assert!(b.iter().all(|&m| (game.models[m].pos.x - (72.0 - game.card(m).base_radius)).abs() < 1e-9), "on its edge");
    let mut dice = SeededDice::new(2);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.game.turn = 1;
    // Its first action must be a move.
    let refused = engine.activate(b[0], &mut MoveTo(P::new(60.0, 24.0)));
    assert!(refused.is_ok());
    assert!(engine.game.models[b[0]].on_table() && engine.game.models[b[0]].pos.x < 72.0 - 1.0);
    let err = engine.activate(b[1], &mut FireFirst).unwrap_err();
    assert!(format!("{err:?}").contains("moves first"), "{err:?}");
}

/// Fires its first weapon at the nearest enemy.
struct FireFirst;

impl cav_rules::Controller for FireFirst {
    fn decide(&mut self, g: &Game, model: usize, _ap: u32) -> cav_rules::Action {
        let t = g.enemies(model).next().unwrap_or(0);
        if g.used.is_empty() { cav_rules::Action::fire(t, vec![0]) } else { cav_rules::Action::pass() }
    }
}

#[test]
fn a_delayed_side_has_no_cards_before_its_turn_001_l2620_l2646() {
    let rules = without_random_terrain(full_rules());
    let game = deploying(&rules, cav_format::DeploymentMethod::Delayed(3));
    let mut dice = SeededDice::new(2);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.game.turn = 2;
    assert_eq!(engine.game.units(1).len(), 0, "turn 2 is before its turn");
    engine.game.turn = 3;
    assert!(!engine.game.units(1).is_empty(), "from turn 3 it has cards");
    // Bots play such a game to its end: the side comes on at turn 3 and fights.
    let game = deploying(&rules, cav_format::DeploymentMethod::Delayed(3));
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut bot = cav_rules::bot::Bot::default();
    let end = loop {
        if let Some(end) = engine.play_turn(&mut bot).unwrap() {
            break end;
        }
    };
    assert!(end.turns >= 3, "{}", end.reason);
    let entered = log.iter().filter(|e| matches!(e, cav_rules::Event::Deployed { .. })).count();
    assert_eq!(entered, 4, "side-b's four Wargs come on during play");
}

#[test]
fn a_small_table_halves_move_values_and_ranges_rounding_up_001_l1370_l1376() {
    let mut rules = full_rules();
    let warg = rules.card("warg").unwrap();
    let (mv, range) = (rules.cards[warg].movement.clone(), rules.cards[warg].weapons[0].range);
    let mut options = cav_format::vocab::EngineOptions::default();
    assert!(options.set("table-size", "small") && options.small_table);
    // The full rules say how (`procedures.small_table`): halved, rounding up.
    let small = cav_format::SmallTableRules { scale: 0.5, rounding: cav_format::Rounding::Up };
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/cav-full/rules/ruleset.yaml"))
            .unwrap();
    assert!(text.contains("small_table:") && text.contains("scale: 0.5") && text.contains("rounding: up"));
    cav_compile::scale_for_a_small_table(&mut rules.cards, &small);
    let halved: Vec<u32> = mv.iter().map(|v| v.div_ceil(2)).collect();
    assert_eq!(rules.cards[warg].movement, halved);
    assert_eq!(rules.cards[warg].weapons[0].range, (range / 2.0).ceil());
}
