//! An attack as a ruleset states it (`procedures.attack`): the rolls a shot makes, which roll
//! kind decides a hit and against what, the target's opposing roll, and the roll that turns each
//! hit into damage points. Left out: CAV's attack (the standard dice against the range band's
//! target point, margin and RAV against AV, then the damage table).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::*;

/// How a direct-fire shot is resolved, by roll kinds (`roll_kinds:`) and attributes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackRules {
    /// How many hit rolls one shot of a mount makes, as a sum of terms (a weapon's rate of fire:
    /// `[{of: weapon, attribute: rof}]`); left out: one. At most `MAX_ATTACK_ROLLS`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub rolls: Vec<Term>,
    /// How many hit rolls an attack made out of turn makes — a reaction (`reaction_windows`) or
    /// a shot back (`opposed.answers`) — as a sum of terms (Infinity's burst of 1 in ARO); left
    /// out: `rolls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub reaction_rolls: Vec<Term>,
    /// The roll that decides each hit (Sythopian Wars' target lock: a d6 at most the shooter's
    /// Resolve; Infinity's BS roll: a d20 at most BS). The combat modifiers apply to it.
    pub hit: AttackRoll,
    /// The target's answer, compared with all the hit rolls by a contest (`contests:`):
    /// Infinity's face-to-face Dodge or BS attack. An attack made as a reaction
    /// (`reaction_windows`) is not opposed. Left out: nothing opposes the hit rolls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opposed: Option<OpposedAttack>,
    /// The roll each hit makes for damage (Sythopian Wars' damage roll against the target's
    /// Resolve; Infinity's ARM roll, made by the target); left out: every hit deals its points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageRoll>,
    /// A damage model: each standing hit looks up a table (`key: attack_damage`) by an
    /// expression of its roll, and the row's outcome lands on the target at once (003 L216-258:
    /// margin × DM against multiples of armor, then the system damage tables). Not with
    /// `damage` or `points`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_table: Option<DamageTable>,
    /// A critical hit roll deals its points with no damage roll (Infinity's critical, which no
    /// ARM roll saves).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub critical_hits_deal: bool,
    /// The damage points each hit (or each counted damage roll) deals, as a sum of terms; left
    /// out: one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub points: Vec<Term>,
    /// Where the rules define it (`002 L208`); left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// One roll of an attack: its kind and the target it is held against.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackRoll {
    /// The roll kind (of `roll_kinds:`).
    pub roll: Id,
    /// The roll's target, as a sum of terms (`[{of: attacker, attribute: resolve}]`).
    #[schemars(length(min = 1, max = 8))]
    pub target: Vec<Term>,
    /// The least the dice may be asked to show, whatever the terms and modifiers ("never below
    /// 2+", 002 L282).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i32>,
    /// The most the dice may be asked to show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
    /// Bounds that hold only while a condition does, after `min`/`max` (`[{condition:
    /// defender-ditching, max: 1}]`: shooting at a unit that ditched locks on only on a 1,
    /// 002 L266).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub bounds: Vec<ConditionalBound>,
}

/// A bound on what a roll's dice may be asked to show, while a condition holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConditionalBound {
    /// A condition word (docs/vocabulary.md), tested with the roller as the attacker.
    #[schemars(schema_with = "crate::vocab::condition_schema")]
    pub condition: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<i32>,
}

/// The target's answer to an attack, met by a contest (`AttackRules::opposed`): Infinity's
/// face-to-face Dodge, or its BS attack back at the attacker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpposedAttack {
    /// The contest (of `contests:`) that compares the hit rolls with the target's rolls; both
    /// sides roll its roll kind.
    pub contest: Id,
    /// What the target's player may answer with, chosen as the attack is declared (a bot, or a
    /// test's `choices: {answer: …}`; the first where nobody chooses). A target with no answer
    /// left (it reacted already, see `window`) or that declines is not opposed.
    #[schemars(length(min = 1, max = 8))]
    pub answers: Vec<AttackAnswer>,
    /// The reaction window (of `reaction_windows:`) an answer is taken in: the target of a
    /// direct-fire attack answers here instead of being asked by the window; answering is its
    /// reaction there (`once_an_activation`, `once_a_turn`), so a target that reacted already
    /// has no answer. The window must cost nothing (`cost: free`). Left out: every target
    /// answers every attack.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Id>,
    /// The acting model answers the attacks reactions aim at it during one of its actions,
    /// paying this many action points of its activation: one answer that only opposes (a Dodge;
    /// not a shot back), rolled once and met by every one of those attacks (Infinity's active
    /// trooper Dodging every ARO as its order's second short skill, 004 L552, L606-614). Its
    /// answers' rolls may then read only the answering model's attributes (`of: target`). Left
    /// out: attacks made as reactions are not answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 10))]
    pub acting_answer_cost: Option<u32>,
}

/// One answer a target may make to an attack (`OpposedAttack::answers`): a roll that only
/// opposes (`target`), or an attack of its own (`shoots`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackAnswer {
    pub id: Id,
    /// As the narrative and the controller call it (`Dodge`).
    pub name: String,
    /// The answer's roll target, as a sum of terms (`[{of: target, attribute: ph}]`: `target`
    /// is the answering model); a roll that only cancels the attacker's. Left out with `shoots`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub target: Vec<Term>,
    /// The answer is an attack back at the attacker with one of the target's weapons that can
    /// fire at it, by this same procedure with the roles swapped (`reaction_rolls`, `hit`,
    /// `damage`, `points`; its own combat modifiers): its hit rolls meet the attacker's in the
    /// contest, and each of its standing hits deals damage to the attacker.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub shoots: bool,
    /// `true`: the target may give it only while it sees the attacker (a line of sight, and the
    /// attacker inside what it sees where the ruleset narrows that: `sight.vision_half_width`); `false`:
    /// only while it does not (Infinity's Change Facing, 004 L250-270). Left out: either. The
    /// acting model's one answer to the reactions (`acting_answer_cost`) meets attacks from
    /// anywhere: any roll answer but one with `false`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_seen: Option<bool>,
    /// When its roll stands in the contest (not cancelled), the answering model turns to face
    /// the attacker (Change Facing). Only with a `target` roll.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub turns: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// The damage roll of each hit (`AttackRules::damage`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageRoll {
    #[serde(flatten)]
    pub roll: AttackRoll,
    /// Who rolls: the `attacker` (the default: a damage roll) or the `target` (a saving roll).
    #[serde(default)]
    pub by: Roller,
    /// Which results deal the points: `success` (the default) or `failure` (a failed save).
    #[serde(default)]
    pub deals_on: DealsOn,
}

/// How a standing hit reads its damage table (`AttackRules::damage_table`): its hit roll's
/// margin (0 or more) times `margin_times`, in whole multiples of `per`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DamageTable {
    /// The table (`kind: table`, `key: attack_damage`).
    #[schemars(extend("x-cav-ref" = "table"))]
    pub table: Id,
    /// What the margin is multiplied by, as a sum of terms (`[{of: weapon, attribute: dm}]`);
    /// left out: 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub margin_times: Vec<Term>,
    /// The damage counts in whole multiples of this sum (`[{of: target, attribute: armor}]`),
    /// rounded down; a sum under 1 counts as 1. Left out: the damage itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub per: Vec<Term>,
}

/// Who makes a roll of an attack.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Roller {
    #[default]
    Attacker,
    Target,
}

/// Which damage-roll results deal damage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealsOn {
    #[default]
    Success,
    Failure,
}

/// One term of a sum: an attribute of the attacker, the target or the weapon (`times` it), or a
/// plain value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Term {
    /// Whose attribute: `attacker`, `target` (their `attributes:`) or `weapon` (the weapon's,
    /// of the ruleset's `weapon_attributes:`); left out with `value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<TermOf>,
    /// The attribute's id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribute: Option<Id>,
    /// A plain number (with no `of`/`attribute`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = -1000, max = 1000))]
    pub value: Option<i32>,
    /// The attribute counts this many times (`-1`: it is taken off).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    #[schemars(range(min = -10, max = 10))]
    pub times: i32,
}

fn one() -> i32 {
    1
}

fn is_one(v: &i32) -> bool {
    *v == 1
}

/// Whose attribute a term reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TermOf {
    Attacker,
    Target,
    Weapon,
}

/// Close combat by roll kinds (`procedures.melee`; Sythopian Wars, 002 L390-428): once any
/// command is over, every two units of enemy sides with models within `reach` of each other
/// fight. Each model of either within reach of the other unit rolls its melee weapon's
/// `attacks` dice (`unarmed` without one) against the nearest enemy model in reach; the side with
/// more hits deals, for each hit beyond the other's, one point plus that attack's `force`; the
/// hits left are paired, the higher Force of each pair dealing the difference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MeleeRules {
    /// Models within this many inches (base edge to base edge) of an enemy model are in close
    /// combat with its unit, and may not use ranged weapons.
    #[schemars(range(min = 0.0, max = 100.0))]
    pub reach: f64,
    /// The roll each attack die makes, and its target (`[{of: target, attribute: resolve}]`).
    pub hit: AttackRoll,
    /// Dice a model rolls with its melee weapon (`fire: melee`), as a sum of terms
    /// (`[{of: weapon, attribute: attacks}]`).
    #[schemars(length(min = 1, max = 8))]
    pub attacks: Vec<Term>,
    /// Dice a model without a melee weapon rolls (`[{value: 1}]`: 1D6, 002 L398).
    #[schemars(length(min = 1, max = 8))]
    pub unarmed: Vec<Term>,
    /// The Force of an attack with a melee weapon, as a sum of terms; unarmed, none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 8))]
    pub force: Vec<Term>,
    /// Where the rules define it; left out for invented content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}
