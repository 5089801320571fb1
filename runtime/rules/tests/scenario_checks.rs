//! The scenario-test runner's own checks: a test whose expectation is wrong must fail, with a
//! message that says what differed (so a check that silently passes cannot hide a broken rule).

use std::path::Path;

use cav_format::Test;
use cav_rules::Rules;
use cav_rules::testing::{TestOutcome, run_test};
use serde_json::json;

fn quickstart() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0);
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

/// A Quick-Start test of red and blue facing each other 10" apart, with `more` merged in.
fn test(more: serde_json::Value) -> Test {
    let mut t = json!({
        "id": "t",
        "name": "t",
        "ruleset": "cav-quickstart",
        "models": [
            {"id": "red", "model": "dictator-b", "side": "red", "at": [10, 5]},
            {"id": "blue", "model": "dictator-b", "side": "blue", "at": [10, 16.5], "facing": 180}
        ],
        "steps": [],
        "expect": {}
    });
    for (k, v) in more.as_object().unwrap() {
        t[k] = v.clone();
    }
    serde_json::from_value(t).unwrap()
}

fn failures(rules: &Rules, t: serde_json::Value) -> Vec<String> {
    let out: TestOutcome = run_test(rules, &test(t));
    out.failures
}

fn has(failures: &[String], text: &str) -> bool {
    failures.iter().any(|f| f.contains(text))
}

#[test]
fn checks_that_hold_pass() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({
            "steps": [
                {"model": "red", "do": "move", "to": [10, 3], "ap_left": 1},
                {"check": {"red": {"at": [10, 3], "facing": 180, "mv": 8, "column": 0, "av": 7, "dc": 4, "activated": true}}},
                {"do": "next-turn"},
                {"check": {"red": {"activated": false}}}
            ],
            "expect": {"absent": [{"event": "attack"}], "models": {"red": {"against": [{"model": "blue", "distance": 12, "ccv": 5, "weapon": 0, "rav": 6, "band": "Short", "in_arc": false, "line_of_sight": true, "cover": "none"}]}}}
        }),
    );
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn wrong_action_points_left_fail() {
    let rules = quickstart();
    // Asked again by the engine (1 left) and at the end of the activation (0 left).
    let f = failures(
        &rules,
        json!({"steps": [
            {"model": "red", "do": "move", "to": [10, 3], "ap_left": 0},
            {"model": "red", "do": "move", "to": [10, 2], "ap_left": 1}
        ]}),
    );
    assert!(has(&f, "step 0: `red` has 1 action points left, expected 0"), "{f:?}");
    assert!(has(&f, "step 1: `red` has 0 action points left, expected 1"), "{f:?}");
}

#[test]
fn an_absent_event_that_happens_fails() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({"steps": [{"model": "red", "do": "move", "to": [10, 3]}], "expect": {"absent": [{"event": "moved", "model": "red"}]}}),
    );
    assert!(has(&f, "expect.absent[0]: an event that must not occur did"), "{f:?}");
}

#[test]
fn a_wrong_number_of_events_fails() {
    let rules = quickstart();
    let steps = json!([{"model": "red", "do": "move", "to": [10, 3]}, {"model": "red", "do": "move", "to": [10, 2]}]);
    let f = failures(
        &rules,
        json!({"steps": steps, "expect": {"count": [{"times": 1, "of": {"event": "moved", "model": "red"}}]}}),
    );
    assert!(has(&f, "expect.count[0]: "), "{f:?}");
    assert!(has(&f, "occurs 2 times, expected 1"), "{f:?}");
    let f = failures(
        &rules,
        json!({"steps": steps, "expect": {"count": [{"times": 2, "of": {"event": "moved", "model": "red"}}]}}),
    );
    assert!(f.is_empty(), "{f:?}");
}

#[test]
fn squad_activation_steps_are_checked() {
    let rules = quickstart();
    let f = failures(&rules, json!({"steps": [{"do": "end-squad-activation"}]}));
    assert!(has(&f, "no squad activation is open"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{"do": "squad-activation", "squad": "nobody"}]}));
    assert!(has(&f, "no model is in squad `nobody`"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{"do": "squad-activation"}]}));
    assert!(has(&f, "`squad-activation` needs the `squad:`"), "{f:?}");
}

#[test]
fn unused_drift_directions_fail() {
    let rules = quickstart();
    let f =
        failures(&rules, json!({"drift_directions": [90], "steps": [{"model": "red", "do": "move", "to": [10, 3]}]}));
    assert!(has(&f, "1 of the drift directions were not used"), "{f:?}");
}

#[test]
fn a_step_absent_sees_only_that_steps_events() {
    let rules = quickstart();
    let steps = |absent_on: usize| {
        let mut s =
            json!([{"model": "red", "do": "move", "to": [10, 3]}, {"model": "red", "do": "move", "to": [10, 2]}]);
        s[absent_on]["absent"] = json!([{"event": "moved", "model": "red", "to": [10, 2]}]);
        s
    };
    // The second move happens in the second step, not in the first.
    let f = failures(&rules, json!({"steps": steps(0)}));
    assert!(f.is_empty(), "{f:?}");
    let f = failures(&rules, json!({"steps": steps(1)}));
    assert!(has(&f, "step 1 absent[0]: an event that must not occur in this step did"), "{f:?}");
    // A check step has no events of its own.
    let f = failures(&rules, json!({"steps": [{"check": {"red": {"damage": 0}}, "absent": [{"event": "moved"}]}]}));
    assert!(has(&f, "`absent:` belongs to a step that acts"), "{f:?}");
}

#[test]
fn a_check_between_steps_sees_the_state_at_that_moment() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({"steps": [
            {"model": "red", "do": "move", "to": [10, 3]},
            {"check": {"red": {"at": [10, 5]}}},
            {"model": "red", "do": "move", "to": [10, 2]}
        ]}),
    );
    assert!(has(&f, "step 1 check: `red` position: expected (10, 5), got (10.00, 3.00)"), "{f:?}");
}

#[test]
fn wrong_derived_values_fail() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({"models": [
                {"id": "red", "model": "dictator-b", "side": "red", "at": [10, 5], "damage": 4},
                {"id": "blue", "model": "dictator-b", "side": "blue", "at": [10, 16.5], "facing": 180}
            ],
            "expect": {"models": {"red": {"column": 3, "mv": 8, "against": [
                {"model": "blue", "weapon": 0, "rav": 6, "band": "Medium", "distance": 9},
                {"model": "blue", "band": "Short"}
            ]}}}
        }),
    );
    for text in [
        "`red` damage column: expected 3, got 4",
        "`red` MV: expected 8, got 6",
        "RAV against `blue` (weapon 0): expected 6, got 5",
        "range band to `blue` (weapon 0): expected Medium, got Short",
        "distance to `blue`: expected 9\", got 10.00\"",
        "`band` needs `weapon:`",
    ] {
        assert!(has(&f, text), "{text}: {f:?}");
    }
}

#[test]
fn choices_that_never_come_up_fail() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({
            "choices": {
                "blue": {"defensive_fire": [0], "relocate_strike_point": [1, 1]},
                "red": {"overwatch": {"weapons": [0]}}
            },
            "steps": [{"model": "red", "do": "move", "to": [10, 3]}]
        }),
    );
    assert!(has(&f, "choices.blue.defensive_fire: the engine never offered `blue` defensive fire"), "{f:?}");
    assert!(has(&f, "choices.blue.relocate_strike_point: the engine never asked"), "{f:?}");
    assert!(has(&f, "choices.red.overwatch: `red` never fired on over-watch"), "{f:?}");
}

/// A declined choice that never comes up fails the test: the Dictator-B's MACs carry no optional
/// special attribute, so declining SMART on a MAC attack had no effect and says so.
#[test]
fn declining_an_sa_that_is_never_offered_is_reported() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({
            "models": [
                {"id": "red", "model": "dictator-b", "side": "red", "at": [10, 5]},
                {"id": "blue", "model": "dictator-b", "side": "blue", "at": [10, 16], "facing": 180}
            ],
            "choices": {"red": {"decline": ["smart"]}},
            "dice": [3, 3, 3, 3],
            "steps": [{"model": "red", "do": "fire", "target": "blue", "weapons": [0]}],
            "expect": {"all_dice_used": false}
        }),
    );
    assert!(
        has(&f, "choices.red.decline: declining `smart` had no effect: the engine never asked `red` whether to use it"),
        "{f:?}"
    );
}

#[test]
fn malformed_steps_are_refused() {
    let rules = quickstart();
    let f = failures(&rules, json!({"steps": [{"model": "red", "check": {"red": {"damage": 0}}}]}));
    assert!(has(&f, "a step without `do:` is a check and names no model"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{"model": "red", "do": "next-turn"}]}));
    assert!(has(&f, "`next-turn` is not a model's action"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{"do": "move", "to": [1, 1]}]}));
    assert!(has(&f, "`move` needs the `model:` that acts"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{}]}));
    assert!(has(&f, "a step needs `do:` or `check:`"), "{f:?}");
    let f = failures(&rules, json!({"steps": [{"model": "red", "do": "move", "to": [1, 1], "option": "line"}]}));
    assert!(has(&f, "`option:` belongs to `special`, not `move`"), "{f:?}");
}

#[test]
fn a_relocation_to_an_illegal_point_says_why() {
    let rules = quickstart();
    let f = failures(
        &rules,
        json!({
            "models": [
                {"id": "red", "model": "dictator-b", "side": "red", "at": [24, 5]},
                {"id": "blue", "model": "dictator-b", "side": "blue", "at": [24, 36.5], "facing": 180}
            ],
            "choices": {"blue": {"relocate_strike_point": [0, 0]}},
            "dice": [1, 1, 3, 5],
            "steps": [{"model": "red", "do": "fire", "target": "blue", "weapons": [2], "indirect": true}],
            "expect": {"all_dice_used": false}
        }),
    );
    // (0, 0) lies behind red, which faces +y.
    assert!(has(&f, "moving the fumbled strike point to (0.00, 0.00): outside the attacker's front arc"), "{f:?}");
}

#[test]
fn a_refused_step_must_be_refused_for_its_reason() {
    let rules = quickstart();
    let models = json!([
        {"id": "red", "model": "dictator-b", "side": "red", "at": [24, 5]},
        {"id": "blue", "model": "dictator-b", "side": "blue", "at": [24, 36.5], "facing": 180}
    ]);
    // A legal move where a refusal is expected: the test fails, saying so.
    let f = failures(
        &rules,
        json!({"models": models, "steps": [{"model": "red", "do": "move", "to": [24, 8], "refused": "not enough"}]}),
    );
    assert!(has(&f, "step 0: the rules took the action, expected a refusal containing \"not enough\""), "{f:?}");
    // Refused, but for another reason than the one expected.
    let f = failures(
        &rules,
        json!({"models": models, "steps": [
            {"model": "red", "do": "target-lock", "target": "blue"},
            {"model": "red", "do": "target-lock", "target": "blue", "refused": "infantry"},
            {"model": "red", "do": "move", "to": [24, 8]}
        ]}),
    );
    let why = "step 1: refused because \"a non-repeatable action may be used once per activation\", expected a refusal containing \"infantry\"";
    assert!(has(&f, why), "{f:?}");
    // Refused as expected: the test goes on and passes.
    let f = failures(
        &rules,
        json!({"models": models, "steps": [
            {"model": "red", "do": "target-lock", "target": "blue"},
            {"model": "red", "do": "target-lock", "target": "blue", "refused": "once per activation", "check": {"red": {"lock": "blue"}}},
            {"model": "red", "do": "move", "to": [24, 8], "ap_left": 0}
        ]}),
    );
    assert!(f.is_empty(), "{f:?}");
}
