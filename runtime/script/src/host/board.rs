//! The calls of `ctx` that reach the board (the game and its dice) while a handler runs:
//! `ctx.models`, `ctx.range`, `ctx.roll_dice`, `ctx.opposed_roll`, `ctx.make_roll`, `ctx.contest`,
//! `ctx.flag`, and what the board holds: `ctx.terrain`, `ctx.ground`, `ctx.sight`, `ctx.within`.

use cav_format::{OpposedAgainst, OpposedTies};
use std::rc::Rc;

use cav_format::limits::SCRIPT_EFFECTS_PER_CALL;
use cav_format::{HookEffect, ModifierTarget};
use cav_rules::event::{ModApplied, Roll};
use mlua::{AnyUserData, Function, Lua, Value};

use super::args::{label, refused, state_arg, whole};
use super::shared::{Live, Shared};
use super::views::{ModelView, frozen, model_view};

/// The functions of `ctx` that reach the board (the game and its dice), valid only while a
/// handler runs.
#[derive(Clone, Copy)]
pub(super) enum Board {
    Models,
    Range,
    RollDice,
    OpposedRoll,
    MakeRoll,
    Contest,
    Flag,
    Terrain,
    Ground,
    Sight,
    Within,
    Markers,
}

impl Board {
    pub(super) const ALL: [Board; 12] = [
        Board::Models,
        Board::Range,
        Board::RollDice,
        Board::OpposedRoll,
        Board::MakeRoll,
        Board::Contest,
        Board::Flag,
        Board::Terrain,
        Board::Ground,
        Board::Sight,
        Board::Within,
        Board::Markers,
    ];

    pub(super) fn id(self) -> &'static str {
        match self {
            Board::Models => "models",
            Board::Range => "range",
            Board::RollDice => "roll_dice",
            Board::OpposedRoll => "opposed_roll",
            Board::MakeRoll => "make_roll",
            Board::Contest => "contest",
            Board::Flag => "flag",
            Board::Terrain => "terrain",
            Board::Ground => "ground",
            Board::Sight => "sight",
            Board::Within => "within",
            Board::Markers => "markers",
        }
    }
}

/// One of `ctx`'s board functions (`Board`), made once: it reaches the moment lent while a
/// handler runs (`Shared::live`) and refuses between calls.
pub(super) fn board_fn(lua: &Lua, shared: &Rc<Shared>, b: Board) -> mlua::Result<Function> {
    let sh = shared.clone();
    lua.create_function(move |lua, args: mlua::MultiValue| -> mlua::Result<Value> {
        sh.live(|live| {
            let Some(live) = live else {
                return Err(refused(lua, format!("`ctx.{}` reaches the board only while a handler runs", b.id())));
            };
            board_call(lua, &sh, live, b, args)
        })
    })
}

/// A call of a board function while `live`'s handlers run.
fn board_call(lua: &Lua, sh: &Rc<Shared>, live: &Live, b: Board, args: mlua::MultiValue) -> mlua::Result<Value> {
    match b {
        Board::Models => models(lua, sh, live, args),
        Board::Range => range(lua, live, args),
        Board::RollDice => roll_dice(lua, sh, live, args),
        Board::OpposedRoll => opposed_roll(lua, sh, live, args),
        Board::MakeRoll => roll_kind(lua, sh, live, args),
        Board::Contest => contest(lua, sh, live, args),
        Board::Flag => flag(lua, live, args),
        Board::Terrain => terrain(lua, live, args),
        Board::Ground => ground(lua, live, args),
        Board::Sight => sight(lua, live, args),
        Board::Within => within(lua, sh, live, args),
        Board::Markers => markers(lua, live),
    }
}

/// Where a board query looks: a model's place (`ctx.terrain(model)`) or a point
/// (`ctx.terrain(x, y)`, inches).
fn place_arg(lua: &Lua, live: &Live, what: &str, args: mlua::MultiValue) -> mlua::Result<cav_rules::geom::P> {
    let args: Vec<Value> = args.into_iter().collect();
    match args.as_slice() {
        [Value::UserData(u), ..] => {
            let ix = u.borrow::<ModelView>()?.index;
            Ok(live.game.models[ix].pos)
        }
        [x, y, ..] => {
            let num = |v: &Value| match v {
                Value::Integer(i) => Some(*i as f64),
                Value::Number(n) => Some(*n),
                _ => None,
            };
            let (x, y) = (num(x), num(y));
            match (x, y) {
                (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Ok(cav_rules::geom::P::new(x, y)),
                _ => Err(refused(lua, format!("`ctx.{what}` takes a model or two finite numbers (x, y in inches)"))),
            }
        }
        _ => Err(refused(lua, format!("`ctx.{what}` takes a model or two numbers (x, y in inches)"))),
    }
}

/// `ctx.terrain(model)` or `ctx.terrain(x, y)`: the terrain pieces there, each `{id, name,
/// cover, elevation, layer, values}` (`values`: the ruleset's terrain values it carries, by
/// id); on a hex board, those of the hex.
fn terrain(lua: &Lua, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let mut p = place_arg(lua, live, "terrain", args)?;
    if let Some(g) = &game.rules.hexes {
        p = g.centre(g.hex_at(p));
    }
    let t = lua.create_table()?;
    let here = game.board.areas.iter().filter(|a| a.center.dist(p) <= a.radius + 1e-6 && a.poly.contains(p));
    for a in here.take(cav_format::limits::SCRIPT_EFFECTS_PER_CALL) {
        let def = &game.rules.terrains[a.terrain];
        let piece = lua.create_table()?;
        piece.raw_set("id", def.id.as_str())?;
        piece.raw_set("name", def.name.as_str())?;
        piece.raw_set("cover", cover_word(def.cover))?;
        piece.raw_set("elevation", def.elevation)?;
        piece.raw_set("layer", if def.modifier { "modifier" } else { "base" })?;
        let values = lua.create_table()?;
        for &(v, x) in &def.values {
            if let Some(name) = game.rules.terrain_value_ids.get(usize::from(v)) {
                values.raw_set(name.as_str(), x)?;
            }
        }
        piece.raw_set("values", frozen(values))?;
        t.raw_push(frozen(piece))?;
    }
    Ok(Value::Table(frozen(t)))
}

fn cover_word(c: cav_format::Cover) -> &'static str {
    match c {
        cav_format::Cover::None => "none",
        cav_format::Cover::Light => "light",
        cav_format::Cover::Heavy => "heavy",
        cav_format::Cover::Blocking => "blocking",
    }
}

/// `ctx.ground(model)` or `ctx.ground(x, y)`: the ground's level there (hills raise it).
fn ground(lua: &Lua, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let p = place_arg(lua, live, "ground", args)?;
    Ok(Value::Integer(i64::from(live.game.ground(p))))
}

/// `ctx.sight(a, b)`: what `a` sees of `b` — `{seen, cover, obscurement}`: a line of sight, the
/// best cover `b` has from `a` (`none`, `light`, `heavy`, `blocking`), and the obscurement
/// along the line (terrain `obscurement`).
fn sight(lua: &Lua, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (a, b): (AnyUserData, AnyUserData) = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let (a, b) = (a.borrow::<ModelView>()?.index, b.borrow::<ModelView>()?.index);
    let (seen, cover) = game.sight(a, b, false);
    let t = lua.create_table()?;
    t.raw_set("seen", seen)?;
    t.raw_set("cover", cover_word(cover))?;
    t.raw_set("obscurement", game.obscurement(a, b))?;
    Ok(Value::Table(frozen(t)))
}

/// `ctx.markers()`: every marker scripts put on the board (`ctx.place_marker`), in the order
/// first placed: `{id, source, x, y}` (`source`: the special attribute whose script placed it).
fn markers(lua: &Lua, live: &Live) -> mlua::Result<Value> {
    let game = live.game;
    let out = lua.create_table()?;
    for m in &game.markers {
        let t = lua.create_table()?;
        t.raw_set("id", m.id.as_str())?;
        t.raw_set("source", game.rules.sas[m.sa as usize].id.as_str())?;
        t.raw_set("x", m.at.x)?;
        t.raw_set("y", m.at.y)?;
        out.raw_push(frozen(t))?;
    }
    Ok(Value::Table(frozen(out)))
}

/// `ctx.within(model, distance)`: the other models in play within `distance` of `model` (the
/// range as the ruleset measures it), nearest first.
fn within(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (m, d): (AnyUserData, f64) = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let m = m.borrow::<ModelView>()?.index;
    if !d.is_finite() {
        return Err(refused(lua, "`ctx.within`: a distance is a finite number of inches".into()));
    }
    let mut near: Vec<(f64, usize)> = (0..game.models.len())
        .filter(|&i| i != m && game.models[i].on_table())
        .map(|i| (game.range(m, i), i))
        .filter(|&(r, _)| r <= d + 1e-9)
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
    let t = lua.create_table()?;
    for (_, i) in near {
        t.raw_push(model_view(lua, sh, game, i)?)?;
    }
    Ok(Value::Table(frozen(t)))
}

/// `ctx.models()`: every model in play, as views (made once a moment: the board
/// does not change while its handlers run).
/// `ctx.models(state)`: only those in that state (views are made only for them).
fn models(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let state: Option<mlua::LuaString> = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let state = state
        .map(|s| {
            state_arg(lua, sh, HookEffect::ApplyState, &s)
                .map_err(|_| refused(lua, "`ctx.models(state)`: no such state in this ruleset".into()))
        })
        .transpose()?;
    if state.is_none()
        && let Some(t) = &*live.all_models.borrow()
    {
        return Ok(Value::Table(t.clone()));
    }
    let t = lua.create_table()?;
    let wanted = |i: usize| {
        game.models[i].on_table() && state.is_none_or(|s| game.models[i].states.iter().any(|(x, _)| *x == s))
    };
    for i in (0..game.models.len()).filter(|&i| wanted(i)) {
        t.raw_push(model_view(lua, sh, game, i)?)?;
    }
    let t = frozen(t);
    if state.is_none() {
        *live.all_models.borrow_mut() = Some(t.clone());
    }
    Ok(Value::Table(t))
}

/// `ctx.range(a, b)`: the range between two models as the ruleset measures it.
fn range(lua: &Lua, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (a, b): (AnyUserData, AnyUserData) = mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let ix = |u: &AnyUserData| u.borrow::<ModelView>().map(|v| v.index);
    Ok(Value::Number(game.range(ix(&a)?, ix(&b)?)))
}

/// `ctx.roll_dice(label, target)`: the ruleset's standard dice against a target
/// point, logged as a roll of the handler's model named `label`.
fn roll_dice(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (what, target, expr): (mlua::LuaString, Option<f64>, Option<mlua::LuaString>) =
        mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let kind = label(lua, "ctx.roll_dice", "label", &what)?;
    if live.rolls.borrow().len() >= SCRIPT_EFFECTS_PER_CALL {
        return Err(refused(lua, format!("`ctx.roll_dice`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call")));
    }
    let target = target.map(|t| whole(lua, "roll_dice", t, true)).transpose()?;
    let r = &game.rules;
    let expr = match expr {
        None => r.standard,
        Some(text) => {
            let text = label(lua, "ctx.roll_dice", "dice", &text)?;
            cav_rules::DiceExpr::parse(&text).map_err(|e| refused(lua, format!("`ctx.roll_dice`: {e}")))?
        }
    };
    let (natural, total) = expr.roll(&mut **live.dice.borrow_mut());
    // Judged as the engine judges its rolls, by the ruleset's roll kind: its fumbles and
    // criticals hold for the standard dice and the dice that stand in for them (a script's roll
    // is not a 10+ roll, and adds no bonus die).
    let cav_rules::compile::Verdict { natural: nat, fumble, crit, success, margin } =
        r.verdict(expr, total, total, target, r.critical_at(0, false), false);
    let critical = match (fumble, crit) {
        (true, _) => Some("fumble"),
        (false, true) => Some("success"),
        _ => None,
    };
    let roll = Roll {
        model: live.roller.get(),
        kind: kind.into(),
        dice: expr.label(),
        natural,
        mods: Vec::new(),
        total,
        target,
        margin,
        success,
        critical,
    };
    let t = sh.roll_table(lua, &roll, what)?;
    t.set_readonly(false);
    t.raw_set("natural_total", nat)?;
    t.raw_set("success", success)?;
    t.raw_set("critical", critical)?;
    live.rolls.borrow_mut().push(roll);
    Ok(Value::Table(frozen(t)))
}

/// `ctx.opposed_roll(label, other, bonus, other_bonus)`: this model and `other`
/// each roll the standard dice plus the bonus given and their `opposed_roll`
/// effects (pilots); what decides and who wins a tie is the ruleset's
/// `procedures.rolls.opposed`.
fn opposed_roll(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (what, other, bonus, other_bonus): (mlua::LuaString, AnyUserData, f64, f64) =
        mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let kind = label(lua, "ctx.opposed_roll", "label", &what)?;
    if live.rolls.borrow().len() + 2 > SCRIPT_EFFECTS_PER_CALL {
        return Err(refused(lua, format!("`ctx.opposed_roll`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call")));
    }
    let other = other
        .borrow::<ModelView>()
        .map(|v| v.index)
        .map_err(|_| refused(lua, "`ctx.opposed_roll` needs a model view (ctx.target, ctx.models()[i])".into()))?;
    let bonus = whole(lua, "opposed_roll", bonus, true)?;
    let other_bonus = whole(lua, "opposed_roll", other_bonus, true)?;
    let Some(rule) = game.rules.proc.rolls.opposed else {
        return Err(refused(
            lua,
            "`ctx.opposed_roll`: this ruleset has no opposed rolls (`procedures.rolls.opposed`)".into(),
        ));
    };
    let me = live.roller.get();
    let sa_name = game.rules.sas[live.current_sa.get() as usize].name.clone();
    let throw = |m: usize, bonus: i32| {
        let r = &game.rules;
        let card = game.card(m);
        let mut mods = Vec::new();
        if bonus != 0 {
            mods.push(cav_rules::event::ModApplied { source: sa_name.clone(), value: bonus, charge: None });
        }
        for &(sa, rating) in &card.sas {
            let def = &r.sas[sa as usize];
            for e in def.effects.iter().filter(|e| e.target == ModifierTarget::OpposedRoll) {
                let value = if e.per_rating { e.value * rating } else { e.value };
                mods.push(cav_rules::event::ModApplied { source: def.name.clone(), value, charge: None });
            }
        }
        let (natural, sum) = r.standard.roll(&mut **live.dice.borrow_mut());
        let total = mods.iter().fold(sum, |t, m| t.saturating_add(m.value));
        let exp = match rule.against {
            OpposedAgainst::Exp => card.experience[game.column(m)].map(|e| e as i32),
            OpposedAgainst::Total => None,
        };
        Roll {
            model: m,
            kind: kind.clone().into(),
            dice: r.standard.label(),
            natural,
            mods,
            total,
            target: exp,
            margin: exp.map(|e| total.saturating_sub(e)),
            success: None,
            critical: None,
        }
    };
    let mine = throw(me, bonus);
    let theirs = throw(other, other_bonus);
    let score = |r: &Roll| r.margin.unwrap_or(r.total);
    let won = match rule.ties {
        OpposedTies::Starter => score(&mine) >= score(&theirs),
        OpposedTies::Other => score(&mine) > score(&theirs),
    };
    let t = lua.create_table()?;
    t.raw_set("won", won)?;
    t.raw_set("mine", sh.roll_table(lua, &mine, lua.create_string(&kind)?)?)?;
    t.raw_set("theirs", sh.roll_table(lua, &theirs, lua.create_string(&kind)?)?)?;
    let mut log = live.rolls.borrow_mut();
    log.push(Roll { success: Some(won), ..mine });
    log.push(Roll { success: Some(!won), ..theirs });
    Ok(Value::Table(frozen(t)))
}

/// A roll kind's or contest's id as a script names it: the index of the ruleset's declaration.
fn declared<'r>(
    lua: &Lua,
    call: &str,
    what: &str,
    id: &mlua::LuaString,
    ids: impl Iterator<Item = &'r str>,
) -> mlua::Result<usize> {
    let id = label(lua, call, what, id)?;
    let ids: Vec<&str> = ids.collect();
    ids.iter().position(|x| *x == id).ok_or_else(|| {
        let known =
            if ids.is_empty() { "it declares none".to_owned() } else { format!("it declares {}", ids.join(", ")) };
        refused(lua, format!("`{call}`: the ruleset has no {what} `{id}` ({known})"))
    })
}

/// The table a script gets for a roll of a kind: `ctx.roll_dice`'s fields and the margin.
fn kind_roll_table(lua: &Lua, sh: &Rc<Shared>, r: &Roll, natural: i32) -> mlua::Result<mlua::Table> {
    let t = sh.roll_table(lua, r, lua.create_string(r.kind.as_ref())?)?;
    t.set_readonly(false);
    t.raw_set("natural_total", natural)?;
    t.raw_set("success", r.success)?;
    t.raw_set("critical", r.critical)?;
    t.raw_set("margin", r.margin)?;
    Ok(t)
}

/// The modifier a script gives a roll, as the log shows it (named after the special attribute).
fn script_mods(live: &Live, value: i32) -> Vec<ModApplied> {
    if value == 0 {
        return Vec::new();
    }
    let source = live.game.rules.sas.get(live.current_sa.get() as usize).map_or_else(String::new, |d| d.name.clone());
    vec![ModApplied { source, value, charge: None }]
}

/// `ctx.make_roll(kind, target, modifier)`: a roll of a kind the ruleset declares (`roll_kinds:`),
/// judged as the kind says, logged as the handler's model's.
fn roll_kind(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (kind, target, modifier): (mlua::LuaString, Option<f64>, Option<f64>) =
        mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let rules = &game.rules;
    let k = declared(lua, "ctx.make_roll", "roll kind", &kind, rules.roll_kinds.iter().map(|k| k.id.as_str()))?;
    if live.rolls.borrow().len() >= SCRIPT_EFFECTS_PER_CALL {
        return Err(refused(lua, format!("`ctx.make_roll`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call")));
    }
    let target = target.map(|t| whole(lua, "make_roll", t, true)).transpose()?;
    let modifier = modifier.map(|m| whole(lua, "make_roll", m, true)).transpose()?.unwrap_or(0);
    let rule = &rules.roll_kinds[k];
    let thrown = rule.throw(&mut **live.dice.borrow_mut(), modifier, target);
    let natural = thrown.natural;
    let roll = rule.logged(live.roller.get(), script_mods(live, modifier), thrown);
    let t = kind_roll_table(lua, sh, &roll, natural)?;
    live.rolls.borrow_mut().push(roll);
    Ok(Value::Table(frozen(t)))
}

/// One side of a contest as a script gives it: `{target =, modifier =, rolls =}`.
fn contest_side(lua: &Lua, v: Option<mlua::Table>) -> mlua::Result<(Option<i32>, i32, u32)> {
    let Some(t) = v else { return Ok((None, 0, 1)) };
    let num = |k: &str| -> mlua::Result<Option<f64>> { t.raw_get::<Option<f64>>(k) };
    let target = num("target")?.map(|x| whole(lua, "contest", x, true)).transpose()?;
    let modifier = num("modifier")?.map(|x| whole(lua, "contest", x, true)).transpose()?.unwrap_or(0);
    let rolls = num("rolls")?.map(|x| whole(lua, "contest", x, false)).transpose()?.unwrap_or(1);
    if rolls == 0 {
        return Err(refused(lua, "`ctx.contest`: a side makes at least one roll".into()));
    }
    Ok((target, modifier, rolls as u32))
}

/// `ctx.contest(contest, other, mine, theirs)`: this model and `other` each roll the contest's
/// roll kind (`rolls` of them: a burst), each against its own target; the ruleset's
/// `contests:` entry says which rolls stand. Every roll is logged, with whether it stood.
fn contest(lua: &Lua, sh: &Rc<Shared>, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let game = live.game;
    let (id, other, mine, theirs): (mlua::LuaString, AnyUserData, Option<mlua::Table>, Option<mlua::Table>) =
        mlua::FromLuaMulti::from_lua_multi(args, lua)?;
    let rules = &game.rules;
    let c = declared(lua, "ctx.contest", "contest", &id, rules.contests.iter().map(|c| c.id.as_str()))?;
    let other = other
        .borrow::<ModelView>()
        .map(|v| v.index)
        .map_err(|_| refused(lua, "`ctx.contest` needs a model view (ctx.target, ctx.models()[i])".into()))?;
    let (mine, theirs) = (contest_side(lua, mine)?, contest_side(lua, theirs)?);
    if live.rolls.borrow().len() + (mine.2 + theirs.2) as usize > SCRIPT_EFFECTS_PER_CALL {
        return Err(refused(lua, format!("`ctx.contest`: more than {SCRIPT_EFFECTS_PER_CALL} rolls in one call")));
    }
    let contest = &rules.contests[c];
    let rule = &rules.roll_kinds[contest.roll];
    let throw = |(target, modifier, n): (Option<i32>, i32, u32)| -> Vec<cav_rules::compile::Thrown> {
        (0..n).map(|_| rule.throw(&mut **live.dice.borrow_mut(), modifier, target)).collect()
    };
    let (a, b) = (throw(mine), throw(theirs));
    let (a_stand, b_stand) = contest.decide(&a, &b);
    let me = live.roller.get();
    let side = |who: usize,
                rolls: Vec<cav_rules::compile::Thrown>,
                stand: &[bool],
                modifier: i32|
     -> mlua::Result<(mlua::Table, Vec<Roll>)> {
        let list = lua.create_table()?;
        let mut logged = Vec::new();
        for (t, &stands) in rolls.into_iter().zip(stand) {
            let natural = t.natural;
            let roll = rule.logged(who, script_mods(live, modifier), t);
            let table = kind_roll_table(lua, sh, &roll, natural)?;
            table.raw_set("stands", stands)?;
            list.raw_push(frozen(table))?;
            logged.push(roll);
        }
        Ok((frozen(list), logged))
    };
    let (mine_t, mine_rolls) = side(me, a, &a_stand, mine.1)?;
    let (theirs_t, theirs_rolls) = side(other, b, &b_stand, theirs.1)?;
    let t = lua.create_table()?;
    let standing = a_stand.iter().filter(|&&x| x).count();
    t.raw_set("won", standing > 0)?;
    t.raw_set("standing", standing)?;
    t.raw_set("theirs_standing", b_stand.iter().filter(|&&x| x).count())?;
    t.raw_set("mine", mine_t)?;
    t.raw_set("theirs", theirs_t)?;
    let mut log = live.rolls.borrow_mut();
    log.extend(mine_rolls);
    log.extend(theirs_rolls);
    Ok(Value::Table(frozen(t)))
}

/// `ctx.flag(scope, key)`: the value this special attribute keeps under `key` in `scope`, as it
/// stood when the moment began (a `ctx.set_flag` of this moment lands after its handlers), or nil.
fn flag(lua: &Lua, live: &Live, args: mlua::MultiValue) -> mlua::Result<Value> {
    let own = super::args::self_unit(Some(live));
    let scope = super::args::flag_scope(lua, "ctx.flag", args.front().unwrap_or(&Value::Nil), own)?;
    let key = match args.get(1) {
        Some(Value::String(k)) => k.clone(),
        other => {
            let t = match other {
                None => "nil",
                Some(v) if v.is_number() || v.is_integer() => "number",
                Some(v) => v.type_name(),
            };
            return Err(refused(lua, format!("`ctx.flag`: the key must be a string, not a {t}")));
        }
    };
    let key = label(lua, "ctx.flag", "key", &key)?;
    Ok(match live.game.flags.get(live.current_sa.get(), scope, &key) {
        None => Value::Nil,
        Some(cav_rules::game::FlagValue::Bool(b)) => Value::Boolean(*b),
        Some(cav_rules::game::FlagValue::Number(x)) => Value::Number(*x),
        Some(cav_rules::game::FlagValue::Text(t)) => Value::String(lua.create_string(t)?),
    })
}
