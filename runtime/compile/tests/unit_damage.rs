//! A unit's damage pool (`damage.unit_pool`): a hit on any model of a unit is the unit's damage,
//! shared out among its models closest to the attacker first (Sythopian Wars, 002 L286-294).

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Event, Game, Rules, SeededDice};

/// Red fires at the far model of blue's squad of two; (the log, damage of near and far) for the
/// first seed whose shot deals damage.
fn shot_at_the_far_model(rules: &Rules) -> (Vec<Event>, u32, u32) {
    let cav = rules.card("test-full-assault-cav").unwrap();
    for seed in 1..200 {
        let mut game =
            Game::new(rules, Board { size: [72.0, 48.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
        let red = game.add_model(cav, 0, P::new(36.0, 10.0), 0.0);
        let near = game.add_model(cav, 1, P::new(30.0, 20.0), 180.0);
        let far = game.add_model(cav, 1, P::new(36.0, 24.0), 180.0);
        game.add_squad("blue squad".into(), "attack".into(), vec![near, far]);
        let mut dice = SeededDice::new(seed);
        let mut log = Vec::new();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        let mut once = Some(cav_rules::Action::fire(far, vec![0]));
        struct Once<'a>(&'a mut Option<cav_rules::Action>);
        impl cav_rules::Controller for Once<'_> {
            fn decide(&mut self, _: &Game, _: usize, _: u32) -> cav_rules::Action {
                self.0.take().unwrap_or_else(cav_rules::Action::pass)
            }
        }
        engine.activate(red, &mut Once(&mut once)).unwrap();
        let (n, f) = (engine.game.models[near].damage, engine.game.models[far].damage);
        if log.iter().any(|e| matches!(e, Event::DamageResult { damage, .. } if *damage > 0)) {
            return (log, n, f);
        }
    }
    panic!("no seed deals damage");
}

#[test]
fn the_model_closest_to_the_attacker_takes_the_units_damage_first() {
    let patch = format!(
        "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A pool.\nset:\n  features: [{}]\n  \
         procedures:\n    damage:\n      unit_pool: {{allocation: closest_to_attacker}}\n",
        cav_rules::game::features::ALL.iter().map(|f| f.word.id()).collect::<Vec<_>>().join(", ")
    );
    let rules = common::extension_rules("pool", &[("patch.yaml", &patch)]);
    let (log, near, far) = shot_at_the_far_model(&rules);
    let dealt: u32 =
        log.iter().filter_map(|e| if let Event::DamageResult { damage, .. } = e { Some(*damage) } else { None }).sum();
    let room = rules.cards[rules.card("test-full-assault-cav").unwrap()].columns as u32;
    assert_eq!(near, dealt.min(room), "{log:#?}");
    assert_eq!(far, dealt.saturating_sub(room), "{log:#?}");
    assert!(log.iter().any(|e| matches!(e, Event::DamageShared { hit: 2, model: 1, .. })));
    // Without the pool the model hit takes it.
    let (_, near, far) = shot_at_the_far_model(&common::full_rules());
    assert_eq!(near, 0);
    assert!(far > 0);
}

/// The Sythopian Wars pack with its ruleset edited: the errors (pointer, code) it gets.
fn sythopian_errors(edit: impl Fn(String) -> String) -> Vec<(String, String)> {
    common::edited_pack_errors("sythopian-wars", "rules/ruleset.yaml", edit)
}

#[test]
fn the_bundled_pool_with_stuns_and_recovery_compiles_clean() {
    assert_eq!(sythopian_errors(|s| s), Vec::<(String, String)>::new());
}

#[test]
fn a_pool_configures_the_unit_damage_feature_a_features_list_must_name() {
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A pool.\nset:\n  procedures:\n    \
                 damage:\n      unit_pool: {allocation: closest_to_attacker}\n";
    let diags = common::extension_diagnostics("pool", &[("patch.yaml", patch)]);
    let unlisted = diags.iter().any(|d| d.code == "feature-unlisted" && d.message.contains("`unit-damage`"));
    assert!(unlisted, "{diags:#?}");
}

#[test]
fn a_recovery_test_names_a_roll_kind_and_an_attribute_the_ruleset_declares() {
    let errors = sythopian_errors(|s| {
        s.replace("roll: attribute-test, attribute: resolve", "roll: atribute-test, attribute: resolv")
            .replace("state: stunned", "state: stuned")
    });
    let at = |ptr: &str| errors.iter().any(|(p, _)| p == ptr);
    assert!(at("/procedures/damage/unit_pool/leftover/recovery/roll"), "{errors:#?}");
    assert!(at("/procedures/damage/unit_pool/leftover/recovery/attribute"), "{errors:#?}");
    assert!(at("/procedures/damage/unit_pool/leftover/state"), "{errors:#?}");
}
