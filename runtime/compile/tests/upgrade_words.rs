//! Upgrade words that act only with something else the document must also have are errors when
//! it lacks it, never quietly ignored: `homes_on` without a munition, `variants` on a munition,
//! `single_use` with nothing to spend; a special attribute's `special_options` without a script.

mod common;

fn codes(extra: &str) -> Vec<String> {
    let doc = format!(
        "kind: upgrade\nid: odd-kit\nname: Odd Kit\ncategory: general\ncost: {{tv: 5}}\n{extra}summary: An invented test upgrade.\n"
    );
    common::extension_diagnostics("odd", &[("upgrades/odd.yaml", &doc)])
        .into_iter()
        .filter(|d| d.severity == cav_content::Severity::Error)
        .map(|d| d.code.to_string())
        .collect()
}

#[test]
fn upgrade_words_missing_their_partner_are_errors() {
    assert_eq!(codes("homes_on: [ecm-active]\n"), vec!["homes-on-without-munition"]);
    assert_eq!(codes("single_use: true\n"), vec!["single-use-with-nothing"]);
    assert_eq!(
        codes("single_use: true\nmodifiers: [{target: combat_roll, value: -1, when: [close-combat]}]\n"),
        Vec::<String>::new()
    );
    let shell = "kind: upgrade\nid: odd-shell\nname: Odd Shell\ncategory: artillery_ammo\nprofiles:\n  - {launcher: heavy-howitzer, rav: 4/4, cost: {tv: 4}}\nvariants: [{id: big, name: Big, tv: 9}]\nsummary: An invented test munition.\n";
    let errors: Vec<String> = common::extension_diagnostics("odd", &[("upgrades/shell.yaml", shell)])
        .into_iter()
        .filter(|d| d.severity == cav_content::Severity::Error)
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(errors, vec!["variants-on-a-munition"]);
}

/// A special attribute's `special_options` are read by its script: without one they would do
/// nothing, so that is an error at their line.
#[test]
fn special_options_without_a_script_are_a_located_error() {
    let doc = "kind: special_attribute\nid: odd-vents\nname: Odd Vents\napplies_to: model\nparameter: none\n\
               special_options: [cloud, line]\nsummary: An invented test special attribute.\n";
    let d = common::extension_diagnostics("odd", &[("special-attributes/odd.yaml", doc)]);
    let e = d
        .iter()
        .find(|d| d.code == "special-options-without-script")
        .unwrap_or_else(|| panic!("no special-options error in {d:#?}"));
    assert_eq!(e.loc.map(|l| l.start.line), Some(6));
}
