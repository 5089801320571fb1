//! The attributes a ruleset declares for its models (`attributes:`) and its weapons
//! (`weapon_attributes:`), and each model's and weapon's values of them: an id the ruleset does
//! not declare, a value out of its range and one missing without a default are errors at the
//! document's `attributes:` (or `damage_track:`, for an attribute with a value per column).
//! An attribute with a `role` is what the engine reads for it (CAV's MV, AV, DC, EXP).

use std::collections::BTreeMap;

use cav_content::ruleset::Entry;
use cav_format::{self as f, DocKind};
use cav_rules::compile::{CardDef, RoleIx};

use crate::Cx;

/// The declared ids of models and of weapons, every card's and mount's values in their order, and
/// which weapon attribute is the RAV (`role: rav`).
pub(crate) fn attributes(
    cx: &mut Cx,
    entry: &Entry,
    ruleset: &f::Ruleset,
    models: &[(String, f::Model)],
    cards: &mut [CardDef],
) -> (Vec<String>, Vec<String>, Option<usize>) {
    let declared = declared(cx, entry, &ruleset.attributes, "attributes", "attribute");
    let roles = roles(cx, entry, ruleset, &declared);
    for ((id, m), card) in models.iter().zip(cards.iter_mut()) {
        let Some(e) = cx.rs.get(DocKind::Model, id) else { continue };
        card.attributes = model_values(cx, e, &declared, m, card.columns);
        card.roles = roles;
        card.mirror_roles();
    }
    let weapon_declared = declared_weapons(cx, entry, ruleset);
    let rav = weapon_declared.iter().position(|a| a.role == Some(f::AttributeRole::Rav));
    if rav.is_none() {
        rav_undeclared(cx, entry, ruleset);
    }
    let mut of_weapon: BTreeMap<String, Vec<i32>> = BTreeMap::new();
    for e in cx.rs.of_kind(DocKind::Weapon) {
        let Some(f::Document::Weapon(w)) = e.doc.as_deref() else { continue };
        if let Some(a) = rav.map(|i| weapon_declared[i]).filter(|a| w.attributes.contains_key(&a.id)) {
            cx.error(
                e,
                &format!("/attributes/{}", a.id),
                "attribute",
                format!("`{}` ({}) is the weapon's `rav:`, not one of its `attributes:`", a.id, a.name),
                "`rav: 5/2` (against hard and soft targets)",
                None,
            );
        }
        let v = values(cx, e, &weapon_declared, &w.attributes, &format!("weapon `{}`", e.id), "weapon_attributes");
        of_weapon.insert(e.id.clone(), v);
    }
    for card in cards.iter_mut() {
        for m in &mut card.weapons {
            m.attributes = of_weapon.get(&m.weapon).cloned().unwrap_or_else(|| defaults(&weapon_declared));
        }
    }
    (ids(&declared), ids(&weapon_declared), rav)
}

fn declared_weapons<'a>(cx: &mut Cx, entry: &Entry, ruleset: &'a f::Ruleset) -> Vec<&'a f::AttributeDef> {
    let mut ravs = 0;
    for (i, a) in ruleset.weapon_attributes.iter().enumerate() {
        let other_role = a.role.is_some_and(|r| r != f::AttributeRole::Rav);
        let model_only = [(a.per_column, "per_column"), (a.optional, "optional"), (other_role, "role")];
        for (_, key) in model_only.iter().filter(|(set, _)| *set) {
            cx.error(
                entry,
                &format!("/weapon_attributes/{i}/{key}"),
                "attribute",
                format!("weapon attribute `{}` says `{key}`, which only a model's attribute may", a.id),
                "`id`, `name`, `default`, `min`, `max`, `role: rav`, `summary`, `source` or `notes`",
                None,
            );
        }
        if a.role != Some(f::AttributeRole::Rav) {
            continue;
        }
        ravs += 1;
        let ptr = format!("/weapon_attributes/{i}");
        if ravs > 1 {
            cx.error(
                entry,
                &format!("{ptr}/role"),
                "attribute",
                format!("weapon attribute `{}` takes the role `rav` another has already", a.id),
                "one attribute per role",
                None,
            );
        }
        // Its values are the documents' `rav:` pairs: a number here would be a second source.
        for (set, key) in [(a.default.is_some(), "default"), (a.min.is_some(), "min"), (a.max.is_some(), "max")] {
            if set {
                cx.error(
                    entry,
                    &format!("{ptr}/{key}"),
                    "attribute",
                    format!("weapon attribute `{}` (`role: rav`) takes its values from the `rav:` of weapons", a.id),
                    "no `default`, `min` or `max` beside `role: rav`",
                    None,
                );
            }
        }
    }
    declared(cx, entry, &ruleset.weapon_attributes, "weapon_attributes", "weapon attribute")
}

/// Every `rav:` a document of a ruleset without a `role: rav` weapon attribute writes is an
/// error at it: no rule would read it as the documents mean. (The typed places only: a map
/// keyed by ids may hold an attribute named `rav`.)
fn rav_undeclared(cx: &mut Cx, entry: &Entry, ruleset: &f::Ruleset) {
    let mut at: Vec<(Entry, String)> = Vec::new();
    for e in cx.rs.of_kind(DocKind::Weapon) {
        if e.value.get("rav").is_some() {
            at.push((e.clone(), "/rav".into()));
        }
    }
    let listed = |e: &Entry, list: &str, inner: &str| -> Vec<String> {
        let items = e.value.get(list).and_then(serde_json::Value::as_array).map_or(&[][..], Vec::as_slice);
        (items.iter().enumerate())
            .filter(|(_, x)| x.pointer(inner).is_some())
            .map(|(i, _)| format!("/{list}/{i}{inner}"))
            .collect()
    };
    for e in cx.rs.of_kind(DocKind::Model) {
        at.extend(listed(e, "weapons", "/rav").into_iter().map(|p| (e.clone(), p)));
    }
    for kind in [DocKind::Asset, DocKind::Strike] {
        for e in cx.rs.of_kind(kind) {
            if e.value.pointer("/attack/rav").is_some() {
                at.push((e.clone(), "/attack/rav".into()));
            }
        }
    }
    for e in cx.rs.of_kind(DocKind::Upgrade) {
        at.extend(listed(e, "profiles", "/rav").into_iter().map(|p| (e.clone(), p)));
    }
    if ruleset.procedures.close_defense.is_some() {
        at.push((entry.clone(), "/procedures/close_defense/rav".into()));
    }
    for (e, ptr) in at {
        cx.error(
            &e,
            &ptr,
            "attribute",
            format!("a RAV is written here, but ruleset `{}` declares no weapon attribute with `role: rav`", cx.rs.id),
            "a `weapon_attributes:` entry with `role: rav` in the ruleset, or no `rav:`",
            None,
        );
    }
}

/// Where the attributes with each role sit (one attribute per role: a second is an error at it).
fn roles(cx: &mut Cx, entry: &Entry, ruleset: &f::Ruleset, declared: &[&f::AttributeDef]) -> RoleIx {
    let mut ix = RoleIx::default();
    for (i, a) in ruleset.attributes.iter().enumerate() {
        let Some(role) = a.role else { continue };
        let Some(at) = declared.iter().position(|d| std::ptr::eq(*d, a)) else { continue };
        let slot = match role {
            f::AttributeRole::Rav => {
                cx.error(
                    entry,
                    &format!("/attributes/{i}/role"),
                    "attribute",
                    format!("attribute `{}` takes `role: rav`, a weapon's role", a.id),
                    "`role: rav` under `weapon_attributes:`; a model's role is `move`, `armor`, \
                     `damage_control` or `experience`",
                    None,
                );
                continue;
            }
            f::AttributeRole::Move => &mut ix.movement,
            f::AttributeRole::Armor => &mut ix.armor,
            f::AttributeRole::DamageControl => &mut ix.damage_control,
            f::AttributeRole::Experience => &mut ix.experience,
        };
        if let Some(first) = *slot {
            cx.error(
                entry,
                &format!("/attributes/{i}/role"),
                "attribute",
                format!(
                    "attribute `{}` takes a role attribute `{}` has already",
                    a.id,
                    declared[usize::from(first)].id
                ),
                "one attribute per role",
                None,
            );
            continue;
        }
        *slot = u16::try_from(at).ok();
    }
    if ix.movement.is_none() {
        cx.diags.push(
            cav_content::Diagnostic::warning(
                "attribute",
                format!("ruleset `{}` lends no attribute to movement: its models never move", ruleset.id),
            )
            .at(entry.prov.locate("/attributes"))
            .pack(entry.pack.clone())
            .pointer("/attributes")
            .expected("an attribute with `role: move` (the inches a move action goes)"),
        );
    }
    ix
}

/// A model's values of attribute `a` in each of `columns` columns: its damage track's (for one
/// with a value per column; the last one given past the end), its `attributes:` value, else the
/// attribute's default; `None` where it has none.
pub(crate) fn column_values(a: &f::AttributeDef, m: &f::Model, columns: usize) -> Vec<Option<i32>> {
    if a.per_column {
        match m.damage_track.get(&a.id.0) {
            Some(v) => (0..columns).map(|i| v.at(i)).collect(),
            None => vec![a.default; columns],
        }
    } else {
        vec![m.attributes.get(&a.id).copied().or(a.default); columns]
    }
}

/// A model's values of the declared attributes, column by column (`CardDef::attributes`).
fn model_values(cx: &mut Cx, e: &Entry, declared: &[&f::AttributeDef], m: &f::Model, columns: usize) -> Vec<i32> {
    let flat: Vec<&f::AttributeDef> = declared.iter().copied().filter(|a| !a.per_column).collect();
    let per_column: Vec<&f::AttributeDef> = declared.iter().copied().filter(|a| a.per_column).collect();
    let owner = format!("model `{}`", e.id);
    misplaced(cx, e, declared, m.attributes.keys(), "attributes", &per_column, "one value");
    misplaced(cx, e, declared, m.damage_track.columns.keys(), "damage_track", &flat, "a value per damage column");
    let mut rows = vec![0; columns * declared.len()];
    for (i, a) in declared.iter().enumerate() {
        let values = column_values(a, m, columns);
        let home = if a.per_column { "/damage_track" } else { "/attributes" };
        // What the model writes itself, each value with its column where it has one (a default is
        // checked where the ruleset declares it); its place is spelt out only for an error.
        let given: Option<Vec<(Option<usize>, i32)>> = if a.per_column {
            m.damage_track.get(&a.id.0).map(|v| match v {
                f::PerColumn::Same(x) => vec![(None, *x)],
                f::PerColumn::Columns(xs) => xs.iter().enumerate().map(|(k, x)| (Some(k), *x)).collect(),
            })
        } else {
            m.attributes.get(&a.id).map(|x| vec![(None, *x)])
        };
        if given.is_none() && a.default.is_none() && !a.optional {
            cx.error(
                e,
                home,
                "attribute",
                format!("{owner} has no `{}` ({}), which the ruleset declares without a default", a.id, a.name),
                "a value of every attribute the ruleset declares without a default or `optional: true`",
                None,
            );
        }
        if let Some((column, v)) = given.iter().flatten().find(|(_, v)| out_of_range(a, *v)) {
            let ptr = match column {
                Some(k) => format!("{home}/{}/{k}", a.id),
                None => format!("{home}/{}", a.id),
            };
            cx.error(e, &ptr, "attribute", format!("{} {v} is out of its range", a.name), &range(a), None);
        }
        for (col, v) in values.into_iter().enumerate() {
            rows[col * declared.len() + i] = v.unwrap_or(0);
        }
    }
    rows
}

/// Keys under `key` (`attributes:` or `damage_track:`) that are no attribute the ruleset
/// declares, or one written in the other place (`there`: the attributes that belong there).
fn misplaced<'k>(
    cx: &mut Cx,
    e: &Entry,
    declared: &[&f::AttributeDef],
    keys: impl Iterator<Item = &'k f::Id>,
    key: &str,
    there: &[&f::AttributeDef],
    what: &str,
) {
    let here: Vec<String> =
        declared.iter().filter(|a| !there.iter().any(|t| t.id == a.id)).map(|a| a.id.0.clone()).collect();
    for k in keys.filter(|k| !here.contains(&k.0)) {
        let (message, expected) = if there.iter().any(|a| a.id == *k) {
            let other = if key == "attributes" { "damage_track" } else { "attributes" };
            (
                format!(
                    "attribute `{k}` has {}: write it under `{other}:`",
                    if key == "attributes" { "a value per damage column" } else { "one value" }
                ),
                format!("an attribute with {what}"),
            )
        } else {
            let known = if here.is_empty() {
                "it declares none".to_owned()
            } else {
                format!("it declares {}", here.join(", "))
            };
            (
                format!("attribute `{k}` is not one ruleset `{}` declares with {what} ({known})", cx.rs.id),
                format!("an attribute of the ruleset's `attributes:` with {what}"),
            )
        };
        let hint = cav_content::diag::did_you_mean(&k.0, declared.iter().map(|a| a.id.0.as_str()));
        cx.error(e, &format!("/{key}/{k}"), "attribute", message, &expected, hint);
    }
}

fn out_of_range(a: &f::AttributeDef, v: i32) -> bool {
    a.min.is_some_and(|min| v < min) || a.max.is_some_and(|max| v > max)
}

fn range(a: &f::AttributeDef) -> String {
    match (a.min, a.max) {
        (Some(lo), Some(hi)) => format!("{} from {lo} to {hi}", a.name),
        (Some(lo), None) => format!("{} at least {lo}", a.name),
        (None, Some(hi)) => format!("{} at most {hi}", a.name),
        (None, None) => a.name.clone(),
    }
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
        if let Some(d) = a.default.filter(|&d| out_of_range(a, d)) {
            let ptr = format!("/{key}/{i}/default");
            cx.error(
                entry,
                &ptr,
                "attribute",
                format!("{}'s default {d} is out of its range", a.name),
                &range(a),
                None,
            );
        }
        if a.optional && a.default.is_some() {
            cx.error(
                entry,
                &format!("/{key}/{i}/optional"),
                "attribute",
                format!("attribute `{}` is optional and has a default: a model without it takes the default", a.id),
                "`optional: true` or a `default`, not both",
                None,
            );
        }
        // The damage track's own fields: a model could never write such an attribute there.
        if a.per_column && ["damage_tracks", "ccv", "values"].contains(&a.id.as_str()) {
            cx.error(
                entry,
                &format!("/{key}/{i}/id"),
                "attribute",
                format!(
                    "attribute `{}` has a value per column, and `damage_track.{}` is the track's own field",
                    a.id, a.id
                ),
                "another id",
                None,
            );
        }
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
            // The RAV's values are the mount's `rav:` pairs (`MountDef::rav`), not a number here.
            if a.role == Some(f::AttributeRole::Rav) {
                return 0;
            }
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
            // (A default is checked where the ruleset declares it.)
            if set.contains_key(&a.id) && out_of_range(a, v) {
                cx.error(e, &ptr, "attribute", format!("{} {v} is out of its range", a.name), &range(a), None);
            }
            v
        })
        .collect()
}
