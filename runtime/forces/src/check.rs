//! Is a roster legal? One function per rule of 001 L594-1336, each reporting every violation it
//! finds at the roster's line, with the rulebook lines of the document that sets the rule.

use std::collections::BTreeMap;

use cav_content::diag::did_you_mean;
use cav_content::{Diagnostic, Loc, Ruleset};
use cav_format::vocab::{self, SecondarySquadLimit};
use cav_format::*;

use crate::roster::{Roster, costs};

/// Where the roster is: how to locate a JSON pointer of it, and its pack (if any).
struct Site<'s> {
    locate: &'s dyn Fn(&str) -> Option<Loc>,
    pack: Option<&'s str>,
}

impl Site<'_> {
    fn diag(&self, d: Diagnostic, ptr: &str) -> Diagnostic {
        let d = d.at((self.locate)(ptr)).pointer(ptr.to_owned());
        match self.pack {
            Some(p) => d.pack(p.to_owned()),
            None => d,
        }
    }
    fn error(&self, ptr: &str, message: String, expected: &str, cite: Option<&str>) -> Diagnostic {
        self.diag(Diagnostic::error("force-rule", cited(message, cite)).expected(expected.to_owned()), ptr)
    }
    fn warning(&self, ptr: &str, message: String, cite: Option<&str>) -> Diagnostic {
        self.diag(Diagnostic::warning("force-rule", cited(message, cite)), ptr)
    }
    fn dangling(&self, ptr: &str, kind: DocKind, id: &str, candidates: Vec<&str>) -> Diagnostic {
        let what = kind.tag().replace('_', " ");
        self.diag(
            Diagnostic::error("dangling-ref", format!("{what} `{id}` does not exist"))
                .expected(format!("the id of a {} document", kind.tag()))
                .hint(did_you_mean(id, candidates))
                .missing(kind, id),
            ptr,
        )
    }
}

fn cited(message: String, cite: Option<&str>) -> String {
    match cite {
        Some(c) => format!("{message} ({c})"),
        None => message,
    }
}

/// Every violation of the ruleset's force-building rules in `force`, located through `locate`
/// (JSON pointer → file:line:col). Empty when the roster is legal. A ruleset without force
/// building reports that once.
pub fn check(rs: &Ruleset, force: &Force, locate: &dyn Fn(&str) -> Option<Loc>, pack: Option<&str>) -> Vec<Diagnostic> {
    let site = Site { locate, pack };
    let mut out = Vec::new();
    let Some(rules) = crate::force_rules(rs) else {
        out.push(site.error(
            "",
            format!("ruleset `{}` does not build forces (its ruleset document has no `force_building:`)", rs.id),
            "a ruleset with force-building rules, e.g. `--ruleset full`",
            None,
        ));
        return out;
    };
    let r = Roster::new(rs);
    let cx = Cx { rs, r: &r, rules, force, site: &site, secondary_rule: secondary_rule(rs) };
    cx.faction(&mut out);
    cx.squads(&mut out);
    cx.squad_counts(&mut out);
    cx.upgrades(&mut out);
    cx.uniques(&mut out);
    cx.assets_and_strikes(&mut out);
    cx.threat_value(&mut out);
    out
}

/// The reading of the secondary-squad limit (ruleset option `secondary-squad-limit`).
fn secondary_rule(rs: &Ruleset) -> SecondarySquadLimit {
    let mut opts = vocab::EngineOptions::default();
    for o in crate::ruleset_doc(rs).map(|d| d.options.as_slice()).unwrap_or_default() {
        opts.set(o.id.as_str(), o.default.as_str());
    }
    opts.secondary_squad_limit
}

struct Cx<'a> {
    rs: &'a Ruleset,
    r: &'a Roster<'a>,
    rules: &'a ForceRules,
    force: &'a Force,
    site: &'a Site<'a>,
    secondary_rule: SecondarySquadLimit,
}

impl<'a> Cx<'a> {
    fn ids(&self, kind: DocKind) -> Vec<&'a str> {
        self.rs.of_kind(kind).map(|e| e.id.as_str()).collect()
    }

    fn faction_doc(&self) -> Option<&'a Faction> {
        self.r.faction(self.force.faction.as_str())
    }

    /// The force's faction exists; an open faction takes no doctrine (001 L719-725).
    fn faction(&self, out: &mut Vec<Diagnostic>) {
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

    fn may_field(&self, f: &Faction, model: &Model) -> Result<(), String> {
        may_field(self.r, f, model)
    }

    fn weight(&self, model: &'a Model, ups: &[ForceUpgrade]) -> u32 {
        let sas = self.r.special_attributes(model, ups);
        self.rules
            .heavy_models
            .iter()
            .filter(|h| sas.iter().any(|(id, _)| *id == h.sa.as_str()))
            .map(|h| h.counts_as)
            .max()
            .unwrap_or(1)
    }

    fn transport_rating(&self, model: &'a Model, ups: &[ForceUpgrade]) -> u32 {
        self.r
            .special_attributes(model, ups)
            .iter()
            .filter(|(id, _)| *id == self.rules.transport_sa.as_str())
            .map(|(_, r)| r.unwrap_or(0).max(0) as u32)
            .max()
            .unwrap_or(0)
    }

    /// Each squad: its type, its models' faction, type and task, its size, and the type's
    /// sameness rules; transports of infantry squads (001 L802-1179).
    fn squads(&self, out: &mut Vec<Diagnostic>) {
        let faction = self.faction_doc();
        for (si, sq) in self.force.squads.iter().enumerate() {
            let base = format!("/squads/{si}");
            let ty = self.r.squad_type(sq.squad_type.as_str());
            if ty.is_none() {
                out.push(self.site.dangling(
                    &format!("{base}/type"),
                    DocKind::SquadType,
                    sq.squad_type.as_str(),
                    self.ids(DocKind::SquadType),
                ));
            }
            // (pointer, model, entry) per copy-group, models that exist only.
            let mut members: Vec<(String, &'a Model, &'a ForceModel)> = Vec::new();
            for (mi, m) in sq.models.iter().enumerate() {
                let ptr = format!("{base}/models/{mi}");
                match self.r.model(m.model.as_str()) {
                    Some(model) => {
                        if let Some(f) = faction
                            && let Err(why) = self.may_field(f, model)
                        {
                            out.push(self.site.error(
                                &format!("{ptr}/model"),
                                why,
                                "a model the force's faction may field",
                                f.source.as_deref(),
                            ));
                        }
                        members.push((ptr, model, m));
                    }
                    None => out.push(self.site.dangling(
                        &format!("{ptr}/model"),
                        DocKind::Model,
                        m.model.as_str(),
                        self.ids(DocKind::Model),
                    )),
                }
            }
            for (ptr, model, m) in &members {
                for (sa, _) in self.r.special_attributes(model, &m.upgrades) {
                    if let Some(res) = self.rules.reserved.iter().find(|x| x.sa.as_str() == sa)
                        && res.squad_type != sq.squad_type
                    {
                        let cite = self.r.squad_type(res.squad_type.as_str()).and_then(|t| t.source.as_deref());
                        out.push(self.site.error(
                            &format!("{ptr}/model"),
                            format!(
                                "`{}` has {} and may only serve in a {} squad",
                                model.id.as_str(),
                                sa,
                                res.squad_type.as_str()
                            ),
                            "the model in the squad type its special attribute reserves it to",
                            cite,
                        ));
                    }
                }
            }
            let Some(ty) = ty else { continue };
            self.squad(ty, &base, &members, sq.models.len(), out);
        }
    }

    fn squad(
        &self,
        ty: &SquadType,
        base: &str,
        members: &[(String, &'a Model, &'a ForceModel)],
        sq_len: usize,
        out: &mut Vec<Diagnostic>,
    ) {
        let cite = ty.source.as_deref();
        let is_transport = |m: &Model| ty.transports && m.task == self.rules.transport_task;
        let (transports, troops): (Vec<_>, Vec<_>) = members.iter().partition(|(_, m, _)| is_transport(m));
        // Model types and tasks.
        let mut off_task = 0u32;
        for (ptr, model, m) in &troops {
            if !ty.model_types.is_empty() && !ty.model_types.contains(&model.model_type) {
                out.push(self.site.error(
                    &format!("{ptr}/model"),
                    format!(
                        "the {} takes {}; `{}` is of type {}",
                        ty.name,
                        list(ty.model_types.iter().map(|t| t.id())),
                        model.id.as_str(),
                        model.model_type.id()
                    ),
                    "a model of a type the squad takes",
                    cite,
                ));
            }
            if !ty.tasks.is_empty() && !ty.tasks.contains(&model.task) {
                let swappable = ty.swap.as_ref().is_some_and(|s| s.tasks.contains(&model.task));
                if swappable {
                    off_task += m.count;
                } else {
                    out.push(self.site.error(
                        &format!("{ptr}/model"),
                        format!(
                            "the {} takes models with the {} task; `{}` has the {} task",
                            ty.name,
                            list(ty.tasks.iter().map(|t| task_name(*t))),
                            model.id.as_str(),
                            task_name(model.task)
                        ),
                        "a model with one of the squad's tasks",
                        cite,
                    ));
                }
            }
        }
        if let Some(swap) = &ty.swap
            && off_task > swap.count
        {
            out.push(self.site.error(
                &format!("{base}/models"),
                format!(
                    "the {} may take {} model(s) with the {} task in place of its own; this one has {off_task}",
                    ty.name,
                    swap.count,
                    list(swap.tasks.iter().map(|t| task_name(*t)))
                ),
                "at most the squad type's swapped models",
                cite,
            ));
        }
        // Size, heavy models counting more than one (unknown models are reported already).
        let complete = members.len() == sq_len;
        let size: u32 =
            troops.iter().map(|(_, model, m)| self.weight(model, &m.upgrades).saturating_mul(m.count)).sum();
        if complete && (size < ty.min_models || size > ty.max_models) {
            let heavy = if troops.iter().any(|(_, model, m)| self.weight(model, &m.upgrades) > 1) {
                " (heavy models such as Bulky ones count as more than one)"
            } else {
                ""
            };
            out.push(self.site.error(
                &format!("{base}/models"),
                format!(
                    "the {} has {} to {} models; this one counts {size}{heavy}",
                    ty.name, ty.min_models, ty.max_models
                ),
                "a squad size inside the squad type's limits",
                cite,
            ));
        }
        // Sameness.
        let differs = |key: &dyn Fn(&Model) -> String, group: &[&(String, &'a Model, &'a ForceModel)]| {
            let first = group.first().map(|(_, m, _)| key(m));
            group.iter().find(|(_, m, _)| Some(key(m)) != first).map(|(p, _, _)| p.clone())
        };
        if ty.same_task
            && let Some(p) = differs(&|m| task_name(m.task).to_owned(), &troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("every model of the {} has the same task", ty.name),
                "models with one task",
                cite,
            ));
        }
        if ty.same_model_type
            && let Some(p) = differs(&|m| m.model_type.id().to_owned(), &troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("every model of the {} has the same model type", ty.name),
                "models of one model type",
                cite,
            ));
        }
        if ty.one_variety
            && let Some(p) = differs(&|m| format!("{}/{:?}", m.model_type.id(), m.chassis), &troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("the {} is of one variety only (light, heavy or powered)", ty.name),
                "infantry of one variety",
                cite,
            ));
        }
        // Transports: one model type, no more than the troops need.
        if transports.is_empty() {
            return;
        }
        if let Some(p) = differs(&|m| m.model_type.id().to_owned(), &transports) {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("every transport of the {} has the same model type", ty.name),
                "transports of one model type",
                cite,
            ));
        }
        let weight = troops.iter().map(|(_, model, m)| self.weight(model, &m.upgrades)).max().unwrap_or(1);
        let troop_count: u32 = troops.iter().map(|(_, _, m)| m.count).sum();
        // Each transport carries rating ÷ weight models; the squad may bring only as many as it needs.
        let mut carried: Vec<u32> = Vec::new();
        for (ptr, model, m) in &transports {
            let cap = self.transport_rating(model, &m.upgrades) / weight;
            if cap == 0 {
                out.push(self.site.error(
                    &format!("{ptr}/model"),
                    format!("`{}` has no transport slots for this squad's infantry", model.id.as_str()),
                    "a transport whose rating carries at least one of the squad's models",
                    cite,
                ));
            }
            carried.extend(std::iter::repeat_n(cap, m.count as usize));
        }
        carried.sort_unstable();
        let total: u32 = carried.iter().sum();
        if let Some(&smallest) = carried.first()
            && total - smallest >= troop_count
        {
            out.push(self.site.error(
                &format!("{base}/models"),
                format!(
                    "the {} brings only the transports its {troop_count} model(s) need; {} transports carry {total}",
                    ty.name,
                    carried.len()
                ),
                "no transport the squad could do without",
                cite,
            ));
        }
    }

    /// How many squads of each type and class (001 L660-688, L851-861, L968-990).
    fn squad_counts(&self, out: &mut Vec<Diagnostic>) {
        let fielded: u64 = self.force.squads.iter().flat_map(|s| &s.models).map(|m| u64::from(m.count)).sum();
        let most = cav_format::limits::MAX_MODELS_PER_SIDE;
        if fielded > most as u64 {
            out.push(self.site.error(
                "/squads",
                format!("the force fields {fielded} models, more than the {most} one side may field"),
                "a force a game can play",
                None,
            ));
        }
        let mut per_type: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        let (mut primary, mut secondary) = (0u32, Vec::new());
        for (i, sq) in self.force.squads.iter().enumerate() {
            per_type.entry(sq.squad_type.as_str()).or_default().push(i);
            match self.r.squad_type(sq.squad_type.as_str()).map(|t| t.class) {
                Some(SquadClass::Primary) => primary += 1,
                Some(SquadClass::Secondary) => secondary.push(i),
                _ => {}
            }
        }
        for (id, idx) in &per_type {
            let Some(ty) = self.r.squad_type(id) else { continue };
            if let Some(max) = ty.max_per_force
                && idx.len() as u32 > max
            {
                out.push(self.site.error(
                    &format!("/squads/{}/type", idx[max as usize]),
                    format!("a force group fields at most {max} {}; this one has {}", ty.name, idx.len()),
                    "no more squads of the type than it allows",
                    ty.source.as_deref(),
                ));
            }
        }
        let allowed = match self.secondary_rule {
            SecondarySquadLimit::OnePlusHalfPrimary => {
                self.rules.secondary_free + primary / self.rules.primaries_per_secondary.max(1)
            }
            SecondarySquadLimit::UnderTwicePrimary => (2 * primary).saturating_sub(1).max(self.rules.secondary_free),
        };
        if secondary.len() as u32 > allowed {
            out.push(self.site.error(
                &format!("/squads/{}/type", secondary[allowed as usize]),
                format!(
                    "{} secondary squads with {primary} primary: {}, so at most {allowed} (option secondary-squad-limit)",
                    secondary.len(),
                    match self.secondary_rule {
                        SecondarySquadLimit::OnePlusHalfPrimary => format!(
                            "{} may come free and each further one needs {} more primary squads",
                            self.rules.secondary_free, self.rules.primaries_per_secondary
                        ),
                        SecondarySquadLimit::UnderTwicePrimary => "they stay under twice the primary ones".to_owned(),
                    }
                ),
                "fewer secondary squads, or more primary ones",
                Some(&self.rules.source.secondary_squads),
            ));
        }
    }

    /// Each model's upgrades: they exist, fit the model, one of each (001 L1213-1235).
    /// A model with the ruleset's unique special attribute (Unique) appears once at most in the
    /// force group, counting every squad and every `count` (001 L8666-8680).
    fn uniques(&self, out: &mut Vec<Diagnostic>) {
        let Some(unique) = &self.rules.unique_sa else { return };
        let cite = self.rs.get(DocKind::SpecialAttribute, unique.as_str()).and_then(|e| match &e.doc {
            Some(Document::SpecialAttribute(sa)) => sa.source.as_deref(),
            _ => None,
        });
        let mut fielded: BTreeMap<&str, u32> = BTreeMap::new();
        for (si, sq) in self.force.squads.iter().enumerate() {
            for (mi, m) in sq.models.iter().enumerate() {
                let Some(model) = self.r.model(m.model.as_str()) else { continue };
                if !self.r.special_attributes(model, &m.upgrades).iter().any(|(sa, _)| *sa == unique.as_str()) {
                    continue;
                }
                let n = fielded.entry(m.model.as_str()).or_default();
                *n = n.saturating_add(m.count);
                if *n > 1 {
                    out.push(self.site.error(
                        &format!("/squads/{si}/models/{mi}/model"),
                        format!("`{}` is {unique}: a force group fields at most one", m.model.as_str()),
                        "one model of each unique kind in the whole force group",
                        cite,
                    ));
                }
            }
        }
    }

    fn upgrades(&self, out: &mut Vec<Diagnostic>) {
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
                    if !res.model_types.is_empty() && !res.model_types.contains(&model.model_type) {
                        out.push(self.site.error(
                            &ptr,
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
                            format!("{} is bought once per model; `times: {}` is for upgrades the book lets a model buy again", up.name, u.times()),
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
                            &ptr,
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
                        out.push(self.site.error(&ptr, why, "a munition for a launcher the model carries", cite));
                    }
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

    fn any_model_with(&self, sa: &Id) -> bool {
        self.force.squads.iter().flat_map(|s| &s.models).any(|m| {
            self.r.model(m.model.as_str()).is_some_and(|model| {
                self.r.special_attributes(model, &m.upgrades).iter().any(|(id, _)| *id == sa.as_str())
            })
        })
    }

    /// A weapon emplacement names its weapon card, one made for it; no other asset names one.
    fn emplacement(&self, i: usize, a: &ForceAsset, asset: &Asset, out: &mut Vec<Diagnostic>) {
        let cite = Some(asset.source.as_deref().unwrap_or(&self.rules.source.assets));
        match (&asset.emplacement, &a.emplacement) {
            (Some(_), None) => out.push(self.site.error(
                &format!("/assets/{i}/asset"),
                format!("{} is a weapon emplacement: name its weapon card", asset.name),
                "`emplacement: {model: <a card whose emplacement is this asset>}`",
                cite,
            )),
            (None, Some(_)) => out.push(self.site.error(
                &format!("/assets/{i}/emplacement"),
                format!("{} is not a weapon emplacement", asset.name),
                "no `emplacement` (only an asset with `emplacement:` has a weapon)",
                cite,
            )),
            (Some(_), Some(e)) => match self.r.model(e.model.as_str()) {
                None => out.push(self.site.dangling(
                    &format!("/assets/{i}/emplacement/model"),
                    DocKind::Model,
                    e.model.as_str(),
                    self.ids(DocKind::Model),
                )),
                Some(m) if m.emplacement.as_ref() != Some(&a.asset) => out.push(self.site.error(
                    &format!("/assets/{i}/emplacement/model"),
                    format!("{} is not a weapon card of {}", m.name, asset.name),
                    &format!("a card whose `emplacement:` is `{}`", a.asset.as_str()),
                    cite,
                )),
                Some(_) => {}
            },
            (None, None) => {}
        }
    }

    /// Assets exist; those used during play and the strike pool need a model that can use them
    /// (001 L1237-1277).
    fn assets_and_strikes(&self, out: &mut Vec<Diagnostic>) {
        let engineer = self.any_model_with(&self.rules.asset_user_sa);
        for (i, a) in self.force.assets.iter().enumerate() {
            let ptr = format!("/assets/{i}/asset");
            match self.r.asset(a.asset.as_str()) {
                None => out.push(self.site.dangling(&ptr, DocKind::Asset, a.asset.as_str(), self.ids(DocKind::Asset))),
                Some(asset) if asset.placement == AssetPlacement::DuringPlay && !engineer => {
                    out.push(self.site.warning(
                        &ptr,
                        format!(
                            "{} is used during play, which needs a model with {}; the force has none",
                            asset.name,
                            self.rules.asset_user_sa.as_str()
                        ),
                        Some(&self.rules.source.assets),
                    ))
                }
                Some(_) => {}
            }
            if let Some(asset) = self.r.asset(a.asset.as_str()) {
                self.emplacement(i, a, asset, out);
            }
            if let (Some(v), Some(asset)) = (&a.variant, self.r.asset(a.asset.as_str()))
                && !asset.variants.contains(v)
            {
                let kinds: Vec<&str> = asset.variants.iter().map(|t| t.as_str()).collect();
                out.push(self.site.error(
                    &format!("/assets/{i}/variant"),
                    format!("{} has no variant `{v}`", asset.name),
                    &if kinds.is_empty() {
                        "no `variant` (the asset has none)".to_owned()
                    } else {
                        format!("one of {}", kinds.join(", "))
                    },
                    Some(&self.rules.source.assets),
                ));
            }
        }
        // Per-squad limits count every entry of the asset (001 L10862-10864, L10896-10898,
        // L10968-10970): reported once, at its last entry.
        let squads = self.force.squads.len() as u32;
        for (i, a) in self.force.assets.iter().enumerate() {
            let Some(asset) = self.r.asset(a.asset.as_str()) else { continue };
            let Some(per) = asset.max_per_squad else { continue };
            if self.force.assets[i + 1..].iter().any(|b| b.asset == a.asset) {
                continue;
            }
            let bought: u32 = self.force.assets.iter().filter(|b| b.asset == a.asset).map(|b| b.count).sum();
            let most = per.saturating_mul(squads);
            if bought > most {
                out.push(self.site.error(
                    &format!("/assets/{i}/count"),
                    format!(
                        "{}: at most {per} per squad, and the force fields {squads} squad{}, so {most}; it buys {bought}",
                        asset.name,
                        if squads == 1 { "" } else { "s" }
                    ),
                    &format!("at most {most}"),
                    Some(asset.source.as_deref().unwrap_or(&self.rules.source.assets)),
                ));
            }
        }
        if self.force.strike_pools.values().any(|&tv| tv > 0) && !self.any_model_with(&self.rules.strike_caller_sa) {
            out.push(self.site.error(
                "/strike_pools",
                format!(
                    "a strike pool is called in by a model with {}; the force has none",
                    self.rules.strike_caller_sa.as_str()
                ),
                "a model that can call strikes, or no strike pool",
                Some(&self.rules.source.strikes),
            ));
        }
    }

    /// The threat value: models within the pool less what specializations take of it; the
    /// specializations within the bonus and the reserve (001 L594-638, L1191-1211).
    fn threat_value(&self, out: &mut Vec<Diagnostic>) {
        let c = costs(self.rs, self.force);
        let tvp = self.force.tvp;
        let bonus = percent(tvp, self.rules.specialization_bonus_percent);
        let reserve_max = percent(tvp, self.rules.specialization_reserve_percent);
        let spec = c.specializations();
        let from_pool = spec.saturating_sub(bonus);
        if from_pool > reserve_max {
            out.push(self.site.error(
                "/tvp",
                format!(
                    "specializations cost {spec} TV (upgrades {}, assets {}, strike pool {}); the bonus of {bonus} and at most {reserve_max} reserved from the pool allow {}",
                    c.upgrades,
                    c.assets,
                    c.strike_pool,
                    bonus.saturating_add(reserve_max)
                ),
                "specializations within the bonus plus the reserve",
                Some(&self.rules.source.specializations),
            ));
        }
        if c.models.saturating_add(from_pool) > tvp {
            let reserved =
                if from_pool > 0 { format!(" + {from_pool} reserved for specializations") } else { String::new() };
            out.push(self.site.error(
                "/tvp",
                format!(
                    "models cost {}{reserved} = {} TV, over the pool of {tvp}",
                    c.models,
                    c.models.saturating_add(from_pool)
                ),
                "a force within its threat value pool",
                Some(&self.rules.source.pool),
            ));
        }
        if self.force.squads.is_empty() {
            out.push(self.site.error("/squads", "the force has no squads".into(), "at least one squad", None));
        }
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

/// `n`% of `tvp`, rounded down.
pub(crate) fn percent(tvp: u32, n: u32) -> u32 {
    ((tvp as u64 * n as u64) / 100).min(u32::MAX as u64) as u32
}

fn list<'x>(items: impl Iterator<Item = &'x str>) -> String {
    let v: Vec<&str> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].to_owned(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

pub(crate) fn task_name(t: Task) -> &'static str {
    match t {
        Task::Attack => "attack",
        Task::FireSupport => "fire support",
        Task::Recon => "recon",
        Task::Transport => "transport",
        Task::FlightAttack => "flight attack",
        Task::FlightFireSupport => "flight fire support",
        Task::FlightRecon => "flight recon",
        Task::FlightTransport => "flight transport",
    }
}
