//! Rules documents: ruleset parameters, tables, terrain, move classes, model states,
//! action types, squad types and scenarios. Every number of the rules lives in these.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;
use crate::vocab::*;

/// How situation modifiers are written in this ruleset. The engine normalises internally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModifierConvention {
    /// Modifiers are added to the roll (Quick-Start: "+1 to the roll" helps).
    Roll,
    /// Modifiers are added to the target point (full rules: "(-1) SM" helps).
    TargetPoint,
}

/// How models are activated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActivationMode {
    /// One card per model in the draw deck (Quick-Start).
    PerModel,
    /// One card per squad, plus side cards (full rules).
    PerSquad,
}

/// C3 points (001 L1278-1336): single-use points of a force's pool, spent when the force rolls
/// or activates.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct C3Rules {
    /// The uses players may spend a point on.
    pub uses: Vec<crate::vocab::C3Use>,
    /// Inspire: dice added to the roll (`1d6`).
    pub inspire_dice: String,
    /// Motivate: action points added.
    pub motivate_ap: u32,
    /// Rally: the model states every model of the force sheds.
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub rally_clears: Vec<Id>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The cards of the draw deck: `per_side` for each side, `per_unit` for each model (per-model
/// activation) or squad (per-squad activation) on the table. A unit that leaves play takes its
/// cards with it unless the option `draw-deck-removal` keeps some (001 L2465-2476).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DrawDeckRules {
    pub per_side: u32,
    #[schemars(range(min = 1, max = 10))]
    pub per_unit: u32,
}

/// A ruleset option: a place where the rules can be read more than one way, with the
/// reading chosen by default and the ones players may pick instead.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulesetOption {
    pub id: Id,
    pub summary: String,
    /// The reading used unless players choose another.
    pub default: Id,
    /// Every reading players may choose, default included.
    pub choices: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Dice used by the ruleset's rolls, as dice expressions (`2d6`, `3d6kh2`, `1d10`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceRules {
    /// Combat, strike-point, pilot and repair rolls.
    pub standard: String,
    /// Rolls with a pre-set base TP (upgrades, assets, strikes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset_tp: Option<String>,
    /// Drift roll (direction by the die's point, distance by its number).
    pub drift: String,
    /// Natural total that always fails (critical fumble).
    pub critical_fumble: u32,
    /// Natural total that is a critical success.
    pub critical_success: u32,
    /// Extra die added on a critical success (`1d6`), if the ruleset gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub critical_success_bonus: Option<String>,
}

/// The ruleset's parameters: one per ruleset pack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    pub id: Id,
    pub name: String,
    pub modifier_convention: ModifierConvention,
    pub activation: ActivationMode,
    /// The draw deck's cards: per side, and per activation unit (model or squad).
    pub draw_deck: DrawDeckRules,
    /// Action points per model activation.
    pub action_points: u32,
    pub dice: DiceRules,
    /// Turns after which a game is declared a draw if nobody has won (at most `MAX_TURNS`).
    #[schemars(range(min = 1, max = crate::limits::MAX_TURNS))]
    pub turn_limit: u32,
    /// Point-blank distance in inches (direct fire at or inside it gets the point-blank modifier).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub point_blank: Option<f64>,
    /// Ids of the tables the procedures use, by role.
    #[schemars(schema_with = "tables_schema")]
    pub tables: BTreeMap<TableRole, Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<RulesetOption>,
    /// Numbers of the procedures the engine runs, by part of the rules.
    pub procedures: Procedures,
    /// Every model type the ruleset plays, with its traits and sizes.
    pub model_types: BTreeMap<ModelType, ModelTypeRules>,
    /// C3 points: what they buy; left out by a ruleset without them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c3: Option<C3Rules>,
    /// How forces are built to a threat value; left out by a ruleset whose scenarios fix forces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_building: Option<crate::force::ForceRules>,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// The numbers of the procedures, in one typed section per part of the rules. A section the
/// ruleset leaves out is a rule it does not have (no run 'n gun, no close combat); inside a
/// section every number is required, so a missing one is reported where it belongs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Procedures {
    pub rolls: RollRules,
    pub movement: MovementRules,
    pub sight: SightRules,
    pub damage: DamageRules,
    pub repair: RepairRules,
    pub setup: SetupRules,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_n_gun: Option<RunNGunRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defensive_fire: Option<DefensiveFireRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_battery: Option<CounterBatteryRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_defense: Option<CloseDefenseRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overwatch: Option<OverwatchRules>,
    #[serde(default)]
    pub close_combat: CloseCombatRules,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub break_away: Option<BreakRules>,
    /// An attack with several weapon types shares one range band; absent: each weapon rolls at
    /// its own band.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mixed_weapons: Option<MixedWeaponRules>,
    /// A combat action may split its weapons between several targets (each extra target is the
    /// `multiple-targets` condition); absent: a combat action attacks one target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiple_targets: Option<MultipleTargetRules>,
    /// States a model gains at the end of its activation by how far it moved; absent: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub movement_states: Option<MovementStateRules>,
    /// Salvo fire's mix of weapons; absent: one weapon only (all the same weapon document).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salvo: Option<SalvoRules>,
    /// Stomping (a move action that destroys a helpless model in contact); absent: nobody stomps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stomp: Option<StompRules>,
    /// Models pushing into or through structures; absent: they pass at no risk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure_movement: Option<StructureMovementRules>,
    /// Attacks on structures; absent: structures are not targets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure_attacks: Option<StructureAttackRules>,
    /// Regrouping two under-strength squads; absent: squads never merge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regroup: Option<RegroupRules>,
    /// Infantry digging in; absent: they cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dig_in: Option<DigInRules>,
    /// Infantry charging into contact at the end of a move; absent: they cannot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<ChargeRules>,
    /// Aircraft in flight: nap of the earth, landing and taking off; absent: aircraft only fly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flight: Option<FlightRules>,
    /// Infantry riding in transports (mount and dismount); absent: nobody rides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<TransportRules>,
    /// Towed guns hitched to a tow (mount and dismount), limbered to travel; absent: they never move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub towing: Option<TowingRules>,
    /// Battlefield strike packages called in during play (`call-strike`); absent: nobody calls them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strike_packages: Option<StrikePackageRules>,
}

/// Calling a battlefield strike package (001 L11009-11071): a model with the caller special
/// attribute (`force_building.strike_caller_sa`) spends the strike's cost from its side's pool for
/// the strike's package, names a point within the strike's range of its centre and rolls for the
/// strike point at `strike_point_tp` (no range bands), with the modifiers of the ruleset's
/// `strike_package_modifiers` table (the caller's FIST rating), not those of its own weapons'
/// strike-point rolls. Every model under the strike's area is then attacked
/// with the strike's profile, on the ruleset's pre-set dice (`dice.preset_tp`) against its
/// `base_tp`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StrikePackageRules {
    #[schemars(range(min = 2, max = 100))]
    pub strike_point_tp: i32,
}

/// Stomp (001 L5623-5629): a model of a `by` type in base contact with an enemy on its last
/// damage column destroys it with a move action — a prone one of the `prone` types, or one of the
/// `standing` types (option `stomp-targets` may drop those).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StompRules {
    pub by: Vec<ModelType>,
    pub prone: Vec<ModelType>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<ModelType>,
}

/// Models of these types moving into or through a structure make an opposed roll for each
/// 2"×2" section crossed — their EXP against its armor class — and take `damage` for each lost
/// (001 L6154-6164).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureMovementRules {
    pub model_types: Vec<ModelType>,
    pub damage: u32,
}

/// Attacking a structure (001 L6170-6303): direct fire at a point of it, a combat roll helped by
/// `target_bonus` (structures are always stationary), then, when MoS + RAV reaches its armor
/// class, the structure damage table by the final result, and its critical table. A structure
/// out of damage points, or whose critical says `collapse_result`, becomes `collapse_terrain`:
/// models inside of `collapse_removes` types leave play, the others take `collapse_damage`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureAttackRules {
    pub target_bonus: i32,
    pub collapse_terrain: Id,
    pub collapse_result: Id,
    /// The critical result that sets the structure burning (armor class and damage points −1 at
    /// every turn's end).
    pub burning_result: Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collapse_removes: Vec<ModelType>,
    pub collapse_damage: u32,
}

/// Regroup (001 L5722-5780): two squads below their types' maximum sizes merge; the new squad
/// keeps a shared type, or becomes `mixed_becomes` when the types differ; models beyond its
/// maximum leave play; every model of it has `ap_left` AP this activation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RegroupRules {
    pub mixed_becomes: Id,
    pub ap_left: u32,
}

/// Digging in (infantry): the cover it gives, the terrain it cannot be done in; it also spares
/// the model the extra damage of the open (`damage.dispersed.in_open`). It lasts until the model
/// moves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DigInRules {
    pub cover: Cover,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_on: Vec<Id>,
}

/// Charging (infantry): after its move, the model goes on straight towards the enemy it charges
/// for up to `inches`, whatever the MV; short of contact, its activation ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChargeRules {
    #[schemars(range(min = 0.0, max = 100.0))]
    pub inches: f64,
}

/// Flying (001 L3640-3692, L3734-3750): models whose type has the `flies` trait are in flight
/// unless landed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlightRules {
    /// Nap of the earth: MV per inch on top of the normal cost; the move spends the whole MV.
    pub noe_extra_cost: u32,
    /// A ground attacker may target an aircraft flying nap of the earth only when it ended its
    /// activation within this many inches (and in sight).
    pub noe_exposed_within: f64,
    /// Landing fields: terrain where fixed-wing aircraft may land and take off.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub landing_fields: Vec<Id>,
}

/// What a salvo may mix.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SalvoRules {
    /// Weapons of one system but different classes (light and medium LBGs) fire one salvo, at
    /// the RAV of the weakest of them.
    pub mixed_classes: bool,
}

/// States gained by moving fast or not at all, at the end of the model's activation (the states'
/// own `immune` lists still apply).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementStateRules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fast: Option<FastMoveState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub still: Option<StillState>,
}

/// A model that moved forward at least `inches` in one activation gains `state`; one whose model
/// type has an `any_move` trait gains it with any move.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FastMoveState {
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub state: Id,
    #[schemars(range(min = 0.0, max = crate::limits::MAX_BOARD_INCHES))]
    pub inches: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_move: Vec<crate::vocab::ModelTrait>,
}

/// A model that did not move in its activation gains `state`, unless its model type has one of
/// the `except` traits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StillState {
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub state: Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<crate::vocab::ModelTrait>,
}

/// Transports: models with the `infantry` trait mount a friendly model that has the transport
/// special attribute, and dismount next to it, with a move action each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TransportRules {
    /// The special attribute whose rating is the number of slots a model carries.
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// Slots a rider takes.
    pub slots_per_rider: u32,
    /// Riders that take more slots: those with this special attribute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub heavy: Vec<HeavyRider>,
    /// Further carriers of models that are not infantry (a dropship's CAVs and vehicles): the
    /// special attribute, its slots per rating level, and the slots each rider type takes (a type
    /// not listed does not ride in it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carriers: Vec<Carrier>,
}

/// A carrier of non-infantry riders (`transport.carriers`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Carrier {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub slots_per_level: u32,
    pub riders: BTreeMap<ModelType, u32>,
}

/// Towing (001 L11595-11606): a limbered model with the `towed` trait is hitched to a friendly
/// model of a `tows` type in base contact with a move action, travels as its load (like a rider),
/// and is unhitched next to it with another.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TowingRules {
    /// Model types that may tow.
    pub tows: Vec<ModelType>,
    /// Towed models one tow takes at a time.
    pub per_tow: u32,
}

/// Riders with a special attribute take this many slots.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HeavyRider {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub slots: u32,
}

/// Split fire: one combat action, several targets, each with its own weapons.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MultipleTargetRules {
    /// The targets must all stand in one firing arc of the attacker (front, back, left, right).
    pub same_arc: bool,
    /// Every attack rolls at the band of the farthest target.
    pub farthest_band: bool,
    /// A target-lock taken this activation on a model the combat action does not attack counts
    /// as one more target.
    pub lock_counts: bool,
}

/// Direct-fire attacks with more than one weapon type (by models without the `infantry` trait):
/// every weapon rolls at the farthest band any of them is in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MixedWeaponRules {
    /// The band (id) the weapons in range roll at when a declared weapon turns out to be out of
    /// range.
    pub out_of_range_band: Id,
}

/// Rolls in general.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollRules {
    /// Natural total that always succeeds on a "10+ roll".
    pub ten_plus_natural: u32,
    /// The rolls that are "10+ rolls" in this ruleset.
    #[serde(default)]
    pub ten_plus_rolls: Vec<RollKind>,
    /// Out-of-ammo die rolled after a critical fumble. A weapon's `out_of_ammo` modifiers say
    /// the highest result that runs it dry, so the check's target point is that result + 1.
    pub out_of_ammo_die: String,
    /// What a failed out-of-ammo check empties: the fumbling mount only (`mount`, the default),
    /// or every mount of the model carrying the same weapon (`weapon`).
    #[serde(default)]
    pub out_of_ammo_empties: AmmoEmpties,
    /// Added to the out-of-ammo check's target point for each earlier critical fumble the model
    /// rolled in the same action (0, the default: every check alike).
    #[serde(default)]
    pub out_of_ammo_step: u32,
    /// RAV a weapon with "NA" against the target counts as: it cannot hurt it (a NA weapon's
    /// margin of success can never reach the armor).
    pub na_rav: i32,
}

/// Movement.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// Degrees of facing change free with each move action.
    pub free_turn_degrees: f64,
    /// MV each further facing change costs.
    pub extra_turn_cost: u32,
    /// Inches a model may always move per move action, whatever the terrain costs.
    pub minimum_move: f64,
    /// MV per inch where no terrain feature lies (open ground).
    pub open_ground_cost: u32,
    /// Combined terrain: MV per inch added to the highest cost for each further terrain type under
    /// the base (types, not areas: the levels of a stepped hill are one type).
    pub combined_terrain_extra: u32,
    /// MV a whole move along a road adds (terrain whose cost is `road_bonus`).
    pub road_bonus: u32,
    /// MV per inch along such a road.
    pub road_cost: u32,
    /// Extra MV per inch when moving backwards over open ground.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_open_cost: Option<u32>,
    /// Extra MV per inch backwards, by terrain id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reverse_cost: BTreeMap<Id, u32>,
    /// Extra MV per inch backwards through any other terrain; absent = not allowed there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reverse_cost_other: Option<u32>,
    /// Distance that counts as base-to-base contact (inches between bases).
    pub contact_distance: f64,
}

/// Line of sight, cover and firing arcs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SightRules {
    /// Distance within which cover next to a model counts (inches).
    pub adjacent_cover: f64,
    /// Cover next to the attacker counts as well as cover next to the target; otherwise only
    /// cover next to the target does.
    pub cover_next_to_attacker: bool,
    /// The cover a terrain object with an elevation level gives (woods aside: see terrain
    /// `cover_when_crossed`), by how many levels it stands below the target's total elevation: the
    /// first entry when it is as high as the target or higher, the next one level lower, and so
    /// on; lower still, none. Empty: every terrain gives the `cover` its document names.
    pub cover_by_elevation: Vec<Cover>,
    /// The cover type woods (terrain `cover_when_crossed`) make together, by the points of cover
    /// of those crossed with no model near their edge: the first entry for 1 point (or for woods
    /// that count only as a model's own), the next for 2, and so on; the last for more. Needed
    /// when any terrain is `cover_when_crossed`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub woods_stacking: Vec<Cover>,
    /// Models whose bases are closer than this (inches) ignore light and heavy cover between
    /// them; absent: cover counts however close they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_ignored_within: Option<f64>,
    /// An indirect attack makes no combat roll against a model when blocking cover on the line
    /// between it and the attacker lies next to either of them (within `adjacent_cover`).
    pub blocking_cover_stops_indirect: bool,
    /// Elevation of a prone model.
    pub prone_height: i32,
    /// Half the width of a firing arc in degrees (four arcs of 90° → 45).
    pub arc_half_width: f64,
    /// How the range between two models is measured (range bands, minimum and point-blank
    /// range, a weapon's reach).
    pub range_measured: RangeMeasure,
    /// Weapons that need a target-lock (guided missiles) fire without a line of sight and ignore
    /// cover between the models, all but the cover the target stands in (the Quick-Start,
    /// 000 L684-686); otherwise they need a line of sight like any direct-fire weapon.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guided_ignore_cover: bool,
    /// Weapons that need a target-lock may also fire indirectly, at the locked target's place
    /// (the Quick-Start, 000 L637); otherwise they fire direct only.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guided_indirect: bool,
    /// Models standing on the line of sight between an attacker and its target, as cover
    /// objects: which model types obstruct, and the cover each gives standing and lying down.
    /// Such a model counts like any cover object (as tall as its elevation, or next to either
    /// model). Empty: models never obstruct a line of sight.
    pub model_cover: Vec<ModelCover>,
    /// Cover between aircraft in flight and other models; absent: aircraft are seen like any
    /// model of their height.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aircraft: Option<AircraftSight>,
    /// Models that fire over low terrain next to them (Pop-Up, a turreted vehicle hull-down):
    /// that terrain does not stop their own line of sight, and against them it gives the cover
    /// the entry names (or what it always gives).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fire_over: Vec<FireOver>,
}

/// One way of firing over low terrain next to the model (`sight.fire_over`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireOver {
    /// The special attribute that lets the model do it (`pop-up`, `turret`); give one of `sa`,
    /// `weapons` or `terrain`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Option<Id>,
    /// The weapons whose carriers may do it (towed anti-tank guns go hull-down as a turret):
    /// a model carrying any of them; give one of `sa`, `weapons` or `terrain`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "weapon"))]
    pub weapons: Vec<Id>,
    /// Terrain pieces whose walls a model standing in one fires over (a revetment's firing
    /// step, a vehicle revetment's hull-down): `within` is then unused, and `max_elevation` is
    /// the highest piece it fires over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Vec<Id>,
    /// Only models of these types; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// How close (inches, edge of base to edge of terrain) the terrain must be.
    pub within: f64,
    /// The highest elevation level of terrain it fires over (E1: 1).
    pub max_elevation: i32,
    /// The cover that terrain gives against attacks on the model instead of what it would
    /// (hull-down: heavy); absent: the model keeps its cover.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts_as: Option<Cover>,
    /// A snapshot (Pop-Up, 001 L8001-8016): no Salvo Fire over the terrain; the model's own TAG
    /// does not paint for a shot over it; and as the model rises to fire, enemies on over-watch
    /// may fire at it, the terrain it rises over giving it no cover from them.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub snapshot: bool,
}

/// Who takes a piece's cover standing in it (`Terrain::shelters`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Shelters {
    /// The model types it shelters; empty: any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// How many of them at once: those standing nearest its centre; absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub at_most: Option<u32>,
}

/// Lines of sight with aircraft in flight (001 L4233-4275): they are seen over all terrain. A
/// flying target gets cover only from terrain of at least `ground_attacker_cover_elevation` the
/// line crosses next to its ground attacker; a ground target of a flying attacker only from the
/// terrain it stands in or next to; models never obstruct.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AircraftSight {
    pub ground_attacker_cover_elevation: i32,
}

/// The cover models of some types give when they stand between an attacker and its target.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelCover {
    /// The model types this entry is about.
    pub model_types: Vec<ModelType>,
    /// Cover a standing model of these types gives.
    pub standing: Cover,
    /// Cover it gives lying down: prone, or in the ruleset's prone state (knocked down).
    pub prone: Cover,
}

/// Damage, pilot checks and destruction.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageRules {
    /// Target point of a pilot check; absent = the card's EXP value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_check_tp: Option<u32>,
    /// Damage points taken on a critical failure of a pilot check.
    pub pilot_fumble_damage: u32,
    /// State applied by a failed pilot check.
    pub pilot_fail_state: Id,
    /// State a model that goes prone gains.
    pub prone_state: Id,
    /// Terrain type a destroyed model leaves behind (models whose type has `leaves-wreck`).
    pub wreck_terrain: Id,
    /// Smallest radius of a wreck (inches); otherwise the model's base.
    pub wreck_minimum_radius: f64,
    /// Damage a model with the `dispersed` trait takes from each successful attack, whatever
    /// the damage table's row; absent: such models read the table like any other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispersed: Option<DispersedDamage>,
    /// Which models are mission kills and where they withdraw; absent: no model is.
    #[serde(default)]
    pub mission_kill: MissionKillRules,
    /// Which models damaged past their last column stay on the table out of action instead of
    /// being destroyed; absent: every such model is destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_action: Option<OutOfActionRules>,
}

/// Out of action (the full rules, 001 L5365-5380): a model damaged past its last column stays on
/// the table — in the way of other models, a target still — but takes no further part: it never
/// activates or reacts, holds nothing and counts for its side no more. Any further damage
/// destroys it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutOfActionRules {
    /// Model types that go out of action; the others are destroyed.
    pub model_types: Vec<ModelType>,
    /// A model undamaged before the damage that takes it past its last column is destroyed
    /// outright (all its damage tracks lost at once).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undamaged_destroyed: bool,
    /// A model in flight is destroyed outright.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_flight_destroyed: bool,
}

/// Mission kills: models that must leave the table, checked at the end of every activation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MissionKillRules {
    /// A model that can never make a combat action again (no usable weapon, disabled).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cannot_fight: bool,
    /// A model in the last column of its damage track.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub last_column: bool,
    /// Model types with any of these traits are never mission kills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<crate::vocab::ModelTrait>,
    /// Where it goes: off the nearest board edge, or off its own deployment zone's edge.
    #[serde(default)]
    pub withdraw_to: WithdrawTo,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawTo {
    #[default]
    NearestEdge,
    OwnEdge,
}

/// The damage a `dispersed` model (infantry) takes from a successful attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DispersedDamage {
    /// Damage points per successful attack.
    pub per_hit: u32,
    /// Further points when it stands in open terrain (terrain marked `open`, or none).
    pub in_open: u32,
}

/// The repair roll.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RepairRules {
    /// Target point of the repair roll (the card's DC is added to the roll).
    pub target_point: u32,
    /// Damage points a successful repair removes.
    pub restores: u32,
    /// Damage points repaired on a critical success.
    pub critical_restores: u32,
    /// Damage points taken on a critical failure.
    pub fumble_damage: u32,
    /// Damage points that stay after any repair (the model never returns to column 0).
    pub lingering_damage: u32,
}

/// Setting up a game.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupRules {
    /// Terrain features are placed as circles of this diameter (inches).
    pub terrain_feature_size: f64,
    /// After deployment, models with one of these tasks may each make one move action before the
    /// first turn (the Recon pre-game move, 001 L2650-2656).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pre_game_move: Vec<crate::Task>,
    /// Models with this special attribute may be held back at deployment and placed as they
    /// activate (Ambush).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ambush: Option<AmbushRules>,
    /// Models fitted with this upgrade stay off the table at set-up and drop in as they activate
    /// (the Orbital Drop Strike Team).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orbital_drop: Option<OrbitalDropRules>,
}

/// An orbital drop (`setup.orbital_drop`): a model with the `upgrade`, held back, names a
/// landing zone as it activates, not within `enemy_within` inches of an enemy; it drifts from
/// there (the ruleset's drift dice, no range band's extra inches) and lands, which costs it
/// `cost` AP of that activation. A model landing on another's base is set beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrbitalDropRules {
    pub upgrade: Id,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub enemy_within: f64,
    pub cost: u32,
}

/// Where a model held back in ambush may be placed (`setup.ambush`): not in the opponent's half
/// of the board (the half nearer its deployment zone), not within `enemy_within` inches of an
/// enemy, nor within `recon_within` of an enemy of one of the `recon` tasks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmbushRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub enemy_within: f64,
    pub recon_within: f64,
    pub recon: Vec<crate::Task>,
    /// Pieces whose setting-down an ambushing model of the listed types may delay: held back
    /// with it, one is set down under the model when it is placed (001 L6537-6557).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<AmbushPiece>,
}

/// A piece an ambushing model may bring with it (`AmbushRules::pieces`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AmbushPiece {
    /// The asset (a pre-deployment piece with a footprint).
    #[schemars(extend("x-cav-ref" = "asset"))]
    pub asset: Id,
    /// The model types that may bring it.
    pub model_types: Vec<ModelType>,
}

/// Run 'n gun.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunNGunRules {
    /// Move actions' worth of (reduced) MV the model moves before its assault.
    pub moves: u32,
    /// MV lost during a run 'n gun.
    pub mv_penalty: u32,
    /// At or below this MV the penalty is `low_mv_penalty` instead.
    pub low_mv: u32,
    pub low_mv_penalty: u32,
}

/// Defensive fire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DefensiveFireRules {
    /// Farthest range band (id) defensive fire may reach.
    pub max_band: Id,
    /// Defensive fire takes no modifier that helps it (Quick-Start); otherwise the combat
    /// modifier table's `defensive-fire` row applies like any other.
    pub drops_bonuses: bool,
}

/// Counter-battery fire: a model with the special attribute `sa`, targeted by an enemy's
/// indirect attack or with an enemy strike point landing within `within` inches, answers at once
/// with an indirect attack whose strike point is the firing model's place, no strike-point roll
/// (the `counter-battery` action type's cost, paid from its next activation; the combat roll's
/// `counter-battery` row) — unless it made a combat action this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CounterBatteryRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub within: f64,
}

/// A reaction at close quarters (Anti-Infantry): a model with the special attribute `sa`,
/// attacked (combat or close combat) by an enemy model with the trait `against` from within
/// `reach` inches, may strike first, before that attack's rolls: an area attack centred on
/// itself with `rav` and `special_attributes` (its area, Limited Ammo, …), each combat roll on
/// the standard dice against `tp`. It costs `cost` AP, paid from its next activation, and is
/// refused when that would leave it owing more than a whole activation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseDefenseRules {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    pub against: crate::ModelTrait,
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub reach: f64,
    pub cost: u32,
    #[schemars(range(max = 100))]
    pub tp: u32,
    pub rav: crate::Rav,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_attributes: Vec<crate::SaRef>,
}

/// Over-watch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverwatchRules {
    /// AP cost of each further attack from a watch already fired from: paid by renewing the
    /// watch in a later activation, or owed by the next activation when the model fires.
    pub refire_cost: u32,
    /// Model state a model gains when it goes on over-watch (Stationary in the full rules);
    /// absent = none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<Id>,
}

/// Close combat.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseCombatRules {
    /// Most models that may attack one defender in close combat; absent = no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_attackers: Option<u32>,
}

/// The break action: leaving close combat (its roll's modifiers are the `break_modifiers` table).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BreakRules {
    /// Target point of the break roll (the model's CCV is added to the roll).
    pub target_point: u32,
    /// Share of its MV a model that breaks away may move.
    pub move_factor: f64,
    /// MV a model that breaks away may always spend.
    pub minimum_move: u32,
}

/// What a model type is and can do in this ruleset.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelTypeRules {
    /// Capabilities the engine asks for (docs/vocabulary.md, model traits).
    #[serde(default)]
    pub traits: Vec<ModelTrait>,
    /// Elevation (height) of a standing model of this type.
    pub height: i32,
    /// Hex base width across flats (inches), for models whose card gives none.
    pub base_size: f64,
    /// Degrees the type may turn its front arc left or right (torso twist); back-mounted weapons
    /// keep to the back arc.
    #[serde(default)]
    pub torso_twist: f64,
}

/// Roles tables play in the procedures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TableRole {
    RangeBands,
    CombatModifiers,
    IndirectCombatModifiers,
    StrikePointModifiers,
    /// The strike-point roll of a strike package called in (`procedures.strike_packages`).
    StrikePackageModifiers,
    PilotCheckModifiers,
    CloseCombatModifiers,
    BreakModifiers,
    CombatDamage,
    CloseCombatDamage,
    CriticalDamage,
    StructureDamage,
    StructureCritical,
    RandomTerrain,
    VictoryLevels,
    ScenarioSelection,
    Drift,
}

/// `tables:`: one key per role, each the id of a document of the kind that plays it (the
/// `x-cav-ref` of `refs.rs`, so the reference check and the editor schemas know the kind).
fn tables_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
    fn roles(
        v: &serde_json::Value,
        doc: Option<&serde_json::Value>,
        out: &mut Vec<(serde_json::Value, serde_json::Value)>,
    ) {
        let doc = v.get("description").or(doc);
        if let Some(c) = v.get("const") {
            out.push((c.clone(), doc.cloned().unwrap_or_default()));
        }
        for e in v.get("enum").and_then(|e| e.as_array()).into_iter().flatten() {
            out.push((e.clone(), serde_json::Value::Null));
        }
        for b in v.get("oneOf").and_then(|b| b.as_array()).into_iter().flatten() {
            roles(b, None, out);
        }
    }
    let mut found = Vec::new();
    roles(&<TableRole as JsonSchema>::json_schema(g).to_value(), None, &mut found);
    let id = g.subschema_for::<Id>().to_value();
    let mut props = serde_json::Map::new();
    for (tag, doc) in found {
        let (Ok(role), Some(name)) = (serde_json::from_value::<TableRole>(tag.clone()), tag.as_str()) else { continue };
        let mut p = serde_json::json!({"allOf": [id], "x-cav-ref": role.doc_kind().tag()});
        if doc.is_string() {
            p["description"] = doc;
        }
        props.insert(name.to_owned(), p);
    }
    schemars::json_schema!({"type": "object", "properties": props, "additionalProperties": false})
}

impl TableRole {
    /// The kind of document that plays this role.
    pub fn doc_kind(self) -> crate::DocKind {
        match self {
            TableRole::RangeBands => crate::DocKind::RangeBands,
            TableRole::CombatModifiers
            | TableRole::IndirectCombatModifiers
            | TableRole::StrikePointModifiers
            | TableRole::StrikePackageModifiers
            | TableRole::PilotCheckModifiers
            | TableRole::CloseCombatModifiers
            | TableRole::BreakModifiers => crate::DocKind::ModifierTable,
            _ => crate::DocKind::Table,
        }
    }
}

/// One range band.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub id: Id,
    pub name: String,
    /// Upper limit as a multiple of the weapon's RNG.
    pub multiplier: f64,
    /// Base target point of a direct-fire combat roll.
    pub combat_tp: u32,
    /// Base target point of an indirect-fire strike-point roll.
    pub strike_point_tp: u32,
    /// Inches added to a drift roll at this band.
    #[serde(default)]
    pub drift_bonus: u32,
}

/// Range bands and their target points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangeBands {
    pub id: Id,
    pub name: String,
    /// Shortest first.
    pub bands: Vec<RangeBand>,
    /// Target point of the combat roll against models caught by a successful strike point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub indirect_combat_tp: Option<u32>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// What a roll modifier scales with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModifierScale {
    /// Applied once.
    Once,
    /// Times the SA's rating.
    PerRating,
    /// Times each additional weapon / target / attempt beyond the first.
    PerAdditional,
    /// Times each weapon declared or fired.
    PerWeapon,
    /// Times what the condition counts (models in contact, an SA's rating).
    PerCount,
}

/// One situation modifier of a roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SituationModifier {
    pub id: Id,
    /// Label shown in the narrative.
    pub name: String,
    /// Amount in the ruleset's modifier convention.
    pub value: i32,
    #[serde(default = "ModifierScale::once")]
    pub scale: ModifierScale,
    /// Largest total this modifier may reach (absolute value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    /// `max` counts per weapon fired: a cut that may cancel a per-weapon penalty but never turn
    /// it into a bonus (Assault against Run 'N Gun's +1 per weapon).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub max_per_weapon: bool,
    /// Condition id the engine tests (`light-cover`, `band-long`, `defender-knockdown`, …): a word
    /// of the engine's vocabulary (docs/vocabulary.md).
    #[schemars(schema_with = "crate::vocab::condition_schema")]
    pub condition: Id,
    /// Further conditions that must all hold (e.g. `target-locked` for a targeting computer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(schema_with = "crate::vocab::conditions_schema")]
    pub also: Vec<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

impl ModifierScale {
    fn once() -> Self {
        ModifierScale::Once
    }
}

/// What a failed out-of-ammo check empties.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AmmoEmpties {
    /// The mount whose roll fumbled.
    #[default]
    Mount,
    /// Every mount of the model carrying the same weapon (the same weapon document).
    Weapon,
}

/// Which roll a modifier table modifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RollKind {
    CombatRoll,
    IndirectCombatRoll,
    StrikePointRoll,
    PilotCheck,
    RepairRoll,
    CloseCombatRoll,
    BreakRoll,
}

/// A table of situation modifiers for one kind of roll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModifierTable {
    pub id: Id,
    pub name: String,
    pub roll: RollKind,
    pub modifiers: Vec<SituationModifier>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// What a lookup table is indexed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LookupKey {
    /// A dice roll given by `dice`.
    Roll,
    /// Margin of success of the combat roll (Quick-Start damage tables).
    MarginOfSuccess,
    /// MoS + RAV − AV (full rules combat damage table).
    FinalResult,
    /// Victory ratio × 10 (winner's score ÷ loser's score, one decimal).
    VictoryRatioTenths,
    /// Not rolled: the rows are a list of named entries, `min`/`max` number them (1, 2, …).
    Ordinal,
}

/// Effects of a table row, applied by the engine's procedures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Damage points to the defender (or the losing model in close combat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<u32>,
    /// Damage points to both models (close combat tie).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_both: Option<u32>,
    /// Pilot check with this modifier (0 = plain check), in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pilot_check: Option<i32>,
    /// Model states applied (ids of model-state documents).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub states: Vec<Id>,
    /// Roll on the critical damage table.
    #[serde(default)]
    pub critical: bool,
    /// Change to action points per activation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points: Option<i32>,
    /// Action points set to this value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_points_set: Option<u32>,
    /// Change to MV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_value: Option<i32>,
    /// MV multiplied by this factor (rounded down).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_factor: Option<f64>,
    /// Lasting modifier to the model's combat rolls, in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat_modifier: Option<i32>,
    /// The model can make no more combat actions.
    #[serde(default)]
    pub no_combat: bool,
    /// All RAV and CCV become 0.
    #[serde(default)]
    pub weapons_zeroed: bool,
    /// The model is destroyed (crew killed).
    #[serde(default)]
    pub destroyed: bool,
    /// A result that is chosen or placed (terrain type id, victory level id, scenario id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Id>,
    /// A number the row gives (e.g. a starting threat value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i64>,
}

/// One row of a lookup table; `max` absent on the last row means "and above".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRow {
    pub min: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    /// Label, in our words.
    pub name: String,
    #[serde(default)]
    pub effect: Outcome,
    /// Footnote ids this row carries.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub footnotes: Vec<Id>,
}

/// A footnote of a table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Footnote {
    pub id: Id,
    pub text: String,
}

/// A lookup table: damage tables, critical tables, random terrain, victory levels, scenario selection.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub id: Id,
    pub name: String,
    pub key: LookupKey,
    /// Dice expression when `key` is `roll`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<String>,
    /// Rows in ascending order, without gaps.
    pub rows: Vec<TableRow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub footnotes: Vec<Footnote>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A move class (walker, tracked, hover, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveClass {
    pub id: Id,
    pub name: String,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// Cover a terrain type gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    None,
    Light,
    Heavy,
    Blocking,
}

/// Cost of moving through a terrain type: MV per inch, a bonus to overall MV, or not allowed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TerrainCost {
    PerInch(u32),
    Special(TerrainCostWord),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainCostWord {
    /// Not allowed.
    Na,
    /// Costs 1 per inch and adds +1 to the model's overall MV (roads).
    RoadBonus,
}

/// A terrain type with its movement cost for every move class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub id: Id,
    pub name: String,
    pub cover: Cover,
    /// Elevation level of the terrain (E1 = 1, water depth as negative levels).
    #[serde(default)]
    pub elevation: i32,
    /// Extra cost per elevation level climbed, by move class (for hills and structures).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(extend("x-cav-ref-keys" = "move_class"))]
    pub climb_cost: BTreeMap<Id, TerrainCost>,
    /// MV cost per inch by move class id.
    #[schemars(extend("x-cav-ref-keys" = "move_class"))]
    pub costs: BTreeMap<Id, TerrainCost>,
    /// Counts as clear/open for rules that care (infantry in the open, Ravage).
    #[serde(default)]
    pub open: bool,
    /// A road: a model whose whole move action stays on it ignores the other terrain there.
    #[serde(default)]
    pub road: bool,
    /// The terrain raises the ground it covers by `elevation` levels (hills); otherwise
    /// `elevation` is the height of the object for line of sight (woods, structures).
    #[serde(default)]
    pub raises_ground: bool,
    /// Its cover counts wherever a line of sight crosses it, whatever its elevation and however
    /// far it is from both models (woods in the full rules, which have no elevation level) —
    /// except for an attacker standing in it within `adjacent_cover` of its edge; otherwise it
    /// counts only as tall as both models, next to one of them, or stood in.
    #[serde(default)]
    pub cover_when_crossed: bool,
    /// Indirect-fire attacks ignore the cover it gives a target (smoke in the full rules).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_cover_from_indirect: bool,
    /// A laser designator's beam (TAG) does not pass through it (smoke's carbon absorbs it,
    /// 001 L8389-8393): no paint across it or from or at a model inside it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blocks_designators: bool,
    /// Whom it shelters when they stand in it (a trench, a fighting position): only models of
    /// these types take its cover there, at most `at_most` of them; absent: any model in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shelters: Option<Shelters>,
    /// How many models one piece holds (a bunker section: one infantry model): a move may not
    /// end in a piece already that full. Absent: no limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub room: Option<u32>,
    /// A structure (001 L5905-6303): its sections' damage points and armor class; a model inside
    /// adds the armor class to its AV and fires only direct.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<StructureDef>,
    /// Special attributes whose models ignore this terrain's movement penalties: they cross it at
    /// the open-ground cost and climb it for free (Superior Mobility: rough ground, light woods,
    /// one elevation level). Where their move class may not go, they still may not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub waived_by: Vec<Id>,
    /// Special attributes whose models may enter it where their move class may not, at the
    /// open-ground cost plus `extra` MV per inch (Amphibious through water); such a model is
    /// under it, and fires no weapon there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entered_with: Vec<EnteredWith>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A special attribute that lets its models enter a terrain their move class may not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnteredWith {
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub sa: Id,
    /// MV per inch on top of the open-ground cost.
    #[schemars(range(max = 100))]
    pub extra: u32,
}

/// A structure type: damage points per section, the section's size (2"×2" in the full rules) and
/// armor class (001 L5905-6090).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StructureDef {
    /// Damage points per section.
    #[schemars(range(min = 1, max = 1000))]
    pub damage_points: u32,
    /// The side of one square section in inches: a building has its area's worth of sections
    /// (at least one), and a model crossing it meets one per this many inches of its path.
    #[schemars(range(min = 0.25, max = 100.0))]
    pub section: f64,
    #[schemars(range(max = 100))]
    pub armor_class: u32,
    /// Hard (hardened) or soft.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hard: bool,
}

/// How long a model state lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StateDuration {
    /// Until the end of the model's next activation.
    NextActivation,
    /// Until the start of the model's next activation.
    UntilNextActivation,
    /// For a number of the model's activations (`activations`).
    Activations,
    /// Until the end of the turn it was gained in.
    UntilEndOfTurn,
    /// For a number of turns (`turns`), the one it was gained in counted: it ends at the end of
    /// the last.
    Turns,
    /// Until repaired.
    UntilRepaired,
    /// Until the model stands up (a move action).
    UntilStandUp,
    /// Until the model moves.
    UntilMoves,
    /// For the rest of the game.
    Permanent,
}

/// A model state (Suppressed, Stunned, Knockdown, …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ModelState {
    pub id: Id,
    pub name: String,
    /// How a game's narrative says a model enters the state, in the book's words (`is knocked
    /// down`); left out: `is <name>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrative: Option<String>,
    pub duration: StateDuration,
    /// `duration: activations` only: how many of the model's activations (1 if left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub activations: Option<u32>,
    /// `duration: turns` only: how many turns, the one it is gained in counted (1 if left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub turns: Option<u32>,
    /// Modifier to the model's own rolls while in this state, in the ruleset's convention.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub own_roll_modifier: Option<i32>,
    /// Modifier to rolls attacking the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_modifier: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_value: Option<i32>,
    /// Action points gained (+) or lost (−) at the start of each of the model's activations while
    /// the state lasts (an ion disruptor's lost action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -10, max = 10))]
    pub action_points: Option<i32>,
    /// No actions at all during its next activation.
    #[serde(default)]
    pub no_actions: bool,
    /// No combat actions while the state lasts.
    #[serde(default)]
    pub no_combat: bool,
    /// Cannot move at all.
    #[serde(default)]
    pub no_move: bool,
    /// Cannot move closer to any enemy.
    #[serde(default)]
    pub no_advance: bool,
    /// Actions the model may not take while in it (Experimental Nano-Tech burnt out: `repair`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forbids: Vec<crate::vocab::ActionKind>,
    /// Painted by a TAG: weapons that need a target-lock may engage the model without one, and
    /// the `tagged` condition holds against it. The `tag` action gives the first such state.
    #[serde(default)]
    pub painted: bool,
    /// States this one replaces while it lasts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "model_state"))]
    pub supersedes: Vec<Id>,
    /// Model types that cannot receive the state.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub immune: Vec<ModelType>,
    /// Terrain the model lays behind it while in the state (a smoke generator's line): each
    /// action that moves it leaves a strip this wide along the way it moved, from the back of its
    /// base, as long as the inches moved, lasting as `lasts` says (rolled once per action).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trail: Option<Trail>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// Terrain a model lays as it moves (`ModelState::trail`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Trail {
    /// The terrain type laid (`smoke`).
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// The strip's width in inches.
    #[schemars(range(min = 0.0, max = 100.0))]
    pub width: f64,
    /// How long each strip stays, rolled when it is laid.
    pub lasts: crate::catalog::Lasting,
}

/// How often an action type may be taken in one activation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionCategory {
    Free,
    Repeatable,
    NonRepeatable,
}

/// An action type of the action types table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionType {
    pub id: Id,
    pub name: String,
    pub category: ActionCategory,
    /// Action points it costs.
    pub cost: u32,
    /// Special attributes whose models take it for 0 AP (Locked-On's free target-lock); a
    /// non-repeatable action is still taken once per activation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "special_attribute"))]
    pub free_with: Vec<Id>,
    /// Model types that may take it; empty = all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// Upgrades that open it to a model of any type (Medic's repair for infantry).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(extend("x-cav-ref" = "upgrade"))]
    pub open_with: Vec<Id>,
    /// Model types it may be aimed at, for an action aimed at a model (a target-lock); empty = all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_model_types: Vec<ModelType>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A squad type and its size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SquadType {
    pub id: Id,
    pub name: String,
    pub class: crate::force::SquadClass,
    /// Squad size; a model with a heavy special attribute (Bulky) counts as more than one.
    pub min_models: u32,
    pub max_models: u32,
    /// Model tasks of the squad; empty = any task.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tasks: Vec<crate::catalog::Task>,
    /// Models of other tasks the squad may take in place of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<crate::force::TaskSwap>,
    /// Model types allowed; empty = any.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model_types: Vec<ModelType>,
    /// At most this many squads of the type in one force group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_per_force: Option<u32>,
    /// Every model has the same task (flight squads).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_task: bool,
    /// Every model has the same model type (transport squads).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_model_type: bool,
    /// One variety of infantry only: one model type and chassis (light, heavy or powered).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub one_variety: bool,
    /// May add transports (the ruleset's transport task), all of one model type, up to the number
    /// its models need; they do not count towards the squad size.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub transports: bool,
    /// C3 points the squad adds to its force's pool (001 L1278-1336).
    #[serde(default)]
    pub c3_points: u32,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// A rectangle on the board in inches, from the bottom-left corner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A side's deployment zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deployment {
    pub side: Id,
    pub zone: Rect,
    /// Share of the threat value pool this side gets, in percent.
    #[serde(default = "hundred")]
    pub tv_percent: u32,
    /// At least a share of the side's models start inside an area (half the defenders on the hill).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<AreaShare>,
    /// How the side's squads come onto the table (001 L2606-2664).
    #[serde(default, skip_serializing_if = "DeploymentMethod::is_standard")]
    pub method: DeploymentMethod,
}

/// How a side deploys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeploymentMethod {
    /// Placed in the zone before the first turn.
    #[default]
    Standard,
    /// Each squad enters across the zone's table edge when it first activates, its first action a
    /// move.
    Rolling,
    /// As rolling, from this turn on; its squads have no draw-deck cards before.
    Delayed(#[schemars(range(min = 1, max = crate::limits::MAX_TURNS))] u32),
}

impl DeploymentMethod {
    pub fn is_standard(&self) -> bool {
        *self == DeploymentMethod::Standard
    }
    /// The turn the side's squads enter, for the methods that bring them on during play.
    pub fn enters(&self) -> Option<u32> {
        match self {
            DeploymentMethod::Standard => None,
            DeploymentMethod::Rolling => Some(1),
            DeploymentMethod::Delayed(t) => Some(*t),
        }
    }
}

/// A share of a side's models that deploy inside an area.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AreaShare {
    pub area: BoardArea,
    /// Percent of the side's models, rounded up.
    #[schemars(range(max = 100))]
    pub percent: u32,
}

fn hundred() -> u32 {
    100
}

/// A model placed by the scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForcePlacement {
    #[schemars(extend("x-cav-ref" = "model"))]
    pub model: Id,
    /// Where; omitted = the side deploys it in its zone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<[f64; 2]>,
    /// Facing in degrees, 0 = towards +y.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
}

/// How a scenario is won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VictoryKind {
    /// Last side with models on the table.
    LastStanding,
    /// Higher surviving threat value when the turns run out.
    SurvivingTv,
    /// Hold a terrain objective at the end.
    HoldObjective,
    /// Most objective points.
    ObjectivePoints,
    /// Exit models off a table edge.
    ExitModels,
    /// Keep the commander alive.
    Commander,
    /// One side (`objectives.destroyer`) must destroy enemy models worth its own starting TV.
    DestroyedTv,
    /// One side (`objectives.hvo.rescuer`) must carry the high-value operative off the table
    /// across its edge; every other side wins by stopping it.
    Rescue,
}

/// A terrain feature a scenario places: a circle of the terrain type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlacedTerrain {
    #[schemars(extend("x-cav-ref" = "terrain"))]
    pub terrain: Id,
    /// Centre on the board, inches.
    pub at: [f64; 2],
    #[schemars(range(min = 0.5, max = crate::limits::MAX_BOARD_INCHES))]
    pub radius: f64,
}

/// An area of the board: a rectangle, or a circle around a point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum BoardArea {
    Rect(Rect),
    Circle { at: [f64; 2], radius: f64 },
}

/// What a scenario's victory kind scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Objectives {
    /// The areas to control or hold. A model controls an area when its base is wholly inside and
    /// no enemy's is; it holds one when its centre is inside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub areas: Vec<BoardArea>,
    /// Models touching these count for nothing (No Man's Land, deployment zones).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<BoardArea>,
    /// `hold_objective`: the side that must hold the areas to the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Id>,
    /// `objective_points`: the first turn at whose end control scores.
    #[serde(default = "one_u32")]
    pub from_turn: u32,
    /// `objective_points`: points the side controlling more areas scores each turn.
    #[serde(default = "one_u32")]
    #[schemars(range(max = 1000))]
    pub points: u32,
    /// `exit_models`: table edges sides score by leaving across (their TV counts). The game ends
    /// when a side has no model left on the table; the higher score wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<ExitEdge>,
    /// `destroyed_tv`: the side that wins if the enemy TV it destroys reaches its own starting TV
    /// (the other side wins otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destroyer: Option<Id>,
    /// `exit_models`: a side's score also counts the TV of the enemy models it destroyed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub count_destroyed: bool,
    /// `rescue`: the high-value operative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hvo: Option<Hvo>,
    /// `objective_points` by salvage: containers that become active and are salvaged for points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub containers: Option<Containers>,
}

/// A figure of neither side that models pick up by base contact and carry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hvo {
    /// Where it starts, inches.
    pub at: [f64; 2],
    /// Radius of its base, inches.
    #[schemars(range(min = 0.1, max = 10.0))]
    pub radius: f64,
    /// The side that must carry it home.
    pub rescuer: Id,
    /// The edge it must leave the table by, carried by a model of the rescuer.
    pub edge: BoardEdge,
    /// Other sides may pick it up only once the rescuer has moved it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub others_after_moved: bool,
}

/// Numbered containers (first = 1) that start dormant; from a turn on, a die picks one to
/// become active each turn; a side salvages an active one by staying near it unopposed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Containers {
    /// Where each stands, inches, in number order.
    #[schemars(length(min = 1, max = 100))]
    pub at: Vec<[f64; 2]>,
    /// The roll at the start of a turn that names the container to activate (re-rolled on one
    /// already activated).
    pub die: String,
    /// The first turn whose start rolls.
    #[schemars(range(min = 1))]
    pub from_turn: u32,
    /// Once this many have been activated, the rest leave the table.
    pub active_max: u32,
    /// A model within this distance (centre to container), inches, salvages or contests.
    #[schemars(range(max = 100.0))]
    pub radius: f64,
    /// Activations of its side's models near it, unopposed and uninterrupted, that salvage it.
    #[schemars(range(min = 1, max = 100))]
    pub activations: u32,
    /// Or this many of the side's models near it, unopposed, at the end of one activation.
    #[schemars(range(min = 1, max = 100))]
    pub models: u32,
    /// Objective points a salvaged container is worth (scored when the turn ends).
    #[schemars(range(max = 1000))]
    pub points: u32,
}

/// A side may leave the table across an edge, and scores what leaves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitEdge {
    pub side: Id,
    pub edge: BoardEdge,
}

/// An edge of the board: left is x = 0, right x = width, bottom y = 0, top y = depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardEdge {
    Left,
    Right,
    Bottom,
    Top,
}

fn one_u32() -> u32 {
    1
}

/// One side of a scenario's board in inches: more than 0, at most 1000 (`MAX_BOARD_INCHES`).
#[derive(JsonSchema)]
#[schemars(transparent)]
#[allow(dead_code)] // schema only
struct BoardSide(#[schemars(range(max = crate::limits::MAX_BOARD_INCHES), extend("exclusiveMinimum" = 0))] f64);

/// A scenario: forces, deployment, terrain and victory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    pub id: Id,
    pub name: String,
    /// Board width and depth in inches, each more than 0 and at most 1000 (`MAX_BOARD_INCHES`).
    #[schemars(with = "[BoardSide; 2]")]
    pub board: [f64; 2],
    pub deployment: Vec<Deployment>,
    /// Forces fixed by the scenario, by side.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub forces: BTreeMap<Id, Vec<ForcePlacement>>,
    /// Number of terrain features each side places (dice expression) from the random-terrain table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_features: Option<String>,
    /// Agreed turn limit, if the scenario has one (at most `MAX_TURNS`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = crate::limits::MAX_TURNS))]
    pub turn_limit: Option<u32>,
    /// A game length rolled at the start instead (dice expression, `3d3`), kept from the players.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_dice: Option<String>,
    pub victory: VictoryKind,
    /// Terrain the scenario sets on the board before any random feature (a central hill).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<PlacedTerrain>,
    /// The areas the victory kind scores: `objective_points` gives points each turn to the side
    /// controlling more of them, `hold_objective` asks whether the holder still stands in them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objectives: Option<Objectives>,
    /// Special rules in our words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<String>,
    pub summary: String,
    /// Where the rulebook defines it (`001 L120-140`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
