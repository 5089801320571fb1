//! What a script sees of a model (`ctx.model`, `ctx.target`, `ctx.self`, `ctx.models()`): read-only
//! views whose fields are made Lua values only when read, and the names they share per model.

use std::cell::RefCell;
use std::rc::Rc;

use cav_format::HookPoint;
use cav_rules::compile::StateIx;
use cav_rules::game::Game;
use mlua::{AnyUserData, Lua, Table, Value};

use super::ctx::{CtxFns, CtxView};
use super::shared::Shared;

impl Shared {
    /// The names a model's view shows, shared with every view of it.
    pub(super) fn names(&self, game: &Game, model: usize) -> Names {
        let me = &game.models[model];
        // (The card it plays as: a switched upgrade's card shows its grants.)
        let card_ix = game.rules.card_ix_of(me);
        let now = self.game.get();
        let mut cache = self.names.borrow_mut();
        if cache.len() <= model {
            cache.resize(model + 1, None);
        }
        match &mut cache[model] {
            Some(e) if e.card == card_ix && e.side == me.side && e.game == now => e.names.clone(),
            // The last game's: a new game may bring other rules (a test's upgrades), whose card
            // indices name other cards, so they are kept only if they read the same — their
            // strings, that is: the Lua values made of them start again with the game, as
            // everything else its scripts see.
            Some(e) if e.card == card_ix && e.side == me.side && e.names.show(game, model) => {
                e.names = Names(Rc::new(NamesData { made: Rc::default(), ..(*e.names.0).clone() }));
                e.game = now;
                e.names.clone()
            }
            slot => {
                let card = game.card(model);
                let n = Names(Rc::new(NamesData {
                    name: Rc::from(me.name.as_str()),
                    side: Rc::from(game.sides[me.side].as_str()),
                    model: Rc::from(card.id.as_str()),
                    weapons: card
                        .weapons
                        .iter()
                        .map(|w| WeaponNames {
                            id: Rc::from(w.weapon.as_str()),
                            name: Rc::from(w.name.as_str()),
                            class: Rc::from(w.class.as_str()),
                            munition: w.munition_id.as_deref().map(Rc::from),
                            range: w.range,
                            attributes: w.attributes.iter().copied().collect(),
                        })
                        .collect(),
                    sas: card.sas.iter().map(|(sa, _)| Rc::from(game.rules.sas[*sa as usize].id.as_str())).collect(),
                    ratings: card.sas.iter().map(|(_, r)| *r).collect(),
                    attributes: card.attributes.iter().copied().collect(),
                    made: Rc::default(),
                }));
                *slot = Some(CachedNames { card: card_ix, side: me.side, game: now, names: n.clone() });
                n
            }
        }
    }
}

/// A model's names in `Shared::names`: its card and side, and the game (`Shared::game`) they
/// were last shown in.
#[derive(Clone)]
pub(super) struct CachedNames {
    card: usize,
    side: usize,
    game: u64,
    names: Names,
}

/// A read-only view of a model: a userdata whose fields are made Lua values only when read.
pub(super) fn model_view(lua: &Lua, shared: &Rc<Shared>, game: &Game, model: usize) -> mlua::Result<AnyUserData> {
    lua.create_userdata(ModelView {
        index: model,
        snap: Snapshot::of(game, model),
        names: shared.names(game, model),
        states_table: RefCell::new(None),
        shared: shared.clone(),
    })
}

/// A model's view in a `ctx` (`ctx.model`, `ctx.target`, `ctx.self`), made a userdata only when
/// a script first reads it — most handlers read one of them, or none. What it shows is taken
/// when the moment is called, so it is the same whenever it is read.
#[derive(Default)]
pub(super) struct LazyView {
    index: usize,
    /// What the view will show, until it is made.
    shows: RefCell<Option<(Snapshot, Names)>>,
    made: RefCell<Option<AnyUserData>>,
}

impl LazyView {
    pub(super) fn new(shared: &Shared, game: &Game, model: usize) -> LazyView {
        LazyView::with(game, model, shared.names(game, model))
    }

    /// A view of `model` showing `names` (`Shared::names` of it, already asked for).
    pub(super) fn with(game: &Game, model: usize, names: Names) -> LazyView {
        LazyView {
            index: model,
            shows: RefCell::new(Some((Snapshot::of(game, model), names))),
            made: RefCell::new(None),
        }
    }

    /// The view, made on first read and the same userdata afterwards.
    pub(super) fn get(&self, lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<AnyUserData> {
        if let Some(view) = &*self.made.borrow() {
            return Ok(view.clone());
        }
        let Some((snap, names)) = self.shows.borrow_mut().take() else {
            return Err(mlua::Error::runtime("a model view was lost"));
        };
        let view = lua.create_userdata(ModelView {
            index: self.index,
            snap,
            names,
            states_table: RefCell::new(None),
            shared: shared.clone(),
        })?;
        *self.made.borrow_mut() = Some(view.clone());
        Ok(view)
    }
}

impl Snapshot {
    fn of(game: &Game, model: usize) -> Snapshot {
        let me = &game.models[model];
        let card = game.card(model);
        let column = game.column(model);
        Snapshot {
            x: me.pos.x,
            y: me.pos.y,
            facing: me.facing,
            base: card.base_radius,
            model_type: card.model_type,
            move_class: card.move_class,
            damage: me.damage,
            columns: card.columns,
            column,
            mv: game.move_value(model),
            av: card.armor[column],
            dc: card.damage_control[column],
            exp: card.experience[column],
            ccv: card.ccv[column],
            tv: card.tv,
            hard: card.hard,
            soft: card.soft,
            prone: me.prone,
            on_table: me.on_table(),
            out_of_ammo: OutOfAmmo::of(&me.out_of_ammo),
            ammo_reserve: me.ammo_reserve,
            states: me.states.iter().map(|(s, _)| *s).collect(),
            attributes_changed: me.changed_attributes().to_vec(),
            unit: me.squad.map(|q| q as u32 + 1),
        }
    }
}

/// What a script sees of a weapon mount (`weapon_table`).
#[derive(Clone)]
pub(super) struct WeaponNames {
    id: Rc<str>,
    name: Rc<str>,
    class: Rc<str>,
    /// The munition (upgrade id) a launcher is loaded with.
    munition: Option<Rc<str>>,
    range: f64,
    /// Its values of the weapon attributes (`MountDef::attributes`).
    attributes: Rc<[i32]>,
}

/// What the views of a model show of its card and side (`NamesData`), shared: a view is made
/// at every handled moment, and this is one count to raise.
#[derive(Clone, Default)]
pub(super) struct Names(Rc<NamesData>);

impl std::ops::Deref for Names {
    type Target = NamesData;

    fn deref(&self) -> &NamesData {
        &self.0
    }
}

#[derive(Clone, Default)]
pub(super) struct NamesData {
    name: Rc<str>,
    side: Rc<str>,
    model: Rc<str>,
    /// Per mount: weapon id, name, range.
    pub(super) weapons: Rc<[WeaponNames]>,
    /// The card's special attributes (ids) and their ratings.
    sas: Rc<[Rc<str>]>,
    ratings: Rc<[i32]>,
    /// Its value of each attribute the ruleset declares (`Rules::attributes` order), column by
    /// column (`CardDef::attributes`).
    attributes: Rc<[i32]>,
    /// The frozen `special_attributes` and `ratings` tables and the name strings, made on first
    /// read and shared by every view of the model this game (a loop over `ctx.models()` reads
    /// them for each model).
    made: Rc<RefCell<Made>>,
}

/// What `Names` makes Lua values of when first read.
#[derive(Default)]
struct Made {
    sas: Option<Table>,
    ratings: Option<Table>,
    /// With the damage column it was made for (an attribute may have a value per column).
    attributes: Option<(usize, Table)>,
    name: Option<mlua::LuaString>,
    side: Option<mlua::LuaString>,
    model: Option<mlua::LuaString>,
}

impl NamesData {
    /// Whether these are the names `model` of `game` shows (made for it in another game).
    fn show(&self, game: &Game, model: usize) -> bool {
        let me = &game.models[model];
        let card = game.card(model);
        let weapon = |(n, w): (&WeaponNames, &cav_rules::compile::MountDef)| {
            *n.id == *w.weapon
                && *n.name == *w.name
                && *n.class == *w.class
                && n.munition.as_deref() == w.munition_id.as_deref()
                && n.range.to_bits() == w.range.to_bits()
                && *n.attributes == *w.attributes
        };
        *self.name == *me.name
            && *self.side == *game.sides[me.side]
            && *self.model == *card.id
            && self.weapons.len() == card.weapons.len()
            && self.weapons.iter().zip(&card.weapons).all(weapon)
            && self.sas.len() == card.sas.len()
            && self.sas.iter().zip(&card.sas).all(|(n, (sa, _))| **n == *game.rules.sas[*sa as usize].id)
            && self.ratings.iter().copied().eq(card.sas.iter().map(|(_, r)| *r))
            && *self.attributes == *card.attributes
    }

    /// The Lua string of one of the names (`text`), made on first read.
    fn string(
        &self,
        lua: &Lua,
        slot: impl Fn(&mut Made) -> &mut Option<mlua::LuaString>,
        text: &str,
    ) -> mlua::Result<mlua::LuaString> {
        let mut made = self.made.borrow_mut();
        let slot = slot(&mut made);
        if let Some(s) = slot {
            return Ok(s.clone());
        }
        let s = lua.create_string(text)?;
        *slot = Some(s.clone());
        Ok(s)
    }
}

/// What a script sees of a model: one userdata, whose fields are made Lua values only when read.
pub(super) struct ModelView {
    pub(super) index: usize,
    snap: Snapshot,
    names: Names,
    /// The frozen `states` table, made on first read.
    states_table: RefCell<Option<Table>>,
    shared: Rc<Shared>,
}

/// What a model view shows of its model, besides its names (`Names`).
struct Snapshot {
    /// Position on the table (inches) and facing (degrees, 0 = towards +y, clockwise).
    x: f64,
    y: f64,
    facing: f64,
    /// Base radius (inches): how far past a model's centre a template or a measurement reaches it.
    base: f64,
    model_type: cav_rules::compile::TypeIx,
    /// Its move class (by `Rules::move_classes`' index).
    move_class: usize,
    damage: u32,
    columns: usize,
    column: usize,
    mv: u32,
    av: u32,
    dc: Option<i32>,
    exp: Option<u32>,
    /// Close-combat value against hard and soft targets.
    ccv: (Option<u8>, Option<u8>),
    tv: u32,
    hard: bool,
    soft: bool,
    prone: bool,
    on_table: bool,
    out_of_ammo: OutOfAmmo,
    ammo_reserve: u32,
    states: Vec<StateIx>,
    /// What damage tables changed of its attributes for good (`Systems::attributes`); empty:
    /// nothing, and its attributes are its card's.
    attributes_changed: Vec<i32>,
    /// The unit (squad) it serves in, by its number in the game (from 1); `None` for a model that
    /// activates alone.
    unit: Option<u32>,
}

impl Default for Snapshot {
    /// A view of nothing (`register_views`'s).
    fn default() -> Snapshot {
        Snapshot {
            x: 0.0,
            y: 0.0,
            facing: 0.0,
            base: 0.0,
            model_type: cav_rules::compile::TypeIx::NONE,
            move_class: usize::MAX,
            damage: 0,
            columns: 0,
            column: 0,
            mv: 0,
            av: 0,
            dc: None,
            exp: None,
            ccv: (None, None),
            tv: 0,
            hard: false,
            soft: false,
            prone: false,
            on_table: false,
            out_of_ammo: OutOfAmmo::default(),
            ammo_reserve: 0,
            states: Vec::new(),
            attributes_changed: Vec::new(),
            unit: None,
        }
    }
}

/// Which mounts of a model are out of ammunition: the first 64 as bits (a snapshot is taken for
/// every model of every handled moment, and this one needs no allocation), any further ones as a
/// list (empty, so not allocated, on every card there is).
#[derive(Default)]
struct OutOfAmmo {
    first: u64,
    rest: Vec<bool>,
}

impl OutOfAmmo {
    fn of(mounts: &[bool]) -> OutOfAmmo {
        let (first, rest) = mounts.split_at(mounts.len().min(64));
        OutOfAmmo {
            first: first.iter().enumerate().fold(0, |m, (i, &out)| m | u64::from(out) << i),
            rest: rest.to_vec(),
        }
    }

    /// Whether `mount` is out of ammunition (`false` past the model's mounts).
    fn get(&self, mount: usize) -> bool {
        match mount.checked_sub(64) {
            None => self.first & 1 << mount != 0,
            Some(i) => self.rest.get(i).copied().unwrap_or(false),
        }
    }
}

pub(super) fn read_only<T>(methods: &mut impl mlua::UserDataMethods<T>, what: &'static str) {
    methods.add_meta_method("__newindex", move |_, _, (_k, _v): (Value, Value)| -> mlua::Result<()> {
        Err(mlua::Error::runtime(format!("{what} is read-only")))
    });
}

pub(super) fn frozen(t: Table) -> Table {
    t.set_readonly(true);
    t
}

impl mlua::UserData for ModelView {
    fn add_fields<F: mlua::UserDataFields<Self>>(f: &mut F) {
        f.add_field_method_get("name", |lua, v| v.names.string(lua, |m| &mut m.name, &v.names.name));
        f.add_field_method_get("side", |lua, v| v.names.string(lua, |m| &mut m.side, &v.names.side));
        f.add_field_method_get("model", |lua, v| v.names.string(lua, |m| &mut m.model, &v.names.model));
        f.add_field_method_get("model_type", |_, v| {
            Ok(v.shared.model_types.get(v.snap.model_type.0 as usize).cloned())
        });
        f.add_field_method_get("move_class", |_, v| Ok(v.shared.move_classes.get(v.snap.move_class).cloned()));
        f.add_field_method_get("x", |_, v| Ok(v.snap.x));
        f.add_field_method_get("y", |_, v| Ok(v.snap.y));
        f.add_field_method_get("facing", |_, v| Ok(v.snap.facing));
        f.add_field_method_get("base", |_, v| Ok(v.snap.base));
        f.add_field_method_get("damage", |_, v| Ok(v.snap.damage));
        f.add_field_method_get("columns", |_, v| Ok(v.snap.columns));
        f.add_field_method_get("column", |_, v| Ok(v.snap.column));
        f.add_field_method_get("mv", |_, v| Ok(v.snap.mv));
        f.add_field_method_get("av", |_, v| Ok(v.snap.av));
        f.add_field_method_get("dc", |_, v| Ok(v.snap.dc));
        f.add_field_method_get("exp", |_, v| Ok(v.snap.exp));
        f.add_field_method_get("ccv_hard", |_, v| Ok(v.snap.ccv.0));
        f.add_field_method_get("ccv_soft", |_, v| Ok(v.snap.ccv.1));
        f.add_field_method_get("tv", |_, v| Ok(v.snap.tv));
        f.add_field_method_get("hard", |_, v| Ok(v.snap.hard));
        f.add_field_method_get("soft", |_, v| Ok(v.snap.soft));
        f.add_field_method_get("prone", |_, v| Ok(v.snap.prone));
        f.add_field_method_get("on_table", |_, v| Ok(v.snap.on_table));
        f.add_field_method_get("ammo_reserve", |_, v| Ok(v.snap.ammo_reserve));
        f.add_field_method_get("unit", |_, v| Ok(v.snap.unit));
        f.add_field_method_get("states", |lua, v| {
            let mut cached = v.states_table.borrow_mut();
            if cached.is_none() {
                let ids = v.snap.states.iter().map(|s| v.shared.state_ids[*s as usize].as_str());
                *cached = Some(frozen(lua.create_sequence_from(ids)?));
            }
            Ok(cached.clone())
        });
        f.add_field_method_get("special_attributes", |lua, v| {
            let mut cached = v.names.made.borrow_mut();
            if cached.sas.is_none() {
                cached.sas = Some(frozen(lua.create_sequence_from(v.names.sas.iter().map(|s| &**s))?));
            }
            Ok(cached.sas.clone())
        });
        f.add_field_method_get("ratings", |lua, v| {
            let mut cached = v.names.made.borrow_mut();
            if cached.ratings.is_none() {
                let pairs = v.names.sas.iter().map(|s| &**s).zip(v.names.ratings.iter().copied());
                cached.ratings = Some(frozen(lua.create_table_from(pairs)?));
            }
            Ok(cached.ratings.clone())
        });
        f.add_field_method_get("attributes", |lua, v| {
            let col = v.snap.column;
            if !v.snap.attributes_changed.is_empty() {
                // Changed for good by a damage table: this model's own values, not its card's.
                let n = v.shared.attributes.len();
                let row = v.names.attributes.get(col * n..(col + 1) * n).unwrap_or(&[]);
                let values = row.iter().zip(&v.snap.attributes_changed).map(|(x, by)| x.saturating_add(*by));
                return Ok(Some(frozen(lua.create_table_from(v.shared.attributes.iter().cloned().zip(values))?)));
            }
            let mut cached = v.names.made.borrow_mut();
            if cached.attributes.as_ref().is_none_or(|(at, _)| *at != col) {
                let n = v.shared.attributes.len();
                let row = v.names.attributes.get(col * n..(col + 1) * n).unwrap_or(&[]);
                let pairs = v.shared.attributes.iter().cloned().zip(row.iter().copied());
                cached.attributes = Some((col, frozen(lua.create_table_from(pairs)?)));
            }
            Ok(cached.attributes.as_ref().map(|(_, t)| t.clone()))
        });
        f.add_field_method_get("weapons", |lua, v| {
            let t = lua.create_table()?;
            for (mount, w) in v.names.weapons.iter().enumerate() {
                let w = weapon_table(lua, &v.shared, w, mount, None)?;
                w.set_readonly(false);
                w.set("out_of_ammo", v.snap.out_of_ammo.get(mount))?;
                t.raw_push(frozen(w))?;
            }
            Ok(frozen(t))
        });
    }
    fn add_methods<M: mlua::UserDataMethods<Self>>(m: &mut M) {
        read_only(m, "the model view");
        // Two views are equal when they show the same model (`ctx.target == ctx.self`), whichever
        // moment made them.
        m.add_meta_method(mlua::MetaMethod::Eq, |_, v, other: Value| {
            Ok(match other {
                Value::UserData(u) => u.borrow::<ModelView>().is_ok_and(|o| o.index == v.index),
                _ => false,
            })
        });
    }
}

/// A weapon as scripts see it; its `attributes` hold the RAV only where a target chose it (`rav`).
pub(super) fn weapon_table(
    lua: &Lua,
    shared: &Shared,
    w: &WeaponNames,
    mount: usize,
    rav: Option<i32>,
) -> mlua::Result<Table> {
    let munition = match &w.munition {
        Some(m) => Value::String(lua.create_string(&**m)?),
        None => Value::Nil,
    };
    let t = lua.create_table_from([
        ("id", Value::String(lua.create_string(&*w.id)?)),
        ("name", Value::String(lua.create_string(&*w.name)?)),
        ("class", Value::String(lua.create_string(&*w.class)?)),
        ("munition", munition),
        ("range", Value::Number(w.range)),
        ("mount", Value::Integer(mount as i64)),
    ])?;
    let values = shared.weapon_attributes.iter().zip(w.attributes.iter()).enumerate().filter_map(|(i, (id, &v))| {
        let v = if shared.weapon_rav == Some(i) { rav? } else { v };
        Some((id.clone(), v))
    });
    t.set("attributes", frozen(lua.create_table_from(values)?))?;
    Ok(frozen(t))
}

/// Make the metatables of `ctx` and of model views now, with the scripts loaded: mlua makes a
/// userdata type's metatable (running its helper chunks) when the first value of the type is
/// made, which would otherwise be in the first handled moment of a run. The values made here
/// show nothing and are dropped at once.
pub(super) fn register_views(lua: &Lua, shared: &Rc<Shared>, fns: &Rc<CtxFns>) -> mlua::Result<()> {
    let blank = LazyView { shows: RefCell::new(Some(Default::default())), ..LazyView::default() };
    blank.get(lua, shared)?;
    lua.create_userdata(CtxView::new(HookPoint::ALL[0], blank, fns, shared))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `OutOfAmmo` reads as the list it was made from, past 64 mounts too, and `false` past them.
    #[test]
    fn out_of_ammo_reads_as_the_list() {
        for n in [0, 1, 3, 63, 64, 65, 130] {
            let mounts: Vec<bool> = (0..n).map(|i| i % 3 == 1 || i == 64).collect();
            let o = OutOfAmmo::of(&mounts);
            for i in 0..n + 70 {
                assert_eq!(o.get(i), mounts.get(i).copied().unwrap_or(false), "{n} mounts, mount {i}");
            }
        }
    }
}
