//! The test runner's own tests: event kinds match the engine's events, expected events are typed.

use cav_format::{EVENT_KINDS, EventField};
use serde_json::Value;

use crate::event::{Event, EventDiscriminants, ModApplied, Roll};
use crate::geom::P;

/// One event of every kind, with every optional value present (so its type can be checked).
fn one_of_each() -> Vec<Event> {
    let p = P::new(1.0, 2.0);
    let s = || "x".to_owned();
    let roll = Roll {
        model: 0,
        kind: "combat".into(),
        dice: s().into(),
        natural: vec![3, 4],
        mods: vec![ModApplied { source: s(), value: 1, charge: None }],
        total: 8,
        target: Some(6),
        margin: Some(2),
        success: Some(true),
        critical: Some("success"),
    };
    let all = vec![
        Event::GameStart {
            ruleset: s(),
            scenario: s(),
            seed: Some(1),
            board: [48.0, 48.0],
            hexes: Some("flat"),
            hex_size: Some(1.0),
        },
        Event::TerrainPlaced { terrain: s(), center: p, radius: 1.5 },
        Event::Deployed { model: 0, name: s(), side: s(), at: p, facing: 90.0 },
        Event::TurnStart { turn: 1 },
        Event::Activation { model: 0, ap: 2 },
        Event::Moved { model: 0, from: p, to: p, mv_spent: 3, facing: 0.5 },
        Event::StoodUp { model: 0 },
        Event::Turned { model: 0, facing: 90.0, toward: 1 },
        Event::WentProne { model: 0 },
        Event::TargetLock { model: 0, target: 1 },
        Event::LockShared { model: 0, from: 1, target: 2 },
        Event::Overwatch { model: 0 },
        Event::PoppedUp { model: 0 },
        Event::OverwatchFire { model: 0, target: 1 },
        Event::DefensiveFire { model: 0, target: 1 },
        Event::CloseCombat { model: 0, target: 1, supporters: 1 },
        Event::Attack { model: 0, target: 1, weapon: s(), mode: "direct", distance: 2.5, band: Some(s()) },
        Event::NoAttack { model: 0, target: Some(1), weapon: s(), reason: s() },
        Event::Roll(roll),
        Event::StrikePoint { model: 0, at: p },
        Event::Aimed { model: 0, target: None, weapon: s(), at: p, distance: 1.0, band: s() },
        Event::StrikeCalled { model: 0, strike: s(), at: p, cost: 50, pool_left: 25 },
        Event::Drift { model: 0, from: p, to: p, inches: 7.0 },
        Event::Hit { model: 0, target: 1, weapon: s(), margin: 1, rav: 6, av: 7, penetrated: true, changes: vec![] },
        Event::DamageResult { target: 1, row: s(), damage: 1 },
        Event::OutOfAmmo { model: 0, weapon: s(), saved_by_reserve: true },
        Event::DamageApplied { model: 0, points: 1, column: 1, total: 1 },
        Event::StateGained { model: 0, state: s() },
        Event::StateIgnored { model: 0, state: s(), why: "immune" },
        Event::StateEnded { model: 0, state: s() },
        Event::Critical { model: 0, result: s() },
        Event::MarkerPlaced { source: s(), id: s(), at: p },
        Event::MarkerRemoved { source: s(), id: s() },
        Event::Placed { model: 0, at: p },
        Event::TableResult { model: 0, table: s(), key: 0, result: s() },
        Event::AttributeChanged { model: 0, attribute: s(), value: 0 },
        Event::WeaponDamaged { model: 0, weapon: s(), modifier: 0, lost: false },
        Event::TableRollsCut { model: 0, table: s() },
        Event::Repaired { model: 0, points: 1, column: 0 },
        Event::MissionKill { model: 0, reason: s() },
        Event::HvoTaken { model: 0 },
        Event::HvoDropped { model: 0, at: P::new(1.0, 2.0) },
        Event::Container { number: 1, what: "salvaged", side: Some(s()) },
        Event::Flight { model: 0, what: "landed" },
        Event::StructureWorn { at: P::new(1.0, 2.0), armor_class: 3 },
        Event::StructureAttack { model: 0, weapon: s(), at: P::new(1.0, 2.0), distance: 1.5, band: Some(s()) },
        Event::StructureHit { at: P::new(1.0, 2.0), damage: 1, armor_class: 3, damage_points: 4 },
        Event::StructureCollapsed { at: P::new(1.0, 2.0) },
        Event::Regrouped { squad: s(), joined: s(), kind: s(), models: 4 },
        Event::Towing { model: 0, what: "limbered" },
        Event::Mounted { model: 0, transport: 1 },
        Event::Dismounted { model: 0, transport: 1, at: P::new(1.0, 2.0) },
        Event::Abandoned { model: 0, reason: s() },
        Event::Destroyed { model: 0 },
        Event::OutOfAction { model: 0 },
        Event::TerrainLaid {
            model: 0,
            terrain: s(),
            at: P::new(1.0, 2.0),
            radius: 3.0,
            length: 0.0,
            width: 0.0,
            activations: 2,
            turns: 0,
        },
        Event::Cloud { model: 0, weapon: s(), at: P::new(1.0, 2.0), radius: 2.0, change: "laid" },
        Event::Submunition { model: 0, weapon: s(), at: P::new(1.0, 2.0), radius: 6.0, change: "waits" },
        Event::TerrainLifted { terrain: s(), at: P::new(1.0, 2.0) },
        Event::LeftBoard { model: 0 },
        Event::ActivationEnd { model: 0 },
        Event::TurnEnd { turn: 1 },
        Event::GameEnd { winner: Some(s()), turns: 1, reason: s() },
        Event::ScriptPrint { model: 0, text: s() },
        Event::ScriptEffect {
            point: "combat_tp",
            by: 0,
            source: s(),
            effect: "add_modifier",
            model: Some(1),
            quantity: Some("roll"),
            value: Some(1.0),
            detail: Some(s()),
        },
        Event::Forbidden { model: 0, what: "move", reason: s() },
        Event::SpecialAction { model: 0, target: Some(1) },
        Event::SquadActivation { squad: s(), side: s(), models: 4 },
        Event::PoolFilled { side: s(), pool: s(), points: 3 },
        Event::Reacted { model: 0, target: 1, window: s(), action: "fire" },
        Event::DamageShared { hit: 0, model: 1, points: 2 },
        Event::HeldDamage { unit: s(), points: -2, held: 1 },
        Event::OutOfCoherency { model: 0, lost: true },
        Event::ActivationPassed { side: s() },
        Event::Answered { model: 1, target: 0, answer: s(), weapon: Some(s()) },
        Event::ActionTaken { model: 0, action: s() },
        Event::Melee { model: 0, target: 1, hits: 2, target_hits: 1 },
        Event::Opposed { model: 0, target: 1, contest: s(), standing: 1, theirs_standing: 0 },
        Event::DamagePoints { model: 0, target: 1, rolls: 3, hits: 2, dealing: 1, damage: 2 },
        Event::PoolSpent { side: s(), model: 0, pool: s(), left: 2 },
        Event::C3Spent { side: s(), model: 0, what: "rally".into(), left: 1 },
        Event::ObjectiveScored { side: s(), points: 1, areas: 2 },
        Event::AssetUsed { side: s(), asset: s(), detail: s(), left: 1 },
        Event::CounterBattery { model: 0, target: 1 },
        Event::CloseDefense { model: 0, target: 1 },
    ];
    // A new variant of `Event` must be added above (and to `cav_format::EVENT_KINDS`): this
    // match has no catch-all, so it stops compiling until then.
    for e in &all {
        match e {
            Event::GameStart { .. }
            | Event::TerrainPlaced { .. }
            | Event::Deployed { .. }
            | Event::TurnStart { .. }
            | Event::SquadActivation { .. }
            | Event::PoolFilled { .. }
            | Event::Reacted { .. }
            | Event::DamageShared { .. }
            | Event::HeldDamage { .. }
            | Event::OutOfCoherency { .. }
            | Event::ActivationPassed { .. }
            | Event::Answered { .. }
            | Event::ActionTaken { .. }
            | Event::Melee { .. }
            | Event::Opposed { .. }
            | Event::DamagePoints { .. }
            | Event::PoolSpent { .. }
            | Event::C3Spent { .. }
            | Event::ObjectiveScored { .. }
            | Event::Activation { .. }
            | Event::Moved { .. }
            | Event::StoodUp { .. }
            | Event::Turned { .. }
            | Event::WentProne { .. }
            | Event::TargetLock { .. }
            | Event::LockShared { .. }
            | Event::Overwatch { .. }
            | Event::PoppedUp { .. }
            | Event::OverwatchFire { .. }
            | Event::DefensiveFire { .. }
            | Event::CloseCombat { .. }
            | Event::Attack { .. }
            | Event::NoAttack { .. }
            | Event::Roll(_)
            | Event::StrikePoint { .. }
            | Event::Aimed { .. }
            | Event::StrikeCalled { .. }
            | Event::AssetUsed { .. }
            | Event::CounterBattery { .. }
            | Event::CloseDefense { .. }
            | Event::Drift { .. }
            | Event::Hit { .. }
            | Event::DamageResult { .. }
            | Event::OutOfAmmo { .. }
            | Event::DamageApplied { .. }
            | Event::StateGained { .. }
            | Event::StateEnded { .. }
            | Event::StateIgnored { .. }
            | Event::Critical { .. }
            | Event::Placed { .. }
            | Event::MarkerPlaced { .. }
            | Event::MarkerRemoved { .. }
            | Event::TableResult { .. }
            | Event::AttributeChanged { .. }
            | Event::WeaponDamaged { .. }
            | Event::TableRollsCut { .. }
            | Event::Repaired { .. }
            | Event::MissionKill { .. }
            | Event::Abandoned { .. }
            | Event::Mounted { .. }
            | Event::Towing { .. }
            | Event::Flight { .. }
            | Event::StructureWorn { .. }
            | Event::StructureAttack { .. }
            | Event::StructureHit { .. }
            | Event::StructureCollapsed { .. }
            | Event::Regrouped { .. }
            | Event::HvoTaken { .. }
            | Event::HvoDropped { .. }
            | Event::Container { .. }
            | Event::Dismounted { .. }
            | Event::Destroyed { .. }
            | Event::OutOfAction { .. }
            | Event::TerrainLaid { .. }
            | Event::Cloud { .. }
            | Event::Submunition { .. }
            | Event::TerrainLifted { .. }
            | Event::LeftBoard { .. }
            | Event::ActivationEnd { .. }
            | Event::TurnEnd { .. }
            | Event::GameEnd { .. }
            | Event::ScriptPrint { .. }
            | Event::ScriptEffect { .. }
            | Event::Forbidden { .. }
            | Event::SpecialAction { .. } => {}
        }
    }
    all
}

fn fits(t: EventField, v: &Value) -> bool {
    let point = |v: &Value| v.get("x").is_some_and(Value::is_number) && v.get("y").is_some_and(Value::is_number);
    match t {
        // The log holds the model's index; a test writes its test id.
        EventField::Model | EventField::Int => v.is_i64() || v.is_u64(),
        EventField::Number => v.is_number(),
        EventField::Text => v.is_string(),
        EventField::Bool => v.is_boolean(),
        EventField::Point => point(v),
        EventField::OptInt | EventField::OptModel => v.is_null() || v.is_i64() || v.is_u64(),
        EventField::OptText => v.is_null() || v.is_string(),
        EventField::OptBool => v.is_null() || v.is_boolean(),
        EventField::Ints => v.as_array().is_some_and(|a| a.iter().all(|x| x.is_i64() || x.is_u64())),
        EventField::Numbers => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
        EventField::Word(words) => v.as_str().is_some_and(|w| words.contains(&w)),
        EventField::OptWord(words) => v.is_null() || v.as_str().is_some_and(|w| words.contains(&w)),
        EventField::Mods => v.as_array().is_some_and(|a| {
            a.iter().all(|m| m.get("source").is_some_and(Value::is_string) && m.get("value").is_some_and(Value::is_i64))
        }),
    }
}

/// The event kinds the test schema declares (cav-format) are exactly the ones the engine
/// emits, each with exactly its keys and their types.
#[test]
fn event_kinds_match_the_engine() {
    let events = one_of_each();
    let mut seen = Vec::new();
    for e in &events {
        let v = serde_json::to_value(e).unwrap();
        let obj = v.as_object().unwrap();
        let kind = obj["event"].as_str().unwrap();
        let decl = cav_format::EventKind::find(kind)
            .unwrap_or_else(|| panic!("the engine emits `{kind}` events; declare them in cav_format::EVENT_KINDS"));
        let keys: Vec<&str> = obj.keys().map(String::as_str).filter(|k| *k != "event").collect();
        let declared: Vec<&str> = decl.keys.iter().map(|(k, _, _)| *k).collect();
        assert_eq!(keys, declared, "keys of `{kind}` events: the engine's, then the declared ones");
        for (k, t, _) in decl.keys {
            assert!(fits(*t, &obj[*k]), "`{kind}.{k}` is declared {t:?} but the engine writes {}", obj[*k]);
        }
        seen.push(decl.id);
    }
    for k in EVENT_KINDS {
        assert!(seen.contains(&k.id), "`{}` is declared but the engine has no such event", k.id);
    }
    assert_eq!(seen.len(), EVENT_KINDS.len(), "one sample per kind");
    // Every variant of `Event` has its sample above (so a new one is declared, or this fails).
    use strum::IntoEnumIterator;
    let sampled: Vec<EventDiscriminants> = events.iter().map(EventDiscriminants::from).collect();
    for variant in EventDiscriminants::iter() {
        assert!(sampled.contains(&variant), "`Event::{variant:?}` has no sample in `one_of_each`");
    }
}

#[test]
fn expected_events_are_typed_and_translated() {
    let ids = [("red".to_owned(), 0), ("blue".to_owned(), 1)].into_iter().collect();
    let want = serde_json::json!({"event": "drift", "model": "red", "to": [3, 4]});
    let got = super::prepare_event(&want, &ids).unwrap();
    assert_eq!(got, serde_json::json!({"event": "drift", "model": 0, "to": {"x": 3, "y": 4}}));
    // A roll's `target` is a target point, not a model: left as it is.
    let roll = serde_json::json!({"event": "roll", "target": 7});
    assert_eq!(super::prepare_event(&roll, &ids).unwrap()["target"], 7);
    let e = super::prepare_event(&serde_json::json!({"event": "hitt"}), &ids).unwrap_err();
    assert!(e.contains("unknown event kind `hitt`"), "{e}");
    let e = super::prepare_event(&serde_json::json!({"event": "hit", "tagret": "blue"}), &ids).unwrap_err();
    assert!(e.contains("`hit` events have no key `tagret`"), "{e}");
    let e = super::prepare_event(&serde_json::json!({"event": "hit", "target": "green"}), &ids).unwrap_err();
    assert!(e.contains("unknown model `green`"), "{e}");
}

/// A failure's label leads to the part of the test it is about.
#[test]
fn failures_point_into_their_test() {
    use super::failure_pointer as at;
    assert_eq!(at("expect.events[5]: not found").as_deref(), Some("/expect/events/5"));
    assert_eq!(at("expect.count[1]: x occurs").as_deref(), Some("/expect/count/1"));
    assert_eq!(at("step 3 absent[0]: an event").as_deref(), Some("/steps/3/absent/0"));
    assert_eq!(at("step 12 check: `red` damage").as_deref(), Some("/steps/12"));
    assert_eq!(at("`blue` states: expected [], got [x]").as_deref(), Some("/expect/models/blue"));
    assert_eq!(at("stopped with an error: boom"), None);
}

/// A word the engine writes that the event kinds do not declare fails the test, as an engine bug.
#[test]
fn an_undeclared_word_fails_the_test() {
    let mut failures = Vec::new();
    let ok = serde_json::json!({"event": "attack", "mode": "template"});
    let roll = serde_json::json!({"event": "roll", "critical": null});
    super::undeclared_words(&[ok, roll], &mut failures);
    assert!(failures.is_empty(), "{failures:?}");
    super::undeclared_words(&[serde_json::json!({"event": "attack", "mode": "lance"})], &mut failures);
    assert_eq!(failures.len(), 1);
    assert!(failures[0].starts_with("engine: a `attack` event has `mode: \"lance\"`"), "{failures:?}");
}

#[test]
fn matching_is_partial_for_mappings_and_whole_for_lists() {
    use super::matches;
    let actual = serde_json::json!({"a": 1, "b": {"x": 1.004, "y": 2}, "l": [{"s": "p", "v": 1}]});
    assert!(matches(&serde_json::json!({"b": {"x": 1}}), &actual), "numbers to 0.005");
    assert!(!matches(&serde_json::json!({"b": {"x": 1.01}}), &actual));
    assert!(matches(&serde_json::json!({"l": [{"v": 1}]}), &actual));
    assert!(!matches(&serde_json::json!({"l": []}), &actual), "a list matches in full");
    assert!(!matches(&serde_json::json!({"c": 1}), &actual));
    assert!(matches(&serde_json::json!({"c": null, "d": []}), &actual), "a key the log leaves out is null or empty");
}
