//! The hook trait: how special-attribute behaviour (Luau scripts) plugs into the engine.
//!
//! The engine calls it at every hook point of the vocabulary (`HookPoint`) with a `HookCtx`: the
//! moment, read-only. Handlers never touch the state: they queue `Effect`s, and the engine applies
//! them once every handler of the moment has returned — so a failing script changes nothing —
//! logging each with its source (`Event::ScriptEffect`).

use cav_format::{HookPoint, Quantity};

use crate::compile::StateIx;
use crate::event::Roll;
use crate::game::state::Game;
use crate::geom::P;

/// The context of one hook call.
#[derive(Debug, Clone)]
pub struct HookCtx {
    pub point: HookPoint,
    /// The model the moment belongs to (the attacker for attack moments, the mover, …).
    pub model: usize,
    /// The other model involved (the target of an attack, the model under a template), if any.
    pub target: Option<usize>,
    /// The weapon mount involved, if any.
    pub weapon: Option<usize>,
    /// The range band of the attack (index in `Rules::bands`), where there is one.
    pub band: Option<usize>,
    /// The roll in progress (`combat_dice`, `crit_fumble`).
    pub roll: Option<Roll>,
    /// `model_state`: the state, and whether it is being gained (else it was lost).
    pub state: Option<(StateIx, bool)>,
    /// The value the moment offers (`ctx.value`): a radius, a range, a move value.
    pub value: Option<f64>,
    /// The attack is defensive fire (`ctx.defensive`): some bonuses do not apply to it.
    pub defensive: bool,
    /// The point on the table the moment is at (`ctx.at`: where an attack lands).
    pub at: Option<P>,
    /// The option the Special action was declared with (`ctx.option`).
    pub option: Option<String>,
    /// What the handlers asked for, in the order they asked.
    pub effects: Vec<Queued>,
    /// The rolls handlers made (`ctx.roll_dice`), in order: the engine logs them.
    pub rolls: Vec<Roll>,
}

impl HookCtx {
    pub fn new(point: HookPoint, model: usize) -> HookCtx {
        HookCtx {
            point,
            model,
            target: None,
            weapon: None,
            band: None,
            roll: None,
            state: None,
            value: None,
            defensive: false,
            at: None,
            option: None,
            effects: Vec::new(),
            rolls: Vec::new(),
        }
    }
    pub fn target(mut self, t: impl Into<Option<usize>>) -> Self {
        self.target = t.into();
        self
    }
    pub fn weapon(mut self, w: usize) -> Self {
        self.weapon = Some(w);
        self
    }
    pub fn band(mut self, b: impl Into<Option<usize>>) -> Self {
        self.band = b.into();
        self
    }
    pub fn value(mut self, v: f64) -> Self {
        self.value = Some(v);
        self
    }
    pub fn at(mut self, p: P) -> Self {
        self.at = Some(p);
        self
    }
    pub fn defensive(mut self, d: bool) -> Self {
        self.defensive = d;
        self
    }
}

/// One effect a handler asked for, with who asked.
#[derive(Debug, Clone, PartialEq)]
pub struct Queued {
    /// The model whose special attribute asked.
    pub by: usize,
    /// The special attribute (its name), shown as the source in the log and the narrative.
    pub source: String,
    pub effect: Effect,
}

/// What a handler may ask for (the `HookEffect` words of the vocabulary).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub enum Effect {
    /// Change a named quantity; + adds to it (a + roll modifier helps the roller).
    Modifier {
        quantity: Quantity,
        label: String,
        value: i32,
    },
    Forbid {
        reason: String,
    },
    SetValue(f64),
    Damage {
        model: usize,
        points: u32,
    },
    ApplyState {
        model: usize,
        state: StateIx,
    },
    ClearState {
        model: usize,
        state: StateIx,
    },
    SpendAmmo {
        model: usize,
        mount: usize,
    },
    RestoreAmmo {
        model: usize,
        mount: usize,
    },
    /// The model's ammo-bin uses back to its card's number.
    RefillAmmoBins {
        model: usize,
    },
    /// Throw these dice for the combat roll instead of the standard ones.
    SetDice(crate::dice::DiceExpr),
    /// Move a model straight towards a point, spending no MV (`ctx.move_model`).
    MoveModel {
        model: usize,
        x: f64,
        y: f64,
    },
    /// Put this special attribute's marker `id` at a point (`ctx.place_marker`).
    PlaceMarker {
        sa: crate::compile::SaIx,
        id: String,
        x: f64,
        y: f64,
    },
    /// Take this special attribute's marker `id` off the board (`ctx.remove_marker`).
    RemoveMarker {
        sa: crate::compile::SaIx,
        id: String,
    },
    /// Put a model at a point (`ctx.place_model`).
    PlaceModel {
        model: usize,
        x: f64,
        y: f64,
    },
    /// Take a model out of play (`ctx.remove_model`): destroyed, or off the board.
    RemoveModel {
        model: usize,
        destroyed: bool,
    },
    /// Row `key` of table `table` (index in `Rules::lookup_tables`) lands on a model
    /// (`ctx.table_row`).
    TableRow {
        model: usize,
        table: usize,
        key: i32,
    },
    /// Turn a model on the spot (`ctx.turn_model`).
    TurnModel {
        model: usize,
        facing: f64,
    },
    /// Throw die `die` (0-based) of the roll in progress again.
    Reroll {
        die: usize,
    },
    /// Lay a round piece of terrain type `terrain` (index in `Rules::terrains`), lifted at the
    /// start of the laying model's `activations`-th next activation.
    PlaceTerrain {
        terrain: usize,
        x: f64,
        y: f64,
        radius: f64,
        activations: u32,
    },
    /// Remember a value (boxed: the rarest effect would double the size of every other).
    SetFlag(Box<FlagSet>),
}

/// What `Effect::SetFlag` remembers: a value (`None`: forget it) under the special attribute `sa`
/// whose handler asked.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct FlagSet {
    pub sa: crate::compile::SaIx,
    pub scope: crate::game::FlagScope,
    pub key: String,
    pub value: Option<crate::game::FlagValue>,
}

pub trait Hooks {
    /// False when no item has a handler: the engine then skips building contexts at all.
    fn active(&self) -> bool;
    /// Whether any item handles `point` (the engine skips the call otherwise).
    fn wants(&self, _point: HookPoint) -> bool {
        self.active()
    }
    /// Whether a handler may run at this moment: `wants`, narrowed to the models and the weapon
    /// of the moment (`model`'s card, `weapon`'s mount, `target`'s card, any aura on the table).
    /// The engine asks it before building a context's costlier parts and skips the call when it
    /// says no, so it may say yes when no handler runs, never no when one would.
    fn wants_at(
        &mut self,
        _game: &Game,
        point: HookPoint,
        _model: usize,
        _target: Option<usize>,
        _weapon: Option<usize>,
    ) -> bool {
        self.wants(point)
    }
    /// Whether a handler of `model`'s own special attributes (card or weapons) handles `point`
    /// (the Special action is legal only then).
    fn handles(&self, _game: &Game, _model: usize, point: HookPoint) -> bool {
        self.wants(point)
    }
    /// Called at `ctx.point`; handlers queue effects in `ctx.effects`, and a roll they make
    /// (`ctx.roll_dice`) comes from `dice`, the game's one dice source, and is kept in
    /// `ctx.rolls`. An error stops the game cleanly with its message, and the engine applies none
    /// of the queued effects.
    fn call(&mut self, game: &Game, dice: &mut dyn crate::dice::Dice, ctx: &mut HookCtx) -> Result<(), String>;
    /// Lines the scripts printed since the last call; the engine puts them in the event log.
    fn take_prints(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// A new game starts (`Engine::start`): nothing of an earlier game may reach it — script
    /// modules start afresh, per-game budgets (printed bytes) start again.
    fn new_game(&mut self) {}
    /// A new game of the very rules of the last (each die sequence `cav odds` weighs): as
    /// `new_game`, but what the hooks worked out of the rules' cards may be kept.
    fn new_game_same_rules(&mut self) {
        self.new_game();
    }
    /// Script steps taken since the host was made, over every game (none without scripts): a
    /// command that plays many games holds them to a budget (`odds::Budget`).
    fn script_steps(&self) -> u64 {
        0
    }
    /// A combat action is declared and its rolls are next: may the engine keep a copy of the
    /// game here for later runs to resume from (`game/resume.rs`)? Only hooks that can give
    /// those runs what the handlers would have answered before this point say yes (the exact
    /// odds' `Prefix`, when no die was thrown yet).
    fn checkpoint(&mut self) -> bool {
        false
    }
}

/// No scripted behaviour: the declarative effects in the packs still apply.
pub struct NoHooks;

impl Hooks for NoHooks {
    fn active(&self) -> bool {
        false
    }
    fn call(&mut self, _: &Game, _: &mut dyn crate::dice::Dice, _: &mut HookCtx) -> Result<(), String> {
        Ok(())
    }
}
