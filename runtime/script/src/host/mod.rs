//! The Lua host: implements the engine's `Hooks` with the scripts the packs name.
//!
//! A special attribute's module returns a table of handlers keyed by hook point (`combat_tp`,
//! `damage_calc`, `attack_declare`, …: the ids of `HookPoint` in the vocabulary). At a moment,
//! the handlers of every model involved run, in `vocab::HANDLER_ORDER`: the acting model's
//! special attributes, its weapon's, then the other model's. A handler gets a fresh read-only
//! view of the moment (`ctx`) and acts only through `ctx`'s effect functions, each refused where
//! the hook point does not accept it (`HookPoint::accepts`, `HookPoint::quantities`). Effects
//! are queued and handed to the engine only when every handler has returned.
//!
//! Here: the host (loading the modules) and the `Hooks` the engine calls. `run` runs a moment's
//! handlers, `ctx` and `views` are what they see, `board` and `effects` what they can do through
//! `ctx`, and `definitions` the luau-lsp types of all of it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use cav_format::{HookEffect, HookPoint};
use cav_rules::Rules;
use cav_rules::dice::Dice;
use cav_rules::game::Game;
use cav_rules::hooks::{HookCtx, Hooks};
use mlua::Lua;

use crate::sandbox::{Limits, Sandbox, instantiate, load_resolved, locate_module_in};

mod args;
mod board;
mod cards;
mod ctx;
mod definitions;
mod effects;
mod handlers;
mod run;
mod shared;
mod views;

pub use definitions::{RulesetIds, definitions, definitions_with, point_context};
pub use handlers::{AS_TARGET, AURA};

use board::{Board, board_fn};
use cards::CardPoints;
use ctx::CtxFns;
use effects::{Moment, effect_fn};
use handlers::{Handlers, Module, Role, Run};
use shared::{Live, ROLL_TABLE, Shared};
use views::register_views;

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
    /// The rules of the whole game that have a script (`SaDef::game_wide`), in `Rules::sas`
    /// order, and the hook points they handle together (bit `HookPoint as u32`).
    game_rules: Vec<u16>,
    game_mask: u64,
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

impl LuaHost {
    /// Load the module of every special attribute that names one.
    pub fn new(rules: &Rules, limits: Limits) -> Result<LuaHost, String> {
        let roots: Vec<std::path::PathBuf> =
            rules.sas.iter().filter_map(|s| s.script.as_ref()).flat_map(|(_, r)| r.clone()).collect();
        let sandbox = Sandbox::new(limits, roots).map_err(|e| e.to_string())?;
        let mut modules = Vec::with_capacity(rules.sas.len());
        // Each root resolved once for all the modules it holds.
        let real = cav_content::pack::RealDirs::default();
        for sa in &rules.sas {
            let Some((module, roots)) = &sa.script else {
                modules.push(None);
                continue;
            };
            let path = locate_module_in(roots, module, &real)
                .map_err(|_| format!("{}: script module `{module}` not found", sa.name))?;
            sandbox.arm();
            let chunk = load_resolved(&sandbox.lua, &path, &path).map_err(|e| format!("{}: {e}", sa.name))?;
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
        debug_assert!(Role::ALL.iter().enumerate().all(|(i, r)| *r as usize == i));
        let shared = Rc::new(Shared {
            moment: Cell::new(Moment::of(HookPoint::ALL[0])),
            queue: RefCell::new(Vec::new()),
            live: Cell::new(None),
            state_ids: rules.states.iter().map(|s| s.id.clone()).collect(),
            terrain_ids: rules.terrains.iter().map(|t| t.id.clone()).collect(),
            table_ids: rules.lookup_tables.iter().map(|t| t.id.clone()).collect(),
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
            model_types: strings(&sandbox.lua, rules.proc.model_types.iter().map(|t| t.name.as_str()))?,
            move_classes: strings(&sandbox.lua, rules.move_classes.iter().map(String::as_str))?,
            states: strings(&sandbox.lua, rules.states.iter().map(|s| s.id.as_str()))?,
            bands: strings(&sandbox.lua, rules.bands.iter().map(|b| b.id.as_str()))?,
            attributes: strings(&sandbox.lua, rules.attributes.iter().map(String::as_str))?,
            weapon_attributes: strings(&sandbox.lua, rules.weapon_attributes.iter().map(String::as_str))?,
            weapon_rav: rules.weapon_rav,
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
        let game_rules: Vec<u16> = (0..rules.sas.len())
            .filter(|&i| rules.sas[i].game_wide && modules[i].is_some())
            .map(|i| i as u16)
            .collect();
        let game_mask =
            game_rules.iter().filter_map(|&i| modules[usize::from(i)].as_ref()).fold(0, |m, x| m | x.masks[0]);
        let fns = Rc::new(CtxFns { board, effects, options });
        register_views(&sandbox.lua, &shared, &fns).map_err(|e| e.to_string())?;
        Ok(LuaHost {
            sandbox,
            masks: [0, 1, 2].map(|slot| modules.iter().map(|m| m.as_ref().map_or(0, |m| m.masks[slot])).collect()),
            modules,
            wanted,
            aura_wanted,
            game_rules,
            game_mask,
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

/// Lua strings of `words`, made once.
fn strings<'w>(lua: &Lua, words: impl Iterator<Item = &'w str>) -> Result<Vec<mlua::LuaString>, String> {
    words.map(|w| lua.create_string(w)).collect::<mlua::Result<_>>().map_err(|e| e.to_string())
}

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
        self.new_game_same_rules();
        self.cards.clear();
    }

    fn new_game_same_rules(&mut self) {
        self.sandbox.new_game();
        // The names cached per model are checked again before this game shows them (`names`).
        self.shared.game.set(self.shared.game.get() + 1);
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
        // A rule of the whole game looks at every moment of its hook points.
        let bit = 1u64 << point as u32;
        if self.game_mask & bit != 0 {
            return true;
        }
        // The same models as `runs` asks (`owners`, then the auras), by card; `runs` may still
        // find nothing to run (a declined or conditional special attribute).
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
