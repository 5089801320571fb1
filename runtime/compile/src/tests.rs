//! Scenario tests (`kind: test`) of this ruleset: what they name must exist, so a typo is an error
//! at validate time rather than a failure when the test runs.

use cav_content::diag::did_you_mean;
use cav_format::{DocKind, Document, EventField, EventKind, TestModelState};
use cav_rules::game::actions;
use cav_rules::testing::{END, END_SQUAD_ACTIVATION, NEXT_TURN, PLAY_TURN, SQUAD_ACTIVATION};

use crate::Cx;
use cav_content::Ruleset;

pub(crate) fn check(cx: &mut Cx) {
    // The ruleset's own action types (`does:`) are taken by their words.
    let own = cav_content::vocabulary::own_actions(cx.rs);
    let names: Vec<&str> = actions::ALL
        .iter()
        .map(|a| a.name())
        .chain([END, NEXT_TURN, PLAY_TURN, SQUAD_ACTIVATION, END_SQUAD_ACTIVATION])
        .chain(own.iter().map(String::as_str))
        .collect();
    let cards: Vec<String> = cx.rs.of_kind(DocKind::Model).map(|e| e.id.clone()).collect();
    let states: Vec<String> = cx.rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect();
    let sas: Vec<String> = cx.rs.of_kind(DocKind::SpecialAttribute).map(|e| e.id.clone()).collect();
    let upgrades: Vec<String> = cx.rs.of_kind(DocKind::Upgrade).map(|e| e.id.clone()).collect();
    let rs = cx.rs;
    let known = std::cell::OnceCell::new();
    for e in cx.rs.of_kind(DocKind::Test) {
        let Some(Document::Test(t)) = e.doc.as_deref() else { continue };
        if !t.runs_under(&cx.rs.id) {
            continue;
        }
        crate::scenarios::check_rules(cx, e, &t.rules);
        let ids: Vec<String> = t.models.iter().map(|m| m.id.0.clone()).collect();
        // Test ids named in expected model states (at the end, or in a step's check).
        let states_at = |cx: &mut Cx, at: &str, id: &str, want: &TestModelState| {
            cx.index_of(e, format_args!("{at}/{id}"), id, &ids, "test model");
            for (k, a) in want.against.iter().enumerate() {
                cx.index_of(e, format_args!("{at}/{id}/against/{k}/model"), a.model.as_str(), &ids, "test model");
            }
            if let Some(l) = want.lock.as_ref().filter(|l| l.as_str() != "none") {
                cx.index_of(e, format_args!("{at}/{id}/lock"), l.as_str(), &ids, "test model");
            }
        };
        for (i, m) in t.models.iter().enumerate() {
            cx.index_of(e, format_args!("/models/{i}/model"), m.model.as_str(), &cards, "model");
            for (j, s) in m.states.iter().enumerate() {
                cx.index_of(e, format_args!("/models/{i}/states/{j}"), s.as_str(), &states, "model state");
            }
            for (j, u) in m.upgrades.iter().enumerate() {
                let ptr = match u {
                    cav_format::ForceUpgrade::Plain(_) => format!("/models/{i}/upgrades/{j}"),
                    cav_format::ForceUpgrade::For(_) => format!("/models/{i}/upgrades/{j}/upgrade"),
                };
                cx.index_of(e, &ptr, u.id().as_str(), &upgrades, "upgrade");
            }
            for (j, o) in m.engaged_with.iter().enumerate() {
                cx.index_of(e, format_args!("/models/{i}/engaged_with/{j}"), o.as_str(), &ids, "test model");
            }
        }
        for (i, step) in t.steps.iter().enumerate() {
            if let Some(model) = &step.model {
                cx.index_of(e, format_args!("/steps/{i}/model"), model.as_str(), &ids, "test model");
            }
            if let Some(target) = &step.target {
                cx.index_of(e, format_args!("/steps/{i}/target"), target.as_str(), &ids, "test model");
            }
            if let Some(action) = &step.action
                && !names.contains(&action.as_str())
            {
                cx.error(
                    e,
                    &format!("/steps/{i}/do"),
                    "unknown-action",
                    format!("the engine has no action `{action}`"),
                    &format!("one of {}", names.join(", ")),
                    did_you_mean(action.as_str(), names.iter().copied()),
                );
            }
            for (id, want) in &step.check {
                states_at(cx, &format!("/steps/{i}/check"), id.as_str(), want);
            }
        }
        for (id, want) in &t.expect.models {
            states_at(cx, "/expect/models", id.as_str(), want);
        }
        // Models and names in expected events (the schema has checked the kinds and keys).
        let mut expected: Vec<(String, &cav_format::ExpectedEvent)> = Vec::new();
        for (list, events) in [("events", &t.expect.events), ("absent", &t.expect.absent)] {
            expected.extend(events.iter().enumerate().map(|(k, ev)| (format!("/expect/{list}/{k}"), ev)));
        }
        expected.extend(t.expect.count.iter().enumerate().map(|(k, c)| (format!("/expect/count/{k}/of"), &c.of)));
        for (i, step) in t.steps.iter().enumerate() {
            expected.extend(step.absent.iter().enumerate().map(|(k, ev)| (format!("/steps/{i}/absent/{k}"), ev)));
        }
        for (at, ev) in expected {
            let Some(obj) = ev.0.as_object() else { continue };
            let Some(decl) = obj.get("event").and_then(|v| v.as_str()).and_then(EventKind::find) else { continue };
            for (key, v) in obj {
                if matches!(decl.key(key), Some(EventField::Model | EventField::OptModel))
                    && let Some(id) = v.as_str()
                {
                    cx.index_of(e, format_args!("{at}/{key}"), id, &ids, "test model");
                }
                if let Some(name) = v.as_str() {
                    named(
                        cx,
                        known.get_or_init(|| named_values(rs)),
                        e,
                        format_args!("{at}/{key}"),
                        key,
                        name,
                        at.contains("absent"),
                    );
                }
            }
        }
        for id in t.reactions.keys() {
            cx.index_of(e, format_args!("/reactions/{id}"), id.as_str(), &ids, "test model");
        }
        // A C3 pool for a side no model of the test is on would silently never be spent.
        let sides: Vec<String> = t.models.iter().map(|m| m.side.as_str().to_owned()).collect();
        for side in t.c3.keys() {
            cx.index_of(e, format_args!("/c3/{side}"), side.as_str(), &sides, "side of a test model");
        }
        for (id, c) in &t.choices {
            cx.index_of(e, format_args!("/choices/{id}"), id.as_str(), &ids, "test model");
            for (j, sa) in c.decline.iter().enumerate() {
                cx.index_of(e, format_args!("/choices/{id}/decline/{j}"), sa.as_str(), &sas, "special attribute");
            }
        }
    }
}

/// Keys of expected events whose text is the name (or id) of a document: `(key, kinds, by id)`.
/// A value no document of the ruleset has could never occur in the log, so an expectation of it
/// would always fail and, worse, an `absent:` of it would always pass without testing anything.
const NAMED: &[(&str, &[DocKind], bool)] = &[
    ("weapon", &[DocKind::Weapon, DocKind::Strike, DocKind::Asset, DocKind::Upgrade], false),
    ("source", &[DocKind::SpecialAttribute, DocKind::Upgrade, DocKind::Weapon, DocKind::Asset, DocKind::Strike], false),
    ("state", &[DocKind::ModelState], false),
    ("terrain", &[DocKind::Terrain], true),
    ("strike", &[DocKind::Strike], false),
    ("asset", &[DocKind::Asset], false),
];

/// The ids or names each key of [`NAMED`] may take, in its order: made once per ruleset.
fn named_values(rs: &Ruleset) -> Vec<Vec<&str>> {
    let of = |kinds: &[DocKind], by_id: bool| {
        kinds.iter().flat_map(|&kind| rs.of_kind(kind)).map(|d| if by_id { d.id.as_str() } else { d.name() }).collect()
    };
    NAMED.iter().map(|(_, kinds, by_id)| of(kinds, *by_id)).collect()
}

/// `known`: [`named_values`].
fn named(
    cx: &mut Cx,
    known: &[Vec<&str>],
    e: &cav_content::Entry,
    ptr: impl std::fmt::Display,
    key: &str,
    value: &str,
    absent: bool,
) {
    let Some(at) = NAMED.iter().position(|(k, _, _)| *k == key) else { return };
    let (_, kinds, by_id) = NAMED[at];
    let names = &known[at];
    if names.contains(&value) {
        return;
    }
    // A munition fired from its launcher is logged as `Launcher (Munition)`.
    let munition = |d: &cav_content::Entry| {
        value
            .strip_suffix(&format!(" ({})", d.name()))
            .is_some_and(|w| cx.rs.of_kind(DocKind::Weapon).any(|x| x.name() == w))
    };
    if key == "weapon" && cx.rs.of_kind(DocKind::Upgrade).any(munition) {
        return;
    }
    let what = if by_id { "id" } else { "name" };
    let consequence = if absent {
        "this `absent:` could never match, so it would pass without testing anything"
    } else {
        "this expectation could never be met"
    };
    let hint = did_you_mean(value, names.iter().copied());
    cx.error(
        e,
        &ptr.to_string(),
        "unknown-name",
        format!("no {} of this ruleset has the {what} `{value}`: {consequence}", kinds_words(kinds)),
        &format!("the {what} of a {} as the log writes it", kinds_words(kinds)),
        hint,
    );
}

fn kinds_words(kinds: &[DocKind]) -> String {
    let words: Vec<String> = kinds.iter().map(|k| k.tag().replace('_', " ")).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}
