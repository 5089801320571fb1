//! A turn paid from pools (`turn_order:`): sides alternating activations (Sythopian Wars' command
//! points, 002 L112-116) or taking whole player turns (Infinity's orders, 004 L52-62), a unit
//! activating as often as the ruleset allows.

use cav_rules::game::Board;
use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
mod common;

use cav_rules::{Engine, Event, Game, Rules, SeededDice};

/// The full rules with the turn paid from pools instead of the draw deck.
fn pooled(turn_order: &str) -> Rules {
    let patch = format!(
        "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A pooled turn.\nremove: [/draw_deck]\n\
         set:\n  turn_order: {turn_order}\n"
    );
    common::extension_rules("pooled", &[("patch.yaml", &patch)])
}

/// Red fields two assault CAVs, blue one, far apart (no shot, no victory in a turn).
fn two_against_one(rules: &Rules) -> Game<'_> {
    let cav = rules.card("test-full-assault-cav").unwrap();
    let mut game = Game::new(rules, Board { size: [72.0, 72.0], areas: Vec::new() }, vec!["red".into(), "blue".into()]);
    game.add_model(cav, 0, P::new(10.0, 2.0), 180.0);
    game.add_model(cav, 0, P::new(20.0, 2.0), 180.0);
    game.add_model(cav, 1, P::new(60.0, 70.0), 0.0);
    game
}

/// Each payment of the turn: (side, the unit's first model, points left).
fn payments(rules: &Rules, seed: u64) -> (Vec<(String, usize, u32)>, Vec<Event>) {
    let mut dice = SeededDice::new(seed);
    let mut log = Vec::new();
    let mut engine = Engine { game: two_against_one(rules), dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    assert!(engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().is_none());
    let paid = log
        .iter()
        .filter_map(|e| match e {
            Event::PoolSpent { side, model, left, .. } => Some((side.clone(), *model, *left)),
            _ => None,
        })
        .collect();
    (paid, log)
}

#[test]
fn sides_alternate_and_a_unit_activates_as_often_as_its_side_pays() {
    let rules = pooled(
        "{scheme: alternating, pool: {name: command point, per_side: 3}, activations_per_unit: 0, first: side_order}",
    );
    let (paid, log) = payments(&rules, 1);
    let r = |m, left| ("red".to_owned(), m, left);
    let b = |left| ("blue".to_owned(), 2, left);
    // Red's least-activated unit each time: the first CAV, the second, the first again.
    assert_eq!(paid, vec![r(0, 2), b(2), r(1, 1), b(1), r(0, 0), b(0)]);
    let filled: Vec<u32> = log
        .iter()
        .filter_map(|e| if let Event::PoolFilled { points, .. } = e { Some(*points) } else { None })
        .collect();
    assert_eq!(filled, vec![3, 3]);
    // Each payment is followed by that unit's activation.
    let activations = log.iter().filter(|e| matches!(e, Event::Activation { .. })).count();
    assert_eq!(activations, 6);
}

#[test]
fn a_side_that_cannot_pay_passes_and_the_others_go_on() {
    // One activation a unit: red's two CAVs and blue's one, then nobody can act; red's third
    // point is never spent.
    let rules = pooled("{scheme: alternating, pool: {name: command point, per_side: 3}, first: side_order}");
    let (paid, _) = payments(&rules, 1);
    assert_eq!(paid, vec![("red".into(), 0, 2), ("blue".into(), 2, 2), ("red".into(), 1, 1)]);
}

#[test]
fn in_player_turns_a_side_spends_all_it_can_before_the_next() {
    // An order per model (004 L52-62), each model acting any number of times.
    let rules =
        pooled("{scheme: player_turns, pool: {name: order, per_model: 2}, activations_per_unit: 0, first: side_order}");
    let (paid, _) = payments(&rules, 1);
    let sides: Vec<&str> = paid.iter().map(|(s, _, _)| s.as_str()).collect();
    assert_eq!(sides, ["red", "red", "red", "red", "blue", "blue"]);
    assert_eq!(paid.iter().filter(|(s, m, _)| s == "red" && *m == 0).count(), 2);
}

#[test]
fn who_goes_first_is_rolled_by_default() {
    let rules = pooled("{scheme: alternating, pool: {name: command point, per_side: 1}}");
    let firsts: std::collections::BTreeSet<String> =
        (1..12).map(|seed| payments(&rules, seed).0[0].0.clone()).collect();
    assert_eq!(firsts.len(), 2, "both sides go first under some seed: {firsts:?}");
}

#[test]
fn a_turn_follows_one_order() {
    let both = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Both.\nset:\n  turn_order: \
                {scheme: alternating, pool: {name: command point, per_side: 1}}\n";
    let diags = common::extension_diagnostics("both", &[("patch.yaml", both)]);
    assert!(diags.iter().any(|d| d.code == "turn-order" && d.message.contains("both")), "{diags:#?}");
    let neither = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Neither.\nremove: [/draw_deck]\n";
    let diags = common::extension_diagnostics("neither", &[("patch.yaml", neither)]);
    assert!(diags.iter().any(|d| d.code == "turn-order" && d.message.contains("says nothing")), "{diags:#?}");
}

#[test]
fn a_draw_deck_handler_under_a_pooled_turn_is_a_warning() {
    // The full rules' orbital drop acts as the draw deck is built; a pooled turn has none. (The
    // warning is at the library's ruleset document, so `cav validate` of the mod does not show
    // it: the ruleset's own compile says it.)
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("pooled");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: pooled\nname: pooled\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Pooled.\nremove: [/draw_deck]\nset:\n  \
                 turn_order: {scheme: alternating, pool: {name: command point, per_side: 1}}\n";
    std::fs::write(pack.join("patch.yaml"), patch).unwrap();
    let loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![pack], library: vec![root.join("content")] });
    let compiled = cav_compile::compile(loaded.ruleset("cav-full").unwrap());
    assert!(compiled.rules.is_some());
    let w =
        compiled.diagnostics.iter().find(|d| d.message.contains("`draw_deck` handler never runs")).expect("a warning");
    assert_eq!(w.severity, cav_content::Severity::Warning);
}

#[test]
fn a_pool_is_capped_whatever_a_pack_says() {
    let rules = pooled("{scheme: alternating, pool: {name: order, per_side: 1000, per_unit: 100, per_model: 100}}");
    let (_, log) = payments(&rules, 1);
    let filled: Vec<u32> = log
        .iter()
        .filter_map(|e| if let Event::PoolFilled { points, .. } = e { Some(*points) } else { None })
        .collect();
    assert_eq!(filled, vec![cav_format::limits::MAX_POOL; 2]);
}
