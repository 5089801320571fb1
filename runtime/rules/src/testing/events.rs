//! Expected events: matching the log (partial for mappings), `absent:`, pointers into a failing
//! test, and words a log must not invent.

use super::*;

/// An expected event as the log holds it: checked against the declared event kinds, test ids of
/// models replaced by their indexes, points given as `[x, y]` made `{x, y}`.
pub(super) fn prepare_event(want: &Value, ids: &HashMap<String, usize>) -> Result<Value, String> {
    let Some(obj) = want.as_object() else { return Err(format!("{want} is not a mapping")) };
    let Some(kind) = obj.get("event").and_then(Value::as_str) else { return Err(format!("{want} has no `event:`")) };
    let Some(decl) = EventKind::find(kind) else {
        let known: Vec<&str> = cav_format::EVENT_KINDS.iter().map(|k| k.id).collect();
        return Err(format!("unknown event kind `{kind}` (known: {})", known.join(", ")));
    };
    let mut out = serde_json::Map::new();
    for (key, v) in obj {
        if key == "event" {
            out.insert(key.clone(), v.clone());
            continue;
        }
        let Some(field) = decl.key(key) else {
            let keys: Vec<&str> = decl.keys.iter().map(|(k, _, _)| *k).collect();
            return Err(format!("`{kind}` events have no key `{key}` (they have: {})", keys.join(", ")));
        };
        let v = match (field, v) {
            (EventField::Model | EventField::OptModel, Value::String(name)) => {
                Value::from(*ids.get(name.as_str()).ok_or_else(|| format!("unknown model `{name}`"))?)
            }
            (EventField::Point, Value::Array(xy)) if xy.len() == 2 => serde_json::json!({"x": xy[0], "y": xy[1]}),
            (_, v) => v.clone(),
        };
        out.insert(key.clone(), v);
    }
    Ok(Value::Object(out))
}

/// Where in its test document a failure of [`TestOutcome::failures`] points (a JSON pointer), by
/// the label it starts with: `expect.events[2]`, `expect.absent[0]`, `expect.count[1]`,
/// `step 3 absent[0]`, `step 3 …`, or a model of `expect.models` (`` `blue` … ``).
pub fn failure_pointer(failure: &str) -> Option<String> {
    fn index(s: &str) -> Option<usize> {
        s.split_once(']')?.0.parse().ok()
    }
    for list in ["events", "absent", "count"] {
        if let Some(i) = failure.strip_prefix(&format!("expect.{list}[")).and_then(index) {
            return Some(format!("/expect/{list}/{i}"));
        }
    }
    if let Some(rest) = failure.strip_prefix("step ") {
        let (n, rest) = rest.split_once(|c: char| !c.is_ascii_digit())?;
        let step: usize = n.parse().ok()?;
        if let Some(k) = rest.strip_prefix("absent[").and_then(index) {
            return Some(format!("/steps/{step}/absent/{k}"));
        }
        return Some(format!("/steps/{step}"));
    }
    let id = failure.strip_prefix('`')?.split_once('`')?.0;
    Some(format!("/expect/models/{id}"))
}

/// An event as a test writes it: models by their test ids, not the log's indexes.
pub(super) fn shown(event: &Value, ids: &HashMap<String, usize>) -> String {
    let Some(obj) = event.as_object() else { return event.to_string() };
    let kind = obj.get("event").and_then(Value::as_str).unwrap_or_default();
    let parts: Vec<String> = obj.iter().map(|(k, v)| format!("{k}: {}", shown_value(kind, k, v, ids))).collect();
    format!("{{{}}}", parts.join(", "))
}

/// One value of an event of `kind`, a model by its test id.
pub(super) fn shown_value(kind: &str, key: &str, v: &Value, ids: &HashMap<String, usize>) -> String {
    let model =
        matches!(EventKind::find(kind).and_then(|d| d.key(key)), Some(EventField::Model | EventField::OptModel));
    let name = v.as_u64().and_then(|i| ids.iter().find(|(_, x)| **x as u64 == i)).map(|(n, _)| n.clone());
    match (name, v.as_str()) {
        (Some(n), _) if model => n,
        // A plain word as YAML writes it, unquoted.
        (_, Some(w)) if !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') => w.to_owned(),
        _ => v.to_string(),
    }
}

/// What came nearest an expected event that did not occur: the event of its kind after `from`
/// (else anywhere) matching most of its keys, with the keys that differ marked.
pub(super) fn nearest(want: &Value, actual: &[Value], from: usize, ids: &HashMap<String, usize>) -> String {
    let kind = want.get("event");
    let keys: Vec<(&String, &Value)> = want.as_object().into_iter().flatten().filter(|(k, _)| *k != "event").collect();
    let score = |a: &Value| keys.iter().filter(|(k, v)| a.get(k.as_str()).is_some_and(|x| matches(v, x))).count();
    let best = |range: &[Value]| {
        // The first of the best: `max_by_key` keeps the last, so reverse.
        range.iter().rev().filter(|a| a.get("event") == kind).max_by_key(|a| score(a)).cloned()
    };
    let (found, when) = match best(&actual[from.min(actual.len())..]) {
        Some(a) => (a, "nearest"),
        None => match best(actual) {
            Some(a) => (a, "nearest (only earlier, out of order)"),
            None => {
                let kind = kind.and_then(Value::as_str).unwrap_or("?");
                return format!("    no `{kind}` event occurred (`cav test --verbose` tells the game)");
            }
        },
    };
    let differs: Vec<String> = keys
        .iter()
        .filter(|(k, v)| !found.get(k.as_str()).is_some_and(|x| matches(v, x)))
        .map(|(k, v)| {
            let kind = kind.and_then(Value::as_str).unwrap_or_default();
            let got = found.get(k.as_str()).map_or("nothing".to_owned(), |x| shown_value(kind, k, x, ids));
            format!("{k} is {got}, the test expects {}", shown_value(kind, k, v, ids))
        })
        .collect();
    format!("    {when}: {}\n    differs: {}", shown(&found, ids), differs.join("; "))
}

/// Does `actual` contain every key of `want` with an equal value (objects compared recursively,
/// lists item by item, numbers to [`EVENT_NUMBER`])?
pub(super) fn matches(want: &Value, actual: &Value) -> bool {
    match (want, actual) {
        (Value::Object(w), Value::Object(a)) => w.iter().all(|(k, v)| match a.get(k) {
            Some(x) => matches(v, x),
            // The log leaves out a key the event has no value for (a special action with no
            // target, a hit that nothing changed): `~` or `[]` in a test is that, so an `absent:`
            // of it is not vacuous.
            None => v.is_null() || v.as_array().is_some_and(Vec::is_empty),
        }),
        (Value::Array(w), Value::Array(a)) => w.len() == a.len() && w.iter().zip(a).all(|(w, a)| matches(w, a)),
        (Value::Number(w), Value::Number(a)) => {
            w.as_f64().zip(a.as_f64()).is_some_and(|(w, a)| (w - a).abs() < EVENT_NUMBER)
        }
        (w, a) => w == a,
    }
}

/// Every word of a closed set (`EventField::Word`) the engine wrote is one the event kinds
/// declare: the test schema offers only those, so one missing would make an expectation of it
/// impossible to write and an `absent:` of a misspelt one vacuous. An engine bug, said as one.
pub(super) fn undeclared_words(actual: &[Value], failures: &mut Vec<String>) {
    for a in actual {
        let Some(decl) = a.get("event").and_then(Value::as_str).and_then(EventKind::find) else { continue };
        for (key, field, _) in decl.keys {
            let (EventField::Word(words) | EventField::OptWord(words)) = field else { continue };
            match a.get(*key) {
                Some(Value::String(w)) if words.contains(&w.as_str()) => {}
                None | Some(Value::Null) if matches!(field, EventField::OptWord(_)) => {}
                v => failures.push(format!(
                    "engine: a `{}` event has `{key}: {}`, which cav_format::EVENT_KINDS does not declare ({})",
                    decl.id,
                    v.map_or("nothing".to_owned(), Value::to_string),
                    words.join(", ")
                )),
            }
        }
    }
}

/// Each step's `absent:` against the events of that step alone.
pub(super) fn check_step_absent(
    t: &Test,
    log: &[Event],
    spans: &[Span],
    ids: &HashMap<String, usize>,
    failures: &mut Vec<String>,
) {
    for (i, step) in t.steps.iter().enumerate() {
        if step.absent.is_empty() {
            continue;
        }
        // A refused step, or one never reached, has no events: nothing occurred in it.
        let events: Vec<Value> = spans
            .iter()
            .filter(|s| s.0 == i)
            .flat_map(|&(_, from, to)| &log[from.min(log.len())..to.min(log.len())])
            .filter_map(|e| serde_json::to_value(e).ok())
            .collect();
        check_absent(&step.absent, &events, ids, &format!("step {i} absent"), " in this step", failures);
    }
}

/// None of `nevers` may match an event of `events`; failures are labelled `label[k]`.
pub(super) fn check_absent(
    nevers: &[cav_format::ExpectedEvent],
    events: &[Value],
    ids: &HashMap<String, usize>,
    label: &str,
    scope: &str,
    failures: &mut Vec<String>,
) {
    for (k, never) in nevers.iter().enumerate() {
        let never = match prepare_event(&never.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{label}[{k}]: {e}"));
                continue;
            }
        };
        if let Some(a) = events.iter().find(|a| matches(&never, a)) {
            failures.push(format!("{label}[{k}]: an event that must not occur{scope} did: {}", shown(a, ids)));
        }
    }
}

pub(super) fn check_events(t: &Test, log: &[Event], ids: &HashMap<String, usize>, failures: &mut Vec<String>) {
    let actual: Vec<Value> = log.iter().filter_map(|e| serde_json::to_value(e).ok()).collect();
    undeclared_words(&actual, failures);
    let mut from = 0;
    for (i, want) in t.expect.events.iter().enumerate() {
        let want = match prepare_event(&want.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("expect.events[{i}]: {e}"));
                return;
            }
        };
        match actual[from..].iter().position(|a| matches(&want, a)) {
            Some(p) => from += p + 1,
            None => {
                let after = if i == 0 { String::new() } else { format!(" after expected event {}", i - 1) };
                failures.push(format!(
                    "expect.events[{i}]: not found{after}: {}\n{}",
                    shown(&want, ids),
                    nearest(&want, &actual, from, ids)
                ));
                return;
            }
        }
    }
    check_absent(&t.expect.absent, &actual, ids, "expect.absent", "", failures);
    for (i, c) in t.expect.count.iter().enumerate() {
        let want = match prepare_event(&c.of.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("expect.count[{i}]: {e}"));
                continue;
            }
        };
        let got = actual.iter().filter(|a| matches(&want, a)).count();
        if got != c.times as usize {
            failures.push(format!("expect.count[{i}]: {} occurs {got} times, expected {}", shown(&want, ids), c.times));
        }
    }
}
