//! What a weapon allows of the card that mounts it (`restriction: per_model, per_location,
//! separate`): a card breaking it is a located error naming the rule.

mod common;

/// Diagnostics of a pack holding one model whose `weapons:` are `weapons` (YAML lines).
fn diagnostics(weapons: &str) -> Vec<cav_content::Diagnostic> {
    let model = format!(
        "kind: model\nid: guns-tank\nname: Gun Tank\nfaction: Test\nmodel_type: vehicle\nchassis: large\n\
         task: attack\nmove_class: tracked\ntv: 100\ndamage_track:\n  damage_tracks: 8\n  \
         mv: [6, 6, 6, 5, 5, 4, 4, 3, 3]\n  av: [9, 9, 9, 8, 8, 8, 7, 7, 7]\nweapons:\n{weapons}\
         summary: An invented test model.\n"
    );
    common::extension_diagnostics("guns", &[("models/tank.yaml", &model)])
}

fn errors_with(diags: &[cav_content::Diagnostic], text: &str) -> usize {
    diags.iter().filter(|d| d.severity == cav_content::Severity::Error && d.message.contains(text)).count()
}

#[test]
fn two_cannons_in_one_location_are_refused_one_each_is_not() {
    let twice = "  - {weapon: light-cannon, mount: [F]}\n  - {weapon: heavy-cannon, mount: [F]}\n";
    let d = diagnostics(twice);
    assert_eq!(errors_with(&d, "at most 1 Cannon in any one location (001 L11810); 2 are mounted at F"), 1, "{d:#?}");
    let spread = "  - {weapon: light-cannon, mount: [F]}\n  - {weapon: heavy-cannon, mount: [T]}\n";
    assert_eq!(errors_with(&diagnostics(spread), "in any one location"), 0);
}

#[test]
fn howitzers_are_counted_and_mounted_separately() {
    let four = "  - {weapon: light-howitzer, mount: [F]}\n".repeat(4);
    let d = diagnostics(&four);
    assert_eq!(errors_with(&d, "a model mounts at most 3 Light Howitzer (001 L12240); this one has 4"), 1, "{d:#?}");
    let three = "  - {weapon: light-howitzer, mount: [F]}\n".repeat(3);
    assert_eq!(errors_with(&diagnostics(&three), "Light Howitzer"), 0);
    let pair = "  - {weapon: medium-howitzer, quantity: 2, mount: [L, R]}\n";
    let d = diagnostics(pair);
    assert_eq!(errors_with(&d, "each Medium Howitzer is mounted on its own, never as a matching set"), 1, "{d:#?}");
    let located = d.iter().find(|x| x.message.contains("mounted on its own")).unwrap();
    assert_eq!(located.loc.map(|l| l.start.line), Some(15), "at the mount's quantity: {located:#?}");
}
