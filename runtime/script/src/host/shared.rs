//! What the host shares with the Lua functions it makes (`ctx`'s board and effect functions):
//! the moment being called, the effects queued, the board lent while handlers run, Lua strings made once.

use std::cell::{Cell, RefCell};
use std::ptr::NonNull;

use cav_rules::dice::Dice;
use cav_rules::event::Roll;
use cav_rules::game::Game;
use cav_rules::hooks::Effect;
use mlua::{Function, Lua, Table};

use super::effects::Moment;
use super::views::CachedNames;

/// What the effect and board functions share with the host: the moment being called, the
/// effects the running handler has asked for, and the board while a moment's handlers run.
pub(super) struct Shared {
    pub(super) moment: Cell<Moment>,
    pub(super) queue: RefCell<Vec<Effect>>,
    /// The moment being called (the game, its dice, the rolls made), lent by `Hooks::call` for
    /// exactly as long as its handlers run (`Lent`), `None` otherwise. See `Shared::live`.
    pub(super) live: Cell<Option<NonNull<Live<'static, 'static>>>>,
    /// State ids, by state index.
    pub(super) state_ids: Vec<String>,
    /// Terrain type ids, by terrain index (`ctx.place_terrain`).
    pub(super) terrain_ids: Vec<String>,
    /// The tables a script may land a row of (`Rules::lookup_tables`).
    pub(super) table_ids: Vec<String>,
    /// Makes `ctx.roll` tables in Luau (`ROLL_TABLE`): its constructor's keys are constants,
    /// where setting them one by one from Rust made and hashed each key string every time.
    pub(super) roll_ctor: Function,
    /// Lua strings of roll kinds and dice expressions, made once (a ruleset has a handful).
    pub(super) words: RefCell<Vec<(Box<str>, mlua::LuaString)>>,
    /// Names per model, shared by its views (by model index).
    pub(super) names: RefCell<Vec<Option<CachedNames>>>,
    /// The game being played, counted from 0 (`Hooks::new_game`): what `names` were shown in.
    pub(super) game: Cell<u64>,
    /// Lua strings made once, for the fields scripts read most: hook point ids (by
    /// `HookPoint as usize`), roles (by `Role as usize`), model types (by `TypeIx`),
    /// state ids (by state index), range bands (by band index) and the ruleset's id.
    pub(super) points: Vec<mlua::LuaString>,
    pub(super) roles: Vec<mlua::LuaString>,
    pub(super) model_types: Vec<mlua::LuaString>,
    /// The move classes' ids (by `CardDef::move_class`).
    pub(super) move_classes: Vec<mlua::LuaString>,
    pub(super) states: Vec<mlua::LuaString>,
    pub(super) bands: Vec<mlua::LuaString>,
    /// The ids of the attributes the ruleset declares (`Rules::attributes`).
    pub(super) attributes: Vec<mlua::LuaString>,
    /// The ids of its weapons' attributes (`Rules::weapon_attributes`), and which is the RAV.
    pub(super) weapon_attributes: Vec<mlua::LuaString>,
    pub(super) weapon_rav: Option<usize>,
    pub(super) ruleset: mlua::LuaString,
}

/// A moment whose handlers are running: what the board functions (`ctx.models`, `ctx.range`,
/// `ctx.roll_dice`, `ctx.opposed_roll`) and the effect functions reach.
pub(super) struct Live<'g, 'r> {
    pub(super) game: &'g Game<'r>,
    /// The game's one dice source, lent to the handlers in turn.
    pub(super) dice: RefCell<&'g mut dyn Dice>,
    /// The rolls handlers made (`ctx.roll_dice`), for the engine to log.
    pub(super) rolls: RefCell<Vec<Roll>>,
    /// The model whose handler runs (`ctx.roll_dice` logs its rolls as that model's), and its
    /// special attribute.
    pub(super) roller: Cell<usize>,
    pub(super) current_sa: Cell<u16>,
    /// `ctx.models()`, made once a moment: the board does not change while its handlers run.
    pub(super) all_models: RefCell<Option<Table>>,
}

/// The lending of a `Live` to the Lua functions (`Shared::lend`): ends when dropped, also when
/// a panic unwinds through `Hooks::call`.
pub(super) struct Lent<'s>(&'s Shared);

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.0.live.set(None);
    }
}

/// The Luau constructor of `ctx.roll` tables (see `Shared::roll_ctor`).
pub(super) const ROLL_TABLE: &str = "local freeze = table.freeze\n\
return function(kind, dice, natural_total, total, target, margin, ...)\n\
\treturn freeze({ kind = kind, dice = dice, natural = freeze({ ... }), natural_total = natural_total, total = total, target = target, margin = margin })\n\
end";

/// At most this many words are kept in `Shared::words`; past it they are made at each use.
const WORDS_KEPT: usize = 64;

impl Shared {
    /// The Lua string of a word the engine names often (a roll's kind or dice).
    pub(super) fn word(&self, lua: &Lua, text: &str) -> mlua::Result<mlua::LuaString> {
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
    pub(super) fn roll_table(&self, lua: &Lua, r: &Roll, kind: mlua::LuaString) -> mlua::Result<Table> {
        let natural_total: u32 = r.natural.iter().sum();
        let dice = self.word(lua, &r.dice)?;
        let natural = mlua::Variadic::from_iter(r.natural.iter().copied());
        self.roll_ctor.call((kind, dice, natural_total, r.total, r.target, r.margin, natural))
    }

    /// Lend `live` to the Lua functions until the guard returned is dropped.
    pub(super) fn lend<'s>(&'s self, live: &'s Live<'_, '_>) -> Lent<'s> {
        self.live.set(Some(NonNull::from(live).cast()));
        Lent(self)
    }

    /// The moment whose handlers are running, or `None` between calls (a script that kept a
    /// function of `ctx` and calls it later).
    pub(super) fn live<R>(&self, f: impl FnOnce(Option<&Live<'_, '_>>) -> R) -> R {
        // SAFETY: `live` is set only by `lend`, from a `&'s Live` that outlives the `Lent<'s>`
        // guard it returns, and the guard clears it when dropped (also on unwinding); so a
        // pointer found here points at a `Live` that is alive and that nothing borrows mutably
        // (`Hooks::call` keeps only shared borrows of it; its mutable parts are `Cell`s and
        // `RefCell`s). Lua is single-threaded and `Shared` is not `Send`. The lifetimes erased
        // by `lend` never leave `f`, which works for any lifetimes.
        f(self.live.get().map(|p| unsafe { p.as_ref() }))
    }
}
