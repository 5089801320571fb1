//! `ctx`, what a handler is given: the moment, read-only, with its board and effect functions.

use std::cell::RefCell;
use std::rc::Rc;

use cav_format::{HookEffect, HookPoint};
use cav_rules::compile::StateIx;
use cav_rules::event::Roll;
use mlua::{Function, Table};

use super::board::Board;
use super::handlers::Role;
use super::shared::Shared;
use super::views::{LazyView, WeaponNames, read_only, weapon_table};

/// What every `ctx` holds that does not change between moments: made once.
pub(super) struct CtxFns {
    /// `ctx.models`, `ctx.range`, `ctx.roll_dice`, `ctx.opposed_roll`, `ctx.flag`, in `Board::ALL` order.
    pub(super) board: Vec<Function>,
    /// The effect functions, in `HookEffect::ALL` order.
    pub(super) effects: Vec<Function>,
    /// `ctx.options`: the ruleset's options and the readings chosen (read-only).
    pub(super) options: Table,
}

/// `ctx`: the moment, read-only, with the effect functions (each refuses to act where the moment
/// does not accept its effect).
pub(super) struct CtxView {
    pub(super) point: HookPoint,
    pub(super) role: Role,
    pub(super) rating: i32,
    pub(super) turn: u32,
    /// Whose view `ctx.self` is: the moment's model, its target, or `aura`'s.
    pub(super) owner: SelfView,
    /// The views of the moment, held by the `ctx` itself (no allocation of their own).
    pub(super) model: LazyView,
    pub(super) target: Option<LazyView>,
    /// The view of the model whose `aura` handler runs (`SelfView::Aura`), fresh for each.
    pub(super) aura: Option<LazyView>,
    pub(super) distance: Option<f64>,
    /// The model's weapons (`Names::weapons`) and the mount: made a table only when a script
    /// reads `ctx.weapon`.
    pub(super) weapon: Option<(Rc<[WeaponNames]>, usize)>,
    /// The weapon's RAV against the target (`Game::rav`), where the ruleset has one.
    pub(super) rav: Option<i32>,
    /// The range band (index in `Rules::bands`).
    pub(super) band: Option<usize>,
    /// The roll in progress, made a table when a script first reads `ctx.roll`.
    pub(super) roll: Option<(Roll, RefCell<Option<Table>>)>,
    pub(super) state: Option<(StateIx, bool)>,
    pub(super) value: Option<f64>,
    pub(super) defensive: bool,
    pub(super) at: Option<(f64, f64)>,
    pub(super) option: Option<String>,
    pub(super) fns: Rc<CtxFns>,
    pub(super) shared: Rc<Shared>,
}

/// Whose view `ctx.self` is (`CtxView::owner`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum SelfView {
    Model,
    Target,
    Aura,
}

impl CtxView {
    /// A `ctx` at `point` showing `model` as the moment's model, and nothing else yet.
    pub(super) fn new(point: HookPoint, model: LazyView, fns: &Rc<CtxFns>, shared: &Rc<Shared>) -> CtxView {
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
            rav: None,
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
            v.weapon.as_ref().map(|(w, mount)| weapon_table(lua, &v.shared, &w[*mount], *mount, v.rav)).transpose()
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
