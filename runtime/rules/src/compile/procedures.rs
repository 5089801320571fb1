//! Compiled procedures of the turn a ruleset configures: rolls, movement, damage, reactions, C3,
//! flight, transport, model types and which action types they may take.

use super::*;

/// C3 uses, states resolved to indices.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct C3Def {
    pub uses: Vec<cav_format::vocab::C3Use>,
    pub inspire: DiceExpr,
    pub motivate_ap: u32,
    pub rally_clears: Vec<StateIx>,
}

/// The numbers of the procedures, one typed section per part of the rules as the ruleset pack
/// gives them (`procedures:` of the ruleset document), ids resolved to indices. A section that
/// is `None` is a rule the ruleset does not have.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Proc {
    pub rolls: Rolls,
    pub movement: Movement,
    pub sight: f::SightRules,
    /// `sight.fire_over` with its special attributes resolved (an unknown one is never held).
    pub fire_over: Vec<FireOverDef>,
    pub damage: Damage,
    pub repair: Option<f::RepairRules>,
    pub setup: f::SetupRules,
    pub run_n_gun: Option<f::RunNGunRules>,
    pub defensive_fire: Option<DefensiveFire>,
    /// Counter-battery fire: the special attribute that answers, and how near a strike point
    /// must land to call for it.
    pub counter_battery: Option<(SaIx, f64)>,
    /// The close-defense reaction (Anti-Infantry), armed on the cards with its special attribute.
    pub close_defense: Option<CloseDefenseDef>,
    pub overwatch: Option<Overwatch>,
    pub close_combat: f::CloseCombatRules,
    pub break_away: Option<f::BreakRules>,
    /// An attack with several weapon types rolls them all at the farthest band; when one of
    /// them is out of range, at this band (index).
    pub mixed_weapons_out_of_range: Option<usize>,
    pub multiple_targets: Option<f::MultipleTargetRules>,
    pub transport: Option<Transport>,
    pub towing: Option<f::TowingRules>,
    pub salvo: Option<f::SalvoRules>,
    /// Flight, its landing-field terrains resolved.
    pub flight: Option<Flight>,
    /// Digging in: (cover, terrain indices it cannot be done in).
    pub dig_in: Option<(f::Cover, Vec<usize>)>,
    pub charge: Option<f::ChargeRules>,
    /// Strike packages: the strike-point roll's target point.
    pub strike_point_tp: Option<i32>,
    pub regroup: Option<f::RegroupRules>,
    pub coherency: Option<Coherency>,
    pub stomp: Option<f::StompRules>,
    pub structure_movement: Option<f::StructureMovementRules>,
    /// Structure attacks, the collapse terrain resolved.
    pub structure_attacks: Option<(f::StructureAttackRules, usize)>,
    /// (state, inches forward, traits that gain it with any move).
    pub fast_state: Option<(StateIx, f64, Vec<ModelTrait>)>,
    /// (state, traits that never gain it).
    pub still_state: Option<(StateIx, Vec<ModelTrait>)>,
    /// Each model type the ruleset declares, in its order (`TypeIx`).
    pub model_types: Vec<ModelTypeDef>,
}

/// Rolls in general.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Rolls {
    /// The roll kind (index into `Rules::roll_kinds`) judging the engine's rolls of the standard
    /// dice, and the one judging its 10+ rolls (`procedures.rolls.kind`, `ten_plus_kind`).
    pub kind: Option<usize>,
    pub ten_plus_kind: Option<usize>,
    pub ten_plus_rolls: Vec<f::RollKind>,
    /// The out-of-ammo check's die; `None`: weapons never run dry (no card says they may).
    pub out_of_ammo_die: Option<DiceExpr>,
    pub out_of_ammo_empties: f::AmmoEmpties,
    pub out_of_ammo_step: u32,
    /// RAV an NA weapon counts as (low enough never to hurt).
    pub na_rav: i32,
    pub opposed: Option<f::OpposedRollRules>,
}

/// Movement, terrain ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Movement {
    pub free_turn_degrees: f64,
    pub extra_turn_cost: u32,
    pub minimum_move: f64,
    /// MV a move action pays to stand a downed model up first (`None`: it may not move).
    pub stand_up_cost: Option<u32>,
    pub open_ground_cost: u32,
    /// MV per inch added for each further type of combined terrain.
    pub combined_terrain_extra: u32,
    pub road_cost: u32,
    pub road_bonus: u32,
    /// Extra MV per inch backwards: over open ground, by terrain index, elsewhere (None = barred).
    pub reverse_open: Option<u32>,
    pub reverse_cost: std::collections::BTreeMap<usize, u32>,
    pub reverse_other: Option<u32>,
    pub contact_distance: f64,
    /// Inches a move closing on an enemy stops short of it (edge to edge).
    pub enemy_clearance: f64,
}

/// Damage, pilot checks and destruction, ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Damage {
    /// `None`: the card's EXP value.
    pub pilot_check_tp: Option<i32>,
    pub pilot_fumble_damage: u32,
    /// `None` only where no model type has pilot checks.
    pub pilot_fail_state: Option<StateIx>,
    /// `None`: nobody may go prone.
    pub prone_state: Option<StateIx>,
    /// `None` only where no model type leaves a wreck.
    pub wreck_terrain: Option<usize>,
    pub wreck_minimum_radius: f64,
    pub dispersed: Option<f::DispersedDamage>,
    pub mission_kill: f::MissionKillRules,
    pub out_of_action: Option<f::OutOfActionRules>,
    pub unit_pool: Option<UnitPool>,
}

/// A unit's damage pool (`damage.unit_pool`), ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct UnitPool {
    pub allocation: f::Allocation,
    pub in_sight_only: bool,
    /// Points too few to slay a model: the state one model gains, and its recovery test.
    pub leftover: Option<(StateIx, Option<RecoveryDef>)>,
}

/// Unit coherency (`procedures.coherency`), its states resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Coherency {
    pub chain: f64,
    pub spread_moves: Option<f64>,
    pub left_behind: Vec<StateIx>,
}

/// A recovery test (`Recovery`): its roll kind and attribute (indices), what a success does first.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy)]
pub struct RecoveryDef {
    pub kind: usize,
    pub attribute: usize,
    pub success: f::RecoverySuccess,
}

/// Defensive fire, the band resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy)]
pub struct DefensiveFire {
    /// Index of the farthest band it may reach.
    pub max_band: usize,
    /// It takes no modifier that helps it.
    pub drops_bonuses: bool,
}

/// Over-watch, the state resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy)]
pub struct Overwatch {
    /// AP cost of a new delayed shot for a model that stays on over-watch.
    pub refire_cost: u32,
    /// The state a model gains when it goes on over-watch.
    pub state: Option<StateIx>,
}

/// A model type as the ruleset plays it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ModelTypeDef {
    /// The word it is declared by (`cav`, `infantry`, `trooper`).
    pub name: String,
    pub traits: Traits,
    /// Elevation of a standing model.
    pub height: i32,
    /// Base width for cards that give none.
    pub base_size: f64,
    /// Degrees the firing arcs turn left or right.
    pub torso_twist: f64,
}

/// Which model types may take an action type and be its target; empty = all.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct ActionTypes {
    pub by: Vec<TypeIx>,
    /// Upgrades (as the special attributes they compile to) that open the action to any model type.
    pub open_with: Vec<SaIx>,
    pub at: Vec<TypeIx>,
    /// A unit's models taking it in one activation aim at one unit (`one_target_per_unit`).
    pub one_target: bool,
    /// A unit an enemy aimed an action at this turn may not take it (`not_if_targeted`).
    pub not_if_targeted: bool,
}

/// Flight: nap of the earth and where fixed-wing aircraft land (terrain indices).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct Flight {
    pub noe_extra_cost: u32,
    pub noe_exposed_within: f64,
    pub noe_ends_with: Vec<cav_format::vocab::ActionKind>,
    pub landing_fields: Vec<usize>,
}

/// Transports: the special attribute whose rating is the slots, the slots a rider takes, and
/// riders (by special attribute) that take more.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
pub struct Transport {
    pub sa: u16,
    pub slots_per_rider: u32,
    pub heavy: Vec<(u16, u32)>,
    /// Carriers of non-infantry riders (a dropship).
    pub carriers: Vec<Carrier>,
}

/// A carrier of non-infantry riders: special attribute, slots per level, slots per rider type.
pub type Carrier = (u16, u32, Vec<(TypeIx, u32)>);
