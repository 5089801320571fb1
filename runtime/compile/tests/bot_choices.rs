//! Choices bots make where the rules give one: field repair modules, TAG paint.

use cav_rules::Controller;
use cav_rules::game::Board;
use cav_rules::geom::P;
mod common;

use cav_rules::Game;
use common::full_rules;

/// A bot's combat engineer mends the most damaged friend it touches with a held field repair
/// module before anything else, and not when the side holds none.
#[test]
fn a_bot_engineer_uses_a_field_repair_module_on_a_damaged_friend() {
    let rules = full_rules();
    let (engineer, cav) = (rules.card("test-full-engineer-cav").unwrap(), rules.card("test-full-assault-cav").unwrap());
    let module = rules.assets.iter().position(|a| a.id == "level-i-field-repair-module").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let me = game.add_model(engineer, 0, P::new(10.0, 5.0), 0.0);
    let light = game.add_model(cav, 0, P::new(11.5, 5.0), 0.0);
    let heavy = game.add_model(cav, 0, P::new(8.5, 5.0), 0.0);
    game.add_model(cav, 1, P::new(10.0, 43.0), 180.0);
    game.models[light].damage = 2;
    game.models[heavy].damage = 4;
    let mut bot = cav_rules::bot::Bot::default();
    let first = bot.decide(&game, me, 2);
    assert_ne!(first.kind, "field-repair", "no module held: {first:?}");
    game.features.held_assets.held[0].push((module, 1));
    let action = bot.decide(&game, me, 2);
    assert_eq!((action.kind, action.target), ("field-repair", Some(heavy)), "{action:?}");
}

/// A bot with a TAG paints the nearest enemy when a friend yet to act carries guided missiles
/// that would want a target-lock on it; with no such friend it does not.
#[test]
fn a_bot_paints_with_its_tag_for_a_friend_with_guided_missiles() {
    let rules = full_rules();
    let (spotter, cav) = (rules.card("test-full-tag-cav").unwrap(), rules.card("test-full-assault-cav").unwrap());
    let plain = rules.card("test-full-plain-vehicle").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let me = game.add_model(spotter, 0, P::new(20.0, 5.0), 0.0);
    let friend = game.add_model(cav, 0, P::new(10.0, 5.0), 0.0);
    let enemy = game.add_model(cav, 1, P::new(15.0, 19.0), 180.0);
    let mut bot = cav_rules::bot::Bot::default();
    let action = bot.decide(&game, me, 2);
    assert_eq!((action.kind, action.target), ("tag", Some(enemy)), "{action:?}");
    // The friend has acted, or carries no guided missile: no paint.
    game.models[friend].activated = true;
    assert_ne!(bot.decide(&game, me, 2).kind, "tag");
    game.models[friend].activated = false;
    game.models[friend].card = plain;
    assert_ne!(bot.decide(&game, me, 2).kind, "tag");
}

/// A bot's rider fires through a free gun port at an enemy its weapons reach from where the
/// transport stands (001 L7520-7530); with the port used this turn, or no enemy in reach, it gets
/// out instead.
#[test]
fn a_bot_rider_fires_through_a_free_gun_port() {
    let rules = full_rules();
    let (carrier, rifles, cav) = (
        rules.card("test-full-port-carrier").unwrap(),
        rules.card("test-full-rifle-squad").unwrap(),
        rules.card("test-full-assault-cav").unwrap(),
    );
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let t = game.add_model(carrier, 0, P::new(10.0, 10.0), 0.0);
    let me = game.add_model(rifles, 0, P::new(10.0, 10.0), 0.0);
    let other = game.add_model(rifles, 0, P::new(10.0, 10.0), 0.0);
    game.models[me].features.transport.aboard = Some(t);
    game.models[other].features.transport.aboard = Some(t);
    let enemy = game.add_model(cav, 1, P::new(10.0, 14.0), 180.0);
    let mut bot = cav_rules::bot::Bot::default();
    let action = bot.decide(&game, me, 2);
    assert_eq!((action.kind, action.target), ("fire", Some(enemy)), "{action:?}");
    // The one port is taken by the other rider this turn: out it gets.
    game.models[other].mark(&cav_rules::game::actions::combat::FIRED_FROM_PORT);
    assert_eq!(bot.decide(&game, me, 2).kind, "dismount");
    // Port free again, but the enemy is out of the rifles' reach.
    game.models[other].unmark(&cav_rules::game::actions::combat::FIRED_FROM_PORT);
    game.models[enemy].pos = P::new(10.0, 40.0);
    assert_eq!(bot.decide(&game, me, 2).kind, "dismount");
}

/// A bot's combat engineer seen in the open by the nearest enemy lays a nano barrier its side
/// holds towards that enemy (001 L10600-10620); holding none, it does not.
#[test]
fn a_bot_engineer_lays_a_barrier_towards_the_enemy_that_sees_it() {
    let rules = full_rules();
    let (engineer, cav) = (rules.card("test-full-engineer-cav").unwrap(), rules.card("test-full-assault-cav").unwrap());
    let barrier = rules.assets.iter().position(|a| a.id == "level-i-deployable-nano-barrier").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let me = game.add_model(engineer, 0, P::new(30.0, 5.0), 0.0);
    let enemy = game.add_model(cav, 1, P::new(30.0, 25.0), 180.0);
    let mut bot = cav_rules::bot::Bot::default();
    assert_ne!(bot.decide(&game, me, 2).kind, "lay-barrier", "no barrier held");
    game.features.held_assets.held[0].push((barrier, 1));
    let action = bot.decide(&game, me, 2);
    assert_eq!(action.kind, "lay-barrier", "{action:?}");
    assert_eq!(action.to, Some(game.models[enemy].pos), "towards the enemy: {action:?}");
}

/// A bot with Improved Handling drifts where its way lies within 45° of its facing (fewer MV, the
/// facing kept, 001 L7659-7676); a model without it moves (turning).
#[test]
fn a_bot_with_improved_handling_drifts_towards_its_goal() {
    let rules = full_rules();
    let (quad, cav) = (rules.card("test-full-handling-quad").unwrap(), rules.card("test-full-assault-cav").unwrap());
    let mut game =
        Game::new(&rules, Board { size: [72.0, 72.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let me = game.add_model(quad, 0, P::new(20.0, 5.0), 0.0);
    game.add_model(cav, 1, P::new(45.0, 66.0), 180.0);
    let mut bot = cav_rules::bot::Bot::default();
    let action = bot.decide(&game, me, 2);
    assert_eq!(action.kind, "shift", "{action:?}");
    game.models[me].card = cav;
    assert_eq!(bot.decide(&game, me, 2).kind, "move");
}
