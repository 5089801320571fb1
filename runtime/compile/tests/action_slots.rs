//! Action slots (`action_slots:` of a ruleset, `uses:` of an action type): what a unit did this
//! turn it may not do again before the next — Sythopian Wars' action tracker (002 L116-126): a
//! unit that has shot does not shoot again; a move takes whichever slot is left.

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Event, Game, Rules, SeededDice};

/// The full rules with a pooled turn (each side 4 activations, a unit as many as it pays for)
/// and the action slots run, shoot and defend: combat uses shoot, a move any free slot.
fn with_slots() -> Rules {
    let ruleset = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Slots.\nremove: [/draw_deck]\n\
                   set:\n  action_slots: [run, shoot, defend]\n  turn_order: {scheme: alternating, pool: {name: \
                   command point, per_side: 4}, activations_per_unit: 0, first: side_order}\n";
    let combat = "kind: patch\ntarget: {kind: action_type, id: combat}\nsummary: Shoot.\nset: {uses: [shoot]}\n";
    let moving = "kind: patch\ntarget: {kind: action_type, id: move}\nsummary: Any.\nset: {uses_any_slot: true}\n";
    common::extension_rules("slots", &[("ruleset.yaml", ruleset), ("combat.yaml", combat), ("move.yaml", moving)])
}

/// One turn of two assault CAVs `apart` inches apart; per activation of each: (model, moves, attacks).
fn one_turn(rules: &Rules, apart: f64) -> Vec<(usize, usize, usize)> {
    let cav = rules.card("test-full-assault-cav").unwrap();
    let mut game = Game::new(rules, Board { size: [72.0, 72.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    game.add_model(cav, 0, P::new(36.0, 10.0), 180.0);
    game.add_model(cav, 1, P::new(36.0, 10.0 + apart), 0.0);
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.play_turn(&mut cav_rules::bot::Bot::default()).expect("the bot's refused actions are taken back");
    let mut out: Vec<(usize, usize, usize)> = Vec::new();
    for e in &log {
        match e {
            Event::Activation { model, .. } => out.push((*model, 0, 0)),
            Event::Moved { .. } => out.last_mut().unwrap().1 += 1,
            Event::Attack { .. } | Event::Aimed { .. } => out.last_mut().unwrap().2 += 1,
            _ => {}
        }
    }
    out
}

#[test]
fn a_move_takes_the_first_free_slot_until_none_is_left() {
    let rules = with_slots();
    let turn = one_turn(&rules, 60.0);
    let red: Vec<_> = turn.iter().filter(|(m, _, _)| *m == 0).collect();
    assert_eq!(red.len(), 4, "{turn:?}");
    // The first two activations move (run, then shoot: the first free); the fourth has no slot
    // left and does nothing at all, whatever the bot would like.
    assert!(red[..2].iter().all(|(_, moves, _)| *moves > 0), "{turn:?}");
    assert_eq!((red[3].1, red[3].2), (0, 0), "{turn:?}");
    // Without slots, the fourth activation acts like the others.
    let mut free = rules.clone();
    free.slot_uses.clear();
    let turn = one_turn(&free, 60.0);
    let red: Vec<_> = turn.iter().filter(|(m, _, _)| *m == 0).collect();
    assert!(red[3].1 + red[3].2 > 0, "{turn:?}");
}

#[test]
fn a_unit_that_has_shot_does_not_shoot_again_this_turn() {
    let rules = with_slots();
    let turn = one_turn(&rules, 20.0);
    let shooting: Vec<_> = turn.iter().filter(|(m, _, attacks)| *m == 0 && *attacks > 0).collect();
    assert_eq!(shooting.len(), 1, "red fires in one activation only: {turn:?}");
    // Without slots it fires in more than one.
    let mut free = rules.clone();
    free.slot_uses.clear();
    let turn = one_turn(&free, 20.0);
    assert!(turn.iter().filter(|(m, _, attacks)| *m == 0 && *attacks > 0).count() > 1, "{turn:?}");
}

#[test]
fn a_slot_no_ruleset_declares_is_an_error() {
    let combat = "kind: patch\ntarget: {kind: action_type, id: combat}\nsummary: Shoot.\nset: {uses: [shoot]}\n";
    let diags = common::extension_diagnostics("slots", &[("combat.yaml", combat)]);
    assert!(diags.iter().any(|d| d.message.contains("shoot") && d.message.contains("action slot")), "{diags:#?}");
}

/// A squad acts as one unit: what any of its models used in an activation, all of them used.
#[test]
fn a_squad_shares_its_slots() {
    let rules = with_slots();
    let cav = rules.card("test-full-assault-cav").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 72.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    // Red's squad: one CAV in reach of the enemy (it fires), one far off (it moves).
    let near = game.add_model(cav, 0, P::new(36.0, 40.0), 180.0);
    let far = game.add_model(cav, 0, P::new(2.0, 2.0), 180.0);
    game.add_squad("red squad".into(), "attack".into(), vec![near, far]);
    game.add_model(cav, 1, P::new(36.0, 56.0), 0.0);
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap();
    let g = engine.game;
    let (shoot, run) = (1 << 1, 1 << 0);
    let fired =
        log.iter().any(|e| matches!(e, Event::Attack { model, .. } | Event::Aimed { model, .. } if *model == near));
    assert!(fired, "{log:#?}");
    assert_eq!(g.models[near].slots_used, g.models[far].slots_used);
    assert_ne!(g.models[far].slots_used & shoot, 0, "the far CAV never fired, but its squad did");
    assert_ne!(g.models[near].slots_used & run, 0);
}

#[test]
fn any_free_slot_of_a_ruleset_without_slots_is_an_error() {
    let moving = "kind: patch\ntarget: {kind: action_type, id: move}\nsummary: Any.\nset: {uses_any_slot: true}\n";
    let diags = common::extension_diagnostics("slots", &[("move.yaml", moving)]);
    assert!(diags.iter().any(|d| d.message.contains("takes any free action slot, but the ruleset declares none")));
}
