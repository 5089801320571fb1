//! The Lua host: implements the engine's `Hooks` with the scripts the packs name.
//!
//! A special attribute's module returns a table of handlers keyed by hook point (`combat_tp`,
//! `damage_calc`, `attack_declare`, …: the ids of `HookPoint` in the vocabulary). At a moment,
//! the handlers of every model involved run, in `vocab::HANDLER_ORDER`: the acting model's
//! special attributes, its weapon's, then the other model's. A handler gets a fresh read-only
//! view of the moment (`ctx`) and acts only through `ctx`'s effect functions, each refused where
//! the hook point does not accept it (`HookPoint::accepts`, `HookPoint::quantities`). Effects
//! are queued and handed to the engine only when every handler has returned.

use std::cell::{Cell, RefCell};
use std::ptr::NonNull;
use std::rc::Rc;

use cav_format::limits::{
    MAX_BOARD_INCHES, MAX_DICE, MAX_TURNS, SCRIPT_EFFECTS_PER_CALL, SCRIPT_LABEL_BYTES, SCRIPT_MODIFIER_VALUE,
};
use cav_format::vocab::{HANDLER_ORDER, Status};
use cav_format::{HookEffect, HookPoint, ModelType, ModifierTarget, Quantity};
use cav_rules::Rules;
use cav_rules::compile::StateIx;
use cav_rules::dice::Dice;
use cav_rules::event::Roll;
use cav_rules::game::Game;
use cav_rules::hooks::{Effect, HookCtx, Hooks, Queued};
use mlua::{AnyUserData, Function, Lua, Table, Value};

use crate::sandbox::{Limits, Sandbox, find_module, instantiate, load_chunk};

/// What the effect and board functions share with the host: the moment being called, the
/// effects the running handler has asked for, and the board while a moment's handlers run.
struct Shared {
    moment: Cell<Moment>,
    queue: RefCell<Vec<Effect>>,
    /// The moment being called (the game, its dice, the rolls made), lent by `Hooks::call` for
    /// exactly as long as its handlers run (`Lent`), `None` otherwise. See `Shared::live`.
    live: Cell<Option<NonNull<Live<'static, 'static>>>>,
    /// State ids, by state index.
    state_ids: Vec<String>,
    /// Terrain type ids, by terrain index (`ctx.place_terrain`).
    terrain_ids: Vec<String>,
    /// Makes `ctx.roll` tables in Luau (`ROLL_TABLE`): its constructor's keys are constants,
    /// where setting them one by one from Rust made and hashed each key string every time.
    roll_ctor: Function,
    /// Lua strings of roll kinds and dice expressions, made once (a ruleset has a handful).
    words: RefCell<Vec<(Box<str>, mlua::LuaString)>>,
    /// Names per model, shared by its views (by model index).
    names: RefCell<Vec<Option<CachedNames>>>,
    /// The game being played, counted from 0 (`Hooks::new_game`): what `names` were shown in.
    game: Cell<u64>,
    /// Lua strings made once, for the fields scripts read most: hook point ids (by
    /// `HookPoint as usize`), roles (by `Role as usize`), model types (by `ModelType as usize`),
    /// state ids (by state index), range bands (by band index) and the ruleset's id.
    points: Vec<mlua::LuaString>,
    roles: Vec<mlua::LuaString>,
    model_types: Vec<mlua::LuaString>,
    states: Vec<mlua::LuaString>,
    bands: Vec<mlua::LuaString>,
    ruleset: mlua::LuaString,
}

/// A moment whose handlers are running: what the board functions (`ctx.models`, `ctx.range`,
/// `ctx.roll_dice`, `ctx.opposed_roll`) and the effect functions reach.
struct Live<'g, 'r> {
    game: &'g Game<'r>,
    /// The game's one dice source, lent to the handlers in turn.
    dice: RefCell<&'g mut dyn Dice>,
    /// The rolls handlers made (`ctx.roll_dice`), for the engine to log.
    rolls: RefCell<Vec<Roll>>,
    /// The model whose handler runs (`ctx.roll_dice` logs its rolls as that model's), and its
    /// special attribute.
    roller: Cell<usize>,
    current_sa: Cell<u16>,
    /// `ctx.models()`, made once a moment: the board does not change while its handlers run.
    all_models: RefCell<Option<Table>>,
}

/// The lending of a `Live` to the Lua functions (`Shared::lend`): ends when dropped, also when
/// a panic unwinds through `Hooks::call`.
struct Lent<'s>(&'s Shared);

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.0.live.set(None);
    }
}

/// The functions of `ctx` that reach the board (the game and its dice), valid only while a
/// handler runs.
#[derive(Clone, Copy)]
enum Board {
    Models,
    Range,
    RollDice,
    OpposedRoll,
}

impl Board {
    const ALL: [Board; 4] = [Board::Models, Board::Range, Board::RollDice, Board::OpposedRoll];

    fn id(self) -> &'static str {
        match self {
            Board::Models => "models",
            Board::Range => "range",
            Board::RollDice => "roll_dice",
            Board::OpposedRoll => "opposed_roll",
        }
    }
}

/// The Luau constructor of `ctx.roll` tables (see `Shared::roll_ctor`).
const ROLL_TABLE: &str = "local freeze = table.freeze\n\
return function(kind, dice, natural_total, total, target, ...)\n\
\treturn freeze({ kind = kind, dice = dice, natural = freeze({ ... }), natural_total = natural_total, total = total, target = target })\n\
end";

/// At most this many words are kept in `Shared::words`; past it they are made at each use.
const WORDS_KEPT: usize = 64;

impl Shared {
    /// The Lua string of a word the engine names often (a roll's kind or dice).
    fn word(&self, lua: &Lua, text: &str) -> mlua::Result<mlua::LuaString> {
        let mut words = self.words.borrow_mut();
        if let Some((_, s)) = words.iter().find(|(w, _)| &**w == text) {
            return Ok(s.clone());
        }
        let s = lua.create_string(text)?;
        if words.len() < WORDS_KEPT {
            words.push((text.into(), s.clone()));
        }
        Ok(s)
    }

    /// `ctx.roll`: the roll in progress, frozen. `kind` is the roll's kind as Lua text.
    fn roll_table(&self, lua: &Lua, r: &Roll, kind: mlua::LuaString) -> mlua::Result<Table> {
        let natural_total: u32 = r.natural.iter().sum();
        let dice = self.word(lua, &r.dice)?;
        let natural = mlua::Variadic::from_iter(r.natural.iter().copied());
        self.roll_ctor.call((kind, dice, natural_total, r.total, r.target, natural))
    }

    /// Lend `live` to the Lua functions until the guard returned is dropped.
    fn lend<'s>(&'s self, live: &'s Live<'_, '_>) -> Lent<'s> {
        self.live.set(Some(NonNull::from(live).cast()));
        Lent(self)
    }

    /// The moment whose handlers are running, or `None` between calls (a script that kept a
    /// function of `ctx` and calls it later).
    fn live<R>(&self, f: impl FnOnce(Option<&Live<'_, '_>>) -> R) -> R {
        // SAFETY: `live` is set only by `lend`, from a `&'s Live` that outlives the `Lent<'s>`
        // guard it returns, and the guard clears it when dropped (also on unwinding); so a
        // pointer found here points at a `Live` that is alive and that nothing borrows mutably
        // (`Hooks::call` keeps only shared borrows of it; its mutable parts are `Cell`s and
        // `RefCell`s). Lua is single-threaded and `Shared` is not `Send`. The lifetimes erased
        // by `lend` never leave `f`, which works for any lifetimes.
        f(self.live.get().map(|p| unsafe { p.as_ref() }))
    }

    /// The names a model's view shows, shared with every view of it.
    fn names(&self, game: &Game, model: usize) -> Names {
        let me = &game.models[model];
        // (The card it plays as: a switched upgrade's card shows its grants.)
        let card_ix = game.rules.card_ix_of(me);
        let now = self.game.get();
        let mut cache = self.names.borrow_mut();
        if cache.len() <= model {
            cache.resize(model + 1, None);
        }
        match &mut cache[model] {
            Some(e) if e.card == card_ix && e.side == me.side && e.game == now => e.names.clone(),
            // The last game's: a new game may bring other rules (a test's upgrades), whose card
            // indices name other cards, so they are kept only if they read the same — their
            // strings, that is: the Lua values made of them start again with the game, as
            // everything else its scripts see.
            Some(e) if e.card == card_ix && e.side == me.side && e.names.show(game, model) => {
                e.names = Names(Rc::new(NamesData { made: Rc::default(), ..(*e.names.0).clone() }));
                e.game = now;
                e.names.clone()
            }
            slot => {
                let card = game.card(model);
                let n = Names(Rc::new(NamesData {
                    name: Rc::from(me.name.as_str()),
                    side: Rc::from(game.sides[me.side].as_str()),
                    model: Rc::from(card.id.as_str()),
                    weapons: card
                        .weapons
                        .iter()
                        .map(|w| WeaponNames {
                            id: Rc::from(w.weapon.as_str()),
                            name: Rc::from(w.name.as_str()),
                            class: Rc::from(w.class.as_str()),
                            munition: w.munition_id.as_deref().map(Rc::from),
                            range: w.range,
                        })
                        .collect(),
                    sas: card.sas.iter().map(|(sa, _)| Rc::from(game.rules.sas[*sa as usize].id.as_str())).collect(),
                    ratings: card.sas.iter().map(|(_, r)| *r).collect(),
                    made: Rc::default(),
                }));
                *slot = Some(CachedNames { card: card_ix, side: me.side, game: now, names: n.clone() });
                n
            }
        }
    }
}

/// A model's names in `Shared::names`: its card and side, and the game (`Shared::game`) they
/// were last shown in.
#[derive(Clone)]
struct CachedNames {
    card: usize,
    side: usize,
    game: u64,
    names: Names,
}

/// A read-only view of a model: a userdata whose fields are made Lua values only when read.
fn model_view(lua: &Lua, shared: &Rc<Shared>, game: &Game, model: usize) -> mlua::Result<AnyUserData> {
    lua.create_userdata(ModelView {
        index: model,
        snap: Snapshot::of(game, model),
        names: shared.names(game, model),
        states_table: RefCell::new(None),
        shared: shared.clone(),
    })
}

/// A model's view in a `ctx` (`ctx.model`, `ctx.target`, `ctx.self`), made a userdata only when
/// a script first reads it — most handlers read one of them, or none. What it shows is taken
/// when the moment is called, so it is the same whenever it is read.
#[derive(Default)]
struct LazyView {
    index: usize,
    /// What the view will show, until it is made.
    shows: RefCell<Option<(Snapshot, Names)>>,
    made: RefCell<Option<AnyUserData>>,
}

impl LazyView {
    fn new(shared: &Shared, game: &Game, model: usize) -> LazyView {
        LazyView::with(game, model, shared.names(game, model))
    }

    /// A view of `model` showing `names` (`Shared::names` of it, already asked for).
    fn with(game: &Game, model: usize, names: Names) -> LazyView {
        LazyView {
            index: model,
            shows: RefCell::new(Some((Snapshot::of(game, model), names))),
            made: RefCell::new(None),
        }
    }

    /// The view, made on first read and the same userdata afterwards.
    fn get(&self, lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<AnyUserData> {
        if let Some(view) = &*self.made.borrow() {
            return Ok(view.clone());
        }
        let Some((snap, names)) = self.shows.borrow_mut().take() else {
            return Err(mlua::Error::runtime("a model view was lost"));
        };
        let view = lua.create_userdata(ModelView {
            index: self.index,
            snap,
            names,
            states_table: RefCell::new(None),
            shared: shared.clone(),
        })?;
        *self.made.borrow_mut() = Some(view.clone());
        Ok(view)
    }
}

impl Snapshot {
    fn of(game: &Game, model: usize) -> Snapshot {
        let me = &game.models[model];
        let card = game.card(model);
        let column = game.column(model);
        Snapshot {
            x: me.pos.x,
            y: me.pos.y,
            facing: me.facing,
            base: card.base_radius,
            model_type: card.model_type,
            damage: me.damage,
            columns: card.columns,
            column,
            mv: game.move_value(model),
            av: card.av[column],
            dc: card.dc[column],
            exp: card.exp[column],
            ccv: card.ccv[column],
            tv: card.tv,
            hard: card.hard,
            soft: card.soft,
            prone: me.prone,
            on_table: me.on_table(),
            out_of_ammo: OutOfAmmo::of(&me.out_of_ammo),
            ammo_reserve: me.ammo_reserve,
            states: me.states.iter().map(|(s, _)| *s).collect(),
        }
    }
}

/// The key of a module's table of handlers that run when the model is the other model of a
/// moment (the target of an attack, the model under a template): `M.as_target.combat_tp`.
pub const AS_TARGET: &str = "as_target";

/// The key of a module's table of handlers that run for a model that is neither of a moment's
/// two models — every other model on the table with the special attribute (a bubble, an array
/// that helps friends nearby): `M.aura.combat_tp`. Each handler decides by range and side.
pub const AURA: &str = "aura";

/// Whose special attribute a handler is (`ctx.role`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The acting model's own.
    Model,
    /// Its weapon's.
    Weapon,
    /// The other model's (`as_target`).
    Target,
    /// Any other model's on the table (`aura`).
    Aura,
}

impl Role {
    const ALL: [Role; 4] = [Role::Model, Role::Weapon, Role::Target, Role::Aura];

    fn id(self) -> &'static str {
        match self {
            Role::Model => "model",
            Role::Weapon => "weapon",
            Role::Target => "target",
            Role::Aura => "aura",
        }
    }
}

/// A module's handlers of one role, by hook point (`HookPoint as usize`, the index in
/// `HookPoint::ALL`).
type ByPoint = [Option<Function>; HookPoint::ALL.len()];

/// One module's handlers: its own, its `as_target` table's and its `aura` table's.
struct Handlers {
    by_role: [ByPoint; 3],
    /// The hook points each of `own`, `as_target` and `aura` handles (bit `HookPoint as u32`):
    /// a call asks these before anything else.
    masks: [u64; 3],
}

impl Handlers {
    /// The handlers of the value special attribute `name`'s module (at `path`) returned. One
    /// pass over the table's own keys (a module has a handful) rather than a lookup per hook
    /// point: this runs once a game for every module the game uses.
    fn read(value: Value, name: &str, path: &std::path::Path) -> Result<Handlers, String> {
        let t = match value {
            Value::Table(t) => t,
            other => {
                return Err(format!(
                    "{name}: module {} returned {}, not a table of handlers",
                    path.display(),
                    other.type_name()
                ));
            }
        };
        let mut by_role: [ByPoint; 3] = std::array::from_fn(|_| std::array::from_fn(|_| None));
        let mut wrong = None;
        let mut roles = [None, None];
        // `slot` as in `Handlers::slot`; `roles` collects the `as_target` and `aura` tables (the
        // module's own table only).
        let mut read = |t: &Table, slot: usize, mut roles: Option<&mut [Option<Table>; 2]>| {
            let prefix = ["", "as_target.", "aura."][slot];
            t.for_each(|key: Value, value: Value| {
                let Value::String(key) = key else { return Ok(()) };
                let key = key.as_bytes();
                if let Some(roles) = roles.as_deref_mut()
                    && let Some(r) = [AS_TARGET, AURA].iter().position(|k| k.as_bytes() == &*key)
                {
                    match value {
                        Value::Table(t) => roles[r] = Some(t),
                        Value::Nil => {}
                        other => {
                            let what = [AS_TARGET, AURA][r];
                            wrong.get_or_insert(format!(
                                "{name}: `{what}` is a {}, not a table of handlers",
                                other.type_name()
                            ));
                        }
                    }
                    return Ok(());
                }
                let Some(p) = HookPoint::ALL.iter().find(|p| p.id().as_bytes() == &*key) else { return Ok(()) };
                if slot > 0 && !p.has_target() {
                    return Ok(());
                }
                match value {
                    Value::Function(f) => by_role[slot][*p as usize] = Some(f),
                    Value::Nil => {}
                    other => {
                        wrong.get_or_insert(format!(
                            "{name}: handler `{prefix}{p}` is a {}, not a function",
                            other.type_name()
                        ));
                    }
                }
                Ok(())
            })
            .map_err(|e| format!("{name}: {e}"))
        };
        read(&t, 0, Some(&mut roles))?;
        for (r, table) in roles.iter().enumerate() {
            if let Some(table) = table {
                read(table, r + 1, None)?;
            }
        }
        if let Some(wrong) = wrong {
            return Err(wrong);
        }
        let mask = |by_point: &ByPoint| {
            by_point.iter().enumerate().filter(|(_, f)| f.is_some()).fold(0u64, |m, (i, _)| m | 1 << i)
        };
        let masks = [mask(&by_role[0]), mask(&by_role[1]), mask(&by_role[2])];
        Ok(Handlers { by_role, masks })
    }

    fn slot(role: Role) -> usize {
        match role {
            Role::Model | Role::Weapon => 0,
            Role::Target => 1,
            Role::Aura => 2,
        }
    }

    /// The handler of `point` for a special attribute in `role`.
    fn get(&self, point: HookPoint, role: Role) -> Option<&Function> {
        self.by_role[Self::slot(role)][point as usize].as_ref()
    }
}

/// A special attribute's script module: its chunk, read and compiled once, and the instance of
/// the game being played. Every game runs a new instance (`sandbox::instantiate`), made when
/// one of its handlers first runs in that game, so what a module keeps in its locals, tables and
/// globals lives for one game: games, shards, odds sequences and tests do not depend on what ran
/// before them on the same thread.
struct Module {
    chunk: Function,
    /// Where it was read from (for messages).
    path: std::path::PathBuf,
    /// The hook points it handles (`Handlers::masks`), as its instance at load returned them;
    /// every later instance must return the same.
    masks: [u64; 3],
    /// The instance of game `.0` (`Shared::game`).
    instance: RefCell<(u64, Handlers)>,
}

impl Module {
    /// Whether the module has a handler of `point` in `role`.
    #[inline]
    fn has(&self, point: HookPoint, role: Role) -> bool {
        self.masks[Handlers::slot(role)] & (1 << point as u32) != 0
    }
}

/// What every `ctx` holds that does not change between moments: made once.
struct CtxFns {
    /// `ctx.models`, `ctx.range`, `ctx.roll_dice`, `ctx.opposed_roll`, in `Board::ALL` order.
    board: Vec<Function>,
    /// The effect functions, in `HookEffect::ALL` order.
    effects: Vec<Function>,
    /// `ctx.options`: the ruleset's options and the readings chosen (read-only).
    options: Table,
}

pub struct LuaHost {
    pub sandbox: Sandbox,
    /// The script module per special attribute (index as in `Rules::sas`); its handlers are
    /// looked up as an instance is made, so a call finds them without searching Lua tables.
    modules: Vec<Option<Module>>,
    /// `Handlers::masks` per special attribute (none for one without a script), packed so that
    /// the many moments at which no handler of a model runs are told apart quickly.
    /// Indexed `[slot][special attribute]` (`Handlers::slot`).
    masks: [Vec<u64>; 3],
    /// Hook points some script handles, by `HookPoint as usize`.
    wanted: Vec<bool>,
    /// Hook points some script handles in its `aura` table (every other model then looks).
    aura_wanted: Vec<bool>,
    /// What each hook point accepts, by `HookPoint as usize`.
    moments: Vec<Moment>,
    shared: Rc<Shared>,
    fns: Rc<CtxFns>,
    /// Hook points at which a handler ran since `take_ran` (bit `HookPoint as u32`).
    ran: u64,
    /// The handlers of the moment being called (`LuaHost::runs`): kept to be filled again.
    runs: Vec<Run>,
    /// The hook points each card's handlers handle (`CardPoints`), by card index, made when a
    /// moment first asks about the card (`wants_at`); forgotten when a new game starts, as a new
    /// game may bring other rules (a test's upgrades), whose card indices name other cards.
    cards: Vec<Option<CardPoints>>,
    /// The address of the rules `cards` was made from: a guard, should a caller drive games of
    /// other rules without starting them (`Hooks::new_game`).
    cards_of: usize,
    /// The `aura` hook points of the game's models (`CardPoints::aura`, all of them together, on
    /// the table or not), and how many models that counts: models join a game (missiles), they
    /// never leave it nor change card. Most games have no aura at most points, and this says so
    /// without a pass over the models. Forgotten with `cards`.
    auras: (usize, u64),
}

/// The hook points (bit `HookPoint as u32`) a card's special attributes have handlers of, per
/// role: most moments involve no model with a handler, and `wants_at` tells them from these alone.
struct CardPoints {
    /// Its own special attributes, when it is the moment's model (`Role::Model`).
    model: u64,
    /// Per mount, its weapon's special attributes (`Role::Weapon`).
    weapons: Vec<u64>,
    /// Its own, when it is the other model (`as_target`).
    target: u64,
    /// Its own, for any other model's moment (`aura`).
    aura: u64,
}

impl LuaHost {
    /// Load the module of every special attribute that names one.
    pub fn new(rules: &Rules, limits: Limits) -> Result<LuaHost, String> {
        let roots: Vec<std::path::PathBuf> =
            rules.sas.iter().filter_map(|s| s.script.as_ref()).flat_map(|(_, r)| r.clone()).collect();
        let sandbox = Sandbox::new(limits, roots).map_err(|e| e.to_string())?;
        let mut modules = Vec::with_capacity(rules.sas.len());
        for sa in &rules.sas {
            let Some((module, roots)) = &sa.script else {
                modules.push(None);
                continue;
            };
            let path =
                find_module(roots, module).ok_or_else(|| format!("{}: script module `{module}` not found", sa.name))?;
            sandbox.arm();
            let chunk = load_chunk(&sandbox.lua, &path).map_err(|e| format!("{}: {e}", sa.name))?;
            let handlers = instantiate(&sandbox.lua, &chunk, &sandbox.module_env)
                .map_err(|e| format!("{}: {e}", sa.name))
                .and_then(|v| Handlers::read(v, &sa.name, &path))?;
            modules.push(Some(Module { chunk, path, masks: handlers.masks, instance: RefCell::new((0, handlers)) }));
        }
        sandbox.disarm();
        // That instance only told which hook points each module handles: every game makes its
        // own (`Module::instance`), and what it printed as it loaded is printed by each game's.
        sandbox.new_game();
        // `HookPoint as usize` indexes the tables below, and the masks are `u64`.
        debug_assert!(HookPoint::ALL.iter().enumerate().all(|(i, p)| *p as usize == i));
        debug_assert!(HookPoint::ALL.len() <= 64);
        debug_assert!(ModelType::ALL.iter().enumerate().all(|(i, t)| *t as usize == i));
        debug_assert!(Role::ALL.iter().enumerate().all(|(i, r)| *r as usize == i));
        let shared = Rc::new(Shared {
            moment: Cell::new(Moment::of(HookPoint::ALL[0])),
            queue: RefCell::new(Vec::new()),
            live: Cell::new(None),
            state_ids: rules.states.iter().map(|s| s.id.clone()).collect(),
            terrain_ids: rules.terrains.iter().map(|t| t.id.clone()).collect(),
            roll_ctor: sandbox
                .lua
                .load(ROLL_TABLE)
                .set_name(crate::sandbox::PRELUDE)
                .eval()
                .map_err(|e: mlua::Error| e.to_string())?,
            words: RefCell::new(Vec::new()),
            names: RefCell::new(Vec::new()),
            game: Cell::new(0),
            points: strings(&sandbox.lua, HookPoint::ALL.iter().map(|p| p.id()))?,
            roles: strings(&sandbox.lua, Role::ALL.iter().map(|r| r.id()))?,
            model_types: strings(&sandbox.lua, ModelType::ALL.iter().map(|t| t.id()))?,
            states: strings(&sandbox.lua, rules.states.iter().map(|s| s.id.as_str()))?,
            bands: strings(&sandbox.lua, rules.bands.iter().map(|b| b.id.as_str()))?,
            ruleset: sandbox.lua.create_string(&rules.id).map_err(|e| e.to_string())?,
        });
        let board = Board::ALL
            .iter()
            .map(|&b| board_fn(&sandbox.lua, &shared, b))
            .collect::<mlua::Result<_>>()
            .map_err(|e| e.to_string())?;
        let effects = HookEffect::ALL
            .iter()
            .map(|&e| effect_fn(&sandbox.lua, &shared, e))
            .collect::<mlua::Result<_>>()
            .map_err(|e| e.to_string())?;
        let options = sandbox
            .lua
            .create_table_from(rules.options.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .map_err(|e| e.to_string())?;
        options.set_readonly(true);
        let roles = [Role::Model, Role::Target, Role::Aura];
        let wanted = HookPoint::ALL
            .iter()
            .map(|&p| modules.iter().flatten().any(|m| roles.iter().any(|&r| m.has(p, r))))
            .collect();
        let aura_wanted =
            HookPoint::ALL.iter().map(|&p| modules.iter().flatten().any(|m| m.has(p, Role::Aura))).collect();
        let fns = Rc::new(CtxFns { board, effects, options });
        register_views(&sandbox.lua, &shared, &fns).map_err(|e| e.to_string())?;
        Ok(LuaHost {
            sandbox,
            masks: [0, 1, 2].map(|slot| modules.iter().map(|m| m.as_ref().map_or(0, |m| m.masks[slot])).collect()),
            modules,
            wanted,
            aura_wanted,
            moments: HookPoint::ALL.iter().map(|&p| Moment::of(p)).collect(),
            shared,
            fns,
            ran: 0,
            runs: Vec::new(),
            cards: Vec::new(),
            cards_of: 0,
            auras: (0, 0),
        })
    }

    /// The hook points at which some handler ran since the last call (bit `HookPoint as u32`);
    /// `cav hooks` uses it to cite the scenario tests that exercise each point.
    pub fn take_ran(&mut self) -> u64 {
        std::mem::take(&mut self.ran)
    }
}

/// Make the metatables of `ctx` and of model views now, with the scripts loaded: mlua makes a
/// userdata type's metatable (running its helper chunks) when the first value of the type is
/// made, which would otherwise be in the first handled moment of a run. The values made here
/// show nothing and are dropped at once.
fn register_views(lua: &Lua, shared: &Rc<Shared>, fns: &Rc<CtxFns>) -> mlua::Result<()> {
    let blank = LazyView { shows: RefCell::new(Some(Default::default())), ..LazyView::default() };
    blank.get(lua, shared)?;
    lua.create_userdata(CtxView::new(HookPoint::ALL[0], blank, fns, shared))?;
    Ok(())
}

/// Lua strings of `words`, made once.
fn strings<'w>(lua: &Lua, words: impl Iterator<Item = &'w str>) -> Result<Vec<mlua::LuaString>, String> {
    words.map(|w| lua.create_string(w)).collect::<mlua::Result<_>>().map_err(|e| e.to_string())
}

/// One of `ctx`'s board functions (`Board`), made once: it reaches the moment lent while a
/// handler runs (`Shared::live`) and refuses between calls.
fn board_fn(lua: &Lua, shared: &Rc<Shared>, b: Board) -> mlua::Result<Function> {
    let sh = shared.clone();
    lua.create_function(move |lua, args: mlua::MultiValue| -> mlua::Result<Value> {
        sh.live(|live| {
            let Some(live) = live else {
                return Err(refused(lua, format!("`ctx.{}` reaches the board only while a handler runs", b.id())));
            };
            board_call(lua, &sh, live, b, args)
        })
    })
}

/// A call of a board function while `live`'s handlers run.
fn board_call(lua: &Lua, sh: &Rc<Shared>, live: &Live, b: Board, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    match b {
        // `ctx.models()`: every model in play, as views (made once a moment: the board
        // does not change while its handlers run).
        // `ctx.models(state)`: only those in that state (views are made only for them).
        Board::Models => {
            let state: Option<mlua::LuaString> = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
            let state = state
                .map(|s| {
                    state_arg(lua, sh, HookEffect::ApplyState, &s)
                        .map_err(|_| refused(lua, "`ctx.models(state)`: no such state in this ruleset".into()))
                })
                .transpose()?;
            if state.is_none()
                && let Some(t) = &*live.all_models.borrow()
            {
                return Ok(Value::Table(t.clone()));
            }
            let t = lua.create_table()?;
            let wanted = |i: usize| {
                game.models[i].on_table() && state.is_none_or(|s| game.models[i].states.iter().any(|(x, _)| *x == s))
            };
            for i in (0..game.models.len()).filter(|&i| wanted(i)) {
                t.raw_push(model_view(lua, sh, game, i)?)?;
            }
            let t = frozen(t);
            if state.is_none() {
                *live.all_models.borrow_mut() = Some(t.clone());
            }
            Ok(Value::Table(t))
        }
        // `ctx.range(a, b)`: the range between two models as the ruleset measures it.
        Board::Range => {
            let (a, b): (AnyUserData, AnyUserData) = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
            let ix = |u: &AnyUserData| u.borrow::<ModelView>().map(|v| v.index);
            Ok(Value::Number(game.range(ix(&a)?, ix(&b)?)))
        }
        // `ctx.roll_dice(label, target)`: the ruleset's standard dice against a target
        // point, logged as a roll of the handler's model named `label`.
        Board::RollDice => {
            let (what, target, expr): (mlua::LuaString, Option<f64>, Option<mlua::LuaString>) =
                mlua::FromLuaMulti::from_lua_multi(args, lua)?;
            let kind = label(lua, "ctx.roll_dice", "label", &what)?;
            if live.rolls.borrow().len() >= SCRIPT_EFFECTS_PER_CALL {
                return Err(refused(
                    lua,
                    format!("`ctx.roll_dice`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call"),
                ));
            }
            let target = target.map(|t| whole(lua, "roll_dice", t, true)).transpose()?;
            let r = &game.rules;
            // Other dice than the standard roll's (`1d6`): no criticals, which belong
            // to the standard roll.
            let expr = match expr {
                None => r.standard,
                Some(text) => {
                    let text = label(lua, "ctx.roll_dice", "dice", &text)?;
                    cav_rules::DiceExpr::parse(&text).map_err(|e| refused(lua, format!("`ctx.roll_dice`: {e}")))?
                }
            };
            let (natural, total) = expr.roll(&mut **live.dice.borrow_mut());
            let nat = total.saturating_sub(expr.plus).max(0) as u32;
            let standard = expr == r.standard;
            let fumble = standard && nat <= r.critical_fumble;
            let crit = standard && !fumble && nat >= r.critical_success;
            let success = target.map(|t| !fumble && total >= t);
            let critical = match (fumble, crit) {
                (true, _) => Some("fumble"),
                (false, true) => Some("success"),
                _ => None,
            };
            let roll = Roll {
                model: live.roller.get(),
                kind: kind.into(),
                dice: expr.label(),
                natural,
                mods: Vec::new(),
                total,
                target,
                margin: target.map(|t| total.saturating_sub(t)),
                success,
                critical,
            };
            let t = sh.roll_table(lua, &roll, what)?;
            t.set_readonly(false);
            t.raw_set("natural_total", nat)?;
            t.raw_set("success", success)?;
            t.raw_set("critical", critical)?;
            live.rolls.borrow_mut().push(roll);
            Ok(Value::Table(frozen(t)))
        }
        // `ctx.opposed_roll(label, other, bonus, other_bonus)`: this model and `other`
        // each roll the standard dice plus the bonus given and their `opposed_roll`
        // effects (pilots); the larger margin over the model's own EXP wins (the larger
        // total where a card has no EXP), ties to this model, which starts it.
        Board::OpposedRoll => {
            let (what, other, bonus, other_bonus): (mlua::LuaString, AnyUserData, f64, f64) =
                mlua::FromLuaMulti::from_lua_multi(args, lua)?;
            let kind = label(lua, "ctx.opposed_roll", "label", &what)?;
            if live.rolls.borrow().len() + 2 > SCRIPT_EFFECTS_PER_CALL {
                return Err(refused(
                    lua,
                    format!("`ctx.opposed_roll`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call"),
                ));
            }
            let other = other.borrow::<ModelView>().map(|v| v.index).map_err(|_| {
                refused(lua, "`ctx.opposed_roll` needs a model view (ctx.target, ctx.models()[i])".into())
            })?;
            let bonus = whole(lua, "opposed_roll", bonus, true)?;
            let other_bonus = whole(lua, "opposed_roll", other_bonus, true)?;
            let me = live.roller.get();
            let sa_name = game.rules.sas[live.current_sa.get() as usize].name.clone();
            let throw = |m: usize, bonus: i32| {
                let r = &game.rules;
                let card = game.card(m);
                let mut mods = Vec::new();
                if bonus != 0 {
                    mods.push(cav_rules::event::ModApplied { source: sa_name.clone(), value: bonus, charge: None });
                }
                for &(sa, rating) in &card.sas {
                    let def = &r.sas[sa as usize];
                    for e in def.effects.iter().filter(|e| e.target == ModifierTarget::OpposedRoll) {
                        let value = if e.per_rating { e.value * rating } else { e.value };
                        mods.push(cav_rules::event::ModApplied { source: def.name.clone(), value, charge: None });
                    }
                }
                let (natural, sum) = r.standard.roll(&mut **live.dice.borrow_mut());
                let total = mods.iter().fold(sum, |t, m| t.saturating_add(m.value));
                let exp = card.exp[game.column(m)].map(|e| e as i32);
                Roll {
                    model: m,
                    kind: kind.clone().into(),
                    dice: r.standard.label(),
                    natural,
                    mods,
                    total,
                    target: exp,
                    margin: exp.map(|e| total.saturating_sub(e)),
                    success: None,
                    critical: None,
                }
            };
            let mine = throw(me, bonus);
            let theirs = throw(other, other_bonus);
            let score = |r: &Roll| r.margin.unwrap_or(r.total);
            let won = score(&mine) >= score(&theirs);
            let t = lua.create_table()?;
            t.raw_set("won", won)?;
            t.raw_set("mine", sh.roll_table(lua, &mine, lua.create_string(&kind)?)?)?;
            t.raw_set("theirs", sh.roll_table(lua, &theirs, lua.create_string(&kind)?)?)?;
            let mut log = live.rolls.borrow_mut();
            log.push(Roll { success: Some(won), ..mine });
            log.push(Roll { success: Some(!won), ..theirs });
            Ok(Value::Table(frozen(t)))
        }
    }
}

/// The hook point being called, the effects it accepts (a mask of `effect_bit`) and the
/// quantities it accepts (a mask of `quantity_bit`).
#[derive(Clone, Copy)]
struct Moment {
    point: HookPoint,
    accepts: u16,
    quantities: u16,
}

impl Moment {
    fn of(point: HookPoint) -> Moment {
        Moment {
            point,
            accepts: point.accepts().iter().fold(0, |m, e| m | 1 << *e as u16),
            quantities: point.quantities().iter().fold(0, |m, q| m | 1 << *q as u16),
        }
    }
}

/// Inside an effect function: go on if the moment accepts `effect`, else refuse with a script
/// error at the caller's file:line. One load and one test on the way that is taken.
#[inline]
fn accepted(lua: &Lua, m: Moment, effect: HookEffect) -> mlua::Result<()> {
    if m.accepts & (1 << effect as u16) != 0 {
        Ok(())
    } else {
        Err(mlua::Error::runtime(refusal(lua, m.point, effect)))
    }
}

/// `<file>:<line>: `ctx.<effect>` is not accepted at `<point>` (<accepts>); see docs/vocabulary.md`
#[cold]
fn refusal(lua: &Lua, point: HookPoint, effect: HookEffect) -> String {
    let at = caller(lua).map(|(file, line)| format!("{file}:{line}: ")).unwrap_or_default();
    format!("{at}`ctx.{effect}` is not accepted at `{point}` ({}); see docs/vocabulary.md", accepts(point))
}

/// A script error at the caller's file:line.
#[cold]
fn refused(lua: &Lua, msg: String) -> mlua::Error {
    let at = caller(lua).map(|(file, line)| format!("{file}:{line}: ")).unwrap_or_default();
    mlua::Error::runtime(format!("{at}{msg}"))
}

/// A modifier source or forbid reason: UTF-8 text of at most `SCRIPT_LABEL_BYTES`, refused
/// (never truncated) otherwise, checked before it is copied out of Lua.
fn label(lua: &Lua, effect: &str, what: &str, s: &mlua::LuaString) -> mlua::Result<String> {
    let bytes = s.as_bytes();
    if bytes.len() > SCRIPT_LABEL_BYTES {
        return Err(refused(
            lua,
            format!("`{effect}` {what} of {} bytes is longer than {SCRIPT_LABEL_BYTES} bytes", bytes.len()),
        ));
    }
    match std::str::from_utf8(&bytes) {
        Ok(text) => Ok(text.to_owned()),
        Err(_) => Err(refused(lua, format!("`{effect}` {what} is not UTF-8 text"))),
    }
}

/// A whole number from 0 (or −max) to `SCRIPT_MODIFIER_VALUE`, refused otherwise.
fn whole(lua: &Lua, effect: &str, x: f64, negative: bool) -> mlua::Result<i32> {
    let max = f64::from(SCRIPT_MODIFIER_VALUE);
    let min = if negative { -max } else { 0.0 };
    if x.fract() == 0.0 && (min..=max).contains(&x) {
        Ok(x as i32)
    } else {
        Err(refused(lua, format!("`ctx.{effect}` value {x} is not a whole number from {min} to {max}")))
    }
}

/// The model a `ctx.model`/`ctx.target`/`ctx.self` view stands for.
fn model_arg(lua: &Lua, effect: HookEffect, v: &Value) -> mlua::Result<usize> {
    match v {
        Value::UserData(u) => match u.borrow::<ModelView>() {
            Ok(view) => Ok(view.index),
            Err(_) => Err(refused(lua, format!("`ctx.{effect}` needs a model (ctx.model, ctx.target or ctx.self)"))),
        },
        other => Err(refused(
            lua,
            format!("`ctx.{effect}` needs a model (ctx.model, ctx.target or ctx.self), not a {}", other.type_name()),
        )),
    }
}

/// The state id `s` names, refused if the ruleset has no such state.
fn state_arg(lua: &Lua, shared: &Shared, effect: HookEffect, s: &mlua::LuaString) -> mlua::Result<StateIx> {
    let bytes = s.as_bytes();
    match shared.state_ids.iter().position(|id| id.as_bytes() == &bytes[..]) {
        Some(i) => Ok(i as StateIx),
        None => {
            let known = shared.state_ids.join(", ");
            let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(SCRIPT_LABEL_BYTES)]).into_owned();
            Err(refused(lua, format!("`ctx.{effect}`: no state `{shown}` in this ruleset (its states: {known})")))
        }
    }
}

/// One of `ctx`'s effect functions: checks the moment accepts it and its arguments, then queues
/// the effect.
fn effect_fn(lua: &Lua, shared: &Rc<Shared>, effect: HookEffect) -> mlua::Result<Function> {
    let sh = shared.clone();
    lua.create_function(move |lua, args: mlua::MultiValue| {
        let m = sh.moment.get();
        accepted(lua, m, effect)?;
        let arg = |i: usize| args.get(i).cloned().unwrap_or(Value::Nil);
        let string = |i: usize, what: &str| match arg(i) {
            Value::String(s) => Ok(s),
            other => {
                Err(refused(lua, format!("`ctx.{effect}`: the {what} must be a string, not a {}", other.type_name())))
            }
        };
        let number = |i: usize, what: &str| match arg(i) {
            Value::Integer(n) => Ok(n as f64),
            Value::Number(x) => Ok(x),
            other => {
                Err(refused(lua, format!("`ctx.{effect}`: the {what} must be a number, not a {}", other.type_name())))
            }
        };
        let mount = |model: usize, i: usize| {
            let n = number(i, "mount")?;
            // The mounts of the model's card in the game being called (none between calls).
            let mounts = sh.live(|live| {
                live.and_then(|l| l.game.models.get(model).map(|m| l.game.rules.cards[m.card].weapons.len()))
                    .unwrap_or(0)
            });
            if n.fract() == 0.0 && n >= 0.0 && n < mounts as f64 {
                Ok(n as usize)
            } else {
                Err(refused(
                    lua,
                    format!("`ctx.{effect}`: the model has no weapon mount {n} (mounts 0 to {})", mounts as i64 - 1),
                ))
            }
        };
        let e = match effect {
            HookEffect::AddModifier => {
                let q = string(0, "quantity")?;
                let quantity = std::str::from_utf8(&q.as_bytes()).ok().and_then(Quantity::from_id);
                let quantity = match quantity {
                    Some(q) if m.quantities & (1 << q as u16) != 0 => q,
                    _ => {
                        let shown = String::from_utf8_lossy(&q.as_bytes()[..q.as_bytes().len().min(40)]).into_owned();
                        let ok: Vec<&str> = m.point.quantities().iter().map(|q| q.id()).collect();
                        return Err(refused(
                            lua,
                            format!(
                                "`ctx.add_modifier`: `{shown}` is not a quantity `{}` accepts (it accepts: {})",
                                m.point,
                                ok.join(", ")
                            ),
                        ));
                    }
                };
                let source = label(lua, "ctx.add_modifier", "source", &string(1, "source")?)?;
                let value = whole(lua, "add_modifier", number(2, "value")?, true)?;
                Effect::Modifier { quantity, label: source, value }
            }
            HookEffect::Forbid => Effect::Forbid { reason: label(lua, "ctx.forbid", "reason", &string(0, "reason")?)? },
            HookEffect::SetValue => {
                let x = number(0, "value")?;
                if !x.is_finite() {
                    return Err(refused(lua, format!("`ctx.set_value` needs a finite number, not {x}")));
                }
                Effect::SetValue(x)
            }
            HookEffect::DealDamage => {
                let model = model_arg(lua, effect, &arg(0))?;
                Effect::Damage { model, points: whole(lua, "deal_damage", number(1, "points")?, false)? as u32 }
            }
            HookEffect::ApplyState | HookEffect::ClearState => {
                let model = model_arg(lua, effect, &arg(0))?;
                let state = state_arg(lua, &sh, effect, &string(1, "state")?)?;
                if effect == HookEffect::ApplyState {
                    Effect::ApplyState { model, state }
                } else {
                    Effect::ClearState { model, state }
                }
            }
            HookEffect::SetDice => {
                let text = label(lua, "ctx.set_dice", "dice", &string(0, "dice")?)?;
                match cav_rules::DiceExpr::parse(&text) {
                    Ok(d) => Effect::SetDice(d),
                    Err(e) => return Err(refused(lua, format!("`ctx.set_dice`: {e}"))),
                }
            }
            HookEffect::Reroll => {
                let n = number(0, "die")?;
                if n.fract() != 0.0 || !(1.0..=f64::from(MAX_DICE)).contains(&n) {
                    return Err(refused(lua, format!("`ctx.reroll`: no die {n} (the dice are numbered from 1)")));
                }
                Effect::Reroll { die: n as usize - 1 }
            }
            HookEffect::PlaceTerrain => {
                let id = string(0, "terrain")?;
                let Some(terrain) = sh.terrain_ids.iter().position(|t| t.as_bytes() == &id.as_bytes()[..]) else {
                    let shown = String::from_utf8_lossy(&id.as_bytes()[..id.as_bytes().len().min(SCRIPT_LABEL_BYTES)])
                        .into_owned();
                    return Err(refused(
                        lua,
                        format!(
                            "`ctx.place_terrain`: no terrain `{shown}` in this ruleset (its terrain: {})",
                            sh.terrain_ids.join(", ")
                        ),
                    ));
                };
                let (x, y) = (number(1, "x")?, number(2, "y")?);
                let radius = number(3, "radius")?;
                let activations = number(4, "activations")?;
                let board = 0.0..=MAX_BOARD_INCHES;
                if !board.contains(&x) || !board.contains(&y) {
                    return Err(refused(lua, format!("`ctx.place_terrain`: ({x}, {y}) is not on a table")));
                }
                if !(radius > 0.0 && radius <= MAX_BOARD_INCHES) {
                    return Err(refused(
                        lua,
                        format!("`ctx.place_terrain`: radius {radius} is not from 0 to {MAX_BOARD_INCHES} inches"),
                    ));
                }
                if activations.fract() != 0.0 || !(1.0..=f64::from(MAX_TURNS)).contains(&activations) {
                    return Err(refused(
                        lua,
                        format!(
                            "`ctx.place_terrain`: {activations} activations is not a whole number from 1 to {MAX_TURNS}"
                        ),
                    ));
                }
                Effect::PlaceTerrain { terrain, x, y, radius, activations: activations as u32 }
            }
            HookEffect::RefillAmmoBins => Effect::RefillAmmoBins { model: model_arg(lua, effect, &arg(0))? },
            HookEffect::SpendAmmo | HookEffect::RestoreAmmo => {
                let model = model_arg(lua, effect, &arg(0))?;
                let mount = mount(model, 1)?;
                if effect == HookEffect::SpendAmmo {
                    Effect::SpendAmmo { model, mount }
                } else {
                    Effect::RestoreAmmo { model, mount }
                }
            }
        };
        let mut queue = sh.queue.borrow_mut();
        if queue.len() >= SCRIPT_EFFECTS_PER_CALL {
            return Err(refused(
                lua,
                format!("`ctx.{effect}`: more than {SCRIPT_EFFECTS_PER_CALL} effects in one call"),
            ));
        }
        queue.push(e);
        Ok(())
    })
}

/// What a hook point accepts, in words: `it accepts `ctx.forbid`` or `it accepts nothing: look only`.
fn accepts(point: HookPoint) -> String {
    match point.accepts() {
        [] => "it accepts nothing: look only".into(),
        fx => {
            let fx: Vec<String> = fx.iter().map(|e| format!("`ctx.{e}`")).collect();
            format!("it accepts {}", fx.join(", "))
        }
    }
}

/// The file and line of the innermost Lua function on the stack (the script that called an
/// effect function), as Luau's own errors show it.
fn caller(lua: &Lua) -> Option<(String, usize)> {
    (0..8).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let source = d.source().source?.into_owned();
            let file = source.strip_prefix('@')?.to_owned();
            Some((file, d.current_line()?))
        })
        .flatten()
    })
}

/// What a script sees of a weapon mount (`weapon_table`).
#[derive(Clone)]
struct WeaponNames {
    id: Rc<str>,
    name: Rc<str>,
    class: Rc<str>,
    /// The munition (upgrade id) a launcher is loaded with.
    munition: Option<Rc<str>>,
    range: f64,
}

/// Whose handlers run at a moment: the owner model, its role, and its special attributes
/// (index in `Rules::sas`, rating).
type Owner<'g> = (usize, Role, &'g [(u16, i32)]);

/// What the views of a model show of its card and side (`NamesData`), shared: a view is made
/// at every handled moment, and this is one count to raise.
#[derive(Clone, Default)]
struct Names(Rc<NamesData>);

impl std::ops::Deref for Names {
    type Target = NamesData;

    fn deref(&self) -> &NamesData {
        &self.0
    }
}

#[derive(Clone, Default)]
struct NamesData {
    name: Rc<str>,
    side: Rc<str>,
    model: Rc<str>,
    /// Per mount: weapon id, name, range.
    weapons: Rc<[WeaponNames]>,
    /// The card's special attributes (ids) and their ratings.
    sas: Rc<[Rc<str>]>,
    ratings: Rc<[i32]>,
    /// The frozen `special_attributes` and `ratings` tables and the name strings, made on first
    /// read and shared by every view of the model this game (a loop over `ctx.models()` reads
    /// them for each model).
    made: Rc<RefCell<Made>>,
}

/// What `Names` makes Lua values of when first read.
#[derive(Default)]
struct Made {
    sas: Option<Table>,
    ratings: Option<Table>,
    name: Option<mlua::LuaString>,
    side: Option<mlua::LuaString>,
    model: Option<mlua::LuaString>,
}

impl NamesData {
    /// Whether these are the names `model` of `game` shows (made for it in another game).
    fn show(&self, game: &Game, model: usize) -> bool {
        let me = &game.models[model];
        let card = game.card(model);
        let weapon = |(n, w): (&WeaponNames, &cav_rules::compile::MountDef)| {
            *n.id == *w.weapon
                && *n.name == *w.name
                && *n.class == *w.class
                && n.munition.as_deref() == w.munition_id.as_deref()
                && n.range.to_bits() == w.range.to_bits()
        };
        *self.name == *me.name
            && *self.side == *game.sides[me.side]
            && *self.model == *card.id
            && self.weapons.len() == card.weapons.len()
            && self.weapons.iter().zip(&card.weapons).all(weapon)
            && self.sas.len() == card.sas.len()
            && self.sas.iter().zip(&card.sas).all(|(n, (sa, _))| **n == *game.rules.sas[*sa as usize].id)
            && self.ratings.iter().copied().eq(card.sas.iter().map(|(_, r)| *r))
    }

    /// The Lua string of one of the names (`text`), made on first read.
    fn string(
        &self,
        lua: &Lua,
        slot: impl Fn(&mut Made) -> &mut Option<mlua::LuaString>,
        text: &str,
    ) -> mlua::Result<mlua::LuaString> {
        let mut made = self.made.borrow_mut();
        let slot = slot(&mut made);
        if let Some(s) = slot {
            return Ok(s.clone());
        }
        let s = lua.create_string(text)?;
        *slot = Some(s.clone());
        Ok(s)
    }
}

/// What a script sees of a model: one userdata, whose fields are made Lua values only when read.
struct ModelView {
    index: usize,
    snap: Snapshot,
    names: Names,
    /// The frozen `states` table, made on first read.
    states_table: RefCell<Option<Table>>,
    shared: Rc<Shared>,
}

/// What a model view shows of its model, besides its names (`Names`).
struct Snapshot {
    /// Position on the table (inches) and facing (degrees, 0 = towards +y, clockwise).
    x: f64,
    y: f64,
    facing: f64,
    /// Base radius (inches): how far past a model's centre a template or a measurement reaches it.
    base: f64,
    model_type: ModelType,
    damage: u32,
    columns: usize,
    column: usize,
    mv: u32,
    av: u32,
    dc: Option<i32>,
    exp: Option<u32>,
    /// Close-combat value against hard and soft targets.
    ccv: (Option<u8>, Option<u8>),
    tv: u32,
    hard: bool,
    soft: bool,
    prone: bool,
    on_table: bool,
    out_of_ammo: OutOfAmmo,
    ammo_reserve: u32,
    states: Vec<StateIx>,
}

impl Default for Snapshot {
    /// A view of nothing (`register_views`'s).
    fn default() -> Snapshot {
        Snapshot {
            x: 0.0,
            y: 0.0,
            facing: 0.0,
            base: 0.0,
            model_type: ModelType::ALL[0],
            damage: 0,
            columns: 0,
            column: 0,
            mv: 0,
            av: 0,
            dc: None,
            exp: None,
            ccv: (None, None),
            tv: 0,
            hard: false,
            soft: false,
            prone: false,
            on_table: false,
            out_of_ammo: OutOfAmmo::default(),
            ammo_reserve: 0,
            states: Vec::new(),
        }
    }
}

/// Which mounts of a model are out of ammunition: the first 64 as bits (a snapshot is taken for
/// every model of every handled moment, and this one needs no allocation), any further ones as a
/// list (empty, so not allocated, on every card there is).
#[derive(Default)]
struct OutOfAmmo {
    first: u64,
    rest: Vec<bool>,
}

impl OutOfAmmo {
    fn of(mounts: &[bool]) -> OutOfAmmo {
        let (first, rest) = mounts.split_at(mounts.len().min(64));
        OutOfAmmo {
            first: first.iter().enumerate().fold(0, |m, (i, &out)| m | u64::from(out) << i),
            rest: rest.to_vec(),
        }
    }

    /// Whether `mount` is out of ammunition (`false` past the model's mounts).
    fn get(&self, mount: usize) -> bool {
        match mount.checked_sub(64) {
            None => self.first & 1 << mount != 0,
            Some(i) => self.rest.get(i).copied().unwrap_or(false),
        }
    }
}

fn read_only<T>(methods: &mut impl mlua::UserDataMethods<T>, what: &'static str) {
    methods.add_meta_method("__newindex", move |_, _, (_k, _v): (Value, Value)| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!("{what} is read-only")))
    });
}

fn frozen(t: Table) -> Table {
    t.set_readonly(true);
    t
}

impl mlua::UserData for ModelView {
    fn add_fields<F: mlua::UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("name", |lua, v| v.names.string(lua, |m| &mut m.name, &v.names.name));
        f.add_field_method_get("side", |lua, v| v.names.string(lua, |m| &mut m.side, &v.names.side));
        f.add_field_method_get("model", |lua, v| v.names.string(lua, |m| &mut m.model, &v.names.model));
        f.add_field_method_get("model_type", |_, v| Ok(v.shared.model_types[v.snap.model_type as usize].clone()));
        f.add_field_method_get("x", |_, v| Ok(v.snap.x));
        f.add_field_method_get("y", |_, v| Ok(v.snap.y));
        f.add_field_method_get("facing", |_, v| Ok(v.snap.facing));
        f.add_field_method_get("base", |_, v| Ok(v.snap.base));
        f.add_field_method_get("damage", |_, v| Ok(v.snap.damage));
        f.add_field_method_get("columns", |_, v| Ok(v.snap.columns));
        f.add_field_method_get("column", |_, v| Ok(v.snap.column));
        f.add_field_method_get("mv", |_, v| Ok(v.snap.mv));
        f.add_field_method_get("av", |_, v| Ok(v.snap.av));
        f.add_field_method_get("dc", |_, v| Ok(v.snap.dc));
        f.add_field_method_get("exp", |_, v| Ok(v.snap.exp));
        f.add_field_method_get("ccv_hard", |_, v| Ok(v.snap.ccv.0));
        f.add_field_method_get("ccv_soft", |_, v| Ok(v.snap.ccv.1));
        f.add_field_method_get("tv", |_, v| Ok(v.snap.tv));
        f.add_field_method_get("hard", |_, v| Ok(v.snap.hard));
        f.add_field_method_get("soft", |_, v| Ok(v.snap.soft));
        f.add_field_method_get("prone", |_, v| Ok(v.snap.prone));
        f.add_field_method_get("on_table", |_, v| Ok(v.snap.on_table));
        f.add_field_method_get("ammo_reserve", |_, v| Ok(v.snap.ammo_reserve));
        f.add_field_method_get("states", |lua, v| {
            let mut cached = v.states_table.borrow_mut();
            if cached.is_none() {
                let ids = v.snap.states.iter().map(|s| v.shared.state_ids[*s as usize].as_str());
                *cached = Some(frozen(lua.create_sequence_from(ids)?));
            }
            Ok(cached.clone())
        });
        f.add_field_method_get("special_attributes", |lua, v| {
            let mut cached = v.names.made.borrow_mut();
            if cached.sas.is_none() {
                cached.sas = Some(frozen(lua.create_sequence_from(v.names.sas.iter().map(|s| &**s))?));
            }
            Ok(cached.sas.clone())
        });
        f.add_field_method_get("ratings", |lua, v| {
            let mut cached = v.names.made.borrow_mut();
            if cached.ratings.is_none() {
                let pairs = v.names.sas.iter().map(|s| &**s).zip(v.names.ratings.iter().copied());
                cached.ratings = Some(frozen(lua.create_table_from(pairs)?));
            }
            Ok(cached.ratings.clone())
        });
        f.add_field_method_get("weapons", |lua, v| {
            let t = lua.create_table()?;
            for (mount, w) in v.names.weapons.iter().enumerate() {
                let w = weapon_table(lua, w, mount)?;
                w.set_readonly(false);
                w.set("out_of_ammo", v.snap.out_of_ammo.get(mount))?;
                t.raw_push(frozen(w))?;
            }
            Ok(frozen(t))
        });
    }
    fn add_methods<M: mlua::UserDataMethods<Self>>(m: &mut M) {
        read_only(m, "the model view");
        // Two views are equal when they show the same model (`ctx.target == ctx.self`), whichever
        // moment made them.
        m.add_meta_method(mlua::MetaMethod::Eq, |_, v, other: Value| {
            Ok(match other {
                Value::UserData(u) => u.borrow::<ModelView>().is_ok_and(|o| o.index == v.index),
                _ => false,
            })
        });
    }
}

fn weapon_table(lua: &Lua, w: &WeaponNames, mount: usize) -> mlua::Result<Table> {
    let munition = match &w.munition {
        Some(m) => Value::String(lua.create_string(&**m)?),
        None => Value::Nil,
    };
    let t = lua.create_table_from([
        ("id", Value::String(lua.create_string(&*w.id)?)),
        ("name", Value::String(lua.create_string(&*w.name)?)),
        ("class", Value::String(lua.create_string(&*w.class)?)),
        ("munition", munition),
        ("range", Value::Number(w.range)),
        ("mount", Value::Integer(mount as i64)),
    ])?;
    Ok(frozen(t))
}

/// `ctx`: the moment, read-only, with the effect functions (each refuses to act where the moment
/// does not accept its effect).
struct CtxView {
    point: HookPoint,
    role: Role,
    rating: i32,
    turn: u32,
    /// Whose view `ctx.self` is: the moment's model, its target, or `aura`'s.
    owner: SelfView,
    /// The views of the moment, held by the `ctx` itself (no allocation of their own).
    model: LazyView,
    target: Option<LazyView>,
    /// The view of the model whose `aura` handler runs (`SelfView::Aura`), fresh for each.
    aura: Option<LazyView>,
    distance: Option<f64>,
    /// The model's weapons (`Names::weapons`) and the mount: made a table only when a script
    /// reads `ctx.weapon`.
    weapon: Option<(Rc<[WeaponNames]>, usize)>,
    /// The range band (index in `Rules::bands`).
    band: Option<usize>,
    /// The roll in progress, made a table when a script first reads `ctx.roll`.
    roll: Option<(Roll, RefCell<Option<Table>>)>,
    state: Option<(StateIx, bool)>,
    value: Option<f64>,
    defensive: bool,
    at: Option<(f64, f64)>,
    option: Option<String>,
    fns: Rc<CtxFns>,
    shared: Rc<Shared>,
}

/// Whose view `ctx.self` is (`CtxView::owner`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum SelfView {
    Model,
    Target,
    Aura,
}

impl CtxView {
    /// A `ctx` at `point` showing `model` as the moment's model, and nothing else yet.
    fn new(point: HookPoint, model: LazyView, fns: &Rc<CtxFns>, shared: &Rc<Shared>) -> CtxView {
        CtxView {
            point,
            role: Role::Model,
            rating: 0,
            turn: 0,
            owner: SelfView::Model,
            model,
            target: None,
            aura: None,
            distance: None,
            weapon: None,
            band: None,
            roll: None,
            state: None,
            value: None,
            defensive: false,
            at: None,
            option: None,
            fns: fns.clone(),
            shared: shared.clone(),
        }
    }

    /// The view `ctx.self` reads.
    fn owner_view(&self) -> &LazyView {
        match (self.owner, &self.target, &self.aura) {
            (SelfView::Target, Some(t), _) => t,
            (SelfView::Aura, _, Some(a)) => a,
            _ => &self.model,
        }
    }
}

impl mlua::UserData for CtxView {
    fn add_fields<F: mlua::UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("point", |_, v| Ok(v.shared.points[v.point as usize].clone()));
        f.add_field_method_get("role", |_, v| Ok(v.shared.roles[v.role as usize].clone()));
        f.add_field_method_get("rating", |_, v| Ok(v.rating));
        f.add_field_method_get("turn", |_, v| Ok(v.turn));
        f.add_field_method_get("self", |lua, v| v.owner_view().get(lua, &v.shared));
        f.add_field_method_get("model", |lua, v| v.model.get(lua, &v.shared));
        f.add_field_method_get("target", |lua, v| v.target.as_ref().map(|t| t.get(lua, &v.shared)).transpose());
        f.add_field_method_get("distance", |_, v| Ok(v.distance));
        f.add_field_method_get("weapon", |lua, v| {
            v.weapon.as_ref().map(|(w, mount)| weapon_table(lua, &w[*mount], *mount)).transpose()
        });
        f.add_field_method_get("band", |_, v| Ok(v.band.map(|b| v.shared.bands[b].clone())));
        f.add_field_method_get("roll", |lua, v| {
            let Some((roll, table)) = &v.roll else { return Ok(None) };
            let mut table = table.borrow_mut();
            if table.is_none() {
                *table = Some(v.shared.roll_table(lua, roll, v.shared.word(lua, &roll.kind)?)?);
            }
            Ok(table.clone())
        });
        f.add_field_method_get("state", |_, v| Ok(v.state.map(|(s, _)| v.shared.states[s as usize].clone())));
        f.add_field_method_get("gained", |_, v| Ok(v.state.as_ref().map(|(_, g)| *g)));
        f.add_field_method_get("value", |_, v| Ok(v.value));
        f.add_field_method_get("defensive", |_, v| Ok(v.defensive));
        f.add_field_method_get("option", |_, v| Ok(v.option.clone()));
        f.add_field_method_get("at", |lua, v| {
            let Some((x, y)) = v.at else { return Ok(None) };
            let t = lua.create_table()?;
            t.set("x", x)?;
            t.set("y", y)?;
            t.set_readonly(true);
            Ok(Some(t))
        });
        f.add_field_method_get("ruleset", |_, v| Ok(v.shared.ruleset.clone()));
        f.add_field_method_get("options", |_, v| Ok(v.fns.options.clone()));
        for b in Board::ALL {
            f.add_field_method_get(b.id(), move |_, v| Ok(v.fns.board[b as usize].clone()));
        }
        for &e in HookEffect::ALL {
            f.add_field_method_get(e.id(), move |_, v| Ok(v.fns.effects[e as usize].clone()));
        }
    }
    fn add_methods<M: mlua::UserDataMethods<Self>>(m: &mut M) {
        read_only(m, "ctx");
    }
}

impl LuaHost {
    /// The handlers that run at this moment: (owner model, role, special attributes), in the
    /// documented order (`HANDLER_ORDER`).
    fn owners<'g>(game: &'g Game, ctx: &HookCtx) -> [Owner<'g>; 3] {
        let card = game.card(ctx.model);
        let weapon_sas = ctx.weapon.and_then(|w| card.weapons.get(w)).map(|m| m.sas.as_slice()).unwrap_or(&[]);
        let target_sas = match ctx.target {
            Some(t) if t != ctx.model => game.card(t).sas.as_slice(),
            _ => &[],
        };
        [
            (ctx.model, Role::Model, card.sas.as_slice()),
            (ctx.model, Role::Weapon, weapon_sas),
            (ctx.target.unwrap_or(ctx.model), Role::Target, target_sas),
        ]
    }

    /// The hook points `model`'s card has handlers of (`CardPoints`), made on first use. Asked at
    /// nearly every moment, so the common case (made already) is kept small enough to inline.
    #[inline]
    fn card_points(&mut self, game: &Game, model: usize) -> &CardPoints {
        let ix = game.rules.card_ix_of(&game.models[model]);
        let rules: *const Rules = game.rules;
        if self.cards_of != rules as usize || !matches!(self.cards.get(ix), Some(Some(_))) {
            self.make_card_points(game, model);
        }
        self.cards[ix].as_ref().expect("made above")
    }

    #[cold]
    fn make_card_points(&mut self, game: &Game, model: usize) {
        self.forget_other_rules(game);
        let ix = game.rules.card_ix_of(&game.models[model]);
        if self.cards.len() <= ix {
            self.cards.resize_with(ix + 1, || None);
        }
        let of = |role: Role, sas: &[(u16, i32)]| {
            let by_sa = &self.masks[Handlers::slot(role)];
            sas.iter().fold(0u64, |m, &(sa, _)| m | by_sa.get(usize::from(sa)).copied().unwrap_or(0))
        };
        let card = game.card(model);
        let points = CardPoints {
            model: of(Role::Model, &card.sas),
            weapons: card.weapons.iter().map(|w| of(Role::Weapon, &w.sas)).collect(),
            target: of(Role::Target, &card.sas),
            aura: of(Role::Aura, &card.sas),
        };
        self.cards[ix] = Some(points);
    }

    /// Forget `cards` and `auras` if they were made from other rules than `game`'s.
    fn forget_other_rules(&mut self, game: &Game) {
        let rules: *const Rules = game.rules;
        if self.cards_of != rules as usize {
            self.cards.clear();
            self.auras = (0, 0);
            self.cards_of = rules as usize;
        }
    }

    /// The `aura` hook points of every model of the game (`LuaHost::auras`).
    fn auras(&mut self, game: &Game) -> u64 {
        self.forget_other_rules(game);
        let (counted, mut points) = self.auras;
        if counted != game.models.len() {
            for i in counted..game.models.len() {
                points |= self.card_points(game, i).aura;
            }
            self.auras = (game.models.len(), points);
        }
        points
    }

    /// The handlers that run at this moment, in the documented order, into `runs` (emptied
    /// first): (owner model, role, special attribute, rating) of each.
    fn runs(&self, game: &Game, ctx: &HookCtx, runs: &mut Vec<Run>) {
        runs.clear();
        let bit = 1u64 << ctx.point as u32;
        let mut add = |owner: usize, role: Role, sas: &[(u16, i32)]| {
            // Most models have no handler here: that is asked first, in one tight pass, as it is
            // the cheapest question (the others below only ever take a handler away).
            let masks = &self.masks[Handlers::slot(role)];
            let handled = |sa: u16| masks.get(usize::from(sa)).is_some_and(|m| m & bit != 0);
            if !sas.iter().any(|&(sa, _)| handled(sa)) {
                return;
            }
            for &(sa, rating) in sas {
                if !handled(sa) {
                    continue;
                }
                // An optional special attribute its model declined for this action does nothing.
                let mount = if role == Role::Weapon { ctx.weapon } else { None };
                if role != Role::Target && game.active == Some(owner) && game.declined.contains(&(sa, mount)) {
                    continue;
                }
                // A weapon's special attribute given under a condition runs only while it holds.
                if let Some(w) = mount
                    && !game.mount_sa_holds(owner, w, sa, ctx.target)
                {
                    continue;
                }
                runs.push((owner, role, sa, rating));
            }
        };
        for (owner, role, sas) in Self::owners(game, ctx) {
            add(owner, role, sas);
        }
        // `aura` handlers: every other model on the table with such a special attribute.
        if self.aura_wanted[ctx.point as usize] {
            for i in
                (0..game.models.len()).filter(|&i| i != ctx.model && Some(i) != ctx.target && game.models[i].on_table())
            {
                add(i, Role::Aura, game.card(i).sas.as_slice());
            }
        }
    }

    /// The handler of `point` in `role` of special attribute `sa`'s module in this game: the
    /// module is instantiated first if this game has not run it yet. `Err` if the new instance
    /// fails or handles other hook points than the module did as it loaded (its top level read
    /// something a handler changed: a module shared through `require`).
    fn handler(&self, sa: u16, point: HookPoint, role: Role, name: &str) -> Result<Option<Function>, String> {
        let Some(module) = self.modules[sa as usize].as_ref() else { return Ok(None) };
        let game = self.shared.game.get();
        if module.instance.borrow().0 != game {
            self.sandbox.arm();
            let value = instantiate(&self.sandbox.lua, &module.chunk, &self.sandbox.module_env);
            self.sandbox.disarm();
            let value = value.map_err(|e| {
                let _ = self.sandbox.lua.gc_collect();
                let file = module.path.display().to_string();
                format!("{name}: {}", self.sandbox.locate_memory_error(e, &file))
            })?;
            let handlers = Handlers::read(value, name, &module.path)?;
            if handlers.masks != module.masks {
                return Err(format!(
                    "{name}: module {} handles other hook points in this game than when it loaded: its top \
                     level must not depend on what handlers change (module state lives for one game)",
                    module.path.display()
                ));
            }
            *module.instance.borrow_mut() = (game, handlers);
        }
        Ok(module.instance.borrow().1.get(point, role).cloned())
    }

    /// Run the moment's handlers in order, `live` lent to them; the effects they queued, or the
    /// message of the first that failed.
    fn run_handlers(
        &self,
        game: &Game,
        ctx: &HookCtx,
        runs: &[Run],
        live: &Live<'_, '_>,
    ) -> mlua::Result<Result<Vec<Queued>, String>> {
        let lua = &self.sandbox.lua;
        let point = ctx.point.id();
        let shared = &self.shared;
        // A fresh `ctx` each moment (a script may keep one), whose model views are made when
        // first read.
        let names = shared.names(game, ctx.model);
        let weapon = ctx.weapon.map(|w| (names.weapons.clone(), w));
        let model = LazyView::with(game, ctx.model, names);
        let target = ctx.target.map(|t| LazyView::new(shared, game, t));
        let view = lua.create_userdata(CtxView {
            turn: game.turn,
            target,
            distance: ctx.target.map(|d| game.distance(ctx.model, d)),
            weapon,
            band: ctx.band.filter(|&b| b < shared.bands.len()),
            roll: ctx.roll.as_ref().map(|r| (r.clone(), RefCell::new(None))),
            state: ctx.state,
            value: ctx.value,
            defensive: ctx.defensive,
            at: ctx.at.map(|p| (p.x, p.y)),
            option: ctx.option.clone(),
            ..CtxView::new(ctx.point, model, &self.fns, shared)
        })?;
        let mut queued = Vec::new();
        for &(owner, role, sa, rating) in runs {
            let name = &game.rules.sas[sa as usize].name;
            // `runs` took only special attributes whose module has a handler here.
            let handler = match self.handler(sa, ctx.point, role, name) {
                Ok(Some(handler)) => handler,
                Ok(None) => continue,
                Err(e) => return Ok(Err(e)),
            };
            {
                let mut v = view.borrow_mut::<CtxView>()?;
                v.role = role;
                v.rating = rating;
                v.owner = match role {
                    Role::Target => SelfView::Target,
                    Role::Aura => {
                        v.aura = Some(LazyView::new(shared, game, owner));
                        SelfView::Aura
                    }
                    Role::Model | Role::Weapon => SelfView::Model,
                };
            }
            live.roller.set(owner);
            live.current_sa.set(sa);
            // Whatever a failed call left behind is not this call's.
            shared.queue.borrow_mut().clear();
            self.sandbox.arm();
            let result = handler.call::<Value>(&view);
            self.sandbox.disarm();
            let result = match result {
                Ok(r) => r,
                Err(e) => {
                    let _ = lua.gc_collect();
                    let file = handler.info().source.unwrap_or_default();
                    let e = self.sandbox.locate_memory_error(e, file.strip_prefix('@').unwrap_or(&file));
                    return Ok(Err(format!("{name} ({point}): {e}")));
                }
            };
            if !result.is_nil() {
                return Ok(Err(format!(
                    "{name} ({point}): a handler returns nothing, but it returned a {} (a handler acts through ctx; at `{point}` {})",
                    result.type_name(),
                    accepts(ctx.point)
                )));
            }
            for effect in shared.queue.borrow_mut().drain(..) {
                queued.push(Queued { by: owner, source: name.clone(), effect });
            }
        }
        Ok(Ok(queued))
    }
}

/// One handler that runs at a moment: (owner model, role, special attribute, rating).
type Run = (usize, Role, u16, i32);

impl Hooks for LuaHost {
    fn active(&self) -> bool {
        self.wanted.iter().any(|w| *w)
    }

    fn take_prints(&mut self) -> Vec<String> {
        self.sandbox.take_prints()
    }

    fn script_steps(&self) -> u64 {
        self.sandbox.steps_taken()
    }

    fn new_game(&mut self) {
        self.sandbox.new_game();
        // The names cached per model are checked again before this game shows them (`names`).
        self.shared.game.set(self.shared.game.get() + 1);
        self.cards.clear();
        self.auras = (0, 0);
    }

    fn wants(&self, point: HookPoint) -> bool {
        self.wanted[point as usize]
    }

    fn wants_at(
        &mut self,
        game: &Game,
        point: HookPoint,
        model: usize,
        target: Option<usize>,
        weapon: Option<usize>,
    ) -> bool {
        if !self.wanted[point as usize] {
            return false;
        }
        // Lines printed outside any handler (a module's top level, as it loaded) go to the log at
        // the next call: that call must still happen.
        if self.sandbox.has_prints() {
            return true;
        }
        // The same models as `runs` asks (`owners`, then the auras), by card; `runs` may still
        // find nothing to run (a declined or conditional special attribute).
        let bit = 1u64 << point as u32;
        let own = self.card_points(game, model);
        if own.model & bit != 0 || weapon.and_then(|w| own.weapons.get(w)).is_some_and(|m| m & bit != 0) {
            return true;
        }
        if let Some(t) = target.filter(|&t| t != model)
            && self.card_points(game, t).target & bit != 0
        {
            return true;
        }
        self.aura_wanted[point as usize]
            && self.auras(game) & bit != 0
            && (0..game.models.len()).any(|i| {
                i != model
                    && Some(i) != target
                    && game.models[i].on_table()
                    && self.card_points(game, i).aura & bit != 0
            })
    }

    fn handles(&self, game: &Game, model: usize, point: HookPoint) -> bool {
        let card = game.card(model);
        let has = |sa: &(u16, i32)| self.modules[sa.0 as usize].as_ref().is_some_and(|m| m.has(point, Role::Model));
        card.sas.iter().any(has) || card.weapons.iter().any(|w| w.sas.iter().any(has))
    }

    fn call(&mut self, game: &Game, dice: &mut dyn Dice, ctx: &mut HookCtx) -> Result<(), String> {
        // The handlers that run at this moment, in the documented order; most moments have none,
        // and then nothing touches Lua.
        // Into a list kept between calls: a handled moment makes no allocation for it.
        let mut runs = std::mem::take(&mut self.runs);
        self.runs(game, ctx, &mut runs);
        let Some(&(_, _, first_sa, _)) = runs.first() else {
            self.runs = runs;
            return Ok(());
        };
        self.shared.moment.set(self.moments[ctx.point as usize]);
        // What the board and effect functions reach while the moment's handlers run (one `ctx`
        // serves them all: only whose handler it is changes between them).
        let live = Live {
            game,
            dice: RefCell::new(dice),
            rolls: RefCell::new(Vec::new()),
            roller: Cell::new(ctx.model),
            current_sa: Cell::new(first_sa),
            all_models: RefCell::new(None),
        };
        let outcome = {
            let _lent = self.shared.lend(&live);
            self.run_handlers(game, ctx, &runs, &live)
        };
        self.runs = runs;
        self.ran |= 1 << ctx.point as u32;
        let queued = match outcome {
            Ok(Ok(queued)) => queued,
            Ok(Err(e)) => return Err(e),
            Err(e) => {
                let name = &game.rules.sas[first_sa as usize].name;
                return Err(format!("{name} ({}): {e}", ctx.point.id()));
            }
        };
        ctx.rolls.extend(live.rolls.into_inner());
        // Only now, with every handler returned, do the effects reach the engine.
        ctx.effects.extend(queued);
        Ok(())
    }
}

/// The luau-lsp definition file of the hook API (`schemas/cav-hooks.d.luau`), so editors complete
/// `ctx.` and check handler names. Generated from the vocabulary (`cav_format::vocab`): the hook
/// points with their meaning, whether the engine calls them, what `ctx` holds and the effects and
/// quantities each accepts; the model types, quantities and effects. A test keeps the committed
/// file fresh.
pub fn definitions() -> String {
    definitions_with(None)
}

/// The ids one ruleset gives its model states and terrain types: with them the definitions name
/// exactly those (`cav validate` type-checks a ruleset's scripts so, and a misspelt state is a
/// type error at its line); without, any string (the committed file serves every ruleset).
pub struct RulesetIds<'a> {
    pub states: &'a [String],
    pub terrain: &'a [String],
}

/// The name of a hook point's own context type in the definitions: `CavCtx_combat_tp`.
pub fn point_context(p: HookPoint) -> String {
    format!("CavCtx_{}", p.id())
}

/// [`definitions`], for one ruleset's ids.
pub fn definitions_with(ids: Option<RulesetIds>) -> String {
    let words = |ids: Vec<&str>| ids.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" | ");
    let or_string = |ids: Option<&[String]>| match ids {
        Some(ids) if !ids.is_empty() => words(ids.iter().map(String::as_str).collect()),
        _ => "string".to_owned(),
    };
    let mut s = String::from(
        "-- Generated by `cav schema` from the engine's vocabulary (runtime/format/src/vocab.rs). Do not edit.\n\
         -- Point luau-lsp at it (\"luau-lsp.types.definitionFiles\") to get completion in pack scripts.\n\
         -- Which hook points the engine calls and what each accepts: docs/vocabulary.md and `cav hooks`.\n\n",
    );
    s.push_str(&format!("export type CavModelType = {}\n\n", words(ModelType::ALL.iter().map(|t| t.id()).collect())));
    s.push_str(
        "-- What a modifier changes at the moment of its hook point. YAML `modifiers:` name the same\n\
         -- quantities with the roll or value they belong to (`combat_roll`, `strike_point_roll` → `roll`;\n\
         -- `hard_rav`, `soft_rav` → `rav`): a script is always at one moment, so it names only what changes.\n",
    );
    s.push_str(&format!("export type CavQuantity = {}\n\n", words(Quantity::ALL.iter().map(|t| t.id()).collect())));
    s.push_str(&format!(
        "-- A model state's id (`kind: model_state`){}.\nexport type CavStateId = {}\n\n",
        if ids.is_some() { ", of the ruleset checked" } else { "; `cav validate` checks it against each ruleset's" },
        or_string(ids.as_ref().map(|i| i.states))
    ));
    s.push_str(&format!(
        "-- A terrain type's id (`kind: terrain`){}.\nexport type CavTerrainId = {}\n\n",
        if ids.is_some() { ", of the ruleset checked" } else { "; `cav validate` checks it against each ruleset's" },
        or_string(ids.as_ref().map(|i| i.terrain))
    ));
    s.push_str(
        "export type CavWeapon = {\n\tid: string,\n\tname: string,\n\t-- the weapon system (\"Guided Missile\", \"Mortar\")\n\tclass: string,\n\t-- the munition (upgrade id) a launcher is loaded with\n\tmunition: string?,\n\trange: number,\n\t-- the mount's index on the card (0 = first)\n\tmount: number,\n\tout_of_ammo: boolean?,\n}\n\n\
         export type CavModel = {\n\
         \tname: string,\n\tside: string,\n\tmodel: string,\n\tmodel_type: CavModelType,\n\t-- position on the table (inches) and facing (degrees, 0 = towards +y, clockwise)\n\tx: number,\n\ty: number,\n\tfacing: number,\n\t-- base radius (inches): a template reaches the model this far past its centre\n\tbase: number,\n\tdamage: number,\n\
         \tcolumns: number,\n\tcolumn: number,\n\tmv: number,\n\tav: number,\n\tdc: number?,\n\texp: number?,\n\tccv_hard: number?,\n\tccv_soft: number?,\n\ttv: number,\n\thard: boolean,\n\tsoft: boolean,\n\
         \tprone: boolean,\n\ton_table: boolean,\n\tammo_reserve: number,\n\tstates: { string },\n\
         \tspecial_attributes: { string },\n\t-- the rating of each of its special attributes, by id\n\tratings: { [string]: number },\n\tweapons: { CavWeapon },\n}\n\n\
         export type CavRoll = {\n\tkind: string,\n\tdice: string,\n\tnatural: { number },\n\tnatural_total: number,\n\ttotal: number,\n\ttarget: number?,\n\t-- `ctx.roll_dice` only: whether it reached its target point, and `success`/`fumble` on a critical\n\tsuccess: boolean?,\n\tcritical: string?,\n}\n\n\
         export type CavOpposed = {\n\t-- whether this model won (ties go to it: it starts the contest)\n\twon: boolean,\n\tmine: CavRoll,\n\ttheirs: CavRoll,\n}\n\n",
    );
    s.push_str(&format!(
        "-- What a handler sees. Everything is read-only; the effect functions are the only way to act,\n\
         -- each only at the hook points that accept it (elsewhere calling it is an error). Effects are\n\
         -- queued and applied when every handler of the moment has returned.\n\
         -- Whose handlers run: {HANDLER_ORDER}.\nexport type CavContext = {{\n"
    ));
    let base = String::from(
        "\t-- the hook point being called, e.g. \"combat_tp\"\n\tpoint: string,\n\
         \t-- whose special attribute this handler is: \"model\" (the acting model's), \"weapon\" (its weapon's), \"target\", \"aura\" (any other model's)\n\trole: \"model\" | \"weapon\" | \"target\" | \"aura\",\n\
         \t-- the model this special attribute belongs to\n\tself: CavModel,\n\
         \t-- the special attribute's rating (or uses) on this model or weapon\n\trating: number,\n\
         \tturn: number,\n\t-- the ruleset's id and its options with the readings chosen\n\truleset: string,\n\toptions: {[string]: string},\n\
         \tmodel: CavModel,\n\ttarget: CavModel?,\n\tweapon: CavWeapon?,\n\tdistance: number?,\n\t-- the range band's id (short, medium, …)\n\tband: string?,\n\
         \t-- the roll in progress (combat_dice)\n\troll: CavRoll?,\n\t-- model_state: the state and whether it is being gained\n\tstate: CavStateId?,\n\tgained: boolean?,\n\
         \t-- the value the moment offers (a radius, a range, a move value), if any\n\tvalue: number?,\n\
         \t-- the attack is defensive fire (combat_tp and combat_dice of a direct attack)\n\tdefensive: boolean,\n\
         \t-- the point on the table the moment is at (landing: the final strike point)\n\tat: {x: number, y: number}?,\n\
         \t-- special_action: the option the action was declared with (one a special attribute of the model offers), if any\n\toption: string?,\n\
         \t-- every model in play (on the table), as views; with a state id, only those in that state\n\tmodels: (state: CavStateId?) -> { CavModel },\n\
         \t-- the range between two models as the ruleset measures it (edge to edge or centre to centre)\n\trange: (a: CavModel, b: CavModel) -> number,\n\
         \t-- `ctx.roll_dice(label, target, dice)`: roll the ruleset's standard dice (2d6), or `dice` (\"1d6\"), against a target\n\t-- point (none: no success judged), from the game's one seeded dice source; logged as a roll named `label` of the\n\t-- special attribute's model. Criticals belong to the standard dice. At every hook point.\n\troll_dice: (label: string, target: number?, dice: string?) -> CavRoll,\n\
         \t-- `ctx.opposed_roll(label, other, bonus, other_bonus)`: this special attribute's model and `other` each roll the\n\t-- standard dice plus the bonus given and their `opposed_roll` effects (pilots); the larger margin over the model's own\n\t-- EXP wins (the larger total where a card has none), ties to this model. Both rolls are logged. At every hook point.\n\topposed_roll: (label: string, other: CavModel, bonus: number, other_bonus: number) -> CavOpposed,\n",
    );
    s.push_str(&base);
    let sig = |e: HookEffect| match e {
        HookEffect::AddModifier => "(quantity: CavQuantity, source: string, value: number) -> ()",
        HookEffect::Forbid => "(reason: string) -> ()",
        HookEffect::SetValue => "(value: number) -> ()",
        HookEffect::DealDamage => "(model: CavModel, points: number) -> ()",
        HookEffect::ApplyState | HookEffect::ClearState => "(model: CavModel, state: CavStateId) -> ()",
        HookEffect::SpendAmmo | HookEffect::RestoreAmmo => "(model: CavModel, mount: number) -> ()",
        HookEffect::RefillAmmoBins => "(model: CavModel) -> ()",
        HookEffect::Reroll => "(die: number) -> ()",
        HookEffect::SetDice => "(dice: string) -> ()",
        HookEffect::PlaceTerrain => {
            "(terrain: CavTerrainId, x: number, y: number, radius: number, activations: number) -> ()"
        }
    };
    for &e in HookEffect::ALL {
        let at: Vec<&str> = HookPoint::ALL
            .iter()
            .filter(|p| p.status().implemented() && p.accepts().contains(&e))
            .map(|p| p.id())
            .collect();
        s.push_str(&format!("\t-- {} Accepted at: {}.\n\t{e}: {},\n", e.doc(), at.join(", "), sig(e)));
    }
    s.push_str("}\n\n");
    // One context per hook point: what `cav validate` checks each handler with.
    s.push_str(
        "-- The context of one hook point: CavContext with only the effects and quantities it accepts.\n\
         -- `cav validate` checks each handler annotated `CavContext` with its hook point's; annotate a\n\
         -- handler with it (`ctx: CavCtx_combat_tp`) and luau-lsp checks it as you type too.\n",
    );
    let fields: String = base.lines().filter(|l| !l.trim_start().starts_with("--")).map(|l| format!("{l}\n")).collect();
    for p in HookPoint::ALL.iter().filter(|p| p.status().implemented()) {
        s.push_str(&format!("export type {} = {{\n{fields}", point_context(*p)));
        for &e in p.accepts() {
            let sig = match e {
                HookEffect::AddModifier => {
                    let qs: Vec<&str> = p.quantities().iter().map(|q| q.id()).collect();
                    let qs = if qs.is_empty() { "never".to_owned() } else { words(qs) };
                    format!("(quantity: {qs}, source: string, value: number) -> ()")
                }
                _ => sig(e).to_owned(),
            };
            s.push_str(&format!("\t{e}: {sig},\n"));
        }
        s.push_str("}\n\n");
    }
    s.push_str("-- A special attribute's module returns a table of handlers keyed by hook point.\nexport type CavHandlers = {\n");
    for &p in HookPoint::ALL {
        s.push_str(&format!("\t-- {}\n", p.doc()));
        match p.status() {
            Status::Recognised(why) => s.push_str(&format!("\t-- Not called yet: {why}; this handler never runs.\n")),
            Status::Implemented => {
                let fx: Vec<String> = p.accepts().iter().map(|e| format!("ctx.{e}")).collect();
                let fx = if fx.is_empty() { "none (look only)".to_owned() } else { fx.join(", ") };
                let qs: Vec<&str> = p.quantities().iter().map(|q| q.id()).collect();
                let qs = if qs.is_empty() { String::new() } else { format!("; quantities: {}", qs.join(", ")) };
                s.push_str(&format!("\t-- ctx holds: {}. Effects: {fx}{qs}.\n", p.ctx_fields()));
            }
        }
        s.push_str(&format!("\t{p}: ((ctx: CavContext) -> ())?,\n"));
    }
    s.push_str(
        "\t-- Handlers that run when the model is the other model of a moment (the target of an attack,\n\
         \t-- the model under a template): defender-side abilities.\n\tas_target: CavTargetHandlers?,\n\
         \t-- Handlers that run for every other model on the table with the special attribute (neither the\n\
         \t-- acting model nor the other one): bubbles and arrays that reach friends or foes by range.\n\taura: CavTargetHandlers?,\n}\n\n",
    );
    s.push_str("-- `as_target` handlers: the hook points that have a target.\nexport type CavTargetHandlers = {\n");
    for p in HookPoint::ALL.iter().filter(|p| p.has_target()) {
        s.push_str(&format!("\t{p}: ((ctx: CavContext) -> ())?,\n"));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host indexes its tables by `HookPoint as usize` and its masks (`u16`) by `HookEffect`.
    #[test]
    fn vocabulary_order_is_the_enum_order() {
        assert!(HookPoint::ALL.iter().enumerate().all(|(i, p)| *p as usize == i));
        assert!(HookEffect::ALL.len() <= 16);
        assert_eq!(accepts(HookPoint::Build), "it accepts nothing: look only");
        assert_eq!(accepts(HookPoint::AttackTargets), "it accepts `ctx.add_modifier`, `ctx.set_value`");
    }

    /// `OutOfAmmo` reads as the list it was made from, past 64 mounts too, and `false` past them.
    #[test]
    fn out_of_ammo_reads_as_the_list() {
        for n in [0, 1, 3, 63, 64, 65, 130] {
            let mounts: Vec<bool> = (0..n).map(|i| i % 3 == 1 || i == 64).collect();
            let o = OutOfAmmo::of(&mounts);
            for i in 0..n + 70 {
                assert_eq!(o.get(i), mounts.get(i).copied().unwrap_or(false), "{n} mounts, mount {i}");
            }
        }
    }
}
