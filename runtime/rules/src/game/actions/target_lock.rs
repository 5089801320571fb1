//! Target-lock (001 L5794-5834): lock onto an enemy model until the model's next activation;
//! guided missiles and targeting computers need it.

use cav_format::HookPoint;
use cav_format::vocab::ActionKind as ActionWord;

use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, EngineError, Game};
use crate::hooks::HookCtx;

pub struct TargetLock;

impl ActionKind for TargetLock {
    fn id(&self) -> ActionWord {
        ActionWord::TargetLock
    }
    fn repeatable(&self) -> bool {
        false
    }
    fn check(&self, game: &Game, model: usize, action: &Action) -> Result<(), String> {
        let target = action.target()?;
        if target >= game.models.len()
            || !game.models[target].on_table()
            || game.models[target].side == game.models[model].side
        {
            return Err("not an enemy model on the table".into());
        }
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        let target = action.target().map_err(ActionError::Illegal)?;
        if !engine.targeting_attempt(model, target, "target-lock")? {
            return Ok(());
        }
        engine.game.models[model].lock = Some(target);
        engine.game.models[model].lock_from = None;
        emit!(engine, Event::TargetLock { model, target });
        // EST: the lock on an enemy within its range passes to the squad at once (001 L7251-7267).
        let g = &engine.game;
        if let (Some(reach), Some(squad)) = (g.card(model).share_lock, g.models[model].squad)
            && g.range(model, target) <= reach
        {
            let mates: Vec<usize> =
                g.squads[squad].members.iter().copied().filter(|&m| m != model && g.models[m].on_table()).collect();
            for mate in mates {
                engine.game.models[mate].lock = Some(target);
                engine.game.models[mate].lock_from = Some(model);
                emit!(engine, Event::LockShared { model: mate, from: model, target });
            }
        }
        Ok(())
    }
}

impl Action {
    pub fn target_lock(target: usize) -> Action {
        Action::new(TargetLock.name()).on(target)
    }
}

impl Engine<'_, '_> {
    /// A targeting attempt on `target` (a target-lock, a TAG's paint): `target_lock` handlers may
    /// refuse it (Counter-Measures), which is logged as `what` forbidden. Declared and paid for
    /// either way; `false` when refused.
    pub(crate) fn targeting_attempt(
        &mut self,
        model: usize,
        target: usize,
        what: &'static str,
    ) -> Result<bool, EngineError> {
        let ctx = HookCtx::new(HookPoint::TargetLock, model).target(target);
        match self.call_hooks(ctx)?.forbid {
            Some(reason) => {
                emit!(self, Event::Forbidden { model, what, reason });
                Ok(false)
            }
            None => Ok(true),
        }
    }
}
