//! Model types are the ruleset's words (`model_types:`): Infinity's `trooper` is as good as CAV's
//! `cav`, and a document naming a type its ruleset does not declare is an error at that place —
//! never a list that quietly matches nothing.

mod common;

#[test]
fn a_game_declares_its_own_model_types() {
    assert_eq!(common::edited_pack_errors("infinity-firefight", "rules/ruleset.yaml", |s| s), Vec::new());
    let rules = {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("mods/infinity-firefight")],
            library: vec![],
        });
        cav_compile::validate(&mut loaded).into_iter().flatten().next().expect("the Infinity pack compiles")
    };
    let trooper = rules.type_ix("trooper").expect("declared");
    assert_eq!(rules.type_name(trooper), "trooper");
    assert!(rules.has_trait(trooper, cav_format::ModelTrait::Infantry));
    let card = &rules.cards[rules.card("line-trooper").unwrap()];
    assert_eq!(card.model_type, trooper);
    assert_eq!(rules.type_ix("cav"), None, "no CAV word in another game's rules");
}

#[test]
fn an_undeclared_model_type_is_an_error_where_it_is_named() {
    let errors = common::edited_pack_errors("infinity-firefight", "rules/ruleset.yaml", |s| {
        s.replace("out_of_action: {model_types: [trooper]}", "out_of_action: {model_types: [troopr]}")
    });
    assert_eq!(
        errors,
        vec![("/procedures/damage/out_of_action/model_types/0".to_owned(), "unknown-model-type".to_owned())]
    );
    // A model of an undeclared type: the ruleset does not play it.
    let errors = common::edited_pack_errors("infinity-firefight", "units/troopers.yaml", |s| {
        s.replacen("model_type: trooper", "model_type: cav", 1)
    });
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].0, "/model_type");
}

#[test]
fn every_place_a_full_rules_document_names_a_type_is_checked() {
    let state =
        "kind: model_state\nid: dazed\nname: Dazed\nduration: next_activation\nimmune: [mech]\nsummary: Invented.\n";
    let diags = common::extension_diagnostics("typo", &[("states.yaml", state)]);
    // (Once per ruleset the state joins: the full rules, and the Quick-Start that shares their catalog.)
    let found: Vec<_> =
        diags.iter().filter(|d| d.code == "unknown-model-type" && d.message.contains("`cav-full`")).collect();
    assert_eq!(found.len(), 1, "{diags:#?}");
    assert_eq!(found[0].pointer.as_deref(), Some("/immune/0"));
    assert!(found[0].expected.as_deref().is_some_and(|e| e.contains("quad_cav")), "{:?}", found[0].expected);
}

#[test]
fn a_declared_model_type_is_a_plain_word() {
    let errors = common::edited_pack_errors("infinity-firefight", "rules/ruleset.yaml", |s| {
        s.replace("  trooper: {traits: [infantry]", "  \"<b>\\e[31m\": {traits: [infantry]")
            .replace("model_types: [trooper]", "model_types: []")
    });
    // (The schema holds the keys of `model_types:` to the pattern of a model type word.)
    assert_eq!(errors, vec![("/model_types/<b>\u{1b}[31m".to_owned(), "unknown-field".to_owned())]);
}
