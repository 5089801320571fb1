//! The draw deck under the full rules' per-squad activation, from the bundled ruleset's numbers.

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Game, Rules, SeededDice};
use common::full_rules;

/// Two sides with two squads of Wargs each (invented iron-wolves tanks).
fn two_squads_a_side(rules: &Rules) -> Game<'_> {
    let warg = rules.card("warg").unwrap();
    let mut game = Game::new(rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    for side in 0..2 {
        for squad in 0..2 {
            let members: Vec<usize> = (0..4)
                .map(|i| {
                    game.add_model(
                        warg,
                        side,
                        P::new(10.0 + 5.0 * i as f64, 5.0 + 38.0 * side as f64 + squad as f64 * 3.0),
                        0.0,
                    )
                })
                .collect();
            game.add_squad(format!("squad {side}-{squad}"), "attack".into(), members);
        }
    }
    game
}

#[test]
fn two_sides_with_four_squads_deal_ten_cards_001_l2411_l2415() {
    let rules = full_rules();
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = Engine { game: two_squads_a_side(&rules), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let deck = engine.begin_turn().unwrap();
    assert_eq!(deck.len(), 10, "one card per side and two per squad");
    assert_eq!(deck.iter().filter(|c| c.side == 0).count(), 5, "five of each colour");
}

#[test]
fn a_squad_that_leaves_play_takes_one_of_its_cards_001_l2465_l2476() {
    let rules = full_rules();
    let mut dice = SeededDice::new(1);
    let mut log = Vec::new();
    let mut game = two_squads_a_side(&rules);
    for m in 0..4 {
        game.models[m].destroyed = true; // red's first squad is gone
    }
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let deck = engine.begin_turn().unwrap();
    // Red: 1 side card + 2 for its remaining squad + 1 the gone squad leaves behind.
    assert_eq!(deck.iter().filter(|c| c.side == 0).count(), 4);
    assert_eq!(deck.len(), 9);
    // The other reading of the option: both cards go.
    let mut both = rules.clone();
    both.engine_options.set("draw-deck-removal", "two-cards-per-squad");
    let mut game = two_squads_a_side(&both);
    for m in 0..4 {
        game.models[m].destroyed = true;
    }
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    assert_eq!(engine.begin_turn().unwrap().len(), 8);
}

#[test]
fn a_card_activates_a_whole_squad() {
    let rules = full_rules();
    let mut dice = SeededDice::new(3);
    let mut log: Vec<cav_rules::Event> = Vec::new();
    let mut engine = Engine { game: two_squads_a_side(&rules), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap();
    // Each squad activation is followed by its four models' activations, one squad at a time.
    let kinds: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            cav_rules::Event::SquadActivation { .. } => Some("squad"),
            cav_rules::Event::Activation { .. } => Some("model"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "squad").count(), 4, "{kinds:?}");
    for chunk in kinds.chunks(5) {
        assert_eq!(chunk, ["squad", "model", "model", "model", "model"]);
    }
}

/// Seizes the initiative once: the first squad to activate takes the first model of a friendly
/// squad that has not activated; everything else passes.
struct SeizeOnce(Option<usize>);

impl cav_rules::Controller for SeizeOnce {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> cav_rules::Action {
        cav_rules::Action::pass()
    }
    fn seize_initiative(&mut self, g: &Game, squad: usize) -> Option<usize> {
        if self.0.is_some() {
            return None;
        }
        let side = g.squads[squad].side;
        let other = (0..g.squads.len()).find(|&s| s != squad && g.squads[s].side == side)?;
        self.0 = Some(g.squads[other].members[0]);
        self.0
    }
}

#[test]
fn seizing_the_initiative_brings_a_fresh_squads_model_into_this_activation_001_l1314_l1318() {
    let rules = full_rules();
    let mut dice = SeededDice::new(3);
    let mut log: Vec<cav_rules::Event> = Vec::new();
    let mut game = two_squads_a_side(&rules);
    game.features.c3.pool = vec![1, 1];
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut ctrl = SeizeOnce(None);
    engine.play_turn(&mut ctrl).unwrap();
    let seized = ctrl.0.expect("the first squad seized a model");
    let side = engine.game.models[seized].side;
    assert_eq!(engine.game.features.c3.pool[side], 0, "it cost the side's C3 point");
    // The seized model activates right after the first squad's four, before its own squad's card.
    let order: Vec<usize> = log
        .iter()
        .filter_map(|e| match e {
            cav_rules::Event::Activation { model, .. } => Some(*model),
            _ => None,
        })
        .collect();
    assert_eq!(order.iter().filter(|&&m| m == seized).count(), 1, "it activates once: {order:?}");
    assert_eq!(order.iter().position(|&m| m == seized), Some(4), "{order:?}");
    assert!(log.iter().any(|e| matches!(e, cav_rules::Event::C3Spent { what, .. } if what == "seize-the-initiative")));
}

/// Every model fires all its weapons at the nearest enemy, once.
struct FireAtNearest;

impl cav_rules::Controller for FireAtNearest {
    fn decide(&mut self, g: &Game, model: usize, _: u32) -> cav_rules::Action {
        let near = g.enemies(model).min_by(|&a, &b| g.distance(model, a).total_cmp(&g.distance(model, b)));
        match near {
            Some(t) if g.used.is_empty() => cav_rules::Action::fire(t, (0..g.card(model).weapons.len()).collect()),
            _ => cav_rules::Action::pass(),
        }
    }
}

#[test]
fn damage_lands_when_the_whole_squad_has_activated_001_l5328_l5348() {
    let rules = full_rules();
    let warg = rules.card("warg").unwrap();
    for seed in 1..=5 {
        let mut game =
            Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
        for side in 0..2 {
            let members: Vec<usize> = (0..3)
                .map(|i| {
                    game.add_model(
                        warg,
                        side,
                        P::new(20.0 + 4.0 * i as f64, 10.0 + 8.0 * side as f64),
                        180.0 * side as f64,
                    )
                })
                .collect();
            game.add_squad(format!("squad {side}"), "attack".into(), members);
        }
        let mut dice = SeededDice::new(seed);
        let mut log: Vec<cav_rules::Event> = Vec::new();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        engine.play_turn(&mut FireAtNearest).unwrap();
        // Within each squad's activation, no damage lands before its last model's activation ends.
        let mut squads = log.iter().enumerate().filter(|(_, e)| matches!(e, cav_rules::Event::SquadActivation { .. }));
        let (Some((a, _)), Some((b, _))) = (squads.next(), squads.next()) else { panic!("two squad activations") };
        let first = &log[a..b];
        let last_end = first.iter().rposition(|e| matches!(e, cav_rules::Event::ActivationEnd { .. })).unwrap();
        let landed = first.iter().position(|e| matches!(e, cav_rules::Event::DamageApplied { .. }));
        if let Some(at) = landed {
            assert!(at > last_end, "seed {seed}: damage landed before the squad finished");
            return;
        }
    }
    panic!("no seed of 1-5 hit in the first squad's activation: the test proves nothing");
}

/// Sends every pre-game move 3" straight up the board; passes in play.
struct PreMove;

impl cav_rules::Controller for PreMove {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> cav_rules::Action {
        cav_rules::Action::pass()
    }
    fn pre_game_move(&mut self, g: &Game, model: usize) -> Option<P> {
        Some(g.models[model].pos + P::new(0.0, 3.0))
    }
}

#[test]
fn recon_models_move_once_before_the_first_turn_001_l2648_l2656() {
    let rules = full_rules();
    let scout = rules.cards.iter().position(|c| c.task == Some(cav_format::Task::Recon)).expect("a recon card");
    let warg = rules.card("warg").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let recon = game.add_model(scout, 0, P::new(10.0, 5.0), 0.0);
    let other = game.add_model(warg, 0, P::new(20.0, 5.0), 0.0);
    game.add_model(warg, 1, P::new(40.0, 43.0), 180.0);
    let mut dice = SeededDice::new(1);
    let mut log: Vec<cav_rules::Event> = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.play_turn(&mut PreMove).unwrap();
    let (recon_at, other_at) = (engine.game.models[recon].pos, engine.game.models[other].pos);
    let first_turn = log.iter().position(|e| matches!(e, cav_rules::Event::TurnStart { turn: 1 })).unwrap();
    let moved: Vec<usize> = log[..first_turn]
        .iter()
        .filter_map(|e| match e {
            cav_rules::Event::Moved { model, .. } => Some(*model),
            _ => None,
        })
        .collect();
    assert_eq!(moved, vec![recon], "only the recon model moves before turn 1");
    assert_eq!(recon_at, P::new(10.0, 8.0));
    assert_eq!(other_at, P::new(20.0, 5.0));
}

/// The first model to activate regroups with the first squad of its side that has not acted.
struct RegroupOnce(Option<usize>);

impl cav_rules::Controller for RegroupOnce {
    fn decide(&mut self, g: &Game, model: usize, _: u32) -> cav_rules::Action {
        if self.0.is_none() && g.used.is_empty() {
            let mine = g.models[model].squad.unwrap();
            let side = g.models[model].side;
            let other = (0..g.squads.len())
                .find(|&s| {
                    s != mine && g.squads[s].side == side && g.squads[s].members.iter().all(|&m| !g.models[m].activated)
                })
                .unwrap();
            self.0 = Some(model);
            return cav_rules::Action::regroup(g.squads[other].members[0]);
        }
        cav_rules::Action::pass()
    }
}

#[test]
fn regroup_merges_two_squads_and_the_partner_acts_with_1_ap_001_l5722_l5780() {
    let rules = full_rules();
    let mut dice = SeededDice::new(3);
    let mut log: Vec<cav_rules::Event> = Vec::new();
    let mut engine = Engine { game: two_squads_a_side(&rules), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut ctrl = RegroupOnce(None);
    engine.play_turn(&mut ctrl).unwrap();
    let first = ctrl.0.unwrap();
    let g = &engine.game;
    let squad = g.models[first].squad.unwrap();
    // Two Attack squads of four (at most six): six stay together, two are left out.
    assert_eq!(g.squads[squad].members.len(), 6);
    let side = g.models[first].side;
    assert_eq!(g.models.iter().filter(|m| m.side == side && m.destroyed).count(), 2);
    let regrouped = log.iter().find_map(|e| match e {
        cav_rules::Event::Regrouped { models, kind, .. } => Some((*models, kind.clone())),
        _ => None,
    });
    assert_eq!(regrouped, Some((6, "attack".to_owned())));
    // Every model of the new squad activates in the same squad activation, the others with 1 AP.
    let acts: Vec<(usize, u32)> = log
        .iter()
        .filter_map(|e| match e {
            cav_rules::Event::Activation { model, ap } => Some((*model, *ap)),
            _ => None,
        })
        .collect();
    let start = acts.iter().position(|(m, _)| *m == first).unwrap();
    let together: Vec<(usize, u32)> = acts[start..start + 6].to_vec();
    assert!(together.iter().all(|(m, _)| g.models[*m].squad == Some(squad)), "{together:?}");
    assert!(together[1..].iter().all(|(_, ap)| *ap == 1), "{together:?}");
}
