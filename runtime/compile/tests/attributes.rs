//! A ruleset's `attributes:` and each model's values: an id the ruleset does not declare, a value
//! out of range and one missing without a default are errors at the model, all reported; the
//! values compile into every card in the declared order.

mod common;

const DECLARE: &str = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Declares attributes.\n\
    set:\n  attributes:\n\
    \x20   - {id: resolve, name: Resolve, min: 1, max: 6, summary: Nerve and aim.}\n\
    \x20   - {id: hp, name: Hit Points, default: 1, summary: Points a model takes.}\n";

/// An invented walker (the hook gallery's) with these attribute values.
fn model(id: &str, attributes: &str) -> String {
    format!(
        "kind: model\nid: {id}\nname: {id}\nfaction: Test\nmodel_type: cav\nchassis: medium\ntask: attack\n\
         move_class: walker\ntv: 400\ndamage_track:\n  damage_tracks: 5\n  mv: [6, 6, 5, 5, 4, 4]\n  \
         av: [6, 6, 5, 5, 4, 4]\n  exp: [6, 6, 7, 7, 8, 8]\n  dc: [3, 2, 1, 0, -1, -1]\nattributes: {attributes}\n\
         summary: An invented test model.\n"
    )
}

#[test]
fn attribute_mistakes_are_errors_at_the_model() {
    let diags = common::extension_diagnostics(
        "bad-attributes",
        &[
            ("patch.yaml", &format!("{DECLARE}    - {{id: resolve, name: Resolve again, summary: Twice.}}\n")),
            ("a.yaml", &model("test-brave", "{resolve: 7}")),
            ("b.yaml", &model("test-odd", "{resolve: 3, nerve: 2}")),
            ("c.yaml", &model("test-none", "{hp: 2}")),
        ],
    );
    let find = |needle: &str| diags.iter().find(|d| d.code == "attribute" && d.message.contains(needle));
    let range = find("Resolve 7 is out of its range").expect("out of range");
    assert_eq!(range.pointer.as_deref(), Some("/attributes/resolve"));
    assert_eq!(range.expected.as_deref(), Some("Resolve from 1 to 6"));
    let unknown = find("attribute `nerve` is not one the ruleset declares (it declares resolve, hp)").expect("unknown");
    assert_eq!(unknown.pointer.as_deref(), Some("/attributes/nerve"));
    assert!(find("model `test-none` has no `resolve` (Resolve)").is_some(), "{diags:#?}");
    assert!(find("model `test-none` has no `hp`").is_none(), "hp has a default");
    let twice = diags.iter().find(|d| d.code == "duplicate-id").expect("declared twice");
    assert_eq!(
        (twice.pointer.as_deref(), twice.message.as_str()),
        (Some("/attributes/2/id"), "attribute `resolve` is declared twice")
    );
}

#[test]
fn values_compile_in_the_declared_order() {
    let declare = DECLARE.replace("min: 1, max: 6,", "default: 3, min: 1, max: 6,");
    let rules = common::extension_rules(
        "good-attributes",
        &[("patch.yaml", &declare), ("a.yaml", &model("test-brave", "{hp: 2, resolve: 5}"))],
    );
    assert_eq!(rules.attributes, ["resolve", "hp"]);
    assert_eq!(rules.cards[rules.card("test-brave").unwrap()].attributes, [5, 2]);
    let plain = common::extension_rules(
        "default-attributes",
        &[("patch.yaml", &declare), ("a.yaml", &model("test-plain", "{}"))],
    );
    assert_eq!(plain.cards[plain.card("test-plain").unwrap()].attributes, [3, 1], "the defaults");
}

/// A modifier row reads an attribute the ruleset declares (`attacker-attribute-<id>`,
/// `defender-attribute-<id>`); one it does not declare is an error where the row names it.
#[test]
fn a_row_reads_only_a_declared_attribute() {
    let table = "kind: modifier_table\nid: nerve-rows\nname: Nerve\nroll: combat_roll\nmodifiers:\n\
        \x20 - {id: a, name: A, value: 1, scale: per_count, condition: attacker-attribute-resolve}\n\
        \x20 - {id: b, name: B, value: 1, condition: defender-attribute-nerve}\n";
    let declare = DECLARE.replace("min: 1, max: 6,", "default: 3, min: 1, max: 6,");
    let diags = common::extension_diagnostics("attribute-rows", &[("patch.yaml", &declare), ("t.yaml", table)]);
    let errors: Vec<_> = diags.iter().filter(|d| d.severity == cav_content::Severity::Error).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].pointer.as_deref(), Some("/modifiers/1/condition"), "{errors:#?}");
    assert!(errors[0].message.contains("defender-attribute-nerve"), "{errors:#?}");
}
