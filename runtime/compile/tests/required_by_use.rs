//! A ruleset section the engine reads only for some rules is required only when the ruleset has
//! those rules: left out otherwise, nothing is played from it; left out while the data needs it,
//! an error at the ruleset says which data.

mod common;

fn without(pointers: &[&str]) -> Vec<cav_content::Diagnostic> {
    let remove: Vec<String> = pointers.iter().map(|p| format!("    - {p}\n")).collect();
    let patch = format!(
        "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: Leaves sections out.\nremove:\n{}",
        remove.concat()
    );
    common::extension_diagnostics("lean", &[("patch.yaml", &patch)])
}

#[test]
fn a_section_the_data_needs_is_an_error_where_it_is_missing() {
    let diags = without(&[
        "/procedures/rolls/ten_plus_kind",
        "/procedures/rolls/out_of_ammo_die",
        "/procedures/rolls/na_rav",
        "/procedures/setup/terrain_feature_size",
    ]);
    let says = |needle: &str| diags.iter().any(|d| d.code == "missing-field" && d.message.contains(needle));
    assert!(says("no `ten_plus_kind`"), "{diags:#?}");
    assert!(says("may run out of ammo"), "{diags:#?}");
    assert!(says("an NA RAV"), "{diags:#?}");
    assert!(says("no `terrain_feature_size`"), "{diags:#?}");
}

#[test]
fn sections_no_rule_needs_may_be_left_out() {
    let diags = without(&["/procedures/damage/prone_state"]);
    assert!(diags.iter().all(|d| d.severity != cav_content::Severity::Error), "{diags:#?}");
}

#[test]
fn tables_and_general_procedures_are_needed_only_by_what_calls_on_them() {
    let diags = without(&[
        "/tables/range_bands",
        "/tables/combat_damage",
        "/tables/critical_damage",
        "/procedures/movement/road_cost",
        "/procedures/damage/pilot_fail_state",
        "/procedures/damage/wreck_terrain",
        "/procedures/sight/arc_half_width",
        "/dice/drift",
    ]);
    let says =
        |needle: &str| diags.iter().any(|d| d.severity == cav_content::Severity::Error && d.message.contains(needle));
    assert!(says("carry weapons") && says("no `range_bands` table"), "{diags:#?}");
    assert!(says("no `combat_damage` table"), "{diags:#?}");
    assert!(says("calls for a critical hit"), "{diags:#?}");
    assert!(says("is a road"), "{diags:#?}");
    assert!(says("make pilot checks"), "{diags:#?}");
    assert!(says("leave wrecks"), "{diags:#?}");
    assert!(says("`back-arc`"), "{diags:#?}");
    assert!(says("which drift, but no drift dice"), "{diags:#?}");
}

#[test]
fn an_action_type_offered_without_its_rules_is_an_error() {
    let diags = without(&["/procedures/repair"]);
    assert!(diags.iter().any(|d| d.message.contains("action type `repair` is offered")), "{diags:#?}");
}

#[test]
fn modifier_tables_may_be_left_out() {
    // A roll whose modifier table is left out has no modifiers: nothing else needs it.
    let diags = without(&["/tables/pilot_check_modifiers", "/tables/strike_point_modifiers"]);
    assert!(diags.iter().all(|d| d.severity != cav_content::Severity::Error), "{diags:#?}");
}

/// A ruleset of another game states only what it plays: no tables, no procedures, no draw deck, no
/// CAV card fields (task, TV, armor) — no CAV dummies.
#[test]
fn a_ruleset_of_another_game_needs_no_cav_sections() {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("mini-game");
    std::fs::create_dir_all(pack.join("rules")).unwrap();
    let files = [
        ("pack.yaml", "id: mini-game\nname: Mini\nversion: 0.1.0\nkind: ruleset\ngame: mini\nlicense: CC0-1.0\n"),
        (
            "rules/ruleset.yaml",
            "kind: ruleset\nid: mini-game\nname: Mini\nsummary: Invented.\n\
             turn_order: {scheme: alternating, pool: {name: command point, per_unit: 1}}\naction_points: 1\n\
             dice: {standard: 1d6}\nturn_limit: 6\n\
             model_types: {infantry: {height: 1, base_size: 1}}\n\
             attributes: [{id: move, name: Move, role: move, min: 0, summary: Invented.}]\n",
        ),
        ("rules/faction.yaml", "kind: faction\nid: open\nname: Open\nclass: independent\nsummary: Invented.\n"),
        ("rules/foot.yaml", "kind: move_class\nid: foot\nname: Foot\nsummary: Invented.\n"),
        (
            "rules/move.yaml",
            "kind: action_type\nid: move\nname: Move\ncategory: repeatable\ncost: 1\nsummary: Invented.\n",
        ),
        (
            "rules/trooper.yaml",
            "kind: model\nid: trooper\nname: Trooper\nfaction: Open\nmodel_type: infantry\nmove_class: foot\n\
             damage_track: {damage_tracks: 1}\nattributes: {move: 4}\nsummary: Invented.\n",
        ),
    ];
    for (path, text) in files {
        std::fs::write(pack.join(path), text).unwrap();
    }
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![pack], library: vec![] });
    let compiled = cav_compile::validate(&mut loaded);
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.severity == cav_content::Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let rules = compiled.into_iter().flatten().next().expect("the mini game compiles");
    assert!(rules.bands.is_empty() && rules.combat_mods.is_empty() && rules.proc.damage.prone_state.is_none());
    let trooper = &rules.cards[rules.card("trooper").unwrap()];
    assert_eq!((trooper.task, trooper.tv, trooper.armor.clone()), (None, 0, vec![0, 0]));
    assert_eq!(trooper.movement, [4, 4], "its move allowance: the attribute with `role: move`");
    // No criticals declared: no natural total of the standard 1d6 fumbles or is a critical.
    assert!(rules.engine_roll(false).is_none() && rules.critical_at(0, false).is_none());
    let mut natural = rules.standard.natural_min()..=rules.standard.natural_max();
    assert!(natural.all(|n| {
        let v = rules.verdict(rules.standard, n, n, Some(n), rules.critical_at(0, false), false);
        !v.fumble && !v.crit && v.success == Some(true)
    }));
    // It plays: a pooled turn of bots whose models carry nothing that shoots — they close in.
    let card = rules.card("trooper").unwrap();
    let mut game = cav_rules::Game::new(
        &rules,
        cav_rules::game::Board { size: [24.0, 24.0], areas: Vec::new() },
        vec!["red".into(), "blue".into()],
    );
    let red = game.add_model(card, 0, cav_rules::geom::P::new(12.0, 2.0), 180.0);
    let blue = game.add_model(card, 1, cav_rules::geom::P::new(12.0, 22.0), 0.0);
    let mut dice = cav_rules::SeededDice::new(1);
    let mut log = Vec::new();
    let mut engine = cav_rules::Engine { game, dice: &mut dice, log: &mut log, hooks: &mut cav_rules::hooks::NoHooks };
    assert!(engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap().is_none());
    let apart = engine.game.models[red].pos.dist(engine.game.models[blue].pos);
    assert!(apart < 20.0 - 4.0, "both moved towards the other: {apart}");
}

/// Without a prone state nobody goes prone: the action is refused with the reason, not played
/// without its rule. (Repair, the other such action, is an error at compile time: its action type
/// is a document.)
#[test]
fn going_prone_without_a_prone_state_is_refused() {
    use cav_rules::game::{Board, actions};
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Leaves sections out.\nremove:\n  \
                 - /procedures/damage/prone_state\n";
    let rules = common::extension_rules("lean", &[("patch.yaml", patch)]);
    let mut game = cav_rules::Game::new(
        &rules,
        Board { size: [72.0, 48.0], areas: Vec::new() },
        vec!["red".into(), "blue".into()],
    );
    let cav = rules.card("test-full-assault-cav").unwrap();
    let me = game.add_model(cav, 0, cav_rules::geom::P::new(10.0, 5.0), 0.0);
    let go_prone = actions::find("go-prone").unwrap();
    let refused = go_prone.check(&game, me, &actions::Action::new("go-prone")).unwrap_err();
    assert!(refused.contains("no prone state"), "{refused}");
    // With it, the model goes prone.
    let rules = common::full_rules();
    let mut game = cav_rules::Game::new(
        &rules,
        Board { size: [72.0, 48.0], areas: Vec::new() },
        vec!["red".into(), "blue".into()],
    );
    let me = game.add_model(rules.card("test-full-assault-cav").unwrap(), 0, cav_rules::geom::P::new(10.0, 5.0), 0.0);
    assert_eq!(go_prone.check(&game, me, &actions::Action::new("go-prone")), Ok(()));
}

#[test]
fn a_card_without_armor_in_a_game_with_armor_is_an_error() {
    let model = "kind: model\nid: bare\nname: Bare\nfaction: Test\nmodel_type: cav\nmove_class: walker\n\
                 damage_track: {damage_tracks: 1, mv: 4}\nsummary: Invented.\n";
    let diags = common::extension_diagnostics("bare", &[("bare.yaml", model)]);
    let missing = diags.iter().find(|d| d.message.contains("model `bare` has no `av` (AV)"));
    let missing = missing.unwrap_or_else(|| panic!("{diags:#?}"));
    assert_eq!(missing.pointer.as_deref(), Some("/damage_track"));
}
