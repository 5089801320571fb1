//! The ruleset's force-building section itself, checked once by `cav validate`: every faction's
//! class is one it declares, and every reading of the secondary-squad option has its formula.

use cav_content::diag::did_you_mean;
use cav_content::{Diagnostic, Entry, Ruleset};
use cav_format::{DocKind, Document, ForceRules, vocab};

use super::{SECONDARY_OPTION, chosen_reading};

/// What the ruleset's `force_building:` section names must exist: the faction classes of the
/// faction documents and of `fields_allied`, and a secondary-squad formula for each reading of
/// option `secondary-squad-limit` players may choose. Located diagnostics; none for a ruleset
/// without force building.
pub fn check_ruleset(rs: &Ruleset) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let (Some(rules), Some(entry)) = (crate::force_rules(rs), rs.get(DocKind::Ruleset, &rs.id)) else {
        return out;
    };
    faction_classes(rs, rules, entry, &mut out);
    secondary_formulas(rs, rules, entry, &mut out);
    out
}

/// A diagnostic at the value `ptr` of the document `e`.
fn at(e: &Entry, ptr: String, d: Diagnostic) -> Diagnostic {
    d.at(e.prov.locate(&ptr)).pack(e.pack.clone()).pointer(ptr)
}

/// A diagnostic at the key of `ptr` in the document `e` (where an entry is missing, or is one
/// too many).
fn at_key(e: &Entry, ptr: String, d: Diagnostic) -> Diagnostic {
    d.at(e.prov.locate_key(&ptr)).pack(e.pack.clone()).pointer(ptr)
}

/// Each faction's `class:` and each class a class fields when allied is declared in
/// `force_building.faction_classes`.
fn faction_classes(rs: &Ruleset, rules: &ForceRules, ruleset: &Entry, out: &mut Vec<Diagnostic>) {
    let declared: Vec<&str> = rules.faction_classes.keys().map(|k| k.as_str()).collect();
    let expected =
        || format!("a faction class of the ruleset's `force_building.faction_classes`: {}", declared.join(", "));
    let unknown = |e: &Entry, ptr: String, class: &str| {
        at(
            e,
            ptr,
            Diagnostic::error("dangling-ref", format!("faction class `{class}` does not exist"))
                .expected(expected())
                .hint(did_you_mean(class, declared.iter().copied())),
        )
    };
    for e in rs.of_kind(DocKind::Faction) {
        if let Some(Document::Faction(f)) = e.doc.as_deref()
            && !rules.faction_classes.contains_key(&f.class)
        {
            out.push(unknown(e, "/class".into(), f.class.as_str()));
        }
    }
    for (id, class) in &rules.faction_classes {
        for (i, c) in class.fields_allied.iter().enumerate() {
            if !rules.faction_classes.contains_key(c) {
                let ptr = format!("/force_building/faction_classes/{}/fields_allied/{i}", escape(id.as_str()));
                out.push(unknown(ruleset, ptr, c.as_str()));
            }
        }
    }
}

/// `force_building.secondary_squads` gives a formula for every reading of the option players may
/// choose (its `choices:`, or the engine's readings when the ruleset does not declare it), and
/// none for a reading the option does not have.
fn secondary_formulas(rs: &Ruleset, rules: &ForceRules, ruleset: &Entry, out: &mut Vec<Diagnostic>) {
    let declared = crate::ruleset_doc(rs).and_then(|d| d.options.iter().find(|o| o.id.as_str() == SECONDARY_OPTION));
    let readings: Vec<&str> = match declared {
        Some(o) => o.choices.iter().map(|c| c.as_str()).collect(),
        None => {
            vocab::OPTIONS.iter().filter(|o| o.id == SECONDARY_OPTION).flat_map(|o| o.values.iter().copied()).collect()
        }
    };
    let chosen = chosen_reading(rs, SECONDARY_OPTION);
    for reading in &readings {
        if rules.secondary_squads.keys().any(|k| k.as_str() == *reading) {
            continue;
        }
        let played = if chosen == Some(*reading) { ", the reading this ruleset plays" } else { "" };
        out.push(at_key(
            ruleset,
            "/force_building/secondary_squads".into(),
            Diagnostic::error(
                "force-rule",
                format!("no secondary-squad formula for `{reading}` (option {SECONDARY_OPTION}{played})"),
            )
            .expected(format!(
                "an entry `{reading}:` in `secondary_squads`, e.g. `{{times: 1, per_primaries: 2, plus: 1, at_least: 0}}`"
            )),
        ));
    }
    for key in rules.secondary_squads.keys() {
        if !readings.contains(&key.as_str()) {
            out.push(at_key(
                ruleset,
                format!("/force_building/secondary_squads/{}", escape(key.as_str())),
                Diagnostic::error(
                    "force-rule",
                    format!("option {SECONDARY_OPTION} has no reading `{key}`, so its formula never applies"),
                )
                .expected(format!("one of its readings: {}", readings.join(", ")))
                .hint(did_you_mean(key.as_str(), readings.iter().copied())),
            ));
        }
    }
}

/// A key as a JSON-pointer segment.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}
