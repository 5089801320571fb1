//! The Lua host: implements the engine's `Hooks` with the scripts the packs name.
//!
//! A special attribute's module returns a table of handlers keyed by hook point
//! (`combat_tp`, `damage_calc`, `attack_declare`, …). A handler gets a fresh, read-only view of
//! the moment (`ctx`) and may only call `ctx.add_modifier(source, value)` or
//! `ctx.forbid(reason)`; it returns nothing.

use std::cell::RefCell;
use std::rc::Rc;

use cav_format::HookPoint;
use cav_rules::Rules;
use cav_rules::event::ModApplied;
use cav_rules::game::Game;
use cav_rules::hooks::{HookCtx, Hooks};
use mlua::{Function, Table, Value};

use crate::sandbox::{Limits, Sandbox, find_module, load_module};

type Adds = Rc<RefCell<Vec<(String, i32)>>>;

pub struct LuaHost {
    pub sandbox: Sandbox,
    /// Handlers per special attribute (index as in `Rules::sas`), by hook point (index in
    /// `HOOK_POINTS`): looked up once at load so a call finds them without touching Lua.
    handlers: Vec<Option<Vec<Option<Function>>>>,
    /// Hook points some script handles.
    wanted: Vec<bool>,
    adds: Adds,
    forbid: Rc<RefCell<Option<String>>>,
    add_fn: Function,
    forbid_fn: Function,
    value: Rc<RefCell<Option<f64>>>,
    set_value_fn: Function,
    /// The (frozen, shared) empty list of states.
    no_states: Table,
    ctx_table: Table,
    k: Keys,
    /// Read-only views of models, reused while the model is unchanged (key: damage, MV, states).
    unit_views: RefCell<Vec<Option<(u64, Table)>>>,
    /// Read-only views of weapon mounts, by (model, mount); they never change in a game.
    weapon_views: RefCell<std::collections::HashMap<(usize, usize, usize), Table>>,
    sign: i32,
}

/// Field names of the views, made into Lua strings once (creating a Lua string is the costly
/// part of filling a table).
struct Keys {
    name: mlua::LuaString,
    side: mlua::LuaString,
    model: mlua::LuaString,
    model_type: mlua::LuaString,
    damage: mlua::LuaString,
    column: mlua::LuaString,
    mv: mlua::LuaString,
    av: mlua::LuaString,
    hard: mlua::LuaString,
    soft: mlua::LuaString,
    states: mlua::LuaString,
    point: mlua::LuaString,
    rating: mlua::LuaString,
    unit: mlua::LuaString,
    target: mlua::LuaString,
    distance: mlua::LuaString,
    weapon: mlua::LuaString,
    value: mlua::LuaString,
    set_value: mlua::LuaString,
    add_modifier: mlua::LuaString,
    forbid: mlua::LuaString,
    /// Hook point names, by index in `HOOK_POINTS`.
    points: Vec<mlua::LuaString>,
}

impl Keys {
    fn new(lua: &mlua::Lua) -> mlua::Result<Keys> {
        Ok(Keys {
            name: lua.create_string("name")?,
            side: lua.create_string("side")?,
            model: lua.create_string("model")?,
            model_type: lua.create_string("model_type")?,
            damage: lua.create_string("damage")?,
            column: lua.create_string("column")?,
            mv: lua.create_string("mv")?,
            av: lua.create_string("av")?,
            hard: lua.create_string("hard")?,
            soft: lua.create_string("soft")?,
            states: lua.create_string("states")?,
            point: lua.create_string("point")?,
            rating: lua.create_string("rating")?,
            unit: lua.create_string("unit")?,
            target: lua.create_string("target")?,
            distance: lua.create_string("distance")?,
            weapon: lua.create_string("weapon")?,
            value: lua.create_string("value")?,
            set_value: lua.create_string("set_value")?,
            add_modifier: lua.create_string("add_modifier")?,
            forbid: lua.create_string("forbid")?,
            points: HOOK_POINTS.iter().map(|p| lua.create_string(hook_name(*p))).collect::<mlua::Result<_>>()?,
        })
    }
}

/// Model types as scripts see them (the schema's names).
fn model_type_name(t: cav_format::ModelType) -> &'static str {
    use cav_format::ModelType as M;
    match t {
        M::Cav => "cav",
        M::QuadCav => "quad_cav",
        M::Vehicle => "vehicle",
        M::Aircraft => "aircraft",
        M::Infantry => "infantry",
        M::PoweredInfantry => "powered_infantry",
        M::Structure => "structure",
    }
}

/// The snake_case name of a hook point, as scripts write it (and as the packs' `hooks:` lists do).
pub fn hook_name(p: HookPoint) -> &'static str {
    match p {
        HookPoint::Build => "build",
        HookPoint::ForceSelection => "force_selection",
        HookPoint::GameSetup => "game_setup",
        HookPoint::DrawDeck => "draw_deck",
        HookPoint::Activation => "activation",
        HookPoint::SpecialAction => "special_action",
        HookPoint::Movement => "movement",
        HookPoint::Transport => "transport",
        HookPoint::TargetLock => "target_lock",
        HookPoint::OpposedRoll => "opposed_roll",
        HookPoint::AttackDeclare => "attack_declare",
        HookPoint::AttackTargets => "attack_targets",
        HookPoint::StrikePoint => "strike_point",
        HookPoint::Drift => "drift",
        HookPoint::CombatTp => "combat_tp",
        HookPoint::CombatDice => "combat_dice",
        HookPoint::CritFumble => "crit_fumble",
        HookPoint::Reaction => "reaction",
        HookPoint::DamageCalc => "damage_calc",
        HookPoint::DamageTable => "damage_table",
        HookPoint::OnHit => "on_hit",
        HookPoint::ModelState => "model_state",
        HookPoint::PilotCheck => "pilot_check",
        HookPoint::Repair => "repair",
        HookPoint::AreaEffect => "area_effect",
        HookPoint::EndPhase => "end_phase",
    }
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
            match load_module(&sandbox.lua, &path).map_err(|e| format!("{}: {e}", sa.name))? {
                Value::Table(t) => {
                    let mut by_point = Vec::with_capacity(HOOK_POINTS.len());
                    for p in HOOK_POINTS {
                        let f: Option<Function> = t
                            .raw_get(hook_name(*p))
                            .map_err(|e| format!("{}: handler `{}`: {e}", sa.name, hook_name(*p)))?;
                        by_point.push(f);
                    }
                    modules.push(Some(by_point));
                }
                other => {
                    return Err(format!(
                        "{}: module {} returned {}, not a table of handlers",
                        sa.name,
                        path.display(),
                        other.type_name()
                    ));
                }
            }
        }
        let adds: Adds = Rc::new(RefCell::new(Vec::new()));
        let forbid = Rc::new(RefCell::new(None));
        let a = adds.clone();
        let add_fn = sandbox
            .lua
            .create_function(move |_, (source, value): (String, i32)| {
                a.borrow_mut().push((source, value));
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let f = forbid.clone();
        let forbid_fn = sandbox
            .lua
            .create_function(move |_, reason: String| {
                *f.borrow_mut() = Some(reason);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let value = Rc::new(RefCell::new(None));
        let v = value.clone();
        let set_value_fn = sandbox
            .lua
            .create_function(move |_, x: f64| {
                *v.borrow_mut() = Some(x);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let wanted = (0..HOOK_POINTS.len()).map(|i| modules.iter().flatten().any(|h| h[i].is_some())).collect();
        let no_states = sandbox.lua.create_table().map_err(|e| e.to_string())?;
        let sandbox_ctx = sandbox.lua.create_table_with_capacity(0, 12).map_err(|e| e.to_string())?;
        let sandbox_lua_for_keys = sandbox.lua.clone();
        no_states.set_readonly(true);
        Ok(LuaHost {
            sandbox,
            handlers: modules,
            wanted,
            adds,
            forbid,
            add_fn,
            forbid_fn,
            value,
            set_value_fn,
            no_states,
            ctx_table: sandbox_ctx,
            k: Keys::new(&sandbox_lua_for_keys).map_err(|e| e.to_string())?,
            unit_views: RefCell::new(Vec::new()),
            weapon_views: RefCell::new(std::collections::HashMap::new()),
            sign: rules.sign,
        })
    }

    /// The view of model `u`, from the cache when nothing it shows has changed.
    fn unit_view(&self, game: &Game, u: usize) -> mlua::Result<Table> {
        let unit = &game.units[u];
        let states = unit.states.iter().fold(0u64, |m, (s, _)| m | 1u64 << (*s as u64 % 24));
        let key = u64::from(unit.damage)
            | u64::from(game.move_value(u)) << 8
            | (unit.card as u64) << 16
            | (unit.side as u64) << 32
            | states << 40;
        let mut cache = self.unit_views.borrow_mut();
        if cache.len() <= u {
            cache.resize(u + 1, None);
        }
        if let Some((k, t)) = &cache[u]
            && *k == key
        {
            return Ok(t.clone());
        }
        let t = self.unit_table(game, u)?;
        cache[u] = Some((key, t.clone()));
        Ok(t)
    }

    fn unit_table(&self, game: &Game, u: usize) -> mlua::Result<Table> {
        let lua = &self.sandbox.lua;
        let unit = &game.units[u];
        let card = game.card(u);
        let col = game.column(u);
        let t = lua.create_table_with_capacity(0, 11)?;
        t.raw_set(&self.k.name, unit.name.as_str())?;
        t.raw_set(&self.k.side, game.sides[unit.side].as_str())?;
        t.raw_set(&self.k.model, card.id.as_str())?;
        t.raw_set(&self.k.model_type, model_type_name(card.model_type))?;
        t.raw_set(&self.k.damage, unit.damage)?;
        t.raw_set(&self.k.column, col)?;
        t.raw_set(&self.k.mv, game.move_value(u))?;
        t.raw_set(&self.k.av, card.av[col])?;
        t.raw_set(&self.k.hard, card.hard)?;
        t.raw_set(&self.k.soft, card.soft)?;
        if unit.states.is_empty() {
            t.raw_set(&self.k.states, self.no_states.clone())?;
        } else {
            let states = lua.create_table_with_capacity(unit.states.len(), 0)?;
            for (i, (s, _)) in unit.states.iter().enumerate() {
                states.raw_set(i + 1, game.rules.states[*s as usize].id.as_str())?;
            }
            states.set_readonly(true);
            t.raw_set(&self.k.states, states)?;
        }
        t.set_readonly(true);
        Ok(t)
    }

    fn context(&self, game: &Game, ctx: &HookCtx, rating: i32) -> mlua::Result<Table> {
        let lua = &self.sandbox.lua;
        // One context table, refilled for each call (scripts only ever see it read-only).
        let t = &self.ctx_table;
        t.set_readonly(false);
        t.clear()?;
        let pi = HOOK_POINTS.iter().position(|p| *p == ctx.point).unwrap_or(0);
        t.raw_set(&self.k.point, &self.k.points[pi])?;
        t.raw_set(&self.k.rating, rating)?;
        t.raw_set(&self.k.unit, self.unit_view(game, ctx.unit)?)?;
        if let Some(d) = ctx.target {
            t.raw_set(&self.k.target, self.unit_view(game, d)?)?;
            t.raw_set(&self.k.distance, game.distance(ctx.unit, d))?;
        }
        if let Some(w) = ctx.weapon {
            let key = (ctx.unit, game.units[ctx.unit].card, w);
            let cached = self.weapon_views.borrow().get(&key).cloned();
            let wt = match cached {
                Some(wt) => wt,
                None => {
                    let m = &game.card(ctx.unit).weapons[w];
                    let wt = lua.create_table()?;
                    wt.raw_set("id", m.weapon.as_str())?;
                    wt.raw_set(&self.k.name, m.name.as_str())?;
                    wt.raw_set("range", m.range)?;
                    wt.set_readonly(true);
                    self.weapon_views.borrow_mut().insert(key, wt.clone());
                    wt
                }
            };
            t.raw_set(&self.k.weapon, wt)?;
        }
        if let Some(v) = ctx.value {
            t.raw_set(&self.k.value, v)?;
            t.raw_set(&self.k.set_value, self.set_value_fn.clone())?;
        }
        t.raw_set(&self.k.add_modifier, self.add_fn.clone())?;
        t.raw_set(&self.k.forbid, self.forbid_fn.clone())?;
        t.set_readonly(true);
        Ok(t.clone())
    }
}

impl Hooks for LuaHost {
    fn active(&self) -> bool {
        self.wanted.iter().any(|w| *w)
    }

    fn take_prints(&mut self) -> Vec<String> {
        self.sandbox.take_prints()
    }

    fn wants(&self, point: HookPoint) -> bool {
        HOOK_POINTS.iter().position(|p| *p == point).is_some_and(|i| self.wanted[i])
    }

    fn call(&mut self, game: &Game, ctx: &mut HookCtx) -> Result<(), String> {
        let point = hook_name(ctx.point);
        let card = game.card(ctx.unit);
        let weapon_sas = ctx.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        let Some(pi) = HOOK_POINTS.iter().position(|p| *p == ctx.point) else { return Ok(()) };
        for &(sa, rating) in card.sas.iter().chain(weapon_sas) {
            let Some(Some(handler)) = self.handlers[sa as usize].as_ref().map(|h| h[pi].clone()) else { continue };
            let name = &game.rules.sas[sa as usize].name;
            let view = self.context(game, ctx, rating).map_err(|e| format!("{name} ({point}): {e}"))?;
            self.sandbox.arm();
            let result: Value = handler.call(view).map_err(|e| format!("{name} ({point}): {e}"))?;
            if !result.is_nil() {
                return Err(format!(
                    "{name} ({point}): a handler returns nothing, but it returned a {} (use ctx.add_modifier or ctx.forbid)",
                    result.type_name()
                ));
            }
            for (source, value) in self.adds.borrow_mut().drain(..) {
                ctx.modifiers.push(ModApplied { source, value: value * self.sign });
            }
            if let Some(reason) = self.forbid.borrow_mut().take() {
                ctx.forbid = Some(reason);
            }
            if let Some(v) = self.value.borrow_mut().take() {
                ctx.value = Some(v);
            }
        }
        Ok(())
    }
}

/// The luau-lsp definition file of the hook API (`schemas/cav-hooks.d.luau`), so editors complete
/// `ctx.` and check handler names. Generated from the hook points; a test keeps it fresh.
pub fn definitions() -> String {
    let mut s = String::from(
        "-- Generated by `cav schema` from the engine's hook points. Do not edit.\n\
         -- Point luau-lsp at it (\"luau-lsp.types.definitionFiles\") to get completion in pack scripts.\n\n\
         export type CavUnit = {\n\
         \tname: string,\n\tside: string,\n\tmodel: string,\n\tmodel_type: string,\n\tdamage: number,\n\
         \tcolumn: number,\n\tmv: number,\n\tav: number,\n\thard: boolean,\n\tsoft: boolean,\n\tstates: { string },\n}\n\n\
         export type CavWeapon = {\n\tid: string,\n\tname: string,\n\trange: number,\n}\n\n\
         -- What a handler sees. Everything is read-only; the two functions are the only way to act.\n\
         export type CavContext = {\n\
         \t-- the hook point being called, e.g. \"combat_tp\"\n\tpoint: string,\n\
         \t-- the special attribute's rating (or uses) on this model or weapon\n\trating: number,\n\
         \tunit: CavUnit,\n\ttarget: CavUnit?,\n\tweapon: CavWeapon?,\n\tdistance: number?,\n\
         \t-- add a modifier to the roll or value being decided, in the ruleset's convention\n\
         \tadd_modifier: (source: string, value: number) -> (),\n\
         \t-- forbid what is being declared (attack_declare), giving the reason shown to players\n\
         \tforbid: (reason: string) -> (),\n\
         \t-- the value the moment lets you change (attack_targets: the area radius), and its setter\n\
         \tvalue: number?,\n\tset_value: ((value: number) -> ())?,\n}\n\n\
         -- A special attribute's module returns a table of handlers keyed by hook point.\n\
         export type CavHandlers = {\n",
    );
    for p in HOOK_POINTS {
        s.push_str(&format!("\t{}: ((ctx: CavContext) -> ())?,\n", hook_name(*p)));
    }
    s.push_str("}\n");
    s
}

/// Every hook point, in turn order.
pub const HOOK_POINTS: &[HookPoint] = &[
    HookPoint::Build,
    HookPoint::ForceSelection,
    HookPoint::GameSetup,
    HookPoint::DrawDeck,
    HookPoint::Activation,
    HookPoint::SpecialAction,
    HookPoint::Movement,
    HookPoint::Transport,
    HookPoint::TargetLock,
    HookPoint::OpposedRoll,
    HookPoint::AttackDeclare,
    HookPoint::AttackTargets,
    HookPoint::StrikePoint,
    HookPoint::Drift,
    HookPoint::CombatTp,
    HookPoint::CombatDice,
    HookPoint::CritFumble,
    HookPoint::Reaction,
    HookPoint::DamageCalc,
    HookPoint::DamageTable,
    HookPoint::OnHit,
    HookPoint::ModelState,
    HookPoint::PilotCheck,
    HookPoint::Repair,
    HookPoint::AreaEffect,
    HookPoint::EndPhase,
];
