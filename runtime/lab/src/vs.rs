//! Paired A/B runs (`cav sim --vs`): every seed is played twice, as the content is (A) and with
//! one change (B). The same seed gives both games the same dice stream, so their outcomes are
//! correlated and the difference B − A is estimated from the per-game differences, which is
//! much tighter than comparing two independent win rates.
//!
//! A [`VsResult`] holds A's and B's [`SimResult`]s and the paired counts and sums ([`Paired`]):
//! the table of A's outcome × B's outcome of each game, and the sums and sums of squares of the
//! per-game differences of turns and damage. Only counts and sums, so shards merge exactly, as
//! plain results do; means and intervals are computed when printed ([`paired_diff`]).

use std::collections::BTreeMap;
use std::ops::Range;

use cav_rules::Rules;
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::usage::SaSources;
use crate::{Arm, SimResult, play_one, scenario_setup};

/// The paired statistics of A and B over the same seeds: counts and sums only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Paired {
    /// Games by outcome under A (row) and under B (column): the scenario's sides in its order,
    /// then a draw. `outcomes[i][j]` games ended with outcome `i` under A and `j` under B; the
    /// diagonal holds the games whose outcome the change left as it was.
    pub outcomes: Vec<Vec<u64>>,
    /// Games that B played to another result than A (another winner, length, damage per side,
    /// weapon statistics or states inflicted).
    pub games_changed: u64,
    /// Σ over the games of (turns under B − turns under A).
    pub turns_diff_sum: i64,
    /// Σ over the games of (turns under B − turns under A)².
    pub turns_diff_sq_sum: u64,
    /// Per side: Σ over the games of (damage it dealt under B − under A).
    pub damage_diff_sum: BTreeMap<String, i64>,
    /// Per side: Σ over the games of (damage it dealt under B − under A)².
    pub damage_diff_sq_sum: BTreeMap<String, u64>,
    /// Per side, where A or B lands table rows (`SimResult::damage_model`, table results): Σ over
    /// the games of (effects it dealt under B − under A).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub effects_diff_sum: BTreeMap<String, i64>,
    /// Per side, as `effects_diff_sum`: Σ over the games of (effects under B − under A)².
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub effects_diff_sq_sum: BTreeMap<String, u64>,
}

impl Paired {
    /// No game yet.
    pub fn empty(sides: &[String]) -> Paired {
        let k = sides.len() + 1;
        Paired {
            outcomes: vec![vec![0; k]; k],
            games_changed: 0,
            turns_diff_sum: 0,
            turns_diff_sq_sum: 0,
            damage_diff_sum: sides.iter().map(|s| (s.clone(), 0)).collect(),
            damage_diff_sq_sum: sides.iter().map(|s| (s.clone(), 0)).collect(),
            effects_diff_sum: BTreeMap::new(),
            effects_diff_sq_sum: BTreeMap::new(),
        }
    }

    /// One seed: its game under A and under B (results of one game each).
    fn of_game(a: &SimResult, b: &SimResult) -> Paired {
        let mut p = Paired::empty(&a.sides);
        let outcome = |g: &SimResult| a.sides.iter().position(|s| g.wins.get(s) == Some(&1)).unwrap_or(a.sides.len());
        p.outcomes[outcome(a)][outcome(b)] = 1;
        let same = a.wins == b.wins
            && a.draws == b.draws
            && a.turns == b.turns
            && a.damage == b.damage
            && a.weapons == b.weapons
            && a.states == b.states;
        p.games_changed = u64::from(!same);
        let d = b.turns_sum as i64 - a.turns_sum as i64;
        p.turns_diff_sum = d;
        p.turns_diff_sq_sum = d.unsigned_abs().pow(2);
        for s in &a.sides {
            let d = b.damage.get(s).copied().unwrap_or(0) as i64 - a.damage.get(s).copied().unwrap_or(0) as i64;
            p.damage_diff_sum.insert(s.clone(), d);
            p.damage_diff_sq_sum.insert(s.clone(), d.unsigned_abs().pow(2));
        }
        if tables(a, b) {
            for s in &a.sides {
                let e = |r: &SimResult| r.effects.get(s).copied().unwrap_or(0) as i64;
                let d = e(b) - e(a);
                p.effects_diff_sum.insert(s.clone(), d);
                p.effects_diff_sq_sum.insert(s.clone(), d.unsigned_abs().pow(2));
            }
        }
        p
    }

    fn add(&mut self, o: &Paired) -> Result<(), String> {
        if self.outcomes.len() != o.outcomes.len()
            || self.outcomes.iter().zip(&o.outcomes).any(|(a, b)| a.len() != b.len())
        {
            return Err("the paired outcome tables have different sizes".into());
        }
        let signed = |a: i64, b: i64| {
            a.checked_add(b).ok_or_else(|| {
                "a paired sum passes the largest integer: the results cannot be of real games".to_owned()
            })
        };
        for (row, other) in self.outcomes.iter_mut().zip(&o.outcomes) {
            for (x, y) in row.iter_mut().zip(other) {
                *x = crate::sum(*x, *y)?;
            }
        }
        self.games_changed = crate::sum(self.games_changed, o.games_changed)?;
        self.turns_diff_sum = signed(self.turns_diff_sum, o.turns_diff_sum)?;
        self.turns_diff_sq_sum = crate::sum(self.turns_diff_sq_sum, o.turns_diff_sq_sum)?;
        for (s, v) in &o.damage_diff_sum {
            let x = self.damage_diff_sum.entry(s.clone()).or_default();
            *x = signed(*x, *v)?;
        }
        for (s, v) in &o.damage_diff_sq_sum {
            let x = self.damage_diff_sq_sum.entry(s.clone()).or_default();
            *x = crate::sum(*x, *v)?;
        }
        for (s, v) in &o.effects_diff_sum {
            let x = self.effects_diff_sum.entry(s.clone()).or_default();
            *x = signed(*x, *v)?;
        }
        for (s, v) in &o.effects_diff_sq_sum {
            let x = self.effects_diff_sq_sum.entry(s.clone()).or_default();
            *x = crate::sum(*x, *v)?;
        }
        Ok(())
    }
}

/// Whether A or B lands table rows (a damage model by tables, or a script's rows): their
/// effects are then compared too.
fn tables(a: &SimResult, b: &SimResult) -> bool {
    [a, b].iter().any(|r| r.damage_model.is_some() || !r.table_results.is_empty())
}

/// A paired run: A as the content is, B with `change`, over the same seeds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct VsResult {
    /// What B changes, as given to `--vs` (`swap:…`, `remove-sa:…`, `option:…`; `mod:` names the
    /// packs it adds, not their path).
    pub change: String,
    /// The games as the content is.
    pub a: SimResult,
    /// The same seeds with the change; its `content_hash` is that of the changed content.
    pub b: SimResult,
    /// What only the pairs tell: outcomes of each seed under A and B, sums of the differences.
    pub paired: Paired,
}

/// The mean of per-game differences B − A and its 95 % interval (`None` under two games).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Diff {
    pub mean: f64,
    pub interval: Option<(f64, f64)>,
}

impl Diff {
    /// The interval leaves 0 out: the data say the change moves this, and which way.
    pub fn excludes_zero(&self) -> bool {
        self.interval.is_some_and(|(lo, hi)| lo > 0.0 || hi < 0.0)
    }
}

/// The paired difference of `n` games from the sum and the sum of squares of the per-game
/// differences d = B − A:
///
///   mean d̄ = Σd / n,
///   sample variance s² = (Σd² − (Σd)² / n) / (n − 1),
///   95 % interval d̄ ± z · s / √n, z = 1.959964 (the normal approximation).
///
/// The variance is that of the differences, so the correlation of A and B on the same seed is in
/// it. For a win (d ∈ {−1, 0, 1}) with b games won only under B and c only under A, Σd = b − c and
/// Σd² = b + c: the Wald interval of a difference of paired proportions (McNemar's setting), with
/// n − 1 in the variance. When no game differs the interval is [0, 0]: the change did not move it
/// on these seeds.
pub fn paired_diff(n: u64, sum: i64, sq_sum: u64) -> Diff {
    if n == 0 {
        return Diff { mean: 0.0, interval: None };
    }
    let nf = n as f64;
    let mean = sum as f64 / nf;
    if n < 2 {
        return Diff { mean, interval: None };
    }
    let var = ((sq_sum as f64 - (sum as f64) * (sum as f64) / nf) / (nf - 1.0)).max(0.0);
    let half = 1.959_963_984_540_054 * (var / nf).sqrt();
    Diff { mean, interval: Some((mean - half, mean + half)) }
}

/// One line of the comparison: a quantity under A and B and the paired difference.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffRow {
    /// `red wins`, `draws`, `turns`, `red damage`.
    pub name: String,
    /// A rate (0–1; shown in percentage points) rather than a per-game mean.
    pub rate: bool,
    pub a: f64,
    pub b: f64,
    pub diff: Diff,
}

impl VsResult {
    /// The two results and their pairs as one. Refused when the changes differ, when either side
    /// would not merge as a plain result (A's content, B's content, scenario, sides, overlapping
    /// seeds), or when the tables do not fit.
    pub fn merge(mut x: VsResult, y: &VsResult) -> Result<VsResult, String> {
        if x.change != y.change {
            return Err(format!("the results are of different changes (`{}` and `{}`)", x.change, y.change));
        }
        x.a = SimResult::merge(x.a, &y.a).map_err(|e| format!("A (as is): {e}"))?;
        x.b = SimResult::merge(x.b, &y.b).map_err(|e| format!("B ({}): {e}", x.change))?;
        x.paired.add(&y.paired)?;
        Ok(x)
    }

    /// Whether a result read from a file agrees with itself: A and B each
    /// (`SimResult::consistent`), over as many games, which the paired outcome table counts once.
    pub fn consistent(&self) -> Result<(), String> {
        self.a.consistent().map_err(|e| format!("A (as is): {e}"))?;
        self.b.consistent().map_err(|e| format!("B ({}): {e}", self.change))?;
        let paired = self.paired.outcomes.iter().flatten().try_fold(0, |t, &n| crate::sum(t, n))?;
        if self.a.games != self.b.games || paired != self.a.games || self.paired.games_changed > self.a.games {
            return Err(format!(
                "A played {} games, B {}, the paired outcome table counts {paired} ({} changed)",
                self.a.games, self.b.games, self.paired.games_changed
            ));
        }
        Ok(())
    }

    /// Under `remove-sa:SA[@MODEL]`: the SA as given and its uses in A, all sides together
    /// (`SimResult::usage`); `None` for another change, or where A's usage does not know the SA
    /// by that word (no model carried it, or it was named by its name rather than its id). An SA
    /// the bots never used in A is not exercised by these games: a difference (or none) says
    /// nothing about it.
    pub fn removed_sa_uses(&self) -> Option<(&str, u64)> {
        let sa = self.change.strip_prefix("remove-sa:")?;
        let sa = sa.split_once('@').map_or(sa, |(sa, _)| sa);
        self.a
            .usage
            .values()
            .any(|u| u.sas.contains_key(sa))
            .then(|| (sa, self.a.usage.values().map(|u| u.sa_uses(sa)).sum()))
    }

    /// Games whose outcome (winner or draw) B changed.
    pub fn outcomes_changed(&self) -> u64 {
        let o = &self.paired.outcomes;
        (0..o.len()).flat_map(|i| (0..o.len()).map(move |j| (i, j))).filter(|(i, j)| i != j).map(|(i, j)| o[i][j]).sum()
    }

    /// The paired difference of the rate of outcome `k` (a side's index, or `sides.len()` for a
    /// draw): d = [B ended with k] − [A ended with k].
    pub fn outcome_diff(&self, k: usize) -> Diff {
        let o = &self.paired.outcomes;
        let gained: u64 = (0..o.len()).filter(|&i| i != k).map(|i| o[i][k]).sum();
        let lost: u64 = (0..o.len()).filter(|&j| j != k).map(|j| o[k][j]).sum();
        paired_diff(self.a.games, gained as i64 - lost as i64, gained + lost)
    }

    /// Every compared quantity: each side's win rate, the draw rate, the mean length in turns,
    /// each side's mean damage dealt per game, and where A or B lands table rows each side's mean
    /// effects per game.
    pub fn rows(&self) -> Vec<DiffRow> {
        let n = self.a.games;
        let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
        let mut rows = Vec::new();
        for (k, s) in self.a.sides.iter().enumerate() {
            rows.push(DiffRow {
                name: format!("{s} wins"),
                rate: true,
                a: per(self.a.wins.get(s).copied().unwrap_or(0)),
                b: per(self.b.wins.get(s).copied().unwrap_or(0)),
                diff: self.outcome_diff(k),
            });
        }
        rows.push(DiffRow {
            name: "draws".into(),
            rate: true,
            a: per(self.a.draws),
            b: per(self.b.draws),
            diff: self.outcome_diff(self.a.sides.len()),
        });
        rows.push(DiffRow {
            name: "turns".into(),
            rate: false,
            a: self.a.mean_turns(),
            b: self.b.mean_turns(),
            diff: paired_diff(n, self.paired.turns_diff_sum, self.paired.turns_diff_sq_sum),
        });
        for s in &self.a.sides {
            rows.push(DiffRow {
                name: format!("{s} damage"),
                rate: false,
                a: per(self.a.damage.get(s).copied().unwrap_or(0)),
                b: per(self.b.damage.get(s).copied().unwrap_or(0)),
                diff: paired_diff(
                    n,
                    self.paired.damage_diff_sum.get(s).copied().unwrap_or(0),
                    self.paired.damage_diff_sq_sum.get(s).copied().unwrap_or(0),
                ),
            });
        }
        if tables(&self.a, &self.b) || !self.paired.effects_diff_sum.is_empty() {
            for s in &self.a.sides {
                rows.push(DiffRow {
                    name: format!("{s} effects"),
                    rate: false,
                    a: per(self.a.effects.get(s).copied().unwrap_or(0)),
                    b: per(self.b.effects.get(s).copied().unwrap_or(0)),
                    diff: paired_diff(
                        n,
                        self.paired.effects_diff_sum.get(s).copied().unwrap_or(0),
                        self.paired.effects_diff_sq_sum.get(s).copied().unwrap_or(0),
                    ),
                });
            }
        }
        rows
    }
}

/// Play every seed of `seeds` under A and under B (bots on both sides, rayon's pool, each worker
/// with a Lua host per arm), calling `progress` after each pair. As [`crate::run`], the result
/// does not depend on the thread count. B must play the same scenario with the same sides.
pub fn run_vs(
    a: Arm,
    b: Arm,
    change: &str,
    scenario: &str,
    seeds: Range<u64>,
    progress: &(dyn Fn() + Sync),
) -> Result<VsResult, String> {
    let (sc_a, empty_a) = scenario_setup(&a, scenario)?;
    let (sc_b, empty_b) = scenario_setup(&b, scenario).map_err(|e| format!("with {change}: {e}"))?;
    if empty_a.sides != empty_b.sides {
        return Err(format!(
            "with {change} scenario `{scenario}` has other sides ({:?}, not {:?}): the games cannot be paired",
            empty_b.sides, empty_a.sides
        ));
    }
    let empty = VsResult {
        change: change.to_owned(),
        a: empty_a.clone(),
        b: empty_b.clone(),
        paired: Paired::empty(&empty_a.sides),
    };
    let search = !empty_a.search_bot.is_empty();
    let host = |rules: &Rules| crate::Hosts::new(rules, search);
    // The scripts load once here, so a broken script is one clear error, not one per worker.
    host(a.rules)?;
    host(b.rules).map_err(|e| format!("with {change}: {e}"))?;
    let (sources_a, sources_b) = (SaSources::new(a.rules), SaSources::new(b.rules));
    seeds
        .into_par_iter()
        .map_init(
            || (host(a.rules), host(b.rules)),
            |(ha, hb), seed| {
                let ha = ha.as_mut().map_err(|e| e.clone())?;
                let hb = hb.as_mut().map_err(|e| e.clone())?;
                let ga = play_one(&a, ha, sc_a, seed, &empty_a, &sources_a)?;
                let gb =
                    play_one(&b, hb, sc_b, seed, &empty_b, &sources_b).map_err(|e| format!("with {change}: {e}"))?;
                progress();
                let paired = Paired::of_game(&ga, &gb);
                Ok(VsResult { change: change.to_owned(), a: ga, b: gb, paired })
            },
        )
        .try_fold(|| empty.clone(), |acc, r: Result<VsResult, String>| VsResult::merge(acc, &r?))
        .try_reduce(|| empty.clone(), |x, y| VsResult::merge(x, &y))
}

/// Whether two compiled rulesets are the same, value for value: their debug renderings compared
/// (their maps are ordered, so equal rules render alike). Used to refuse a change that changes
/// nothing the engine plays.
pub fn same_rules(a: &Rules, b: &Rules) -> bool {
    format!("{a:?}") == format!("{b:?}")
}
