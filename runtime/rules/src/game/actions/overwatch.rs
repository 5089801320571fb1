//! Over-watch (001 L5037-5073, L5254-5272): hold a direct-fire assault for an enemy that moves
//! in sight later; the watch lasts until the model takes another action or fires.

use super::combat::FIRED_OUT_OF_TURN;
use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, EngineError, Game, Lasts, Mark, Shot};
use crate::hooks::HookCtx;
use cav_format::HookPoint;
use cav_format::vocab::ActionKind as ActionWord;

/// On over-watch. Any other action ends it ([`Lasts::NextAction`]; going on over-watch again
/// sets it again), and so does firing from it.
pub static OVERWATCH: Mark = Mark { name: "overwatch", lasts: Lasts::NextAction };

pub struct Overwatch;

impl ActionKind for Overwatch {
    fn id(&self) -> ActionWord {
        ActionWord::Overwatch
    }
    fn repeatable(&self) -> bool {
        false
    }
    /// Keeping a watch already held may cost less (the ruleset's re-fire cost).
    fn cost(&self, game: &Game, model: usize, _: &Action) -> Option<u32> {
        let cost = game.rules.action_costs.get(self.id().id()).copied()?;
        Some(match game.rules.proc.overwatch {
            Some(rule) if game.models[model].has(&OVERWATCH) => rule.refire_cost,
            _ => cost,
        })
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        _: &Action,
        _: &mut dyn Controller,
    ) -> Result<(), ActionError> {
        engine.game.models[model].mark(&OVERWATCH);
        emit!(engine, Event::Overwatch { model });
        // The state the ruleset gives a model on over-watch (the full rules: Stationary).
        if let Some(state) = engine.rules().proc.overwatch.and_then(|o| o.state) {
            engine.add_state(model, state)?;
        }
        Ok(())
    }
}

impl Action {
    pub fn overwatch() -> Action {
        Action::new(Overwatch.name())
    }
}

impl Engine<'_, '_> {
    /// Enemies on over-watch that now see the mover may fire; their damage applies at once.
    pub(crate) fn overwatch_check(&mut self, mover: usize, ctrl: &mut dyn Controller) -> Result<bool, EngineError> {
        let side = self.game.models[mover].side;
        let mut fired = false;
        for watcher in 0..self.game.models.len() {
            let on_watch = &self.game.models[watcher];
            if on_watch.side == side
                || !on_watch.has(&OVERWATCH)
                || !on_watch.on_table()
                || !self.game.models[mover].on_table()
            {
                continue;
            }
            let n = self.game.card(watcher).weapons.len();
            let shooter = self.game.shooter(watcher);
            let can = (0..n).any(|k| matches!(shooter.shot(k, mover, false), Some(Shot::Direct { .. })));
            if !can {
                continue;
            }
            // Asked once per move: a watcher whose reaction a script refused stays refused for
            // the rest of this move (the check runs at every step of the path).
            if self.game.refused_reactions.contains(&(watcher, mover)) {
                continue;
            }
            if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, watcher).target(mover))?.forbid {
                emit!(self, Event::Forbidden { model: watcher, what: "reaction", reason });
                self.game.refused_reactions.push((watcher, mover));
                continue;
            }
            let Some(weapons) = ctrl.overwatch_fire(&self.game, watcher, mover) else { continue };
            self.game.models[watcher].unmark(&OVERWATCH);
            self.game.models[watcher].mark(&FIRED_OUT_OF_TURN);
            emit!(self, Event::OverwatchFire { model: watcher, target: mover });
            for k in weapons {
                if let Some(Shot::Direct { band, distance }) = self.game.shooter(watcher).shot(k, mover, false) {
                    for _ in 0..self.game.copies_in_arc(watcher, k, mover) {
                        if self.game.models[mover].on_table() && !self.game.models[watcher].out_of_ammo[k] {
                            self.attack_roll(watcher, k, mover, band, distance, 0, 0, false)?;
                        }
                    }
                }
            }
            self.resolve_pending(mover)?;
            fired = true;
        }
        Ok(fired)
    }
}
