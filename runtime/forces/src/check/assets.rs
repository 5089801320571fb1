//! Assets and strikes: each asset exists, its variant and weapon emplacement, per-squad limits,
//! and a model that can use those used during play or call in the strike pool.

use cav_content::Diagnostic;
use cav_format::{Asset, AssetPlacement, DocKind, ForceAsset, Id};

use super::Cx;

impl Cx<'_> {
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
    pub(super) fn assets_and_strikes(&self, out: &mut Vec<Diagnostic>) {
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
}
