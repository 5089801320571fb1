//! Playing a test's steps: activations, turn boundaries, squad activations, refused declarations.

use super::*;

/// What is wrong with a step's shape, if anything.
pub(super) fn step_shape(step: &TestStep) -> Option<String> {
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

pub(super) fn play(t: &Test, game: Game, ids: &HashMap<String, usize>, hooks: &mut dyn Hooks, out: &mut TestOutcome) {
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
        if error.is_none() {
            error = play_steps(t, &mut engine, ids, &mut ctrl);
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
    dice_left(t, &dice, &mut out.failures);
    check_events(t, &log.events, ids, &mut out.failures);
    check_step_absent(t, &log.events, &ctrl.spans, ids, &mut out.failures);
    out.events = log.events;
}

/// Plays the test's steps in order, from its first turn; returns the error that stopped them, if
/// any.
fn play_steps<'t>(
    t: &'t Test,
    engine: &mut Engine,
    ids: &'t HashMap<String, usize>,
    ctrl: &mut Scripted<'t>,
) -> Option<String> {
    let mut error = None;
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
            match begin_squad_activation(engine, step, i, ctrl) {
                Ok(s) => squad = Some(s),
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
            ctrl.spans.push((i, from, ctrl.log_len.get()));
            check_models(&engine.game, ids, &step.check, &format!("step {i} check: "), &mut ctrl.failures);
            i += 1;
            continue;
        }
        if action.as_str() == PLAY_TURN {
            // Every model passes: the plan holds no action for a drawn card. The turn after
            // starts, as after `next-turn`.
            let turn = engine.end_turn().and_then(|_| engine.play_turn(ctrl)).and_then(|_| engine.begin_turn());
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
        let (plan, closing) = match plan_activation(t, &mut i, &model_id, ids, &engine.game) {
            Ok(planned) => planned,
            Err(e) => {
                error = Some(e);
                break;
            }
        };
        error = activate(engine, ids, ctrl, model, &model_id, plan, closing);
    }
    if squad.is_some()
        && error.is_none()
        && let Err(e) = engine.end_squad_activation()
    {
        error = Some(e.to_string());
    }
    error
}

/// Begins the activation of the squad a `squad-activation` step names (step `i`); returns the
/// squad.
fn begin_squad_activation(
    engine: &mut Engine,
    step: &TestStep,
    i: usize,
    ctrl: &mut dyn Controller,
) -> Result<usize, String> {
    let name = step.squad.as_ref().map_or("", |s| s.as_str());
    let Some(s) = engine.game.squads.iter().position(|q| q.name == name) else {
        return Err(format!("step {i}: no model is in squad `{name}`"));
    };
    let n = engine.game.squads[s].members.len();
    // As a turn plays it: what its models do lands when all have acted. (A model that would join
    // it — a seized initiative — is the test's to activate with its own steps.)
    engine.squad_activates(s, n as u32, ctrl).map_err(|e| format!("step {i}: {e}"))?;
    engine.game.squad_activating = n > 1;
    Ok(s)
}

/// The actions of one model's activation, from step `i` on (left past them), and the checks made
/// once it closes.
fn plan_activation<'t>(
    t: &'t Test,
    i: &mut usize,
    model_id: &Id,
    ids: &HashMap<String, usize>,
    game: &Game,
) -> Result<(Vec<Planned<'t>>, Vec<Check<'t>>), String> {
    let mut plan: Vec<Planned> = Vec::new();
    let mut closing: Vec<Check> = Vec::new();
    while *i < t.steps.len() {
        let step = &t.steps[*i];
        if step_shape(step).is_some() {
            break;
        }
        let Some(action) = step.action.as_ref() else {
            match plan.last_mut() {
                Some(p) => p.then.push((*i, &step.check)),
                None => closing.push((*i, &step.check)),
            }
            *i += 1;
            continue;
        };
        if action.as_str() == NEXT_TURN || step.model.as_ref() != Some(model_id) {
            break;
        }
        *i += 1;
        if action.as_str() == END {
            if !step.check.is_empty() {
                closing.push((*i - 1, &step.check));
            }
            break;
        }
        match step_action(step, ids, game) {
            Ok(a) => {
                let then = if step.check.is_empty() { vec![] } else { vec![(*i - 1, &step.check)] };
                plan.push(Planned {
                    step: *i - 1,
                    action: a,
                    ap_left: step.ap_left,
                    refused: step.refused.as_deref(),
                    then,
                })
            }
            Err(e) => {
                return Err(format!("step {}: {e}", *i - 1));
            }
        }
    }
    Ok((plan, closing))
}

/// Activates the model with its planned actions, then makes the checks due once it closes;
/// returns the error that stopped it, if any.
fn activate<'t>(
    engine: &mut Engine,
    ids: &HashMap<String, usize>,
    ctrl: &mut Scripted<'t>,
    model: usize,
    model_id: &Id,
    plan: Vec<Planned<'t>>,
    closing: Vec<Check<'t>>,
) -> Option<String> {
    let mut error = None;
    let n = plan.len();
    ctrl.plan = plan.into();
    let activated = engine.activate(model, ctrl);
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
    error
}

/// What is wrong with the forced dice and drift directions once the test has run: run out, or
/// left over.
fn dice_left(t: &Test, dice: &ForcedDice, failures: &mut Vec<String>) {
    if dice.exhausted {
        failures.push(format!("the {} forced dice ran out ({} rolls were asked for)", t.dice.len(), dice.used));
    } else if t.expect.all_dice_used && dice.remaining() > 0 && t.expect.error.is_none() {
        failures.push(format!("{} of the forced dice were not used", dice.remaining()));
    }
    if dice.directions_left() > 0 && t.expect.error.is_none() {
        failures.push(format!("{} of the drift directions were not used (no drift took them)", dice.directions_left()));
    }
}

/// The action a step names (by the engine's action names: [`actions::ALL`]) with what it gives.
pub(super) fn step_action(step: &TestStep, ids: &HashMap<String, usize>, game: &Game) -> Result<Action, String> {
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
    // A ruleset's own action type is taken as the engine's action it is a kind of.
    let own = game.rules.own_actions.iter().position(|o| o.id == name);
    let name = own.map_or(name, |o| game.rules.own_actions[o].kind);
    let Some(kind) = actions::find(name) else {
        let mut known: Vec<&str> = actions::ALL.iter().map(|k| k.name()).collect();
        known.extend(game.rules.own_actions.iter().map(|o| o.id.as_str()));
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
        to: match (step.to, step.to_hex) {
            (None, None) => None,
            (to, hex) => Some(
                crate::compile::place(game.rules.hexes.as_ref(), to, hex, game.board.size)
                    .map_err(|e| format!("`{name}`: {e}"))?,
            ),
        },
        via: step.via.map(|[x, y]| P::new(x, y)),
        path: step.path.iter().map(|&[x, y]| P::new(x, y)).collect(),
        weapons,
        split,
        noe: step.noe,
        indirect: step.indirect,
        inspire: step.inspire,
        moves: step.moves.unwrap_or(1),
        option: step.option.as_ref().map(|o| o.0.clone()),
        declared: own.map(|o| o as u16),
    })
}
