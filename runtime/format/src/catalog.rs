//! Catalog documents: models (data cards), weapon systems, special attributes, upgrades,
//! battlefield assets and strike packages.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// Chassis size class of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Chassis {
    ExtraSmall,
    Small,
    Medium,
    Large,
    ExtraLarge,
    Light,
    Heavy,
    ExtraHeavy,
}

/// The model's task symbol; decides which squads it may join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    Attack,
    FireSupport,
    Recon,
    Transport,
    FlightAttack,
    FlightFireSupport,
    FlightRecon,
    FlightTransport,
}

/// Weapon mounting location on the card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Mount {
    /// Front
    F,
    /// Back (rear)
    B,
    /// Left (arm or side)
    L,
    /// Right (arm or side)
    R,
    /// Turret (360°)
    T,
}

/// How an aircraft flies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Airframe {
    Rotor,
    Vtol,
    FixedWing,
}

/// A model's data card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub id: Id,
    /// Model name as printed, e.g. `Dictator-B`.
    pub name: String,
    /// Faction the model belongs to.
    pub faction: String,
    pub model_type: ModelType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chassis: Option<Chassis>,
    pub task: Task,
    /// Id of the move class (`walker`, `tracked`, …).
    #[schemars(extend("x-cav-ref" = "move_class"))]
    pub move_class: Id,
    /// How an aircraft flies: rotor and VTOL aircraft land and take off anywhere, fixed-wing
    /// ones only on a landing field (001 L3670-3692). Not for other model types.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub airframe: Option<Airframe>,
    /// Threat value (points cost).
    pub tv: u32,
    /// Base width across flats in inches (hex base).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_size: Option<f64>,
    pub damage_track: DamageTrack,
    #[serde(default)]
    pub weapons: Vec<WeaponMount>,
    #[serde(default)]
    pub special_attributes: Vec<SaRef>,
    /// This card is the weapon of a battlefield asset's emplacement (an asset with
    /// `emplacement:`, the Bunker Weapon Emplacement): it stands in the asset's terrain piece,
    /// is attacked only through it, and fires on its side's one emplacement card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub emplacement: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Where the card comes from, e.g. `000 L222`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Per-column card values. Column 0 is the undamaged column; each damage point moves one column
/// right; damage past the last column puts the model out of action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageTrack {
    /// Number of damage tracks (DT); the card has columns 0..=damage_tracks.
    #[schemars(range(max = 99))]
    pub damage_tracks: u32,
    /// Move value per column.
    pub mv: PerColumn<u32>,
    /// Armor value per column.
    pub av: PerColumn<u32>,
    /// Damage-control value per column (repair target); may go negative on the card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<PerColumn<i32>>,
    /// Experience value (target point of experience rolls); full rules only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exp: Option<PerColumn<u32>>,
    /// Close-combat value Hard/Soft per column; Quick-Start cards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccv: Option<PerColumn<Rav>>,
    /// What the MV, AV and DC columns hold. `printed` (the default): the card as the book prints
    /// it, with its special attributes' design changes (Improved Armor's +1 AV, Encumbered's −1 MV)
    /// already in the numbers. `chassis`: the bare chassis, as a community author designing a unit
    /// writes it; the engine applies those design changes when it compiles the card.
    #[serde(default, skip_serializing_if = "CardValues::is_printed")]
    pub values: CardValues,
}

/// Whether a card's MV, AV and DC already hold its special attributes' design changes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardValues {
    /// As printed: the design changes are in the numbers.
    #[default]
    Printed,
    /// The bare chassis: the engine applies the design changes.
    Chassis,
}

impl CardValues {
    fn is_printed(&self) -> bool {
        *self == CardValues::Printed
    }
}

/// A weapon system as mounted on a model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponMount {
    /// Id of the weapon system.
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub weapon: Id,
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 99))]
    pub quantity: u32,
    /// Mounting locations, one per weapon.
    #[serde(default)]
    pub mount: Vec<Mount>,
    /// RAV per damage-track column when the card prints it; else the weapon's RAV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rav: Option<PerColumn<Rav>>,
    /// Special attributes this mount adds to the weapon's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<SaRef>,
}

fn one() -> u32 {
    1
}

/// How a weapon delivers its attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FireMode {
    Direct,
    Indirect,
    Template,
    Special,
}

/// Target classes a weapon may be barred from attacking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetClass {
    Infantry,
    AircraftInFlight,
    Aircraft,
    Structure,
}

/// A weapon system (Appendix E).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    pub id: Id,
    pub name: String,
    /// Weapon class, e.g. `Guided Missile`.
    pub class: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub fire: FireMode,
    /// Short range band (RNG); medium, long and extreme derive from it through the range-band table.
    pub range: Distance,
    /// `NA` when the munition supplies it (artillery).
    pub rav: Rav,
    #[serde(default)]
    pub special_attributes: Vec<SaRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard_points: Option<HardPoints>,
    #[serde(default)]
    pub restriction: Restriction,
    /// Threat value of the weapon in construction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tv: Option<u32>,
    /// Target classes this weapon cannot attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cannot_target: Vec<TargetClass>,
    /// Energy weapon (ion, laser, particle) — matters to some armor upgrades.
    #[serde(default)]
    pub energy: bool,
    /// Its damage profile comes from an ammo upgrade (howitzers, rocket artillery).
    #[serde(default)]
    pub ammo_dependent: bool,
    /// The firing model must hold a target-lock on the target (guided missiles).
    #[serde(default)]
    pub requires_target_lock: bool,
    /// A template weapon's (`fire: template`) strip, laid from the front of the firer's base
    /// towards the target: every model whose base it touches, friend or foe, gains the model
    /// state `gives`, with no combat roll (the Flamethrower's Burning).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<WeaponTemplate>,
    /// An indirect weapon whose munition flies to the strike point and finishes there with a
    /// direct-fire roll (the infantry mortars' guided missiles): a missed strike point is lost,
    /// with no drift, and ends the combat action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guided_strike: Option<GuidedStrike>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// What a special attribute is attached to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    Model,
    Weapon,
    ModelOrWeapon,
}

/// The shape of an SA's parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SaParameter {
    /// No parameter.
    None,
    /// A rating level (`Blaster 2`).
    Rating,
    /// A number in brackets that is not a level (`Minimum Range (14)`, `Shock (4)`).
    Value,
    /// Limited uses (`Ammo Bin [1]`).
    Uses,
}

/// One purchasable level of a special attribute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SaLevel {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Distance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hard_points: Option<HardPoints>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tv: Option<u32>,
    /// TV is per use (limited-use SAs) rather than flat.
    #[serde(default)]
    pub tv_per_use: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// A special ability or attribute (Appendix A).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialAttribute {
    pub id: Id,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub applies_to: AppliesTo,
    #[serde(default)]
    pub restriction: Restriction,
    pub parameter: SaParameter,
    /// Purchasable levels with their costs; one entry when the SA has no levels.
    #[serde(default)]
    pub levels: Vec<SaLevel>,
    /// The owner may decline to use it ("may" in the rule): before each action in which it could
    /// act, the player (or bot) is asked, and a declined SA neither modifies nor runs its script.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub optional: bool,
    /// Switched on by the model's Special action each turn (APA, ECM: its script's
    /// `special_action` handler): bots take that action first in each activation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub switched_on: bool,
    /// The options its Special action may be declared with (Smoke: `cloud` or `line`); its script
    /// reads the one declared as `ctx.option` (nil when none is named). A Special action naming
    /// an option no special attribute of the model offers is refused.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_options: Vec<Id>,
    /// The mount it provides and how many weapons each rating level holds there (the Turret: two
    /// on `T`): a card mounting more weapons there than its rating holds, or any without the
    /// special attribute, is an error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub carries: Option<MountCapacity>,
    /// Special attributes a model with this one has as well (Orbital Flight: Reduced Turn and
    /// Shielded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<SaRef>,
    /// Moments of play the SA acts at.
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    /// Lua module (in the pack's script roots) implementing the behaviour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Declarative modifiers for simple numeric effects.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Weapons a special attribute holds on one mount (`SpecialAttribute::carries`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MountCapacity {
    pub mount: Mount,
    #[schemars(range(min = 1, max = 99))]
    pub per_rating: u32,
}

/// Upgrade category.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UpgradeCategory {
    ArtilleryAmmo,
    GuidedMissileAmmo,
    PylonAmmo,
    RocketAmmo,
    General,
}

/// Cost of an upgrade, asset or strike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    pub tv: u32,
    /// Multiplied by the model's number of damage tracks (battlefield upgrades).
    #[serde(default)]
    pub per_damage_track: bool,
    /// What one purchase buys when not obvious ("per 2\"×2\" section").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<String>,
}

/// An attack profile: the stats a munition, asset or strike attacks with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackProfile {
    /// Launcher weapon id for munitions; absent for assets and strikes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub launcher: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Distance>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rav: Option<Rav>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<SaRef>,
    /// Pre-set base target point (rolled on the ruleset's pre-set dice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_tp: Option<u32>,
    /// Separate combat rolls each model under the attack takes (Orbital Precision Strike: 3);
    /// absent: one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 10))]
    pub combat_rolls: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Munitions only: the munition fires as this weapon (its range, fire mode, target-lock
    /// need, the targets it cannot attack and its special attributes), with the profile's RAV,
    /// range and special attributes over them (a pylon's guided missile fires as the Medium
    /// Guided Missile).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub fires_as: Option<Id>,
    /// Munitions only: the mount fires once in the game, then it is spent (out of ammo).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub single_use: bool,
    /// Munitions only: a laser-guided shell (FASCAM's dearer version): the `laser-guided`
    /// condition holds for its rolls, so a ruleset may reward a TAG's paint on its target.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub laser_guided: bool,
    /// Munitions only: a bomb dropped from an aircraft in flight (not nap of the earth) on the
    /// ground beneath it, as an indirect attack with no strike-point roll: `exact` lands where
    /// the aircraft is, `drifts` always drifts from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped: Option<Dropped>,
    /// Munitions and strikes: the area is a strip this long and wide, centred on the point,
    /// instead of a circle: a bomb's along the aircraft's heading (the Bomb Rack's carpet; with
    /// `dropped` only), a strike's in the direction declared with the call (a gunship's strafing
    /// corridor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip: Option<Strip>,
    /// Munitions and strikes: the minefield (an asset with `mines:`) laid at the final strike
    /// point instead of an attack there (FASCAM, cluster munitions). Its template is the
    /// attack's area; its mines attack with this profile (RAV, base TP) and spare no side; the
    /// asset gives what they attack and how many charges they hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub lays: Option<Id>,
    /// Munitions and strikes: terrain left at the final strike point, besides any attack there
    /// (a smoke shell's cloud, a smoke screen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaves: Option<Leaves>,
    /// Munitions and strikes: after the attack where it lands, a cloud as wide as the attack's
    /// area lingers there for the rest of the game (the nano-disassemblers'): it attacks with
    /// this profile every model that moves into it, friend or foe, once per action; at each
    /// turn's end, if no model is in it, it drifts (a drift roll, its direction counted from the
    /// table's top edge), stopping short of any model; an attack by a weapon it names destroys it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloud: Option<Cloud>,
    /// Munitions and strikes: what the blast destroys outright, with no roll, in its area before
    /// any attack there (the MOAB's overpressure, a Super-Thermex warhead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroys: Option<Destroys>,
    /// Munitions only: a seeking submunition (SADARM) instead of an attack on every model in
    /// the area: one attack, on the pre-set dice against the profile's base TP, at a single enemy
    /// model of these types in the area that a TAG paints for the firer (its own, or a friend's
    /// paint). With none there as it lands, it waits over the point until the firer's next
    /// activation begins, and attacks the first that is there and painted as an action ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeks: Option<Seeks>,
}

/// What a seeking submunition attacks (`AttackProfile::seeks`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seeks {
    /// The model types it attacks (an enemy's, painted by a TAG).
    #[schemars(length(min = 1))]
    pub model_types: Vec<crate::vocab::ModelType>,
}

/// What a blast destroys outright (`AttackProfile::destroys`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Destroys {
    /// Soft models (a model card the ruleset counts soft and not hard).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub soft: bool,
    /// Structures that are not hardened: they collapse.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub structures: bool,
    /// Woods it reaches (terrain whose cover counts wherever a line crosses it) become this
    /// terrain (the trees it fells leave rough ground).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub fells_woods_to: Option<Id>,
}

/// A lingering cloud (`AttackProfile::cloud`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cloud {
    /// Weapons whose attack destroys the cloud with no roll: fired at a point in it, or a
    /// template that reaches it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub cleared_by: Vec<Id>,
    /// Single-use upgrades that meet it (the External Anti-Nano Pod's pulse): a model carrying
    /// one with a use left that the landing shell reaches, or that moves into the cloud, spends
    /// one; the cloud is destroyed and does not attack that model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    pub stopped_by: Vec<Id>,
}

/// Terrain an attack leaves where it lands (`AttackProfile::leaves`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leaves {
    /// The terrain type laid (`smoke`).
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// A strip this long and wide, centred on the point, in the direction the declaration names
    /// (a smoke screen); absent: a circle as wide as the attack's area of effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strip: Option<Strip>,
    /// How long the piece stays, rolled when it is laid.
    pub lasts: Lasting,
}

/// How long laid terrain stays: `dice`, halved (rounded up) when `halved`, plus `add`, counted
/// in `counts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Lasting {
    /// The dice rolled (`1d6`).
    pub dice: String,
    /// The roll is halved, rounded up (the Smoke special attribute's 1d6/2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halved: bool,
    /// Added to the roll (a smoke screen's 1d6+1).
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = 100))]
    pub add: u32,
    /// What the number counts.
    pub counts: LastsFor,
}

/// What a laid piece's life is counted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LastsFor {
    /// Activations of the model that laid it: lifted as the last of them starts.
    Activations,
    /// Turns: lifted in the end phase of the last of them.
    Turns,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a dropped bomb lands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dropped {
    /// On the point beneath the aircraft.
    Exact,
    /// It always drifts from the point beneath the aircraft (no range band's extra inches).
    Drifts,
}

/// A strip-shaped area, in inches.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strip {
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub length: f64,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub width: f64,
}

/// How a guided indirect munition finishes its attack (`Weapon::guided_strike`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GuidedStrike {
    /// The range band (by name, `Short`) whose target point the finishing direct-fire roll uses.
    pub band: String,
    /// Added to the strike-point roll (in the ruleset's convention) when the model aimed at is
    /// painted for the attacker (TAG).
    #[serde(default)]
    pub painted: i32,
}

/// The strip a template weapon lays (`Weapon::template`), in inches.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WeaponTemplate {
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub length: f64,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub width: f64,
    /// The model state every model under it gains.
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub gives: Id,
}

/// A strike that flies in as a model (`Strike::missile`): the model card it flies as (its MV,
/// AV, base; its attack is the strike's), placed at the launch point — in front of a friendly
/// model carrying the `launcher` weapon, else on the board edge nearest the caller — facing the
/// point the caller names; it makes `first_moves` moves at once and `moves` more each time the
/// caller activates (straight on once the caller is gone, at the end of each turn), towards that
/// point and on past it. The first model it touches (or, with an area, the point it touches
/// something at) takes the strike's attack on the pre-set dice (what its blast destroys outright
/// is the attack's `destroys`), and the missile is gone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikeMissile {
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub launcher: Option<Id>,
    #[schemars(range(max = 10))]
    pub first_moves: u32,
    #[schemars(range(max = 10))]
    pub moves: u32,
}

/// A battlefield upgrade (Appendix B).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Upgrade {
    pub id: Id,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abbreviation: Option<String>,
    pub category: UpgradeCategory,
    /// Flat cost; munitions give a cost per launcher profile instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(default)]
    pub restriction: Restriction,
    /// Per-launcher attack profiles of a munition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub profiles: Vec<AttackProfile>,
    /// Special attributes the upgrade grants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<SaRef>,
    /// The grants are alternatives for one weapon type (Amped Weapons: Piercing or Shredder): a
    /// roster fitting the upgrade names the weapon (`weapon:`) and the grant it takes (`choice:`),
    /// and only that weapon's mounts get it, with its RAV effects.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub choose_grant: bool,
    /// Each purchase is used once (the Claymore's one Anti-Infantry blast, a Satchel Charge):
    /// the close-defense reaction its grants arm fires once per purchase (a model that has it
    /// of its own keeps it), and its own conditional modifiers help one roll per purchase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub single_use: bool,
    /// It may be bought several times for the same model: a roster says how many (`times:`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeatable: bool,
    /// The ranks or sizes it is bought at (the Officer's Lieutenant to Colonel): a roster names
    /// one (`variant:`), whose cost, grant rating and carrier minimum replace the upgrade's own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variants: Vec<UpgradeVariant>,
    /// Model states of a target its munition homes on: at a target in one of them it needs no
    /// target-lock (HARM homes on a switched-on APA or ECM, `apa-active`, `ecm-active`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub homes_on: Vec<Id>,
    /// A model state its Special action (1 AP) puts the model in: its grants apply only while
    /// the model is in it (the External Fire Control Pod's FCS, the Fire-Suppression System's
    /// Fire-Proof 1). The state's own `duration` says how long one switch lasts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub switch: Option<Id>,
    /// Upgrades in the same group exclude each other (`movement`, `armor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exclusive_group: Option<Id>,
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// One rank or size of an upgrade (`Upgrade::variants`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpgradeVariant {
    pub id: Id,
    pub name: String,
    /// Its cost, counted like the upgrade's (`per_damage_track` and all).
    pub tv: u32,
    /// The rating of each special attribute the upgrade grants, at this variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// The fewest damage tracks its carrier may have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_damage_tracks: Option<u32>,
}

/// When an asset comes into play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AssetPlacement {
    PreDeployment,
    DuringPlay,
    EndPhase,
    DrawDeck,
}

/// A minefield (001 L10701-10761): it attacks each enemy model (of the kind `against`) that
/// touches it during a move action, once per action, with the asset's `attack` (its RAV, its
/// base target point on the pre-set dice), and is spent after `charges` attacks. Models of the
/// side that laid it pass safely.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Mines {
    pub against: MinesAgainst,
    #[schemars(range(min = 1, max = 100))]
    pub charges: u32,
}

/// A weapon emplacement (001 L10544-10564): each of its weapon cards stands in the asset's
/// `terrain:` piece, laid under it; a side's emplacements share one activation (one draw-deck
/// card), in which each has `action_points`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Emplacement {
    #[schemars(range(max = 10))]
    pub action_points: u32,
    /// Added to its price when its weapon sits in a roof turret (a card mounting it on `T`);
    /// the asset's `cost` is per bunker section, and the weapon card's own TV is added too.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(range(max = 10000))]
    pub turret_tv: u32,
}

/// What a minefield attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MinesAgainst {
    /// Models on the ground (not aircraft in flight).
    Ground,
    /// Aircraft flying nap of the earth over it.
    LowFlying,
}

/// A battlefield asset (Appendix C).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Asset {
    pub id: Id,
    pub name: String,
    pub cost: Cost,
    pub placement: AssetPlacement,
    /// Footprint and elevation in our words ("3\"×1\" wall, E1").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Cover it gives to models behind or in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<crate::rules::Cover>,
    /// The terrain piece the asset is on the table (its cover, elevation, movement costs, a
    /// structure's sections): scenario tests place it with `terrain: [{asset: …}]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Option<Id>,
    /// Other terrain pieces a buyer may set down instead of `terrain`, at the same price (a
    /// roster's `variant:`: the vehicle revetment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub variants: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackProfile>,
    /// A minefield: scenario tests lay it with `terrain: [{asset: …, side: …}]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mines: Option<Mines>,
    /// A weapon emplacement: model cards naming this asset (`emplacement:`) are its weapons.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub emplacement: Option<Emplacement>,
    /// The piece's footprint on the table (inches): what a roster's pre-deployment piece covers
    /// when `cav play` sets it down (a minefield's template, a trench section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Footprint>,
    /// How many of it a force group may buy for each squad it fields (SIGINT, recon drones,
    /// resupply drops: one); `cav force check` holds a roster to it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 99))]
    pub max_per_squad: Option<u32>,
    /// Purchase or use limits in our words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// What the asset does while a side holds it off the table (`draw_deck_card`,
    /// `skip_card`, `reload_ammo_bins`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modifiers: Vec<Modifier>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// An asset piece's footprint: round (`radius`), or `length` by `width`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Footprint {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub radius: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub length: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.1, max = 100.0))]
    pub width: Option<f64>,
}

/// Strike package a strike belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StrikePackage {
    Artillery,
    Air,
    Space,
}

/// A special attribute that calls a strike, and on what terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikeCaller {
    /// Id of the special attribute.
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// Action points the call costs; absent: the `call-strike` action's cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap: Option<u32>,
    /// Whether the strike's cost leaves the side's strike pool (false: the special attribute
    /// brings the strike itself).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub pays: bool,
    /// A roll that must reach its target point before the strike-point roll, or there is no
    /// strike (the BattleNet's authorization: 1d6 against 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub authorization: Option<Authorization>,
}

/// A roll a strike call must pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Authorization {
    /// The dice (`1d6`).
    pub dice: String,
    /// The target point the dice must reach.
    #[schemars(range(min = -100, max = 100))]
    pub target: i32,
}

/// A strike of a battlefield strike package (Appendix D).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Strike {
    pub id: Id,
    pub name: String,
    pub package: StrikePackage,
    pub attack: AttackProfile,
    /// The strike is a missile that flies in as a model (the Cruise Missiles), instead of landing
    /// on a strike point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missile: Option<StrikeMissile>,
    pub cost: Cost,
    /// Special attributes that call this strike on their own terms, besides the ruleset's strike
    /// caller (Satellite Uplink's Hammer Strike, 001 L8202-8218).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub called_by: Vec<StrikeCaller>,
    #[serde(default)]
    pub hooks: Vec<HookPoint>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L8473`); leave it out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}
