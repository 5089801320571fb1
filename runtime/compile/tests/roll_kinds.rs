//! A ruleset's `roll_kinds:` and `contests:`: each mistake is an error at its place, all of them
//! reported, and the kinds a ruleset declares compile with their dice and odds.

mod common;

#[test]
fn roll_kind_mistakes_are_errors_at_their_place() {
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Declares rolls with mistakes.\n\
                 set:\n  roll_kinds:\n\
                 \x20   - {id: lock, dice: 1d6, succeeds: at_most, summary: A roll-under test., natural: [{at_least: 6, result: failure}, {result: success}]}\n\
                 \x20   - {id: lock, dice: 1d6, succeeds: at_most, summary: Declared twice.}\n\
                 \x20   - {id: odd, dice: 2d6kh3, succeeds: at_least, summary: Keeps more dice than it rolls.}\n\
                 \x20   - {id: under, dice: 1d6, succeeds: at_most, beyond_reach: max_then_roll_again, summary: Beyond reach under.}\n\
                 \x20 contests:\n\
                 \x20   - {id: f2f, roll: bs-roll, compare: best_success, ties: both_cancel, summary: Names no kind.}\n\
                 \x20   - {id: tot, roll: lock, compare: total, ties: starter, critical_wins: true, summary: Crits by total.}\n";
    let diags = common::extension_diagnostics("bad-rolls", &[("patch.yaml", patch)]);
    let at = |ptr: &str| diags.iter().find(|d| d.pointer.as_deref() == Some(ptr));
    let rowless = at("/roll_kinds/0/natural/1").expect("a natural row naming no result");
    assert!(rowless.message.contains("names no result"), "{rowless:?}");
    assert!(at("/roll_kinds/1/id").is_some_and(|d| d.message.contains("declared twice")), "{diags:#?}");
    let dice = at("/roll_kinds/2/dice").expect("bad dice");
    assert!(dice.message.contains("keeps 3 of 2 dice"), "{dice:?}");
    let contest = at("/contests/0/roll").expect("unknown roll kind");
    assert!(contest.message.contains("bs-roll"), "{contest:?}");
    assert!(at("/roll_kinds/3/beyond_reach").is_some(), "{diags:#?}");
    assert!(at("/contests/1/critical_wins").is_some(), "{diags:#?}");
}

#[test]
fn a_declared_kind_compiles_with_its_odds() {
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Declares a roll.\n\
                 set:\n  roll_kinds:\n\
                 \x20   - {id: save, dice: 1d20, succeeds: at_most, critical_on_target: true, summary: A d20 roll-under save.}\n\
                 \x20 contests:\n\
                 \x20   - {id: f2f, roll: save, compare: best_success, ties: both_cancel, critical_wins: true, summary: Face to face.}\n\
                 remove: [/procedures/rolls/kind, /procedures/rolls/ten_plus_kind, /procedures/rolls/ten_plus_rolls]\n";
    let rules = common::extension_rules("good-rolls", &[("patch.yaml", patch)]);
    let save = &rules.roll_kinds[0];
    assert_eq!((save.id.as_str(), save.dice.to_string()), ("save", "1d20".to_owned()));
    assert!((save.chance(-3, 13) - 0.5).abs() < 1e-12);
    assert_eq!(rules.contests[0].roll, 0);
}

/// CAV's own roll is a roll kind of its ruleset: changing the kind changes what the engine's
/// rolls do, and a kind that cannot judge them is an error where it is named.
#[test]
fn the_engine_rolls_by_the_rulesets_kind() {
    let rules = common::full_rules();
    let k = rules.engine_roll(false).expect("cav-full judges its rolls by a kind");
    assert_eq!(
        (k.id.as_str(), rules.critical_at(0, false), rules.critical_at(-1, false)),
        ("target-point-roll", Some(12), Some(11))
    );
    assert_eq!(rules.critical_bonus().map(|b| b.to_string()), Some("1d6".to_owned()));
    assert_eq!(rules.engine_roll(true).map(|k| k.id.as_str()), Some("ten-plus-roll"));
    // The bots weigh shots by the same kinds: a natural 2 misses a TP of 1, a natural 12 and
    // 2+ on the bonus die reach 14, and a natural 10+ passes any 10+ roll.
    let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(near(rules.engine_chance(1, false, true), 35.0 / 36.0));
    assert!(near(rules.engine_chance(8, false, true), 15.0 / 36.0));
    assert!(near(rules.engine_chance(14, false, true), 5.0 / 216.0));
    assert!(near(rules.engine_chance(14, false, false), 0.0), "no bonus die where no critical is read");
    assert!(near(rules.engine_chance(19, false, true), 0.0));
    assert!(near(rules.engine_chance(15, true, false), 6.0 / 36.0));
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Criticals on 11+, adding 1d3.\n\
                 set:\n  roll_kinds:\n\
                 \x20   - {id: target-point-roll, dice: 2d6, succeeds: at_least, natural: [{at_most: 3, result: fumble}], critical: {at_least: 11, bonus: 1d3}, summary: Invented.}\n\
                 \x20   - {id: ten-plus-roll, dice: 2d6, succeeds: at_least, natural: [{at_least: 9, result: success}], summary: Invented.}\n";
    let rules = common::extension_rules("house-rolls", &[("patch.yaml", patch)]);
    assert_eq!((rules.critical_at(0, false), rules.critical_at(-20, false)), (Some(11), Some(4)));
    assert_eq!(rules.critical_bonus().map(|b| b.to_string()), Some("1d3".to_owned()));
    let v = rules.verdict(rules.standard, 3, 20, Some(8), rules.critical_at(0, false), false);
    assert_eq!((v.fumble, v.success), (true, Some(false)));
    let v = rules.verdict(rules.standard, 9, 5, Some(10), None, true);
    assert_eq!(v.success, Some(true), "the house 10+ kind passes a natural 9");

    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Kinds that cannot judge the engine's rolls.\n\
                 set:\n  roll_kinds:\n\
                 \x20   - {id: target-point-roll, dice: 1d6, succeeds: at_least, critical_on_target: true, summary: Other dice.}\n\
                 \x20   - {id: under, dice: 1d20, succeeds: at_most, critical: {at_least: 20, bonus: 1d6}, summary: A bonus under.}\n\
                 \x20   - {id: ten-plus-roll, dice: 2d6, succeeds: at_least, critical_on_target: true, critical: {at_least: 13}, summary: Out of reach.}\n\
                 \x20 procedures: {rolls: {ten_plus_kind: ten-plus}}\n";
    let diags = common::extension_diagnostics("bad-house-rolls", &[("patch.yaml", patch)]);
    let at = |ptr: &str| diags.iter().find(|d| d.pointer.as_deref() == Some(ptr));
    let said =
        |ptr: &str, needle: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(ptr) && d.message.contains(needle));
    assert!(said("/procedures/rolls/kind", "rolls `1d6`"), "a kind of other dice: {diags:#?}");
    assert!(said("/procedures/rolls/kind", "do not read its `critical_on_target`"), "{diags:#?}");
    let unknown = at("/procedures/rolls/ten_plus_kind").expect("an unknown kind");
    assert!(unknown.message.contains("ten-plus"), "{unknown:?}");
    assert!(at("/roll_kinds/1/critical/bonus").is_some(), "{diags:#?}");
    assert!(at("/roll_kinds/2/critical/at_least").is_some_and(|d| d.message.contains("at most 12")), "{diags:#?}");
}
