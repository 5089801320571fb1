//! A ruleset's `attributes:` and each model's values: an id the ruleset does not declare, a value
//! out of range and one missing without a default are errors at the model, all reported; the
//! values compile into every card in the declared order, column by column; the full rules' card
//! values (MV, AV, DC, EXP) are attributes with a value per column and an engine role.

mod common;

const DECLARE: &str = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Declares attributes.\n\
    set:\n  attributes:\n\
    \x20   - {id: mv, name: MV, per_column: true, role: move, min: 0, summary: Move value.}\n\
    \x20   - {id: av, name: AV, per_column: true, role: armor, min: 0, summary: Armor value.}\n\
    \x20   - {id: dc, name: DC, per_column: true, role: damage_control, optional: true, summary: Repairs.}\n\
    \x20   - {id: exp, name: EXP, per_column: true, role: experience, optional: true, summary: Pilots.}\n\
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
            (
                "d.yaml",
                &model("test-sunk", "{resolve: 3}").replace("av: [6, 6, 5, 5, 4, 4]", "av: [6, 6, 5, -1, 4, 4]"),
            ),
        ],
    );
    let find = |needle: &str| diags.iter().find(|d| d.code == "attribute" && d.message.contains(needle));
    let range = find("Resolve 7 is out of its range").expect("out of range");
    assert_eq!(range.pointer.as_deref(), Some("/attributes/resolve"));
    assert_eq!(range.expected.as_deref(), Some("Resolve from 1 to 6"));
    // A value of a column is found at its column.
    let column = find("AV -1 is out of its range").expect("a column out of range");
    assert_eq!(column.pointer.as_deref(), Some("/damage_track/av/3"));
    let unknown =
        find("attribute `nerve` is not one ruleset `cav-full` declares with one value (it declares resolve, hp)")
            .expect("unknown");
    assert_eq!(unknown.pointer.as_deref(), Some("/attributes/nerve"));
    assert!(find("model `test-none` has no `resolve` (Resolve)").is_some(), "{diags:#?}");
    assert!(find("model `test-none` has no `hp`").is_none(), "hp has a default");
    let twice = diags.iter().find(|d| d.code == "duplicate-id").expect("declared twice");
    assert_eq!(
        (twice.pointer.as_deref(), twice.message.as_str()),
        (Some("/attributes/6/id"), "attribute `resolve` is declared twice")
    );
}

#[test]
fn values_compile_in_the_declared_order() {
    let declare = DECLARE.replace("min: 1, max: 6,", "default: 3, min: 1, max: 6,");
    let rules = common::extension_rules(
        "good-attributes",
        &[("patch.yaml", &declare), ("a.yaml", &model("test-brave", "{hp: 2, resolve: 5}"))],
    );
    assert_eq!(rules.attributes, ["mv", "av", "dc", "exp", "resolve", "hp"]);
    let brave = &rules.cards[rules.card("test-brave").unwrap()];
    assert_eq!(brave.attributes_at(0), [6, 6, 3, 6, 5, 2]);
    assert_eq!(brave.attributes_at(3), [5, 5, 0, 7, 5, 2], "the fourth column's card values");
    assert_eq!(brave.attributes_at(9), [4, 4, -1, 8, 5, 2], "past the end: the last column");
    // The engine reads its roles from them.
    assert_eq!(
        (brave.movement[2], brave.armor[4], brave.damage_control[5], brave.experience[3]),
        (5, 4, Some(-1), Some(7))
    );
    let plain = common::extension_rules(
        "default-attributes",
        &[("patch.yaml", &declare), ("a.yaml", &model("test-plain", "{}"))],
    );
    assert_eq!(plain.cards[plain.card("test-plain").unwrap()].attributes_at(0)[4..], [3, 1], "the defaults");
}

/// A card value written in the wrong place, under a word the ruleset does not declare, or two
/// attributes with one role: each an error at its place.
#[test]
fn card_value_mistakes_are_errors_at_their_place() {
    let declare = format!(
        "{}    - {{id: speed, name: Speed, role: move, summary: A second mover.}}\n\
         \x20   - {{id: ccv, name: CCV, per_column: true, optional: true, summary: The track's own word.}}\n\
         \x20   - {{id: grit, name: Grit, default: 9, max: 5, summary: A default out of range.}}\n\
         \x20   - {{id: odd, name: Odd, default: 1, optional: true, summary: Both.}}\n",
        DECLARE
            .replace("min: 1, max: 6,", "default: 3, min: 1, max: 6,")
            .replace("role: armor, min: 0,", "role: armor, min: 0, max: 9,")
    );
    let odd = model("test-odd", "{mv: 4}")
        .replace("  exp: [6, 6, 7, 7, 8, 8]\n", "  exq: 6\n  hp: 2\n")
        .replace("av: [6, 6, 5, 5, 4, 4]", "av: [6, 6, 5, 12, 4, 4]");
    let weapon_attr = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A weapon value per column.\n\
        set:\n  weapon_attributes:\n    - {id: heat, name: Heat, per_column: true, summary: Heat.}\n";
    let diags = common::extension_diagnostics(
        "bad-card-values",
        &[("patch.yaml", &declare), ("w.yaml", weapon_attr), ("a.yaml", &odd)],
    );
    let at = |ptr: &str, needle: &str| {
        diags.iter().any(|d| d.code == "attribute" && d.pointer.as_deref() == Some(ptr) && d.message.contains(needle))
    };
    assert!(
        at("/attributes/mv", "attribute `mv` has a value per damage column: write it under `damage_track:`"),
        "{diags:#?}"
    );
    assert!(at("/damage_track/hp", "attribute `hp` has one value: write it under `attributes:`"), "{diags:#?}");
    assert!(
        at(
            "/damage_track/exq",
            "attribute `exq` is not one ruleset `cav-full` declares with a value per damage column (it declares mv, av, dc, exp, ccv)"
        ),
        "{diags:#?}"
    );
    assert!(at("/attributes/6/role", "attribute `speed` takes a role attribute `mv` has already"), "{diags:#?}");
    assert!(at("/weapon_attributes/0/per_column", "only a model's attribute may"), "{diags:#?}");
    assert!(at("/attributes/7/id", "`damage_track.ccv` is the track's own field"), "{diags:#?}");
    assert!(at("/attributes/8/default", "Grit's default 9 is out of its range"), "{diags:#?}");
    assert!(at("/attributes/9/optional", "is optional and has a default"), "{diags:#?}");
    assert!(at("/damage_track/av/3", "AV 12 is out of its range"), "the column's value: {diags:#?}");
    assert!(!diags.iter().any(|d| d.pointer.as_deref() == Some("/attributes/grit")), "a default is the ruleset's");
}

/// The schema holds a ruleset to `limits::MAX_ATTRIBUTES` of each kind (every card keeps a value
/// of each per column), and a damage track's other keys to ids.
#[test]
fn the_schema_bounds_attributes_and_track_keys() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let read = |f: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(root.join("schemas").join(f)).unwrap()).unwrap()
    };
    let ruleset = read("ruleset.schema.json");
    for key in ["attributes", "weapon_attributes"] {
        let max = ruleset["properties"][key]["maxItems"].as_u64();
        assert_eq!(max, Some(cav_format::limits::MAX_ATTRIBUTES as u64), "{key}");
    }
    let model_schema = read("model.schema.json");
    let names = &model_schema["definitions"]["DamageTrack"]["propertyNames"]["anyOf"][1]["pattern"];
    assert_eq!(names.as_str(), Some(cav_format::ID_PATTERN));
    let diags = common::extension_diagnostics(
        "odd-key",
        &[("a.yaml", &model("test-upper", "{}").replace("  dc: [3, 2, 1, 0, -1, -1]\n", "  Dc: 3\n"))],
    );
    assert!(diags.iter().any(|d| d.pointer.as_deref().is_some_and(|p| p.starts_with("/damage_track"))), "{diags:#?}");
}

/// What an upgrade changes in a card value is what rules reading the attribute see: Makeshift
/// Armor's +1 AV and −1 MV (001 L10006) show in the fitted card's `av` and `mv` attributes.
#[test]
fn an_upgrade_changes_the_attribute_the_engine_reads() {
    let mut rules = common::full_rules();
    let mv = rules.attributes.iter().position(|a| a == "mv").expect("the full rules declare MV");
    let av = rules.attributes.iter().position(|a| a == "av").expect("the full rules declare AV");
    let (ix, fitted) = (0..rules.cards.len())
        .find_map(|c| {
            let rules = &mut rules;
            let up = rules.upgrades.iter().position(|u| u.id == "makeshift-armor")?;
            let f = rules.fit(
                c,
                &[cav_rules::compile::Fitting { upgrade: up, weapon: None, choice: None, variant: None, times: 1 }],
            );
            (rules.cards[f].armor != rules.cards[c].armor).then_some((c, f))
        })
        .expect("a card Improved Armor fits");
    let (before, after) = (&rules.cards[ix], &rules.cards[fitted]);
    for col in 0..after.columns {
        assert_eq!(after.attributes_at(col)[av], after.armor[col] as i32);
        assert_eq!(before.attributes_at(col)[av], before.armor[col] as i32);
        assert_eq!(after.attributes_at(col)[mv], after.movement[col] as i32);
    }
    assert!(after.armor[0] > before.armor[0]);
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

/// CAV's RAV is the rulesets' weapon attribute with `role: rav`: its values are the documents'
/// `rav:` pairs, so a number for it, a second one, a model's or a term's is an error at its
/// place; a ruleset without it has every `rav:` a document writes reported.
#[test]
fn the_rav_is_a_declared_weapon_attribute() {
    let rules = common::full_rules();
    let rav = rules.weapon_rav.map(|i| rules.weapon_attributes[i].as_str());
    assert_eq!(rav, Some("rav"));

    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: RAV mistakes.\nset:\n\
                 \x20 weapon_attributes:\n\
                 \x20   - {id: rav, name: RAV, role: rav, default: 3, summary: With a default.}\n\
                 \x20   - {id: pen, name: PEN, role: rav, summary: A second RAV.}\n\
                 \x20   - {id: heft, name: Heft, role: armor, summary: A model's role.}\n\
                 \x20 attributes:\n\
                 \x20   - {id: mv, name: MV, per_column: true, role: move, summary: Move.}\n\
                 \x20   - {id: av, name: AV, per_column: true, role: armor, summary: Armor.}\n\
                 \x20   - {id: dc, name: DC, per_column: true, role: damage_control, optional: true, summary: Repairs.}\n\
                 \x20   - {id: exp, name: EXP, per_column: true, role: experience, optional: true, summary: Pilots.}\n\
                 \x20   - {id: grit, name: Grit, default: 0, role: rav, summary: A weapon's role.}\n";
    let weapon = "kind: weapon\nid: test-spear\nname: Spear\nfire: direct\nrange: 6\nrav: 3/3\n\
                  attributes: {rav: 4}\nsummary: Invented.\n";
    let diags = common::extension_diagnostics("rav-mistakes", &[("patch.yaml", patch), ("spear.yaml", weapon)]);
    let at = |ptr: &str| diags.iter().find(|d| d.code == "attribute" && d.pointer.as_deref() == Some(ptr));
    assert!(at("/weapon_attributes/0/default").is_some_and(|d| d.message.contains("`rav:` of weapons")), "{diags:#?}");
    assert!(at("/weapon_attributes/1/role").is_some_and(|d| d.message.contains("another has already")), "{diags:#?}");
    assert!(at("/weapon_attributes/2/role").is_some(), "{diags:#?}");
    assert!(at("/attributes/4/role").is_some_and(|d| d.message.contains("a weapon's role")), "{diags:#?}");
    let own = at("/attributes/rav").expect("the spear's RAV among its attributes");
    assert!(own.message.contains("the weapon's `rav:`"), "{own:?}");

    // Without the declaration, each `rav:` is an error where it is written.
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: No RAV.\nremove: [/weapon_attributes]\n";
    let diags = common::extension_diagnostics("no-rav", &[("patch.yaml", patch)]);
    let undeclared: Vec<_> =
        diags.iter().filter(|d| d.message.contains("declares no weapon attribute with `role: rav`")).collect();
    assert!(undeclared.iter().any(|d| d.pointer.as_deref() == Some("/rav")), "a weapon's: {undeclared:#?}");
    assert!(
        undeclared
            .iter()
            .any(|d| d.pointer.as_deref().is_some_and(|p| p.starts_with("/weapons/") && p.ends_with("/rav"))),
        "a card's weapon: {undeclared:#?}"
    );
    assert!(
        undeclared.iter().any(|d| d.pointer.as_deref() == Some("/attack/rav")),
        "an asset's attack: {undeclared:#?}"
    );

    // An attribute merely named `rav` (no role) is an attribute like any other: a weapon's value
    // of it is no RAV (only the typed `rav:` places are).
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A plain rav.\n\
                 set:\n  weapon_attributes:\n    - {id: rav, name: Rave, default: 0, summary: Invented.}\n";
    let weapon =
        "kind: weapon\nid: test-spear\nname: Spear\nfire: direct\nrange: 6\nattributes: {rav: 4}\nsummary: Invented.\n";
    let diags = common::extension_diagnostics("plain-rav", &[("patch.yaml", patch), ("spear.yaml", weapon)]);
    let taken: Vec<_> = diags
        .iter()
        .filter(|d| d.pointer.as_deref() == Some("/attributes/rav") && d.message.contains("a RAV is written here"))
        .collect();
    assert!(taken.is_empty(), "{taken:#?}");
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/rav")), "the catalog's RAVs are still reported");
}
