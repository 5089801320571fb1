//! Sythopian Wars' coherency (002 L104, L288) in bots' games: the bots never ask for a move the
//! rule refuses, and the rule acts — a stunned model its unit walks away from is lost.

use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
use cav_rules::{Action, Controller, Engine, Event, Game, Rules};

fn rules() -> Rules {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("mods/sythopian-wars")], library: vec![] });
    cav_compile::validate(&mut loaded).into_iter().flatten().next().expect("the Sythopian Wars pack compiles")
}

/// The bot, keeping the reasons of what the rules refused it.
#[derive(Default)]
struct Watched {
    bot: cav_rules::bot::Bot,
    refusals: Vec<String>,
}

impl Controller for Watched {
    fn decide(&mut self, g: &Game, model: usize, ap: u32) -> Action {
        self.bot.decide(g, model, ap)
    }
    fn react(&mut self, g: &Game, window: usize, reactor: usize, actor: usize) -> Option<Action> {
        self.bot.react(g, window, reactor, actor)
    }
    fn refused(&mut self, g: &Game, model: usize, reason: &str) -> bool {
        self.refusals.push(reason.to_owned());
        self.bot.refused(g, model, reason)
    }
}

/// Five line troopers against five raiders (2 HP: leftover damage stuns them), each unit in a
/// line 2" apart, 20" between the lines; the log of a game of bots and what was refused.
fn game(rules: &Rules, seed: u64) -> (Vec<Event>, Vec<String>) {
    let mut game = Game::new(
        rules,
        cav_rules::game::Board { size: [40.0, 40.0], areas: Vec::new() },
        vec!["confederation".into(), "asylumists".into()],
    );
    for (side, card, y) in [(0, "line-trooper", 10.0), (1, "raider", 30.0)] {
        let card = rules.card(card).unwrap();
        let members = (0..5).map(|i| game.add_model(card, side, P::new(16.0 + 2.0 * i as f64, y), 180.0 * side as f64));
        let members = members.collect();
        game.add_squad(format!("unit {side}"), "unit".into(), members);
    }
    let mut dice = cav_rules::SeededDice::new(seed);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut ctrl = Watched::default();
    for _ in 0..6 {
        if engine.play_turn(&mut ctrl).unwrap().is_some() {
            break;
        }
    }
    (log, ctrl.refusals)
}

#[test]
fn bots_keep_coherency_and_a_stunned_model_left_behind_is_lost() {
    let rules = rules();
    let mut lost = 0;
    for seed in 1..40 {
        let (log, refusals) = game(&rules, seed);
        let incoherent: Vec<&String> = refusals.iter().filter(|r| r.contains("coherency")).collect();
        assert!(incoherent.is_empty(), "seed {seed}: the bots asked for moves out of coherency: {incoherent:?}");
        for (i, e) in log.iter().enumerate() {
            if let Event::OutOfCoherency { model, lost: true } = e {
                lost += 1;
                let destroyed = log[i..].iter().any(|e| matches!(e, Event::Destroyed { model: m } if m == model));
                assert!(destroyed, "seed {seed}: model {model} left behind is removed");
            }
        }
        assert!(log.iter().any(|e| matches!(e, Event::Moved { .. })), "seed {seed}: the bots move");
    }
    assert!(lost > 0, "in some game a unit walks away from a stunned model and loses it");
}
