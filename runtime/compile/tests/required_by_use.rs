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
        "/procedures/rolls/ten_plus_natural",
        "/procedures/rolls/out_of_ammo_die",
        "/procedures/rolls/na_rav",
        "/procedures/setup/terrain_feature_size",
    ]);
    let says = |needle: &str| diags.iter().any(|d| d.code == "missing-field" && d.message.contains(needle));
    assert!(says("no `ten_plus_natural`"), "{diags:#?}");
    assert!(says("may run out of ammo"), "{diags:#?}");
    assert!(says("an NA RAV"), "{diags:#?}");
    assert!(says("no `terrain_feature_size`"), "{diags:#?}");
}

#[test]
fn sections_no_rule_needs_may_be_left_out() {
    // Repair rules, left out: the full rules compile, and the repair action is refused.
    let diags = without(&["/procedures/repair"]);
    assert!(diags.iter().all(|d| d.severity != cav_content::Severity::Error), "{diags:#?}");
}
