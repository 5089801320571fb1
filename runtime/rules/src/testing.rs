//! Running scenario tests (`kind: test` documents): set up a board, force the dice and the
//! actions, and compare what happened with what the test expects.
//!
//! A test's steps become activations of [`Engine::activate`] (consecutive actions of one model),
//! turn boundaries ([`Engine::end_turn`], [`Engine::begin_turn`]) and checks of the state. The
//! [`Scripted`] controller hands the engine each action when asked, checks the action points the
//! engine says are left, makes the checks due between two actions, and makes the player's choices
//! the test gives (reactions, over-watch, strike-point relocation, declined special attributes).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use cav_format::{EventField, EventKind, Id, Test, TestChoices, TestModelState, TestStep};
use serde_json::Value;

use crate::compile::{Fitting, Rules};
use crate::dice::ForcedDice;
use crate::event::Event;
use crate::game::actions::{ENGAGED, OVERWATCH};
use crate::game::{Action, Area, Board, Controller, Engine, Game, actions};
use crate::geom::{P, Polygon, angle_diff};
use crate::hooks::{Hooks, NoHooks};

/// `do: end` closes an activation early.
pub const END: &str = "end";
/// `do: next-turn` ends the turn and starts the next.
pub const NEXT_TURN: &str = "next-turn";
/// `do: play-turn` ends the turn, then plays the next one as a game does: the draw deck shuffled
/// with the test's dice (one die per card after the first), each card drawn activating its side's
/// next model, which passes; then the turn after starts.
pub const PLAY_TURN: &str = "play-turn";
/// `do: squad-activation` (with `squad:`) begins a squad's activation.
pub const SQUAD_ACTIVATION: &str = "squad-activation";
/// `do: end-squad-activation` ends it: what its models' attacks did lands.
pub const END_SQUAD_ACTIVATION: &str = "end-squad-activation";

/// How close an over-watch `at:` point must be to the mover (the engine offers the chance every
/// half inch).
const OVERWATCH_AT: f64 = 0.25 + 1e-6;
/// How close a `relocate_strike_point` must be to a point the engine offers.
/// Numbers in expected events match to this (events round distances to two decimals).
const EVENT_NUMBER: f64 = 0.005 + 1e-9;

/// The result of one test.
#[derive(Debug, Clone)]
pub struct TestOutcome {
    pub id: String,
    pub name: String,
    pub failures: Vec<String>,
    pub events: Vec<Event>,
}

impl TestOutcome {
    pub fn passed(&self) -> bool {
        self.failures.is_empty()
    }
}

/// The test's event log, its length shared with the controller (which marks where each step's
/// events begin and end, for a step's `absent:`).
struct Log {
    events: Vec<Event>,
    len: std::rc::Rc<std::cell::Cell<usize>>,
}

impl crate::event::Sink for Log {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, e: Event) {
        self.events.push(e);
        self.len.set(self.events.len());
    }
}

/// The events of one step: `(step index, first event, end)`.
type Span = (usize, usize, usize);

/// Checks due at one moment: `(step index, test id → expected state)`.
type Check<'t> = (usize, &'t BTreeMap<Id, TestModelState>);

/// One action of an activation, with what is checked once it has resolved.
struct Planned<'t> {
    step: usize,
    action: Action,
    ap_left: Option<u32>,
    /// The refusal the step expects (`refused:`).
    refused: Option<&'t str>,
    /// Its own `check:` and the check steps that follow it.
    then: Vec<Check<'t>>,
}

/// The action last handed to the engine, until the engine asks again (or the activation ends).
struct Given<'t> {
    step: usize,
    model: usize,
    ap_left: Option<u32>,
    refused: Option<&'t str>,
    then: Vec<Check<'t>>,
    ap_before: u32,
    cost: u32,
}

/// Plays back a test's actions and choices.
struct Scripted<'t> {
    t: &'t Test,
    ids: &'t HashMap<String, usize>,
    plan: VecDeque<Planned<'t>>,
    given: Option<Given<'t>>,
    /// Checks of the last action of the activation, made once the activation has ended.
    after: Vec<Check<'t>>,
    /// Weapons each model fires when it may react (defensive or over-watch fire).
    reactions: HashMap<usize, Vec<usize>>,
    choices: HashMap<usize, &'t TestChoices>,
    /// Choices the engine offered: (model, what).
    offered: HashSet<(usize, String)>,
    failures: Vec<String>,
    /// The log's length, and where the action given last began in it.
    log_len: std::rc::Rc<std::cell::Cell<usize>>,
    began: Option<(usize, usize)>,
    /// Where each step's events lie in the log.
    spans: Vec<Span>,
}

impl<'t> Scripted<'t> {
    fn new(t: &'t Test, ids: &'t HashMap<String, usize>) -> Self {
        let by_model = |k: &Id| ids.get(k.as_str()).copied();
        Scripted {
            t,
            ids,
            plan: VecDeque::new(),
            given: None,
            after: Vec::new(),
            reactions: t.reactions.iter().filter_map(|(k, v)| by_model(k).map(|i| (i, v.clone()))).collect(),
            choices: t.choices.iter().filter_map(|(k, v)| by_model(k).map(|i| (i, v))).collect(),
            offered: HashSet::new(),
            failures: Vec::new(),
            log_len: Default::default(),
            began: None,
            spans: Vec::new(),
        }
    }

    /// The step whose action was given last has ended here.
    fn close_span(&mut self) {
        if let Some((step, from)) = self.began.take() {
            self.spans.push((step, from, self.log_len.get()));
        }
    }

    fn name(&self, model: usize) -> String {
        self.ids.iter().find(|(_, i)| **i == model).map_or_else(|| format!("#{model}"), |(k, _)| k.clone())
    }

    /// The action last given has resolved: check the AP left (`ap_now` when the engine asked
    /// again, else what its cost left), and make its checks now or after the activation.
    fn settle(&mut self, game: &Game, g: Given<'t>, ap_now: Option<u32>, checks_now: bool) {
        if let Some(want) = g.refused {
            self.failures
                .push(format!("step {}: the rules took the action, expected a refusal containing {want:?}", g.step));
        }
        if let Some(want) = g.ap_left {
            let got = ap_now.unwrap_or(g.ap_before.saturating_sub(g.cost));
            if got != want {
                let who = self.name(g.model);
                self.failures.push(format!("step {}: `{who}` has {got} action points left, expected {want}", g.step));
            }
        }
        if checks_now {
            for (step, want) in g.then {
                check_models(game, self.ids, want, &format!("step {step} check: "), &mut self.failures);
            }
        } else {
            self.after.extend(g.then);
        }
    }

    /// After the test: every choice it gives must have come up.
    fn unused_choices(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (id, c) in &self.t.choices {
            let Some(&m) = self.ids.get(id.as_str()) else { continue };
            let was = |what: &str| self.offered.contains(&(m, what.to_owned()));
            if c.defensive_fire.is_some() && !was("defensive-fire") {
                out.push(format!("choices.{id}.defensive_fire: the engine never offered `{id}` defensive fire"));
            }
            if let Some(o) = &c.overwatch {
                if o.weapons.is_empty() && !was("overwatch-offered") {
                    out.push(format!("choices.{id}.overwatch: `{id}` never had the chance to fire on over-watch"));
                } else if !o.weapons.is_empty() && !was("overwatch") {
                    let at = o.at.map_or(String::new(), |[x, y]| format!(" with the mover at ({x}, {y})"));
                    out.push(format!("choices.{id}.overwatch: `{id}` never fired on over-watch{at}"));
                }
            }
            if c.ambush_at.is_some() && !was("ambush") {
                out.push(format!("choices.{id}.ambush_at: `{id}` was never placed from ambush"));
            }
            if c.jump_at.is_some() && !was("airborne-jump") {
                out.push(format!("choices.{id}.jump_at: `{id}` never rode an aircraft in flight as it moved"));
            }
            if c.self_destruct && !was("self-destruct") {
                out.push(format!("choices.{id}.self_destruct: `{id}` had no missile in flight as it activated"));
            }
            if c.close_defense && !was("close-defense") {
                out.push(format!(
                    "choices.{id}.close_defense: the engine never offered `{id}` its close-defense reaction"
                ));
            }
            if !c.counter_battery.is_empty() && !was("counter-battery") {
                out.push(format!("choices.{id}.counter_battery: the engine never offered `{id}` counter-battery fire"));
            }
            if c.relocate_strike_point.is_some() && !was("relocate") {
                out.push(format!(
                    "choices.{id}.relocate_strike_point: the engine never asked `{id}` where to move a fumbled strike point"
                ));
            }
            for sa in &c.decline {
                if !was(&format!("sa:{sa}")) {
                    out.push(format!(
                        "choices.{id}.decline: declining `{sa}` had no effect: the engine never asked `{id}` whether to use it (Controller::use_special_attribute)"
                    ));
                }
            }
        }
        out
    }
}

impl Controller for Scripted<'_> {
    fn decide(&mut self, game: &Game, model: usize, ap: u32) -> Action {
        let next = self.plan.pop_front();
        if let Some(g) = self.given.take() {
            self.settle(game, g, Some(ap), next.is_some());
        }
        let Some(p) = next else { return Action::pass() };
        self.close_span();
        self.began = Some((p.step, self.log_len.get()));
        let cost = actions::find(p.action.kind).and_then(|k| actions::cost_of(k, game, model, &p.action)).unwrap_or(0);
        self.given = Some(Given {
            step: p.step,
            model,
            ap_left: p.ap_left,
            refused: p.refused,
            then: p.then,
            ap_before: ap,
            cost,
        });
        p.action
    }
    fn refused(&mut self, game: &Game, _: usize, reason: &str) -> bool {
        // Only a step that expects the refusal takes it back; any other stops the test with it.
        let Some(g) = self.given.take() else { return false };
        let Some(want) = g.refused else {
            self.given = Some(g);
            return false;
        };
        if !reason.contains(want) {
            self.failures
                .push(format!("step {}: refused because {reason:?}, expected a refusal containing {want:?}", g.step));
        }
        // Its checks see the state the refusal left unchanged.
        for (step, want) in g.then {
            check_models(game, self.ids, want, &format!("step {step} check: "), &mut self.failures);
        }
        true
    }
    fn defensive_fire(&mut self, _: &Game, defender: usize, _: usize) -> Option<Vec<usize>> {
        if let Some(w) = self.choices.get(&defender).and_then(|c| c.defensive_fire.as_ref()) {
            self.offered.insert((defender, "defensive-fire".into()));
            return if w.is_empty() { None } else { Some(w.clone()) };
        }
        self.reactions.get(&defender).cloned()
    }
    fn ambush_at(&mut self, game: &Game, model: usize) -> Option<P> {
        match self.choices.get(&model).and_then(|c| c.ambush_at) {
            Some([x, y]) => {
                self.offered.insert((model, "ambush".into()));
                Some(P::new(x, y))
            }
            None => game.ambush_spots(model).first().copied(),
        }
    }
    fn airborne_jump(&mut self, _: &Game, rider: usize, _: usize) -> Option<P> {
        self.offered.insert((rider, "airborne-jump".into()));
        self.choices.get(&rider).and_then(|c| c.jump_at).map(|[x, y]| P::new(x, y))
    }
    fn self_destruct(&mut self, _: &Game, caller: usize, _: usize) -> bool {
        self.offered.insert((caller, "self-destruct".into()));
        self.choices.get(&caller).is_some_and(|c| c.self_destruct)
    }
    fn close_defense(&mut self, _: &Game, model: usize, _: usize) -> bool {
        self.offered.insert((model, "close-defense".into()));
        self.choices.get(&model).is_some_and(|c| c.close_defense)
    }
    fn counter_battery(&mut self, _: &Game, model: usize, _: usize) -> Option<Vec<usize>> {
        self.offered.insert((model, "counter-battery".into()));
        match self.choices.get(&model).map(|c| &c.counter_battery).filter(|w| !w.is_empty()) {
            Some(w) => Some(w.clone()),
            None => self.reactions.get(&model).cloned(),
        }
    }
    fn overwatch_fire(&mut self, game: &Game, watcher: usize, mover: usize) -> Option<Vec<usize>> {
        if let Some(o) = self.choices.get(&watcher).and_then(|c| c.overwatch.as_ref()) {
            self.offered.insert((watcher, "overwatch-offered".into()));
            if o.weapons.is_empty() {
                return None;
            }
            if let Some([x, y]) = o.at
                && game.models[mover].pos.dist(P::new(x, y)) > OVERWATCH_AT
            {
                return None;
            }
            self.offered.insert((watcher, "overwatch".into()));
            return Some(o.weapons.clone());
        }
        self.reactions.get(&watcher).cloned()
    }
    fn relocate_strike_point(&mut self, _: &Game, _: usize, defender: usize, _: &[P]) -> Option<P> {
        // Any point: the engine refuses an illegal one, naming why.
        let [x, y] = self.choices.get(&defender)?.relocate_strike_point?;
        self.offered.insert((defender, "relocate".into()));
        Some(P::new(x, y))
    }
    fn spend_c3(&mut self, _: &Game, model: usize, what: cav_format::vocab::C3Use) -> bool {
        self.choices.get(&model).is_some_and(|c| c.spend_c3.contains(&what))
    }
    fn use_special_attribute(&mut self, _: &Game, model: usize, sa: &str, _: Option<usize>, _: Option<usize>) -> bool {
        let Some(c) = self.choices.get(&model) else { return true };
        if c.decline.iter().any(|d| d.as_str() == sa) {
            self.offered.insert((model, format!("sa:{sa}")));
            return false;
        }
        true
    }
}

pub fn run_test(rules: &Rules, t: &Test) -> TestOutcome {
    run_test_with(rules, t, &mut NoHooks)
}

pub fn run_test_with(rules: &Rules, t: &Test, hooks: &mut dyn Hooks) -> TestOutcome {
    let mut out = TestOutcome { id: t.id.0.clone(), name: t.name.clone(), failures: Vec::new(), events: Vec::new() };
    // Models with upgrades play fitted cards, added to a copy of the rules for this test.
    let fitted;
    let rules = if t.models.iter().any(|m| !m.upgrades.is_empty()) {
        let mut own = rules.clone();
        for m in &t.models {
            if let Err(e) = fitted_card(&mut own, m) {
                // As with set-up, a test may expect the fitting refused.
                if !t.expect.error.as_ref().is_some_and(|want| e.contains(want.as_str())) {
                    out.failures.push(e);
                }
                return out;
            }
        }
        fitted = own;
        &fitted
    } else {
        rules
    };
    match setup(rules, t) {
        Ok((game, ids)) => play(t, game, &ids, hooks, &mut out),
        // A test may expect its own set-up to be refused (bad input must give a clear error).
        Err(e) => match &t.expect.error {
            Some(want) if e.contains(want.as_str()) => {}
            _ => out.failures.push(e),
        },
    }
    out
}

/// The card a test model plays: its model's, with its upgrades fitted (added to `rules`).
fn fitted_card(rules: &mut Rules, spec: &cav_format::TestModel) -> Result<usize, String> {
    let card = rules
        .card(spec.model.as_str())
        .ok_or_else(|| format!("model `{}`: unknown model `{}`", spec.id, spec.model))?;
    let ups = fittings(rules, spec)?;
    Ok(rules.fit(card, &ups))
}

fn fittings<'t>(rules: &Rules, spec: &'t cav_format::TestModel) -> Result<Vec<Fitting<'t>>, String> {
    let switched = spec
        .upgrades
        .iter()
        .filter(|u| rules.upgrade(u.id().as_str()).is_some_and(|ix| rules.upgrades[ix].switch.is_some()))
        .count();
    if switched > crate::compile::Switch::MAX {
        return Err(format!(
            "model `{}`: at most {} upgrades switched on by the Special action on one model",
            spec.id,
            crate::compile::Switch::MAX
        ));
    }
    spec.upgrades
        .iter()
        .map(|u| {
            let ix = rules
                .upgrade(u.id().as_str())
                .ok_or_else(|| format!("model `{}`: unknown upgrade `{}`", spec.id, u.id()))?;
            let up = &rules.upgrades[ix];
            if up.choose_grant {
                let card = rules.card(spec.model.as_str()).map(|c| &rules.cards[c]);
                let carried = u.weapon().is_some_and(|w| card.is_some_and(|c| c.weapons.iter().any(|m| m.weapon == w.as_str())));
                let granted = u.choice().is_some_and(|c| up.grants.iter().any(|(sa, _)| rules.sas[*sa as usize].id == c.as_str()));
                if !carried || !granted {
                    return Err(format!(
                        "model `{}`: {} grants one of its special attributes to one weapon type: give `weapon:` (one it carries) and `choice:` (one of its grants)",
                        spec.id, up.name
                    ));
                }
            }
            if let Some(v) = u.variant()
                && !up.variants.iter().any(|x| x.0 == v.as_str())
            {
                let ids: Vec<&str> = up.variants.iter().map(|x| x.0.as_str()).collect();
                return Err(format!("model `{}`: {} has no variant `{v}` (its variants: {})", spec.id, up.name, ids.join(", ")));
            }
            if u.times() > 1 && !up.repeatable {
                return Err(format!("model `{}`: {} is bought once per model: `times` is for repeatable upgrades", spec.id, up.name));
            }
            Ok(Fitting {
                upgrade: ix,
                weapon: u.weapon().map(|w| w.as_str()),
                choice: u.choice().map(|c| c.as_str()),
                variant: u.variant().map(|v| v.as_str()),
                times: u.times(),
            })
        })
        .collect()
}

pub(crate) fn setup<'r>(rules: &'r Rules, t: &Test) -> Result<(Game<'r>, HashMap<String, usize>), String> {
    if t.models.len() > cav_format::limits::MAX_MODELS {
        return Err(format!(
            "the test places {} models, more than the {} a game may hold",
            t.models.len(),
            cav_format::limits::MAX_MODELS
        ));
    }
    let mut areas = Vec::new();
    // Minefields, laid once the sides are known: (asset, side id, template).
    let mut minefields = Vec::new();
    for (i, a) in t.terrain.iter().enumerate() {
        let mines = a.asset.as_ref().and_then(|id| rules.assets.iter().position(|x| x.id == id.as_str()));
        if let Some(ix) = mines.filter(|&ix| rules.assets[ix].mines.is_some()) {
            let Some(side) = &a.side else {
                return Err(format!("terrain {i}: minefield `{}` needs the `side` that laid it", rules.assets[ix].id));
            };
            let area = match (a.at, a.radius, a.polygon.is_empty()) {
                (Some([x, y]), Some(r), true) => Polygon::regular(P::new(x, y), r, 24),
                (None, None, false) => Polygon { points: a.polygon.iter().map(|[x, y]| P::new(*x, *y)).collect() },
                _ => return Err(format!("terrain {i}: give either `at` and `radius`, or `polygon`")),
            };
            minefields.push((ix, side.as_str(), area));
            continue;
        }
        if a.side.is_some() {
            return Err(format!("terrain {i}: only a minefield is laid by a side (`side`)"));
        }
        let terrain = match (&a.terrain, &a.asset) {
            (Some(id), None) => {
                rules.terrain(id.as_str()).ok_or_else(|| format!("terrain {i}: unknown terrain `{id}`"))?
            }
            (None, Some(id)) => match rules.assets.iter().find(|a| a.id == id.as_str()).map(|a| a.terrain) {
                Some(Some(t)) => t,
                Some(None) => {
                    return Err(format!("terrain {i}: asset `{id}` is not a terrain piece (it has no `terrain:`)"));
                }
                None => return Err(format!("terrain {i}: unknown asset `{id}`")),
            },
            _ => return Err(format!("terrain {i}: give either `terrain` or `asset`")),
        };
        let (poly, center, radius) = match (a.at, a.radius, a.polygon.is_empty()) {
            (Some([x, y]), Some(r), true) => (Polygon::regular(P::new(x, y), r, 24), P::new(x, y), r),
            (None, None, false) => {
                let pts: Vec<P> = a.polygon.iter().map(|[x, y]| P::new(*x, *y)).collect();
                let c = pts.iter().fold(P::default(), |acc, p| acc + *p).scale(1.0 / pts.len() as f64);
                let r = pts.iter().map(|p| p.dist(c)).fold(0.0, f64::max);
                (Polygon { points: pts }, c, r)
            }
            _ => return Err(format!("terrain {i}: give either `at` and `radius`, or `polygon`")),
        };
        areas.push(Area { terrain, poly, center, radius, lasts: None });
    }
    let mut sides: Vec<String> = Vec::new();
    for spec in &t.models {
        if !sides.contains(&spec.side.0) {
            sides.push(spec.side.0.clone());
        }
    }
    let mut game = Game::new(rules, Board { size: t.board, areas }, sides.clone());
    for (side, points) in &t.c3 {
        if let Some(i) = sides.iter().position(|s| s == side.as_str()) {
            game.c3[i] = *points;
        }
    }
    let c3_from_models = t.c3.is_empty();
    if !t.zones.is_empty() {
        game.zones = vec![None; sides.len()];
        for (side, z) in &t.zones {
            let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
                return Err(format!("zones: no model is on side `{side}`"));
            };
            game.zones[i] = Some(P::new(z.x + z.width / 2.0, z.y + z.height / 2.0));
        }
    }
    for (side, pools) in &t.strike_pools {
        if let Some(i) = sides.iter().position(|s| s == side.as_str()) {
            game.strike_pools[i] = pools.clone();
        }
    }
    for (side, pieces) in &t.ambush_pieces {
        let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
            return Err(format!("ambush_pieces: no model is on side `{side}`"));
        };
        let allowed = rules.proc.setup.ambush.as_ref().map(|a| &a.pieces[..]).unwrap_or_default();
        for id in pieces {
            let Some(ix) = rules.assets.iter().position(|a| a.id == id.as_str()) else {
                return Err(format!("ambush_pieces: unknown asset `{id}`"));
            };
            if !allowed.iter().any(|p| p.asset == *id) || rules.assets[ix].piece.is_none() {
                return Err(format!(
                    "ambush_pieces: `{id}` is not a piece an ambushing model may bring (`setup.ambush.pieces`)"
                ));
            }
            game.ambush_pieces[i].push((ix, None));
        }
    }
    for (side, assets) in &t.assets {
        let Some(i) = sides.iter().position(|s| s == side.as_str()) else {
            return Err(format!("assets: no model is on side `{side}`"));
        };
        for (id, &count) in assets {
            let Some(ix) = rules.assets.iter().position(|a| a.id == id.as_str()) else {
                return Err(format!("assets: unknown asset `{id}`"));
            };
            if !rules.assets[ix].held() {
                return Err(format!(
                    "assets: `{id}` does nothing from a side's hand: place it with `terrain: [{{asset: {id}, …}}]`"
                ));
            }
            game.held[i].push((ix, count));
        }
    }
    let mut ids = HashMap::new();
    for spec in &t.models {
        let card = rules
            .card(spec.model.as_str())
            .map(|c| rules.fitted_id(c, &fittings(rules, spec).unwrap_or_default()))
            .and_then(|id| rules.card(&id))
            .ok_or_else(|| format!("model `{}`: unknown model `{}`", spec.id, spec.model))?;
        let [x, y] = spec.at;
        if x < 0.0 || y < 0.0 || x > t.board[0] || y > t.board[1] {
            return Err(format!(
                "model `{}` at ({x}, {y}) is off the {}\"×{}\" board",
                spec.id, t.board[0], t.board[1]
            ));
        }
        let pos = P::new(x, y);
        let r = rules.cards[card].base_radius;
        // A rider is not on the table, so it overlaps nothing.
        let riding = |id: &str| t.models.iter().any(|m| m.id.as_str() == id && m.aboard.is_some());
        if let Some((other, _)) = ids.iter().find(|(id, i): &(&String, &usize)| {
            let o: &crate::game::Model = &game.models[**i];
            spec.aboard.is_none()
                && !riding(id.as_str())
                && o.pos.dist(pos) < r + rules.cards[o.card].base_radius - 1e-9
        }) {
            return Err(format!("model `{}` overlaps model `{other}`", spec.id));
        }
        let side = sides.iter().position(|s| *s == spec.side.0).unwrap_or(0);
        let ix = game.add_model(card, side, pos, spec.facing);
        game.place_emplacement(ix, 1);
        ids.insert(spec.id.0.clone(), ix);
        if c3_from_models && let Some(c3) = rules.c3_sa {
            let rating: i32 = rules.cards[card].sas.iter().filter(|(s, _)| *s == c3).map(|(_, r)| (*r).max(0)).sum();
            game.c3[side] = game.c3[side].saturating_add(rating as u32);
        }
        let me = &mut game.models[ix];
        me.damage = spec.damage;
        me.prone = spec.prone;
        me.landed = spec.landed;
        for s in &spec.states {
            let st = rules.state(s.as_str()).ok_or_else(|| format!("model `{}`: unknown state `{s}`", spec.id))?;
            // A state given by the test lasts through the model's next activation at least.
            me.states.push((
                st,
                if rules.states[st as usize].duration == cav_format::StateDuration::Permanent { u32::MAX } else { 1 },
            ));
        }
        for &w in &spec.out_of_ammo {
            let n = me.out_of_ammo.len();
            *me.out_of_ammo
                .get_mut(w)
                .ok_or_else(|| format!("model `{}`: out_of_ammo: no weapon mount {w} (it has {n})", spec.id))? = true;
        }
        if let Some(n) = spec.ammo_reserve {
            me.ammo_reserve = n;
        }
        if spec.overwatch {
            me.mark(&OVERWATCH);
        }
        if spec.ambush {
            if !crate::setup::ambusher(rules, card) {
                return Err(format!(
                    "model `{}` is held back in ambush without the ruleset's ambush special attribute",
                    spec.id
                ));
            }
            (me.ambush, me.waiting) = (true, Some(1));
        }
        // A model fitted for an orbital drop waits off the table (its `at` is not used) and
        // lands as it activates.
        if game.drops_in(card) {
            let me = &mut game.models[ix];
            (me.dropping, me.waiting) = (true, Some(1));
        }
    }
    let mut squads: Vec<(&str, usize, Vec<usize>)> = Vec::new();
    for spec in t.models.iter().filter(|m| m.squad.is_some()) {
        let (name, ix) = (spec.squad.as_ref().map_or("", |s| s.as_str()), ids[spec.id.as_str()]);
        let side = game.models[ix].side;
        match squads.iter_mut().find(|(n, s, _)| *n == name && *s == side) {
            Some((_, _, members)) => members.push(ix),
            None => squads.push((name, side, vec![ix])),
        }
    }
    for (name, ty) in &t.squad_types {
        if !squads.iter().any(|(n, _, _)| *n == name.as_str()) {
            return Err(format!("squad_types: no model is in squad `{name}`"));
        }
        if !rules.squad_types.iter().any(|(id, _)| id == ty.as_str()) {
            let known: Vec<&str> = rules.squad_types.iter().map(|(id, _)| id.as_str()).collect();
            return Err(format!("squad_types: `{ty}` is not a squad type of the ruleset ({})", known.join(", ")));
        }
    }
    for (name, _, members) in squads {
        let kind = t.squad_types.iter().find(|(n, _)| n.as_str() == name).map_or(String::new(), |(_, ty)| ty.0.clone());
        game.add_squad(name.to_owned(), kind, members);
    }
    crate::setup::composition(&game)?;
    for (asset, side, area) in minefields {
        let Some(side) = sides.iter().position(|s| s == side) else {
            return Err(format!("terrain: no model is on side `{side}`, which lays a minefield"));
        };
        game.lay_minefield(asset, Some(side), side, area, None)?;
    }
    let contact = rules.proc.movement.contact_distance;
    for spec in &t.models {
        let me = ids[spec.id.as_str()];
        if let Some(l) = &spec.lock {
            let target =
                *ids.get(l.as_str()).ok_or_else(|| format!("model `{}` locks on to unknown model `{l}`", spec.id))?;
            game.models[me].lock = Some(target);
        }
        if let Some(t) = &spec.aboard {
            let t = *ids.get(t.as_str()).ok_or_else(|| format!("model `{}` rides in unknown model `{t}`", spec.id))?;
            if t == me || game.models[t].side != game.models[me].side {
                return Err(format!("model `{}` must ride in a friendly model", spec.id));
            }
            game.models[me].aboard = Some(t);
            game.models[me].pos = game.models[t].pos;
        }
        for other in &spec.engaged_with {
            let o = *ids
                .get(other.as_str())
                .ok_or_else(|| format!("model `{}` is engaged with unknown model `{other}`", spec.id))?;
            if game.models[o].side == game.models[me].side {
                return Err(format!("model `{}` is engaged with `{other}` of its own side", spec.id));
            }
            if game.distance(me, o) > contact + 1e-9 {
                return Err(format!(
                    "model `{}` is engaged with `{other}` but not in base contact ({:.2}\" apart)",
                    spec.id,
                    game.distance(me, o)
                ));
            }
            game.models[me].mark(&ENGAGED);
            game.models[o].mark(&ENGAGED);
        }
    }
    Ok((game, ids))
}

/// What is wrong with a step's shape, if anything.
fn step_shape(step: &TestStep) -> Option<String> {
    match (step.action.as_ref().map(|a| a.as_str()), &step.model) {
        (None, _) if step.squad.is_some() => Some("`squad:` belongs to `squad-activation`".into()),
        (None, Some(m)) => {
            Some(format!("a step without `do:` is a check and names no model (`{m}`); give the models inside `check:`"))
        }
        (None, None) if step.check.is_empty() => Some("a step needs `do:` or `check:`".into()),
        (None, None) if !step.absent.is_empty() => {
            Some("`absent:` belongs to a step that acts (`do:`): a check step has no events of its own".into())
        }
        (Some(a @ (NEXT_TURN | PLAY_TURN | SQUAD_ACTIVATION | END_SQUAD_ACTIVATION)), Some(m)) => {
            Some(format!("`{a}` is not a model's action; drop `model: {m}`"))
        }
        (Some(SQUAD_ACTIVATION), None) if step.squad.is_none() => {
            Some("`squad-activation` needs the `squad:` that activates".into())
        }
        (Some(a), _) if a != SQUAD_ACTIVATION && step.squad.is_some() => {
            Some(format!("`squad:` belongs to `squad-activation`, not `{a}`"))
        }
        (Some(a), None) if !matches!(a, NEXT_TURN | PLAY_TURN | SQUAD_ACTIVATION | END_SQUAD_ACTIVATION) => {
            Some(format!("`{a}` needs the `model:` that acts"))
        }
        (Some(a), _) if a != cav_format::vocab::ActionKind::Special.id() && step.option.is_some() => {
            Some(format!("`option:` belongs to `special`, not `{a}`"))
        }
        (Some(END), _) if !step.absent.is_empty() => {
            Some("`absent:` on `end`: give it to the action before, whose span runs to the activation's end".into())
        }
        _ => None,
    }
}

fn play(t: &Test, game: Game, ids: &HashMap<String, usize>, hooks: &mut dyn Hooks, out: &mut TestOutcome) {
    let mut dice = ForcedDice::new(t.dice.iter().copied()).with_directions(t.drift_directions.iter().copied());
    let mut ctrl = Scripted::new(t, ids);
    let mut log = Log { events: Vec::new(), len: ctrl.log_len.clone() };
    let mut error = None;
    {
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks };
        // The game begins (`game_setup` handlers run) and its first turn starts (`draw_deck`).
        if let Err(e) = engine.start().and_then(|_| engine.begin_turn()) {
            error = Some(e.to_string());
        }
        for spec in t.models.iter().filter(|m| m.activated) {
            engine.game.models[ids[spec.id.as_str()]].activated = true;
        }
        // Consecutive steps of one model form one activation; `end` closes it early.
        let mut i = 0;
        // The squad whose activation is open (`squad-activation`).
        let mut squad: Option<usize> = None;
        while i < t.steps.len() && error.is_none() {
            let step = &t.steps[i];
            if let Some(e) = step_shape(step) {
                error = Some(format!("step {i}: {e}"));
                break;
            }
            let Some(action) = step.action.as_ref() else {
                check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
                i += 1;
                continue;
            };
            let from = ctrl.log_len.get();
            // A squad's activation ends before anything but its models' steps.
            let member = step
                .model
                .as_ref()
                .and_then(|m| ids.get(m.as_str()))
                .is_some_and(|&m| squad.is_some_and(|s| engine.game.squads[s].members.contains(&m)));
            if squad.is_some() && !member {
                squad = None;
                if let Err(e) = engine.end_squad_activation() {
                    error = Some(e.to_string());
                    break;
                }
                if action.as_str() == END_SQUAD_ACTIVATION {
                    ctrl.spans.push((i, from, ctrl.log_len.get()));
                    check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
                    i += 1;
                    continue;
                }
            }
            if action.as_str() == END_SQUAD_ACTIVATION {
                error = Some(format!("step {i}: no squad activation is open (`squad-activation` begins one)"));
                break;
            }
            if action.as_str() == SQUAD_ACTIVATION {
                let name = step.squad.as_ref().map_or("", |s| s.as_str());
                let Some(s) = engine.game.squads.iter().position(|q| q.name == name) else {
                    error = Some(format!("step {i}: no model is in squad `{name}`"));
                    break;
                };
                let q = &engine.game.squads[s];
                let e = Event::SquadActivation {
                    squad: q.name.clone(),
                    side: engine.game.sides[q.side].clone(),
                    models: q.members.len() as u32,
                };
                // As a turn plays it: what its models do lands when all have acted.
                engine.game.squad_activating = q.members.len() > 1;
                engine.log.push(e);
                squad = Some(s);
                ctrl.spans.push((i, from, ctrl.log_len.get()));
                check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
                i += 1;
                continue;
            }
            if action.as_str() == PLAY_TURN {
                // Every model passes: the plan holds no action for a drawn card. The turn after
                // starts, as after `next-turn`.
                let turn =
                    engine.end_turn().and_then(|_| engine.play_turn(&mut ctrl)).and_then(|_| engine.begin_turn());
                if let Err(e) = turn {
                    error = Some(e.to_string());
                    break;
                }
                ctrl.spans.push((i, from, ctrl.log_len.get()));
                check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
                i += 1;
                continue;
            }
            if action.as_str() == NEXT_TURN {
                if let Err(e) = engine.end_turn().and_then(|_| engine.begin_turn()) {
                    error = Some(e.to_string());
                    break;
                }
                ctrl.spans.push((i, from, ctrl.log_len.get()));
                check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
                i += 1;
                continue;
            }
            // Consecutive actions of one model form one activation; `end` closes it early. A
            // check step belongs to the action before it.
            let model_id = step.model.clone().unwrap_or_default();
            let Some(&model) = ids.get(model_id.as_str()) else {
                error = Some(format!("step {i}: unknown model `{model_id}`"));
                break;
            };
            let mut plan: Vec<Planned> = Vec::new();
            let mut closing: Vec<Check> = Vec::new();
            while i < t.steps.len() {
                let step = &t.steps[i];
                if step_shape(step).is_some() {
                    break;
                }
                let Some(action) = step.action.as_ref() else {
                    match plan.last_mut() {
                        Some(p) => p.then.push((i, &step.check)),
                        None => closing.push((i, &step.check)),
                    }
                    i += 1;
                    continue;
                };
                if action.as_str() == NEXT_TURN || step.model.as_ref() != Some(&model_id) {
                    break;
                }
                i += 1;
                if action.as_str() == END {
                    if !step.check.is_empty() {
                        closing.push((i - 1, &step.check));
                    }
                    break;
                }
                match step_action(step, ids, &engine.game) {
                    Ok(a) => {
                        let then = if step.check.is_empty() { vec![] } else { vec![(i - 1, &step.check)] };
                        plan.push(Planned {
                            step: i - 1,
                            action: a,
                            ap_left: step.ap_left,
                            refused: step.refused.as_deref(),
                            then,
                        })
                    }
                    Err(e) => {
                        error = Some(format!("step {}: {e}", i - 1));
                        break;
                    }
                }
            }
            if error.is_some() {
                break;
            }
            let n = plan.len();
            ctrl.plan = plan.into();
            let activated = engine.activate(model, &mut ctrl);
            ctrl.close_span();
            if let Err(e) = activated {
                error = Some(e.to_string());
            } else if !ctrl.plan.is_empty() {
                let left = ctrl.plan.len();
                error = Some(format!("{left} of {n} actions of `{model_id}` were not taken (out of action points?)"));
            } else {
                if let Some(g) = ctrl.given.take() {
                    ctrl.settle(&engine.game, g, None, false);
                }
                let after: Vec<Check> = std::mem::take(&mut ctrl.after).into_iter().chain(closing).collect();
                for (step, want) in after {
                    check_models(&engine.game, ids, want, &format!("step {step} check: "), &mut ctrl.failures);
                }
            }
            ctrl.given = None;
            ctrl.after.clear();
        }
        if squad.is_some()
            && error.is_none()
            && let Err(e) = engine.end_squad_activation()
        {
            error = Some(e.to_string());
        }
        let game = &engine.game;
        check_models(game, ids, &t.expect.models, "", &mut out.failures);
    }
    out.failures.append(&mut ctrl.failures);
    match (&t.expect.error, &error) {
        (Some(want), Some(got)) if !got.contains(want.as_str()) => {
            out.failures.push(format!("expected an error containing {want:?}, got: {got}"))
        }
        (Some(want), None) => {
            out.failures.push(format!("expected an error containing {want:?}, but the test ran through"))
        }
        (None, Some(got)) => out.failures.push(format!("stopped with an error: {got}")),
        (None, None) => out.failures.extend(ctrl.unused_choices()),
        _ => {}
    }
    if dice.exhausted {
        out.failures.push(format!("the {} forced dice ran out ({} rolls were asked for)", t.dice.len(), dice.used));
    } else if t.expect.all_dice_used && dice.remaining() > 0 && t.expect.error.is_none() {
        out.failures.push(format!("{} of the forced dice were not used", dice.remaining()));
    }
    if dice.directions_left() > 0 && t.expect.error.is_none() {
        out.failures
            .push(format!("{} of the drift directions were not used (no drift took them)", dice.directions_left()));
    }
    check_events(t, &log.events, ids, &mut out.failures);
    check_step_absent(t, &log.events, &ctrl.spans, ids, &mut out.failures);
    out.events = log.events;
}

/// The action a step names (by the engine's action names: [`actions::ALL`]) with what it gives.
fn step_action(step: &TestStep, ids: &HashMap<String, usize>, game: &Game) -> Result<Action, String> {
    let name = step.action.as_ref().map_or("", |a| a.as_str());
    // `strike:` names the strike a caller's card carries as a mount (`CardDef::arm_strikes`).
    let mut weapons = step.weapons.clone();
    if let Some(strike) = &step.strike {
        let model = step.model.as_ref().and_then(|m| ids.get(m.as_str())).copied();
        let card = model.map(|m| game.card(m));
        let mount = card.and_then(|c| {
            c.weapons
                .iter()
                .position(|w| w.strike.is_some_and(|s| game.rules.strikes[s as usize].id == strike.as_str()))
        });
        match mount {
            Some(m) => weapons = vec![m],
            None => {
                return Err(format!(
                    "`{name}`: the model carries no strike `{strike}` (a strike caller with the ruleset's caller special attribute carries every strike)"
                ));
            }
        }
    }
    let Some(kind) = actions::find(name) else {
        let known: Vec<&str> = actions::ALL.iter().map(|k| k.name()).collect();
        return Err(format!(
            "unknown action `{name}` (known: {}, {END}, {NEXT_TURN}, {PLAY_TURN}, {SQUAD_ACTIVATION}, {END_SQUAD_ACTIVATION})",
            known.join(", ")
        ));
    };
    let target = match &step.target {
        Some(id) => Some(*ids.get(id.as_str()).ok_or_else(|| format!("`{name}`: unknown target `{id}`"))?),
        None => None,
    };
    let mut split = Vec::with_capacity(step.split.len());
    for s in &step.split {
        let t = *ids.get(s.target.as_str()).ok_or_else(|| format!("`{name}`: unknown split target `{}`", s.target))?;
        split.push((t, s.weapons.clone()));
    }
    Ok(Action {
        kind: kind.name(),
        target,
        to: step.to.map(|[x, y]| P::new(x, y)),
        via: step.via.map(|[x, y]| P::new(x, y)),
        path: step.path.iter().map(|&[x, y]| P::new(x, y)).collect(),
        weapons,
        split,
        noe: step.noe,
        indirect: step.indirect,
        inspire: step.inspire,
        moves: step.moves.unwrap_or(1),
        option: step.option.as_ref().map(|o| o.0.clone()),
    })
}

/// Compare models with what is expected of them; `at` says where (a step's check, or the end).
fn check_models(
    game: &Game,
    ids: &HashMap<String, usize>,
    wants: &BTreeMap<Id, TestModelState>,
    at: &str,
    failures: &mut Vec<String>,
) {
    for (id, want) in wants {
        let Some(&model) = ids.get(id.as_str()) else {
            failures.push(format!("{at}unknown model `{id}`"));
            continue;
        };
        for f in model_differences(game, ids, model, want) {
            failures.push(format!("{at}`{id}` {f}"));
        }
    }
}

/// Each way `model` differs from `want`, as "what: expected X, got Y".
fn model_differences(game: &Game, ids: &HashMap<String, usize>, model: usize, want: &TestModelState) -> Vec<String> {
    let mut out = Vec::new();
    let got = &game.models[model];
    let card = game.card(model);
    let column = game.column(model);
    let name_of = |i: usize| ids.iter().find(|(_, x)| **x == i).map_or_else(|| format!("#{i}"), |(k, _)| k.clone());
    let mut same = |what: &str, want: String, got: String| {
        if want != got {
            out.push(format!("{what}: expected {want}, got {got}"));
        }
    };
    if let Some(d) = want.damage {
        same("damage", d.to_string(), got.damage.to_string());
    }
    if let Some(states) = &want.states {
        let mut have: Vec<&str> = got.states.iter().map(|(s, _)| game.rules.states[*s as usize].id.as_str()).collect();
        let mut want: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
        have.sort_unstable();
        want.sort_unstable();
        same("states", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(d) = want.destroyed {
        same("destroyed", d.to_string(), got.destroyed.to_string());
    }
    if let Some(m) = want.mission_kill {
        same("mission kill", m.to_string(), got.mission_kill.to_string());
    }
    if let Some(m) = want.out_of_action {
        same("out of action", m.to_string(), got.out_of_action.to_string());
    }
    if let Some([x, y]) = want.at
        && got.pos.dist(P::new(x, y)) > 0.01
    {
        same("position", format!("({x}, {y})"), format!("({:.2}, {:.2})", got.pos.x, got.pos.y));
    }
    if let Some(f) = want.facing
        && angle_diff(f, got.facing).abs() > 0.1
    {
        same("facing", format!("{f}°"), format!("{:.1}°", got.facing));
    }
    if let Some(p) = want.prone {
        same("prone", p.to_string(), got.prone.to_string());
    }
    if let Some(l) = &want.lock {
        same("target-lock", l.to_string(), got.lock.map_or_else(|| "none".to_owned(), name_of));
    }
    if let Some(l) = want.landed {
        same("landed", l.to_string(), got.landed.to_string());
    }
    if let Some(n) = want.noe {
        same("nap of the earth", n.to_string(), got.noe.to_string());
    }
    if let Some(t) = &want.aboard {
        same("aboard", t.to_string(), got.aboard.map_or_else(|| "none".to_owned(), name_of));
    }
    if let Some(w) = &want.out_of_ammo {
        let mut w = w.clone();
        w.sort_unstable();
        let have: Vec<usize> = (0..got.out_of_ammo.len()).filter(|&k| got.out_of_ammo[k]).collect();
        same("weapons out of ammo", format!("{w:?}"), format!("{have:?}"));
    }
    if let Some(n) = want.ammo_reserve {
        same("ammo-bin uses left", n.to_string(), got.ammo_reserve.to_string());
    }
    if let Some(marks) = &want.marks {
        let mut have: Vec<&str> = got.marks.iter().map(|m| m.name).collect();
        let mut want: Vec<&str> = marks.iter().map(String::as_str).collect();
        have.sort_unstable();
        want.sort_unstable();
        same("marks", format!("{want:?}"), format!("{have:?}"));
    }
    if let Some(a) = want.activated {
        same("activated", a.to_string(), got.activated.to_string());
    }
    if let Some(c) = want.column {
        same("damage column", c.to_string(), column.to_string());
    }
    if let Some(mv) = want.mv {
        same("MV", mv.to_string(), game.move_value(model).to_string());
    }
    if let Some(av) = want.av {
        same("AV", av.to_string(), card.av[column].to_string());
    }
    if let Some(dc) = want.dc {
        same("DC", dc.to_string(), card.dc[column].map_or_else(|| "NA".to_owned(), |v| v.to_string()));
    }
    if let Some(e) = want.elevation {
        same("elevation", e.to_string(), game.elevation(model).to_string());
    }
    if let Some(c) = &want.criticals {
        let got = &game.models[model];
        let mut crit = |what: &str, want: String, have: String| same(&format!("criticals.{what}"), want, have);
        if let Some(v) = c.action_points {
            crit("action_points", v.to_string(), got.crit_ap.to_string());
        }
        if let Some(v) = c.action_points_set {
            crit("action_points_set", format!("{v:?}"), format!("{:?}", got.ap_set));
        }
        if let Some(v) = c.move_value {
            crit("move_value", v.to_string(), got.mv_add.to_string());
        }
        if let Some(v) = c.move_factor {
            crit("move_factor", v.to_string(), got.mv_factor.to_string());
        }
        if let Some(v) = c.combat_modifier {
            // In the table's own convention (to the target point where the ruleset's are).
            crit("combat_modifier", v.to_string(), (got.crit_combat * game.rules.sign).to_string());
        }
        if let Some(v) = c.no_combat {
            crit("no_combat", v.to_string(), got.no_combat.to_string());
        }
        if let Some(v) = c.weapons_zeroed {
            crit("weapons_zeroed", v.to_string(), got.zeroed.to_string());
        }
    }
    for a in &want.against {
        let Some(&other) = ids.get(a.model.as_str()) else {
            out.push(format!("against: unknown model `{}`", a.model));
            continue;
        };
        let o = &a.model;
        let weapon = match a.weapon {
            Some(w) if w >= card.weapons.len() => {
                out.push(format!("against `{o}`: no weapon mount {w} (it has {})", card.weapons.len()));
                continue;
            }
            w => w,
        };
        let needs_weapon = |what: &str| format!("against `{o}`: `{what}` needs `weapon:`");
        let mut same = |what: String, want: String, got: String| {
            if want != got {
                out.push(format!("{what}: expected {want}, got {got}"));
            }
        };
        if let Some(d) = a.distance {
            let got = game.distance(model, other);
            if (got - d).abs() > 0.01 {
                same(format!("distance to `{o}`"), format!("{d}\""), format!("{got:.2}\""));
            }
        }
        let gap = game.distance(model, other);
        if let Some(x) = a.in_contact {
            let got = gap <= game.rules.proc.movement.contact_distance;
            same(format!("in base contact with `{o}`"), x.to_string(), got.to_string());
        }
        if let Some(x) = a.adjacent {
            let got = gap <= game.rules.proc.sight.adjacent_cover;
            same(format!("adjacent to `{o}`"), x.to_string(), got.to_string());
        }
        let w = weapon.map_or(String::new(), |w| format!(" (weapon {w})"));
        match (&a.band, weapon) {
            (Some(_), None) => same(needs_weapon("band"), String::new(), "?".into()),
            (Some(b), Some(k)) => {
                let got = game.band(model, k, other).map_or("none", |x| game.rules.bands[x].name.as_str());
                if !got.eq_ignore_ascii_case(b) {
                    same(format!("range band to `{o}`{w}"), b.clone(), got.to_owned());
                }
            }
            _ => {}
        }
        match (a.rav, weapon) {
            (Some(_), None) => same(needs_weapon("rav"), String::new(), "?".into()),
            (Some(r), Some(k)) => {
                same(format!("RAV against `{o}`{w}"), r.to_string(), game.rav(model, k, other).to_string())
            }
            _ => {}
        }
        match (a.in_arc, weapon) {
            (Some(_), None) => same(needs_weapon("in_arc"), String::new(), "?".into()),
            (Some(x), Some(k)) => {
                same(format!("`{o}` in the arc{w}"), x.to_string(), game.in_arc(model, k, other).to_string())
            }
            _ => {}
        }
        if let Some(c) = a.ccv {
            same(format!("CCV against `{o}`"), c.to_string(), game.ccv(model, other).to_string());
        }
        if a.line_of_sight.is_some() || a.cover.is_some() {
            let (los, cover) = game.sight(model, other, false);
            if let Some(l) = a.line_of_sight {
                same(format!("line of sight to `{o}`"), l.to_string(), los.to_string());
            }
            if let Some(c) = a.cover {
                same(
                    format!("cover against `{o}`"),
                    format!("{c:?}").to_lowercase(),
                    format!("{cover:?}").to_lowercase(),
                );
            }
        }
    }
    out
}

/// An expected event as the log holds it: checked against the declared event kinds, test ids of
/// models replaced by their indexes, points given as `[x, y]` made `{x, y}`.
fn prepare_event(want: &Value, ids: &HashMap<String, usize>) -> Result<Value, String> {
    let Some(obj) = want.as_object() else { return Err(format!("{want} is not a mapping")) };
    let Some(kind) = obj.get("event").and_then(Value::as_str) else { return Err(format!("{want} has no `event:`")) };
    let Some(decl) = EventKind::find(kind) else {
        let known: Vec<&str> = cav_format::EVENT_KINDS.iter().map(|k| k.id).collect();
        return Err(format!("unknown event kind `{kind}` (known: {})", known.join(", ")));
    };
    let mut out = serde_json::Map::new();
    for (key, v) in obj {
        if key == "event" {
            out.insert(key.clone(), v.clone());
            continue;
        }
        let Some(field) = decl.key(key) else {
            let keys: Vec<&str> = decl.keys.iter().map(|(k, _, _)| *k).collect();
            return Err(format!("`{kind}` events have no key `{key}` (they have: {})", keys.join(", ")));
        };
        let v = match (field, v) {
            (EventField::Model | EventField::OptModel, Value::String(name)) => {
                Value::from(*ids.get(name.as_str()).ok_or_else(|| format!("unknown model `{name}`"))?)
            }
            (EventField::Point, Value::Array(xy)) if xy.len() == 2 => serde_json::json!({"x": xy[0], "y": xy[1]}),
            (_, v) => v.clone(),
        };
        out.insert(key.clone(), v);
    }
    Ok(Value::Object(out))
}

/// Where in its test document a failure of [`TestOutcome::failures`] points (a JSON pointer), by
/// the label it starts with: `expect.events[2]`, `expect.absent[0]`, `expect.count[1]`,
/// `step 3 absent[0]`, `step 3 …`, or a model of `expect.models` (`` `blue` … ``).
pub fn failure_pointer(failure: &str) -> Option<String> {
    fn index(s: &str) -> Option<usize> {
        s.split_once(']')?.0.parse().ok()
    }
    for list in ["events", "absent", "count"] {
        if let Some(i) = failure.strip_prefix(&format!("expect.{list}[")).and_then(index) {
            return Some(format!("/expect/{list}/{i}"));
        }
    }
    if let Some(rest) = failure.strip_prefix("step ") {
        let (n, rest) = rest.split_once(|c: char| !c.is_ascii_digit())?;
        let step: usize = n.parse().ok()?;
        if let Some(k) = rest.strip_prefix("absent[").and_then(index) {
            return Some(format!("/steps/{step}/absent/{k}"));
        }
        return Some(format!("/steps/{step}"));
    }
    let id = failure.strip_prefix('`')?.split_once('`')?.0;
    Some(format!("/expect/models/{id}"))
}

/// An event as a test writes it: models by their test ids, not the log's indexes.
fn shown(event: &Value, ids: &HashMap<String, usize>) -> String {
    let Some(obj) = event.as_object() else { return event.to_string() };
    let kind = obj.get("event").and_then(Value::as_str).unwrap_or_default();
    let parts: Vec<String> = obj.iter().map(|(k, v)| format!("{k}: {}", shown_value(kind, k, v, ids))).collect();
    format!("{{{}}}", parts.join(", "))
}

/// One value of an event of `kind`, a model by its test id.
fn shown_value(kind: &str, key: &str, v: &Value, ids: &HashMap<String, usize>) -> String {
    let model =
        matches!(EventKind::find(kind).and_then(|d| d.key(key)), Some(EventField::Model | EventField::OptModel));
    let name = v.as_u64().and_then(|i| ids.iter().find(|(_, x)| **x as u64 == i)).map(|(n, _)| n.clone());
    match (name, v.as_str()) {
        (Some(n), _) if model => n,
        // A plain word as YAML writes it, unquoted.
        (_, Some(w)) if !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '-' || c == '_') => w.to_owned(),
        _ => v.to_string(),
    }
}

/// What came nearest an expected event that did not occur: the event of its kind after `from`
/// (else anywhere) matching most of its keys, with the keys that differ marked.
fn nearest(want: &Value, actual: &[Value], from: usize, ids: &HashMap<String, usize>) -> String {
    let kind = want.get("event");
    let keys: Vec<(&String, &Value)> = want.as_object().into_iter().flatten().filter(|(k, _)| *k != "event").collect();
    let score = |a: &Value| keys.iter().filter(|(k, v)| a.get(k.as_str()).is_some_and(|x| matches(v, x))).count();
    let best = |range: &[Value]| {
        // The first of the best: `max_by_key` keeps the last, so reverse.
        range.iter().rev().filter(|a| a.get("event") == kind).max_by_key(|a| score(a)).cloned()
    };
    let (found, when) = match best(&actual[from.min(actual.len())..]) {
        Some(a) => (a, "nearest"),
        None => match best(actual) {
            Some(a) => (a, "nearest (only earlier, out of order)"),
            None => {
                let kind = kind.and_then(Value::as_str).unwrap_or("?");
                return format!("    no `{kind}` event occurred (`cav test --verbose` tells the game)");
            }
        },
    };
    let differs: Vec<String> = keys
        .iter()
        .filter(|(k, v)| !found.get(k.as_str()).is_some_and(|x| matches(v, x)))
        .map(|(k, v)| {
            let kind = kind.and_then(Value::as_str).unwrap_or_default();
            let got = found.get(k.as_str()).map_or("nothing".to_owned(), |x| shown_value(kind, k, x, ids));
            format!("{k} is {got}, the test expects {}", shown_value(kind, k, v, ids))
        })
        .collect();
    format!("    {when}: {}\n    differs: {}", shown(&found, ids), differs.join("; "))
}

/// Does `actual` contain every key of `want` with an equal value (objects compared recursively,
/// lists item by item, numbers to [`EVENT_NUMBER`])?
fn matches(want: &Value, actual: &Value) -> bool {
    match (want, actual) {
        (Value::Object(w), Value::Object(a)) => w.iter().all(|(k, v)| match a.get(k) {
            Some(x) => matches(v, x),
            // The log leaves out a key the event has no value for (a special action with no
            // target, a hit that nothing changed): `~` or `[]` in a test is that, so an `absent:`
            // of it is not vacuous.
            None => v.is_null() || v.as_array().is_some_and(Vec::is_empty),
        }),
        (Value::Array(w), Value::Array(a)) => w.len() == a.len() && w.iter().zip(a).all(|(w, a)| matches(w, a)),
        (Value::Number(w), Value::Number(a)) => {
            w.as_f64().zip(a.as_f64()).is_some_and(|(w, a)| (w - a).abs() < EVENT_NUMBER)
        }
        (w, a) => w == a,
    }
}

/// Every word of a closed set (`EventField::Word`) the engine wrote is one the event kinds
/// declare: the test schema offers only those, so one missing would make an expectation of it
/// impossible to write and an `absent:` of a misspelt one vacuous. An engine bug, said as one.
fn undeclared_words(actual: &[Value], failures: &mut Vec<String>) {
    for a in actual {
        let Some(decl) = a.get("event").and_then(Value::as_str).and_then(EventKind::find) else { continue };
        for (key, field, _) in decl.keys {
            let (EventField::Word(words) | EventField::OptWord(words)) = field else { continue };
            match a.get(*key) {
                Some(Value::String(w)) if words.contains(&w.as_str()) => {}
                None | Some(Value::Null) if matches!(field, EventField::OptWord(_)) => {}
                v => failures.push(format!(
                    "engine: a `{}` event has `{key}: {}`, which cav_format::EVENT_KINDS does not declare ({})",
                    decl.id,
                    v.map_or("nothing".to_owned(), Value::to_string),
                    words.join(", ")
                )),
            }
        }
    }
}

/// Each step's `absent:` against the events of that step alone.
fn check_step_absent(
    t: &Test,
    log: &[Event],
    spans: &[Span],
    ids: &HashMap<String, usize>,
    failures: &mut Vec<String>,
) {
    for (i, step) in t.steps.iter().enumerate() {
        if step.absent.is_empty() {
            continue;
        }
        // A refused step, or one never reached, has no events: nothing occurred in it.
        let events: Vec<Value> = spans
            .iter()
            .filter(|s| s.0 == i)
            .flat_map(|&(_, from, to)| &log[from.min(log.len())..to.min(log.len())])
            .filter_map(|e| serde_json::to_value(e).ok())
            .collect();
        check_absent(&step.absent, &events, ids, &format!("step {i} absent"), " in this step", failures);
    }
}

/// None of `nevers` may match an event of `events`; failures are labelled `label[k]`.
fn check_absent(
    nevers: &[cav_format::ExpectedEvent],
    events: &[Value],
    ids: &HashMap<String, usize>,
    label: &str,
    scope: &str,
    failures: &mut Vec<String>,
) {
    for (k, never) in nevers.iter().enumerate() {
        let never = match prepare_event(&never.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{label}[{k}]: {e}"));
                continue;
            }
        };
        if let Some(a) = events.iter().find(|a| matches(&never, a)) {
            failures.push(format!("{label}[{k}]: an event that must not occur{scope} did: {}", shown(a, ids)));
        }
    }
}

fn check_events(t: &Test, log: &[Event], ids: &HashMap<String, usize>, failures: &mut Vec<String>) {
    let actual: Vec<Value> = log.iter().filter_map(|e| serde_json::to_value(e).ok()).collect();
    undeclared_words(&actual, failures);
    let mut from = 0;
    for (i, want) in t.expect.events.iter().enumerate() {
        let want = match prepare_event(&want.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("expect.events[{i}]: {e}"));
                return;
            }
        };
        match actual[from..].iter().position(|a| matches(&want, a)) {
            Some(p) => from += p + 1,
            None => {
                let after = if i == 0 { String::new() } else { format!(" after expected event {}", i - 1) };
                failures.push(format!(
                    "expect.events[{i}]: not found{after}: {}\n{}",
                    shown(&want, ids),
                    nearest(&want, &actual, from, ids)
                ));
                return;
            }
        }
    }
    check_absent(&t.expect.absent, &actual, ids, "expect.absent", "", failures);
    for (i, c) in t.expect.count.iter().enumerate() {
        let want = match prepare_event(&c.of.0, ids) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("expect.count[{i}]: {e}"));
                continue;
            }
        };
        let got = actual.iter().filter(|a| matches(&want, a)).count();
        if got != c.times as usize {
            failures.push(format!("expect.count[{i}]: {} occurs {got} times, expected {}", shown(&want, ids), c.times));
        }
    }
}

#[cfg(test)]
mod tests {
    use cav_format::{EVENT_KINDS, EventField};
    use serde_json::Value;

    use crate::event::{Event, ModApplied, Roll};
    use crate::geom::P;

    /// One event of every kind, with every optional value present (so its type can be checked).
    fn one_of_each() -> Vec<Event> {
        let p = P::new(1.0, 2.0);
        let s = || "x".to_owned();
        let roll = Roll {
            model: 0,
            kind: "combat".into(),
            dice: s().into(),
            natural: vec![3, 4],
            mods: vec![ModApplied { source: s(), value: 1, charge: None }],
            total: 8,
            target: Some(6),
            margin: Some(2),
            success: Some(true),
            critical: Some("success"),
        };
        let all = vec![
            Event::GameStart { ruleset: s(), scenario: s(), seed: Some(1), board: [48.0, 48.0] },
            Event::TerrainPlaced { terrain: s(), center: p, radius: 1.5 },
            Event::Deployed { model: 0, name: s(), side: s(), at: p, facing: 90.0 },
            Event::TurnStart { turn: 1 },
            Event::Activation { model: 0, ap: 2 },
            Event::Moved { model: 0, from: p, to: p, mv_spent: 3, facing: 0.5 },
            Event::StoodUp { model: 0 },
            Event::WentProne { model: 0 },
            Event::TargetLock { model: 0, target: 1 },
            Event::LockShared { model: 0, from: 1, target: 2 },
            Event::Overwatch { model: 0 },
            Event::PoppedUp { model: 0 },
            Event::OverwatchFire { model: 0, target: 1 },
            Event::DefensiveFire { model: 0, target: 1 },
            Event::CloseCombat { model: 0, target: 1, supporters: 1 },
            Event::Attack { model: 0, target: 1, weapon: s(), mode: "direct", distance: 2.5, band: Some(s()) },
            Event::NoAttack { model: 0, target: Some(1), weapon: s(), reason: s() },
            Event::Roll(roll),
            Event::StrikePoint { model: 0, at: p },
            Event::Aimed { model: 0, target: None, weapon: s(), at: p, distance: 1.0, band: s() },
            Event::StrikeCalled { model: 0, strike: s(), at: p, cost: 50, pool_left: 25 },
            Event::Drift { model: 0, from: p, to: p, inches: 7.0 },
            Event::Hit {
                model: 0,
                target: 1,
                weapon: s(),
                margin: 1,
                rav: 6,
                av: 7,
                penetrated: true,
                changes: vec![],
            },
            Event::DamageResult { target: 1, row: s(), damage: 1 },
            Event::OutOfAmmo { model: 0, weapon: s(), saved_by_reserve: true },
            Event::DamageApplied { model: 0, points: 1, column: 1, total: 1 },
            Event::StateGained { model: 0, state: s() },
            Event::StateIgnored { model: 0, state: s(), why: "immune" },
            Event::StateEnded { model: 0, state: s() },
            Event::Critical { model: 0, result: s() },
            Event::Repaired { model: 0, points: 1, column: 0 },
            Event::MissionKill { model: 0, reason: s() },
            Event::HvoTaken { model: 0 },
            Event::HvoDropped { model: 0, at: P::new(1.0, 2.0) },
            Event::Container { number: 1, what: "salvaged", side: Some(s()) },
            Event::Flight { model: 0, what: "landed" },
            Event::StructureWorn { at: P::new(1.0, 2.0), armor_class: 3 },
            Event::StructureAttack { model: 0, weapon: s(), at: P::new(1.0, 2.0), distance: 1.5, band: Some(s()) },
            Event::StructureHit { at: P::new(1.0, 2.0), damage: 1, armor_class: 3, damage_points: 4 },
            Event::StructureCollapsed { at: P::new(1.0, 2.0) },
            Event::Regrouped { squad: s(), joined: s(), kind: s(), models: 4 },
            Event::Towing { model: 0, what: "limbered" },
            Event::Mounted { model: 0, transport: 1 },
            Event::Dismounted { model: 0, transport: 1, at: P::new(1.0, 2.0) },
            Event::Abandoned { model: 0, reason: s() },
            Event::Destroyed { model: 0 },
            Event::OutOfAction { model: 0 },
            Event::TerrainLaid {
                model: 0,
                terrain: s(),
                at: P::new(1.0, 2.0),
                radius: 3.0,
                length: 0.0,
                width: 0.0,
                activations: 2,
                turns: 0,
            },
            Event::Cloud { model: 0, weapon: s(), at: P::new(1.0, 2.0), radius: 2.0, change: "laid" },
            Event::Submunition { model: 0, weapon: s(), at: P::new(1.0, 2.0), radius: 6.0, change: "waits" },
            Event::TerrainLifted { terrain: s(), at: P::new(1.0, 2.0) },
            Event::LeftBoard { model: 0 },
            Event::ActivationEnd { model: 0 },
            Event::TurnEnd { turn: 1 },
            Event::GameEnd { winner: Some(s()), turns: 1, reason: s() },
            Event::ScriptPrint { model: 0, text: s() },
            Event::ScriptEffect {
                point: "combat_tp",
                by: 0,
                source: s(),
                effect: "add_modifier",
                model: Some(1),
                quantity: Some("roll"),
                value: Some(1.0),
                detail: Some(s()),
            },
            Event::Forbidden { model: 0, what: "move", reason: s() },
            Event::SpecialAction { model: 0, target: Some(1) },
            Event::SquadActivation { squad: s(), side: s(), models: 4 },
            Event::C3Spent { side: s(), model: 0, what: "rally".into(), left: 1 },
            Event::ObjectiveScored { side: s(), points: 1, areas: 2 },
            Event::AssetUsed { side: s(), asset: s(), detail: s(), left: 1 },
            Event::CounterBattery { model: 0, target: 1 },
            Event::CloseDefense { model: 0, target: 1 },
        ];
        // A new variant of `Event` must be added above (and to `cav_format::EVENT_KINDS`): this
        // match has no catch-all, so it stops compiling until then.
        for e in &all {
            match e {
                Event::GameStart { .. }
                | Event::TerrainPlaced { .. }
                | Event::Deployed { .. }
                | Event::TurnStart { .. }
                | Event::SquadActivation { .. }
                | Event::C3Spent { .. }
                | Event::ObjectiveScored { .. }
                | Event::Activation { .. }
                | Event::Moved { .. }
                | Event::StoodUp { .. }
                | Event::WentProne { .. }
                | Event::TargetLock { .. }
                | Event::LockShared { .. }
                | Event::Overwatch { .. }
                | Event::PoppedUp { .. }
                | Event::OverwatchFire { .. }
                | Event::DefensiveFire { .. }
                | Event::CloseCombat { .. }
                | Event::Attack { .. }
                | Event::NoAttack { .. }
                | Event::Roll(_)
                | Event::StrikePoint { .. }
                | Event::Aimed { .. }
                | Event::StrikeCalled { .. }
                | Event::AssetUsed { .. }
                | Event::CounterBattery { .. }
                | Event::CloseDefense { .. }
                | Event::Drift { .. }
                | Event::Hit { .. }
                | Event::DamageResult { .. }
                | Event::OutOfAmmo { .. }
                | Event::DamageApplied { .. }
                | Event::StateGained { .. }
                | Event::StateEnded { .. }
                | Event::StateIgnored { .. }
                | Event::Critical { .. }
                | Event::Repaired { .. }
                | Event::MissionKill { .. }
                | Event::Abandoned { .. }
                | Event::Mounted { .. }
                | Event::Towing { .. }
                | Event::Flight { .. }
                | Event::StructureWorn { .. }
                | Event::StructureAttack { .. }
                | Event::StructureHit { .. }
                | Event::StructureCollapsed { .. }
                | Event::Regrouped { .. }
                | Event::HvoTaken { .. }
                | Event::HvoDropped { .. }
                | Event::Container { .. }
                | Event::Dismounted { .. }
                | Event::Destroyed { .. }
                | Event::OutOfAction { .. }
                | Event::TerrainLaid { .. }
                | Event::Cloud { .. }
                | Event::Submunition { .. }
                | Event::TerrainLifted { .. }
                | Event::LeftBoard { .. }
                | Event::ActivationEnd { .. }
                | Event::TurnEnd { .. }
                | Event::GameEnd { .. }
                | Event::ScriptPrint { .. }
                | Event::ScriptEffect { .. }
                | Event::Forbidden { .. }
                | Event::SpecialAction { .. } => {}
            }
        }
        all
    }

    fn fits(t: EventField, v: &Value) -> bool {
        let point = |v: &Value| v.get("x").is_some_and(Value::is_number) && v.get("y").is_some_and(Value::is_number);
        match t {
            // The log holds the model's index; a test writes its test id.
            EventField::Model | EventField::Int => v.is_i64() || v.is_u64(),
            EventField::Number => v.is_number(),
            EventField::Text => v.is_string(),
            EventField::Bool => v.is_boolean(),
            EventField::Point => point(v),
            EventField::OptInt | EventField::OptModel => v.is_null() || v.is_i64() || v.is_u64(),
            EventField::OptText => v.is_null() || v.is_string(),
            EventField::OptBool => v.is_null() || v.is_boolean(),
            EventField::Ints => v.as_array().is_some_and(|a| a.iter().all(|x| x.is_i64() || x.is_u64())),
            EventField::Numbers => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
            EventField::Word(words) => v.as_str().is_some_and(|w| words.contains(&w)),
            EventField::OptWord(words) => v.is_null() || v.as_str().is_some_and(|w| words.contains(&w)),
            EventField::Mods => v.as_array().is_some_and(|a| {
                a.iter()
                    .all(|m| m.get("source").is_some_and(Value::is_string) && m.get("value").is_some_and(Value::is_i64))
            }),
        }
    }

    /// The event kinds the test schema declares (cav-format) are exactly the ones the engine
    /// emits, each with exactly its keys and their types.
    #[test]
    fn event_kinds_match_the_engine() {
        let events = one_of_each();
        let mut seen = Vec::new();
        for e in &events {
            let v = serde_json::to_value(e).unwrap();
            let obj = v.as_object().unwrap();
            let kind = obj["event"].as_str().unwrap();
            let decl = cav_format::EventKind::find(kind)
                .unwrap_or_else(|| panic!("the engine emits `{kind}` events; declare them in cav_format::EVENT_KINDS"));
            let keys: Vec<&str> = obj.keys().map(String::as_str).filter(|k| *k != "event").collect();
            let declared: Vec<&str> = decl.keys.iter().map(|(k, _, _)| *k).collect();
            assert_eq!(keys, declared, "keys of `{kind}` events: the engine's, then the declared ones");
            for (k, t, _) in decl.keys {
                assert!(fits(*t, &obj[*k]), "`{kind}.{k}` is declared {t:?} but the engine writes {}", obj[*k]);
            }
            seen.push(decl.id);
        }
        for k in EVENT_KINDS {
            assert!(seen.contains(&k.id), "`{}` is declared but the engine has no such event", k.id);
        }
        assert_eq!(seen.len(), EVENT_KINDS.len(), "one sample per kind");
    }

    #[test]
    fn expected_events_are_typed_and_translated() {
        let ids = [("red".to_owned(), 0), ("blue".to_owned(), 1)].into_iter().collect();
        let want = serde_json::json!({"event": "drift", "model": "red", "to": [3, 4]});
        let got = super::prepare_event(&want, &ids).unwrap();
        assert_eq!(got, serde_json::json!({"event": "drift", "model": 0, "to": {"x": 3, "y": 4}}));
        // A roll's `target` is a target point, not a model: left as it is.
        let roll = serde_json::json!({"event": "roll", "target": 7});
        assert_eq!(super::prepare_event(&roll, &ids).unwrap()["target"], 7);
        let e = super::prepare_event(&serde_json::json!({"event": "hitt"}), &ids).unwrap_err();
        assert!(e.contains("unknown event kind `hitt`"), "{e}");
        let e = super::prepare_event(&serde_json::json!({"event": "hit", "tagret": "blue"}), &ids).unwrap_err();
        assert!(e.contains("`hit` events have no key `tagret`"), "{e}");
        let e = super::prepare_event(&serde_json::json!({"event": "hit", "target": "green"}), &ids).unwrap_err();
        assert!(e.contains("unknown model `green`"), "{e}");
    }

    /// A failure's label leads to the part of the test it is about.
    #[test]
    fn failures_point_into_their_test() {
        use super::failure_pointer as at;
        assert_eq!(at("expect.events[5]: not found").as_deref(), Some("/expect/events/5"));
        assert_eq!(at("expect.count[1]: x occurs").as_deref(), Some("/expect/count/1"));
        assert_eq!(at("step 3 absent[0]: an event").as_deref(), Some("/steps/3/absent/0"));
        assert_eq!(at("step 12 check: `red` damage").as_deref(), Some("/steps/12"));
        assert_eq!(at("`blue` states: expected [], got [x]").as_deref(), Some("/expect/models/blue"));
        assert_eq!(at("stopped with an error: boom"), None);
    }

    /// A word the engine writes that the event kinds do not declare fails the test, as an engine bug.
    #[test]
    fn an_undeclared_word_fails_the_test() {
        let mut failures = Vec::new();
        let ok = serde_json::json!({"event": "attack", "mode": "template"});
        let roll = serde_json::json!({"event": "roll", "critical": null});
        super::undeclared_words(&[ok, roll], &mut failures);
        assert!(failures.is_empty(), "{failures:?}");
        super::undeclared_words(&[serde_json::json!({"event": "attack", "mode": "lance"})], &mut failures);
        assert_eq!(failures.len(), 1);
        assert!(failures[0].starts_with("engine: a `attack` event has `mode: \"lance\"`"), "{failures:?}");
    }

    #[test]
    fn matching_is_partial_for_mappings_and_whole_for_lists() {
        use super::matches;
        let actual = serde_json::json!({"a": 1, "b": {"x": 1.004, "y": 2}, "l": [{"s": "p", "v": 1}]});
        assert!(matches(&serde_json::json!({"b": {"x": 1}}), &actual), "numbers to 0.005");
        assert!(!matches(&serde_json::json!({"b": {"x": 1.01}}), &actual));
        assert!(matches(&serde_json::json!({"l": [{"v": 1}]}), &actual));
        assert!(!matches(&serde_json::json!({"l": []}), &actual), "a list matches in full");
        assert!(!matches(&serde_json::json!({"c": 1}), &actual));
        assert!(
            matches(&serde_json::json!({"c": null, "d": []}), &actual),
            "a key the log leaves out is null or empty"
        );
    }
}
