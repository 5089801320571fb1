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
use mlua::{Function, Lua, Table, Value};

use crate::sandbox::{Limits, Sandbox, find_module, load_module};

type Adds = Rc<RefCell<Vec<(String, i32)>>>;

pub struct LuaHost {
    pub sandbox: Sandbox,
    /// Module table per special attribute (index as in `Rules::sas`).
    modules: Vec<Option<Table>>,
    adds: Adds,
    forbid: Rc<RefCell<Option<String>>>,
    add_fn: Function,
    forbid_fn: Function,
    sign: i32,
}

/// The snake_case name of a hook point, as scripts write it.
pub fn hook_name(p: HookPoint) -> String {
    match serde_json::to_value(p) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{p:?}"),
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
                Value::Table(t) => modules.push(Some(t)),
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
        Ok(LuaHost { sandbox, modules, adds, forbid, add_fn, forbid_fn, sign: rules.sign })
    }

    fn unit_table(lua: &Lua, game: &Game, u: usize) -> mlua::Result<Table> {
        let unit = &game.units[u];
        let card = game.card(u);
        let col = game.column(u);
        let t = lua.create_table()?;
        t.raw_set("name", unit.name.as_str())?;
        t.raw_set("side", game.sides[unit.side].as_str())?;
        t.raw_set("model", card.id.as_str())?;
        let model_type =
            serde_json::to_value(card.model_type).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        t.raw_set("model_type", model_type)?;
        t.raw_set("damage", unit.damage)?;
        t.raw_set("column", col)?;
        t.raw_set("mv", game.move_value(u))?;
        t.raw_set("av", card.av[col])?;
        t.raw_set("hard", card.hard)?;
        t.raw_set("soft", card.soft)?;
        let states = lua.create_table()?;
        for (i, (s, _)) in unit.states.iter().enumerate() {
            states.raw_set(i + 1, game.rules.states[*s as usize].id.as_str())?;
        }
        states.set_readonly(true);
        t.raw_set("states", states)?;
        t.set_readonly(true);
        Ok(t)
    }

    fn context(&self, game: &Game, ctx: &HookCtx, point: &str, rating: i32) -> mlua::Result<Table> {
        let lua = &self.sandbox.lua;
        let t = lua.create_table()?;
        t.raw_set("point", point)?;
        t.raw_set("rating", rating)?;
        t.raw_set("unit", Self::unit_table(lua, game, ctx.unit)?)?;
        if let Some(d) = ctx.target {
            t.raw_set("target", Self::unit_table(lua, game, d)?)?;
            t.raw_set("distance", game.distance(ctx.unit, d))?;
        }
        if let Some(w) = ctx.weapon {
            let m = &game.card(ctx.unit).weapons[w];
            let wt = lua.create_table()?;
            wt.raw_set("id", m.weapon.as_str())?;
            wt.raw_set("name", m.name.as_str())?;
            wt.raw_set("range", m.range)?;
            wt.set_readonly(true);
            t.raw_set("weapon", wt)?;
        }
        t.raw_set("add_modifier", self.add_fn.clone())?;
        t.raw_set("forbid", self.forbid_fn.clone())?;
        t.set_readonly(true);
        Ok(t)
    }
}

impl Hooks for LuaHost {
    fn active(&self) -> bool {
        self.modules.iter().any(Option::is_some)
    }

    fn call(&mut self, game: &Game, ctx: &mut HookCtx) -> Result<(), String> {
        let point = hook_name(ctx.point);
        let card = game.card(ctx.unit);
        let weapon_sas = ctx.weapon.map(|w| card.weapons[w].sas.as_slice()).unwrap_or(&[]);
        for &(sa, rating) in card.sas.iter().chain(weapon_sas) {
            let Some(module) = &self.modules[sa as usize] else { continue };
            let name = &game.rules.sas[sa as usize].name;
            let handler: Option<Function> =
                module.raw_get(point.as_str()).map_err(|e| format!("{name} ({point}): {e}"))?;
            let Some(handler) = handler else { continue };
            let view = self.context(game, ctx, &point, rating).map_err(|e| format!("{name} ({point}): {e}"))?;
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
         \tforbid: (reason: string) -> (),\n}\n\n\
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
