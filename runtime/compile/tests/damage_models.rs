//! A damage model as data (`procedures.attack.damage_table`, table rows that change attributes,
//! damage weapons and roll on further tables) and action points by an attribute: what compiles,
//! and each mistake a pack can make, located.

mod common;

use cav_rules::compile::AttributeChange;

fn edited(path: &str, edit: impl Fn(&str) -> String) -> Vec<(String, String)> {
    let (diags, _) = common::edited_pack("hex-vehicles", path, |t| edit(&t));
    diags.iter().map(|d| (d.pointer.clone().unwrap_or_default(), d.message.clone())).collect()
}

fn has(diags: &[(String, String)], at: &str, says: &str) -> bool {
    diags.iter().any(|(p, m)| p == at && m.contains(says))
}

/// The seed's tables compile into indexed tables: the attack reads `damage-effects`, whose rows
/// roll on the light and heavy tables, and those on their sub-tables.
#[test]
fn the_seeds_damage_tables_compile() {
    let (diags, rules) = common::edited_pack("hex-vehicles", "rules/ruleset.yaml", |t| t);
    let rules = rules.unwrap_or_else(|| panic!("compiles: {diags:#?}"));
    let dt = rules.attack.as_ref().and_then(|a| a.damage_table.as_ref()).expect("a damage table");
    let table = |id: &str| rules.lookup_tables.iter().position(|t| t.id == id).unwrap_or_else(|| panic!("{id}"));
    assert_eq!(dt.table, table("damage-effects"));
    let effects = &rules.lookup_tables[dt.table];
    assert_eq!(effects.rows[1].roll_on, [(table("light-damage"), 0)]);
    let armor = rules.attributes.iter().position(|a| a == "armor").unwrap();
    assert_eq!(effects.rows[2].attributes, [(armor, AttributeChange::By(-2))]);
    let heavy = &rules.lookup_tables[table("heavy-damage")];
    assert_eq!(heavy.rows[0].roll_on, [(table("fire-control-damage"), 1)]);
    assert_eq!(heavy.rows[5].roll_again, 2);
    let crew = rules.attributes.iter().position(|a| a == "crew").unwrap();
    assert_eq!(heavy.rows[2].attributes, [(crew, AttributeChange::Share { percent: -10, at_least: 1 })]);
    let by = rules.action_points_by.as_ref().expect("actions by crew");
    assert_eq!((by.attribute, by.steps[1], by.steps.last().copied()), (crew, (Some(1), 2), Some((None, 10))));
}

/// A share rounds toward 0 and changes the value by at least `at_least`; the value stays in
/// bounds.
#[test]
fn attribute_changes_stay_in_bounds() {
    let tenth = AttributeChange::Share { percent: -10, at_least: 1 };
    assert_eq!(tenth.apply(2, (0, 100)), 1, "a tenth of 2 is 0: at least one");
    assert_eq!(tenth.apply(30, (0, 100)), 27);
    assert_eq!(tenth.apply(0, (0, 100)), 0, "never under the attribute's min");
    let most = AttributeChange::Share { percent: -75, at_least: 1 };
    assert_eq!(most.apply(3, (0, 100)), 1, "three quarters of 3, rounded toward 0, is 2");
    assert_eq!(AttributeChange::By(-5).apply(4, (0, 12)), 0);
    assert_eq!(AttributeChange::By(i32::MIN).apply(4, (i32::MIN, i32::MAX)), i32::MIN + 4);
}

#[test]
fn a_damage_table_with_damage_or_points_is_an_error() {
    let diags = edited("rules/ruleset.yaml", |t| {
        t.replace("    damage_table:\n", "    points: [{value: 1}]\n    damage_table:\n")
    });
    assert!(has(&diags, "/procedures/attack/points", "damage_table"), "{diags:#?}");
}

#[test]
fn a_damage_table_not_keyed_by_attack_damage_is_an_error() {
    let diags = edited("rules/ruleset.yaml", |t| t.replace("table: damage-effects", "table: light-damage"));
    assert!(has(&diags, "/procedures/attack/damage_table/table", "not keyed"), "{diags:#?}");
}

#[test]
fn rows_rolling_on_tables_not_rolled_and_changing_unknown_or_role_attributes_are_errors() {
    let diags = edited("rules/damage-tables.yaml", |t| {
        t.replace("roll_on: [{table: light-damage}]", "roll_on: [{table: damage-effects}]")
            .replace("attributes: {armor: -2}", "attributes: {armour: -2}")
            .replace(
                "name: Overkill — destroyed\n    effect: {destroyed: true}",
                "name: Overkill\n    effect: {roll_again: 2, attributes: {mp: -1}}",
            )
    });
    assert!(has(&diags, "/rows/1/effect/roll_on/0/table", "not rolled"), "{diags:#?}");
    assert!(has(&diags, "/rows/2/effect/attributes/armour", "armour"), "{diags:#?}");
    assert!(has(&diags, "/rows/3/effect/roll_again", "cannot be rolled again"), "{diags:#?}");
    assert!(has(&diags, "/rows/3/effect/attributes/mp", "has a role"), "{diags:#?}");
}

#[test]
fn action_points_by_steps_that_do_not_rise_are_an_error() {
    let diags = edited("rules/ruleset.yaml", |t| t.replace("{at_most: 3, value: 3}", "{at_most: 1, value: 3}"));
    assert!(has(&diags, "/action_points_by/steps/2/at_most", "do not rise"), "{diags:#?}");
    let diags = edited("rules/ruleset.yaml", |t| t.replace("attribute: crew", "attribute: crews"));
    assert!(has(&diags, "/action_points_by/attribute", "crews"), "{diags:#?}");
}

/// Action points by an attribute stay within `action_points` and cover every value: a step
/// above the most, or a last step with `at_most`, is an error; the largest `action_points` a
/// pack may write compiles without a panic.
#[test]
fn action_points_by_is_bounded() {
    let diags = edited("rules/ruleset.yaml", |t| t.replace("action_points: 10\n", "action_points: 4\n"));
    assert!(has(&diags, "/action_points_by/steps/4/value", "where the ruleset's most is 4"), "{diags:#?}");
    let diags = edited("rules/ruleset.yaml", |t| t.replace("    - {value: 10}\n", "    - {at_most: 300, value: 10}\n"));
    assert!(has(&diags, "/action_points_by/steps/9/at_most", "no action points"), "{diags:#?}");
    let (diags, rules) = common::edited_pack("hex-vehicles", "rules/ruleset.yaml", |t| {
        t.replace("action_points: 10\n", "action_points: 4294967295\n")
    });
    let rules = rules.unwrap_or_else(|| panic!("compiles: {diags:#?}"));
    assert_eq!(rules.action_points_by.unwrap().steps.last().copied(), Some((None, 10)));
}

/// A field a table's procedure does not play is an error at it: the critical table does not
/// roll on, the combat damage table changes no attribute.
#[test]
fn row_fields_a_role_does_not_play_are_errors() {
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/ruleset.yaml", |t| {
        t.replace("  range_bands: hex-range\n", "  range_bands: hex-range\n  critical_damage: light-damage\n")
    });
    let at = |p: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.message.contains("not played"));
    assert!(at("/rows/0/effect/roll_on") && at("/rows/5/effect/roll_again"), "{diags:#?}");
    assert!(!at("/rows/3/effect/move_value"), "what the critical table plays is no error");
}
