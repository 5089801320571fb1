//! The force's faction, its doctrine, and which models a faction may field — by the faction
//! classes the ruleset declares (`force_building.faction_classes`).

use cav_content::Diagnostic;
use cav_format::{DocKind, Faction, FactionClassRules, ForceRules, Model};

use super::Cx;
use crate::roster::Roster;

impl Cx<'_> {
    /// The force's faction exists; a faction whose class takes no doctrine (open) takes none
    /// (001 L719-725).
    pub(super) fn faction(&self, out: &mut Vec<Diagnostic>) {
        let Some(f) = self.faction_doc() else {
            out.push(self.site.dangling(
                "/faction",
                DocKind::Faction,
                self.force.faction.as_str(),
                self.ids(DocKind::Faction),
            ));
            return;
        };
        if let Some(d) = &self.force.doctrine {
            let class = class_of(self.rules, f);
            if class.is_some_and(|c| c.no_doctrine) {
                out.push(self.site.error(
                    "/doctrine",
                    format!(
                        "{} is {} {} faction and may not take a force doctrine (`{}`)",
                        f.name,
                        article(f.class.as_str()),
                        f.class.as_str(),
                        d.as_str()
                    ),
                    "no doctrine for a faction of this class",
                    class.and_then(|c| c.source.as_deref()).or(f.source.as_deref()),
                ));
            } else {
                out.push(self.site.warning(
                    "/doctrine",
                    format!(
                        "force doctrines are recognised but not played (the factions' Tactical Briefings are not in our content): `{}` has no effect",
                        d.as_str()
                    ),
                    f.source.as_deref(),
                ));
            }
        }
    }

    pub(super) fn may_field(&self, f: &Faction, model: &Model) -> Result<(), String> {
        may_field(self.r, self.rules, f, model)
    }
}

/// The rules of a faction's class; `None` when the ruleset does not declare it (`cav validate`
/// reports that at the faction).
fn class_of<'r>(rules: &'r ForceRules, f: &Faction) -> Option<&'r FactionClassRules> {
    rules.faction_classes.get(&f.class)
}

/// May a force of faction `f` field `model`? Its own models, those of a class that serves in any
/// force, and those of allied factions of the classes its own class fields; anything, when its
/// class fields any model (001 L644-783).
pub(crate) fn may_field(r: &Roster, rules: &ForceRules, f: &Faction, model: &Model) -> Result<(), String> {
    if let Some(mf) = r.faction_of(model)
        && mf.fixture
        && mf.id != f.id
    {
        return Err(format!(
            "model `{}` belongs to {}, whose models are fixtures, not units: only a force of that faction fields them",
            model.id.as_str(),
            mf.name
        ));
    }
    let class = class_of(rules, f);
    if class.is_some_and(|c| c.fields_any) {
        return Ok(());
    }
    let Some(mf) = r.faction_of(model) else {
        let any: Vec<&str> =
            rules.faction_classes.iter().filter(|(_, c)| c.fields_any).map(|(id, _)| id.as_str()).collect();
        let who = if any.is_empty() { "no force".to_owned() } else { format!("only {} force", or_list(&any)) };
        return Err(format!(
            "model `{}` belongs to `{}`, which is not a declared faction, so {who} may field it",
            model.id.as_str(),
            model.faction
        ));
    };
    let allied = f.allies.contains(&mf.id) || mf.allies.contains(&f.id);
    let ok = mf.id == f.id
        || class_of(rules, mf).is_some_and(|c| c.serves_any)
        || (allied && class.is_some_and(|c| c.fields_allied.contains(&mf.class)));
    if ok {
        return Ok(());
    }
    Err(format!(
        "model `{}` belongs to {}; a {} force fields {}",
        model.id.as_str(),
        mf.name,
        f.name,
        fields(rules, class)
    ))
}

/// What a force of a class fields, in words: "its own models, open ones and those of allied
/// independent factions".
fn fields(rules: &ForceRules, class: Option<&FactionClassRules>) -> String {
    let mut parts = vec!["its own models".to_owned()];
    let serving: Vec<&str> =
        rules.faction_classes.iter().filter(|(_, c)| c.serves_any).map(|(id, _)| id.as_str()).collect();
    if !serving.is_empty() {
        parts.push(format!("{} ones", or_list(&serving)));
    }
    let allied: Vec<&str> = class.iter().flat_map(|c| &c.fields_allied).map(|id| id.as_str()).collect();
    if !allied.is_empty() {
        parts.push(format!("those of allied {} factions", or_list(&allied)));
    }
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.concat(),
    }
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[&str]) -> String {
    super::list(items.iter().copied())
}

/// "an" before a vowel, else "a".
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}
