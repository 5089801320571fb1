//! Dice expressions in the notation players read on Roll20 and Foundry VTT: `2d6`, `d10`,
//! `3d6kh2` / `2d20kl1` (keep the highest / lowest), `4d6dl1` (drop), `1d10r1` / `1d10r<=2`
//! (roll a die showing that again, once), `1d6x` / `1d6x>=5` (exploding: a die showing that adds
//! another die), `6d6cs>=4` (the result is how many dice show 4 or more), `1d6+1`, `1d6-1`.
//!
//! Our own evaluator, not a dice crate's: every face comes from the game's one [`Dice`] (forced
//! dice in tests, a path in the exact-odds enumeration, the seeded stream in play), and
//! [`DiceExpr::odds`] works out each expression's exact distribution; the crates we looked at
//! (`dice-nom`, `ndm`, `dice-parser`, `caith`) roll from their own `rand` and give no odds.

use std::fmt;

use cav_format::limits::{MAX_DICE, MAX_DICE_BONUS, MAX_DIE_EXPLOSIONS, MAX_DIE_SIDES};

use super::Dice;

/// Which dice of a pool count.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keep {
    Highest(u32),
    Lowest(u32),
}

/// A test of one die's face: `>=5`, `<=2`, `=1` (written bare: `r1`).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Compare {
    AtLeast(u32),
    AtMost(u32),
    Exactly(u32),
}

impl Compare {
    pub fn holds(self, face: u32) -> bool {
        match self {
            Compare::AtLeast(n) => face >= n,
            Compare::AtMost(n) => face <= n,
            Compare::Exactly(n) => face == n,
        }
    }
}

impl fmt::Display for Compare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Compare::AtLeast(n) => write!(f, ">={n}"),
            Compare::AtMost(n) => write!(f, "<={n}"),
            Compare::Exactly(n) => write!(f, "{n}"),
        }
    }
}

/// A dice expression from a ruleset or a script. The order of play is Foundry's: each die is
/// rolled (and rolled again once if `reroll` holds), explodes (each further die is added to the
/// pool), then the pool is kept or dropped, then counted (`successes`) or summed, then `plus`.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceExpr {
    pub count: u32,
    pub sides: u32,
    pub keep: Option<Keep>,
    pub reroll: Option<Compare>,
    pub explode: Option<Compare>,
    pub successes: Option<Compare>,
    pub plus: i32,
}

impl DiceExpr {
    /// `count` dice of `sides`, summed: `2d6`.
    pub const fn plain(count: u32, sides: u32) -> DiceExpr {
        DiceExpr { count, sides, keep: None, reroll: None, explode: None, successes: None, plus: 0 }
    }

    /// Dice rolled once each and summed, perhaps kept (`2d6`, `3d6kh2`, `1d6+1`): the shape most
    /// rolls have, rolled without looking at faces twice.
    pub fn is_simple(&self) -> bool {
        self.reroll.is_none() && self.explode.is_none() && self.successes.is_none()
    }

    /// How many dice the result is made of before any explodes (3d6kh2: 2).
    pub fn kept(&self) -> u32 {
        match self.keep {
            Some(Keep::Highest(k) | Keep::Lowest(k)) => k,
            None => self.count,
        }
    }

    /// The highest natural result the dice can show (exploding dice: as far as a chain goes).
    pub fn natural_max(&self) -> i32 {
        let chain = if self.explode.is_some() { 1 + MAX_DIE_EXPLOSIONS } else { 1 };
        let per_die = if self.successes.is_some() { chain } else { self.sides.saturating_mul(chain) };
        self.kept().saturating_mul(per_die).min(i32::MAX as u32) as i32
    }

    /// The lowest natural result the dice can show.
    pub fn natural_min(&self) -> i32 {
        if self.successes.is_some() { 0 } else { self.kept().min(i32::MAX as u32) as i32 }
    }

    pub fn parse(s: &str) -> Result<DiceExpr, String> {
        let t: String = s.chars().filter(|c| !c.is_whitespace()).collect::<String>().to_ascii_lowercase();
        let mut p = Parser { s: t.as_bytes(), at: 0 };
        let e = p.expr().map_err(|why| {
            format!(
                "`{s}` is not a dice expression ({why}); write dice as `2d6`, `3d6kh2`, `2d20kl1`, `1d6x`, \
                 `1d10r1`, `6d6cs>=4` or `1d6+1`"
            )
        })?;
        if e.count > MAX_DICE || e.sides > MAX_DIE_SIDES || e.plus.unsigned_abs() > MAX_DICE_BONUS.unsigned_abs() {
            return Err(format!(
                "`{s}` is over the limits of a dice expression: at most {MAX_DICE} dice of at most \
                 {MAX_DIE_SIDES} sides, plus at most {MAX_DICE_BONUS}"
            ));
        }
        Ok(e)
    }

    /// Roll: the natural faces (every die that counts, in roll order, explosions after the die
    /// they came from; a die rolled again shows its second face) and the result.
    pub fn roll(&self, dice: &mut dyn Dice) -> (Vec<u32>, i32) {
        let faces: Vec<u32> = if self.reroll.is_none() && self.explode.is_none() {
            (0..self.count).map(|_| dice.roll(self.sides)).collect()
        } else {
            let mut faces = Vec::with_capacity(self.count as usize);
            for _ in 0..self.count {
                let mut face = dice.roll(self.sides);
                if self.reroll.is_some_and(|r| r.holds(face)) {
                    face = dice.roll(self.sides);
                }
                faces.push(face);
                if let Some(x) = self.explode {
                    let mut n = 0;
                    while x.holds(face) && n < MAX_DIE_EXPLOSIONS {
                        face = dice.roll(self.sides);
                        faces.push(face);
                        n += 1;
                    }
                }
            }
            faces
        };
        let total = self.total_of(&faces);
        (faces, total)
    }

    /// Roll when only the total matters to the caller (the faces are still shown): the same as
    /// [`roll`](Self::roll) for every dice source but an enumeration, which may choose the total.
    pub fn roll_total(&self, dice: &mut dyn Dice) -> (Vec<u32>, i32) {
        match dice.faces_for_total(self) {
            Some(faces) => {
                let total = self.total_of(&faces);
                (faces, total)
            }
            None => self.roll(dice),
        }
    }

    /// The result of `faces` (as [`roll`](Self::roll) lists them) as this expression keeps,
    /// counts and adds them.
    pub fn total_of(&self, faces: &[u32]) -> i32 {
        // Most rolls: every face summed.
        if self.keep.is_none() && self.successes.is_none() {
            let sum = faces.iter().fold(0u32, |t, &f| t.saturating_add(f));
            return (sum.min(i32::MAX as u32) as i32).saturating_add(self.plus);
        }
        let count = |kept: &mut dyn Iterator<Item = u32>| -> u32 {
            match self.successes {
                Some(c) => kept.filter(|&f| c.holds(f)).count() as u32,
                None => kept.fold(0u32, u32::saturating_add),
            }
        };
        let natural = match self.keep {
            Some(keep) => {
                let mut sorted = faces.to_vec();
                let k = match keep {
                    Keep::Highest(k) => {
                        sorted.sort_unstable_by(|a, b| b.cmp(a));
                        k
                    }
                    Keep::Lowest(k) => {
                        sorted.sort_unstable();
                        k
                    }
                };
                count(&mut sorted.into_iter().take(k as usize))
            }
            None => count(&mut faces.iter().copied()),
        };
        (natural.min(i32::MAX as u32) as i32).saturating_add(self.plus)
    }

    /// The expression as `Display` writes it (`2d6`, `3d6kh2`, `1d6+1`), without formatting
    /// for the plain dice most rolls use (a roll's event names its dice at every roll).
    pub fn label(&self) -> std::borrow::Cow<'static, str> {
        const D6: [&str; 9] = ["0d6", "1d6", "2d6", "3d6", "4d6", "5d6", "6d6", "7d6", "8d6"];
        const ONE: [&str; 13] =
            ["1d0", "1d1", "1d2", "1d3", "1d4", "1d5", "1d6", "1d7", "1d8", "1d9", "1d10", "1d11", "1d12"];
        if *self == DiceExpr::plain(self.count, self.sides) {
            match (self.count, self.sides) {
                (c @ 0..=8, 6) => return std::borrow::Cow::Borrowed(D6[c as usize]),
                (1, s @ 0..=12) => return std::borrow::Cow::Borrowed(ONE[s as usize]),
                _ => {}
            }
        }
        std::borrow::Cow::Owned(self.to_string())
    }
}

impl fmt::Display for DiceExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        if let Some(r) = self.reroll {
            write!(f, "r{r}")?;
        }
        match self.explode {
            Some(Compare::Exactly(n)) if n == self.sides => write!(f, "x")?,
            Some(x) => write!(f, "x{x}")?,
            None => {}
        }
        match self.keep {
            Some(Keep::Highest(k)) => write!(f, "kh{k}")?,
            Some(Keep::Lowest(k)) => write!(f, "kl{k}")?,
            None => {}
        }
        if let Some(c) = self.successes {
            write!(f, "cs{c}")?;
        }
        match self.plus {
            0 => Ok(()),
            p if p < 0 => write!(f, "{p}"),
            p => write!(f, "+{p}"),
        }
    }
}

/// A small recursive-descent reader of the notation (lower-cased, spaces removed).
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn eat(&mut self, word: &str) -> bool {
        let found = self.s[self.at..].starts_with(word.as_bytes());
        if found {
            self.at += word.len();
        }
        found
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        // Longer than any limit: refused below as over the limits, not wrapped.
        let digits = std::str::from_utf8(&self.s[start..self.at]).ok()?;
        (!digits.is_empty()).then(|| digits.parse::<u32>().unwrap_or(u32::MAX))
    }

    /// `>=N`, `>N`, `<=N`, `<N`, `=N` or a bare `N`; `None` when none is written.
    fn compare(&mut self) -> Result<Option<Compare>, String> {
        let op = [">=", "<=", ">", "<", "="].into_iter().find(|op| self.eat(op));
        let Some(n) = self.number() else {
            return match op {
                Some(op) => Err(format!("`{op}` needs a number after it")),
                None => Ok(None),
            };
        };
        Ok(Some(match op {
            Some(">=") => Compare::AtLeast(n),
            Some(">") => Compare::AtLeast(n.saturating_add(1)),
            Some("<=") => Compare::AtMost(n),
            Some("<") => Compare::AtMost(n.saturating_sub(1)),
            _ => Compare::Exactly(n),
        }))
    }

    fn expr(&mut self) -> Result<DiceExpr, String> {
        let count = self.number().unwrap_or(1);
        if !self.eat("d") {
            return Err("no `d` between the number of dice and their sides".into());
        }
        let sides = self.number().ok_or("no number of sides after `d`")?;
        if count == 0 || sides == 0 {
            return Err("no dice, or dice without sides".into());
        }
        let mut e = DiceExpr::plain(count, sides);
        loop {
            let at = self.at;
            if self.eat("kl") {
                e.keep = Some(Keep::Lowest(self.number().unwrap_or(1)));
            } else if self.eat("kh") || self.eat("k") {
                e.keep = Some(Keep::Highest(self.number().unwrap_or(1)));
            } else if self.eat("dh") {
                e.keep = Some(Keep::Lowest(count.saturating_sub(self.number().unwrap_or(1))));
            } else if self.eat("dl") {
                e.keep = Some(Keep::Highest(count.saturating_sub(self.number().unwrap_or(1))));
            } else if self.eat("cs") {
                e.successes = Some(self.compare()?.ok_or("`cs` needs a test such as `cs>=4`")?);
            } else if self.eat("r") {
                e.reroll = Some(self.compare()?.unwrap_or(Compare::Exactly(1)));
            } else if self.eat("x") || self.eat("!") {
                e.explode = Some(self.compare()?.unwrap_or(Compare::Exactly(sides)));
            } else {
                break;
            }
            if self.at == at {
                break;
            }
        }
        if let Some(Keep::Highest(k) | Keep::Lowest(k)) = e.keep
            && (k == 0 || k > count)
        {
            return Err(format!("it keeps {k} of {count} dice"));
        }
        if e.keep.is_some() && e.explode.is_some() {
            return Err("keeping or dropping dice of an exploding roll is not supported".into());
        }
        if let Some(x) = e.explode
            && (1..=sides).all(|f| x.holds(f))
        {
            return Err("it explodes on every face".into());
        }
        if let Some(x) = e.explode
            && !(1..=sides).any(|f| x.holds(f))
        {
            return Err("it explodes on no face it can show".into());
        }
        match self.peek() {
            None => {}
            Some(b'+' | b'-') => {
                let minus = self.s[self.at] == b'-';
                self.at += 1;
                let n = self.number().ok_or("no number after the sign")?;
                let n = i32::try_from(n).unwrap_or(i32::MAX);
                e.plus = if minus { -n } else { n };
            }
            Some(c) => return Err(format!("`{}` is not understood here", c as char)),
        }
        if self.at != self.s.len() {
            return Err(format!("`{}` is not understood", String::from_utf8_lossy(&self.s[self.at..])));
        }
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ForcedDice;

    fn p(s: &str) -> DiceExpr {
        DiceExpr::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_label_is_the_expression_displayed() {
        for count in 0..=10 {
            for sides in 0..=20 {
                for (keep, plus) in
                    [(None, 0), (Some(Keep::Highest(2)), 0), (Some(Keep::Lowest(1)), 0), (None, 1), (None, -1)]
                {
                    let e = DiceExpr { keep, plus, ..DiceExpr::plain(count, sides) };
                    assert_eq!(e.label(), e.to_string());
                }
            }
        }
    }

    #[test]
    fn the_notation_reads_back_as_written() {
        for s in [
            "2d6", "3d6kh2", "2d20kl1", "1d6+1", "1d6-1", "1d6x", "1d6x>=5", "1d10r1", "1d10r<=2", "6d6cs>=4",
            "6d6cs<=3", "3d6r1x", "2d6cs6+1",
        ] {
            assert_eq!(p(s).to_string(), s, "{s}");
            assert_eq!(p(&p(s).to_string()), p(s));
        }
        assert_eq!(p("d10").to_string(), "1d10");
        assert_eq!(p("4d6dl1"), p("4d6kh3"));
        assert_eq!(p("4d6dh1"), p("4d6kl3"));
        assert_eq!(p("2d20k"), p("2d20kh1"));
        assert_eq!(p("1d6!"), p("1d6x"));
        assert_eq!(p("1d6x>4"), p("1d6x>=5"));
        assert_eq!(p("1d10r<3"), p("1d10r<=2"));
        assert_eq!(p(" 2D6 + 1 "), p("2d6+1"));
    }

    #[test]
    fn what_is_not_dice_is_refused_with_the_reason() {
        for (s, why) in [
            ("2x6", "no `d`"),
            ("2d6kh3", "keeps 3 of 2"),
            ("2d6kh0", "keeps 0"),
            ("1d6x>=1", "every face"),
            ("1d6x7", "no face"),
            ("2d6xkh1", "exploding"),
            ("6d6cs", "`cs` needs a test"),
            ("6d6cs>=", "needs a number"),
            ("1d6+", "no number after the sign"),
            ("1d6*2", "`*` is not understood"),
            ("0d6", "no dice"),
            ("", "no `d`"),
            ("1d", "no number of sides"),
        ] {
            let e = DiceExpr::parse(s).expect_err(s);
            assert!(e.contains(why), "{s}: {e}");
        }
        assert!(DiceExpr::parse("100d4000000000").is_err());
        assert!(DiceExpr::parse("1d4294967295").is_err());
        assert!(DiceExpr::parse("101d6").is_err());
        assert!(DiceExpr::parse("1d6+2147483647").is_err());
        assert!(DiceExpr::parse("1d6+99999999999999999999").is_err());
        assert!(DiceExpr::parse("100d1000+1000").is_ok());
    }

    #[test]
    fn dice_roll_as_the_notation_says() {
        let roll = |s: &str, faces: &[u32]| {
            let mut d = ForcedDice::new(faces.iter().copied());
            let out = p(s).roll(&mut d);
            assert_eq!(d.remaining(), 0, "{s} left faces unused");
            out
        };
        assert_eq!(roll("3d6kh2", &[2, 6, 5]), (vec![2, 6, 5], 11));
        assert_eq!(roll("2d20kl1", &[14, 3]), (vec![14, 3], 3));
        assert_eq!(roll("1d6+1", &[3]).1, 4);
        assert_eq!(roll("1d6-1", &[1]).1, 0);
        // A 1 is rolled again, once: the second face stands even if it is a 1.
        assert_eq!(roll("2d10r1", &[1, 7, 4]), (vec![7, 4], 11));
        assert_eq!(roll("1d10r1", &[1, 1]), (vec![1], 1));
        // Each six adds a die; the chain ends on the first face that is not a six.
        assert_eq!(roll("2d6x", &[6, 6, 2, 3]), (vec![6, 6, 2, 3], 17));
        // Successes: dice showing 4 or more; explosions are dice of their own.
        assert_eq!(roll("5d6cs>=4", &[1, 4, 6, 3, 5]), (vec![1, 4, 6, 3, 5], 3));
        assert_eq!(roll("2d6xcs>=4", &[6, 4, 2]), (vec![6, 4, 2], 2));
        assert_eq!(roll("4d6kh2cs>=5", &[5, 1, 6, 6]), (vec![5, 1, 6, 6], 2));
        // A hostile chain stops.
        let mut d = ForcedDice::new(std::iter::repeat_n(6, 100));
        let (faces, _) = p("1d6x").roll(&mut d);
        assert_eq!(faces.len(), 1 + MAX_DIE_EXPLOSIONS as usize);
        let shifted = DiceExpr { plus: i32::MAX, ..DiceExpr::plain(1, 6) };
        assert_eq!(shifted.roll(&mut ForcedDice::new([6])).1, i32::MAX);
    }
}
