//! Riding in transports (001 L3694-3732): an infantry model in base contact with a friendly model
//! that has the ruleset's transport special attribute boards it with a move action, and later
//! dismounts with another, placed in base contact with it (into contact with an enemy too). Not
//! both in one activation; no room to stand means the action is lost. A rider is off the table
//! but in play: it activates (to dismount), counts for its side, and dies with its transport.
//! The `transport` hook point fires before either, and its handlers may forbid it.
//!
//! Towed guns use the same two actions to be hitched to a tow and unhitched (`procedures.towing`,
//! see `towing.rs`): a limbered gun mounts a friendly model of a towing type, which takes the
//! ruleset's number of guns whatever its transport slots.

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{HookPoint, ModelTrait};

use super::{Action, ActionError, ActionKind, ENGAGED, LIMBERED};
use crate::event::Event;
use crate::game::{Controller, Engine, EngineError, Game, Lasts, Mark};
use crate::geom::P;
use crate::hooks::HookCtx;

/// The model boarded a transport this turn (so it may not dismount in the same activation).
pub static MOUNTED: Mark = Mark { name: "mounted", lasts: Lasts::Turn };
/// The model left a transport this turn (so it may not board again in the same activation).
pub static DISMOUNTED: Mark = Mark { name: "dismounted", lasts: Lasts::Turn };

/// Bearings tried around the transport, from the one asked for outwards, in degrees.
const PLACEMENT_STEP: f64 = 15.0;

/// Which of `transport`'s holds a rider of `model`'s kind rides in: `None` the infantry slots of
/// the transport special attribute, `Some(i)` the ruleset's carrier `i` (a dropship).
type Hold = Option<usize>;

/// The hold `model` would ride in on `transport`, if it may ride in it at all.
fn hold_for(game: &Game, model: usize, transport: usize) -> Option<Hold> {
    let t = game.rules.proc.transport.as_ref()?;
    let ty = game.card(model).model_type;
    if game.rules.has_trait(ty, ModelTrait::Infantry) {
        return Some(None);
    }
    let sas = &game.card(transport).sas;
    t.carriers
        .iter()
        .position(|(sa, _, riders)| sas.iter().any(|(s, _)| s == sa) && riders.iter().any(|(r, _)| *r == ty))
        .map(Some)
}

/// Slots `transport` has in a hold, and slots its riders there fill.
fn slots(game: &Game, transport: usize, hold: Hold) -> (u32, u32) {
    let Some(t) = &game.rules.proc.transport else { return (0, 0) };
    let rating =
        |sa: u16| game.card(transport).sas.iter().find(|(s, _)| *s == sa).map_or(0, |(_, r)| (*r).max(0) as u32);
    let have = match hold {
        None => rating(t.sa),
        Some(i) => rating(t.carriers[i].0).saturating_mul(t.carriers[i].1),
    };
    let used = (0..game.models.len())
        .filter(|&m| {
            game.models[m].features.transport.aboard == Some(transport)
                && game.models[m].in_play()
                && !is_towed(game, m)
        })
        .filter(|&m| hold_for(game, m, transport) == Some(hold))
        .map(|m| rider_slots(game, m, hold))
        .sum();
    (have, used)
}

/// Slots one rider takes: the ruleset's per rider, more for riders with a heavy SA; in a
/// carrier, what the carrier gives for its type.
fn rider_slots(game: &Game, model: usize, hold: Hold) -> u32 {
    let Some(t) = &game.rules.proc.transport else { return 0 };
    if let Some(i) = hold {
        let ty = game.card(model).model_type;
        return t.carriers[i].2.iter().find(|(r, _)| *r == ty).map_or(0, |(_, n)| *n);
    }
    let sas = &game.card(model).sas;
    t.heavy
        .iter()
        .filter(|(sa, _)| sas.iter().any(|(s, _)| s == sa))
        .map(|(_, n)| *n)
        .max()
        .unwrap_or(t.slots_per_rider)
}

fn is_towed(game: &Game, model: usize) -> bool {
    game.rules.has_trait(game.card(model).model_type, ModelTrait::Towed)
}

/// Whether the limbered gun `model` may be hitched to `tow`: the ruleset has towing, the tow's
/// type tows, and it has room for one more gun.
fn hitch(game: &Game, model: usize, tow: usize) -> Result<(), String> {
    let Some(t) = &game.rules.proc.towing else { return Err("this ruleset has no towing".into()) };
    if !game.models[model].has(&LIMBERED) {
        return Err("a towed gun limbers before it is hitched".into());
    }
    if !game.rules.type_in(&t.tows, game.card(tow).model_type) {
        return Err(format!("a {} does not tow guns", game.rules.type_name(game.card(tow).model_type)));
    }
    let towing = (0..game.models.len())
        .filter(|&m| {
            game.models[m].features.transport.aboard == Some(tow) && game.models[m].in_play() && is_towed(game, m)
        })
        .count();
    if towing as u32 >= t.per_tow {
        return Err(format!("the tow already has {towing} gun(s) hitched"));
    }
    Ok(())
}

/// Storm: getting into or out of a ground transport (not an aircraft) is a free action (001
/// L8453-8461).
fn free_mount(game: &Game, model: usize, transport: Option<usize>) -> bool {
    game.card(model).free_mount
        && transport
            .filter(|&t| t < game.models.len())
            .is_some_and(|t| !game.rules.has_trait(game.card(t).model_type, ModelTrait::Aircraft))
}

/// Board a friendly transport in base contact (`target`).
pub struct Mount;

impl ActionKind for Mount {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "mount"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn cost(&self, game: &Game, model: usize, action: &Action) -> Option<u32> {
        let cost = game.rules.action_costs.get(self.id().id()).copied()?;
        Some(if free_mount(game, model, action.target) { 0 } else { cost })
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        let towed = is_towed(game, model);
        if game.rules.proc.transport.is_none() && !towed {
            return Err("this ruleset has no transports".into());
        }
        let me = &game.models[model];
        if me.has(&ENGAGED) {
            return Err("a model in close combat must break before it boards".into());
        }
        if me.has(&DISMOUNTED) {
            return Err("a model may not dismount and mount in one activation".into());
        }
        let t = action.target()?;
        let other = game.models.get(t).ok_or("no such model")?;
        if other.side != me.side || !other.on_table() || t == model {
            return Err("the transport must be a friendly model on the table".into());
        }
        if game.flying(t) {
            return Err("an aircraft in flight lands before riders board it".into());
        }
        if game.distance(model, t) > game.rules.proc.movement.contact_distance {
            return Err("the transport must be in base contact".into());
        }
        if towed {
            return hitch(game, model, t);
        }
        let Some(hold) = hold_for(game, model, t) else {
            return Err("only infantry ride in transports (and the model types a carrier such as a dropship takes); towed guns are hitched to tows".into());
        };
        let (have, used) = slots(game, t, hold);
        if have == 0 {
            return Err("that model is not a transport".into());
        }
        let need = rider_slots(game, model, hold);
        if used + need > have {
            return Err(format!(
                "no room: the transport has {} of {have} slots free, the model needs {need}",
                have - used
            ));
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let transport = action.target().map_err(ActionError::Illegal)?;
        let ctx = HookCtx::new(HookPoint::Transport, model).target(transport).value(1.0);
        if let Some(reason) = engine.call_hooks(ctx)?.forbid {
            emit!(engine, Event::Forbidden { model, what: "mount", reason });
            return Ok(());
        }
        let pos = engine.game.models[transport].pos;
        let me = &mut engine.game.models[model];
        me.features.transport.aboard = Some(transport);
        me.pos = pos;
        me.mark(&MOUNTED);
        emit!(engine, Event::Mounted { model, transport });
        Ok(())
    }
}

/// Leave the transport, standing in base contact with it on the side of `to` (or the nearest
/// free spot to it).
pub struct Dismount;

impl ActionKind for Dismount {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "dismount"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn cost(&self, game: &Game, model: usize, _: &Action) -> Option<u32> {
        let cost = game.rules.action_costs.get(self.id().id()).copied()?;
        Some(if free_mount(game, model, game.models[model].features.transport.aboard) { 0 } else { cost })
    }
    fn taken_aboard(&self, _: &Game, _: usize) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, _action: &Action) -> Result<(), String> {
        let me = &game.models[model];
        if me.features.transport.aboard.is_none() {
            return Err("the model is not riding in a transport".into());
        }
        if me.has(&MOUNTED) {
            return Err("a model may not mount and dismount in one activation".into());
        }
        // From an aircraft in flight only Airborne infantry jump (001 L6497-6507).
        if me.features.transport.aboard.is_some_and(|t| game.flying(t)) && !game.card(model).airborne {
            return Err("the aircraft flies: riders get out once it has landed (Airborne infantry may jump)".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let Some(transport) = engine.game.models[model].features.transport.aboard else {
            return Err(ActionError::Illegal("the model is not riding in a transport".into()));
        };
        let ctx = HookCtx::new(HookPoint::Transport, model).target(transport).value(0.0);
        if let Some(reason) = engine.call_hooks(ctx)?.forbid {
            emit!(engine, Event::Forbidden { model, what: "dismount", reason });
            return Ok(());
        }
        // An Airborne rider jumps from an aircraft in flight at any point of the path it flew in
        // its latest activation (001 L6499-6503): the one nearest the point named.
        let g = &engine.game;
        let jump = (g.flying(transport) && g.card(model).airborne && g.models[transport].path.len() > 1)
            .then_some(action.to)
            .flatten()
            .map(|to| nearest_on_path(&g.models[transport].path, to));
        let found = match jump {
            Some(p) => spot_near(g, model, p),
            None => spot(g, model, transport, action.to),
        };
        let Some(at) = found else {
            let reason = "no room in base contact with the transport: the action is lost".to_owned();
            emit!(engine, Event::Forbidden { model, what: "dismount", reason });
            return Ok(());
        };
        engine.step_out(model, transport, at);
        Ok(())
    }
}

impl Engine<'_, '_> {
    /// `model` leaves `transport`, standing at `at` and facing away from it.
    fn step_out(&mut self, model: usize, transport: usize, at: P) {
        let from = self.game.models[transport].pos;
        let me = &mut self.game.models[model];
        me.features.transport.aboard = None;
        me.pos = at;
        me.facing = from.bearing(at);
        me.mark(&DISMOUNTED);
        emit!(self, Event::Dismounted { model, transport, at });
    }

    /// As a move of the flying transport `transport` ends, each Airborne rider whose player wants
    /// it jumps "during either model's activation" (001 L6499-6503): at the point of the path the
    /// aircraft has flown this activation nearest the one its player names. It is the rider's
    /// dismount (a move action), taken out of its own activation: its AP come off its next one.
    pub(crate) fn airborne_jumps(&mut self, transport: usize, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        let g = &self.game;
        if !g.flying(transport) || g.models[transport].path.len() < 2 {
            return Ok(());
        }
        let riders: Vec<usize> = (0..g.models.len())
            .filter(|&m| g.models[m].features.transport.aboard == Some(transport) && g.card(m).airborne)
            .collect();
        for m in riders {
            let Some(to) = ctrl.airborne_jump(&self.game, m, transport) else { continue };
            let ctx = HookCtx::new(HookPoint::Transport, m).target(transport).value(0.0);
            if let Some(reason) = self.call_hooks(ctx)?.forbid {
                emit!(self, Event::Forbidden { model: m, what: "dismount", reason });
                continue;
            }
            let g = &self.game;
            let Some(at) = spot_near(g, m, nearest_on_path(&g.models[transport].path, to)) else {
                let reason = "no room to land where it jumps: it stays aboard".to_owned();
                emit!(self, Event::Forbidden { model: m, what: "dismount", reason });
                continue;
            };
            let cost = self.rules().action_costs.get(Dismount.id().id()).copied().unwrap_or(0);
            self.game.models[m].ap_owed += cost;
            self.step_out(m, transport, at);
        }
        Ok(())
    }
}

/// Where a rider stands when it gets out: touching the transport on the side of `towards`
/// (straight behind it without one), else the nearest bearing on the board clear of other bases.
fn spot(game: &Game, model: usize, transport: usize, towards: Option<P>) -> Option<P> {
    let t = &game.models[transport];
    let r = game.card(model).base_radius;
    let ring = game.card(transport).base_radius + r + game.rules.proc.movement.contact_distance / 2.0;
    let want = match towards {
        Some(p) if p.dist(t.pos) > 1e-9 => t.pos.bearing(p),
        _ => t.facing + 180.0,
    };
    let steps = (180.0 / PLACEMENT_STEP) as i32;
    (0..=steps)
        .flat_map(|k| if k == 0 { vec![0.0] } else { vec![k as f64 * PLACEMENT_STEP, -k as f64 * PLACEMENT_STEP] })
        .map(|off| t.pos + P::heading(want + off).scale(ring))
        .find(|&p| {
            game.on_board(p)
                && (0..game.models.len()).all(|o| {
                    o == model
                        || !game.models[o].on_table()
                        || game.models[o].pos.dist(p) >= game.card(o).base_radius + r - 1e-9
                })
        })
}

/// The point of the polyline `path` nearest `to`.
fn nearest_on_path(path: &[P], to: P) -> P {
    let mut best = (f64::MAX, path[0]);
    for w in path.windows(2) {
        let (a, b) = (w[0], w[1]);
        let d = b - a;
        let len2 = d.x * d.x + d.y * d.y;
        let t = if len2 > 0.0 { (((to.x - a.x) * d.x + (to.y - a.y) * d.y) / len2).clamp(0.0, 1.0) } else { 0.0 };
        let p = a + d.scale(t);
        if p.dist(to) < best.0 {
            best = (p.dist(to), p);
        }
    }
    best.1
}

/// Where a model landing at `at` stands: there, or the nearest spot around it clear of other bases.
fn spot_near(game: &Game, model: usize, at: P) -> Option<P> {
    let r = game.card(model).base_radius;
    let clear = |p: P| {
        game.on_board(p)
            && (0..game.models.len()).all(|o| {
                o == model
                    || !game.models[o].on_table()
                    || game.flying(o)
                    || game.models[o].pos.dist(p) >= game.card(o).base_radius + r - 1e-9
            })
    };
    if clear(at) {
        return Some(at);
    }
    let steps = (360.0 / PLACEMENT_STEP) as i32;
    (1..=4)
        .flat_map(|ring| (0..steps).map(move |k| (ring, k)))
        .map(|(ring, k)| at + P::heading(k as f64 * PLACEMENT_STEP).scale(f64::from(ring) * r))
        .find(|&p| clear(p))
}

impl Action {
    /// Board the transport `transport` (in base contact).
    pub fn mount(transport: usize) -> Action {
        Action::new(Mount.name()).on(transport)
    }
    /// Get out of the transport, on the side of `towards`.
    pub fn dismount(towards: P) -> Action {
        Action::new(Dismount.name()).at(towards)
    }
}
