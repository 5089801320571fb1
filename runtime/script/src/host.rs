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
use mlua::{Function, Value};

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
    /// Names per model, shared by its views (model index → card, side, names).
    names: RefCell<Vec<Option<(usize, usize, Names)>>>,
    /// State ids, by state index.
    state_ids: Rc<Vec<String>>,
    sign: i32,
}

/// Model types as scripts see them (the schema's names), by `ModelType as usize`.
const MODEL_TYPE_NAMES: [&str; 7] =
    ["cav", "quad_cav", "vehicle", "aircraft", "infantry", "powered_infantry", "structure"];

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
            names: RefCell::new(Vec::new()),
            state_ids: Rc::new(rules.states.iter().map(|s| s.id.clone()).collect()),
            sign: rules.sign,
        })
    }

    /// The names a model's view shows, shared with every view of it.
    fn names(&self, game: &Game, model: usize) -> Names {
        let me = &game.models[model];
        let mut cache = self.names.borrow_mut();
        if cache.len() <= model {
            cache.resize(model + 1, None);
        }
        match &cache[model] {
            Some((card, side, n)) if *card == me.card && *side == me.side => n.clone(),
            _ => {
                let n = Names {
                    name: Rc::from(me.name.as_str()),
                    side: Rc::from(game.sides[me.side].as_str()),
                    model: Rc::from(game.card(model).id.as_str()),
                };
                cache[model] = Some((me.card, me.side, n.clone()));
                n
            }
        }
    }

    /// A read-only view of model `u`: a userdata whose fields are read only when a script asks.
    fn model_view(&self, game: &Game, model: usize) -> mlua::Result<mlua::AnyUserData> {
        let me = &game.models[model];
        let card = game.card(model);
        let column = game.column(model);
        self.sandbox.lua.create_userdata(ModelView {
            names: self.names(game, model),
            model_type: card.model_type as usize,
            damage: me.damage,
            column,
            mv: game.move_value(model),
            av: card.av[column],
            hard: card.hard,
            soft: card.soft,
            states: me.states.iter().map(|(s, _)| *s).collect(),
            state_ids: self.state_ids.clone(),
        })
    }

    /// The view a handler gets (`ctx`): a read-only userdata.
    fn context(&self, game: &Game, ctx: &HookCtx, rating: i32) -> mlua::Result<mlua::AnyUserData> {
        let weapon = ctx.weapon.map(|w| {
            let m = &game.card(ctx.model).weapons[w];
            (Rc::<str>::from(m.weapon.as_str()), Rc::<str>::from(m.name.as_str()), m.range)
        });
        self.sandbox.lua.create_userdata(CtxView {
            point: hook_name(ctx.point),
            rating,
            model: self.model_view(game, ctx.model)?,
            target: ctx.target.map(|d| self.model_view(game, d)).transpose()?,
            distance: ctx.target.map(|d| game.distance(ctx.model, d)),
            weapon,
            value: ctx.value,
            add_modifier: self.add_fn.clone(),
            forbid: self.forbid_fn.clone(),
            set_value: self.set_value_fn.clone(),
        })
    }
}

#[derive(Clone)]
struct Names {
    name: Rc<str>,
    side: Rc<str>,
    model: Rc<str>,
}

/// What a script sees of a model. Built per call without touching Lua beyond one userdata.
struct ModelView {
    names: Names,
    model_type: usize,
    damage: u32,
    column: usize,
    mv: u32,
    av: u32,
    hard: bool,
    soft: bool,
    states: Vec<u16>,
    state_ids: Rc<Vec<String>>,
}

fn read_only<T>(methods: &mut impl mlua::UserDataMethods<T>, what: &'static str) {
    methods.add_meta_method("__newindex", move |_, _, (_k, _v): (Value, Value)| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!("{what} is read-only")))
    });
}

impl mlua::UserData for ModelView {
    fn add_fields<F: mlua::UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("name", |lua, v| lua.create_string(&*v.names.name));
        f.add_field_method_get("side", |lua, v| lua.create_string(&*v.names.side));
        f.add_field_method_get("model", |lua, v| lua.create_string(&*v.names.model));
        f.add_field_method_get("model_type", |_, v| Ok(MODEL_TYPE_NAMES[v.model_type]));
        f.add_field_method_get("damage", |_, v| Ok(v.damage));
        f.add_field_method_get("column", |_, v| Ok(v.column));
        f.add_field_method_get("mv", |_, v| Ok(v.mv));
        f.add_field_method_get("av", |_, v| Ok(v.av));
        f.add_field_method_get("hard", |_, v| Ok(v.hard));
        f.add_field_method_get("soft", |_, v| Ok(v.soft));
        f.add_field_method_get("states", |lua, v| {
            let t = lua.create_sequence_from(v.states.iter().map(|s| v.state_ids[*s as usize].as_str()))?;
            t.set_readonly(true);
            Ok(t)
        });
    }
    fn add_methods<M: mlua::UserDataMethods<Self>>(m: &mut M) {
        read_only(m, "the model view");
    }
}

/// `ctx`: the moment, read-only, with the three functions that act.
struct CtxView {
    point: &'static str,
    rating: i32,
    model: mlua::AnyUserData,
    target: Option<mlua::AnyUserData>,
    distance: Option<f64>,
    weapon: Option<(Rc<str>, Rc<str>, f64)>,
    value: Option<f64>,
    add_modifier: Function,
    forbid: Function,
    set_value: Function,
}

impl mlua::UserData for CtxView {
    fn add_fields<F: mlua::UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("point", |_, v| Ok(v.point));
        f.add_field_method_get("rating", |_, v| Ok(v.rating));
        f.add_field_method_get("model", |_, v| Ok(v.model.clone()));
        f.add_field_method_get("target", |_, v| Ok(v.target.clone()));
        f.add_field_method_get("distance", |_, v| Ok(v.distance));
        f.add_field_method_get("weapon", |lua, v| match &v.weapon {
            None => Ok(Value::Nil),
            Some((id, name, range)) => {
                let t = lua.create_table_from([
                    ("id", Value::String(lua.create_string(&**id)?)),
                    ("name", Value::String(lua.create_string(&**name)?)),
                    ("range", Value::Number(*range)),
                ])?;
                t.set_readonly(true);
                Ok(Value::Table(t))
            }
        });
        f.add_field_method_get("value", |_, v| Ok(v.value));
        f.add_field_method_get("set_value", |_, v| Ok(v.value.map(|_| v.set_value.clone())));
        f.add_field_method_get("add_modifier", |_, v| Ok(v.add_modifier.clone()));
        f.add_field_method_get("forbid", |_, v| Ok(v.forbid.clone()));
    }
    fn add_methods<M: mlua::UserDataMethods<Self>>(m: &mut M) {
        read_only(m, "ctx");
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
        let card = game.card(ctx.model);
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
         export type CavModel = {\n\
         \tname: string,\n\tside: string,\n\tmodel: string,\n\tmodel_type: string,\n\tdamage: number,\n\
         \tcolumn: number,\n\tmv: number,\n\tav: number,\n\thard: boolean,\n\tsoft: boolean,\n\tstates: { string },\n}\n\n\
         export type CavWeapon = {\n\tid: string,\n\tname: string,\n\trange: number,\n}\n\n\
         -- What a handler sees. Everything is read-only; the two functions are the only way to act.\n\
         export type CavContext = {\n\
         \t-- the hook point being called, e.g. \"combat_tp\"\n\tpoint: string,\n\
         \t-- the special attribute's rating (or uses) on this model or weapon\n\trating: number,\n\
         \tmodel: CavModel,\n\ttarget: CavModel?,\n\tweapon: CavWeapon?,\n\tdistance: number?,\n\
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
