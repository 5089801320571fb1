//! What a weapon allows of the card that mounts it (`restriction:` model types, damage tracks,
//! per model, per location, separate): a card breaking it is a located error naming the rule.

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
    diags
        .iter()
        .filter(|d| d.severity == cav_content::Severity::Error && (d.message.contains(text) || d.code == text))
        .count()
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

#[test]
fn a_weapon_only_fits_the_model_types_and_sizes_it_names() {
    // The tank is a vehicle of 8 tracks: a heavy howitzer (CAVs and vehicles of 7+) fits; a light
    // mortar (infantry only) and heavy rockets (20) (9+) do not.
    let fits = "  - {weapon: heavy-howitzer, mount: [T]}\n";
    assert_eq!(errors_with(&diagnostics(fits), "weapon-restriction"), 0);
    let d = diagnostics("  - {weapon: light-mortar, mount: [T]}\n");
    assert_eq!(
        errors_with(
            &d,
            "Light Mortar is mounted on infantry, powered_infantry models only (001 L12909); this model is of type vehicle"
        ),
        1,
        "{d:#?}"
    );
    let d = diagnostics("  - {weapon: heavy-rockets-20, mount: [T]}\n");
    assert_eq!(
        errors_with(&d, "Heavy Rockets (20) needs a model of 9+ damage tracks (001 L13293); this one has 8"),
        1,
        "{d:#?}"
    );
}

#[test]
fn expanded_chassis_lets_one_weapon_two_tracks_heavier_through() {
    // 001 L7279-7297: a 5-track CAV with Expanded Chassis may mount a heavy MAC (7+); a second
    // one is refused.
    let cav = |sas: &str, weapons: &str| {
        let model = format!(
            "kind: model\nid: wide-cav\nname: Wide CAV\nfaction: Test\nmodel_type: cav\nchassis: medium\n\
             task: attack\nmove_class: walker\ntv: 100\ndamage_track:\n  damage_tracks: 5\n  \
             mv: [6, 6, 5, 5, 4, 4]\n  av: [8, 8, 7, 7, 6, 6]\nweapons:\n{weapons}special_attributes: [{sas}]\n\
             summary: An invented test model.\n"
        );
        common::extension_diagnostics("wide", &[("models/wide.yaml", &model)])
    };
    let one = "  - {weapon: heavy-mac, mount: [L]}\n";
    let d = cav("hard", one);
    assert_eq!(
        errors_with(&d, "Heavy MAC needs a model of 7+ damage tracks (001 L12706); this one has 5"),
        1,
        "{d:#?}"
    );
    assert_eq!(errors_with(&cav("hard, expanded-chassis", one), "weapon-restriction"), 0);
    let two = "  - {weapon: heavy-mac, mount: [L]}\n  - {weapon: heavy-mac, mount: [R]}\n";
    let d = cav("hard, expanded-chassis", two);
    assert_eq!(errors_with(&d, "Heavy MAC needs a model of 7+ damage tracks"), 1, "{d:#?}");
}

#[test]
fn mount_keys_on_an_upgrade_are_an_error() {
    let upgrade = "kind: upgrade\nid: wide-plate\nname: Wide Plate\ncategory: general\ncost: {tv: 5}\nrestriction: {per_model: 2}\n\
                   summary: An invented test upgrade.\n";
    let d = common::extension_diagnostics("plates", &[("upgrades/plate.yaml", upgrade)]);
    assert_eq!(
        errors_with(&d, "`restriction.per_model` says how a weapon is mounted; an upgrade has no mounts"),
        1,
        "{d:#?}"
    );
}

/// A card with `special_attributes` (a YAML flow list) and `weapons`.
fn diagnostics_with(special_attributes: &str, weapons: &str) -> Vec<cav_content::Diagnostic> {
    let model = format!(
        "kind: model\nid: turret-tank\nname: Turret Tank\nfaction: Test\nmodel_type: vehicle\nchassis: large\n\
         task: attack\nmove_class: tracked\ntv: 100\ndamage_track:\n  damage_tracks: 8\n  \
         mv: [6, 6, 6, 5, 5, 4, 4, 3, 3]\n  av: [9, 9, 9, 8, 8, 8, 7, 7, 7]\nweapons:\n{weapons}\
         special_attributes: {special_attributes}\nsummary: An invented test model.\n"
    );
    common::extension_diagnostics("turrets", &[("models/tank.yaml", &model)])
}

/// Each Turret level holds two weapons (001 L8604-8606): the `T` mount is the turret's.
#[test]
fn a_turret_holds_two_weapons_per_rating_level() {
    let three = "  - {weapon: light-mac, quantity: 3, mount: [T]}\n";
    let d = diagnostics_with("[{sa: turret, rating: 1}]", three);
    assert_eq!(
        errors_with(
            &d,
            "`turret-tank` has 3 weapon(s) on the T mount, which Turret provides (2 per rating level, 001 L8600); Turret 1 holds 2"
        ),
        1,
        "{d:#?}"
    );
    assert_eq!(errors_with(&diagnostics_with("[{sa: turret, rating: 2}]", three), "mount-capacity"), 0);
    let d = diagnostics_with("[hard]", "  - {weapon: light-mac, mount: [T]}\n");
    assert_eq!(errors_with(&d, "the card has no Turret"), 1, "{d:#?}");
    // Weapons elsewhere need no turret.
    assert_eq!(errors_with(&diagnostics_with("[hard]", "  - {weapon: light-mac, mount: [F]}\n"), "mount-capacity"), 0);
}
