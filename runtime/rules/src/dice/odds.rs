//! The exact odds of a dice expression's results, for controllers that weigh their options and
//! for the chance a ruleset's roll kind succeeds (`at_least(n)`, `at_most(n)`).

use cav_format::limits::MAX_DIE_EXPLOSIONS;

use super::{DiceExpr, Keep};

/// The chances of the results of one dice expression.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Odds {
    /// Lowest possible result.
    min: i32,
    /// `at_least[i]`: chance of a result of `min + i × step` or more.
    at_least: Vec<f64>,
    /// Results per entry: 1 when exact.
    step: f64,
}

/// The most results [`DiceExpr::odds`] works out exactly.
pub const ODDS_RANGE: usize = 10_000;

/// The most outcomes of a pool that keeps dice enumerated one by one.
const EXHAUSTIVE: f64 = 1e6;

impl Odds {
    /// The chance of a result of `n` or more.
    pub fn at_least(&self, n: i32) -> f64 {
        if n <= self.min {
            return 1.0;
        }
        let i = ((f64::from(n) - f64::from(self.min)) / self.step).ceil() as usize;
        self.at_least.get(i).copied().unwrap_or(0.0)
    }

    /// The chance of a result of `n` or less (roll-under tests).
    pub fn at_most(&self, n: i32) -> f64 {
        if n == i32::MAX { 1.0 } else { 1.0 - self.at_least(n + 1) }
    }
}

impl DiceExpr {
    /// The exact odds of every result. A pool that keeps dice is enumerated outcome by outcome
    /// up to a million outcomes, beyond that taken as a plain sum of the dice kept (close enough
    /// for weighing options). A pack may write any dice: beyond [`ODDS_RANGE`] possible results
    /// the odds are taken as even over the range, so a hostile expression costs neither memory
    /// nor time.
    pub fn odds(&self) -> Odds {
        let sides = self.sides.max(1) as usize;
        let kept = self.kept() as usize;
        let chain = if self.explode.is_some() { 1 + MAX_DIE_EXPLOSIONS as usize } else { 1 };
        let per_die = if self.successes.is_some() { chain } else { sides.saturating_mul(chain) };
        let max = kept.saturating_mul(per_die);
        if max > ODDS_RANGE {
            let min = if self.successes.is_some() { 0 } else { kept };
            let span = (max - min + 1) as f64;
            let at_least = (0..=ODDS_RANGE).map(|i| 1.0 - i as f64 / ODDS_RANGE as f64).collect();
            // Scaled: step i stands for the result min + i × span / ODDS_RANGE.
            return Odds { min: self.plus.saturating_add(min as i32), at_least, step: span / ODDS_RANGE as f64 };
        }
        // What one face is worth: itself, or one success.
        let worth = |f: usize| match self.successes {
            Some(c) => usize::from(c.holds(f as u32)),
            None => f,
        };
        // The first face of a die, after a roll again.
        let again = self.reroll.map_or(0, |r| (1..=sides).filter(|&f| r.holds(f as u32)).count());
        let first: Vec<f64> = (0..=sides)
            .map(|f| match f {
                0 => 0.0,
                f if self.reroll.is_some_and(|r| r.holds(f as u32)) => again as f64 / (sides * sides) as f64,
                _ => 1.0 / sides as f64 + again as f64 / (sides * sides) as f64,
            })
            .collect();
        let exhaustive = self.keep.is_some() && (sides as f64).powi(self.count as i32) <= EXHAUSTIVE;
        let mut ways = vec![0f64; max + 1];
        if exhaustive {
            let mut faces = vec![1usize; self.count as usize];
            loop {
                let mut sorted = faces.clone();
                match self.keep {
                    Some(Keep::Lowest(_)) => sorted.sort_unstable(),
                    _ => sorted.sort_unstable_by(|a, b| b.cmp(a)),
                }
                let weight: f64 = faces.iter().map(|&f| first[f]).product();
                ways[sorted.iter().take(kept).map(|&f| worth(f)).sum::<usize>()] += weight;
                let Some(i) = faces.iter().position(|&f| f < sides) else { break };
                faces[i] += 1;
                faces[..i].iter_mut().for_each(|f| *f = 1);
            }
        } else {
            let die = self.one_die(&first, per_die, worth);
            // The sum of `kept` dice by convolution.
            ways[0] = 1.0;
            for _ in 0..kept {
                let mut next = vec![0f64; max + 1];
                for (total, w) in ways.iter().enumerate().filter(|(_, w)| **w > 0.0) {
                    for (v, p) in die.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                        if total + v <= max {
                            next[total + v] += w * p;
                        }
                    }
                }
                ways = next;
            }
        }
        let all: f64 = ways.iter().sum();
        let min = ways.iter().position(|&w| w > 0.0).unwrap_or(0);
        let mut at_least = vec![0f64; max - min + 1];
        let mut acc = 0.0;
        for total in (min..=max).rev() {
            acc += ways[total] / all;
            at_least[total - min] = acc;
        }
        Odds { min: (min as i32).saturating_add(self.plus), at_least, step: 1.0 }
    }

    /// What one die is worth, by chance: its first face (rolled again if the expression says),
    /// then, while it explodes, the further dice (plain rolls) added, at most
    /// [`MAX_DIE_EXPLOSIONS`] of them, as [`roll`](DiceExpr::roll) throws them.
    fn one_die(&self, first: &[f64], per_die: usize, worth: impl Fn(usize) -> usize) -> Vec<f64> {
        let sides = first.len() - 1;
        let plain = 1.0 / sides as f64;
        let explodes = |f: usize| self.explode.is_some_and(|x| x.holds(f as u32));
        // `rest`: the worth of the dice from this depth of the chain on (deepest first).
        let mut rest = vec![0f64; per_die + 1];
        for f in 1..=sides {
            rest[worth(f)] += plain;
        }
        let depths = if self.explode.is_some() { MAX_DIE_EXPLOSIONS } else { 0 };
        let step = |p: &dyn Fn(usize) -> f64, rest: &[f64], last: bool| {
            let mut out = vec![0f64; per_die + 1];
            for f in 1..=sides {
                if explodes(f) && !last {
                    for (v, q) in rest.iter().enumerate().filter(|(_, q)| **q > 0.0) {
                        if v + worth(f) <= per_die {
                            out[v + worth(f)] += p(f) * q;
                        }
                    }
                } else {
                    out[worth(f)] += p(f);
                }
            }
            out
        };
        for _ in 1..depths {
            rest = step(&|_| plain, &rest, false);
        }
        step(&|f| first[f], &rest, depths == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Dice, SeededDice};

    fn p(s: &str) -> DiceExpr {
        DiceExpr::parse(s).unwrap()
    }

    #[test]
    fn odds_are_exact() {
        let two = p("2d6").odds();
        assert_eq!(two.at_least(2), 1.0);
        assert!((two.at_least(7) - 21.0 / 36.0).abs() < 1e-12);
        assert!((two.at_least(12) - 1.0 / 36.0).abs() < 1e-12);
        assert_eq!(two.at_least(13), 0.0);
        assert!((two.at_most(4) - 6.0 / 36.0).abs() < 1e-12);
        let best = p("3d6kh2").odds();
        // 12 needs two sixes among three dice: 1 − P(at most one six) = 16/216.
        assert!((best.at_least(12) - 16.0 / 216.0).abs() < 1e-12);
        assert!(best.at_least(7) > two.at_least(7));
        assert!((p("1d6+1").odds().at_least(7) - 1.0 / 6.0).abs() < 1e-12);
        // Disadvantage: both d20s at 11 or more.
        assert!((p("2d20kl1").odds().at_least(11) - 0.25).abs() < 1e-12);
        // A 1 rolled again once: a 1 stays only as 1 then 1.
        assert!((p("1d6r1").odds().at_most(1) - 1.0 / 36.0).abs() < 1e-12);
        // Exploding d6: 7 or more needs a six and then anything.
        assert!((p("1d6x").odds().at_least(7) - 1.0 / 6.0).abs() < 1e-12);
        assert!((p("1d6x").odds().at_least(13) - 1.0 / 36.0).abs() < 1e-12);
        // Three successes of three dice at 4+: 1/8.
        assert!((p("3d6cs>=4").odds().at_least(3) - 0.125).abs() < 1e-12);
        assert_eq!(p("3d6cs>=4").odds().at_least(0), 1.0);
        // A hostile expression is cheap and still gives odds that fall with the result.
        let huge = DiceExpr::plain(100, 4_000_000_000).odds();
        assert!(huge.at_least(1_000) > huge.at_least(100_000_000));
        let shifted = DiceExpr { plus: i32::MAX, ..DiceExpr::plain(1, 6) };
        assert_eq!(shifted.odds().at_least(i32::MAX), 1.0);
        assert_eq!(shifted.odds().at_most(i32::MAX), 1.0);
        let wide = p("100d1000x").odds();
        assert!(wide.at_least(1_000) >= wide.at_least(10_000));
    }

    /// Every face sequence `roll` can ask for, enumerated with its chance: the odds by the long
    /// way, against which `odds` is checked for every kind of expression.
    fn by_faces(e: DiceExpr) -> Vec<(i32, f64)> {
        let mut out: Vec<(i32, f64)> = Vec::new();
        let mut path: Vec<(u32, u32)> = Vec::new(); // (face chosen - 1, sides)
        struct Path<'a> {
            path: &'a mut Vec<(u32, u32)>,
            at: usize,
        }
        impl Dice for Path<'_> {
            fn roll(&mut self, sides: u32) -> u32 {
                if self.at == self.path.len() {
                    self.path.push((0, sides));
                }
                self.at += 1;
                self.path[self.at - 1].0 + 1
            }
        }
        loop {
            let mut d = Path { path: &mut path, at: 0 };
            let (_, total) = e.roll(&mut d);
            let used = d.at;
            path.truncate(used);
            let chance: f64 = path.iter().map(|&(_, s)| 1.0 / f64::from(s)).product();
            out.push((total, chance));
            while let Some(&(f, s)) = path.last() {
                if f + 1 < s {
                    path.last_mut().unwrap().0 += 1;
                    break;
                }
                path.pop();
            }
            if path.is_empty() {
                return out;
            }
        }
    }

    #[test]
    fn odds_match_every_face_sequence() {
        for s in [
            "2d6",
            "3d6kh2",
            "2d20kl1",
            "4d6dl1",
            "1d6r1",
            "2d6r<=2",
            "1d4x",
            "2d3x",
            "4d6cs>=5",
            "2d4xcs>=4",
            "2d6r1cs6",
            "3d4kh2cs>=3",
            "1d6-2",
        ] {
            let e = p(s);
            let odds = e.odds();
            let leaves = by_faces(e);
            for n in -3..30 {
                let want: f64 = leaves.iter().filter(|(t, _)| *t >= n).map(|(_, c)| c).sum();
                // The enumeration stops a chain of explosions where `roll` does: the same odds.
                assert!((odds.at_least(n) - want).abs() < 1e-9, "{s} ≥ {n}: {} against {want}", odds.at_least(n));
            }
        }
    }

    #[test]
    fn seeded_rolls_follow_the_odds() {
        let mut d = SeededDice::new(7);
        for s in ["1d6x", "1d6x>=5", "5d6cs>=4", "2d20kl1", "1d10r1"] {
            let e = p(s);
            let n = 20_000;
            let hits = (0..n).filter(|_| e.roll(&mut d).1 >= 3).count() as f64 / n as f64;
            assert!((hits - e.odds().at_least(3)).abs() < 0.02, "{s}: {hits}");
        }
    }
}
