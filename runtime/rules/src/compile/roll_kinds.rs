//! A ruleset's named roll kinds and contests, compiled: the one judgement of a named roll and
//! the one comparison of two sides' rolls, shared by scripts (`ctx.make_roll`, `ctx.contest`), the
//! narrative and the odds.

use cav_format::{self as f, BeyondReach, ContestCompare, ContestTies, NaturalVerdict, RollDirection};

use super::WorkedOut;
use crate::dice::{Dice, DiceExpr, Odds};

/// A roll kind (`roll_kinds:` of the ruleset).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct RollRule {
    pub id: String,
    pub dice: DiceExpr,
    pub succeeds: RollDirection,
    pub natural: Vec<f::NaturalResult>,
    pub critical_on_target: bool,
    /// A critical that adds dice rather than deciding the roll (`critical:`).
    pub critical: Option<Critical>,
    pub beyond_reach: BeyondReach,
    /// The exact odds of the dice, worked out when `chance` first asks (a pack may declare many
    /// kinds whose odds nothing reads: loading them costs nothing).
    #[serde(skip)]
    pub odds: WorkedOut<Odds>,
    /// The odds of the critical's bonus dice, worked out when `chance` first asks.
    #[serde(skip)]
    pub bonus_odds: WorkedOut<Odds>,
}

/// A critical from a natural result up, adding its bonus dice to the result.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Critical {
    pub at_least: u32,
    pub bonus: Option<DiceExpr>,
    /// The lowest natural result a shifted critical may fall to: the first above the results a
    /// `fumble` or `failure` row decides from the bottom (`Critical::floor`).
    pub floor: u32,
}

impl Critical {
    /// The first natural result of `dice` from its lowest up that no `fumble` or `failure` row
    /// of `natural` decides (capped at `at_least`): one jump past each such row, so a row
    /// reaching a billion costs nothing.
    pub fn floor(dice: DiceExpr, natural: &[f::NaturalResult], at_least: u32) -> u32 {
        let mut n = dice.natural_min().max(0) as u32;
        for _ in 0..=natural.len() {
            let Some(row) = natural.iter().find(|r| r.holds(n)) else { break };
            if !matches!(row.result, NaturalVerdict::Fumble | NaturalVerdict::Failure) {
                break;
            }
            // Past the row: its highest result (an `at_least` row holds up to the end).
            let top = row.at_most.or(row.equal).unwrap_or(u32::MAX);
            n = top.saturating_add(1);
        }
        n.min(at_least)
    }
}

/// What an engine roll's dice decide (`Rules::verdict`): the natural total of the dice kept,
/// critical fumble and success, and, against a target point, success and margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    pub natural: u32,
    pub fumble: bool,
    pub crit: bool,
    pub success: Option<bool>,
    pub margin: Option<i32>,
}

/// What a roll of a kind came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thrown {
    /// Every face, in roll order (a second roll beyond reach after the first's).
    pub faces: Vec<u32>,
    /// The dice kept before modifiers (without the expression's `+k`).
    pub natural: i32,
    /// The result: the dice with the expression's `+k`, and the modifiers where they go to the
    /// result (`at_least` rolls).
    pub total: i32,
    /// The target the result was held against, with the modifiers where they go to the target
    /// (`at_most` rolls: "roll under the attribute + MODs").
    pub target: Option<i32>,
    pub success: Option<bool>,
    pub critical: bool,
    pub fumble: bool,
    /// How far the roll passed (or missed, negative) its target: above it for `at_least`, below
    /// it for `at_most`.
    pub margin: Option<i32>,
}

impl RollRule {
    /// Whether a roll of `expr` stands in for the kind's dice and so has its natural rows: the
    /// kind's own dice, or as many dice of the same sides kept (`3d6kh2` for `2d6`) with no
    /// `+k` — not a single die such as an out-of-ammo d6.
    pub fn stands_in(&self, expr: DiceExpr) -> bool {
        expr == self.dice
            || (expr.is_simple() && expr.sides == self.dice.sides && expr.kept() == self.dice.count && expr.plus == 0)
    }

    /// The natural row (first match) that decides a natural result of the kind's dice.
    pub fn natural_row(&self, natural: u32) -> Option<NaturalVerdict> {
        self.natural.iter().find(|r| r.holds(natural)).map(|r| r.result)
    }

    /// The lowest natural result that is a critical, shifted by `shift` (a `critical_success`
    /// modifier), never onto a result a `fumble` or `failure` row decides from the bottom.
    pub fn critical_at(&self, shift: i32) -> Option<u32> {
        let c = self.critical?;
        let shifted = i64::from(c.at_least).saturating_add(i64::from(shift));
        Some(shifted.clamp(i64::from(c.floor), i64::from(u32::MAX)) as u32)
    }

    /// The critical (`critical:`) a natural result makes, unless a row fails it.
    fn adds_critical(&self, natural: i32, row: Option<NaturalVerdict>) -> Option<Critical> {
        self.critical.filter(|c| {
            i64::from(natural) >= i64::from(c.at_least)
                && !matches!(row, Some(NaturalVerdict::Failure | NaturalVerdict::Fumble))
        })
    }

    /// The dice a critical adds, if any.
    pub fn critical_bonus(&self) -> Option<DiceExpr> {
        self.critical.and_then(|c| c.bonus)
    }

    /// Judge an engine roll of `expr` by the kind: the dice kept sum to `sum` and, with the
    /// modifiers (and any critical bonus), to `total`. Natural rows hold only for dice standing
    /// in for the kind's; a critical counts from `crit_at` up (`None`: this roll's procedure
    /// reads none), never on a fumble.
    pub fn verdict(&self, expr: DiceExpr, sum: i32, total: i32, target: Option<i32>, crit_at: Option<u32>) -> Verdict {
        let natural = sum.saturating_sub(expr.plus).max(0) as u32;
        let row = if self.stands_in(expr) { self.natural_row(natural) } else { None };
        let fumble = row == Some(NaturalVerdict::Fumble);
        // (Only where the procedure reads a critical: a `critical` row still succeeds elsewhere.)
        let crit = crit_at.is_some_and(|c| row == Some(NaturalVerdict::Critical) || natural >= c && !fumble);
        let passes = |t: i32| match self.succeeds {
            RollDirection::AtLeast => total >= t,
            RollDirection::AtMost => total <= t,
        };
        let success = target.map(|t| match row {
            Some(NaturalVerdict::Success | NaturalVerdict::Critical) => true,
            Some(NaturalVerdict::Failure | NaturalVerdict::Fumble) => false,
            None => passes(t),
        });
        let margin = target.map(|t| match self.succeeds {
            RollDirection::AtLeast => total.saturating_sub(t),
            RollDirection::AtMost => t.saturating_sub(total),
        });
        Verdict { natural, fumble, crit, success, margin }
    }

    /// Roll the kind's dice with `mods` against `target`, and judge it.
    pub fn throw(&self, dice: &mut dyn Dice, mods: i32, target: Option<i32>) -> Thrown {
        let (faces, sum) = self.dice.roll(dice);
        self.judged(dice, faces, sum, mods, target)
    }

    /// A roll whose caller reads only its verdict (success, critical, fumble) — and, with
    /// `success_values`, the value of a success (a contest comparing successes) — not the value
    /// of a failure: a damage or saving roll, a hit roll. The same as `throw` for play and tests;
    /// the exact-odds enumeration walks the ranges of faces that count alike
    /// (`Dice::roll_in_ranges`) rather than every face.
    pub fn throw_for_verdict(
        &self,
        dice: &mut dyn Dice,
        mods: i32,
        target: Option<i32>,
        success_values: bool,
    ) -> Thrown {
        let e = self.dice;
        if e.count != 1 || !e.is_simple() {
            return self.throw(dice, mods, target);
        }
        let most = e.natural_max();
        // What decides a face, short of a second roll beyond reach.
        let key = |n: i32| {
            let row = self.natural_row(n.max(0) as u32);
            let total = n.saturating_add(e.plus);
            let (total, target) = match self.succeeds {
                RollDirection::AtLeast => (total.saturating_add(mods), target),
                RollDirection::AtMost => (total, target.map(|t| t.saturating_add(mods))),
            };
            let passes = target.map(|t| match self.succeeds {
                RollDirection::AtLeast => total >= t,
                RollDirection::AtMost => total <= t,
            });
            let success = match row {
                Some(NaturalVerdict::Success | NaturalVerdict::Critical) => true,
                Some(_) => false,
                None => passes == Some(true),
            };
            // Each critical face adding dice counts alone (its result is the face plus the dice).
            let value = (success_values && success || self.adds_critical(n, row).is_some()).then_some(n);
            // The highest face matters where a target beyond reach asks for it twice.
            let top = self.beyond_reach == BeyondReach::MaxThenRollAgain && n == most;
            (row, passes, top, self.critical_on_target && target == Some(total), value)
        };
        let cuts: Vec<u32> = (1..most).filter(|&n| key(n) != key(n + 1)).map(|n| n as u32).collect();
        let face = dice.roll_in_ranges(e.sides, &cuts);
        let sum = e.total_of(&[face]);
        self.judged(dice, vec![face], sum, mods, target)
    }

    /// Judge the faces a roll showed (`sum`: their result with the expression's `+k`).
    fn judged(&self, dice: &mut dyn Dice, mut faces: Vec<u32>, sum: i32, mods: i32, target: Option<i32>) -> Thrown {
        let expr = self.dice;
        let natural = sum.saturating_sub(expr.plus);
        let row = self.natural_row(natural.max(0) as u32);
        // A critical adding dice adds them before the result is held against its target.
        let adds = self.adds_critical(natural, row);
        let sum = match adds.and_then(|c| c.bonus) {
            Some(bonus) => {
                let (more, v) = bonus.roll(dice);
                faces.extend(more);
                sum.saturating_add(v)
            }
            None => sum,
        };
        let (total, target) = match self.succeeds {
            RollDirection::AtLeast => (sum.saturating_add(mods), target),
            RollDirection::AtMost => (sum, target.map(|t| t.saturating_add(mods))),
        };
        let margin = target.map(|t| match self.succeeds {
            RollDirection::AtLeast => total.saturating_sub(t),
            RollDirection::AtMost => t.saturating_sub(total),
        });
        let most = expr.natural_max();
        let (mut success, mut critical, fumble) = match row {
            Some(NaturalVerdict::Success) => (Some(true), false, false),
            Some(NaturalVerdict::Critical) => (Some(true), true, false),
            Some(NaturalVerdict::Failure) => (Some(false), false, false),
            Some(NaturalVerdict::Fumble) => (Some(false), false, true),
            None => (margin.map(|m| m >= 0), false, false),
        };
        // A target beyond what the dice can show (`at_least` only): the highest natural result,
        // then a second roll showing its highest too.
        if row.is_none()
            && self.succeeds == RollDirection::AtLeast
            && let Some(t) = target
            && t.saturating_sub(total.saturating_sub(natural)) > most
        {
            success = Some(false);
            if self.beyond_reach == BeyondReach::MaxThenRollAgain && natural == most {
                let (again, second) = expr.roll(dice);
                faces.extend(again);
                success = Some(second.saturating_sub(expr.plus) == most);
            }
        }
        if self.critical_on_target && success == Some(true) && target == Some(total) || adds.is_some() {
            critical = true;
        }
        Thrown { faces, natural, total, target, success, critical, fumble, margin }
    }

    /// A roll of the kind as the event log shows it: `mods` are the modifiers it was thrown with.
    pub fn logged(&self, model: usize, mods: Vec<crate::event::ModApplied>, t: Thrown) -> crate::event::Roll {
        crate::event::Roll {
            model,
            kind: self.id.clone().into(),
            dice: self.dice.label(),
            natural: t.faces,
            mods,
            total: t.total,
            target: t.target,
            margin: t.margin,
            success: t.success,
            critical: if t.fumble {
                Some("fumble")
            } else if t.critical {
                Some("success")
            } else {
                None
            },
        }
    }

    /// The chance a roll of the kind succeeds with `mods` against `target`, from the dice's
    /// exact odds (natural rows and criticals counted; a second roll beyond reach counted).
    pub fn chance(&self, mods: i32, target: i32) -> f64 {
        self.chance_with(mods, target, true)
    }

    /// As `chance`, with the critical's bonus dice counted only where `critical` (a roll whose
    /// procedure reads no critical adds none). Past `ODDS_RANGE` natural results (where the
    /// dice's odds are taken as even anyway) each step of the range counts as its lowest result,
    /// so a hostile expression costs no more than that many steps.
    pub fn chance_with(&self, mods: i32, target: i32, critical: bool) -> f64 {
        let expr = self.dice;
        let odds = self.odds.get_or_init(|| expr.odds());
        let (least, most) = (expr.natural_min(), expr.natural_max());
        let span = i64::from(most) - i64::from(least) + 1;
        let step = (span / crate::dice::ODDS_RANGE as i64).max(1) as usize;
        (least..=most)
            .step_by(step)
            .map(|n| {
                let at = n.saturating_add(expr.plus);
                let p = odds.at_least(at) - odds.at_least(at.saturating_add(step as i32));
                let total = n.saturating_add(expr.plus);
                let row = self.natural_row(n.max(0) as u32);
                let bonus = self.adds_critical(n, row).and_then(|c| c.bonus).filter(|_| critical);
                let ok = match row {
                    Some(NaturalVerdict::Success | NaturalVerdict::Critical) => 1.0,
                    Some(NaturalVerdict::Failure | NaturalVerdict::Fumble) => 0.0,
                    // (A bonus only on `at_least` rolls: `compile` refuses it elsewhere.)
                    None if bonus.is_some() => bonus.map_or(0.0, |b| {
                        let bonus = self.bonus_odds.get_or_init(|| b.odds());
                        bonus.at_least(target.saturating_sub(total.saturating_add(mods)))
                    }),
                    None => match self.succeeds {
                        RollDirection::AtMost => f64::from(u8::from(total <= target.saturating_add(mods))),
                        RollDirection::AtLeast if target.saturating_sub(mods.saturating_add(expr.plus)) > most => {
                            match self.beyond_reach {
                                BeyondReach::MaxThenRollAgain if n == most => {
                                    odds.at_least(most.saturating_add(expr.plus))
                                }
                                _ => 0.0,
                            }
                        }
                        RollDirection::AtLeast => f64::from(u8::from(total.saturating_add(mods) >= target)),
                    },
                };
                p * ok
            })
            .sum()
    }
}

/// A contest (`contests:` of the ruleset).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct ContestRule {
    pub id: String,
    /// The roll kind both sides make (an index into `Rules::roll_kinds`).
    pub roll: usize,
    pub compare: ContestCompare,
    pub ties: ContestTies,
    pub critical_wins: bool,
}

impl ContestRule {
    /// Which of each side's rolls stand: a roll stands when it beats the other side's best (a
    /// tie as `ties:` says); under `best_success` a failure never stands nor cancels. One roll
    /// against many (a dodge against every die of a burst) is the same comparison.
    pub fn decide(&self, starter: &[Thrown], other: &[Thrown]) -> (Vec<bool>, Vec<bool>) {
        let key = |t: &Thrown| -> Option<(bool, i32)> {
            match self.compare {
                ContestCompare::Total => Some((false, t.total)),
                ContestCompare::Margin => Some((false, t.margin.unwrap_or(t.total))),
                ContestCompare::BestSuccess => {
                    (t.success == Some(true)).then_some((self.critical_wins && t.critical, t.total))
                }
            }
        };
        let best = |side: &[Thrown]| side.iter().filter_map(key).max();
        let (best_s, best_o) = (best(starter), best(other));
        let stands = |side: &[Thrown], against: Option<(bool, i32)>, wins_ties: bool| -> Vec<bool> {
            side.iter()
                .map(|t| match (key(t), against) {
                    (None, _) => false,
                    (Some(_), None) => true,
                    (Some(k), Some(b)) => k > b || (k == b && wins_ties),
                })
                .collect()
        };
        let (s_ties, o_ties) = match self.ties {
            ContestTies::Starter => (true, false),
            ContestTies::Other => (false, true),
            ContestTies::BothStand => (true, true),
            ContestTies::BothCancel => (false, false),
        };
        (stands(starter, best_o, s_ties), stands(other, best_s, o_ties))
    }
}

/// Close combat by roll kinds (`procedures.melee`), its ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct MeleeProc {
    /// Inches, base edge to base edge, within which enemy models are in close combat.
    pub reach: f64,
    pub hit: AttackRollRule,
    /// Dice per model with a melee weapon, and without one.
    pub attacks: Vec<Term>,
    pub unarmed: Vec<Term>,
    /// An armed attack's Force.
    pub force: Vec<Term>,
}

/// A ruleset's attack by roll kinds (`procedures.attack`), its ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct AttackProc {
    /// Hit rolls per shot (a sum; at least one is made, at most `MAX_ATTACK_ROLLS`).
    pub rolls: Vec<Term>,
    /// Hit rolls of an attack made out of turn (empty: `rolls`).
    pub reaction_rolls: Vec<Term>,
    pub hit: AttackRollRule,
    /// The target's answers and the contest that meets them.
    pub opposed: Option<Opposed>,
    pub damage: Option<DamageRollRule>,
    /// A critical hit roll deals without a damage roll.
    pub critical_hits_deal: bool,
    /// Damage points per hit or counted damage roll (a sum; empty: one).
    pub points: Vec<Term>,
    /// A damage model: each standing hit's table row (instead of `damage` and `points`).
    pub damage_table: Option<DamageTableRule>,
}

/// How a standing hit reads its damage table (`f::DamageTable`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct DamageTableRule {
    /// Index into `Rules::lookup_tables`.
    pub table: usize,
    pub margin_times: Vec<Term>,
    pub per: Vec<Term>,
}

impl DamageTableRule {
    /// The damage of a hit of `margin`, given each side's attributes and the weapon's: the
    /// margin (0 or more) times `margin_times`.
    pub fn damage(&self, margin: i32, attacker: &[i32], target: &[i32], weapon: &[i32]) -> i32 {
        let times =
            if self.margin_times.is_empty() { 1 } else { Term::sum(&self.margin_times, attacker, target, weapon) };
        margin.max(0).saturating_mul(times.max(0))
    }

    /// The key a hit's `damage` reads the table by: in whole multiples of `per` (a sum under 1
    /// counts as 1).
    pub fn key_of(&self, damage: i32, attacker: &[i32], target: &[i32], weapon: &[i32]) -> i32 {
        let per = if self.per.is_empty() { 1 } else { Term::sum(&self.per, attacker, target, weapon).max(1) };
        damage.max(0) / per
    }

    /// The key a hit of `margin` reads the table by.
    pub fn key(&self, margin: i32, attacker: &[i32], target: &[i32], weapon: &[i32]) -> i32 {
        self.key_of(self.damage(margin, attacker, target, weapon), attacker, target, weapon)
    }
}

/// The target's answers to an attack (`procedures.attack.opposed`), its ids resolved.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct Opposed {
    /// Index into `Rules::contests`.
    pub contest: usize,
    pub answers: Vec<AnswerRule>,
    /// The reaction window answering is taken in (index into `Rules::reaction_windows`).
    pub window: Option<usize>,
    /// What the acting model pays (action points) to answer the reactions' attacks on it with one
    /// roll; `None`: they are not answered.
    pub acting_answer_cost: Option<u32>,
}

/// One answer of `Opposed::answers`.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct AnswerRule {
    pub id: String,
    pub name: String,
    pub kind: AnswerKind,
    /// Offered only while the answering model sees the attacker (`Some(true)`), or only while
    /// it does not (`Some(false)`).
    pub attacker_seen: Option<bool>,
    /// A standing roll turns the answering model to face the attacker.
    pub turns: bool,
}

impl AnswerRule {
    /// May `model`, attacked, give this answer to `attacker` in `g`?
    pub fn offered(&self, g: &crate::Game, model: usize, attacker: usize) -> bool {
        self.attacker_seen.is_none_or(|seen| g.sees(model, attacker) == seen)
    }
}

/// What an answer rolls.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub enum AnswerKind {
    /// A roll of the contest's kind against this target (a sum, `Target`: the answering model).
    Roll(Vec<Term>),
    /// An attack back at the attacker by the ruleset's attack, its roles swapped.
    Shoots,
}

/// One roll of an attack: its kind (index into `Rules::roll_kinds`) and target.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct AttackRollRule {
    pub kind: usize,
    pub target: Vec<Term>,
    pub min: Option<i32>,
    pub max: Option<i32>,
    /// Bounds while a condition holds: (condition, min, max).
    pub bounds: Vec<(super::Cond, Option<i32>, Option<i32>)>,
}

/// The damage roll of each hit.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct DamageRollRule {
    pub roll: AttackRollRule,
    pub by: f::Roller,
    pub deals_on: f::DealsOn,
}

/// A term of a sum, its attribute resolved to an index (of `Rules::attributes` for a model's,
/// `Rules::weapon_attributes` for a weapon's), times its factor.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    Attacker(usize, i32),
    Target(usize, i32),
    Weapon(usize, i32),
    Value(i32),
}

impl Term {
    /// The term's value, given each side's attributes and the weapon's.
    pub fn value(self, attacker: &[i32], target: &[i32], weapon: &[i32]) -> i32 {
        let of = |v: &[i32], i: usize, times: i32| v.get(i).copied().unwrap_or(0).saturating_mul(times);
        match self {
            Term::Attacker(i, t) => of(attacker, i, t),
            Term::Target(i, t) => of(target, i, t),
            Term::Weapon(i, t) => of(weapon, i, t),
            Term::Value(v) => v,
        }
    }

    /// A sum of terms (saturating: attributes come from packs).
    pub fn sum(terms: &[Term], attacker: &[i32], target: &[i32], weapon: &[i32]) -> i32 {
        terms.iter().fold(0i32, |s, t| s.saturating_add(t.value(attacker, target, weapon)))
    }
}

impl AttackRollRule {
    /// The target to hand `RollRule::throw` with `mods` so that what the dice must show stays
    /// within `min`/`max`: for an `at_least` roll the dice must show the target less the
    /// modifiers, for an `at_most` roll at most the target plus them.
    pub fn bounded_target(&self, kind: &RollRule, target: i32, mods: i32) -> i32 {
        let shown = match kind.succeeds {
            RollDirection::AtLeast => target.saturating_sub(mods),
            RollDirection::AtMost => target.saturating_add(mods),
        };
        let bounded = self.max.map_or(shown, |m| shown.min(m));
        let bounded = self.min.map_or(bounded, |m| bounded.max(m));
        match kind.succeeds {
            RollDirection::AtLeast => bounded.saturating_add(mods),
            RollDirection::AtMost => bounded.saturating_sub(mods),
        }
    }

    /// `bounded_target` in situation `s`, the `bounds` whose conditions hold applied after it.
    pub fn bounded_target_in(
        &self,
        kind: &RollRule,
        target: i32,
        mods: i32,
        game: &crate::Game,
        s: &crate::game::engine::Situation,
    ) -> i32 {
        let plain = self.bounded_target(kind, target, mods);
        if self.bounds.is_empty() {
            return plain;
        }
        let mut shown = match kind.succeeds {
            RollDirection::AtLeast => plain.saturating_sub(mods),
            RollDirection::AtMost => plain.saturating_add(mods),
        };
        for (_, lo, hi) in self.bounds.iter().filter(|(c, _, _)| c.times(game, s) > 0) {
            shown = hi.map_or(shown, |m| shown.min(m));
            shown = lo.map_or(shown, |m| shown.max(m));
        }
        match kind.succeeds {
            RollDirection::AtLeast => shown.saturating_add(mods),
            RollDirection::AtMost => shown.saturating_sub(mods),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ForcedDice;

    fn kind(dice: &str, succeeds: RollDirection, natural: Vec<f::NaturalResult>) -> RollRule {
        let dice = DiceExpr::parse(dice).unwrap();
        RollRule {
            id: "k".into(),
            dice,
            succeeds,
            natural,
            critical_on_target: false,
            critical: None,
            beyond_reach: BeyondReach::Impossible,
            odds: Default::default(),
            bonus_odds: Default::default(),
        }
    }

    fn row(at_least: Option<u32>, at_most: Option<u32>, result: NaturalVerdict) -> f::NaturalResult {
        f::NaturalResult { at_least, at_most, equal: None, result }
    }

    fn throw(k: &RollRule, faces: &[u32], mods: i32, target: i32) -> Thrown {
        let mut d = ForcedDice::new(faces.iter().copied());
        let t = k.throw(&mut d, mods, Some(target));
        assert_eq!(d.remaining(), 0);
        t
    }

    /// 002 L208: a target lock succeeds on a die at most the shooter's Resolve; a natural 1 is a
    /// direct hit, a natural 6 always misses.
    #[test]
    fn a_roll_under_with_natural_results() {
        let lock = kind(
            "1d6",
            RollDirection::AtMost,
            vec![row(None, Some(1), NaturalVerdict::Critical), row(Some(6), None, NaturalVerdict::Failure)],
        );
        assert_eq!(throw(&lock, &[4], 0, 4).success, Some(true));
        assert_eq!(throw(&lock, &[5], 0, 4).success, Some(false));
        // A modifier to a roll-under test goes to the target: Resolve 4 − 1 needs 3.
        let t = throw(&lock, &[4], -1, 4);
        assert_eq!((t.success, t.target, t.margin), (Some(false), Some(3), Some(-1)));
        // Resolve 7 (cover): a 6 still misses; Resolve 0: a 1 still hits, and is direct.
        assert_eq!(throw(&lock, &[6], 0, 7).success, Some(false));
        let one = throw(&lock, &[1], 0, 0);
        assert_eq!((one.success, one.critical), (Some(true), true));
        // The odds read the same rows: at Resolve 4, faces 1-4.
        assert!((lock.chance(0, 4) - 4.0 / 6.0).abs() < 1e-12);
        assert!((lock.chance(0, 9) - 5.0 / 6.0).abs() < 1e-12);
        assert!((lock.chance(0, -3) - 1.0 / 6.0).abs() < 1e-12);
    }

    /// 002 L32 (Act of Ziron): a roll needing 7+ on a d6 needs a 6 and then another 6.
    #[test]
    fn beyond_reach_needs_the_highest_twice() {
        let mut damage = kind("1d6", RollDirection::AtLeast, vec![]);
        damage.beyond_reach = BeyondReach::MaxThenRollAgain;
        assert_eq!(throw(&damage, &[6, 6], 0, 7).success, Some(true));
        assert_eq!(throw(&damage, &[6, 5], 0, 8).success, Some(false));
        assert_eq!(throw(&damage, &[5], 0, 7).success, Some(false));
        // Within reach, one die: 6 against 6.
        assert_eq!(throw(&damage, &[6], 0, 6).success, Some(true));
        assert!((damage.chance(0, 7) - 1.0 / 36.0).abs() < 1e-12);
        assert!((damage.chance(0, 5) - 2.0 / 6.0).abs() < 1e-12);
        damage.beyond_reach = BeyondReach::Impossible;
        assert_eq!(throw(&damage, &[6], 0, 7).success, Some(false));
        assert_eq!(damage.chance(0, 7), 0.0);
    }

    /// A 2d6 roll against a target point whose natural 2 fumbles and natural 12 is a critical
    /// success by a row (deciding the roll, unlike CAV's `critical:` that adds a die).
    #[test]
    fn a_target_point_roll_with_criticals() {
        let cav = kind(
            "2d6",
            RollDirection::AtLeast,
            vec![row(None, Some(2), NaturalVerdict::Fumble), row(Some(12), None, NaturalVerdict::Critical)],
        );
        let t = throw(&cav, &[1, 1], 10, 8);
        assert_eq!((t.success, t.fumble, t.total), (Some(false), true, 12));
        let t = throw(&cav, &[6, 6], -10, 8);
        assert_eq!((t.success, t.critical), (Some(true), true));
        let t = throw(&cav, &[4, 3], 1, 8);
        assert_eq!((t.success, t.margin), (Some(true), Some(0)));
        assert!((cav.chance(0, 8) - 15.0 / 36.0).abs() < 1e-12);
        assert!((cav.chance(0, 2) - 35.0 / 36.0).abs() < 1e-12);
        assert!((cav.chance(0, 30) - 1.0 / 36.0).abs() < 1e-12);
    }

    /// CAV's target-point roll as a kind (000 L125-141): a natural 2 fails whatever the
    /// modifiers; a natural 12 adds 1d6 and is not a success by itself.
    fn target_point_roll() -> RollRule {
        let mut k = kind("2d6", RollDirection::AtLeast, vec![row(None, Some(2), NaturalVerdict::Fumble)]);
        k.critical = Some(Critical { at_least: 12, bonus: Some(DiceExpr::parse("1d6").unwrap()), floor: 3 });
        k
    }

    #[test]
    fn a_critical_adds_its_die_and_decides_nothing() {
        let k = target_point_roll();
        // 12 + 3 − 10 = 5 against 8: critical, and a miss.
        let t = throw(&k, &[6, 6, 3], -10, 8);
        assert_eq!((t.success, t.critical, t.total, t.faces.len()), (Some(false), true, 5, 3));
        let t = throw(&k, &[6, 6, 6], -4, 8);
        assert_eq!((t.success, t.critical, t.total), (Some(true), true, 14));
        // A natural 2 fumbles whatever the modifiers; an 11 adds nothing.
        let t = throw(&k, &[1, 1], 20, 8);
        assert_eq!((t.success, t.fumble, t.critical), (Some(false), true, false));
        let t = throw(&k, &[5, 6], 0, 8);
        assert_eq!((t.critical, t.total, t.faces.len()), (false, 11, 2));
        // The odds count the bonus die: 14 needs a 12 and then 2+ on the d6.
        assert!((k.chance(0, 14) - 5.0 / 216.0).abs() < 1e-12);
        assert!((k.chance(0, 13) - 1.0 / 36.0).abs() < 1e-12);
        assert!((k.chance(0, 19) - 0.0).abs() < 1e-12);
        assert!((k.chance(0, 8) - 15.0 / 36.0).abs() < 1e-12);
    }

    /// One die judged by its verdict alone walks ranges of faces that count alike; each face
    /// adding a critical's die counts alone, and shows what `throw` shows.
    #[test]
    fn a_critical_die_is_walked_face_by_face() {
        let mut k = kind("1d12", RollDirection::AtLeast, vec![row(None, Some(1), NaturalVerdict::Fumble)]);
        k.critical = Some(Critical { at_least: 11, bonus: Some(DiceExpr::parse("1d6").unwrap()), floor: 2 });
        for faces in [[11, 3], [12, 1], [11, 6]] {
            let mut d = ForcedDice::new(faces);
            let walked = k.throw_for_verdict(&mut d, -5, Some(9), false);
            assert_eq!(d.remaining(), 0);
            assert_eq!(walked, throw(&k, &faces, -5, 9));
            assert!(walked.critical && walked.total == faces[0] as i32 + faces[1] as i32 - 5);
        }
        let mut d = ForcedDice::new([1]);
        let t = k.throw_for_verdict(&mut d, 20, Some(9), false);
        assert_eq!((t.fumble, t.success, t.critical), (true, Some(false), false));
    }

    /// Hostile numbers cost nothing: a critical above any `u32` an `i32` holds is never reached,
    /// and a failure row reaching two billion is jumped in one step.
    #[test]
    fn hostile_critical_numbers() {
        let mut k = target_point_roll();
        k.critical = Some(Critical { at_least: 3_000_000_000, bonus: None, floor: 3 });
        assert!(!throw(&k, &[6, 6], 0, 8).critical);
        assert_eq!(k.critical_at(i32::MAX), Some(u32::MAX));
        assert_eq!(target_point_roll().critical_at(i32::MIN), Some(3));
        let rows = vec![row(None, Some(2_000_000_000), NaturalVerdict::Failure)];
        assert_eq!(Critical::floor(k.dice, &rows, 2_000_000_000), 2_000_000_000);
        let rows = vec![row(None, Some(2), NaturalVerdict::Fumble), row(Some(3), Some(4), NaturalVerdict::Failure)];
        assert_eq!(Critical::floor(k.dice, &rows, 12), 5);
    }

    /// Blaster lowers the critical (001 L6812-6824), never onto a natural 2.
    #[test]
    fn a_shifted_critical_stops_above_the_fumbles() {
        let k = target_point_roll();
        assert_eq!((k.critical_at(0), k.critical_at(-2), k.critical_at(-20)), (Some(12), Some(10), Some(3)));
        assert_eq!(kind("2d6", RollDirection::AtLeast, vec![]).critical_at(0), None);
    }

    /// The engine's rolls judged by the kind: its rows hold for dice standing in for its own
    /// (3d6 keeping two), not for a single die; a 10+ row passes whatever the target.
    #[test]
    fn engine_rolls_by_the_kind() {
        let k = target_point_roll();
        let kh2 = DiceExpr::parse("3d6kh2").unwrap();
        let d6 = DiceExpr::parse("1d6").unwrap();
        let v = k.verdict(kh2, 2, 12, Some(8), Some(12));
        assert_eq!((v.fumble, v.success), (true, Some(false)));
        let v = k.verdict(d6, 2, 2, Some(2), Some(12));
        assert_eq!((v.fumble, v.success, v.margin), (false, Some(true), Some(0)));
        let v = k.verdict(k.dice, 12, 9, Some(10), Some(12));
        assert_eq!((v.crit, v.success), (true, Some(false)));
        let mut ten = k.clone();
        ten.natural.push(row(Some(10), None, NaturalVerdict::Success));
        let v = ten.verdict(ten.dice, 10, 4, Some(10), None);
        assert_eq!((v.crit, v.success, v.margin), (false, Some(true), Some(-6)));
        // A `critical` row decides the roll, but is a critical only where the procedure reads one.
        let mut rowed = k.clone();
        rowed.natural.push(row(Some(11), None, NaturalVerdict::Critical));
        let v = rowed.verdict(rowed.dice, 11, 3, Some(10), None);
        assert_eq!((v.crit, v.success), (false, Some(true)));
        assert!(rowed.verdict(rowed.dice, 11, 3, Some(10), Some(12)).crit);
    }

    fn f2f() -> (RollRule, ContestRule) {
        let mut d20 = kind("1d20", RollDirection::AtMost, vec![]);
        d20.critical_on_target = true;
        let c = ContestRule {
            id: "face-to-face".into(),
            roll: 0,
            compare: ContestCompare::BestSuccess,
            ties: ContestTies::BothCancel,
            critical_wins: true,
        };
        (d20, c)
    }

    /// 004 L604-612: a Dodge roll of 9 (a success against PH) held against four BS rolls
    /// (BS 11 + 3): the 3 and 5 lose to it, the 17 fails, the 12 beats it and hits.
    #[test]
    fn one_roll_against_many() {
        let (d20, c) = f2f();
        let dodge = vec![throw(&d20, &[9], 0, 13)];
        let shots: Vec<Thrown> = [3, 5, 17, 12].iter().map(|&f| throw(&d20, &[f], 3, 11)).collect();
        assert_eq!(shots[2].success, Some(false));
        let (hits, dodged) = c.decide(&shots, &dodge);
        assert_eq!(dodged, vec![false]);
        assert_eq!(hits, vec![false, false, false, true]);
        // Equal results cancel each other; a critical beats a higher success.
        let (a, b) = c.decide(&[throw(&d20, &[9], 0, 13)], &[throw(&d20, &[9], 0, 10)]);
        assert_eq!((a, b), (vec![false], vec![false]));
        let crit = throw(&d20, &[10], 0, 10);
        assert!(crit.critical);
        let (a, b) = c.decide(&[crit], &[throw(&d20, &[12], 0, 13)]);
        assert_eq!((a, b), (vec![true], vec![false]));
        // Both failing: nothing stands.
        let (a, b) = c.decide(&[throw(&d20, &[19], 0, 10)], &[throw(&d20, &[18], 0, 10)]);
        assert_eq!((a, b), (vec![false], vec![false]));
        // Against nothing that succeeds, a success stands.
        let (a, _) = c.decide(&[throw(&d20, &[4], 0, 10)], &[throw(&d20, &[18], 0, 10)]);
        assert_eq!(a, vec![true]);
    }

    /// CAV's opposed roll: the larger margin over each model's own EXP, a tie to the starter.
    #[test]
    fn margins_and_ties() {
        let k = kind("2d6", RollDirection::AtLeast, vec![]);
        let c = ContestRule {
            id: "opposed".into(),
            roll: 0,
            compare: ContestCompare::Margin,
            ties: ContestTies::Starter,
            critical_wins: false,
        };
        let a = throw(&k, &[4, 4], 0, 6); // margin 2
        let b = throw(&k, &[5, 4], 0, 7); // margin 2
        assert_eq!(c.decide(std::slice::from_ref(&a), std::slice::from_ref(&b)), (vec![true], vec![false]));
        let c = ContestRule { ties: ContestTies::Other, ..c };
        assert_eq!(c.decide(std::slice::from_ref(&a), std::slice::from_ref(&b)), (vec![false], vec![true]));
        let c = ContestRule { ties: ContestTies::BothStand, compare: ContestCompare::Total, ..c };
        assert_eq!(c.decide(&[a], &[b]), (vec![false], vec![true]));
    }
}
