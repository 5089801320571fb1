//! Force building (full rules, 001 L594-1336): factions, the ruleset's force-building numbers and
//! the `force` document — a roster of squads, upgrades, assets and a strike pool.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::catalog::Task;
use crate::common::{Id, Note};

/// What a force group of one faction class may field (001 L644-783). The classes are the ruleset's
/// (`force_building.faction_classes`): a faction's `class:` names one of them.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactionClassRules {
    /// A force group of this class fields any model (another faction's fixtures excepted).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fields_any: bool,
    /// A model of a faction of this class serves in a force group of any faction.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub serves_any: bool,
    /// Classes whose models a force group of this class fields when the two factions are allied
    /// (either lists the other in `allies:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields_allied: Vec<Id>,
    /// A force group of this class may not take a force doctrine.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_doctrine: bool,
    /// Where the rulebook sets the class's rules (cited by the force check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// How many secondary squads a force group may field for its primary squads (001 L676-688), one
/// formula per reading of the `secondary-squad-limit` option: at most `at_least`, or primary
/// squads × `times` ÷ `per_primaries` rounded down, `+ plus`, whichever is larger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SecondarySquadAllowance {
    /// Secondary squads each primary squad allows (before dividing by `per_primaries`).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 100))]
    pub times: u32,
    /// The primary squads counted are divided by this, rounding down.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 100))]
    pub per_primaries: u32,
    /// Added to (or, negative, taken from) what the primary squads allow.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = -100, max = 100))]
    pub plus: i32,
    /// Secondary squads allowed whatever the count of primary ones.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(min = 0, max = 100))]
    pub at_least: u32,
}

/// A faction. A model's `faction:` names one by id, name or one of its other names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Faction {
    pub id: Id,
    pub name: String,
    /// Its faction class, which decides whose models its force groups field (001 L644-783): a key
    /// of the ruleset's `force_building.faction_classes` (`major`, `independent`, `open` in the
    /// full rules).
    pub class: Id,
    /// Other names models use for it (`Rach` for the Greater Empire of the Rach).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_called: Vec<String>,
    /// Factions whose models this one may field (independent ↔ major alliances).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allies: Vec<Id>,
    /// Invented models that are not units of the game (scenario-test fixtures, the bodies strikes
    /// fly as): no force but one of this faction fields them, not even an open one, and the
    /// force-building bot never does.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fixture: bool,
    pub summary: String,
    /// Where the rulebook defines it; leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Primary, secondary or infantry: decides how many squads of the type a force may field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SquadClass {
    Primary,
    Secondary,
    Infantry,
}

/// Models of other tasks a squad may take in place of its own (one fire-support model in an
/// attack squad).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskSwap {
    /// How many models may have one of these tasks.
    pub count: u32,
    pub tasks: Vec<Task>,
}

/// A special attribute that makes a model count as more than one for squad size and transport
/// slots (Bulky counts as two).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeavyModel {
    pub sa: Id,
    #[schemars(range(min = 1, max = 99))]
    pub counts_as: u32,
}

/// A special attribute only one squad type may field (Specialist).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReservedSa {
    pub sa: Id,
    pub squad_type: Id,
}

/// The ruleset's force-building numbers (001 L594-638, L1181-1277). A ruleset without this section
/// has no force building: its scenarios fix their forces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceRules {
    /// Bonus added to the threat value pool for specializations only (upgrades, assets, strike
    /// pool), in percent of the pool.
    #[schemars(range(max = 1000))]
    pub specialization_bonus_percent: u32,
    /// Part of the base pool that may be reserved for specializations as well, in percent.
    #[schemars(range(max = 100))]
    pub specialization_reserve_percent: u32,
    /// The secondary-squad allowance, keyed by the readings of the `secondary-squad-limit`
    /// option: the chosen reading's formula applies.
    pub secondary_squads: std::collections::BTreeMap<Id, SecondarySquadAllowance>,
    /// The faction classes (a faction's `class:` names one) and whose models each fields.
    pub faction_classes: std::collections::BTreeMap<Id, FactionClassRules>,
    /// Special attributes that make a model count as more than one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heavy_models: Vec<HeavyModel>,
    /// Special attributes whose models may only serve in one squad type.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reserved: Vec<ReservedSa>,
    /// The special attribute whose rating is a transport's slots.
    pub transport_sa: Id,
    /// The task of transports that infantry squads may add.
    pub transport_task: Task,
    /// The special attribute whose rating adds points to the force's C3 pool (001 L1278-1300).
    pub c3_sa: Id,
    /// The special attribute a model needs to call strikes from the strike pool (FIST).
    pub strike_caller_sa: Id,
    /// The special attribute a model needs to use assets placed during play (Combat Engineer).
    pub asset_user_sa: Id,
    /// The special attribute of which a force group may field one model at most (Unique).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique_sa: Option<Id>,
    /// The pool the book recommends to start with (the bot's default pool).
    pub recommended_tvp: u32,
    /// The book's guide to a starting pool (`cav force pool`): threat value per model by table
    /// and chassis size, for squads of `squad_size` models.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_guide: Option<PoolGuide>,
    /// Where the rulebook sets each rule (cited by the force check).
    pub source: ForceSources,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A guide to a starting threat value pool (001 L1643-1675): a pool is squads × `squad_size` ×
/// the table's threat value per model of the chosen chassis size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PoolGuide {
    /// The average squad the tables assume.
    #[schemars(range(min = 1, max = 100))]
    pub squad_size: u32,
    /// Table id (`cav`, `vehicles`, …) → chassis size → threat value per model.
    pub tables: std::collections::BTreeMap<Id, std::collections::BTreeMap<Id, u32>>,
    /// Where the book gives the tables.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Where the rulebook sets each force-building rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceSources {
    /// The threat value pool.
    pub pool: String,
    /// The secondary-squad limit.
    pub secondary_squads: String,
    /// The specialization bonus and reserve.
    pub specializations: String,
    /// One upgrade of each type per model.
    pub upgrades: String,
    /// Assets used during play.
    pub assets: String,
    /// The strike pool.
    pub strikes: String,
    /// The C3 pool.
    pub c3: String,
}

/// A force group: a roster a side brings to a game (001 L594-1336).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Force {
    pub id: Id,
    pub name: String,
    /// Id of the force's faction.
    pub faction: Id,
    /// A force doctrine of the faction (open factions may not take one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doctrine: Option<Id>,
    /// The threat value pool the players agreed.
    #[schemars(range(min = 1, max = 1000000))]
    pub tvp: u32,
    pub squads: Vec<ForceSquad>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assets: Vec<ForceAsset>,
    /// Threat value put in the strike pool, per strike package (artillery, air, space), for the
    /// strikes a FIST model calls in during play (001 L11027-11043).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub strike_pools: std::collections::BTreeMap<crate::StrikePackage, u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// One squad of a force.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceSquad {
    /// Id of the squad type.
    #[serde(rename = "type")]
    pub squad_type: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub models: Vec<ForceModel>,
}

/// Models of a squad: one model id (`count` copies), with the upgrades each copy carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceModel {
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 99))]
    pub count: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub upgrades: Vec<ForceUpgrade>,
}

/// An upgrade fitted to a model: `veteran-pilot`, or `{upgrade: high-explosive, weapon:
/// medium-howitzer}` for a munition loaded in one launcher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ForceUpgrade {
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    Plain(Id),
    For(UpgradeFor),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpgradeFor {
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    pub upgrade: Id,
    /// The launcher a munition is loaded in, or the weapon type an upgrade that chooses a grant
    /// works on (a weapon of the model).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub weapon: Option<Id>,
    /// The special attribute taken, of an upgrade whose grants are alternatives (`choose_grant`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub choice: Option<Id>,
    /// The rank or size bought, of an upgrade with `variants` (the Officer's `major`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<Id>,
    /// How many are bought, of a `repeatable` upgrade (three Claymore sets).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 9))]
    pub times: u32,
}

impl ForceUpgrade {
    pub fn id(&self) -> &Id {
        match self {
            ForceUpgrade::Plain(id) => id,
            ForceUpgrade::For(u) => &u.upgrade,
        }
    }
    pub fn weapon(&self) -> Option<&Id> {
        match self {
            ForceUpgrade::Plain(_) => None,
            ForceUpgrade::For(u) => u.weapon.as_ref(),
        }
    }
    pub fn choice(&self) -> Option<&Id> {
        match self {
            ForceUpgrade::Plain(_) => None,
            ForceUpgrade::For(u) => u.choice.as_ref(),
        }
    }
    pub fn variant(&self) -> Option<&Id> {
        match self {
            ForceUpgrade::Plain(_) => None,
            ForceUpgrade::For(u) => u.variant.as_ref(),
        }
    }
    /// How many are bought (1 unless `times:` says).
    pub fn times(&self) -> u32 {
        match self {
            ForceUpgrade::Plain(_) => 1,
            ForceUpgrade::For(u) => u.times,
        }
    }
}

/// Battlefield assets bought for the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceAsset {
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub asset: Id,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 99))]
    pub count: u32,
    /// For an asset with `variants`: the one of them set down instead of its `terrain`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub variant: Option<Id>,
    /// For a weapon emplacement (an asset with `emplacement:`): its weapon and bunker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emplacement: Option<ForceEmplacement>,
}

/// A weapon emplacement bought (`ForceAsset::emplacement`): priced as the asset's cost per
/// bunker section, its `turret_tv` when the weapon sits in a roof turret, and the weapon card's TV.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForceEmplacement {
    /// The model card of its weapon (a card whose `emplacement:` names this asset).
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    /// Bunker sections (2" squares): one, or more for a larger bunker.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = 1, max = 9))]
    pub sections: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}
