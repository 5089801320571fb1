//! A force's documents looked up in a ruleset, and what it costs.

use std::fmt::Write as _;

use cav_content::Ruleset;
use cav_format::*;

/// Typed lookups of the documents a roster names.
pub struct Roster<'a> {
    pub rs: &'a Ruleset,
}

macro_rules! getter {
    ($name:ident, $kind:ident, $ty:ty) => {
        pub fn $name(&self, id: &str) -> Option<&'a $ty> {
            match self.rs.get(DocKind::$kind, id)?.doc.as_deref()? {
                Document::$kind(d) => Some(d),
                _ => None,
            }
        }
    };
}

impl<'a> Roster<'a> {
    pub fn new(rs: &'a Ruleset) -> Self {
        Roster { rs }
    }

    getter!(model, Model, Model);
    getter!(upgrade, Upgrade, Upgrade);
    getter!(asset, Asset, Asset);
    getter!(squad_type, SquadType, SquadType);
    getter!(faction, Faction, Faction);

    /// What one of `asset` bought as `bought` costs: its cost; for a weapon emplacement, its cost
    /// per bunker section, its turret's when the weapon card mounts it on `T`, and the weapon
    /// card's TV (001 L10544-10552).
    pub fn asset_cost(&self, asset: &Asset, bought: &ForceAsset) -> u32 {
        let (Some(e), Some(bought)) = (asset.emplacement, &bought.emplacement) else { return asset.cost.tv };
        let card = self.model(bought.model.as_str());
        let turret = card.is_some_and(|m| m.weapons.iter().any(|w| w.mount.contains(&Mount::T)));
        asset
            .cost
            .tv
            .saturating_mul(bought.sections)
            .saturating_add(if turret { e.turret_tv } else { 0 })
            .saturating_add(card.map_or(0, |m| m.tv))
    }

    pub fn factions(&self) -> impl Iterator<Item = &'a Faction> {
        self.rs.of_kind(DocKind::Faction).filter_map(|e| match e.doc.as_deref()? {
            Document::Faction(f) => Some(f),
            _ => None,
        })
    }

    pub fn models(&self) -> impl Iterator<Item = &'a Model> {
        self.rs.of_kind(DocKind::Model).filter_map(|e| match e.doc.as_deref()? {
            Document::Model(m) => Some(m),
            _ => None,
        })
    }

    pub fn squad_types(&self) -> impl Iterator<Item = &'a SquadType> {
        self.rs.of_kind(DocKind::SquadType).filter_map(|e| match e.doc.as_deref()? {
            Document::SquadType(s) => Some(s),
            _ => None,
        })
    }

    /// The faction a model's `faction:` names: by id, name or another name, case and punctuation
    /// ignored.
    pub fn faction_of(&self, model: &Model) -> Option<&'a Faction> {
        self.factions().find(|f| cav_content::ruleset::names_faction(f, &model.faction))
    }

    /// The model's special attributes with those its upgrades grant: (id, rating).
    pub fn special_attributes(&self, model: &'a Model, upgrades: &[ForceUpgrade]) -> Vec<(&'a str, Option<i32>)> {
        let mut out: Vec<(&'a str, Option<i32>)> =
            model.special_attributes.iter().map(|s| (s.id().as_str(), s.rating())).collect();
        for u in upgrades {
            if let Some(up) = self.upgrade(u.id().as_str()) {
                let rank = Self::variant(up, u).and_then(|v| v.rating);
                out.extend(up.grants.iter().map(|s| (s.id().as_str(), rank.or(s.rating()))));
            }
        }
        out
    }

    /// The rank or size `u` buys of `up`, if it names one the upgrade has.
    pub fn variant<'u>(up: &'u Upgrade, u: &ForceUpgrade) -> Option<&'u UpgradeVariant> {
        u.variant().and_then(|v| up.variants.iter().find(|x| x.id == *v))
    }

    /// The launcher a munition upgrade is loaded in: the named weapon, or the model's only weapon
    /// the munition has a profile for.
    pub fn launcher(&self, model: &Model, up: &'a Upgrade, named: Option<&Id>) -> Result<&'a AttackProfile, String> {
        let fits = |w: &str| up.profiles.iter().find(|p| p.launcher.as_ref().is_some_and(|l| l.as_str() == w));
        if let Some(w) = named {
            if !model.weapons.iter().any(|m| m.weapon == *w) {
                return Err(format!("`{}` carries no weapon `{w}`", model.id.as_str()));
            }
            return fits(w.as_str()).ok_or_else(|| format!("{} has no profile for `{w}`", up.name));
        }
        let mut hits = model.weapons.iter().filter_map(|m| fits(m.weapon.as_str()));
        match (hits.next(), hits.next()) {
            (Some(p), None) => Ok(p),
            (None, _) => Err(format!("`{}` carries none of the launchers {} is made for", model.id.as_str(), up.name)),
            (Some(_), Some(_)) => {
                Err(format!("`{}` has several launchers for {}: name one with `weapon:`", model.id.as_str(), up.name))
            }
        }
    }

    /// What one upgrade costs on one copy of a model, or why it cannot be fitted.
    pub fn upgrade_cost(&self, model: &Model, u: &ForceUpgrade) -> Result<u32, String> {
        let up = self.upgrade(u.id().as_str()).ok_or_else(|| format!("no upgrade `{}`", u.id().as_str()))?;
        let cost = if up.profiles.is_empty() {
            up.cost.clone().ok_or_else(|| format!("{} has no cost", up.name))?
        } else {
            self.launcher(model, up, u.weapon())?.cost.clone().ok_or_else(|| format!("{} has no cost", up.name))?
        };
        let tracks = if cost.per_damage_track { model.damage_track.damage_tracks } else { 1 };
        let tv = Self::variant(up, u).map_or(cost.tv, |v| v.tv);
        Ok(tv.saturating_mul(tracks).saturating_mul(u.times()))
    }
}

/// What a force spends, by what it buys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Costs {
    pub models: u32,
    pub upgrades: u32,
    pub assets: u32,
    pub strike_pool: u32,
}

impl Costs {
    /// Upgrades, assets and the strike pool: what the specialization bonus may pay for.
    pub fn specializations(&self) -> u32 {
        self.upgrades.saturating_add(self.assets).saturating_add(self.strike_pool)
    }
    pub fn total(&self) -> u32 {
        self.models.saturating_add(self.specializations())
    }
}

/// The force's costs; documents that do not exist cost nothing (the check reports them).
pub fn costs(rs: &Ruleset, force: &Force) -> Costs {
    let r = Roster::new(rs);
    let pool = force.strike_pools.values().fold(0u32, |a, &b| a.saturating_add(b));
    let mut c = Costs { strike_pool: pool, ..Costs::default() };
    for m in force.squads.iter().flat_map(|s| &s.models) {
        let Some(model) = r.model(m.model.as_str()) else { continue };
        c.models = c.models.saturating_add(model.tv.saturating_mul(m.count));
        for u in &m.upgrades {
            let each = r.upgrade_cost(model, u).unwrap_or(0);
            c.upgrades = c.upgrades.saturating_add(each.saturating_mul(m.count));
        }
    }
    for a in &force.assets {
        if let Some(asset) = r.asset(a.asset.as_str()) {
            c.assets = c.assets.saturating_add(r.asset_cost(asset, a).saturating_mul(a.count));
        }
    }
    c
}

/// The force's C3 pool at the start of a game: each squad's points and every C3 rating its models
/// carry or their upgrades grant (001 L1278-1300).
pub fn c3_points(rs: &Ruleset, force: &Force) -> u32 {
    let r = Roster::new(rs);
    let Some(rules) = crate::force_rules(rs) else { return 0 };
    let mut n = 0u32;
    for sq in &force.squads {
        n = n.saturating_add(r.squad_type(sq.squad_type.as_str()).map_or(0, |t| t.c3_points));
        for m in &sq.models {
            let Some(model) = r.model(m.model.as_str()) else { continue };
            let rating: u32 = r
                .special_attributes(model, &m.upgrades)
                .iter()
                .filter(|(id, _)| *id == rules.c3_sa.as_str())
                .map(|(_, r)| r.unwrap_or(1).max(0) as u32)
                .sum();
            n = n.saturating_add(rating.saturating_mul(m.count));
        }
    }
    n
}

/// The force as a YAML document (with the editor modeline), as `cav force build` writes it.
pub fn to_yaml(force: &Force, schema_path: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# yaml-language-server: $schema={schema_path}");
    let _ = writeln!(s, "kind: force\nid: {}\nname: {}", force.id.as_str(), quote(&force.name));
    let _ = writeln!(s, "faction: {}", force.faction.as_str());
    if let Some(d) = &force.doctrine {
        let _ = writeln!(s, "doctrine: {}", d.as_str());
    }
    let _ = writeln!(s, "tvp: {}", force.tvp);
    if let Some(sum) = &force.summary {
        let _ = writeln!(s, "summary: {}", quote(sum));
    }
    let _ = writeln!(s, "squads:");
    for sq in &force.squads {
        let _ = writeln!(s, "  - type: {}", sq.squad_type.as_str());
        if let Some(n) = &sq.name {
            let _ = writeln!(s, "    name: {}", quote(n));
        }
        let _ = writeln!(s, "    models:");
        for m in &sq.models {
            let mut line = format!("      - {{model: {}", m.model.as_str());
            if m.count != 1 {
                let _ = write!(line, ", count: {}", m.count);
            }
            if !m.upgrades.is_empty() {
                let ups: Vec<String> = m
                    .upgrades
                    .iter()
                    .map(|u| match u {
                        ForceUpgrade::Plain(id) => id.as_str().to_owned(),
                        ForceUpgrade::For(f) => {
                            let mut s = format!("{{upgrade: {}", f.upgrade.as_str());
                            for (key, v) in [("weapon", &f.weapon), ("choice", &f.choice), ("variant", &f.variant)] {
                                if let Some(v) = v {
                                    let _ = write!(s, ", {key}: {}", v.as_str());
                                }
                            }
                            if f.times != 1 {
                                let _ = write!(s, ", times: {}", f.times);
                            }
                            s + "}"
                        }
                    })
                    .collect();
                let _ = write!(line, ", upgrades: [{}]", ups.join(", "));
            }
            let _ = writeln!(s, "{line}}}");
        }
    }
    if !force.assets.is_empty() {
        let _ = writeln!(s, "assets:");
        for a in &force.assets {
            let mut fields = vec![format!("asset: {}", a.asset.as_str())];
            if a.count != 1 {
                fields.push(format!("count: {}", a.count));
            }
            if let Some(v) = &a.variant {
                fields.push(format!("variant: {}", v.as_str()));
            }
            if let Some(e) = &a.emplacement {
                fields.push(format!("emplacement: {{model: {}, sections: {}}}", e.model.as_str(), e.sections));
            }
            let _ = writeln!(s, "  - {{{}}}", fields.join(", "));
        }
    }
    if !force.strike_pools.is_empty() {
        let _ = writeln!(s, "strike_pools:");
        for (package, tv) in &force.strike_pools {
            let name =
                serde_json::to_value(package).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            let _ = writeln!(s, "  {name}: {tv}");
        }
    }
    s
}

/// A YAML double-quoted scalar.
fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
}
