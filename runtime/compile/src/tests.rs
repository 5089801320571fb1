//! Scenario tests (`kind: test`) of this ruleset: what they name must exist, so a typo is an error
//! at validate time rather than a failure when the test runs.

use cav_content::diag::did_you_mean;
use cav_format::{DocKind, Document, EventField, EventKind, TestModelState};
use cav_rules::game::actions;
use cav_rules::testing::{END, END_SQUAD_ACTIVATION, NEXT_TURN, PLAY_TURN, SQUAD_ACTIVATION};

use crate::Cx;

pub(crate) fn check(cx: &mut Cx) {
    let names: Vec<&str> = actions::ALL
        .iter()
        .map(|a| a.name())
        .chain([END, NEXT_TURN, PLAY_TURN, SQUAD_ACTIVATION, END_SQUAD_ACTIVATION])
        .collect();
    let cards: Vec<String> = cx.rs.of_kind(DocKind::Model).map(|e| e.id.clone()).collect();
    let states: Vec<String> = cx.rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect();
    let sas: Vec<String> = cx.rs.of_kind(DocKind::SpecialAttribute).map(|e| e.id.clone()).collect();
    let upgrades: Vec<String> = cx.rs.of_kind(DocKind::Upgrade).map(|e| e.id.clone()).collect();
    for e in cx.rs.of_kind(DocKind::Test) {
        let Some(Document::Test(t)) = &e.doc else { continue };
        if !t.runs_under(&cx.rs.id) {
            continue;
        }
        let ids: Vec<String> = t.models.iter().map(|m| m.id.0.clone()).collect();
        // Test ids named in expected model states (at the end, or in a step's check).
        let states_at = |cx: &mut Cx, at: &str, id: &str, want: &TestModelState| {
            cx.index_of(e, &format!("{at}/{id}"), id, &ids, "test model");
            for (k, a) in want.against.iter().enumerate() {
                cx.index_of(e, &format!("{at}/{id}/against/{k}/model"), a.model.as_str(), &ids, "test model");
            }
            if let Some(l) = want.lock.as_ref().filter(|l| l.as_str() != "none") {
                cx.index_of(e, &format!("{at}/{id}/lock"), l.as_str(), &ids, "test model");
            }
        };
        for (i, m) in t.models.iter().enumerate() {
            cx.index_of(e, &format!("/models/{i}/model"), m.model.as_str(), &cards, "model");
            for (j, s) in m.states.iter().enumerate() {
                cx.index_of(e, &format!("/models/{i}/states/{j}"), s.as_str(), &states, "model state");
            }
            for (j, u) in m.upgrades.iter().enumerate() {
                let ptr = match u {
                    cav_format::ForceUpgrade::Plain(_) => format!("/models/{i}/upgrades/{j}"),
                    cav_format::ForceUpgrade::For(_) => format!("/models/{i}/upgrades/{j}/upgrade"),
                };
                cx.index_of(e, &ptr, u.id().as_str(), &upgrades, "upgrade");
            }
            for (j, o) in m.engaged_with.iter().enumerate() {
                cx.index_of(e, &format!("/models/{i}/engaged_with/{j}"), o.as_str(), &ids, "test model");
            }
        }
        for (i, step) in t.steps.iter().enumerate() {
            if let Some(model) = &step.model {
                cx.index_of(e, &format!("/steps/{i}/model"), model.as_str(), &ids, "test model");
            }
            if let Some(target) = &step.target {
                cx.index_of(e, &format!("/steps/{i}/target"), target.as_str(), &ids, "test model");
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
        // Models named in expected events (the schema has checked the kinds and keys).
        for (list, events) in [("events", &t.expect.events), ("absent", &t.expect.absent)] {
            for (k, ev) in events.iter().enumerate() {
                let Some(obj) = ev.0.as_object() else { continue };
                let Some(decl) = obj.get("event").and_then(|v| v.as_str()).and_then(EventKind::find) else { continue };
                for (key, v) in obj {
                    if decl.key(key) == Some(EventField::Model)
                        && let Some(id) = v.as_str()
                    {
                        cx.index_of(e, &format!("/expect/{list}/{k}/{key}"), id, &ids, "test model");
                    }
                }
            }
        }
        for id in t.reactions.keys() {
            cx.index_of(e, &format!("/reactions/{id}"), id.as_str(), &ids, "test model");
        }
        // A C3 pool for a side no model of the test is on would silently never be spent.
        let sides: Vec<String> = t.models.iter().map(|m| m.side.as_str().to_owned()).collect();
        for side in t.c3.keys() {
            cx.index_of(e, &format!("/c3/{side}"), side.as_str(), &sides, "side of a test model");
        }
        for (id, c) in &t.choices {
            cx.index_of(e, &format!("/choices/{id}"), id.as_str(), &ids, "test model");
            for (j, sa) in c.decline.iter().enumerate() {
                cx.index_of(e, &format!("/choices/{id}/decline/{j}"), sa.as_str(), &sas, "special attribute");
            }
        }
    }
}
