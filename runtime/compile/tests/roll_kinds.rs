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
                 \x20   - {id: f2f, roll: save, compare: best_success, ties: both_cancel, critical_wins: true, summary: Face to face.}\n";
    let rules = common::extension_rules("good-rolls", &[("patch.yaml", patch)]);
    let save = &rules.roll_kinds[0];
    assert_eq!((save.id.as_str(), save.dice.to_string()), ("save", "1d20".to_owned()));
    assert!((save.chance(-3, 13) - 0.5).abs() < 1e-12);
    assert_eq!(rules.contests[0].roll, 0);
}
