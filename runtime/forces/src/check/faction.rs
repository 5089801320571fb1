//! The force's faction, its doctrine, and which models a faction may field.

use cav_content::Diagnostic;
use cav_format::{DocKind, Faction, FactionClass, Model};

use super::Cx;
use crate::roster::Roster;

impl Cx<'_> {
    /// The force's faction exists; an open faction takes no doctrine (001 L719-725).
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
            if f.class == FactionClass::Open {
                out.push(self.site.error(
                    "/doctrine",
                    format!("{} is an open faction and may not take a force doctrine (`{}`)", f.name, d.as_str()),
                    "no doctrine for an open faction",
                    f.source.as_deref(),
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
        may_field(self.r, f, model)
    }
}

/// May a force of faction `f` field `model`? (001 L644-783)
pub(crate) fn may_field(r: &Roster, f: &Faction, model: &Model) -> Result<(), String> {
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
    if f.class == FactionClass::Open {
        return Ok(());
    }
    let Some(mf) = r.faction_of(model) else {
        return Err(format!(
            "model `{}` belongs to `{}`, which is not a declared faction, so only an open force may field it",
            model.id.as_str(),
            model.faction
        ));
    };
    let allied = f.allies.contains(&mf.id) || mf.allies.contains(&f.id);
    let ok = mf.id == f.id
        || mf.class == FactionClass::Open
        || (allied && matches!((f.class, mf.class), (FactionClass::Major, FactionClass::Independent)))
        || (allied && matches!((f.class, mf.class), (FactionClass::Independent, FactionClass::Major)));
    if ok {
        return Ok(());
    }
    let may = match f.class {
        FactionClass::Major => "its own models, open ones and those of allied independent factions",
        _ => "its own models, open ones and those of allied major factions",
    };
    Err(format!("model `{}` belongs to {}; a {} force fields {may}", model.id.as_str(), mf.name, f.name))
}
