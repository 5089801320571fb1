//! The effect functions of `ctx` (`ctx.add_modifier`, `ctx.forbid`, …): each checks that the moment
//! accepts it and its arguments, then queues the effect for the engine.

use std::rc::Rc;

use cav_format::limits::{MAX_BOARD_INCHES, MAX_DICE, MAX_TURNS, SCRIPT_EFFECTS_PER_CALL, SCRIPT_LABEL_BYTES};
use cav_format::{HookEffect, HookPoint, Quantity};
use cav_rules::hooks::Effect;
use mlua::{Function, Lua, Value};

use super::args::{caller, flag_scope, label, model_arg, refused, state_arg, whole};
use super::shared::Shared;
use cav_rules::game::FlagValue;

/// The hook point being called, the effects it accepts (a mask of `effect_bit`) and the
/// quantities it accepts (a mask of `quantity_bit`).
#[derive(Clone, Copy)]
pub(super) struct Moment {
    point: HookPoint,
    accepts: u32,
    quantities: u16,
}

impl Moment {
    pub(super) fn of(point: HookPoint) -> Moment {
        Moment {
            point,
            accepts: point.accepts().iter().fold(0, |m, e| m | 1 << *e as u32),
            quantities: point.quantities().iter().fold(0, |m, q| m | 1 << *q as u16),
        }
    }
}

/// Inside an effect function: go on if the moment accepts `effect`, else refuse with a script
/// error at the caller's file:line. One load and one test on the way that is taken.
#[inline]
fn accepted(lua: &Lua, m: Moment, effect: HookEffect) -> mlua::Result<()> {
    if m.accepts & (1 << effect as u32) != 0 {
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

/// One of `ctx`'s effect functions: checks the moment accepts it and its arguments, then queues
/// the effect.
pub(super) fn effect_fn(lua: &Lua, shared: &Rc<Shared>, effect: HookEffect) -> mlua::Result<Function> {
    let sh = shared.clone();
    lua.create_function(move |lua, args: mlua::MultiValue| {
        let m = sh.moment.get();
        accepted(lua, m, effect)?;
        let e = read_effect(&EffectArgs { lua, sh: &sh, effect, args: &args }, m)?;
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

/// The arguments of one call of an effect function, read as its effect needs them.
struct EffectArgs<'a> {
    lua: &'a Lua,
    sh: &'a Shared,
    effect: HookEffect,
    args: &'a mlua::MultiValue,
}

impl EffectArgs<'_> {
    /// Arguments 1 and 2 as a point (x, y) in inches, refused where it is nowhere near a table
    /// (off any board by more than a board's size: no forced move, placement or marker goes
    /// there).
    fn near_a_table(&self, what: &str) -> mlua::Result<(f64, f64)> {
        let (x, y) = (self.number(1, "x")?, self.number(2, "y")?);
        let board = -MAX_BOARD_INCHES..=2.0 * MAX_BOARD_INCHES;
        if !board.contains(&x) || !board.contains(&y) {
            return Err(refused(self.lua, format!("`{what}`: ({x}, {y}) is nowhere near a table")));
        }
        Ok((x, y))
    }

    fn arg(&self, i: usize) -> Value {
        self.args.get(i).cloned().unwrap_or(Value::Nil)
    }

    fn string(&self, i: usize, what: &str) -> mlua::Result<mlua::LuaString> {
        let (lua, effect) = (self.lua, self.effect);
        match self.arg(i) {
            Value::String(s) => Ok(s),
            other => {
                Err(refused(lua, format!("`ctx.{effect}`: the {what} must be a string, not a {}", other.type_name())))
            }
        }
    }

    fn number(&self, i: usize, what: &str) -> mlua::Result<f64> {
        let (lua, effect) = (self.lua, self.effect);
        match self.arg(i) {
            Value::Integer(n) => Ok(n as f64),
            Value::Number(x) => Ok(x),
            other => {
                Err(refused(lua, format!("`ctx.{effect}`: the {what} must be a number, not a {}", other.type_name())))
            }
        }
    }

    fn mount(&self, model: usize, i: usize) -> mlua::Result<usize> {
        let (lua, effect, sh) = (self.lua, self.effect, self.sh);
        let n = self.number(i, "mount")?;
        // The mounts of the model's card in the game being called (none between calls).
        let mounts = sh.live(|live| {
            live.and_then(|l| l.game.models.get(model).map(|m| l.game.rules.cards[m.card].weapons.len())).unwrap_or(0)
        });
        if n.fract() == 0.0 && n >= 0.0 && n < mounts as f64 {
            Ok(n as usize)
        } else {
            Err(refused(
                lua,
                format!("`ctx.{effect}`: the model has no weapon mount {n} (mounts 0 to {})", mounts as i64 - 1),
            ))
        }
    }
}

/// The effect a call of an effect function asks for, its arguments checked against the moment `m`.
fn read_effect(a: &EffectArgs, m: Moment) -> mlua::Result<Effect> {
    let (lua, sh, effect) = (a.lua, a.sh, a.effect);
    let e = match effect {
        HookEffect::AddModifier => {
            let q = a.string(0, "quantity")?;
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
            let source = label(lua, "ctx.add_modifier", "source", &a.string(1, "source")?)?;
            let value = whole(lua, "add_modifier", a.number(2, "value")?, true)?;
            Effect::Modifier { quantity, label: source, value }
        }
        HookEffect::Forbid => Effect::Forbid { reason: label(lua, "ctx.forbid", "reason", &a.string(0, "reason")?)? },
        HookEffect::SetValue => {
            let x = a.number(0, "value")?;
            if !x.is_finite() {
                return Err(refused(lua, format!("`ctx.set_value` needs a finite number, not {x}")));
            }
            Effect::SetValue(x)
        }
        HookEffect::DealDamage => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            Effect::Damage { model, points: whole(lua, "deal_damage", a.number(1, "points")?, false)? as u32 }
        }
        HookEffect::ApplyState | HookEffect::ClearState => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let state = state_arg(lua, sh, effect, &a.string(1, "state")?)?;
            if effect == HookEffect::ApplyState {
                Effect::ApplyState { model, state }
            } else {
                Effect::ClearState { model, state }
            }
        }
        HookEffect::MoveModel => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let (x, y) = a.near_a_table("ctx.move_model")?;
            Effect::MoveModel { model, x, y }
        }
        HookEffect::TurnModel => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let facing = a.number(1, "facing")?;
            if !facing.is_finite() {
                return Err(refused(lua, "`ctx.turn_model`: a facing is a finite number of degrees".into()));
            }
            Effect::TurnModel { model, facing: facing.rem_euclid(360.0) }
        }
        HookEffect::SetDice => {
            let text = label(lua, "ctx.set_dice", "dice", &a.string(0, "dice")?)?;
            match cav_rules::DiceExpr::parse(&text) {
                Ok(d) => Effect::SetDice(d),
                Err(e) => return Err(refused(lua, format!("`ctx.set_dice`: {e}"))),
            }
        }
        HookEffect::Reroll => {
            let n = a.number(0, "die")?;
            if n.fract() != 0.0 || !(1.0..=f64::from(MAX_DICE)).contains(&n) {
                return Err(refused(lua, format!("`ctx.reroll`: no die {n} (the dice are numbered from 1)")));
            }
            Effect::Reroll { die: n as usize - 1 }
        }
        HookEffect::PlaceMarker | HookEffect::RemoveMarker => {
            let what = if effect == HookEffect::PlaceMarker { "ctx.place_marker" } else { "ctx.remove_marker" };
            let id = label(lua, what, "id", &a.string(0, "id")?)?;
            let sa = sh.live(|live| live.map(|l| l.current_sa.get())).unwrap_or_default();
            if effect == HookEffect::RemoveMarker {
                Effect::RemoveMarker { sa, id }
            } else {
                let (x, y) = a.near_a_table("ctx.place_marker")?;
                Effect::PlaceMarker { sa, id, x, y }
            }
        }
        HookEffect::PlaceModel => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let (x, y) = a.near_a_table("ctx.place_model")?;
            Effect::PlaceModel { model, x, y }
        }
        HookEffect::RemoveModel => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let how = a.string(1, "how")?;
            let destroyed = match how.as_bytes().as_ref() {
                b"destroyed" => true,
                b"left_board" => false,
                _ => return Err(refused(lua, "`ctx.remove_model`: `how` is \"destroyed\" or \"left_board\"".into())),
            };
            Effect::RemoveModel { model, destroyed }
        }
        HookEffect::TableRow => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let id = a.string(1, "table")?;
            let Some(table) = sh.table_ids.iter().position(|t| t.as_bytes() == &id.as_bytes()[..]) else {
                let shown =
                    String::from_utf8_lossy(&id.as_bytes()[..id.as_bytes().len().min(SCRIPT_LABEL_BYTES)]).into_owned();
                return Err(refused(
                    lua,
                    format!(
                        "`ctx.table_row`: no table `{shown}` among those the rules roll on (they are: {})",
                        if sh.table_ids.is_empty() { "none".to_owned() } else { sh.table_ids.join(", ") }
                    ),
                ));
            };
            let key = a.number(2, "key")?;
            if key.fract() != 0.0 || !(-1000.0..=1000.0).contains(&key) {
                return Err(refused(
                    lua,
                    format!("`ctx.table_row`: a key is a whole number from -1000 to 1000, not {key}"),
                ));
            }
            Effect::TableRow { model, table, key: key as i32 }
        }
        HookEffect::PlaceTerrain => {
            let id = a.string(0, "terrain")?;
            let Some(terrain) = sh.terrain_ids.iter().position(|t| t.as_bytes() == &id.as_bytes()[..]) else {
                let shown =
                    String::from_utf8_lossy(&id.as_bytes()[..id.as_bytes().len().min(SCRIPT_LABEL_BYTES)]).into_owned();
                return Err(refused(
                    lua,
                    format!(
                        "`ctx.place_terrain`: no terrain `{shown}` in this ruleset (its terrain: {})",
                        sh.terrain_ids.join(", ")
                    ),
                ));
            };
            let (x, y) = (a.number(1, "x")?, a.number(2, "y")?);
            let radius = a.number(3, "radius")?;
            let activations = a.number(4, "activations")?;
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
        HookEffect::SetFlag => {
            let own = sh.live(super::args::self_unit);
            let scope = flag_scope(lua, "ctx.set_flag", &a.arg(0), own)?;
            let key = label(lua, "ctx.set_flag", "key", &a.string(1, "key")?)?;
            let value = match a.arg(2) {
                Value::Nil => None,
                Value::Boolean(b) => Some(FlagValue::Bool(b)),
                Value::Integer(n) => Some(FlagValue::Number(n as f64)),
                Value::Number(x) if x.is_finite() => Some(FlagValue::Number(x)),
                Value::String(t) => Some(FlagValue::Text(label(lua, "ctx.set_flag", "value", &t)?)),
                other => {
                    return Err(refused(
                        lua,
                        format!(
                            "`ctx.set_flag`: a flag holds a boolean, a finite number or a string (nil forgets it), not {}",
                            if other.is_number() {
                                "an infinite or NaN number".to_owned()
                            } else {
                                format!("a {}", other.type_name())
                            }
                        ),
                    ));
                }
            };
            let sa = sh.live(|live| live.map(|l| l.current_sa.get())).unwrap_or_default();
            Effect::SetFlag(Box::new(cav_rules::hooks::FlagSet { sa, scope, key, value }))
        }
        HookEffect::RefillAmmoBins => Effect::RefillAmmoBins { model: model_arg(lua, effect, &a.arg(0))? },
        HookEffect::SpendAmmo | HookEffect::RestoreAmmo => {
            let model = model_arg(lua, effect, &a.arg(0))?;
            let mount = a.mount(model, 1)?;
            if effect == HookEffect::SpendAmmo {
                Effect::SpendAmmo { model, mount }
            } else {
                Effect::RestoreAmmo { model, mount }
            }
        }
    };
    Ok(e)
}

/// What a hook point accepts, in words: `it accepts `ctx.forbid`` or `it accepts nothing: look only`.
pub(super) fn accepts(point: HookPoint) -> String {
    match point.accepts() {
        [] => "it accepts nothing: look only".into(),
        fx => {
            let fx: Vec<String> = fx.iter().map(|e| format!("`ctx.{e}`")).collect();
            format!("it accepts {}", fx.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The host indexes its tables by `HookPoint as usize` and its masks (`u32`) by `HookEffect`.
    #[test]
    fn vocabulary_order_is_the_enum_order() {
        assert!(HookPoint::ALL.iter().enumerate().all(|(i, p)| *p as usize == i));
        assert!(HookEffect::ALL.len() <= 32);
        assert_eq!(accepts(HookPoint::Build), "it accepts `ctx.forbid`");
        assert_eq!(accepts(HookPoint::AttackTargets), "it accepts `ctx.add_modifier`, `ctx.set_value`");
    }
}
