//! Assets a side holds off the table, as bots use them in a game.

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
    let mut game = Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let me = game.add_model(engineer, 0, P::new(10.0, 5.0), 0.0);
    let light = game.add_model(cav, 0, P::new(11.5, 5.0), 0.0);
    let heavy = game.add_model(cav, 0, P::new(8.5, 5.0), 0.0);
    game.add_model(cav, 1, P::new(10.0, 43.0), 180.0);
    game.models[light].damage = 2;
    game.models[heavy].damage = 4;
    let mut bot = cav_rules::bot::Bot::default();
    let first = bot.decide(&game, me, 2);
    assert_ne!(first.kind, "field-repair", "no module held: {first:?}");
    game.held[0].push((module, 1));
    let action = bot.decide(&game, me, 2);
    assert_eq!((action.kind, action.target), ("field-repair", Some(heavy)), "{action:?}");
}
