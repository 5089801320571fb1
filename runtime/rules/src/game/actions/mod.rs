//! The actions a model may take, one module each. A module implements [`ActionKind`] (its name,
//! the pack's action type it pays for, whether it repeats, its own legality checks and its
//! resolution) and may declare the [`Mark`](super::Mark)s it puts on models and the
//! [`Action`] constructors controllers use. [`Engine::activate`](super::Engine::activate) keeps
//! only the checks all actions share and calls through.
//!
//! Adding an action: a new file here and one line in [`ALL`] (plus its `action_type` entry in the
//! packs, which gives the AP cost; a ruleset without that action type does not have the action).
//!
//! `move`, `reverse`, `stand-up` and `go-prone` are four kinds in one module (`move_`): the
//! rulebook makes all of them the Move action (same action type, same cost, repeatable).

use cav_format::vocab::ActionKind as ActionWord;

use super::{Controller, Engine, EngineError, Game};
use crate::geom::P;

mod break_;
mod call_strike;
mod charge;
mod close_combat;
pub mod combat;
mod dig_in;
mod field_repair;
mod flight;
mod hold;
pub(crate) mod lay_barrier;
mod move_;
mod move_and_shoot;
mod overwatch;
mod regroup;
mod repair;
mod run_n_gun;
mod salvo_fire;
mod special;
mod stomp;
mod structure_fire;
mod tag;
mod target_lock;
mod towing;
mod transport;

pub use break_::FAILED_BREAK;
pub use close_combat::ENGAGED;
pub use combat::POPPED_UP;
pub use dig_in::DUG_IN;
pub use field_repair::field_repair_target;
pub use move_::ENTERING;
pub use overwatch::OVERWATCH;
pub use towing::LIMBERED;
pub use transport::{DISMOUNTED, MOUNTED};

/// Every action the engine knows, one line each.
pub const ALL: &[&dyn ActionKind] = &[
    &move_::FORWARD,
    &move_::BACKWARD,
    &move_::SHIFT,
    &move_::StandUp,
    &move_::GoProne,
    &target_lock::TargetLock,
    &combat::Fire,
    &move_and_shoot::MoveAndShoot,
    &salvo_fire::SalvoFire,
    &run_n_gun::RunNGun,
    &close_combat::CloseCombat,
    &break_::Break,
    &overwatch::Overwatch,
    &repair::Repair,
    &regroup::Regroup,
    &charge::Charge,
    &dig_in::DigIn,
    &field_repair::FieldRepair,
    &lay_barrier::LayBarrier,
    &call_strike::CallStrike,
    &flight::Land,
    &flight::TakeOff,
    &transport::Mount,
    &transport::Dismount,
    &towing::Limber,
    &towing::Unlimber,
    &special::Special,
    &stomp::Stomp,
    &tag::Tag,
    &structure_fire::StructureFire,
    &hold::Hold,
];

/// Actions the engine plays as reactions, outside the acting model's activation (their cost is
/// paid from the reacting model's next activation).
pub const REACTIONS: &[ActionWord] = &[ActionWord::DefensiveFire, ActionWord::CounterBattery];

/// The action named `name`, if the engine has it.
pub fn find(name: &str) -> Option<&'static dyn ActionKind> {
    ALL.iter().copied().find(|k| k.name() == name)
}

/// One kind of action.
pub trait ActionKind: Sync {
    /// The action type in the packs (`combat`, `target-lock`, `salvo-fire`), a word of the
    /// declared vocabulary: its AP cost is read from the pack's `action_type` document.
    fn id(&self) -> ActionWord;
    /// The name controllers and scenario tests (`do:`) use; unique. The id unless several kinds
    /// share one action type (`reverse` is a `move`) or the rulebook's verb differs (`fire`).
    fn name(&self) -> &'static str {
        self.id().id()
    }
    /// What it counts as for "once per activation" (salvo, run 'n gun, close combat: `combat`).
    fn counts_as(&self) -> ActionWord {
        self.id()
    }
    fn repeatable(&self) -> bool;
    /// Whether `model`, riding in a transport, may take it now (dismounting; firing through a
    /// free gun port).
    fn taken_aboard(&self, _game: &Game, _model: usize) -> bool {
        false
    }
    /// Whether it may split its weapons between targets ([`Action::split`]).
    fn splits(&self) -> bool {
        false
    }
    /// AP it costs `model` now: the pack's cost of [`id`](Self::id); `None` when the ruleset has
    /// no such action type (the ruleset does not have the action).
    /// (Callers use [`cost_of`], which also applies the action type's `free_with`.)
    fn cost(&self, game: &Game, _model: usize, _action: &Action) -> Option<u32> {
        game.rules.action_costs.get(self.id().id()).copied()
    }
    /// Where the action would move the model to, if it moves it (its `to`; a charge: its
    /// target): what a feature's `move_declared` check (coherency) judges before anything happens.
    fn moves_to(&self, _game: &Game, _action: &Action) -> Option<P> {
        None
    }
    /// Legality beyond the shared checks, before anything happens; `Err` is the reason.
    fn check(&self, _game: &Game, _model: usize, _action: &Action) -> Result<(), String> {
        Ok(())
    }
    fn resolve(
        &self,
        engine: &mut Engine,
        model: usize,
        action: &Action,
        ctrl: &mut dyn Controller,
    ) -> Result<(), ActionError>;
}

/// The action type `action` (of `kind`) is taken as: a ruleset's own (`declared`), else the
/// engine's word for its kind.
pub fn type_id<'r>(kind: &dyn ActionKind, action: &Action, rules: &'r crate::Rules) -> &'r str {
    match action.declared.and_then(|d| rules.own_actions.get(d as usize)) {
        Some(own) => &own.id,
        None => kind.id().id(),
    }
}

/// The name `action` is known by in usage counts and reports: the ruleset's own action type's id
/// where it is taken as one (`run`), else the engine's name for its kind (`move`, `fire`).
pub fn name_of<'a>(action: &'a Action, rules: &'a crate::Rules) -> &'a str {
    match action.declared.and_then(|d| rules.own_actions.get(d as usize)) {
        Some(own) => &own.id,
        None => action.kind,
    }
}

/// AP `action` costs `model` now: its kind's cost (a ruleset's own action type: its own, times
/// the moves taken as one), or none where a special attribute of the model or of one of its
/// weapons makes the action type free (`free_with`: Locked-On's target-lock; HARM munitions
/// carry it on the weapon) — whatever the kind's own reckoning.
pub fn cost_of(kind: &dyn ActionKind, game: &Game, model: usize, action: &Action) -> Option<u32> {
    let ty = type_id(kind, action, game.rules);
    let cost = match action.declared {
        Some(_) => game.rules.action_costs.get(ty).copied()?.saturating_mul(action.moves.max(1)),
        None => kind.cost(game, model, action)?,
    };
    let free = game.rules.action_free_with.get(ty).is_some_and(|with| {
        let card = game.card(model);
        let mut sas = card.sas.iter().chain(card.weapons.iter().flat_map(|w| &w.sas));
        sas.any(|(s, _)| with.contains(s))
    });
    Some(if free { 0 } else { cost })
}

/// Why an action stopped: it was not allowed (the game stops with the reason), or the engine failed.
#[derive(Debug)]
pub enum ActionError {
    Illegal(String),
    Engine(EngineError),
}

impl From<EngineError> for ActionError {
    fn from(e: EngineError) -> Self {
        ActionError::Engine(e)
    }
}

/// How far a firing point may lie off the line to the end point, in inches (a measuring
/// tolerance: the engine moves in straight lines).
pub(crate) const ON_PATH: f64 = 0.05;

/// Why the firing point `via` of a move that attacks on the way (move and shoot, run 'n gun) may
/// not be used: it must lie on the straight path from the model's place to `to`.
pub(crate) fn firing_point_refusal(game: &Game, model: usize, via: P, to: P) -> Result<(), String> {
    let from = game.models[model].pos;
    if from.dist(via) + via.dist(to) - from.dist(to) > ON_PATH {
        return Err("the firing point must lie on the path to the end point".into());
    }
    Ok(())
}

/// What a controller asks a model to do: an action kind by name (see [`ALL`]) and what it needs.
/// Each action module adds its constructors (`Action::fire`, `Action::move_to`, …).
#[derive(Clone, PartialEq)]
pub struct Action {
    /// [`ActionKind::name`], or [`Action::PASS`].
    pub kind: &'static str,
    pub target: Option<usize>,
    pub to: Option<P>,
    /// A point on the way to `to` (move and shoot: where the attack is made).
    pub via: Option<P>,
    /// A move's corners before `to`: one move action along them, one free facing change.
    pub path: Vec<P>,
    pub weapons: Vec<usize>,
    /// Split fire: further targets of the same combat action, each with its own weapon mounts
    /// (the ruleset's `procedures.multiple_targets`).
    pub split: Vec<(usize, Vec<usize>)>,
    pub indirect: bool,
    /// A move flown nap of the earth (aircraft in flight).
    pub noe: bool,
    /// Spend a C3 point to inspire this action's first target-point roll (declared with it).
    pub inspire: bool,
    /// A move taken as this many Move actions in one continuous move (their AP, their MV and
    /// their free facing changes together, 001 L2975-2997); 1 for every other action.
    pub moves: u32,
    /// The Special action's declared option (`ctx.option`: Smoke's `cloud` or `line`).
    pub option: Option<String>,
    /// A ruleset's own action type this action is taken as (index into `Rules::own_actions`):
    /// Sythopian Wars' RUN, a `move`. Its cost, action slots and model types are the type's.
    pub declared: Option<u16>,
}

impl Action {
    /// Ends the activation.
    pub const PASS: &'static str = "pass";

    pub fn new(kind: &'static str) -> Action {
        Action {
            kind,
            target: None,
            to: None,
            via: None,
            path: Vec::new(),
            weapons: Vec::new(),
            split: Vec::new(),
            indirect: false,
            noe: false,
            inspire: false,
            moves: 1,
            declared: None,
            option: None,
        }
    }
    pub fn pass() -> Action {
        Action::new(Action::PASS)
    }
    pub fn is_pass(&self) -> bool {
        self.kind == Action::PASS
    }
    pub fn at(mut self, to: P) -> Action {
        self.to = Some(to);
        self
    }
    pub fn on(mut self, target: usize) -> Action {
        self.target = Some(target);
        self
    }
    pub fn with(mut self, weapons: Vec<usize>) -> Action {
        self.weapons = weapons;
        self
    }
    /// The target, or the reason it is illegal without one.
    pub fn target(&self) -> Result<usize, String> {
        self.target.ok_or_else(|| format!("{} needs a target", self.kind))
    }
    /// The point to go to, or the reason it is illegal without one.
    pub fn to(&self) -> Result<P, String> {
        self.to.ok_or_else(|| format!("{} needs a point to go to", self.kind))
    }
}

/// `fire { target: 1, weapons: [0, 2] }`: the name and what is given.
impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct(self.kind);
        if let Some(to) = self.to {
            s.field("to", &to);
        }
        if let Some(target) = self.target {
            s.field("target", &target);
        }
        if !self.weapons.is_empty() {
            s.field("weapons", &self.weapons);
        }
        if self.indirect {
            s.field("indirect", &true);
        }
        if let Some(d) = self.declared {
            s.field("declared", &d);
        }
        s.finish()
    }
}

#[cfg(test)]
mod tests {
    use cav_format::vocab::ActionKind as ActionWord;

    /// The vocabulary and the modules agree: every action id declared implemented is played (as
    /// an action here or as a reaction), and every module's id is declared implemented.
    #[test]
    fn implemented_actions_are_the_declared_ones() {
        for k in super::ALL {
            assert!(k.id().status().implemented(), "{} is played but declared {:?}", k.name(), k.id().status());
        }
        for w in ActionWord::ALL.iter().filter(|w| w.status().implemented()) {
            assert!(
                super::ALL.iter().any(|k| k.id() == *w) || super::REACTIONS.contains(w),
                "{w} is declared implemented but no action plays it"
            );
        }
    }
}
