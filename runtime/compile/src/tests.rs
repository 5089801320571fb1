//! Scenario tests (`kind: test`) of this ruleset: what they name must exist, so a typo is an error
//! at validate time rather than a failure when the test runs.

use cav_content::diag::did_you_mean;
use cav_format::{DocKind, Document};
use cav_rules::game::actions;

use crate::Cx;

/// What a step may do besides the engine's actions.
const END: &str = "end";

pub(crate) fn check(cx: &mut Cx) {
    let names: Vec<&str> = actions::ALL.iter().map(|a| a.name()).chain([END]).collect();
    let cards: Vec<String> = cx.rs.of_kind(DocKind::Model).map(|e| e.id.clone()).collect();
    let states: Vec<String> = cx.rs.of_kind(DocKind::ModelState).map(|e| e.id.clone()).collect();
    for e in cx.rs.of_kind(DocKind::Test) {
        let Some(Document::Test(t)) = &e.doc else { continue };
        if t.ruleset.as_str() != cx.rs.id {
            continue;
        }
        let ids: Vec<String> = t.models.iter().map(|m| m.id.0.clone()).collect();
        for (i, m) in t.models.iter().enumerate() {
            cx.index_of(e, &format!("/models/{i}/model"), m.model.as_str(), &cards, "model");
            for (j, s) in m.states.iter().enumerate() {
                cx.index_of(e, &format!("/models/{i}/states/{j}"), s.as_str(), &states, "model state");
            }
        }
        for (i, step) in t.steps.iter().enumerate() {
            cx.index_of(e, &format!("/steps/{i}/model"), step.model.as_str(), &ids, "test model");
            if let Some(target) = &step.target {
                cx.index_of(e, &format!("/steps/{i}/target"), target.as_str(), &ids, "test model");
            }
            if !names.contains(&step.action.as_str()) {
                cx.error(
                    e,
                    &format!("/steps/{i}/do"),
                    "unknown-action",
                    format!("the engine has no action `{}`", step.action),
                    &format!("one of {}", names.join(", ")),
                    did_you_mean(step.action.as_str(), names.iter().copied()),
                );
            }
        }
        for id in t.expect.models.keys() {
            cx.index_of(e, &format!("/expect/models/{id}"), id.as_str(), &ids, "test model");
        }
    }
}
