//! Text renderings of resolved documents: data cards for models, YAML-like text for the rest,
//! and the `--explain` listing of where every value came from.

use std::fmt::Write;

use cav_content::{Entry, Ruleset, Sources};
use cav_format::{Document, Model, PerColumn, Rav};
use serde_json::Value;

pub fn render(e: &Entry, rs: &Ruleset) -> String {
    match e.doc.as_deref() {
        Some(Document::Model(m)) => card(m, rs),
        _ => {
            let mut s = format!("# {} `{}` from pack {}\n", e.kind.tag(), e.id, e.pack);
            yaml_like(&e.value, 0, &mut s);
            s
        }
    }
}

/// The data card of model `e` with `upgrades` fitted by the engine (`Rules::fit`): the values it
/// plays with, then what each upgrade did.
pub fn fitted(e: &Entry, rs: &Ruleset, mut rules: cav_rules::Rules, upgrades: &[String]) -> Result<String, String> {
    let Some(Document::Model(m)) = e.doc.as_deref() else {
        return Err(format!("`{}` is not a model: --with fits upgrades to models", e.id));
    };
    let base_ix = rules.card(&e.id).ok_or_else(|| format!("model `{}` is not in ruleset {}", e.id, rs.id))?;
    let mut ups = Vec::new();
    for spec in upgrades {
        // `upgrade[@weapon][=choice][#variant][*times]`: the launcher or weapon type, the grant
        // chosen, the rank bought and how many.
        let (rest, times) = spec.split_once('*').map_or((spec.as_str(), None), |(a, n)| (a, Some(n)));
        let times = match times {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=9).contains(n))
                .ok_or_else(|| format!("`{spec}`: the number after `*` is how many are bought, 1 to 9"))?,
        };
        let (rest, variant) = rest.split_once('#').map_or((rest, None), |(a, v)| (a, Some(v)));
        let (rest, choice) = rest.split_once('=').map_or((rest, None), |(a, c)| (a, Some(c)));
        let (u, weapon) = rest.split_once('@').map_or((rest, None), |(a, w)| (a, Some(w)));
        let hit = rs.find(u).into_iter().find(|x| x.kind == cav_format::DocKind::Upgrade);
        let ix = hit.and_then(|x| rules.upgrade(&x.id)).ok_or_else(|| {
            let ids: Vec<&str> = rules.upgrades.iter().map(|x| x.id.as_str()).collect();
            let hint =
                cav_content::diag::did_you_mean(u, ids.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
            format!("no upgrade `{u}` in ruleset {}{hint}", rs.id)
        })?;
        if rules.upgrades[ix].choose_grant && (weapon.is_none() || choice.is_none()) {
            let grants: Vec<&str> =
                rules.upgrades[ix].grants.iter().map(|(sa, _)| rules.sas[*sa as usize].id.as_str()).collect();
            return Err(format!(
                "{} grants one of {} to one weapon type: write `{u}@WEAPON=CHOICE`",
                rules.upgrades[ix].name,
                grants.join(", ")
            ));
        }
        let up = &rules.upgrades[ix];
        if let Some(v) = variant
            && !up.variants.iter().any(|r| r.0 == v)
        {
            let ids: Vec<&str> = up.variants.iter().map(|r| r.0.as_str()).collect();
            return Err(match ids.is_empty() {
                true => format!("{} has no variants: write `{u}` alone", up.name),
                false => format!("{} has no variant `{v}`: one of {}", up.name, ids.join(", ")),
            });
        }
        if times > 1 && !up.repeatable {
            return Err(format!("{} is bought once per model: `*{times}` is for repeatable upgrades", up.name));
        }
        ups.push(cav_rules::compile::Fitting { upgrade: ix, weapon, choice, variant, times });
    }
    let base = rules.cards[base_ix].clone();
    // What each upgrade costs on this model, as the engine counts it (rank, purchases, launchers).
    let costs: Vec<u32> = ups
        .iter()
        .map(|f| {
            let alone = rules.fit(base_ix, std::slice::from_ref(f));
            rules.cards[alone].tv.saturating_sub(base.tv)
        })
        .collect();
    let fit = rules.fit(base_ix, &ups);
    let c = &rules.cards[fit];
    let mut doc = m.clone();
    doc.tv = c.tv;
    // The attribute values the upgrades change (MV, AV, DC: the engine's, mirrored into the
    // attribute rows), each where its model writes it.
    let declared = match rs.get(cav_format::DocKind::Ruleset, &rs.id).map(|e| e.doc.as_deref()) {
        Some(Some(Document::Ruleset(r))) => r.attributes.as_slice(),
        _ => &[],
    };
    for (i, id) in rules.attributes.iter().enumerate() {
        let column = |card: &cav_rules::compile::CardDef| -> Vec<i32> {
            (0..card.columns).map(|col| card.attributes_at(col).get(i).copied().unwrap_or(0)).collect()
        };
        let (was, now) = (column(&base), column(c));
        if was == now {
            continue;
        }
        let key = cav_format::Id(id.clone());
        if declared.iter().any(|a| a.id == key && a.per_column) {
            doc.damage_track.columns.insert(key, PerColumn::Columns(now));
        } else if let Some(&v) = now.first() {
            doc.attributes.insert(key, v);
        }
    }
    // A mount whose RAV an upgrade changed (Amped Weapons) shows the RAV it plays with.
    for (w, (was, now)) in doc.weapons.iter_mut().zip(base.weapons.iter().zip(&c.weapons)) {
        if was.rav != now.rav {
            w.rav = Some(PerColumn::Columns(now.rav.iter().map(|&(hard, soft)| Rav { hard, soft }).collect()));
            for &(sa, _) in now.sas.iter().filter(|x| !was.sas.contains(x)) {
                w.special_attributes.push(cav_format::SaRef::Plain(cav_format::Id(rules.sas[sa as usize].id.clone())));
            }
        }
    }
    let real = rules.sas.len() - rules.upgrades.len();
    doc.special_attributes = c
        .sas
        .iter()
        .filter(|(sa, _)| (*sa as usize) < real)
        .map(|&(sa, rating)| {
            let id = cav_format::Id(rules.sas[sa as usize].id.clone());
            let had = m.special_attributes.iter().find(|s| s.id() == &id);
            match had {
                Some(s) if s.rating().unwrap_or(1) == rating || s.rating().is_none() && rating == 1 => s.clone(),
                _ if rating == 1 => cav_format::SaRef::Plain(id),
                _ => cav_format::SaRef::Rated(cav_format::RatedSa {
                    sa: id,
                    rating: Some(rating),
                    uses: None,
                    condition: None,
                    when: Vec::new(),
                }),
            }
        })
        .collect();
    let mut s = card(&doc, rs);
    let _ = writeln!(s, "Fitted (cav show --with):");
    for (f, tv) in ups.iter().zip(costs) {
        let up = &rules.upgrades[f.upgrade];
        let grants: Vec<String> = match (up.choose_grant, f.choice, f.weapon) {
            (true, Some(c), Some(w)) => vec![format!("{c} to its {w}")],
            _ => up.grants.iter().map(|(sa, _)| rules.sas[*sa as usize].id.clone()).collect(),
        };
        let _ = writeln!(
            s,
            "  {} — TV +{tv}{}",
            up.name,
            if grants.is_empty() { String::new() } else { format!(", grants {}", grants.join(", ")) }
        );
    }
    let delta = |a: &[u32], b: &[u32]| a.first().zip(b.first()).map_or(0, |(x, y)| *y as i64 - *x as i64);
    let _ = writeln!(
        s,
        "  TV {} → {}, MV {:+}, AV {:+} (column 0); roll modifiers and scripts of the upgrades play as the model's own",
        base.tv,
        c.tv,
        delta(&base.movement, &c.movement),
        delta(&base.armor, &c.armor)
    );
    Ok(s)
}

/// A data card: header, the damage track as a table of columns, weapons with per-column RAV, SAs.
fn card(m: &Model, rs: &Ruleset) -> String {
    let c = crate::card::data(m, rs);
    let mut s = String::new();
    let _ = writeln!(s, "{} — {}, move class {}, TV {}", c.name, c.kind, c.move_class, c.tv);
    let _ = writeln!(s, "Damage track: {} DT (columns 0–{})", c.damage_tracks, c.damage_tracks);
    let row = |s: &mut String, label: &str, cells: &mut dyn Iterator<Item = String>| {
        let _ = write!(s, "  {label:<18}");
        for c in cells {
            let _ = write!(s, "{c:>6}");
        }
        s.push('\n');
    };
    row(&mut s, "column", &mut (0..=c.damage_tracks).map(|c| c.to_string()));
    for (label, _, cells) in &c.rows {
        row(&mut s, label, &mut cells.iter().map(|x| x.text.clone()));
    }
    let _ = writeln!(s, "Weapons:");
    for w in &c.weapons {
        let _ = writeln!(s, "  {} {}", w.title, w.sas.join(", "));
        if let Some(rav) = &w.rav {
            row(&mut s, &format!("  {}", c.rav_name), &mut rav.iter().map(|x| x.text.clone()));
        }
    }
    let _ = writeln!(s, "Special attributes: {}", if c.sas.is_empty() { "none".into() } else { c.sas.join(", ") });
    if let Some(src) = &c.source {
        let _ = writeln!(s, "Source: {src}");
    }
    for (kind, field, text) in &c.notes {
        let field = field.as_deref().map(|f| format!(" [{f}]")).unwrap_or_default();
        let _ = writeln!(s, "Note ({kind}){field}: {text}");
    }
    s
}

pub(crate) fn per_col<T: Clone + std::fmt::Display>(v: &PerColumn<T>, cols: usize) -> Vec<String> {
    (0..cols).map(|c| v.at(c).map(|x| x.to_string()).unwrap_or_else(|| "-".into())).collect()
}

pub(crate) fn sa_text(s: &cav_format::SaRef) -> String {
    let mut t = s.id().to_string();
    if let Some(r) = s.rating() {
        let _ = write!(t, " {r}");
    }
    if let Some(u) = s.uses() {
        let _ = write!(t, " [{u}]");
    }
    t
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s)
            if s.is_empty() || s.contains(": ") || s.starts_with(['*', '&', '!', '[', '{', '#', '?', '-']) =>
        {
            serde_json::to_string(s).unwrap_or_default()
        }
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn yaml_like(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, val) in m {
                match val {
                    Value::Object(o) if !o.is_empty() => {
                        let _ = writeln!(out, "{pad}{k}:");
                        yaml_like(val, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() && a.iter().any(|x| x.is_object() || x.is_array()) => {
                        let _ = writeln!(out, "{pad}{k}:");
                        yaml_like(val, indent + 2, out);
                    }
                    Value::Array(a) => {
                        let items: Vec<String> = a.iter().map(scalar).collect();
                        let _ = writeln!(out, "{pad}{k}: [{}]", items.join(", "));
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}{k}: {}", scalar(val));
                    }
                }
            }
        }
        Value::Array(a) => {
            for item in a {
                let mut inner = String::new();
                yaml_like(item, indent + 2, &mut inner);
                let trimmed = inner.trim_start();
                let _ = writeln!(out, "{pad}- {}", trimmed.trim_end());
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", scalar(other));
        }
    }
}

/// Every leaf value with the file:line:col that set it (after inheritance and patches).
pub fn explain(e: &Entry, sources: &Sources) -> String {
    let mut s = format!("# {} `{}` (defined in pack {})\n", e.kind.tag(), e.id, e.pack);
    let mut leaves = Vec::new();
    collect_leaves(&e.value, String::new(), &mut leaves);
    let width = leaves.iter().map(|(p, v)| p.len() + v.len() + 3).max().unwrap_or(0).min(70);
    for (ptr, val) in leaves {
        let lhs = format!("{ptr} = {val}");
        let _ = writeln!(s, "{lhs:<width$}  ← {}", set_by(e, sources, &ptr));
    }
    s
}

/// Where each value came from, by JSON pointer (`cav show --explain --format json`).
pub fn provenance(e: &Entry, sources: &Sources) -> std::collections::BTreeMap<String, String> {
    let mut leaves = Vec::new();
    collect_leaves(&e.value, String::new(), &mut leaves);
    leaves
        .into_iter()
        .map(|(ptr, _)| {
            let from = set_by(e, sources, &ptr);
            (ptr, from)
        })
        .collect()
}

/// The file:line:col that set the value at `ptr`, or `(default)`.
fn set_by(e: &Entry, sources: &Sources, ptr: &str) -> String {
    e.prov
        .values
        .get(ptr)
        .map(|l| format!("{}:{}:{}", sources.get(l.file).display, l.start.line, l.start.col))
        .unwrap_or_else(|| "(default)".into())
}

/// One line of stats for `cav list KIND`: what an author scans a list for, read off the resolved
/// document (so patches and inheritance show).
pub fn stats(e: &Entry) -> String {
    let v = &*e.value;
    fn text(x: &Value) -> String {
        match x {
            Value::String(s) => s.clone(),
            Value::Null => String::new(),
            // `{tv: 5, per_damage_track: true}` reads `tv 5 per_damage_track`.
            Value::Object(o) => o
                .iter()
                .map(|(k, v)| if *v == Value::Bool(true) { k.clone() } else { format!("{k} {}", text(v)) })
                .collect::<Vec<_>>()
                .join(" "),
            other => other.to_string(),
        }
    }
    // A per-column value's first column (a fresh model), or the value itself.
    let first = |x: &Value| match x {
        Value::Array(a) => a.first().map(text).unwrap_or_default(),
        other => text(other),
    };
    let sas = |x: &Value| -> String {
        let names: Vec<String> = x
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| match s {
                Value::Object(o) => {
                    let id = o.get("sa").map(text).unwrap_or_default();
                    match o.get("rating") {
                        Some(r) => format!("{id} {}", text(r)),
                        None => id,
                    }
                }
                other => text(other),
            })
            .collect();
        names.join(", ")
    };
    let mut parts: Vec<String> = Vec::new();
    let put = |parts: &mut Vec<String>, label: &str, x: Option<&Value>| {
        if let Some(x) = x.filter(|x| !x.is_null()) {
            let t = text(x);
            if !t.is_empty() {
                parts.push(if label.is_empty() { t } else { format!("{label} {t}") });
            }
        }
    };
    match e.kind {
        cav_format::DocKind::Model => {
            put(&mut parts, "", v.get("model_type"));
            put(&mut parts, "", v.get("chassis"));
            put(&mut parts, "TV", v.get("tv"));
            let dt = v.get("damage_track");
            if let Some(dt) = dt {
                // Its per-column attributes' first column (CAV's MV, AV, DC, EXP), as written.
                let col: Vec<String> = (dt.as_object().into_iter().flatten())
                    .filter(|(k, _)| !["damage_tracks", "ccv", "values"].contains(&k.as_str()))
                    .filter_map(|(k, v)| {
                        Some(first(v)).filter(|x| !x.is_empty()).map(|x| format!("{} {x}", k.to_uppercase()))
                    })
                    .collect();
                parts.push(format!("{} ({} DT)", col.join(" "), dt.get("damage_tracks").map(text).unwrap_or_default()));
            }
            let weapons: Vec<String> = v
                .get("weapons")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|w| {
                    let n = w.get("quantity").and_then(Value::as_u64).unwrap_or(1);
                    let id = w.get("weapon").map(text).unwrap_or_default();
                    if n > 1 { format!("{n}× {id}") } else { id }
                })
                .collect();
            if !weapons.is_empty() {
                parts.push(weapons.join(", "));
            }
        }
        cav_format::DocKind::Weapon => {
            put(&mut parts, "", v.get("fire"));
            put(&mut parts, "RNG", v.get("range"));
            put(&mut parts, "RAV", v.get("rav"));
            put(&mut parts, "TV", v.get("tv"));
            let s = v.get("special_attributes").map(sas).unwrap_or_default();
            if !s.is_empty() {
                parts.push(s);
            }
        }
        cav_format::DocKind::SpecialAttribute => {
            put(&mut parts, "on", v.get("applies_to"));
            put(&mut parts, "script", v.get("script"));
            if let Some(h) = v.get("hooks").and_then(Value::as_array).filter(|h| !h.is_empty()) {
                parts.push(format!("hooks {}", h.iter().map(text).collect::<Vec<_>>().join(", ")));
            }
        }
        cav_format::DocKind::Upgrade | cav_format::DocKind::Asset | cav_format::DocKind::Strike => {
            put(&mut parts, "TV", v.get("tv"));
            put(&mut parts, "cost", v.get("cost"));
            let s = v.get("grants").map(sas).unwrap_or_default();
            if !s.is_empty() {
                parts.push(format!("grants {s}"));
            }
        }
        _ => {}
    }
    put(&mut parts, "from", v.get("source"));
    parts.join(" · ")
}

fn collect_leaves(v: &Value, ptr: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, val) in m {
                collect_leaves(val, format!("{ptr}/{}", cav_content::yaml::escape(k)), out);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, val) in a.iter().enumerate() {
                collect_leaves(val, format!("{ptr}/{i}"), out);
            }
        }
        other => out.push((ptr, other.to_string())),
    }
}

/// A vocabulary word as the book writes it: `extra_large` → "Extra-Large", `quad_cav` → "Quad
/// CAV", `fire_support` → "Fire Support".
pub fn book_words(id: &str) -> String {
    let mut out = String::new();
    for (i, w) in id.split('_').enumerate() {
        if i > 0 {
            out.push(if out.ends_with("Extra") { '-' } else { ' ' });
        }
        match w {
            "cav" => out.push_str("CAV"),
            _ => {
                let mut c = w.chars();
                if let Some(f) = c.next() {
                    out.extend(f.to_uppercase());
                    out.push_str(c.as_str());
                }
            }
        }
    }
    out
}

pub(crate) mod erased {
    /// A serde unit-variant enum's written form (`extra_large`).
    pub trait Tag {
        fn tag(&self) -> String;
    }
    impl<T: serde::Serialize> Tag for T {
        fn tag(&self) -> String {
            serde_json::to_value(self).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn words_read_as_the_book_writes_them() {
        assert_eq!(super::book_words("extra_large"), "Extra-Large");
        assert_eq!(super::book_words("quad_cav"), "Quad CAV");
        assert_eq!(super::book_words("cav"), "CAV");
        assert_eq!(super::book_words("fire_support"), "Fire Support");
    }
}
