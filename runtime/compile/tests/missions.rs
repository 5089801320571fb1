//! The scenarios with pieces of their own: the rescue's high-value operative (001 L2194-2216) and
//! the salvage containers (001 L2333-2375), driven through the engine's own turn code.

use cav_rules::game::missions::ContainerState;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
use cav_rules::{Action, Controller, Engine, Event, ForcedDice, Game, Rules};
mod common;

use common::full_rules;

fn without_random_terrain(mut rules: Rules) -> Rules {
    for s in &mut rules.scenarios {
        s.terrain_features = None;
    }
    rules
}

fn on_scenario<'r>(rules: &'r Rules, id: &str) -> Game<'r> {
    let sc = rules.scenario(id).unwrap();
    cav_rules::setup::scenario_game(rules, sc, &mut ForcedDice::new(vec![]), &mut cav_rules::NoLog, None)
}

/// Moves each activated model to one point, then passes.
struct MoveTo(P);

impl Controller for MoveTo {
    fn decide(&mut self, g: &Game, _model: usize, _ap: u32) -> Action {
        if g.used.is_empty() { Action::move_to(self.0) } else { Action::pass() }
    }
}

/// Ends every activation at once.
struct Pass;

impl Controller for Pass {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> Action {
        Action::pass()
    }
}

const RESCUE: &str = "it-s-a-rescue-mission-you-re-going-to-love-it";

#[test]
fn the_rescuer_picks_up_the_hvo_and_wins_by_carrying_it_home_001_l2194_l2216() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let mut game = on_scenario(&rules, RESCUE);
    assert_eq!(
        game.features.missions.hvo.as_ref().map(|h| h.pos),
        Some(P::new(36.0, 24.0)),
        "the HVO starts at the centre"
    );
    let attacker = game.add_model(warg, 0, P::new(30.0, 24.0), 90.0);
    let defender = game.add_model(warg, 1, P::new(37.0, 26.0), 270.0);
    let mut dice = ForcedDice::new(vec![]);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    // The defender touches the figure, but may not take it before the attacker has moved it.
    engine.activate(defender, &mut MoveTo(P::new(36.9, 25.0))).unwrap();
    assert_eq!(engine.game.features.missions.hvo.as_ref().unwrap().carrier, None);
    engine.activate(attacker, &mut MoveTo(P::new(35.0, 24.0))).unwrap();
    assert_eq!(engine.game.features.missions.hvo.as_ref().unwrap().carrier, Some(attacker));
    assert!(engine.victory().is_none());
    // Carried: it goes where its carrier goes, and off the attacker's own (left) edge.
    engine.game.models[attacker].pos = P::new(2.0, 24.0);
    engine.activate(attacker, &mut MoveTo(P::new(-5.0, 24.0))).unwrap();
    assert!(engine.game.models[attacker].left_board);
    let end = engine.victory().expect("the HVO is home");
    assert_eq!(end.winner, Some(0), "{}", end.reason);
    assert!(end.reason.contains("carried the high-value operative home"), "{}", end.reason);
    assert!(log.iter().any(|e| matches!(e, Event::HvoTaken { model } if *model == attacker)));
}

#[test]
fn a_destroyed_carrier_drops_the_hvo_and_then_anyone_may_take_it_001_l2200_l2206() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let mut game = on_scenario(&rules, RESCUE);
    let attacker = game.add_model(warg, 0, P::new(34.0, 24.0), 90.0);
    let other = game.add_model(warg, 0, P::new(10.0, 10.0), 90.0);
    let defender = game.add_model(warg, 1, P::new(40.0, 30.0), 270.0);
    let mut dice = ForcedDice::new(vec![]);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.activate(attacker, &mut MoveTo(P::new(35.0, 24.0))).unwrap();
    engine.activate(attacker, &mut MoveTo(P::new(33.0, 22.0))).unwrap();
    engine.destroy(attacker);
    let hvo = engine.game.features.missions.hvo.as_ref().unwrap();
    assert_eq!((hvo.carrier, hvo.pos), (None, P::new(33.0, 22.0)), "dropped where its carrier fell");
    // Moved by the attacker, so the defender may now take it.
    engine.game.models[defender].pos = P::new(35.0, 20.0);
    engine.activate(defender, &mut MoveTo(P::new(33.5, 22.5))).unwrap();
    assert_eq!(engine.game.features.missions.hvo.as_ref().unwrap().carrier, Some(defender));
    // The attacker still has a model: no result yet; at the turn limit the defender wins.
    assert!(engine.game.models[other].in_play() && engine.victory().is_none());
    engine.game.turn = engine.game.turn_limit;
    let end = engine.play_turn(&mut Pass).unwrap().unwrap();
    assert_eq!(end.winner, Some(1), "{}", end.reason);
    assert!(log.iter().any(|e| matches!(e, Event::HvoDropped { .. })));
}

const SALVAGE: &str = "salvage-run";

#[test]
fn containers_wake_from_turn_2_rerolling_numbers_already_active_001_l2351_l2359() {
    let rules = without_random_terrain(full_rules());
    let game = on_scenario(&rules, SALVAGE);
    assert_eq!(game.features.missions.containers.len(), 6);
    // Turn 1: no roll. Turn 2: 3. Turn 3: 3 again (re-rolled), then 5.
    let mut dice = ForcedDice::new(vec![3, 3, 5]);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.begin_turn().unwrap();
    assert!(engine.game.features.missions.containers.iter().all(|c| c.state == ContainerState::Dormant));
    engine.begin_turn().unwrap();
    assert_eq!(engine.game.features.missions.containers[2].state, ContainerState::Active);
    engine.begin_turn().unwrap();
    assert_eq!(engine.game.features.missions.containers[4].state, ContainerState::Active);
    let woke: Vec<u32> = log
        .iter()
        .filter_map(|e| match e {
            Event::Container { number, what: "active", .. } => Some(*number),
            _ => None,
        })
        .collect();
    assert_eq!(woke, vec![3, 5]);
}

#[test]
fn after_five_are_active_the_last_leaves_001_l2357_l2359() {
    let rules = without_random_terrain(full_rules());
    let mut game = on_scenario(&rules, SALVAGE);
    for k in [0, 1, 2, 3] {
        game.features.missions.containers[k].state = ContainerState::Active;
    }
    game.turn = 5;
    let mut dice = ForcedDice::new(vec![6]);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.begin_turn().unwrap();
    assert_eq!(engine.game.features.missions.containers[5].state, ContainerState::Active);
    assert_eq!(
        engine.game.features.missions.containers[4].state,
        ContainerState::Gone,
        "the fifth woke: the sixth left"
    );
}

#[test]
fn a_die_that_names_no_dormant_container_gives_up() {
    let mut rules = without_random_terrain(full_rules());
    let sc = rules.scenario(SALVAGE).unwrap();
    let c = rules.scenarios[sc].objectives.as_mut().unwrap().containers.as_mut().unwrap();
    c.die = cav_rules::DiceExpr::parse("1d1").unwrap();
    let mut game = on_scenario(&rules, SALVAGE);
    game.features.missions.containers[0].state = ContainerState::Active;
    game.turn = 2;
    let mut dice = cav_rules::SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.begin_turn().unwrap();
    assert_eq!(
        engine.game.features.missions.containers.iter().filter(|c| c.state == ContainerState::Active).count(),
        1
    );
}

/// Side a salvages container 3 (at 18, 12) with one model over two activations, and scores when
/// the turn ends; a side-b model within 6" would have contested it.
#[test]
fn one_model_salvages_in_two_unopposed_activations_two_models_in_one_001_l2361_l2375() {
    let rules = without_random_terrain(full_rules());
    let warg = rules.card("warg").unwrap();
    let setup = |enemy_near: bool, two: bool| {
        let mut game = on_scenario(&rules, SALVAGE);
        game.features.missions.containers[2].state = ContainerState::Active;
        game.add_model(warg, 0, P::new(18.0, 16.0), 0.0);
        if two {
            game.add_model(warg, 0, P::new(22.0, 12.0), 0.0);
        }
        let enemy = if enemy_near { P::new(14.0, 10.0) } else { P::new(60.0, 40.0) };
        game.add_model(warg, 1, enemy, 180.0);
        game
    };
    let mut dice = ForcedDice::new(vec![]);
    let mut log = Vec::new();
    let mut engine = Engine { game: setup(false, false), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.activate(0, &mut Pass).unwrap();
    assert_eq!(
        engine.game.features.missions.containers[2].state,
        ContainerState::Active,
        "one activation is not enough alone"
    );
    engine.game.models[0].activated = false;
    engine.activate(0, &mut Pass).unwrap();
    assert_eq!(engine.game.features.missions.containers[2].state, ContainerState::Salvaged(0));
    engine.end_turn().unwrap();
    assert_eq!(engine.game.features.missions.containers[2].state, ContainerState::Gone);
    assert_eq!(engine.game.objective_points, vec![1, 0]);

    let mut log = Vec::new();
    let mut engine = Engine { game: setup(true, false), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    for _ in 0..3 {
        engine.game.models[0].activated = false;
        engine.activate(0, &mut Pass).unwrap();
    }
    assert_eq!(
        engine.game.features.missions.containers[2].state,
        ContainerState::Active,
        "an enemy within 6\" contests it"
    );

    let mut log = Vec::new();
    let mut engine = Engine { game: setup(false, true), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.activate(0, &mut Pass).unwrap();
    assert_eq!(
        engine.game.features.missions.containers[2].state,
        ContainerState::Salvaged(0),
        "two models need one activation"
    );
}
