//! A munition profile's key nothing would read is an error (a `strip` without `dropped`), and what a
//! shell leaves where it lands is checked: a minefield it lays, terrain it leaves, their dice.

mod common;

#[test]
fn a_strip_on_a_profile_that_is_not_dropped_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "strips",
        &[(
            "upgrades/flat.yaml",
            "kind: upgrade\nid: flat-strip\nname: Flat Strip\ncategory: pylon_ammo\nprofiles:\n  - launcher: pylon\n    \
             rav: 2/3\n    base_tp: 7\n    strip: {length: 10, width: 2}\nsummary: An invented test munition.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.message.contains("`strip` is the area of a dropped bomb"))
        .unwrap_or_else(|| panic!("no strip error in {diagnostics:#?}"));
    assert_eq!(e.severity, cav_content::Severity::Error);
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}

/// What a shell leaves where it lands: a minefield it lays must be one (`mines:`), and an asset's
/// own attack neither lays nor leaves anything.
#[test]
fn a_munition_that_lays_what_is_not_a_minefield_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "layers",
        &[(
            "upgrades/bunker-shell.yaml",
            "kind: upgrade\nid: bunker-shell\nname: Bunker Shell\ncategory: artillery_ammo\nprofiles:\n  - launcher: medium-howitzer\n    \
             rav: 2/3\n    base_tp: 7\n    lays: bunker\nsummary: An invented test munition.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.code == "lays-minefield")
        .unwrap_or_else(|| panic!("no lays-minefield error in {diagnostics:#?}"));
    assert!(e.message.contains("`bunker`"), "{e:?}");
    assert_eq!(e.severity, cav_content::Severity::Error);
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}

#[test]
fn an_asset_whose_attack_leaves_terrain_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "leavers",
        &[(
            "assets/smoky.yaml",
            "kind: asset\nid: smoky-field\nname: Smoky Field\ncost: {tv: 10}\nplacement: pre_deployment\nattack:\n  rav: 1/1\n  \
             base_tp: 7\n  leaves: {terrain: smoke, lasts: {dice: 1d6, counts: turns}}\nmines: {against: ground, charges: 2}\n\
             summary: An invented test asset.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.code == "munition-only" && d.message.contains("`leaves`"))
        .unwrap_or_else(|| panic!("no leaves error in {diagnostics:#?}"));
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}

#[test]
fn a_dice_expression_a_cloud_cannot_roll_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "foggy",
        &[(
            "upgrades/fog-shell.yaml",
            "kind: upgrade\nid: fog-shell\nname: Fog Shell\ncategory: artillery_ammo\nprofiles:\n  - launcher: medium-howitzer\n    \
             rav: NA\n    leaves: {terrain: smoke, lasts: {dice: 9999d6, counts: activations}}\nsummary: An invented test munition.\n",
        )],
    );
    let e =
        diagnostics.iter().find(|d| d.code == "dice").unwrap_or_else(|| panic!("no dice error in {diagnostics:#?}"));
    assert_eq!(e.loc.map(|l| l.start.line), Some(8));
}

#[test]
fn a_shell_that_lays_a_minefield_and_leaves_smoke_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "mixed",
        &[(
            "upgrades/mixed-shell.yaml",
            "kind: upgrade\nid: mixed-shell\nname: Mixed Shell\ncategory: artillery_ammo\nprofiles:\n  - launcher: medium-howitzer\n    \
             rav: 2/3\n    base_tp: 7\n    lays: anti-personnel-anti-tank-minefield\n    \
             leaves: {terrain: smoke, lasts: {dice: 1d6, counts: turns}}\nsummary: An invented test munition.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.code == "lays-minefield" && d.message.contains("`leaves` beside `lays`"))
        .unwrap_or_else(|| panic!("no lays/leaves error in {diagnostics:#?}"));
    assert_eq!(e.loc.map(|l| l.start.line), Some(10));
}

/// A seeking submunition is a munition's: an asset's own attack (its minefield) cannot seek.
#[test]
fn an_asset_whose_attack_seeks_is_a_located_error() {
    let diagnostics = common::extension_diagnostics(
        "seekers",
        &[(
            "assets/seeking.yaml",
            "kind: asset\nid: seeking-field\nname: Seeking Field\ncost: {tv: 10}\nplacement: pre_deployment\nattack:\n  rav: 4/0\n  \
             base_tp: 7\n  seeks: {model_types: [cav]}\nmines: {against: ground, charges: 2}\n\
             summary: An invented test asset.\n",
        )],
    );
    let e = diagnostics
        .iter()
        .find(|d| d.code == "munition-only" && d.message.contains("`seeks`"))
        .unwrap_or_else(|| panic!("no seeks error in {diagnostics:#?}"));
    assert_eq!(e.loc.map(|l| l.start.line), Some(9));
}
