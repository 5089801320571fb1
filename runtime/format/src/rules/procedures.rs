//! `procedures:` of the ruleset: one typed section per part of the rules, and the rolls in
//! general (10+ rolls, out of ammo, NA weapons).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{
    BreakRules, ChargeRules, CloseCombatRules, CloseDefenseRules, CounterBatteryRules, DamageRules, DefensiveFireRules,
    DigInRules, FlightRules, MixedWeaponRules, MovementRules, MovementStateRules, MultipleTargetRules, OverwatchRules,
    RegroupRules, RepairRules, RollKind, RunNGunRules, SalvoRules, SetupRules, SightRules, SmallTableRules, StompRules,
    StrikePackageRules, StructureAttackRules, StructureMovementRules, TowingRules, TransportRules,
};

/// The numbers of the procedures, in one typed section per part of the rules. A section the
/// ruleset leaves out is a rule it does not have (no run 'n gun, no close combat), or for the
/// general ones (rolls, movement, sight, damage, setup) their neutral form; a number the data
/// needs but the section lacks is an error where it belongs.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Procedures {
    #[serde(default)]
    pub rolls: RollRules,
    #[serde(default)]
    pub movement: MovementRules,
    #[serde(default)]
    pub sight: SightRules,
    #[serde(default)]
    pub damage: DamageRules,
    /// Repair rolls; absent: models are never repaired (field repair assets still mend).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<RepairRules>,
    /// Setting up a game; absent: no pre-game moves, ambush or orbital drop.
    #[serde(default)]
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
    /// A direct-fire shot resolved by roll kinds and attributes; absent: CAV's attack (the
    /// standard dice against the band's target point, RAV against AV, the damage table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<super::AttackRules>,
    /// Close combat by roll kinds, fought once each command is over (Sythopian Wars' melee);
    /// left out: none (CAV's close combat is the `close-combat` action, `close_combat:`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub melee: Option<super::MeleeRules>,
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
    /// Move values and ranges on a small table (option `table-size: small`); a ruleset offering
    /// that option must say how they scale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub small_table: Option<SmallTableRules>,
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
    /// How close a unit's models keep together; absent: they may spread as they like.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coherency: Option<super::CoherencyRules>,
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

/// Rolls in general.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollRules {
    /// The roll kind (of `roll_kinds:`) that judges the engine's rolls of the standard dice
    /// and of dice standing in for them (`3d6kh2` for `2d6`): its natural rows (fumbles) and its
    /// critical. Its dice must be `dice.standard`. Absent: those rolls only compare their result
    /// with their target point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<crate::Id>,
    /// The roll kind that judges the "10+ rolls" instead (the same dice, with a natural row that
    /// always succeeds); needed when `ten_plus_rolls` names any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ten_plus_kind: Option<crate::Id>,
    /// The rolls that are "10+ rolls" in this ruleset.
    #[serde(default)]
    pub ten_plus_rolls: Vec<RollKind>,
    /// Out-of-ammo die rolled after a critical fumble. A weapon's `out_of_ammo` modifiers say
    /// the highest result that runs it dry, so the check's target point is that result + 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub out_of_ammo_die: Option<String>,
    /// What a failed out-of-ammo check empties: the fumbling mount only (`mount`, the default),
    /// or every mount of the model carrying the same weapon (`weapon`).
    #[serde(default)]
    pub out_of_ammo_empties: AmmoEmpties,
    /// Added to the out-of-ammo check's target point for each earlier critical fumble the model
    /// rolled in the same action (0, the default: every check alike).
    #[serde(default)]
    pub out_of_ammo_step: u32,
    /// RAV a weapon with "NA" against the target counts as: it cannot hurt it (a NA weapon's
    /// margin of success can never reach the armor). Needed when some weapon has an NA RAV.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub na_rav: Option<i32>,
    /// Opposed rolls between two models (scripts' `ctx.opposed_roll`); absent: the ruleset has
    /// none, and a script asking for one is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposed: Option<OpposedRollRules>,
}

/// An opposed roll: each model rolls the standard dice plus its bonuses (the caller's and its
/// special attributes' `opposed_roll` effects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpposedRollRules {
    /// What decides: the larger margin over each model's own EXP (`exp`; a card without EXP
    /// counts its total), or the larger total (`total`).
    pub against: OpposedAgainst,
    /// Who wins a tie: the model that starts the roll (`starter`) or the other (`other`).
    pub ties: OpposedTies,
}

/// What an opposed roll's totals are measured against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpposedAgainst {
    Exp,
    Total,
}

/// Who wins a tied opposed roll.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OpposedTies {
    Starter,
    Other,
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
