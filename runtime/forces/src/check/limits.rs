//! Limits over the whole force group: squads of each type and class, unique models, and the
//! threat value.

use std::collections::BTreeMap;

use cav_content::Diagnostic;
use cav_format::{DocKind, Document, SecondarySquadAllowance, SquadClass};

use super::{Cx, SECONDARY_OPTION};
use crate::roster::costs;

impl Cx<'_> {
    /// How many squads of each type and class (001 L660-688, L851-861, L968-990).
    pub(super) fn squad_counts(&self, out: &mut Vec<Diagnostic>) {
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
        self.secondary_squads(primary, &secondary, out);
    }

    /// No more secondary squads than the formula of the chosen reading of option
    /// `secondary-squad-limit` allows for `primary` primary squads (001 L676-688).
    fn secondary_squads(&self, primary: u32, secondary: &[usize], out: &mut Vec<Diagnostic>) {
        if secondary.is_empty() {
            return;
        }
        let reading = self.secondary_reading.unwrap_or_default();
        let Some(formula) = self.rules.secondary_squads.iter().find(|(k, _)| k.as_str() == reading).map(|(_, f)| f)
        else {
            out.push(self.site.error(
                &format!("/squads/{}/type", secondary[0]),
                format!(
                    "the ruleset gives no secondary-squad allowance for reading `{reading}` of option {SECONDARY_OPTION} (`force_building.secondary_squads`)"
                ),
                "a ruleset with a formula for its chosen reading",
                Some(&self.rules.source.secondary_squads),
            ));
            return;
        };
        let allowed = allowance(formula, primary);
        if secondary.len() as u32 > allowed {
            out.push(self.site.error(
                &format!("/squads/{}/type", secondary[allowed as usize]),
                format!(
                    "{} secondary squads with {primary} primary: at most {} = {allowed} (option {SECONDARY_OPTION}: {reading})",
                    secondary.len(),
                    arithmetic(formula, primary),
                ),
                "fewer secondary squads, or more primary ones",
                Some(&self.rules.source.secondary_squads),
            ));
        }
    }

    /// A model with the ruleset's unique special attribute (Unique) appears once at most in the
    /// force group, counting every squad and every `count` (001 L8666-8680).
    pub(super) fn uniques(&self, out: &mut Vec<Diagnostic>) {
        let Some(unique) = &self.rules.unique_sa else { return };
        let cite = self.rs.get(DocKind::SpecialAttribute, unique.as_str()).and_then(|e| match e.doc.as_deref() {
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

    /// The threat value: models within the pool less what specializations take of it; the
    /// specializations within the bonus and the reserve (001 L594-638, L1191-1211).
    pub(super) fn threat_value(&self, out: &mut Vec<Diagnostic>) {
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

/// `n`% of `tvp`, rounded down.
pub(crate) fn percent(tvp: u32, n: u32) -> u32 {
    ((tvp as u64 * n as u64) / 100).min(u32::MAX as u64) as u32
}

/// The secondary squads a formula allows for `primary` primary squads: primary × `times` ÷
/// `per_primaries` rounded down, `+ plus`, but never fewer than `at_least` (nor than none).
fn allowance(f: &SecondarySquadAllowance, primary: u32) -> u32 {
    let by_primaries = i64::from(primary) * i64::from(f.times) / i64::from(f.per_primaries.max(1)) + i64::from(f.plus);
    by_primaries.max(i64::from(f.at_least)).clamp(0, i64::from(u32::MAX)) as u32
}

/// The formula with the count of primary squads put in, as the diagnostic shows it:
/// `1 + 3 ÷ 2 rounded down`, `the larger of 1 and 2 × 1 − 1`.
fn arithmetic(f: &SecondarySquadAllowance, primary: u32) -> String {
    let mut s = if f.times == 1 { primary.to_string() } else { format!("{} × {primary}", f.times) };
    if f.per_primaries > 1 {
        s = format!("{s} ÷ {} rounded down", f.per_primaries);
    }
    s = match f.plus {
        0 => s,
        p if p > 0 => format!("{p} + {s}"),
        p => format!("{s} − {}", p.unsigned_abs()),
    };
    if f.at_least > 0 { format!("the larger of {} and {s}", f.at_least) } else { s }
}
