//! Towed guns (001 L11595-11606): a model with the `towed` trait never moves on its own (its MV is
//! 0 whatever its card says). To change position it spends an activation packing up (`limber`),
//! is hitched to a friendly tow in base contact (`mount`, a model of a type the ruleset's
//! `procedures.towing` lists) and travels as its load, is unhitched beside it (`dismount`), and
//! spends an activation setting up again (`unlimber`). A limbered gun does not fire. Hitched, it is
//! off the table like a rider (read as the transport rule: it cannot be shot on its own and is
//! lost with its tow).

use cav_format::ModelTrait;
use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, Game, Lasts, Mark};

/// Packed up to be towed: it does not fire until it unlimbers.
pub static LIMBERED: Mark = Mark { name: "limbered", lasts: Lasts::Cleared };

fn towed(game: &Game, model: usize) -> Result<(), String> {
    if !game.rules.has_trait(game.card(model).model_type, ModelTrait::Towed) {
        return Err("only a towed gun limbers and unlimbers".into());
    }
    Ok(())
}

pub struct Limber;

impl ActionKind for Limber {
    fn id(&self) -> ActionWord {
        ActionWord::Limber
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, _: &Action) -> Result<(), String> {
        towed(game, model)?;
        if game.models[model].has(&LIMBERED) {
            return Err("the gun is already limbered".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.game.models[model].mark(&LIMBERED);
        emit!(engine, Event::Towing { model, what: "limbered" });
        Ok(())
    }
}

pub struct Unlimber;

impl ActionKind for Unlimber {
    fn id(&self) -> ActionWord {
        ActionWord::Unlimber
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, _: &Action) -> Result<(), String> {
        towed(game, model)?;
        if !game.models[model].has(&LIMBERED) {
            return Err("the gun is not limbered".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.game.models[model].unmark(&LIMBERED);
        emit!(engine, Event::Towing { model, what: "unlimbered" });
        Ok(())
    }
}

impl Action {
    /// A towed gun packs up to be towed.
    pub fn limber() -> Action {
        Action::new(Limber.name())
    }
    /// A towed gun sets up to fire.
    pub fn unlimber() -> Action {
        Action::new(Unlimber.name())
    }
}
