//! A ruleset's `features:` must list every feature its data configures: data left out would go
//! quietly unplayed.

mod common;

#[test]
fn a_feature_the_data_configures_but_the_list_leaves_out_is_an_error() {
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Lists one feature only.\n\
                 set:\n  features: [deployment]\n";
    let diags = common::extension_diagnostics("few-features", &[("patch.yaml", patch)]);
    let unlisted: Vec<&cav_content::Diagnostic> = diags.iter().filter(|d| d.code == "feature-unlisted").collect();
    let says = |word: &str| unlisted.iter().any(|d| d.message.contains(&format!("the feature `{word}`")));
    for word in ["c3", "flight", "structures", "minefields", "clouds", "seekers", "strikes", "missiles"] {
        assert!(says(word), "`{word}` is configured by the full rules' data: {unlisted:#?}");
    }
    assert!(!says("deployment"), "a listed feature is not reported");
    // Features with nothing in the data to configure them (laid terrain) are not reported either.
    assert!(!says("laid-terrain"));
    let c3 = unlisted.iter().find(|d| d.message.contains("`c3`")).unwrap();
    assert_eq!(c3.hint.as_deref(), Some("add `c3` to `features:`, or remove what configures it"));
    assert!(c3.loc.is_some() && c3.pointer.as_deref() == Some("/features"), "located at the list: {c3:?}");
}
