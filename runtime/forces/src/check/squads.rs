//! Squads: each squad's type, its models' faction, type and task, its size, the type's sameness
//! rules and the transports of infantry squads.

use cav_content::Diagnostic;
use cav_format::{DocKind, ForceModel, ForceUpgrade, Model, SquadType};

use super::{Cx, list, task_name};

/// A squad's entry for one copy-group of a model that exists: (pointer, model, entry).
type Member<'a> = (String, &'a Model, &'a ForceModel);

impl<'a> Cx<'a> {
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
    pub(super) fn squads(&self, out: &mut Vec<Diagnostic>) {
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
            let mut members: Vec<Member<'a>> = Vec::new();
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

    /// One squad of type `ty` at `base`: its models' types and tasks, its size, the type's
    /// sameness rules and its transports. `members` are its models that exist, of `sq_len`.
    fn squad(&self, ty: &SquadType, base: &str, members: &[Member<'a>], sq_len: usize, out: &mut Vec<Diagnostic>) {
        let cite = ty.source.as_deref();
        let is_transport = |m: &Model| ty.transports && m.task == Some(self.rules.transport_task);
        let (transports, troops): (Vec<_>, Vec<_>) = members.iter().partition(|(_, m, _)| is_transport(m));
        self.types_and_tasks(ty, base, &troops, out);
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
        self.sameness(ty, &troops, out);
        self.transports(ty, base, &transports, &troops, out);
    }

    /// The troops' model types and tasks; a few may have another task where the type swaps them.
    fn types_and_tasks(&self, ty: &SquadType, base: &str, troops: &[&Member<'a>], out: &mut Vec<Diagnostic>) {
        let cite = ty.source.as_deref();
        // Model types and tasks.
        let mut off_task = 0u32;
        for (ptr, model, m) in troops {
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
            if !ty.tasks.is_empty() && !model.task.is_some_and(|t| ty.tasks.contains(&t)) {
                let swappable = ty.swap.as_ref().is_some_and(|s| model.task.is_some_and(|t| s.tasks.contains(&t)));
                if swappable {
                    off_task += m.count;
                } else {
                    out.push(self.site.error(
                        &format!("{ptr}/model"),
                        format!(
                            "the {} takes models with the {} task; `{}` has the {} task",
                            ty.name,
                            list(ty.tasks.iter().map(|t| task_name(Some(*t)))),
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
                    list(swap.tasks.iter().map(|t| task_name(Some(*t))))
                ),
                "at most the squad type's swapped models",
                cite,
            ));
        }
    }

    /// The squad type's sameness rules: one task, one model type, one variety.
    fn sameness(&self, ty: &SquadType, troops: &[&Member<'a>], out: &mut Vec<Diagnostic>) {
        let cite = ty.source.as_deref();
        // Sameness.
        if ty.same_task
            && let Some(p) = differs(&|m| task_name(m.task).to_owned(), troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("every model of the {} has the same task", ty.name),
                "models with one task",
                cite,
            ));
        }
        if ty.same_model_type
            && let Some(p) = differs(&|m| m.model_type.id().to_owned(), troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("every model of the {} has the same model type", ty.name),
                "models of one model type",
                cite,
            ));
        }
        if ty.one_variety
            && let Some(p) = differs(&|m| format!("{}/{:?}", m.model_type.id(), m.chassis), troops)
        {
            out.push(self.site.error(
                &format!("{p}/model"),
                format!("the {} is of one variety only (light, heavy or powered)", ty.name),
                "infantry of one variety",
                cite,
            ));
        }
    }

    /// An infantry squad's transports: one model type, no more than the troops need.
    fn transports(
        &self,
        ty: &SquadType,
        base: &str,
        transports: &[&Member<'a>],
        troops: &[&Member<'a>],
        out: &mut Vec<Diagnostic>,
    ) {
        let cite = ty.source.as_deref();
        // Transports: one model type, no more than the troops need.
        if transports.is_empty() {
            return;
        }
        if let Some(p) = differs(&|m| m.model_type.id().to_owned(), transports) {
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
        for (ptr, model, m) in transports {
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
}

/// The pointer of the first of `group` whose `key` differs from the first's.
fn differs(key: &dyn Fn(&Model) -> String, group: &[&(String, &Model, &ForceModel)]) -> Option<String> {
    let first = group.first().map(|(_, m, _)| key(m));
    group.iter().find(|(_, m, _)| Some(key(m)) != first).map(|(p, _, _)| p.clone())
}
