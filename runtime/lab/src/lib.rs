//! The balance lab: play batches of games of a scenario with bots on both sides, in parallel, and
//! keep statistics that merge exactly.
//!
//! A [`SimResult`] holds only counts and sums (never an average), so two results of the same
//! content over seed ranges that do not overlap merge into exactly the result of one run over
//! both ranges, whatever the order, the thread count or the machine. Means, deviations and rates
//! are computed when printed. No terminal code lives here: `cav sim` (runtime/cli) prints.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use cav_rules::bot::Bot;
use cav_rules::search::{Budget as SearchBudget, Search};
use cav_rules::setup::RosterForce;
use cav_rules::{Event, Rules, Sink};
use rayon::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Seeds `first`, `first + 1`, … `first + count - 1`; seed `s` plays with `SeededDice::new(s)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct SeedRange {
    pub first: u64,
    pub count: u64,
}

impl SeedRange {
    /// One past the last seed.
    pub fn end(&self) -> u64 {
        self.first.saturating_add(self.count)
    }
}

/// What one weapon (by name) did over the games. Close-combat damage is under `(close combat)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WeaponStats {
    /// Attacks made with it (`attack` events).
    pub shots: u64,
    /// Attacks whose roll succeeded (`hit` events).
    pub hits: u64,
    /// Hits that beat the target's armor.
    pub penetrations: u64,
    /// Damage its penetrating hits dealt (the damage table's results, `damage_result` events;
    /// under `procedures.attack.damage_table`, only the points its table rows deal).
    pub damage: u64,
    /// Rows of tables its hits landed on enemy models (`table_result` events): under
    /// `procedures.attack.damage_table` the row each hit reads and every row that row rolls on.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub table_results: u64,
    /// Of those, the rows that changed the model themselves (attributes, weapons, states,
    /// movement, action points, destruction, damage points, …): not a row that does nothing nor
    /// one that only rolls on another table (the row that roll lands on counts on its own).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub effects: u64,
    /// Shots whose hit roll could not succeed: with the modifiers it had, no result of its dice
    /// reached the target (its roll kind's chance, criticals counted, was 0). A shot the bot
    /// should not have taken.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hopeless: u64,
}

impl WeaponStats {
    fn add(&mut self, o: &WeaponStats) -> Result<(), String> {
        self.shots = sum(self.shots, o.shots)?;
        self.hits = sum(self.hits, o.hits)?;
        self.penetrations = sum(self.penetrations, o.penetrations)?;
        self.damage = sum(self.damage, o.damage)?;
        self.table_results = sum(self.table_results, o.table_results)?;
        self.effects = sum(self.effects, o.effects)?;
        self.hopeless = sum(self.hopeless, o.hopeless)?;
        Ok(())
    }

    /// Hits are shots that hit, penetrations hits that penetrated, effects table results.
    fn consistent(&self, what: &str) -> Result<(), String> {
        if self.hits > self.shots || self.penetrations > self.hits {
            return Err(format!(
                "{what}: {} shots, {} hits, {} penetrations (hits are shots, penetrations hits)",
                self.shots, self.hits, self.penetrations
            ));
        }
        if self.hopeless > self.shots {
            return Err(format!("{what}: {} hopeless shots of {}", self.hopeless, self.shots));
        }
        if self.effects > self.table_results {
            return Err(format!(
                "{what}: {} effects of {} table results (effects are table results)",
                self.effects, self.table_results
            ));
        }
        Ok(())
    }
}

/// What one modifier source (a special attribute, a table's row, a state, …) did to rolls and hits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ModifierStats {
    /// Rolls it changed (a modifier of non-zero value in a `roll` event).
    pub rolls: u64,
    /// Of those, rolls whose success it decided: without its value the roll would have failed
    /// where it succeeded, or succeeded where it failed (a natural critical is never decided).
    pub decided: u64,
    /// Hits whose margin of success, RAV or AV it changed (`hit` events' changes).
    pub hits: u64,
}

impl ModifierStats {
    fn add(&mut self, o: &ModifierStats) -> Result<(), String> {
        self.rolls = sum(self.rolls, o.rolls)?;
        self.decided = sum(self.decided, o.decided)?;
        self.hits = sum(self.hits, o.hits)?;
        Ok(())
    }
}

/// The statistics of a batch of games: counts and sums only, so [`SimResult::merge`] is exact.
/// Maps are sorted, so the JSON of equal results is equal byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SimResult {
    /// The scenario's id.
    pub scenario: String,
    /// The ruleset's id (`cav-quickstart`, `cav-full`, …).
    pub ruleset: String,
    /// SHA-256 of the exact content played: every resolved document of the ruleset and every
    /// script source of its packs (`cav_lab::content_hash`).
    pub content_hash: String,
    /// The scenario's sides, in its order.
    pub sides: Vec<String>,
    /// The seeds played: sorted, adjacent ranges joined, never overlapping.
    pub seeds: Vec<SeedRange>,
    /// Games played (one per seed).
    pub games: u64,
    /// Games won, per side (every side present).
    pub wins: BTreeMap<String, u64>,
    /// Games no side won.
    pub draws: u64,
    /// Sum of the games' lengths in turns.
    pub turns_sum: u64,
    /// Sum of the squares of the games' lengths (for the deviation).
    pub turns_sq_sum: u64,
    /// Games by length in turns.
    pub turns: BTreeMap<u32, u64>,
    /// Damage dealt, per side (every side present), summed over the games.
    pub damage: BTreeMap<String, u64>,
    /// Games by the damage a side dealt in them, per side (every side present).
    pub damage_games: BTreeMap<String, BTreeMap<u32, u64>>,
    /// Damage dealt per model, by its name in the game (which names its side: `red Dictator-B`);
    /// models of one name are summed.
    pub model_damage: BTreeMap<String, u64>,
    /// Per weapon name.
    pub weapons: BTreeMap<String, WeaponStats>,
    /// Per weapon name, then per range band of its attacks (`-` where an attack has none:
    /// template weapons, bombs); close combat is not here.
    pub bands: BTreeMap<String, BTreeMap<String, WeaponStats>>,
    /// States inflicted (`state_gained` events), per state name.
    pub states: BTreeMap<String, u64>,
    /// Per modifier source: how often it changed a roll or a hit, and decided a roll.
    pub modifiers: BTreeMap<String, ModifierStats>,
    /// The name of the table a hit reads where the ruleset's damage is a table's results
    /// (`procedures.attack.damage_table`): a hit's margin times a weapon value, in multiples of
    /// the target's armor, picks a row that changes the target and rolls on further tables. The
    /// damage figures then count only the points rows deal (`damage:` of a row), and what the
    /// rows do is counted as table results and effects. Absent for a ruleset without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_model: Option<String>,
    /// Effects (table rows that changed an enemy model, as a weapon's `effects`) dealt per
    /// side, summed over the games; only sides that dealt one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub effects: BTreeMap<String, u64>,
    /// Effects dealt per model, by its name in the game; only models that dealt one.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub model_effects: BTreeMap<String, u64>,
    /// Every table row landed on a model (`table_result` events), whoever caused it, by
    /// `table · row` names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub table_results: BTreeMap<String, u64>,
    /// Of those, the rows landed outside an attack on an enemy model (a script's
    /// `ctx.table_row` at another moment, a row on the attacker's own side): in no weapon's,
    /// side's or model's count.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub table_results_unattributed: u64,
    /// Per side (those that decided, reacted or carried a special attribute): the decisions its
    /// controller was asked for, the actions it declared and the rules accepted, its reactions,
    /// and per special attribute the games it was carried and used in and its uses (see
    /// the lab's `usage` module for what "used" means).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub usage: BTreeMap<String, Usage>,
    /// The sides the searching bot played (`cav sim --bot search`); none: the rules bot played
    /// every side. Results merge only with results of the same bots.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub search_bot: Vec<String>,
    /// The activations the searching bot played out to choose its actions, summed over the games.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rollouts: u64,
}

impl SimResult {
    /// No game yet: the identity of [`SimResult::merge`].
    pub fn empty(scenario: &str, ruleset: &str, content_hash: &str, sides: &[String]) -> SimResult {
        SimResult {
            scenario: scenario.to_owned(),
            ruleset: ruleset.to_owned(),
            content_hash: content_hash.to_owned(),
            sides: sides.to_vec(),
            seeds: Vec::new(),
            games: 0,
            wins: sides.iter().map(|s| (s.clone(), 0)).collect(),
            draws: 0,
            turns_sum: 0,
            turns_sq_sum: 0,
            turns: BTreeMap::new(),
            damage: sides.iter().map(|s| (s.clone(), 0)).collect(),
            damage_games: sides.iter().map(|s| (s.clone(), BTreeMap::new())).collect(),
            model_damage: BTreeMap::new(),
            weapons: BTreeMap::new(),
            bands: BTreeMap::new(),
            states: BTreeMap::new(),
            modifiers: BTreeMap::new(),
            damage_model: None,
            effects: BTreeMap::new(),
            model_effects: BTreeMap::new(),
            table_results: BTreeMap::new(),
            table_results_unattributed: 0,
            usage: BTreeMap::new(),
            search_bot: Vec::new(),
            rollouts: 0,
        }
    }

    /// The two results as one. Refused when they are of different content, scenario, ruleset or
    /// sides, or when their seeds overlap (a game would count twice).
    pub fn merge(mut a: SimResult, b: &SimResult) -> Result<SimResult, String> {
        if a.content_hash != b.content_hash {
            return Err(format!(
                "the results are of different content (hash {} and {}): rerun both on the same content",
                short(&a.content_hash),
                short(&b.content_hash)
            ));
        }
        if a.scenario != b.scenario {
            return Err(format!("the results are of different scenarios (`{}` and `{}`)", a.scenario, b.scenario));
        }
        if a.ruleset != b.ruleset {
            return Err(format!("the results are of different rulesets (`{}` and `{}`)", a.ruleset, b.ruleset));
        }
        if a.sides != b.sides {
            return Err(format!("the results have different sides ({:?} and {:?})", a.sides, b.sides));
        }
        if a.search_bot != b.search_bot {
            return Err(format!(
                "the results are of different bots (the searching bot played {:?} and {:?})",
                a.search_bot, b.search_bot
            ));
        }
        match (&a.damage_model, &b.damage_model) {
            (Some(x), Some(y)) if x != y => {
                return Err(format!("the results are of different damage tables (`{x}` and `{y}`)"));
            }
            (None, Some(y)) if a.games > 0 => {
                return Err(format!("one result reads damage table `{y}`, the other none"));
            }
            (Some(x), None) if b.games > 0 => {
                return Err(format!("one result reads damage table `{x}`, the other none"));
            }
            _ => {}
        }
        a.damage_model = a.damage_model.or_else(|| b.damage_model.clone());
        let mut seeds = a.seeds.clone();
        seeds.extend(b.seeds.iter().copied());
        seeds.sort();
        let mut joined: Vec<SeedRange> = Vec::with_capacity(seeds.len());
        for r in seeds.into_iter().filter(|r| r.count > 0) {
            match joined.last_mut() {
                Some(last) if r.first < last.end() => {
                    return Err(format!(
                        "the results overlap: seeds {}..{} and {}..{} were both played (a game would count twice)",
                        last.first,
                        last.end(),
                        r.first,
                        r.end()
                    ));
                }
                Some(last) if r.first == last.end() => last.count = sum(last.count, r.count)?,
                _ => joined.push(r),
            }
        }
        a.seeds = joined;
        a.games = sum(a.games, b.games)?;
        add_all(&mut a.wins, &b.wins)?;
        a.draws = sum(a.draws, b.draws)?;
        a.turns_sum = sum(a.turns_sum, b.turns_sum)?;
        a.turns_sq_sum = sum(a.turns_sq_sum, b.turns_sq_sum)?;
        add_all(&mut a.turns, &b.turns)?;
        add_all(&mut a.damage, &b.damage)?;
        for (side, d) in &b.damage_games {
            add_all(a.damage_games.entry(side.clone()).or_default(), d)?;
        }
        add_all(&mut a.model_damage, &b.model_damage)?;
        for (w, s) in &b.weapons {
            a.weapons.entry(w.clone()).or_default().add(s)?;
        }
        for (w, bands) in &b.bands {
            let into = a.bands.entry(w.clone()).or_default();
            for (band, s) in bands {
                into.entry(band.clone()).or_default().add(s)?;
            }
        }
        add_all(&mut a.states, &b.states)?;
        for (m, s) in &b.modifiers {
            a.modifiers.entry(m.clone()).or_default().add(s)?;
        }
        add_all(&mut a.effects, &b.effects)?;
        add_all(&mut a.model_effects, &b.model_effects)?;
        add_all(&mut a.table_results, &b.table_results)?;
        a.table_results_unattributed = sum(a.table_results_unattributed, b.table_results_unattributed)?;
        for (side, u) in &b.usage {
            a.usage.entry(side.clone()).or_default().add(u)?;
        }
        a.rollouts = sum(a.rollouts, b.rollouts)?;
        Ok(a)
    }

    /// Whether the counts of a result read from a file agree with each other, as every result
    /// `cav sim` writes does: its seed ranges, which hold as many seeds as games were played; the
    /// games won, drawn, by length and by damage per side, which each count every game once;
    /// hits within shots and penetrations within hits; decided rolls within changed ones. A
    /// result edited by hand or cut short is refused, not merged into a wrong total.
    pub fn consistent(&self) -> Result<(), String> {
        let mut seeds = 0u64;
        let mut end = 0u64;
        for r in &self.seeds {
            let last = r
                .first
                .checked_add(r.count)
                .ok_or_else(|| format!("seeds {} and {} more run past the largest seed", r.first, r.count))?;
            if r.first < end {
                return Err(format!("seed ranges overlap or are out of order at seed {}", r.first));
            }
            end = last;
            seeds = sum(seeds, r.count)?;
        }
        let games = self.games;
        let count = |what: &str, n: u64| -> Result<(), String> {
            (n == games).then_some(()).ok_or_else(|| format!("{games} games, but {what} count {n}"))
        };
        count("the seed ranges", seeds)?;
        count("the wins and draws", self.wins.values().try_fold(self.draws, |t, &w| sum(t, w))?)?;
        count("the game lengths", self.turns.values().try_fold(0, |t, &n| sum(t, n))?)?;
        for (side, by_damage) in &self.damage_games {
            count(&format!("the games by damage of `{side}`"), by_damage.values().try_fold(0, |t, &n| sum(t, n))?)?;
        }
        for (w, s) in &self.weapons {
            s.consistent(&format!("weapon `{w}`"))?;
        }
        for (w, bands) in &self.bands {
            for (band, s) in bands {
                s.consistent(&format!("weapon `{w}` at band `{band}`"))?;
            }
        }
        for (m, s) in &self.modifiers {
            if s.decided > s.rolls {
                return Err(format!("modifier `{m}` decided {} of {} rolls", s.decided, s.rolls));
            }
        }
        // Every table result is a weapon's or unattributed; effects are table results.
        let landed = self.table_results.values().try_fold(0, |t, &n| sum(t, n))?;
        let by_weapons =
            self.weapons.values().try_fold(self.table_results_unattributed, |t, w| sum(t, w.table_results))?;
        if by_weapons != landed {
            return Err(format!(
                "{landed} table results landed, but the weapons' and the unattributed count {by_weapons}"
            ));
        }
        let effects = self.weapons.values().try_fold(0, |t, w| sum(t, w.effects))?;
        for (what, n) in [
            ("the sides", self.effects.values().try_fold(0, |t, &n| sum(t, n))?),
            ("the models", self.model_effects.values().try_fold(0, |t, &n| sum(t, n))?),
        ] {
            if n != effects {
                return Err(format!("the weapons dealt {effects} effects, but {what} count {n}"));
            }
        }
        for (side, u) in &self.usage {
            if !self.sides.contains(side) {
                return Err(format!("usage of `{side}`, which is no side of the scenario"));
            }
            u.consistent(side, self.games)?;
        }
        Ok(())
    }

    /// Mean game length in turns (computed from the sums; 0 with no game).
    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.turns_sum as f64 / self.games as f64 }
    }

    /// Sample standard deviation of the game length (0 with fewer than two games).
    pub fn sd_turns(&self) -> f64 {
        if self.games < 2 {
            return 0.0;
        }
        let n = self.games as f64;
        let (s, q) = (self.turns_sum as f64, self.turns_sq_sum as f64);
        ((q - s * s / n) / (n - 1.0)).max(0.0).sqrt()
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn add_all<K: Ord + Clone>(into: &mut BTreeMap<K, u64>, from: &BTreeMap<K, u64>) -> Result<(), String> {
    for (k, v) in from {
        let x = into.entry(k.clone()).or_default();
        *x = sum(*x, *v)?;
    }
    Ok(())
}

/// `a + b`, or an error: counts past 2^64 − 1 are no result of real games (a forged or corrupt
/// shard), and a merge must not wrap them round to small numbers.
pub(crate) fn sum(a: u64, b: u64) -> Result<u64, String> {
    a.checked_add(b).ok_or_else(|| format!("a count passes {}: the results cannot be of real games", u64::MAX))
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// The Wilson score interval at 95 % (z = 1.96) for `successes` out of `n`: `(low, high)`.
/// `(0, 1)` when `n` is 0.
pub fn wilson(successes: u64, n: u64) -> (f64, f64) {
    wilson_z(successes, n, 1.959_963_984_540_054)
}

/// The Wilson score interval of `k` successes in `n` at `z` standard deviations.
pub fn wilson_z(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, k as f64 / n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// SHA-256 (hex) of the exact content a ruleset plays: every resolved document as JSON, sorted
/// by kind and id, then every file under its packs' script roots (pack load order, paths sorted,
/// each named by pack and path inside the root, so the hash does not depend on where the
/// checkout is).
pub fn content_hash(rs: &cav_content::Ruleset) -> Result<String, String> {
    let mut h = Sha256::new();
    let mut field = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(rs.id.as_bytes());
    let mut entries: Vec<_> = rs.entries().collect();
    entries.sort_by(|a, b| (a.kind.tag(), &a.id).cmp(&(b.kind.tag(), &b.id)));
    for e in entries {
        field(e.kind.tag().as_bytes());
        field(e.id.as_bytes());
        field(&serde_json::to_vec(&*e.value).map_err(|err| err.to_string())?);
    }
    for p in &rs.packs {
        // A script root is the pack's directory joined with the manifest's path already
        // (relative when `--root` is): used as it is, read relative to the working directory.
        for root in &p.script_roots {
            let mut files = Vec::new();
            for f in walkdir::WalkDir::new(root).sort_by_file_name() {
                let f = f.map_err(|e| format!("cannot read the scripts under {}: {e}", root.display()))?;
                if f.file_type().is_file() {
                    files.push(f.into_path());
                }
            }
            for f in files {
                let rel = f.strip_prefix(root).unwrap_or(Path::new(""));
                field(p.id.as_bytes());
                field(rel.to_string_lossy().as_bytes());
                field(&std::fs::read(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?);
            }
        }
    }
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// A table row that landed on a model (`table_result`), and what it is counted under.
struct Landed {
    /// The weapon (and band) and the model whose attack it is part of; `None` outside an attack.
    by: Option<((String, Option<String>), usize)>,
    /// The model it landed on.
    on: usize,
    /// Whether the row changed the model itself ([`row_acts`]).
    effect: bool,
}

/// Whether a row of a lookup table changes the model it lands on by itself: not a row that does
/// nothing, nor one that only rolls on further tables (the rows those rolls land on are their own
/// results). Every field is named, so a new kind of row effect cannot be missed here.
fn row_acts(row: &cav_rules::compile::Row) -> bool {
    let cav_rules::compile::Row {
        min: _,
        max: _,
        name: _,
        damage,
        damage_both,
        pilot_check,
        states,
        critical,
        action_points,
        action_points_set,
        move_value,
        move_factor,
        combat_modifier,
        no_combat,
        weapons_zeroed,
        destroyed,
        result,
        value: _,
        attributes,
        weapon_modifier,
        weapon_lost,
        roll_on: _,
        roll_again: _,
    } = row;
    *damage > 0
        || *damage_both > 0
        || pilot_check.is_some()
        || !states.is_empty()
        || *critical
        || *action_points != 0
        || action_points_set.is_some()
        || *move_value != 0
        || move_factor.is_some_and(|f| f != 1.0)
        || *combat_modifier != 0
        || *no_combat
        || *weapons_zeroed
        || *destroyed
        || result.is_some()
        || !attributes.is_empty()
        || *weapon_modifier != 0
        || *weapon_lost
}

/// An event sink that counts as the game goes (the log itself is not kept).
#[derive(Default)]
struct Tally<'r> {
    /// The rules played, to tell which table rows change a model ([`row_acts`]); without them
    /// every row counts as an effect.
    rules: Option<&'r Rules>,
    /// Table rows landed during the attack under way (after an `attack`, before its
    /// `damage_points`), waiting for the attack's end to say whose they are.
    in_attack: Option<Vec<Landed>>,
    /// Table rows landed, with whose attack they are part of.
    landed: Vec<Landed>,
    /// Every table row landed, by `table · row`.
    table_results: BTreeMap<String, u64>,
    /// The weapon (and band) whose damage the next damage result is: set by an attack, a hit or
    /// a close combat.
    current: Option<(String, Option<String>)>,
    /// The model the next damage result is dealt by.
    attacker: Option<usize>,
    weapons: BTreeMap<String, WeaponStats>,
    bands: BTreeMap<String, BTreeMap<String, WeaponStats>>,
    states: BTreeMap<String, u64>,
    /// Damage dealt per model index.
    by_model: BTreeMap<usize, u64>,
    modifiers: BTreeMap<String, ModifierStats>,
    /// What names a special attribute in the events (`None`: SA uses are not counted).
    sources: Option<&'r SaSources>,
    /// Reactions and special attributes' uses.
    usage: UsageTally,
    /// An attack was declared and its first roll with a target (its hit roll) is still to come.
    hit_roll_pending: bool,
    /// What each logged roll's chance was (`RollChance`).
    roll_chance: cav_rules::odds::RollChance,
}

impl Tally<'_> {
    /// Whether row `result` (`key`) of the table named `table` changes a model by itself.
    fn acts(&self, table: &str, key: i32, result: &str) -> bool {
        let Some(rules) = self.rules else { return true };
        let mut rows = rules.lookup_tables.iter().filter(|t| t.name == table).filter_map(|t| t.row(key));
        rows.find(|r| r.name == result).is_none_or(row_acts)
    }

    /// The attack under way ends: the rows it landed are `model`'s with the current weapon.
    fn attack_ends(&mut self, model: Option<usize>) {
        let Some(rows) = self.in_attack.take() else { return };
        let by = self.current.clone().zip(model);
        self.landed.extend(rows.into_iter().map(|l| Landed { by: by.clone(), ..l }));
    }

    /// The table rows landed, counted under the weapon, side and model whose attack landed them
    /// on an enemy model (`side_of` a model's index), the others as unattributed.
    fn settle(&mut self, r: &mut SimResult, side_of: impl Fn(usize) -> Option<usize>, names: &[String]) {
        self.attack_ends(None);
        for l in std::mem::take(&mut self.landed) {
            let enemy = l.by.filter(|(_, m)| side_of(*m).is_some_and(|s| Some(s) != side_of(l.on)));
            let Some(((weapon, band), model)) = enemy else {
                r.table_results_unattributed += 1;
                continue;
            };
            let effect = u64::from(l.effect);
            let add = |w: &mut WeaponStats| {
                w.table_results += 1;
                w.effects += effect;
            };
            add(self.weapons.entry(weapon.clone()).or_default());
            if let Some(band) = band {
                add(self.bands.entry(weapon).or_default().entry(band).or_default());
            }
            if effect > 0 {
                let side = side_of(model).and_then(|s| r.sides.get(s)).cloned().unwrap_or_default();
                *r.effects.entry(side).or_default() += 1;
                let name = names.get(model).cloned().unwrap_or_else(|| format!("model {model}"));
                *r.model_effects.entry(name).or_default() += 1;
            }
        }
        r.table_results = std::mem::take(&mut self.table_results);
    }

    /// The statistics of the current weapon, overall and in its band.
    fn count(&mut self, f: impl Fn(&mut WeaponStats)) {
        let Some((weapon, band)) = &self.current else { return };
        f(self.weapons.entry(weapon.clone()).or_default());
        if let Some(band) = band {
            f(self.bands.entry(weapon.clone()).or_default().entry(band.clone()).or_default());
        }
    }
}

impl Sink for Tally<'_> {
    fn enabled(&self) -> bool {
        true
    }

    fn push(&mut self, e: Event) {
        self.usage.push(&e, self.sources);
        match e {
            Event::Attack { model, weapon, band, .. } => {
                // (An attack that landed no row and said no damage points leaves none waiting.)
                self.attack_ends(self.attacker);
                self.in_attack = Some(Vec::new());
                self.current = Some((weapon, Some(band.unwrap_or_else(|| "-".to_owned()))));
                self.attacker = Some(model);
                self.hit_roll_pending = true;
                self.count(|w| w.shots += 1);
                self.usage.shots(model, 1, 0);
            }
            Event::Hit { model, weapon, penetrated, changes, .. } => {
                // A hit without its attack (a strike's, a reaction's) counts under its weapon only.
                if self.current.as_ref().is_none_or(|(w, _)| *w != weapon) {
                    self.current = Some((weapon, None));
                }
                self.attacker = Some(model);
                self.count(|w| {
                    w.hits += 1;
                    w.penetrations += u64::from(penetrated);
                });
                for c in changes.iter().filter(|c| c.value != 0) {
                    self.modifiers.entry(c.source.clone()).or_default().hits += 1;
                }
            }
            // An attack by roll kinds: each hit roll counts as a shot (the attack counted one),
            // its standing hits, those that deal, and what they deal.
            Event::DamagePoints { model, rolls, hits, dealing, damage, .. } => {
                self.attacker = Some(model);
                self.usage.shots(model, u64::from(rolls.saturating_sub(1)), 0);
                // The table rows its hits landed (`procedures.attack.damage_table`) are its.
                self.attack_ends(Some(model));
                self.count(|w| {
                    w.shots += u64::from(rolls.saturating_sub(1));
                    w.hits += u64::from(hits);
                    w.penetrations += u64::from(dealing);
                    w.damage += u64::from(damage);
                });
                *self.by_model.entry(model).or_default() += u64::from(damage);
            }
            Event::CloseCombat { model, .. } => {
                self.current = Some(("(close combat)".to_owned(), None));
                self.attacker = Some(model);
            }
            Event::DamageResult { damage, .. } => {
                if self.current.is_none() {
                    self.current = Some(("(other)".to_owned(), None));
                }
                self.count(|w| w.damage += u64::from(damage));
                if let Some(m) = self.attacker {
                    *self.by_model.entry(m).or_default() += u64::from(damage);
                }
            }
            Event::StateGained { state, .. } => *self.states.entry(state).or_default() += 1,
            Event::TableResult { model, table, key, result } => {
                let effect = self.acts(&table, key, &result);
                *self.table_results.entry(format!("{table} · {result}")).or_default() += 1;
                let l = Landed { by: None, on: model, effect };
                match &mut self.in_attack {
                    Some(rows) => rows.push(l),
                    None => self.landed.push(l),
                }
            }
            // (An attack that said no damage points ends with the activation.)
            Event::ActivationEnd { .. } => {
                self.attack_ends(self.attacker);
                self.hit_roll_pending = false;
            }
            Event::Roll(r) => {
                if self.hit_roll_pending && self.attacker == Some(r.model) && r.target.is_some() {
                    self.hit_roll_pending = false;
                    if self.rules.and_then(|rules| self.roll_chance.of(rules, &r)) == Some(0.0) {
                        self.count(|w| w.hopeless += 1);
                        self.usage.shots(r.model, 0, 1);
                    }
                }
                for m in r.mods.iter().filter(|m| m.value != 0) {
                    let s = self.modifiers.entry(m.source.clone()).or_default();
                    s.rolls += 1;
                    // Success is a margin of 0 or more unless the dice were a natural critical.
                    if let (Some(ok), Some(margin), None) = (r.success, r.margin, r.critical) {
                        s.decided += u64::from((margin - m.value >= 0) != ok);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Play one game (seed `seed`) and return it as a result of one game.
fn play_one(
    arm: &Arm,
    hosts: &mut Hosts,
    sc: usize,
    seed: u64,
    empty: &SimResult,
    sources: &SaSources,
) -> Result<SimResult, String> {
    let mut tally = Tally { rules: Some(arm.rules), sources: Some(sources), ..Tally::default() };
    let searching: Vec<bool> = empty.sides.iter().map(|s| empty.search_bot.contains(s)).collect();
    // The bot, counted: the actions it declares, the optional SAs it is offered.
    let (game, end, bot_usage, rollouts) = match hosts.search.as_mut().filter(|_| searching.contains(&true)) {
        Some(search_host) => {
            let search = Search::new(search_host, searching, seed, SearchBudget::default());
            let mut bot = Counting::new(search, arm.rules);
            let (game, end) =
                cav_rules::setup::run(arm.rules, sc, arm.rosters, seed, &mut tally, &mut hosts.game, |e| {
                    e.play(&mut bot)
                });
            let mut usage = std::mem::take(&mut bot.usage);
            for ((side, action), o) in std::mem::take(&mut bot.inner.stats.offers) {
                let offered = Offered { available: o.available, weighed: o.weighed, refused: o.refused };
                usage.entry(side).or_default().searched.insert(action, offered);
            }
            (game, end, usage, bot.inner.stats.rollouts)
        }
        None => {
            let mut bot = Counting::new(Bot::default(), arm.rules);
            let (game, end) =
                cav_rules::setup::run(arm.rules, sc, arm.rosters, seed, &mut tally, &mut hosts.game, |e| {
                    e.play(&mut bot)
                });
            (game, end, std::mem::take(&mut bot.usage), 0)
        }
    };
    let end = end.map_err(|e| format!("seed {seed}: the game stopped: {e}"))?;
    let sides = game.sides.clone();
    let usage = std::mem::take(&mut tally.usage).settle(&game, bot_usage);
    // A model's name in the game already says its side ("red Dictator-B").
    let models: Vec<String> = game.models.iter().map(|m| m.name.clone()).collect();
    let model_sides: Vec<usize> = game.models.iter().map(|m| m.side).collect();
    drop(game);
    let mut r = empty.clone();
    tally.settle(&mut r, |m| model_sides.get(m).copied(), &models);
    r.seeds = vec![SeedRange { first: seed, count: 1 }];
    r.games = 1;
    r.rollouts = rollouts;
    match end.winner {
        Some(w) => *r.wins.entry(sides[w].clone()).or_default() += 1,
        None => r.draws = 1,
    }
    r.turns_sum = u64::from(end.turns);
    r.turns_sq_sum = u64::from(end.turns) * u64::from(end.turns);
    r.turns.insert(end.turns, 1);
    for (side, d) in sides.iter().zip(&end.damage_dealt) {
        *r.damage.entry(side.clone()).or_default() += u64::from(*d);
        *r.damage_games.entry(side.clone()).or_default().entry(*d).or_default() += 1;
    }
    for (m, d) in tally.by_model {
        let name = models.get(m).cloned().unwrap_or_else(|| format!("model {m}"));
        *r.model_damage.entry(name).or_default() += d;
    }
    r.weapons = tally.weapons;
    r.bands = tally.bands;
    r.states = tally.states;
    r.modifiers = tally.modifiers;
    r.usage = usage.into_iter().filter_map(|(s, u)| Some((sides.get(s)?.clone(), u))).collect();
    Ok(r)
}

/// The script hosts of one worker: the games' own, and the searching bot's for its rollouts
/// (only when a side searches), so rollouts spend nothing of a game's script budgets.
pub(crate) struct Hosts {
    game: cav_script::LuaHost,
    search: Option<cav_script::LuaHost>,
}

impl Hosts {
    pub(crate) fn new(rules: &Rules, search: bool) -> Result<Hosts, String> {
        let host =
            || cav_script::LuaHost::new(rules, cav_script::Limits::default()).map_err(|e| format!("scripts: {e}"));
        Ok(Hosts { game: host()?, search: if search { Some(host()?) } else { None } })
    }
}

/// Who decides for each side in a run's games.
#[derive(Clone, Copy, Debug, Default)]
pub enum Bots<'a> {
    /// The rules bot for every side (fast).
    #[default]
    Rules,
    /// The searching bot for every side.
    Search,
    /// The searching bot for these sides (by name), the rules bot for the others.
    SearchFor(&'a [String]),
}

/// The scenario's index in `rules` and the empty result of its games. A scenario whose players
/// bring rosters is played only with rosters.
fn scenario_setup(arm: &Arm, scenario: &str) -> Result<(usize, SimResult), String> {
    let (rules, content_hash) = (arm.rules, arm.content_hash);
    let sc = rules.scenario(scenario).ok_or_else(|| {
        let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
        format!("no scenario `{scenario}` in {}; scenarios: {}", rules.id, ids.join(", "))
    })?;
    let def = &rules.scenarios[sc];
    if def.forces.is_empty() && arm.rosters.is_none() {
        return Err(format!(
            "scenario `{scenario}` does not fix its forces (the players bring rosters): give each side a roster"
        ));
    }
    if let Some(r) = arm.rosters.filter(|r| r.len() != def.sides.len()) {
        return Err(format!("{} rosters for the {} sides of `{scenario}`", r.len(), def.sides.len()));
    }
    let sides: Vec<String> = def.sides.iter().map(|(n, _)| n.clone()).collect();
    let mut empty = SimResult::empty(&def.id, &rules.id, content_hash, &sides);
    empty.search_bot = match arm.bots {
        Bots::Rules => Vec::new(),
        Bots::Search => sides.clone(),
        Bots::SearchFor(named) => {
            if let Some(n) = named.iter().find(|n| !sides.contains(n)) {
                return Err(format!("no side `{n}` in scenario `{scenario}`; its sides: {}", sides.join(", ")));
            }
            sides.iter().filter(|s| named.contains(s)).cloned().collect()
        }
    };
    let damage_table = rules.attack.as_ref().and_then(|a| a.damage_table.as_ref());
    empty.damage_model = damage_table.and_then(|d| rules.lookup_tables.get(d.table)).map(|t| t.name.clone());
    Ok((sc, empty))
}

/// What one arm of a run plays: compiled rules, the hash of their content, and the rosters on the
/// table for a scenario whose players bring them (the same rosters every game).
#[derive(Clone, Copy)]
pub struct Arm<'a> {
    pub rules: &'a Rules,
    /// [`content_hash`] of the content, with [`rosters_hash`] folded in where rosters play.
    pub content_hash: &'a str,
    pub rosters: Option<&'a [RosterForce]>,
    /// Who decides for each side.
    pub bots: Bots<'a>,
}

/// The content hash of a run with rosters: SHA-256 of the content's hash and the rosters' JSON,
/// so results of other rosters are refused by `merge` as results of other content are.
pub fn rosters_hash(content_hash: &str, rosters: &impl Serialize) -> Result<String, String> {
    let json = serde_json::to_vec(rosters).map_err(|e| format!("rosters: {e}"))?;
    let mut h = Sha256::new();
    h.update(content_hash.as_bytes());
    h.update(b"\0rosters\0");
    h.update(&json);
    Ok(h.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Play the scenario once per seed of `seeds`, bots on both sides, on rayon's pool (each worker
/// with its own Lua host), calling `progress` after each game. The result does not depend on the
/// thread count: every game is played from its own seed, and merging is exact.
///
/// A scenario whose players bring rosters is played with `arm.rosters` (refused without).
pub fn run(arm: Arm, scenario: &str, seeds: Range<u64>, progress: &(dyn Fn() + Sync)) -> Result<SimResult, String> {
    let (sc, empty) = scenario_setup(&arm, scenario)?;
    let rules = arm.rules;
    // The scripts load once here, so a broken script is one clear error, not one per worker.
    cav_script::LuaHost::new(rules, cav_script::Limits::default()).map_err(|e| format!("scripts: {e}"))?;
    let sources = SaSources::new(rules);
    let search = !empty.search_bot.is_empty();
    seeds
        .into_par_iter()
        .map_init(
            || Hosts::new(rules, search),
            |hosts, seed| {
                let hosts = hosts.as_mut().map_err(|e| e.clone())?;
                let r = play_one(&arm, hosts, sc, seed, &empty, &sources);
                progress();
                r
            },
        )
        .try_fold(|| empty.clone(), |acc, r| SimResult::merge(acc, &r?))
        .try_reduce(|| empty.clone(), |a, b| SimResult::merge(a, &b))
}

pub mod change;
pub mod plot;
pub mod usage;
pub mod vs;

pub use change::Change;
use usage::{Counting, SaSources, UsageTally};
pub use usage::{Offered, SaUsage, Usage};
pub use vs::{Diff, DiffRow, Paired, VsResult, paired_diff, run_vs, same_rules};

#[cfg(test)]
mod tests;
