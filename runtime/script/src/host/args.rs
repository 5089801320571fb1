//! The arguments scripts pass to `ctx`'s functions, checked (labels, whole numbers, models, states),
//! and the script errors that refuse them, at the caller's file:line.

use cav_format::HookEffect;
use cav_format::limits::{SCRIPT_LABEL_BYTES, SCRIPT_MODIFIER_VALUE};
use cav_rules::compile::StateIx;
use cav_rules::game::FlagScope;
use mlua::{Lua, Value};

use super::shared::Shared;
use super::views::ModelView;

/// A script error at the caller's file:line.
#[cold]
pub(super) fn refused(lua: &Lua, msg: String) -> mlua::Error {
    let at = caller(lua).map(|(file, line)| format!("{file}:{line}: ")).unwrap_or_default();
    mlua::Error::runtime(format!("{at}{msg}"))
}

/// A modifier source or forbid reason: UTF-8 text of at most `SCRIPT_LABEL_BYTES`, refused
/// (never truncated) otherwise, checked before it is copied out of Lua.
pub(super) fn label(lua: &Lua, effect: &str, what: &str, s: &mlua::LuaString) -> mlua::Result<String> {
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
pub(super) fn whole(lua: &Lua, effect: &str, x: f64, negative: bool) -> mlua::Result<i32> {
    let max = f64::from(SCRIPT_MODIFIER_VALUE);
    let min = if negative { -max } else { 0.0 };
    if x.fract() == 0.0 && (min..=max).contains(&x) {
        Ok(x as i32)
    } else {
        Err(refused(lua, format!("`ctx.{effect}` value {x} is not a whole number from {min} to {max}")))
    }
}

/// The model a `ctx.model`/`ctx.target`/`ctx.self` view stands for.
pub(super) fn model_arg(lua: &Lua, effect: HookEffect, v: &Value) -> mlua::Result<usize> {
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
pub(super) fn state_arg(lua: &Lua, shared: &Shared, effect: HookEffect, s: &mlua::LuaString) -> mlua::Result<StateIx> {
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

/// The file and line of the innermost Lua function on the stack (the script that called an
/// effect function), as Luau's own errors show it.
pub(super) fn caller(lua: &Lua) -> Option<(String, usize)> {
    (0..8).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let source = d.source().source?.into_owned();
            let file = source.strip_prefix('@')?.to_owned();
            Some((file, d.current_line()?))
        })
        .flatten()
    })
}

/// The scope of a flag (`ctx.flag`, `ctx.set_flag`): `"game"`, `"turn"`, `"activation"`, `"unit"`
/// (the unit of the model whose handler runs, `self_unit`), or a model.
pub(super) fn flag_scope(lua: &Lua, function: &str, v: &Value, self_unit: FlagScope) -> mlua::Result<FlagScope> {
    match v {
        Value::String(s) => match &s.as_bytes()[..] {
            b"game" => Ok(FlagScope::Game),
            b"turn" => Ok(FlagScope::Turn),
            b"activation" => Ok(FlagScope::Activation),
            b"unit" => Ok(self_unit),
            other => {
                let shown = String::from_utf8_lossy(&other[..other.len().min(SCRIPT_LABEL_BYTES)]).into_owned();
                Err(refused(
                    lua,
                    format!("`{function}`: no scope `{shown}` (game, turn, activation, unit, or a model)"),
                ))
            }
        },
        Value::UserData(u) => match u.borrow::<ModelView>() {
            Ok(view) => Ok(FlagScope::Model(view.index)),
            Err(_) => Err(refused(lua, format!("`{function}`: the scope is game, turn, activation, unit or a model"))),
        },
        other => Err(refused(
            lua,
            format!("`{function}`: the scope is game, turn, activation, unit or a model, not a {}", other.type_name()),
        )),
    }
}

/// The unit of the model whose handler runs in `live`: its squad, or the model itself where it
/// activates alone (a model that serves in no squad is a unit of one).
pub(super) fn self_unit(live: Option<&super::shared::Live>) -> FlagScope {
    let Some(live) = live else { return FlagScope::Game };
    let me = live.roller.get();
    match live.game.models.get(me).and_then(|m| m.squad) {
        Some(q) => FlagScope::Unit(q),
        None => FlagScope::Model(me),
    }
}
