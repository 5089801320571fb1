//! Running a moment: the handlers that run and their order (`HANDLER_ORDER`), each module's instance
//! for the game, and the handlers called in turn with one fresh `ctx`.

use std::cell::RefCell;

use cav_format::HookPoint;
use cav_rules::game::Game;
use cav_rules::hooks::{HookCtx, Queued};
use mlua::{Function, Value};

use super::LuaHost;
use super::ctx::{CtxView, SelfView};
use super::effects::accepts;
use super::handlers::{Handlers, Owner, Role, Run};
use super::shared::Live;
use super::views::LazyView;
use crate::sandbox::instantiate;

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

    /// The handlers that run at this moment, in the documented order, into `runs` (emptied
    /// first): (owner model, role, special attribute, rating) of each.
    pub(super) fn runs(&self, game: &Game, ctx: &HookCtx, runs: &mut Vec<Run>) {
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
        // Rules of the whole game, last, for the moment's model.
        if self.game_mask & bit != 0 {
            for &sa in &self.game_rules {
                // A scenario's rule plays only where the game's scenario names it.
                let r = &game.rules.sas[usize::from(sa)];
                if r.scenario_rule && !game.scenario_rules.contains(&sa) {
                    continue;
                }
                if self.masks[0].get(usize::from(sa)).is_some_and(|m| m & bit != 0) {
                    runs.push((ctx.model, Role::Game, sa, 1));
                }
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
    pub(super) fn run_handlers(
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
            rav: (ctx.target.zip(ctx.weapon))
                .filter(|&(t, w)| {
                    shared.weapon_rav.is_some() && w < game.card(ctx.model).weapons.len() && t < game.models.len()
                })
                .map(|(t, w)| game.rav(ctx.model, w, t)),
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
                    Role::Model | Role::Weapon | Role::Game => SelfView::Model,
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
                    return Ok(Err(explain_frozen(format!("{name} ({point}): {e}"))));
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

/// A write to a read-only table, said with why: the tables `ctx` gives are read-only, and a
/// module's own are frozen once it has loaded (`sandbox::instantiate`).
fn explain_frozen(message: String) -> String {
    const READONLY: &str = "attempt to modify a readonly table";
    match message.find(READONLY) {
        Some(at) => {
            let end = at + READONLY.len();
            format!(
                "{} (a module's tables and globals are frozen once it has loaded, and what `ctx` gives is \
                 read-only: what a script remembers lives in the game, `ctx.set_flag`){}",
                &message[..end],
                &message[end..]
            )
        }
        None => message,
    }
}
