//! The attributes a ruleset declares for its models (`attributes:`) and its weapons
//! (`weapon_attributes:`), and each model's and weapon's values of them: an id the ruleset does
//! not declare, a value out of its range and one missing without a default are errors at the
//! document's `attributes:`.

use std::collections::BTreeMap;

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind};
use cav_rules::compile::CardDef;

use crate::Cx;

/// The declared ids of models and of weapons, and every card's and mount's values in their order.
pub(crate) fn attributes(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    models: &[(String, f::Model)],
    cards: &mut [CardDef],
) -> (Vec<String>, Vec<String>) {
    let declared = declared(cx, entry, &ruleset.attributes, "attributes", "attribute");
    for ((id, m), card) in models.iter().zip(cards.iter_mut()) {
        let Some(e) = cx.rs.get(DocKind::Model, id) else { continue };
        card.attributes = values(cx, e, &declared, &m.attributes, &format!("model `{id}`"), "attributes");
    }
    let weapon_declared = declared_weapons(cx, entry, ruleset);
    let mut of_weapon: BTreeMap<String, Vec<i32>> = BTreeMap::new();
    for e in cx.rs.of_kind(DocKind::Weapon) {
        let Some(f::Document::Weapon(w)) = &e.doc else { continue };
        let v = values(cx, e, &weapon_declared, &w.attributes, &format!("weapon `{}`", e.id), "weapon_attributes");
        of_weapon.insert(e.id.clone(), v);
    }
    for card in cards.iter_mut() {
        for m in &mut card.weapons {
            m.attributes = of_weapon.get(&m.weapon).cloned().unwrap_or_else(|| defaults(&weapon_declared));
        }
    }
    (ids(&declared), ids(&weapon_declared))
}

fn declared_weapons<'a>(cx: &mut Cx, entry: &Entry, ruleset: &'a f::Ruleset) -> Vec<&'a f::AttributeDef> {
    declared(cx, entry, &ruleset.weapon_attributes, "weapon_attributes", "weapon attribute")
}

fn ids(declared: &[&f::AttributeDef]) -> Vec<String> {
    declared.iter().map(|a| a.id.0.clone()).collect()
}

fn defaults(declared: &[&f::AttributeDef]) -> Vec<i32> {
    declared.iter().map(|a| a.default.unwrap_or(0)).collect()
}

/// The list once each (a second entry with one id is an error at it).
fn declared<'a>(
    cx: &mut Cx,
    entry: &Entry,
    list: &'a [f::AttributeDef],
    key: &str,
    what: &str,
) -> Vec<&'a f::AttributeDef> {
    let mut declared: Vec<&f::AttributeDef> = Vec::new();
    for (i, a) in list.iter().enumerate() {
        let before = declared.iter().any(|x| x.id == a.id);
        if !crate::procedures::twice(cx, entry, &format!("/{key}/{i}"), what, &a.id.0, before) {
            declared.push(a);
        }
    }
    declared
}

/// One document's values of the declared attributes (`key`: the ruleset's list they belong to).
fn values(
    cx: &mut Cx,
    e: &Entry,
    declared: &[&f::AttributeDef],
    set: &BTreeMap<f::Id, i32>,
    owner: &str,
    key: &str,
) -> Vec<i32> {
    let ids = ids(declared);
    for (k, _) in set.iter().filter(|(k, _)| !ids.contains(&k.0)) {
        let known =
            if ids.is_empty() { "it declares none".to_owned() } else { format!("it declares {}", ids.join(", ")) };
        cx.error(
            e,
            &format!("/attributes/{k}"),
            "attribute",
            format!("attribute `{k}` is not one the ruleset declares ({known})"),
            &format!("an attribute of the ruleset's `{key}:`"),
            None,
        );
    }
    declared
        .iter()
        .map(|a| {
            let ptr = format!("/attributes/{}", a.id);
            let Some(v) = set.get(&a.id).copied().or(a.default) else {
                cx.error(
                    e,
                    "/attributes",
                    "attribute",
                    format!("{owner} has no `{}` ({}), which the ruleset declares without a default", a.id, a.name),
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
        .collect()
}
