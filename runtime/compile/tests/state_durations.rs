//! A state's count goes with its duration: `activations:` with `duration: activations`, `turns:`
//! with `duration: turns`; elsewhere the engine would ignore it, so it is an error.

mod common;

#[test]
fn a_count_for_another_duration_is_an_error() {
    let state = "kind: model_state\nid: dizzy\nname: Dizzy\nduration: until_end_of_turn\nturns: 2\nsummary: s\n\
                 ---\nkind: model_state\nid: dazed\nname: Dazed\nduration: turns\nturns: 3\nsummary: s\n\
                 ---\nkind: model_state\nid: groggy\nname: Groggy\nduration: turns\nactivations: 2\nsummary: s\n";
    let diags = common::extension_diagnostics("durations", &[("rules/states.yaml", state)]);
    let said: Vec<(u32, &str)> = diags
        .iter()
        .filter(|d| d.code == "state-duration")
        .map(|d| (d.loc.map_or(0, |l| l.start.line), d.message.as_str()))
        .collect();
    assert_eq!(said.len(), 2, "{diags:#?}");
    assert_eq!(said[0].0, 5);
    assert!(said[0].1.starts_with("`turns:` counts only for `duration: turns`"), "{said:?}");
    assert_eq!(said[1].0, 19);
    assert!(said[1].1.starts_with("`activations:` counts only for `duration: activations`"), "{said:?}");
}
