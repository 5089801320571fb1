//! A rule of the whole game (`applies_to: game`) acts through its script and is listed by no
//! model or weapon: each mistake is an error at its place.

mod common;

#[test]
fn a_game_rule_needs_a_script_and_no_carrier() {
    let rule = "kind: special_attribute\nid: thick-fog\nname: Thick Fog\napplies_to: game\nparameter: none\n\
                levels: [{tv: 0}]\nmodifiers: [{target: combat_roll, value: -1}]\nsummary: Fog over the whole table (invented).\n";
    let carrier = "kind: model\nid: test-foggy\nname: Foggy\nfaction: Test\nmodel_type: cav\nchassis: medium\n\
                   task: attack\nmove_class: walker\ntv: 400\ndamage_track:\n  damage_tracks: 5\n  \
                   mv: [6, 6, 5, 5, 4, 4]\n  av: [6, 6, 5, 5, 4, 4]\n  exp: [6, 6, 7, 7, 8, 8]\n  \
                   dc: [3, 2, 1, 0, -1, -1]\nspecial_attributes: [thick-fog]\nsummary: An invented test model.\n";
    let diags = common::extension_diagnostics("fog", &[("fog.yaml", rule), ("model.yaml", carrier)]);
    let find = |code: &str, needle: &str| diags.iter().find(|d| d.code == code && d.message.contains(needle));
    let no_script = find("game-rule", "acts through its script, and it has none").expect("no script");
    assert_eq!(no_script.pointer.as_deref(), Some("/applies_to"));
    let mods = find("game-rule", "`modifiers:`").expect("modifiers");
    assert_eq!(mods.pointer.as_deref(), Some("/modifiers"));
    let placed = find("applies-to", "`thick-fog` is a rule of the whole game").expect("listed by a model");
    assert_eq!(placed.pointer.as_deref(), Some("/special_attributes/0"), "{diags:#?}");
}
