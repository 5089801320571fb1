//! Landing and taking off (001 L3670-3692), and the end of nap-of-the-earth flight. Each is a
//! move action; not both in one activation. Rotor and VTOL aircraft land anywhere, fixed-wing ones
//! only on the ruleset's landing fields. A landed aircraft is on the ground: it stops flying nap of
//! the earth, may be in base contact (to load riders), and is Stationary if it does not move
//! (the movement states read `flies` as "flying now").

use cav_format::vocab::ActionKind as ActionWord;
use cav_format::{Airframe, ModelTrait};

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game, Lasts, Mark};

/// The aircraft landed or took off this turn (not both in one activation).
pub static LANDED_OR_TOOK_OFF: Mark = Mark { name: "landed-or-took-off", lasts: Lasts::Turn };

fn aircraft(game: &Game, model: usize) -> Result<(), String> {
    if game.rules.proc.flight.is_none() || !game.rules.has_trait(game.card(model).model_type, ModelTrait::Flies) {
        return Err("only an aircraft lands and takes off, where the ruleset has flight".into());
    }
    if game.models[model].has(&LANDED_OR_TOOK_OFF) {
        return Err("an aircraft may not land and take off in one activation".into());
    }
    Ok(())
}

/// Where the aircraft stands, may it touch down or lift off?
fn may_use_ground(game: &Game, model: usize) -> Result<(), String> {
    if matches!(game.card(model).airframe, Some(Airframe::Rotor | Airframe::Vtol)) {
        return Ok(());
    }
    let fields = game.rules.proc.flight.as_ref().map(|f| f.landing_fields.as_slice()).unwrap_or_default();
    let p = game.models[model].pos;
    if game.board.areas.iter().any(|a| fields.contains(&a.terrain) && a.poly.contains(p)) {
        return Ok(());
    }
    Err("only rotor and VTOL aircraft land and take off away from a landing field".into())
}

pub struct Land;

impl ActionKind for Land {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "land"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, _action: &Action) -> Result<(), String> {
        aircraft(game, model)?;
        if game.models[model].landed {
            return Err("the aircraft has already landed".into());
        }
        may_use_ground(game, model)
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.end_noe(model);
        let me = &mut engine.game.models[model];
        me.landed = true;
        me.mark(&LANDED_OR_TOOK_OFF);
        emit!(engine, Event::Flight { model, what: "landed" });
        Ok(())
    }
}

pub struct TakeOff;

impl ActionKind for TakeOff {
    fn id(&self) -> ActionWord {
        ActionWord::Move
    }
    fn name(&self) -> &'static str {
        "take-off"
    }
    fn repeatable(&self) -> bool {
        true
    }
    fn check(&self, game: &Game, model: usize, _action: &Action) -> Result<(), String> {
        aircraft(game, model)?;
        if !game.models[model].landed {
            return Err("the aircraft is already in flight".into());
        }
        may_use_ground(game, model)
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let me = &mut engine.game.models[model];
        me.landed = false;
        me.mark(&LANDED_OR_TOOK_OFF);
        emit!(engine, Event::Flight { model, what: "took-off" });
        Ok(())
    }
}

impl Action {
    pub fn land() -> Action {
        Action::new(Land.name())
    }
    pub fn take_off() -> Action {
        Action::new(TakeOff.name())
    }
}

impl Engine<'_, '_> {
    /// The aircraft stops flying nap of the earth (a combat action, landing, an activation that
    /// does not end with an NoE move).
    pub(crate) fn end_noe(&mut self, model: usize) {
        if std::mem::take(&mut self.game.models[model].features.flight.noe) {
            emit!(self, Event::Flight { model, what: "noe-ends" });
        }
    }
}
