//! Running scenario tests (`kind: test` documents): set up a board, force the dice and the
//! actions, and compare what happened with what the test expects.

use std::collections::HashMap;

use cav_format::{Test, TestStep};
use serde_json::Value;

use crate::compile::Rules;
use crate::dice::ForcedDice;
use crate::event::Event;
use crate::game::{Action, Area, Board, Controller, Engine, Game, actions};
use crate::geom::{P, Polygon};
use crate::hooks::{Hooks, NoHooks};

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

/// Plays back a fixed list of actions, then passes.
struct Scripted {
    actions: std::vec::IntoIter<Action>,
    /// Weapons each model fires when it may react (defensive or over-watch fire).
    reactions: HashMap<usize, Vec<usize>>,
}

impl Controller for Scripted {
    fn decide(&mut self, _: &Game, _: usize, _: u32) -> Action {
        self.actions.next().unwrap_or_else(Action::pass)
    }
    fn defensive_fire(&mut self, _: &Game, defender: usize, _: usize) -> Option<Vec<usize>> {
        self.reactions.get(&defender).cloned()
    }
    fn overwatch_fire(&mut self, _: &Game, watcher: usize, _: usize) -> Option<Vec<usize>> {
        self.reactions.get(&watcher).cloned()
    }
}

pub fn run_test(rules: &Rules, t: &Test) -> TestOutcome {
    run_test_with(rules, t, &mut NoHooks)
}

pub fn run_test_with(rules: &Rules, t: &Test, hooks: &mut dyn Hooks) -> TestOutcome {
    let mut out = TestOutcome { id: t.id.0.clone(), name: t.name.clone(), failures: Vec::new(), events: Vec::new() };
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

fn setup<'r>(rules: &'r Rules, t: &Test) -> Result<(Game<'r>, HashMap<String, usize>), String> {
    let mut areas = Vec::new();
    for (i, a) in t.terrain.iter().enumerate() {
        let terrain =
            rules.terrain(a.terrain.as_str()).ok_or_else(|| format!("terrain {i}: unknown terrain `{}`", a.terrain))?;
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
        areas.push(Area { terrain, poly, center, radius });
    }
    let mut sides: Vec<String> = Vec::new();
    for spec in &t.models {
        if !sides.contains(&spec.side.0) {
            sides.push(spec.side.0.clone());
        }
    }
    let mut game = Game::new(rules, Board { size: t.board, areas }, sides.clone());
    let mut ids = HashMap::new();
    for spec in &t.models {
        let card = rules
            .card(spec.model.as_str())
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
        if let Some((other, _)) = ids.iter().find(|(_, i)| {
            let o: &crate::game::Model = &game.models[**i];
            o.pos.dist(pos) < r + rules.cards[o.card].base_radius - 1e-9
        }) {
            return Err(format!("model `{}` overlaps model `{other}`", spec.id));
        }
        let side = sides.iter().position(|s| *s == spec.side.0).unwrap_or(0);
        let ix = game.add_model(card, side, pos, spec.facing);
        ids.insert(spec.id.0.clone(), ix);
        let me = &mut game.models[ix];
        me.damage = spec.damage;
        me.prone = spec.prone;
        for s in &spec.states {
            let st = rules.state(s.as_str()).ok_or_else(|| format!("model `{}`: unknown state `{s}`", spec.id))?;
            // A state given by the test lasts through the model's next activation at least.
            me.states.push((
                st,
                if rules.states[st as usize].duration == cav_format::StateDuration::Permanent { u32::MAX } else { 1 },
            ));
        }
    }
    for spec in &t.models {
        if let Some(l) = &spec.lock {
            let target =
                *ids.get(l.as_str()).ok_or_else(|| format!("model `{}` locks on to unknown model `{l}`", spec.id))?;
            game.models[ids[spec.id.as_str()]].lock = Some(target);
        }
    }
    Ok((game, ids))
}

fn play(t: &Test, game: Game, ids: &HashMap<String, usize>, hooks: &mut dyn Hooks, out: &mut TestOutcome) {
    let mut dice = ForcedDice::new(t.dice.iter().copied());
    let mut log: Vec<Event> = Vec::new();
    let mut error = None;
    {
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks };
        // The game begins: `game_setup` handlers run before the first step.
        if let Err(e) = engine.start() {
            error = Some(e.to_string());
        }
        // Consecutive steps of one model form one activation; `end` closes it early.
        let mut i = 0;
        while i < t.steps.len() && error.is_none() {
            let model_id = &t.steps[i].model;
            let Some(&model) = ids.get(model_id.as_str()) else {
                error = Some(format!("step {i}: unknown model `{model_id}`"));
                break;
            };
            let mut actions = Vec::new();
            while i < t.steps.len() && t.steps[i].model == *model_id {
                let step = &t.steps[i];
                i += 1;
                if step.action.as_str() == "end" {
                    break;
                }
                match step_action(step, ids) {
                    Ok(a) => actions.push(a),
                    Err(e) => {
                        error = Some(format!("step {}: {e}", i - 1));
                        break;
                    }
                }
            }
            if error.is_some() {
                break;
            }
            let n = actions.len();
            let reactions =
                t.reactions.iter().filter_map(|(k, v)| ids.get(k.as_str()).map(|&i| (i, v.clone()))).collect();
            let mut ctrl = Scripted { actions: actions.into_iter(), reactions };
            if let Err(e) = engine.activate(model, &mut ctrl) {
                error = Some(e.to_string());
            } else if ctrl.actions.len() > 0 {
                let left = ctrl.actions.len();
                error = Some(format!("{left} of {n} actions of `{model_id}` were not taken (out of action points?)"));
            }
        }
        let game = &engine.game;
        check_units(t, game, ids, &mut out.failures);
    }
    match (&t.expect.error, &error) {
        (Some(want), Some(got)) if !got.contains(want.as_str()) => {
            out.failures.push(format!("expected an error containing {want:?}, got: {got}"))
        }
        (Some(want), None) => {
            out.failures.push(format!("expected an error containing {want:?}, but the test ran through"))
        }
        (None, Some(got)) => out.failures.push(format!("stopped with an error: {got}")),
        _ => {}
    }
    if dice.exhausted {
        out.failures.push(format!("the {} forced dice ran out ({} rolls were asked for)", t.dice.len(), dice.used));
    } else if t.expect.all_dice_used && dice.remaining() > 0 && t.expect.error.is_none() {
        out.failures.push(format!("{} of the forced dice were not used", dice.remaining()));
    }
    check_events(t, &log, ids, &mut out.failures);
    out.events = log;
}

/// The action a step names (by the engine's action names: [`actions::ALL`]) with what it gives.
fn step_action(step: &TestStep, ids: &HashMap<String, usize>) -> Result<Action, String> {
    let name = step.action.as_str();
    let Some(kind) = actions::find(name) else {
        let known: Vec<&str> = actions::ALL.iter().map(|k| k.name()).collect();
        return Err(format!("unknown action `{name}` (known: {}, end)", known.join(", ")));
    };
    let target = match &step.target {
        Some(id) => Some(*ids.get(id.as_str()).ok_or_else(|| format!("`{name}`: unknown target `{id}`"))?),
        None => None,
    };
    Ok(Action {
        kind: kind.name(),
        target,
        to: step.to.map(|[x, y]| P::new(x, y)),
        weapons: step.weapons.clone(),
        indirect: step.indirect,
    })
}

fn check_units(t: &Test, game: &Game, ids: &HashMap<String, usize>, failures: &mut Vec<String>) {
    for (id, want) in &t.expect.models {
        let Some(&model) = ids.get(id.as_str()) else {
            failures.push(format!("expect.models: unknown model `{id}`"));
            continue;
        };
        let got = &game.models[model];
        if let Some(d) = want.damage
            && got.damage != d
        {
            failures.push(format!("`{id}` damage: expected {d}, got {}", got.damage));
        }
        if let Some(states) = &want.states {
            let mut have: Vec<&str> =
                got.states.iter().map(|(s, _)| game.rules.states[*s as usize].id.as_str()).collect();
            let mut want: Vec<&str> = states.iter().map(|s| s.as_str()).collect();
            have.sort_unstable();
            want.sort_unstable();
            if have != want {
                failures.push(format!("`{id}` states: expected {want:?}, got {have:?}"));
            }
        }
        if let Some(d) = want.destroyed
            && got.destroyed != d
        {
            failures.push(format!("`{id}` destroyed: expected {d}, got {}", got.destroyed));
        }
        if let Some(m) = want.mission_kill
            && got.mission_kill != m
        {
            failures.push(format!("`{id}` mission kill: expected {m}, got {}", got.mission_kill));
        }
        if let Some([x, y]) = want.at
            && got.pos.dist(P::new(x, y)) > 0.01
        {
            failures.push(format!("`{id}` position: expected ({x}, {y}), got ({:.2}, {:.2})", got.pos.x, got.pos.y));
        }
    }
}

/// Does `actual` contain every key of `want` with an equal value (objects compared recursively)?
fn matches(want: &Value, actual: &Value) -> bool {
    match (want, actual) {
        (Value::Object(w), Value::Object(a)) => w.iter().all(|(k, v)| a.get(k).is_some_and(|x| matches(v, x))),
        (Value::Number(w), Value::Number(a)) => w.as_f64().zip(a.as_f64()).is_some_and(|(w, a)| (w - a).abs() < 1e-6),
        (w, a) => w == a,
    }
}

fn check_events(t: &Test, log: &[Event], ids: &HashMap<String, usize>, failures: &mut Vec<String>) {
    let actual: Vec<Value> = log.iter().filter_map(|e| serde_json::to_value(e).ok()).collect();
    let mut from = 0;
    for (i, want) in t.expect.events.iter().enumerate() {
        let mut want = want.clone();
        if let Some(obj) = want.as_object_mut() {
            for key in ["model", "target", "by"] {
                if let Some(Value::String(name)) = obj.get(key) {
                    match ids.get(name.as_str()) {
                        Some(&ix) => {
                            obj.insert(key.into(), Value::from(ix));
                        }
                        None => failures.push(format!("expect.events[{i}]: unknown model `{name}`")),
                    }
                }
            }
        }
        match actual[from..].iter().position(|a| matches(&want, a)) {
            Some(p) => from += p + 1,
            None => {
                let shown: Vec<String> = actual.iter().map(|a| a.to_string()).collect();
                failures.push(format!(
                    "expected event {i} not found (in order) : {want}\n  actual events:\n    {}",
                    shown.join("\n    ")
                ));
                return;
            }
        }
    }
}
