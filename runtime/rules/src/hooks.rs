//! The hook trait: how special-attribute behaviour (Lua scripts, later) plugs into the engine.
//! The engine calls it at every moment the catalog names; a hook sees the game read-only and may
//! only add modifiers (each with its source) — never mutate the state directly.

use cav_format::HookPoint;

use crate::event::ModApplied;
use crate::game::state::Game;

/// The context of one hook call.
pub struct HookCtx<'a> {
    pub point: HookPoint,
    /// The model the moment belongs to (the attacker for attack moments).
    pub model: usize,
    /// The other model involved (the target of an attack), if any.
    pub target: Option<usize>,
    /// The weapon mount involved, if any.
    pub weapon: Option<usize>,
    /// Modifiers of the roll or value being decided; a hook may push more (normalised: positive
    /// helps the roller).
    pub modifiers: &'a mut Vec<ModApplied>,
    /// Set by a hook to forbid what is being declared (`attack_declare`), with the reason.
    pub forbid: Option<String>,
    /// A value the moment lets hooks change (`attack_targets`: the area's radius in inches; a
    /// hook may only lower it). `None` where nothing may be changed.
    pub value: Option<f64>,
}

pub trait Hooks {
    /// False when no item has a handler: the engine then skips building contexts at all.
    fn active(&self) -> bool;
    /// Whether any item handles `point` (the engine skips the call otherwise).
    fn wants(&self, _point: HookPoint) -> bool {
        self.active()
    }
    /// Called at `ctx.point`; an error stops the game cleanly with its message.
    fn call(&mut self, game: &Game, ctx: &mut HookCtx) -> Result<(), String>;
    /// Lines the scripts printed since the last call; the engine puts them in the event log.
    fn take_prints(&mut self) -> Vec<String> {
        Vec::new()
    }
}

/// No scripted behaviour: the declarative effects in the packs still apply.
pub struct NoHooks;

impl Hooks for NoHooks {
    fn active(&self) -> bool {
        false
    }
    fn call(&mut self, _: &Game, _: &mut HookCtx) -> Result<(), String> {
        Ok(())
    }
}
