//! Upgrades: each exists and fits its model, within its limits per squad and per force group,
//! one of each per model.

use std::collections::BTreeMap;

use cav_content::Diagnostic;
use cav_format::{DocKind, ForceUpgrade, Id, Model, Upgrade};

use super::{Cx, list};
use crate::roster::Roster;

impl<'a> Cx<'a> {
    /// Each model's upgrades: they exist, fit the model, one of each (001 L1213-1235).
    pub(super) fn upgrades(&self, out: &mut Vec<Diagnostic>) {
        let mut in_force: BTreeMap<&str, u32> = BTreeMap::new();
        for (si, sq) in self.force.squads.iter().enumerate() {
            let mut in_squad: BTreeMap<&str, u32> = BTreeMap::new();
            for (mi, m) in sq.models.iter().enumerate() {
                let Some(model) = self.r.model(m.model.as_str()) else { continue };
                let mut seen: Vec<(&str, Option<&str>)> = Vec::new();
                let mut groups: Vec<&str> = Vec::new();
                let mut switched = 0usize;
                for (ui, u) in m.upgrades.iter().enumerate() {
                    let ptr = format!("/squads/{si}/models/{mi}/upgrades/{ui}");
                    let Some(up) = self.r.upgrade(u.id().as_str()) else {
                        let p = if matches!(u, ForceUpgrade::For(_)) { format!("{ptr}/upgrade") } else { ptr };
                        out.push(self.site.dangling(&p, DocKind::Upgrade, u.id().as_str(), self.ids(DocKind::Upgrade)));
                        continue;
                    };
                    let cite = up.source.as_deref();
                    let res = &up.restriction;
                    self.upgrade_fits(&ptr, model, u, up, out);
                    for (limit, counter, scope) in
                        [(res.per_squad, &mut in_squad, "squad"), (res.per_force, &mut in_force, "force group")]
                    {
                        let bought = m.count.saturating_mul(u.times());
                        let n = counter.entry(up.id.as_str()).or_default();
                        *n = n.saturating_add(bought);
                        if let Some(max) = limit
                            && *n > max
                            && *n - bought <= max
                        {
                            out.push(self.site.error(
                                &ptr,
                                format!("{} is allowed {max} time(s) per {scope}; this is number {n}", up.name),
                                "no more of the upgrade than its restriction allows",
                                cite,
                            ));
                        }
                    }
                    if up.choose_grant {
                        let carries = u.weapon().is_some_and(|w| model.weapons.iter().any(|m| m.weapon == *w));
                        let chosen = u.choice().is_some_and(|c| up.grants.iter().any(|g| g.id() == c));
                        if !carries || !chosen {
                            let grants = list(up.grants.iter().map(|g| g.id().as_str()));
                            let weapons = match list(model.weapons.iter().map(|m| m.weapon.as_str())) {
                                w if w.is_empty() => "none: the model carries no weapon".to_owned(),
                                w => format!("one of {w}"),
                            };
                            out.push(self.site.error(
                                &ptr,
                                format!(
                                    "{} grants one of {grants} to one weapon type of the model: name the weapon (`weapon:`, {weapons}) and the grant taken (`choice:`)",
                                    up.name
                                ),
                                "`{upgrade: ID, weapon: WEAPON, choice: SPECIAL-ATTRIBUTE}`",
                                cite,
                            ));
                        }
                    }
                    // An upgrade for a weapon type is still once per model (Amped Weapons); a
                    // munition is once per launcher.
                    let key = (up.id.as_str(), u.weapon().map(Id::as_str).filter(|_| !up.choose_grant));
                    if seen.contains(&key) {
                        out.push(self.site.error(
                            &ptr,
                            format!("a model takes each upgrade once; `{}` has {} twice", model.id.as_str(), up.name),
                            "one upgrade of each type per model",
                            Some(&self.rules.source.upgrades),
                        ));
                    }
                    seen.push(key);
                    if up.switch.is_some() {
                        switched += 1;
                        if switched == cav_rules::compile::Switch::MAX + 1 {
                            out.push(self.site.error(
                                &ptr,
                                format!(
                                    "a model carries at most {} upgrades switched on by its Special action; `{}` has more",
                                    cav_rules::compile::Switch::MAX,
                                    model.id.as_str()
                                ),
                                "no more switched upgrades than the engine plays on one model",
                                cite,
                            ));
                        }
                    }
                    if let Some(g) = &up.exclusive_group {
                        if groups.contains(&g.as_str()) {
                            out.push(self.site.error(
                                &ptr,
                                format!(
                                    "`{}` already has a {} upgrade; {} is another",
                                    model.id.as_str(),
                                    g.as_str(),
                                    up.name
                                ),
                                "one upgrade of each group per model",
                                cite,
                            ));
                        }
                        groups.push(g.as_str());
                    }
                }
            }
        }
    }

    /// Does upgrade `up`, bought as `u`, fit `model`: the model types it is restricted to, its
    /// variant, how many times it is bought, the damage tracks it needs, the launcher it loads.
    fn upgrade_fits(&self, ptr: &str, model: &Model, u: &ForceUpgrade, up: &'a Upgrade, out: &mut Vec<Diagnostic>) {
        let cite = up.source.as_deref();
        let res = &up.restriction;
        if !res.model_types.is_empty() && !res.model_types.contains(&model.model_type) {
            out.push(self.site.error(
                ptr,
                format!(
                    "{} fits {} only; `{}` is a {}",
                    up.name,
                    list(res.model_types.iter().map(|t| t.id())),
                    model.id.as_str(),
                    model.model_type.id()
                ),
                "an upgrade the model's type may take",
                cite,
            ));
        }
        let rank = Roster::variant(up, u);
        if let Some(v) = u.variant()
            && rank.is_none()
        {
            let why = match list(up.variants.iter().map(|x| x.id.as_str())) {
                ids if ids.is_empty() => {
                    format!("{} has no ranks or sizes to choose: leave `variant` out", up.name)
                }
                ids => format!("{} has no variant `{v}`; it is bought as one of {ids}", up.name),
            };
            out.push(self.site.error(&format!("{ptr}/variant"), why, "a variant the upgrade lists", cite));
        }
        if u.times() > 1 && !up.repeatable {
            out.push(self.site.error(
                &format!("{ptr}/times"),
                format!(
                    "{} is bought once per model; `times: {}` is for upgrades the book lets a model buy again",
                    up.name,
                    u.times()
                ),
                "`times` only on a repeatable upgrade",
                cite,
            ));
        }
        let (min_tracks, named) = match rank.and_then(|v| v.min_damage_tracks.map(|m| (m, v))) {
            Some((m, v)) => (Some(m), format!("{} ({})", up.name, v.name)),
            None => (res.min_damage_tracks, up.name.clone()),
        };
        if let Some(min) = min_tracks
            && model.damage_track.damage_tracks < min
        {
            out.push(self.site.error(
                ptr,
                format!(
                    "{} needs a model of {min}+ damage tracks; `{}` has {}",
                    named,
                    model.id.as_str(),
                    model.damage_track.damage_tracks
                ),
                "a model big enough for the upgrade",
                cite,
            ));
        }
        if !up.profiles.is_empty()
            && let Err(why) = self.r.launcher(model, up, u.weapon())
        {
            out.push(self.site.error(ptr, why, "a munition for a launcher the model carries", cite));
        }
    }
}
