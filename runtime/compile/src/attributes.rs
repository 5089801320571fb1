//! The attributes a ruleset declares (`attributes:`) and each model's values of them: an id the
//! ruleset does not declare, a value out of its range and one missing without a default are
//! errors at the model's `attributes:`.

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind};
use cav_rules::compile::CardDef;

use crate::Cx;

/// The declared ids, and every card's values in their order.
pub(crate) fn attributes(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    models: &[(String, f::Model)],
    cards: &mut [CardDef],
) -> Vec<String> {
    let mut declared: Vec<&f::AttributeDef> = Vec::new();
    for (i, a) in ruleset.attributes.iter().enumerate() {
        let before = declared.iter().any(|x| x.id == a.id);
        if !crate::procedures::twice(cx, entry, &format!("/attributes/{i}"), "attribute", &a.id.0, before) {
            declared.push(a);
        }
    }
    let ids: Vec<String> = declared.iter().map(|a| a.id.0.clone()).collect();
    for ((id, m), card) in models.iter().zip(cards.iter_mut()) {
        let Some(e) = cx.rs.get(DocKind::Model, id) else { continue };
        for (key, _) in m.attributes.iter().filter(|(k, _)| !ids.contains(&k.0)) {
            let known =
                if ids.is_empty() { "it declares none".to_owned() } else { format!("it declares {}", ids.join(", ")) };
            cx.error(
                e,
                &format!("/attributes/{key}"),
                "attribute",
                format!("attribute `{key}` is not one the ruleset declares ({known})"),
                "an attribute of the ruleset's `attributes:`",
                None,
            );
        }
        card.attributes = declared
            .iter()
            .map(|a| {
                let ptr = format!("/attributes/{}", a.id);
                let Some(v) = m.attributes.get(&a.id).copied().or(a.default) else {
                    cx.error(
                        e,
                        "/attributes",
                        "attribute",
                        format!(
                            "model `{id}` has no `{}` ({}), which the ruleset declares without a default",
                            a.id, a.name
                        ),
                        "a value of every attribute the ruleset declares without a default",
                        None,
                    );
                    return 0;
                };
                if a.min.is_some_and(|min| v < min) || a.max.is_some_and(|max| v > max) {
                    let range = match (a.min, a.max) {
                        (Some(lo), Some(hi)) => format!("from {lo} to {hi}"),
                        (Some(lo), None) => format!("at least {lo}"),
                        (None, Some(hi)) => format!("at most {hi}"),
                        (None, None) => unreachable!(),
                    };
                    cx.error(
                        e,
                        &ptr,
                        "attribute",
                        format!("{} {v} is out of its range", a.name),
                        &format!("{} {range}", a.name),
                        None,
                    );
                }
                v
            })
            .collect();
    }
    ids
}
