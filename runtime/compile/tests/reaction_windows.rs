//! Reaction windows (`reaction_windows:` of a ruleset): the other side reacts out of turn as a
//! model declares an action aimed at one of its models — Infinity's AROs (004 L44-46, L496-526),
//! Sythopian Wars' reaction to shooting (002 L196) — the reacting side's controller choosing.

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Event, Game, Rules, SeededDice};

/// The full rules with one window: the model aimed at may fire back, `resolves` before or after.
fn with_window(resolves: &str, who: &str) -> Rules {
    let patch = format!(
        "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A window.\nset:\n  reaction_windows:\n    \
         - {{id: return-fire, name: Return fire, opens: aimed_at_model, who: {who}, actions: [combat], resolves: \
         {resolves}, once_a_turn: true}}\n"
    );
    common::extension_rules("window", &[("patch.yaml", &patch)])
}

/// Red's CAV fires at blue's, 12" apart; the log of red's activation.
fn red_fires(rules: &Rules) -> Vec<Event> {
    red_fires_twice(rules, 1).0
}

fn red_fires_with(rules: &Rules) -> (Vec<Event>, u32) {
    red_fires_twice(rules, 1)
}

/// Red's CAV fires at blue's in `activations` activations; the log, and the AP blue owes.
fn red_fires_twice(rules: &Rules, activations: usize) -> (Vec<Event>, u32) {
    let cav = rules.card("test-full-assault-cav").unwrap();
    let mut game = Game::new(rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let red = game.add_model(cav, 0, P::new(36.0, 10.0), 0.0);
    let blue = game.add_model(cav, 1, P::new(36.0, 22.0), 180.0);
    game.add_model(cav, 1, P::new(60.0, 40.0), 180.0); // blue's second model: not aimed at
    let mut dice = SeededDice::new(4);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    for _ in 0..activations {
        let mut red_fires = FireOnce { fire: Some(cav_rules::Action::fire(blue, vec![0])), bot: Default::default() };
        engine.activate(red, &mut red_fires).unwrap();
    }
    let owed = engine.game.models[blue].ap_owed;
    (log, owed)
}

/// Fires once, then passes; reacts as the bot does (fire back with every direct shot).
struct FireOnce {
    fire: Option<cav_rules::Action>,
    bot: cav_rules::bot::Bot,
}

impl cav_rules::Controller for FireOnce {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> cav_rules::Action {
        self.fire.take().unwrap_or_else(cav_rules::Action::pass)
    }
    fn react(&mut self, g: &Game, window: usize, reactor: usize, actor: usize) -> Option<cav_rules::Action> {
        self.bot.react(g, window, reactor, actor)
    }
}

fn order(log: &[Event]) -> Vec<(usize, &'static str)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Reacted { model, .. } => Some((*model, "reacts")),
            Event::Attack { model, .. } => Some((*model, "attacks")),
            _ => None,
        })
        .collect()
}

#[test]
fn the_model_aimed_at_fires_back_first_in_a_window_that_resolves_before() {
    let log = red_fires(&with_window("before", "target"));
    let o = order(&log);
    assert_eq!(o.first(), Some(&(1, "reacts")), "{o:?}");
    let first_red = o.iter().position(|x| *x == (0, "attacks")).unwrap();
    let first_blue = o.iter().position(|x| *x == (1, "attacks")).unwrap();
    assert!(first_blue < first_red, "{o:?}");
    // Only the model aimed at reacts.
    assert!(!o.iter().any(|(m, _)| *m == 2), "{o:?}");
}

#[test]
fn after_the_declared_action_in_a_window_that_resolves_after() {
    let o = order(&red_fires(&with_window("after", "target")));
    let last_red = o.iter().rposition(|x| *x == (0, "attacks")).unwrap();
    let react = o.iter().position(|x| *x == (1, "reacts")).unwrap();
    assert!(last_red < react && o.last().unwrap().0 == 1, "{o:?}");
}

#[test]
fn every_enemy_in_sight_may_react_in_an_in_sight_window() {
    let o = order(&red_fires(&with_window("before", "in_sight")));
    assert!(o.contains(&(1, "reacts")) && o.contains(&(2, "reacts")), "{o:?}");
}

#[test]
fn without_a_window_nobody_reacts() {
    let o = order(&red_fires(&common::full_rules()));
    assert!(o.iter().all(|(m, _)| *m == 0), "{o:?}");
}

#[test]
fn a_reaction_is_owed_by_the_next_activation_and_comes_once_a_turn() {
    let rules = with_window("before", "target");
    let (log, owed) = red_fires_twice(&rules, 2);
    let reactions = log.iter().filter(|e| matches!(e, Event::Reacted { .. })).count();
    assert_eq!(reactions, 1, "once_a_turn: {:?}", order(&log));
    assert_eq!(owed, rules.action_costs["combat"]);
}

/// A reaction the rules refuse (an action type the window does not offer) is said and does not
/// happen; the game goes on.
#[test]
fn a_refused_reaction_is_said_and_the_game_goes_on() {
    struct AlwaysFire(bool);
    impl cav_rules::Controller for AlwaysFire {
        fn decide(&mut self, _: &Game, _: usize, _: u32) -> cav_rules::Action {
            if std::mem::replace(&mut self.0, true) {
                cav_rules::Action::pass()
            } else {
                cav_rules::Action::fire(1, vec![0])
            }
        }
        fn react(&mut self, _: &Game, _: usize, _: usize, actor: usize) -> Option<cav_rules::Action> {
            Some(cav_rules::Action::fire(actor, vec![0]))
        }
    }
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A window.\nset:\n  reaction_windows:\n    \
                 - {id: dodge, name: Dodge, opens: aimed_at_model, who: target, actions: [move], resolves: before}\n";
    let rules = common::extension_rules("window", &[("patch.yaml", patch)]);
    let cav = rules.card("test-full-assault-cav").unwrap();
    let mut game =
        Game::new(&rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let red = game.add_model(cav, 0, P::new(36.0, 10.0), 0.0);
    game.add_model(cav, 1, P::new(36.0, 22.0), 180.0);
    let mut dice = SeededDice::new(4);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.activate(red, &mut AlwaysFire(false)).expect("a refused reaction does not stop the game");
    assert!(log.iter().any(
        |e| matches!(e, Event::Forbidden { model: 1, what: "reaction", reason } if reason.contains("offers no combat"))
    ));
    assert!(!log.iter().any(|e| matches!(e, Event::Reacted { .. })));
    assert!(log.iter().any(|e| matches!(e, Event::Attack { model: 0, .. })), "red's attack goes on");
}

/// Paid from the pool, a reaction counts as one of its side's activations (002 L154); free, it
/// costs nothing (Infinity's AROs).
#[test]
fn a_reaction_may_be_paid_from_the_pool_or_be_free() {
    let rules = |cost: &str, pooled: bool| {
        let order = if pooled {
            "  turn_order: {scheme: alternating, pool: {name: command point, per_side: 3}, first: side_order}\n"
        } else {
            ""
        };
        let remove = if pooled { "remove: [/draw_deck]\n" } else { "" };
        let patch = format!(
            "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A window.\n{remove}set:\n{order}  \
             reaction_windows:\n    - {{id: return-fire, name: Return fire, opens: aimed_at_model, who: target, \
             actions: [combat], resolves: before, cost: {cost}}}\n"
        );
        common::extension_diagnostics_and_rules("window", &[("patch.yaml", &patch)])
    };
    let (_, pool) = rules("pool", true);
    let pool = pool.expect("compiles");
    let cav = pool.card("test-full-assault-cav").unwrap();
    let mut game = Game::new(&pool, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    let red = game.add_model(cav, 0, P::new(36.0, 10.0), 0.0);
    let blue = game.add_model(cav, 1, P::new(36.0, 22.0), 180.0);
    game.pools = vec![3, 3];
    let mut dice = SeededDice::new(4);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut red_fires = FireOnce { fire: Some(cav_rules::Action::fire(blue, vec![0])), bot: Default::default() };
    engine.activate(red, &mut red_fires).unwrap();
    assert_eq!(engine.game.pools, vec![3, 2], "blue paid a point");
    assert_eq!(engine.game.models[blue].ap_owed, 0);
    assert!(log.iter().any(|e| matches!(e, Event::PoolSpent { model: 1, left: 2, .. })));
    // A draw deck has no pools to pay from.
    let (diags, _) = rules("pool", false);
    assert!(diags.iter().any(|d| d.message.contains("is paid from a pool, but the turn is a draw deck")), "{diags:#?}");
    // Free: nothing owed.
    let (_, free) = rules("free", false);
    let (log, owed) = red_fires_with(&free.expect("compiles"));
    assert!(log.iter().any(|e| matches!(e, Event::Reacted { model: 1, .. })));
    assert_eq!(owed, 0);
}
