//! Over-watch (000 L839-856, 001 L5037-5073, L5254-5272): hold a direct-fire assault for an enemy
//! that moves in sight later. The watch lasts, turn to turn, until the model takes another action;
//! firing spends the held attack but not the watch, and each further attack from it costs the
//! ruleset's re-fire AP (the Quick-Start 1, the full rules 2), owed by the model's next activation
//! like any reaction's AP.

use super::combat::FIRED_OUT_OF_TURN;
use super::{Action, ActionError, ActionKind};
use crate::event::Event;
use crate::game::{Controller, Engine, EngineError, Game, Lasts, Mark, Model, Shot};
use crate::hooks::HookCtx;
use cav_format::HookPoint;
use cav_format::vocab::ActionKind as ActionWord;

/// On over-watch with an attack held (paid by the action that declared or renewed the watch).
/// Any other action ends it ([`Lasts::NextAction`]; going on over-watch again sets it again).
pub static OVERWATCH: Mark = Mark { name: "overwatch", lasts: Lasts::NextAction };
/// Still on over-watch after firing from it: a further attack costs the re-fire AP.
pub static OVERWATCH_SPENT: Mark = Mark { name: "overwatch-spent", lasts: Lasts::NextAction };

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
            Some(rule) if on_watch(&game.models[model]) => rule.refire_cost,
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
        engine.game.models[model].unmark(&OVERWATCH_SPENT);
        engine.game.models[model].mark(&OVERWATCH);
        emit!(engine, Event::Overwatch { model });
        // The state the ruleset gives a model on over-watch (the full rules: Stationary).
        if let Some(state) = engine.rules().proc.overwatch.and_then(|o| o.state) {
            engine.add_own_state(model, state)?;
        }
        Ok(())
    }
}

/// On over-watch, with its attack held or already spent.
pub fn on_watch(model: &Model) -> bool {
    model.has(&OVERWATCH) || model.has(&OVERWATCH_SPENT)
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
            let w = &self.game.models[watcher];
            if w.side == side || !on_watch(w) || !w.on_table() || !self.game.models[mover].on_table() {
                continue;
            }
            let n = self.game.card(watcher).weapons.len();
            let shooter = self.game.shooter(watcher);
            let can = (0..n).any(|k| matches!(shooter.shot(k, mover, false), Some(Shot::Direct { .. })));
            if !can {
                continue;
            }
            // Asked once per move: a watcher whose reaction a script refused stays refused for
            // the rest of this move (the check runs at every step of the path), and one that
            // stopped the mover once has had its stop.
            if self.game.settled_reactions.contains(&(watcher, mover)) {
                continue;
            }
            // A further attack from a spent watch costs the re-fire AP, which the model's next
            // activation must still be able to pay.
            let refire = match self.rules().proc.overwatch {
                Some(rule) if !w.has(&OVERWATCH) => rule.refire_cost,
                _ => 0,
            };
            if w.ap_owed.saturating_add(refire) > self.rules().action_points {
                continue;
            }
            if let Some(reason) = self.call_hooks(HookCtx::new(HookPoint::Reaction, watcher).target(mover))?.forbid {
                emit!(self, Event::Forbidden { model: watcher, what: "reaction", reason });
                self.game.settled_reactions.push((watcher, mover));
                continue;
            }
            let Some(weapons) = ctrl.overwatch_fire(&self.game, watcher, mover) else { continue };
            self.game.settled_reactions.push((watcher, mover));
            let me = &mut self.game.models[watcher];
            me.unmark(&OVERWATCH);
            me.mark(&OVERWATCH_SPENT);
            me.mark(&FIRED_OUT_OF_TURN);
            me.ap_owed += refire;
            emit!(self, Event::OverwatchFire { model: watcher, target: mover });
            let mut shots = Vec::new();
            for k in weapons {
                if let Some(Shot::Direct { band, distance }) = self.game.shooter(watcher).shot(k, mover, false) {
                    for _ in 0..self.game.copies_in_arc(watcher, k, mover) {
                        if self.game.models[mover].on_table() && !self.game.models[watcher].out_of_ammo[k] {
                            self.attack_roll(watcher, k, mover, band, distance, 0, 0, false)?;
                            shots.push(k);
                        }
                    }
                }
            }
            self.combat_end(watcher, &shots)?;
            self.resolve_pending(mover)?;
            fired = true;
        }
        Ok(fired)
    }
}
