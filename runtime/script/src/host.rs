//! The Lua host: implements the engine's `Hooks` with the scripts the packs name.
//!
//! A special attribute's module returns a table of handlers keyed by hook point
//! (`combat_tp`, `damage_calc`, `attack_declare`, …: the ids of `HookPoint` in the vocabulary).
//! A handler gets a fresh, read-only view of the moment (`ctx`); it acts only through
//! `ctx.add_modifier(source, value)`, `ctx.forbid(reason)` and `ctx.set_value(x)`, and only with
//! the effects its hook point accepts (`HookPoint::accepts`); it returns nothing.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use cav_format::limits::{SCRIPT_LABEL_BYTES, SCRIPT_MODIFIER_VALUE, SCRIPT_MODIFIERS_PER_CALL};
use cav_format::vocab::Status;
use cav_format::{HookEffect, HookPoint, ModelType};
use cav_rules::Rules;
use cav_rules::event::ModApplied;
use cav_rules::game::Game;
use cav_rules::hooks::{HookCtx, Hooks};
use mlua::{Function, Lua, Value};

use crate::sandbox::{Limits, Sandbox, find_module, load_module};

type Adds = Rc<RefCell<Vec<(String, i32)>>>;

pub struct LuaHost {
    pub sandbox: Sandbox,
    /// Handlers per special attribute (index as in `Rules::sas`), by hook point (`HookPoint as
    /// usize`, the index in `HookPoint::ALL`): looked up once at load so a call finds them
    /// without touching Lua.
    handlers: Vec<Option<Vec<Option<Function>>>>,
    /// Hook points some script handles, by `HookPoint as usize`.
    wanted: Vec<bool>,
    /// The effects each hook point accepts, as a bitmask of `effect_bit`, by `HookPoint as usize`.
    masks: Vec<u8>,
    /// The moment being called: the effect functions refuse what it does not accept.
    moment: Rc<Cell<Moment>>,
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
    /// The turn of the last call: a lower one means a new game (per-game budgets restart).
    last_turn: u32,
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
                    let mut by_point = Vec::with_capacity(HookPoint::ALL.len());
                    for &p in HookPoint::ALL {
                        let f: Option<Function> =
                            t.raw_get(p.id()).map_err(|e| format!("{}: handler `{p}`: {e}", sa.name))?;
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
        sandbox.disarm();
        // `HookPoint as usize` indexes the tables below.
        debug_assert!(HookPoint::ALL.iter().enumerate().all(|(i, p)| *p as usize == i));
        let moment = Rc::new(Cell::new(Moment { point: HookPoint::ALL[0], accepts: 0 }));
        let adds: Adds = Rc::new(RefCell::new(Vec::new()));
        let forbid = Rc::new(RefCell::new(None));
        let (a, m) = (adds.clone(), moment.clone());
        let add_fn = sandbox
            .lua
            .create_function(move |lua, (source, value): (mlua::LuaString, f64)| {
                accepted(lua, m.get(), HookEffect::AddModifier)?;
                let source = label(lua, "ctx.add_modifier", "source", &source)?;
                let max = f64::from(SCRIPT_MODIFIER_VALUE);
                if !(value.fract() == 0.0 && value.abs() <= max) {
                    return Err(refused(
                        lua,
                        format!("`ctx.add_modifier` value {value} is not a whole number from -{max} to {max}"),
                    ));
                }
                let mut adds = a.borrow_mut();
                if adds.len() >= SCRIPT_MODIFIERS_PER_CALL {
                    return Err(refused(
                        lua,
                        format!("`ctx.add_modifier`: more than {SCRIPT_MODIFIERS_PER_CALL} modifiers in one call"),
                    ));
                }
                adds.push((source, value as i32));
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let (f, m) = (forbid.clone(), moment.clone());
        let forbid_fn = sandbox
            .lua
            .create_function(move |lua, reason: mlua::LuaString| {
                accepted(lua, m.get(), HookEffect::Forbid)?;
                *f.borrow_mut() = Some(label(lua, "ctx.forbid", "reason", &reason)?);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let value = Rc::new(RefCell::new(None));
        let (v, m) = (value.clone(), moment.clone());
        let set_value_fn = sandbox
            .lua
            .create_function(move |lua, x: f64| {
                accepted(lua, m.get(), HookEffect::SetValue)?;
                if !x.is_finite() {
                    return Err(refused(lua, format!("`ctx.set_value` needs a finite number, not {x}")));
                }
                *v.borrow_mut() = Some(x);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        let wanted = (0..HookPoint::ALL.len()).map(|i| modules.iter().flatten().any(|h| h[i].is_some())).collect();
        let masks = HookPoint::ALL.iter().map(|p| p.accepts().iter().fold(0, |m, e| m | effect_bit(*e))).collect();
        Ok(LuaHost {
            sandbox,
            handlers: modules,
            wanted,
            masks,
            moment,
            adds,
            forbid,
            add_fn,
            forbid_fn,
            value,
            set_value_fn,
            names: RefCell::new(Vec::new()),
            state_ids: Rc::new(rules.states.iter().map(|s| s.id.clone()).collect()),
            sign: rules.sign,
            last_turn: 0,
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
            model_type: card.model_type,
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
            point: ctx.point.id(),
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

/// The hook point being called and the effects it accepts (a mask of `effect_bit`).
#[derive(Clone, Copy)]
struct Moment {
    point: HookPoint,
    accepts: u8,
}

fn effect_bit(e: HookEffect) -> u8 {
    1 << e as u8
}

/// Inside an effect function: go on if the moment accepts `effect`, else refuse with a script
/// error at the caller's file:line. One load and one test on the way that is taken.
#[inline]
fn accepted(lua: &Lua, m: Moment, effect: HookEffect) -> mlua::Result<()> {
    if m.accepts & effect_bit(effect) != 0 { Ok(()) } else { Err(mlua::Error::runtime(refusal(lua, m.point, effect))) }
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

#[derive(Clone)]
struct Names {
    name: Rc<str>,
    side: Rc<str>,
    model: Rc<str>,
}

/// What a script sees of a model. Built per call without touching Lua beyond one userdata.
struct ModelView {
    names: Names,
    model_type: ModelType,
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
        f.add_field_method_get("model_type", |_, v| Ok(v.model_type.id()));
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

/// `ctx`: the moment, read-only, with the three functions that act (each refuses to act where
/// the moment does not accept its effect).
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
        f.add_field_method_get("set_value", |_, v| Ok(v.set_value.clone()));
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
        self.wanted[point as usize]
    }

    fn call(&mut self, game: &Game, ctx: &mut HookCtx) -> Result<(), String> {
        let point = ctx.point.id();
        let card = game.card(ctx.model);
        let weapon_sas = ctx.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        let pi = ctx.point as usize;
        if game.turn < self.last_turn {
            self.sandbox.new_game();
        }
        self.last_turn = game.turn;
        self.moment.set(Moment { point: ctx.point, accepts: self.masks[pi] });
        for &(sa, rating) in card.sas.iter().chain(weapon_sas) {
            let Some(Some(handler)) = self.handlers[sa as usize].as_ref().map(|h| h[pi].clone()) else { continue };
            let name = &game.rules.sas[sa as usize].name;
            let view = self.context(game, ctx, rating).map_err(|e| format!("{name} ({point}): {e}"))?;
            // Whatever a failed call left behind is not this call's.
            self.adds.borrow_mut().clear();
            self.forbid.borrow_mut().take();
            self.value.borrow_mut().take();
            self.sandbox.arm();
            let result = handler.call::<Value>(view);
            self.sandbox.disarm();
            let result = result.map_err(|e| {
                let _ = self.sandbox.lua.gc_collect();
                let file = handler.info().source.unwrap_or_default();
                let e = self.sandbox.locate_memory_error(e, file.strip_prefix('@').unwrap_or(&file));
                format!("{name} ({point}): {e}")
            })?;
            if !result.is_nil() {
                return Err(format!(
                    "{name} ({point}): a handler returns nothing, but it returned a {} (a handler acts through ctx; at `{point}` {})",
                    result.type_name(),
                    accepts(ctx.point)
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
/// `ctx.` and check handler names. Generated from the vocabulary (`cav_format::vocab`): the hook
/// points with their meaning, whether the engine calls them and the effects each accepts, and the
/// model types. A test keeps the committed file fresh.
pub fn definitions() -> String {
    let model_types: Vec<String> = ModelType::ALL.iter().map(|t| format!("\"{t}\"")).collect();
    let effect_doc = |e: HookEffect| {
        let at: Vec<&str> = HookPoint::ALL
            .iter()
            .filter(|p| p.status().implemented() && p.accepts().contains(&e))
            .map(|p| p.id())
            .collect();
        format!("\t-- {} Accepted at: {}.\n", e.doc(), at.join(", "))
    };
    let mut s = String::from(
        "-- Generated by `cav schema` from the engine's vocabulary (runtime/format/src/vocab.rs). Do not edit.\n\
         -- Point luau-lsp at it (\"luau-lsp.types.definitionFiles\") to get completion in pack scripts.\n\
         -- Which hook points the engine calls and what each accepts: docs/vocabulary.md.\n\n",
    );
    s.push_str(&format!("export type CavModelType = {}\n\n", model_types.join(" | ")));
    s.push_str(
        "export type CavModel = {\n\
         \tname: string,\n\tside: string,\n\tmodel: string,\n\tmodel_type: CavModelType,\n\tdamage: number,\n\
         \tcolumn: number,\n\tmv: number,\n\tav: number,\n\thard: boolean,\n\tsoft: boolean,\n\tstates: { string },\n}\n\n\
         export type CavWeapon = {\n\tid: string,\n\tname: string,\n\trange: number,\n}\n\n\
         -- What a handler sees. Everything is read-only; the three functions are the only way to act,\n\
         -- each only at the hook points that accept it (elsewhere calling it is an error).\n\
         export type CavContext = {\n\
         \t-- the hook point being called, e.g. \"combat_tp\"\n\tpoint: string,\n\
         \t-- the special attribute's rating (or uses) on this model or weapon\n\trating: number,\n\
         \tmodel: CavModel,\n\ttarget: CavModel?,\n\tweapon: CavWeapon?,\n\tdistance: number?,\n",
    );
    s.push_str(&effect_doc(HookEffect::AddModifier));
    s.push_str(
        "\t-- The value is in the ruleset's convention.\n\tadd_modifier: (source: string, value: number) -> (),\n",
    );
    s.push_str(&effect_doc(HookEffect::Forbid));
    s.push_str("\t-- The reason is shown to players.\n\tforbid: (reason: string) -> (),\n");
    s.push_str("\t-- The value the moment offers (attack_targets: the area radius), if any.\n\tvalue: number?,\n");
    s.push_str(&effect_doc(HookEffect::SetValue));
    s.push_str("\tset_value: (value: number) -> (),\n}\n\n");
    s.push_str("-- A special attribute's module returns a table of handlers keyed by hook point.\nexport type CavHandlers = {\n");
    for &p in HookPoint::ALL {
        s.push_str(&format!("\t-- {}\n", p.doc()));
        match p.status() {
            Status::Recognised("not called yet") => s.push_str("\t-- Not called yet: this handler never runs.\n"),
            Status::Recognised(why) => s.push_str(&format!("\t-- Not called yet: {why}; this handler never runs.\n")),
            Status::Implemented => {
                let fx: Vec<String> = p.accepts().iter().map(|e| format!("ctx.{e}")).collect();
                let fx = if fx.is_empty() { "none (look only)".to_owned() } else { fx.join(", ") };
                s.push_str(&format!("\t-- Effects: {fx}.\n"));
            }
        }
        s.push_str(&format!("\t{p}: ((ctx: CavContext) -> ())?,\n"));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host indexes its tables by `HookPoint as usize` and its masks by `HookEffect as u8`.
    #[test]
    fn vocabulary_order_is_the_enum_order() {
        assert!(HookPoint::ALL.iter().enumerate().all(|(i, p)| *p as usize == i));
        assert!(HookEffect::ALL.len() <= 8);
        assert_eq!(accepts(HookPoint::Activation), "it accepts nothing: look only");
        assert_eq!(accepts(HookPoint::AttackTargets), "it accepts `ctx.add_modifier`, `ctx.set_value`");
    }
}
