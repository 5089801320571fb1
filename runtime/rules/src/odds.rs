//! Exact odds of one attack (`cav odds`): every sequence of die faces the real procedures ask
//! for is played once, through the engine's own activation, hooks included, so the odds cannot
//! drift from the rules the games play. Nothing here models the rules a second time: a run is
//! an ordinary activation with dice that answer from a path, and the path walks, depth first,
//! every face of every die the run asked for (an odometer over the rolls actually made, so a
//! roll that happens only on some branches — a pilot check after a penetrating hit — is
//! enumerated only there). A leaf's chance is the product of 1/sides of its rolls; outcomes
//! are summed as exact fractions.

use std::cell::Cell;
use std::collections::BTreeMap;
use std::collections::HashMap;

use cav_format::{Test, limits};

use crate::compile::Rules;
use crate::dice::Dice;
use crate::event::{Event, Sink};
use crate::game::{Action, Controller, Engine, EngineError, Game};
use crate::hooks::{HookCtx, Hooks};

/// The most die sequences one attack may enumerate (a safety net for a hostile pack whose
/// hooks roll without end: the run stops with an error instead of eating the machine). The
/// bundled attacks need at most ~82,000 (a 2× Medium MAC at short range).
pub const MAX_LEAVES: u64 = 500_000;
/// An attack is refused early when the sequences played so far, divided by the share of all
/// chances they cover, project more than this many times [`MAX_LEAVES`] (checked after 1,000,
/// 2,000, 4,000, … sequences): a handler rolling `1d1000` six times covers 10⁻¹⁵ of its chances
/// in its first 1,000 sequences, and is told so in milliseconds, not after half a million. The
/// sequences come in the odometer's order, low faces first, where attacks are cheap (misses), so
/// the projection errs low for the rules' own dice.
const PROJECTION_MARGIN: f64 = 1_000.0;
/// The most dice one branch of one attack may roll.
pub const MAX_ROLLS: usize = 32;

/// What one command may spend on exact odds over every attack it weighs (a matrix weighs a
/// weapon against every model at every band): die sequences played and script steps taken.
/// Counted, never timed, so a command stops at the same place on any machine; a hostile pack
/// whose hooks roll `1d1000` again and again meets it in seconds, not hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Die sequences left.
    pub sequences: u64,
    /// Script steps left (`Hooks::script_steps`).
    pub script_steps: u64,
}

impl Budget {
    /// Whether an attack ran out of it (the command should stop: every further attack would too).
    pub fn spent(&self) -> bool {
        self.sequences == 0 || self.script_steps == 0
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget { sequences: limits::ODDS_SEQUENCES, script_steps: limits::ODDS_SCRIPT_STEPS }
    }
}

/// The attack to weigh: an attacker firing weapon mounts at a target at a range.
#[derive(Debug, Clone, Default)]
pub struct AttackSpec {
    /// Model ids (documents of kind `model`).
    pub attacker: String,
    pub target: String,
    /// The attacker's weapon mounts (0 = first on its card); empty = every mount.
    pub weapons: Vec<usize>,
    /// The range between the two, as the ruleset measures it (edge to edge or centre to centre).
    pub range: f64,
    /// Model states each starts with (ids of `model_state` documents).
    pub attacker_states: Vec<String>,
    pub target_states: Vec<String>,
    /// Damage points each has already taken (the damage-track column follows from them).
    pub attacker_damage: u32,
    pub target_damage: u32,
    /// A terrain piece (id) the target stands in, for its cover.
    pub cover: Option<String>,
    /// How the target answers the attack where the ruleset lets it (`procedures.attack.opposed`):
    /// an answer's id; `Some("")` lets it be; `None`: the first answer it has.
    pub answer: Option<String>,
}

/// What one attack came to: the facts a player reads off the table.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Outcome {
    /// Why no attack was rolled (a handler forbade it), if none was.
    pub no_attack: Option<String>,
    /// Combat rolls that hit, and hits that penetrated.
    pub hits: u32,
    pub penetrations: u32,
    /// Damage points the target took (all sources, criticals included).
    pub damage: u32,
    /// States the target gained, sorted.
    pub states: Vec<String>,
    /// Critical-damage results the target suffered, sorted.
    pub criticals: Vec<String>,
    pub destroyed: bool,
    /// A weapon ran dry (a critical fumble on a weapon that can).
    pub out_of_ammo: bool,
    /// Damage the attacker took (a row that hurts both; a shot back).
    pub attacker_damage: u32,
    /// The attack was rolled by the ruleset's roll kinds (`procedures.attack`): its hits that
    /// deal are counted as `penetrations`, and said as dealing.
    pub rolled: bool,
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(why) = &self.no_attack {
            return write!(f, "no attack ({why})");
        }
        let mut parts: Vec<String> = Vec::new();
        let hits = if self.hits == 1 { "1 hit".to_owned() } else { format!("{} hits", self.hits) };
        // (A rolled attack's hits deal or not; only CAV's penetrate.)
        let (none, each, some) = if self.rolled {
            ("none deals", "each dealing", "dealing")
        } else {
            ("none penetrates", "penetrating", "penetrating")
        };
        parts.push(match (self.hits, self.penetrations) {
            (0, _) => "miss".into(),
            (_, 0) => format!("{hits}, {none}"),
            (1, 1) if self.rolled => format!("{hits}, {some}"),
            (h, p) if h == p => format!("{hits}, {each}"),
            (_, p) => format!("{hits}, {p} {some}"),
        });
        if self.damage > 0 {
            parts.push(format!("{} damage", self.damage));
        }
        parts.extend(self.states.iter().cloned());
        parts.extend(self.criticals.iter().map(|c| format!("critical: {c}")));
        if self.destroyed {
            parts.push("destroyed".into());
        }
        if self.out_of_ammo {
            parts.push("out of ammo".into());
        }
        if self.attacker_damage > 0 {
            parts.push(format!("attacker takes {}", self.attacker_damage));
        }
        f.write_str(&parts.join(", "))
    }
}

/// An exact probability: `num / den`, reduced. Die sequences have denominators that are
/// products of die sizes; a sum of them stays exact in 128 bits for any attack
/// [`MAX_ROLLS`] allows with the dice a pack may name (checked, never wrapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chance {
    pub num: u128,
    pub den: u128,
}

impl Chance {
    pub const ZERO: Chance = Chance { num: 0, den: 1 };

    pub fn value(&self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn checked_add(self, other: Chance) -> Option<Chance> {
        let g = gcd(self.den, other.den);
        let den = (self.den / g).checked_mul(other.den)?;
        let num = self.num.checked_mul(den / self.den)?.checked_add(other.num.checked_mul(den / other.den)?)?;
        let g = gcd(num, den).max(1);
        Some(Chance { num: num / g, den: den / g })
    }
}

impl std::fmt::Display for Chance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The exact odds of an attack: every distinct outcome with its chance (the chances sum to 1).
#[derive(Debug, Clone)]
pub struct AttackOdds {
    /// Most likely first (ties by outcome, so the order is stable).
    pub outcomes: Vec<(Outcome, Chance)>,
    /// Die sequences played.
    pub leaves: u64,
    /// Of them, played on from the checkpoint the first kept as its rolls began
    /// (`game/resume.rs`) rather than from the start of the activation.
    pub resumed: u64,
    /// The range band the attack was made at, and the weapons fired (names).
    pub band: String,
    pub weapons: Vec<String>,
}

impl AttackOdds {
    /// The chance of every outcome that satisfies `pred`, exactly.
    pub fn chance(&self, pred: impl Fn(&Outcome) -> bool) -> Chance {
        self.outcomes.iter().filter(|(o, _)| pred(o)).fold(Chance::ZERO, |a, (_, c)| {
            a.checked_add(*c).expect("sums of the enumerated chances fit: they were summed once already")
        })
    }
}

/// An attack set up on a board, ready to be played once per die sequence.
pub struct Attack<'r> {
    game: Game<'r>,
    attacker: usize,
    target: usize,
    action: Action,
    pub band: String,
    pub weapons: Vec<String>,
    /// The target's answer (`AttackSpec::answer`).
    answer: Option<String>,
    /// The game the last run played in, made `game` again for the next (`Game::copy_from`
    /// keeps its buffers: a run's copy costs no allocation).
    spare: std::cell::RefCell<Option<Game<'r>>>,
}

impl<'r> Attack<'r> {
    /// Place the two models `spec.range` apart (the attacker facing the target, the target facing
    /// back), with the states, damage and cover asked for. Errors name what is wrong (an unknown
    /// model or state, a weapon mount the card lacks, a target out of the weapon's reach).
    /// The game is checked to start here (`game_setup` handlers run with seeded dice, seed 0);
    /// every run of the attack starts it again the same way (`play`), so each die sequence is
    /// a game of its own: scripts start from fresh modules, whatever earlier sequences did.
    pub fn new(rules: &'r Rules, spec: &AttackSpec, hooks: &mut dyn Hooks) -> Result<Attack<'r>, String> {
        if !(spec.range.is_finite() && (0.0..=1000.0).contains(&spec.range)) {
            return Err(format!("range {} is not a distance in inches between 0 and 1000", spec.range));
        }
        if let Some(want) = spec.answer.as_deref().filter(|w| !w.is_empty()) {
            let answers = rules.attack.as_ref().and_then(|a| a.opposed.as_ref()).map(|o| &o.answers[..]).unwrap_or(&[]);
            if !answers.iter().any(|a| a.id == want) {
                let ids: Vec<&str> = answers.iter().map(|a| a.id.as_str()).collect();
                return Err(if ids.is_empty() {
                    format!(
                        "{} lets no target answer an attack (no `procedures.attack.opposed`): no answer `{want}`",
                        rules.id
                    )
                } else {
                    format!("no answer `{want}` in {}; answers: {}", rules.id, ids.join(", "))
                });
            }
            // The two models face each other here: an answer only for an unseen attacker never is.
            if answers.iter().any(|a| a.id == want && a.attacker_seen == Some(false)) {
                return Err(format!(
                    "answer `{want}` is given only to an attacker the target does not see, and here the target faces it"
                ));
            }
        }
        let card = rules.card(&spec.attacker).ok_or_else(|| format!("unknown model `{}`", spec.attacker))?;
        rules.card(&spec.target).ok_or_else(|| format!("unknown model `{}`", spec.target))?;
        let mounts = rules.cards[card].weapons.len();
        let weapons: Vec<usize> = if spec.weapons.is_empty() { (0..mounts).collect() } else { spec.weapons.clone() };
        if let Some(&w) = weapons.iter().find(|&&w| w >= mounts) {
            return Err(format!(
                "`{}` has {mounts} weapon mounts (0 to {}); there is no mount {w}",
                spec.attacker,
                mounts.saturating_sub(1)
            ));
        }
        let place = |x: f64| -> Result<(Game<'r>, HashMap<String, usize>), String> {
            let (y, x0) = (spec.range + 60.0, 30.0);
            let mut terrain = Vec::new();
            if let Some(t) = &spec.cover {
                terrain.push(serde_json::json!({"terrain": t, "at": [x0 + x, y], "radius": 2.0}));
            }
            let doc = serde_json::json!({
                "id": "odds", "name": "odds",
                "board": [x0 + x + 30.0, 2.0 * y],
                "terrain": terrain,
                "models": [
                    {"id": "attacker", "model": spec.attacker, "side": "attacker", "at": [x0, y], "facing": 90.0,
                     "states": spec.attacker_states, "damage": spec.attacker_damage},
                    {"id": "target", "model": spec.target, "side": "target", "at": [x0 + x, y], "facing": 270.0,
                     "states": spec.target_states, "damage": spec.target_damage},
                ],
                "steps": [], "expect": {},
            });
            let t: Test = serde_json::from_value(doc).map_err(|e| format!("cannot set up the attack: {e}"))?;
            crate::testing::setup(rules, &t)
        };
        // Centre to centre first, then corrected by the gap the ruleset measures (bases).
        let (probe, _) = place(spec.range + 10.0)?;
        let offset = (spec.range + 10.0) - probe.range(0, 1);
        let (game, ids) = place(spec.range + offset)?;
        let (attacker, target) = (ids["attacker"], ids["target"]);
        // Started once here so a failing `game_setup` is reported before any die is weighed.
        start(game.clone(), hooks)?;
        let band = weapons
            .first()
            .and_then(|&w| game.band(attacker, w, target))
            .map(|b| rules.bands[b].name.clone())
            .ok_or_else(|| {
            format!("the target is out of reach of `{}`'s weapon at {} inches", spec.attacker, spec.range)
        })?;
        let names = weapons.iter().map(|&w| rules.cards[card].weapons[w].name.clone()).collect();
        Ok(Attack {
            game,
            attacker,
            target,
            action: Action::fire(target, weapons),
            band,
            weapons: names,
            answer: spec.answer.clone(),
            spare: std::cell::RefCell::new(None),
        })
    }

    /// Play the attack once with these dice; what happened.
    pub fn play(&self, dice: &mut dyn Dice, hooks: &mut dyn Hooks, events: &mut Vec<Event>) -> Result<Outcome, String> {
        events.clear();
        let mut ctrl = Once(Some(self.action.clone()), self.answer.clone());
        let game = match self.spare.take() {
            Some(mut game) => {
                game.copy_from(&self.game);
                game
            }
            None => self.game.clone(),
        };
        let game = start(game, hooks)?;
        let mut log = Reading(events);
        let mut engine = Engine { game, dice, log: &mut log, hooks };
        let played = engine.activate(self.attacker, &mut ctrl);
        self.spare.replace(Some(engine.game));
        self.outcome(played, log.0)
    }

    /// What a run that played `played` came to, read off its events.
    fn outcome(&self, played: Result<(), EngineError>, events: &[Event]) -> Result<Outcome, String> {
        match played {
            Ok(()) => Ok(read(events, self.attacker, self.target)),
            Err(EngineError::IllegalAction { reason, .. }) => Err(format!("the attack is not allowed: {reason}")),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The checkpoint the last run kept (`game/resume.rs`), if it kept one that can be resumed.
    fn checkpoint(&self) -> Option<Box<crate::game::resume::Checkpoint<'r>>> {
        let cp = self.spare.borrow_mut().as_mut()?.checkpoint.take()?;
        cp.resumable().then_some(cp)
    }

    /// Play the attack on from `cp`, a checkpoint an earlier run of it kept, with these dice;
    /// `events` holds an earlier run's events (cut to those logged before the checkpoint).
    fn resume(
        &self,
        cp: &crate::game::resume::Checkpoint<'r>,
        dice: &mut dyn Dice,
        hooks: &mut dyn Hooks,
        events: &mut Vec<Event>,
    ) -> Result<Outcome, String> {
        events.truncate(cp.events);
        // A new game for the hooks, as `start` makes one: fresh script modules.
        hooks.new_game();
        let mut ctrl = Once(None, self.answer.clone());
        let game = self.spare.take().unwrap_or_else(|| cp.game().clone());
        let mut log = Reading(events);
        let mut engine = Engine { game, dice, log: &mut log, hooks };
        let played = engine.resume(cp, &mut ctrl);
        self.spare.replace(Some(engine.game));
        self.outcome(played, log.0)
    }
}

/// The events of one run of an attack, kept to read its outcome: no narrative is built for them
/// (`Sink::narrative`).
struct Reading<'v>(&'v mut Vec<Event>);

impl Sink for Reading<'_> {
    fn enabled(&self) -> bool {
        true
    }
    fn narrative(&self) -> bool {
        false
    }
    fn push(&mut self, e: Event) {
        self.0.push(e);
    }
    fn logged(&self) -> usize {
        self.0.len()
    }
}

/// Start `game` (a new game for the hooks: fresh script modules; `game_setup` with seeded dice,
/// seed 0, its events not kept), then its first turn.
fn start<'r>(game: Game<'r>, hooks: &mut dyn Hooks) -> Result<Game<'r>, String> {
    let mut engine = Engine { game, dice: &mut crate::dice::SeededDice::new(0), log: &mut crate::event::NoLog, hooks };
    engine.start().map_err(|e| e.to_string())?;
    let mut game = engine.game;
    game.turn = 1;
    Ok(game)
}

/// A copy of `card` whose mounts `weapons` fire `shots` copies each (a card's "2× Medium MAC"
/// fires two shots; the odds of one shot need one), added to `rules`; its id.
pub fn with_shots(rules: &mut Rules, card: usize, weapons: &[usize], shots: u32) -> Result<String, String> {
    let mut c = rules.cards[card].clone();
    for &w in weapons {
        let m = c.weapons.get_mut(w).ok_or_else(|| format!("`{}` has no weapon mount {w}", c.id))?;
        if shots == 0 || shots > m.quantity {
            return Err(format!("`{}` carries {} × {}: it cannot fire {shots} shots of it", c.id, m.quantity, m.name));
        }
        m.quantity = shots;
    }
    c.id = format!("{}#{shots}-shot", c.id);
    let id = c.id.clone();
    if rules.card(&id).is_none() {
        rules.cards.push(c);
    }
    Ok(id)
}

/// Hands the engine one action, then passes; the target answers as asked (an answer's id, `""`
/// for none, `None` for the first it has).
struct Once(Option<Action>, Option<String>);

impl Controller for Once {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> Action {
        self.0.take().unwrap_or_else(Action::pass)
    }
    fn answer_attack(&mut self, game: &Game, _: usize, _: usize, options: &[crate::AttackAnswer]) -> Option<usize> {
        let Some(want) = &self.1 else { return (!options.is_empty()).then_some(0) };
        let answers = &game.rules.attack.as_ref()?.opposed.as_ref()?.answers;
        options.iter().position(|o| answers[o.answer].id == *want)
    }
}

/// The outcome, read off the events of one run.
fn read(events: &[Event], attacker: usize, target: usize) -> Outcome {
    let mut o = Outcome::default();
    let mut rolled = false;
    for e in events {
        match e {
            Event::Roll(r) if r.model == attacker && (r.kind == "combat" || r.kind == "secondary-combat") => {
                rolled = true;
            }
            // An attack by the ruleset's roll kinds: its hits, and those that deal damage.
            Event::DamagePoints { model, target: t, hits, dealing, .. } if *model == attacker && *t == target => {
                rolled = true;
                o.rolled = true;
                o.hits += hits;
                o.penetrations += dealing;
            }
            Event::Forbidden { reason, .. } if !rolled => o.no_attack = Some(reason.clone()),
            Event::NoAttack { reason, .. } if !rolled => o.no_attack = Some(reason.clone()),
            Event::Hit { target: t, penetrated, .. } if *t == target => {
                o.hits += 1;
                o.penetrations += u32::from(*penetrated);
            }
            Event::DamageApplied { model, points, .. } if *model == target => o.damage += points,
            Event::DamageApplied { model, points, .. } if *model == attacker => o.attacker_damage += points,
            Event::StateGained { model, state } if *model == target => o.states.push(state.clone()),
            Event::Critical { model, result } if *model == target => o.criticals.push(result.clone()),
            // Out of action is as good as destroyed for the attack's odds.
            Event::Destroyed { model } | Event::OutOfAction { model } if *model == target => o.destroyed = true,
            Event::OutOfAmmo { model, saved_by_reserve: false, .. } if *model == attacker => o.out_of_ammo = true,
            _ => {}
        }
    }
    if rolled {
        o.no_attack = None;
    } else if o.no_attack.is_none() {
        o.no_attack = Some("no combat roll was made".into());
    }
    o.states.sort();
    o.criticals.sort();
    o
}

/// One roll on a path: which of its `choices` this branch takes. A die's choices are its faces
/// (each 1/sides); a roll whose caller reads only the total (`Dice::faces_for_total`) chooses
/// among the totals, each weighted by the ways the dice make it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Step {
    choice: u32,
    choices: u32,
    kind: StepKind,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum StepKind {
    Die(u32),
    /// `count` dice of `sides` faces, no dice dropped, no bonus: totals count..=count·sides.
    Total {
        count: u32,
        sides: u32,
    },
    /// One die of `sides` faces read as the range it falls in: the ranges end after each cut
    /// (the first `n`), the last at `sides`.
    Ranges {
        sides: u32,
        cuts: [u32; MAX_CUTS],
        n: u8,
    },
}

/// The most cuts of one die read by ranges (`Dice::roll_in_ranges`); more are walked face by face.
const MAX_CUTS: usize = 24;

/// The most dice of one roll summed as totals (their ways are counted by convolution).
const MAX_TOTAL_DICE: u32 = 8;
/// The largest die whose totals are walked rather than its faces.
const MAX_TOTAL_SIDES: u32 = 100;

impl Step {
    /// This step's chance as (ways, out of); `table` keeps the ways of each kind of total (an
    /// attack rolls few kinds: a list is searched faster than a map is hashed, at every leaf).
    fn weight(&self, table: &mut Vec<((u32, u32), Vec<u64>)>) -> (u128, u128) {
        match self.kind {
            StepKind::Die(sides) => (1, u128::from(sides)),
            StepKind::Ranges { sides, cuts, n } => {
                let n = usize::from(n);
                let i = self.choice as usize;
                let hi = if i < n { cuts[i] } else { sides };
                let lo = if i == 0 { 0 } else { cuts[i - 1] };
                (u128::from(hi - lo), u128::from(sides))
            }
            StepKind::Total { count, sides } => {
                let at = match table.iter().position(|(k, _)| *k == (count, sides)) {
                    Some(at) => at,
                    None => {
                        table.push(((count, sides), ways(count, sides)));
                        table.len() - 1
                    }
                };
                (u128::from(table[at].1[self.choice as usize]), u128::from(sides).pow(count))
            }
        }
    }
}

/// The number of ways `count` dice of `sides` faces make each total from `count` up.
fn ways(count: u32, sides: u32) -> Vec<u64> {
    let mut w = vec![1u64];
    for _ in 0..count {
        let mut next = vec![0u64; w.len() + sides as usize - 1];
        for (i, &x) in w.iter().enumerate() {
            for f in 0..sides as usize {
                next[i + f] += x;
            }
        }
        w = next;
    }
    w
}

/// Dice that answer from a path of choices, extending it with the first choice past its end.
struct PathDice<'p> {
    path: &'p mut Vec<Step>,
    at: usize,
    /// Set when a roll asked for other dice than this path's earlier run at the same point
    /// (the procedure is not a function of its dice), or past [`MAX_ROLLS`].
    broken: Option<String>,
    /// Walk the totals of rolls whose callers read only the total (else every face).
    totals: bool,
    /// Set at the sequence's first roll ([`Prefix`]).
    rolled: &'p Cell<bool>,
}

impl PathDice<'_> {
    fn next(&mut self, kind: StepKind, choices: u32) -> u32 {
        self.rolled.set(true);
        let choice = match self.path.get(self.at) {
            Some(step) if step.kind == kind => step.choice,
            Some(step) => {
                self.broken.get_or_insert(format!(
                    "roll {} asked for {kind:?} where it asked {:?} before",
                    self.at + 1,
                    step.kind
                ));
                0
            }
            None if self.path.len() >= MAX_ROLLS => {
                self.broken.get_or_insert(format!("one attack rolled more than {MAX_ROLLS} times"));
                0
            }
            None => {
                self.path.push(Step { choice: 0, choices, kind });
                0
            }
        };
        self.at += 1;
        choice
    }
}

impl Dice for PathDice<'_> {
    fn roll(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        self.next(StepKind::Die(sides), sides) + 1
    }

    fn roll_in_ranges(&mut self, sides: u32, cuts: &[u32]) -> u32 {
        let sides = sides.max(1);
        if !self.totals || cuts.len() > MAX_CUTS || cuts.windows(2).any(|w| w[0] >= w[1]) || cuts.last() >= Some(&sides)
        {
            return self.roll(sides);
        }
        let mut fixed = [0; MAX_CUTS];
        fixed[..cuts.len()].copy_from_slice(cuts);
        let n = cuts.len() as u8;
        let i = self.next(StepKind::Ranges { sides, cuts: fixed, n }, u32::from(n) + 1) as usize;
        if i < cuts.len() { cuts[i] } else { sides }
    }

    fn faces_for_total(&mut self, expr: &crate::dice::DiceExpr) -> Option<Vec<u32>> {
        let (count, sides) = (expr.count, expr.sides);
        if !self.totals
            || expr.keep.is_some()
            || !expr.is_simple()
            || !(2..=MAX_TOTAL_DICE).contains(&count)
            || sides > MAX_TOTAL_SIDES
        {
            return None;
        }
        let extra = self.next(StepKind::Total { count, sides }, count * (sides - 1) + 1);
        // Faces that make the total: fill the dice in turn (the order is immaterial to a total).
        let mut left = extra;
        Some(
            (0..count)
                .map(|_| {
                    let f = left.min(sides - 1);
                    left -= f;
                    f + 1
                })
                .collect(),
        )
    }
}

/// The hooks of one enumeration. Until a sequence's first die, every sequence plays the same
/// game (started alike, the same declaration, no die thrown yet), so the handlers answer alike:
/// the first sequence's answers are kept, in order, and the later sequences are given them
/// instead of running the handlers again (the declaration's handlers were half of every
/// sequence). From the first die on, every call runs. A module instance that the kept calls
/// made is then made afresh at its first call after the die: only a module's own variables
/// could tell, and `cav odds` starts each sequence from fresh modules anyway (docs/modding-lua.md,
/// "What a script remembers").
struct Prefix<'h, 'c> {
    inner: &'h mut dyn Hooks,
    /// The first sequence's calls before its first die: the moment as asked, then as answered.
    kept: Vec<(HookCtx, HookCtx)>,
    /// The first sequence is playing: its calls are kept while `keeping`.
    first: bool,
    /// Cleared at the first sequence's first call that cannot be given again: one that threw
    /// dice (a later sequence's dice would then be elsewhere in their stream), one during a roll.
    keeping: bool,
    /// Nothing is given again: the kept calls printed (the later logs would lack the lines).
    never: bool,
    /// This sequence's calls given from `kept` so far.
    at: usize,
    /// This sequence left the kept calls: every later call runs.
    live: bool,
    /// Set by the dice at the sequence's first roll.
    rolled: &'c Cell<bool>,
    /// The kept calls made before the first sequence's checkpoint (`Hooks::checkpoint`): a
    /// sequence resumed from there is given the kept calls from this one on.
    at_checkpoint: usize,
    /// Later sequences may resume from the first one's checkpoint.
    resumes: bool,
}

impl<'h, 'c> Prefix<'h, 'c> {
    fn new(inner: &'h mut dyn Hooks, rolled: &'c Cell<bool>) -> Self {
        Prefix {
            inner,
            kept: Vec::new(),
            first: true,
            keeping: true,
            never: false,
            at: 0,
            live: false,
            rolled,
            at_checkpoint: 0,
            resumes: true,
        }
    }

    /// The next sequence starts (`resumed`: from the first sequence's checkpoint).
    fn sequence(&mut self, first: bool, resumed: bool) {
        self.first = first;
        self.at = if resumed { self.at_checkpoint } else { 0 };
        self.live = false;
        self.rolled.set(false);
    }
}

/// A moment as the engine asks it: no roll in progress, nothing answered yet.
fn unanswered(ctx: &HookCtx) -> bool {
    ctx.roll.is_none() && ctx.effects.is_empty() && ctx.rolls.is_empty()
}

/// The same moment asked again: everything a handler reads of the context but the game (the
/// same in every sequence until its first die).
fn same_moment(a: &HookCtx, b: &HookCtx) -> bool {
    (a.point, a.model, a.target, a.weapon, a.band, a.state, a.defensive, &a.option)
        == (b.point, b.model, b.target, b.weapon, b.band, b.state, b.defensive, &b.option)
        && a.value.map(f64::to_bits) == b.value.map(f64::to_bits)
        && a.at.map(|p| (p.x.to_bits(), p.y.to_bits())) == b.at.map(|p| (p.x.to_bits(), p.y.to_bits()))
        && unanswered(a)
        && unanswered(b)
}

impl Hooks for Prefix<'_, '_> {
    fn active(&self) -> bool {
        self.inner.active()
    }
    fn wants(&self, point: cav_format::HookPoint) -> bool {
        self.inner.wants(point)
    }
    fn wants_at(
        &mut self,
        game: &Game,
        point: cav_format::HookPoint,
        model: usize,
        target: Option<usize>,
        weapon: Option<usize>,
    ) -> bool {
        self.inner.wants_at(game, point, model, target, weapon)
    }
    fn handles(&self, game: &Game, model: usize, point: cav_format::HookPoint) -> bool {
        self.inner.handles(game, model, point)
    }
    fn call(&mut self, game: &Game, dice: &mut dyn Dice, ctx: &mut HookCtx) -> Result<(), String> {
        if self.never || self.live || self.rolled.get() {
            return self.inner.call(game, dice, ctx);
        }
        if self.first {
            if !self.keeping {
                return self.inner.call(game, dice, ctx);
            }
            let asked = ctx.clone();
            self.inner.call(game, dice, ctx)?;
            if self.rolled.get() || !unanswered(&asked) || !ctx.rolls.is_empty() {
                self.keeping = false;
            } else {
                self.kept.push((asked, ctx.clone()));
            }
            return Ok(());
        }
        match self.kept.get(self.at) {
            Some((asked, answered)) if same_moment(asked, ctx) => {
                self.at += 1;
                *ctx = answered.clone();
                Ok(())
            }
            _ => {
                self.live = true;
                self.inner.call(game, dice, ctx)
            }
        }
    }
    fn take_prints(&mut self) -> Vec<String> {
        let prints = self.inner.take_prints();
        if !prints.is_empty() && self.first && !self.rolled.get() {
            self.never = true;
        }
        prints
    }
    fn new_game(&mut self) {
        // Every sequence plays the attack's rules.
        if self.first { self.inner.new_game() } else { self.inner.new_game_same_rules() }
    }
    fn new_game_same_rules(&mut self) {
        self.inner.new_game_same_rules();
    }
    fn script_steps(&self) -> u64 {
        self.inner.script_steps()
    }
    fn checkpoint(&mut self) -> bool {
        // The first sequence, no die thrown, every call so far kept to be given again, and no
        // line printed (`never`: the long way keeps every call running).
        let ok = self.resumes && self.first && self.keeping && !self.never && !self.rolled.get();
        if ok {
            self.at_checkpoint = self.kept.len();
        }
        ok
    }
}

/// Enumerate every die sequence of the attack: exact odds. What it plays is taken from `budget`
/// (an error when that runs out).
pub fn exact(attack: &Attack, hooks: &mut dyn Hooks, budget: &mut Budget) -> Result<AttackOdds, String> {
    enumerate(attack, hooks, true, budget)
}

/// [`exact`] walking every face of every die, even where only a total is read: the same odds
/// by the long way, which checks the shortcut.
pub fn exact_by_faces(attack: &Attack, hooks: &mut dyn Hooks, budget: &mut Budget) -> Result<AttackOdds, String> {
    enumerate(attack, hooks, false, budget)
}

/// [`exact`] running every handler of every sequence, none given again from the first sequence
/// ([`Prefix`]): the same odds by the long way, which checks that shortcut.
pub fn exact_every_call(attack: &Attack, hooks: &mut dyn Hooks, budget: &mut Budget) -> Result<AttackOdds, String> {
    let rolled = Cell::new(false);
    let mut hooks = Prefix::new(hooks, &rolled);
    hooks.never = true;
    enumerate_with(attack, &mut hooks, &rolled, true, budget)
}

/// [`exact`] playing every sequence's whole activation, none resumed from the checkpoint the
/// first sequence kept as its rolls began (`game/resume.rs`): the same odds by the long way,
/// which checks that shortcut.
pub fn exact_replaying(attack: &Attack, hooks: &mut dyn Hooks, budget: &mut Budget) -> Result<AttackOdds, String> {
    let rolled = Cell::new(false);
    let mut hooks = Prefix::new(hooks, &rolled);
    hooks.resumes = false;
    enumerate_with(attack, &mut hooks, &rolled, true, budget)
}

fn enumerate(attack: &Attack, hooks: &mut dyn Hooks, totals: bool, budget: &mut Budget) -> Result<AttackOdds, String> {
    let rolled = Cell::new(false);
    enumerate_with(attack, &mut Prefix::new(hooks, &rolled), &rolled, totals, budget)
}

fn enumerate_with(
    attack: &Attack,
    hooks: &mut Prefix,
    rolled: &Cell<bool>,
    totals: bool,
    budget: &mut Budget,
) -> Result<AttackOdds, String> {
    let steps_before = hooks.script_steps();
    let left = *budget;
    let mut path: Vec<Step> = Vec::new();
    let mut events = Vec::new();
    // Chances grouped by outcome and denominator: integer sums first, fractions once at the end.
    // (Ordered: an attack has few outcomes, compared faster than an outcome is hashed.)
    let mut tally: BTreeMap<Outcome, BTreeMap<u128, u128>> = BTreeMap::new();
    let mut leaves = 0u64;
    // The share of all chances the sequences played cover, and when it is next looked at.
    let (mut covered, mut look_at) = (0.0f64, 1_000u64);
    let mut table = Vec::new();
    let too_many = || "too many dice to weigh exactly".to_string();
    // Where the later sequences start: the first one's checkpoint, kept as its attack's rolls
    // began (`game/resume.rs`), when it could keep one; else each plays the whole activation.
    let (mut checkpoint, mut resumed) = (None, 0);
    loop {
        hooks.sequence(leaves == 0, checkpoint.is_some());
        let mut dice = PathDice { path: &mut path, at: 0, broken: None, totals, rolled };
        let outcome = match checkpoint.as_deref() {
            // Every sequence's log begins with the events before the checkpoint: `events` holds
            // the last sequence's.
            Some(cp) => {
                resumed += 1;
                attack.resume(cp, &mut dice, hooks, &mut events)?
            }
            None => attack.play(&mut dice, hooks, &mut events)?,
        };
        if leaves == 0 {
            checkpoint = attack.checkpoint();
        }
        let (used, broken) = (dice.at, dice.broken);
        if let Some(why) = broken {
            return Err(format!("the attack's dice cannot be enumerated: {why}"));
        }
        path.truncate(used);
        let (num, den) = path
            .iter()
            .try_fold((1u128, 1u128), |(n, d), step| {
                let (w, of) = step.weight(&mut table);
                Some((n.checked_mul(w)?, d.checked_mul(of)?))
            })
            .ok_or_else(too_many)?;
        let sum = tally.entry(outcome).or_default().entry(den).or_default();
        *sum = sum.checked_add(num).ok_or_else(too_many)?;
        leaves += 1;
        covered += num as f64 / den as f64;
        // Charged first, so an attack refused below has paid for what it played: a matrix of
        // attacks that each fail at the cap still meets the command's budget.
        let steps = hooks.script_steps().saturating_sub(steps_before);
        match (left.sequences.checked_sub(leaves), left.script_steps.checked_sub(steps)) {
            (Some(sequences), Some(script_steps)) => *budget = Budget { sequences, script_steps },
            (None, _) => {
                budget.sequences = 0;
                return Err(format!(
                    "the odds ran out of one command's budget of {} die sequences",
                    limits::ODDS_SEQUENCES
                ));
            }
            (_, None) => {
                budget.script_steps = 0;
                return Err(format!(
                    "the scripts ran out of one command's budget of {} steps for exact odds",
                    limits::ODDS_SCRIPT_STEPS
                ));
            }
        }
        if leaves > MAX_LEAVES {
            return Err(format!("the attack has more than {MAX_LEAVES} die sequences: too many to enumerate"));
        }
        if leaves == look_at {
            look_at *= 2;
            let projected = leaves as f64 / covered;
            if projected > MAX_LEAVES as f64 * PROJECTION_MARGIN {
                return Err(format!(
                    "the attack has about {projected:.1e} die sequences (its first {leaves} cover {:.1e} of its \
                     chances): far more than the {MAX_LEAVES} that can be enumerated",
                    covered
                ));
            }
        }
        // The odometer: the last roll not on its last choice turns; the rolls after it go.
        while path.last().is_some_and(|s| s.choice + 1 >= s.choices) {
            path.pop();
        }
        match path.last_mut() {
            Some(last) => last.choice += 1,
            None => break,
        }
    }
    let mut outcomes = Vec::with_capacity(tally.len());
    for (o, by_den) in tally {
        let mut c = Chance::ZERO;
        for (den, n) in by_den {
            let g = gcd(n, den).max(1);
            c = c.checked_add(Chance { num: n / g, den: den / g }).ok_or_else(too_many)?;
        }
        outcomes.push((o, c));
    }
    outcomes.sort_by(|(a, x), (b, y)| {
        // x > y ⇔ x.num·y.den > y.num·x.den; compare as f64 first, exactly when equal.
        y.value().partial_cmp(&x.value()).unwrap_or(std::cmp::Ordering::Equal).then_with(|| a.cmp(b))
    });
    Ok(AttackOdds { outcomes, leaves, resumed, band: attack.band.clone(), weapons: attack.weapons.clone() })
}

/// The chance a logged roll had of succeeding before its dice were thrown (what a sim's report
/// calls a hopeless shot, and a searching bot leaves out), worked out from the event alone.
#[derive(Default)]
pub struct RollChance {
    /// Roll kinds with the dice a roll was made with where those are not the kind's own (a
    /// script's `ctx.set_dice`), by (kind, dice), worked out once.
    redressed: BTreeMap<(String, String), crate::compile::RollRule>,
}

impl RollChance {
    /// The chance roll `r` had of succeeding, as its roll kind judges it (the ruleset's kind of
    /// that id, else the kind judging the engine's rolls), with the dice it was made with and the
    /// modifiers it had; `None` where that cannot be known (no target, dice that do not parse).
    pub fn of(&mut self, rules: &Rules, r: &crate::event::Roll) -> Option<f64> {
        let target = r.target?;
        let mods = r.mods.iter().fold(0i32, |a, m| a.saturating_add(m.value));
        let dice = crate::DiceExpr::parse(&r.dice).ok()?;
        let Some(kind) = rules.roll_kinds.iter().find(|k| k.id == r.kind).or_else(|| rules.engine_roll(false)) else {
            // No roll kind: the total against the target.
            return Some(dice.odds().at_least(target.saturating_sub(mods)));
        };
        if kind.dice == dice {
            return Some(kind.chance(mods, target));
        }
        let key = (kind.id.clone(), r.dice.to_string());
        let rule = self.redressed.entry(key).or_insert_with(|| crate::compile::RollRule {
            dice,
            odds: Default::default(),
            bonus_odds: Default::default(),
            ..kind.clone()
        });
        Some(rule.chance(mods, target))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ways_count_the_faces_that_make_each_total() {
        assert_eq!(ways(2, 6), vec![1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]);
        assert_eq!(ways(3, 6).iter().sum::<u64>(), 216);
        assert_eq!(ways(3, 6)[10 - 3], 27, "3d6 makes 10 in 27 ways");
    }

    #[test]
    fn a_total_walks_its_totals_with_faces_that_make_it() {
        let mut path = Vec::new();
        let expr = crate::dice::DiceExpr::parse("2d6").unwrap();
        let mut seen = Vec::new();
        loop {
            let rolled = Cell::new(false);
            let mut d = PathDice { path: &mut path, at: 0, broken: None, totals: true, rolled: &rolled };
            let (faces, total) = expr.roll_total(&mut d);
            assert!(faces.iter().all(|f| (1..=6).contains(f)), "{faces:?}");
            seen.push((total, path[0].weight(&mut Vec::new())));
            if path[0].choice + 1 >= path[0].choices {
                break;
            }
            path[0].choice += 1;
        }
        let totals: Vec<i32> = seen.iter().map(|s| s.0).collect();
        assert_eq!(totals, (2..=12).collect::<Vec<_>>());
        assert_eq!(seen[5].1, (6, 36), "7 in six ways of 36");
    }

    #[test]
    fn chances_add_exactly() {
        let a = Chance { num: 1, den: 6 };
        let b = Chance { num: 1, den: 4 };
        assert_eq!(a.checked_add(b), Some(Chance { num: 5, den: 12 }));
        assert_eq!(Chance { num: u128::MAX, den: 1 }.checked_add(Chance { num: 1, den: 1 }), None);
    }
}
