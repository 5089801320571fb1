//! A combat action resumed after its declaration (exact odds, `odds.rs`). Every die sequence of
//! an attack plays the same game up to the attack's first die, so the first sequence keeps a
//! copy of the game where the declared attack's rolls start (a [`Checkpoint`]), and the later
//! ones play on from that copy instead of playing the activation and the declaration again.
//!
//! Sound only where nothing outside the game differs between the sequences at that point: no
//! die thrown yet, and every handler's answer until then given again to the later sequences.
//! The hooks say so (`Hooks::checkpoint`); the engine never keeps a checkpoint otherwise.

use super::actions::combat::{Declared, FirstRoll};
use super::combat::Aimed;
use super::*;

/// A combat action's game as its rolls start, and what its activation still had to do.
#[derive(Debug, Clone)]
pub struct Checkpoint<'r> {
    /// The game as the rolls start (with no checkpoint of its own).
    game: Box<Game<'r>>,
    /// How many events the run had logged by then.
    pub events: usize,
    declared: Declared,
    /// Its first direct-fire shot, aimed, where the checkpoint was kept once that shot was
    /// aimed (its roll the first die), not as the rolls started.
    aimed: Option<Box<Aimed>>,
    /// The activation's action under way: known once that action resolved in the run that kept
    /// the checkpoint (`None` until then, and in a checkpoint that cannot be resumed).
    under_way: Option<(UnderWay, Action)>,
}

/// An action of an activation being resolved (the action aside): what the activation does
/// once it has (`Engine::action_done`), and where it goes on from.
#[derive(Clone, Copy)]
pub(crate) struct UnderWay {
    pub model: usize,
    pub kind: &'static dyn ActionKind,
    pub cost: u32,
    /// What the acting model's answer to a reaction costs (`opposed.acting_answer_cost`).
    pub answer_cost: Option<u32>,
    /// Where its path stood as the action began (`Model::path`).
    pub path_from: usize,
    /// The ruleset's own action type it acted as before (`Game::acting_as`).
    pub acting_before: Option<u16>,
    /// Action points before it, and actions asked for so far.
    pub ap: u32,
    pub steps: u32,
}

impl std::fmt::Debug for UnderWay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UnderWay").field("model", &self.model).field("kind", &self.kind.name()).finish_non_exhaustive()
    }
}

impl<'r> Checkpoint<'r> {
    /// Whether the later sequences may start from it: the activation's action it was kept in
    /// resolved in the first run.
    pub fn resumable(&self) -> bool {
        self.under_way.is_some()
    }

    /// The game as the rolls start.
    pub fn game(&self) -> &Game<'r> {
        &self.game
    }
}

impl<'r> Engine<'_, 'r> {
    /// Keep a checkpoint here, where `declared`'s rolls are next, if the hooks allow one and
    /// none was kept yet; whether one was.
    pub(crate) fn checkpoint(&mut self, declared: &Declared) -> bool {
        if self.game.checkpoint.is_some() || !self.hooks.checkpoint() {
            return false;
        }
        let cp = Checkpoint {
            game: Box::new(self.game.clone()),
            events: self.log.logged(),
            declared: declared.clone(),
            aimed: None,
            under_way: None,
        };
        self.game.checkpoint = Some(Box::new(cp));
        true
    }

    /// The checkpoint just kept moves on to the first shot of its rolls, `aimed`, if the hooks
    /// still allow one there (aiming it threw no die).
    pub(crate) fn checkpoint_aimed(&mut self, aimed: &Aimed) {
        let Some(mut cp) = self.game.checkpoint.take() else { return };
        if self.hooks.checkpoint() {
            cp.game.copy_from(&self.game);
            cp.events = self.log.logged();
            cp.aimed = Some(Box::new(aimed.clone()));
        }
        self.game.checkpoint = Some(cp);
    }

    /// The action `step` resolved: the checkpoint kept while it did learns how its activation
    /// goes on; one kept by another action's attack (an over-watch shot before it) is dropped.
    pub(super) fn keep_under_way(&mut self, step: &UnderWay, action: &Action) {
        let Some(cp) = self.game.checkpoint.as_deref_mut() else { return };
        if cp.under_way.is_some() {
            return;
        }
        let fire = step.kind.name() == actions::combat::Fire.name();
        if fire && cp.declared.attacker == step.model && action.target.is_some_and(|t| cp.declared.plain_at(t)) {
            cp.under_way = Some((*step, action.clone()));
        } else {
            self.game.checkpoint = None;
        }
    }

    /// Play on from `cp` (taken from a run of the same attack in the same game): its rolls, the
    /// rest of their action and of the activation. The engine's game is made the checkpoint's;
    /// the log is to hold the events the run had logged by then.
    pub fn resume(&mut self, cp: &Checkpoint<'r>, ctrl: &mut dyn Controller) -> Result<(), EngineError> {
        let Some((step, action)) = &cp.under_way else {
            return Err(EngineError::IllegalAction {
                model: cp.game.models.get(cp.declared.attacker).map(|m| m.name.clone()).unwrap_or_default(),
                action: "resume".into(),
                reason: "the checkpoint was kept before its action resolved".into(),
            });
        };
        self.game.copy_from(&cp.game);
        let first = cp.aimed.as_ref().map_or(FirstRoll::Aim, |a| FirstRoll::Aimed(a.clone()));
        let resolved = self.fire_rolls(&cp.declared, first, ctrl);
        let resolved = self.own_action_done(step.model, action, step.acting_before, resolved);
        let ap = self.action_done(step, action, resolved, ctrl)?;
        self.actions(step.model, ap, step.steps, ctrl)
    }
}
