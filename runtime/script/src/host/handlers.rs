//! A special attribute's script module and the handlers it returns, by role (its own, `as_target`,
//! `aura`) and hook point; each game runs a new instance of it.

use std::cell::RefCell;

use cav_format::HookPoint;
use mlua::{Function, Table, Value};

/// The key of a module's table of handlers that run when the model is the other model of a
/// moment (the target of an attack, the model under a template): `M.as_target.combat_tp`.
pub const AS_TARGET: &str = "as_target";

/// The key of a module's table of handlers that run for a model that is neither of a moment's
/// two models — every other model on the table with the special attribute (a bubble, an array
/// that helps friends nearby): `M.aura.combat_tp`. Each handler decides by range and side.
pub const AURA: &str = "aura";

/// Whose special attribute a handler is (`ctx.role`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The acting model's own.
    Model,
    /// Its weapon's.
    Weapon,
    /// The other model's (`as_target`).
    Target,
    /// Any other model's on the table (`aura`).
    Aura,
    /// A rule of the whole game (`applies_to: game`), at every moment of its hook points.
    Game,
}

impl Role {
    pub(super) const ALL: [Role; 5] = [Role::Model, Role::Weapon, Role::Target, Role::Aura, Role::Game];

    pub(super) fn id(self) -> &'static str {
        match self {
            Role::Model => "model",
            Role::Weapon => "weapon",
            Role::Target => "target",
            Role::Aura => "aura",
            Role::Game => "game",
        }
    }
}

/// A module's handlers of one role, by hook point (`HookPoint as usize`, the index in
/// `HookPoint::ALL`).
type ByPoint = [Option<Function>; HookPoint::ALL.len()];

/// One module's handlers: its own, its `as_target` table's and its `aura` table's.
pub(super) struct Handlers {
    pub(super) by_role: [ByPoint; 3],
    /// The hook points each of `own`, `as_target` and `aura` handles (bit `HookPoint as u32`):
    /// a call asks these before anything else.
    pub(super) masks: [u64; 3],
}

impl Handlers {
    /// The handlers of the value special attribute `name`'s module (at `path`) returned. One
    /// pass over the table's own keys (a module has a handful) rather than a lookup per hook
    /// point: this runs once a game for every module the game uses.
    pub(super) fn read(value: Value, name: &str, path: &std::path::Path) -> Result<Handlers, String> {
        let t = match value {
            Value::Table(t) => t,
            other => {
                return Err(format!(
                    "{name}: module {} returned {}, not a table of handlers",
                    path.display(),
                    other.type_name()
                ));
            }
        };
        let mut by_role: [ByPoint; 3] = std::array::from_fn(|_| std::array::from_fn(|_| None));
        let mut wrong = None;
        let mut roles = [None, None];
        // `slot` as in `Handlers::slot`; `roles` collects the `as_target` and `aura` tables (the
        // module's own table only).
        let mut read = |t: &Table, slot: usize, mut roles: Option<&mut [Option<Table>; 2]>| {
            let prefix = ["", "as_target.", "aura."][slot];
            t.for_each(|key: Value, value: Value| {
                let Value::String(key) = key else { return Ok(()) };
                let key = key.as_bytes();
                if let Some(roles) = roles.as_deref_mut()
                    && let Some(r) = [AS_TARGET, AURA].iter().position(|k| k.as_bytes() == &*key)
                {
                    match value {
                        Value::Table(t) => roles[r] = Some(t),
                        Value::Nil => {}
                        other => {
                            let what = [AS_TARGET, AURA][r];
                            wrong.get_or_insert(format!(
                                "{name}: `{what}` is a {}, not a table of handlers",
                                other.type_name()
                            ));
                        }
                    }
                    return Ok(());
                }
                let Some(p) = HookPoint::ALL.iter().find(|p| p.id().as_bytes() == &*key) else { return Ok(()) };
                if slot > 0 && !p.has_target() {
                    return Ok(());
                }
                match value {
                    Value::Function(f) => by_role[slot][*p as usize] = Some(f),
                    Value::Nil => {}
                    other => {
                        wrong.get_or_insert(format!(
                            "{name}: handler `{prefix}{p}` is a {}, not a function",
                            other.type_name()
                        ));
                    }
                }
                Ok(())
            })
            .map_err(|e| format!("{name}: {e}"))
        };
        read(&t, 0, Some(&mut roles))?;
        for (r, table) in roles.iter().enumerate() {
            if let Some(table) = table {
                read(table, r + 1, None)?;
            }
        }
        if let Some(wrong) = wrong {
            return Err(wrong);
        }
        let mask = |by_point: &ByPoint| {
            by_point.iter().enumerate().filter(|(_, f)| f.is_some()).fold(0u64, |m, (i, _)| m | 1 << i)
        };
        let masks = [mask(&by_role[0]), mask(&by_role[1]), mask(&by_role[2])];
        Ok(Handlers { by_role, masks })
    }

    pub(super) fn slot(role: Role) -> usize {
        match role {
            Role::Model | Role::Weapon | Role::Game => 0,
            Role::Target => 1,
            Role::Aura => 2,
        }
    }

    /// The handler of `point` for a special attribute in `role`.
    pub(super) fn get(&self, point: HookPoint, role: Role) -> Option<&Function> {
        self.by_role[Self::slot(role)][point as usize].as_ref()
    }
}

/// A special attribute's script module: its chunk, read and compiled once, and the instance of
/// the game being played. Every game runs a new instance (`sandbox::instantiate`), made when
/// one of its handlers first runs in that game, so what a module keeps in its locals, tables and
/// globals lives for one game: games, shards, odds sequences and tests do not depend on what ran
/// before them on the same thread.
pub(super) struct Module {
    pub(super) chunk: Function,
    /// Where it was read from (for messages).
    pub(super) path: std::path::PathBuf,
    /// The hook points it handles (`Handlers::masks`), as its instance at load returned them;
    /// every later instance must return the same.
    pub(super) masks: [u64; 3],
    /// The instance of game `.0` (`Shared::game`).
    pub(super) instance: RefCell<(u64, Handlers)>,
}

impl Module {
    /// Whether the module has a handler of `point` in `role`.
    #[inline]
    pub(super) fn has(&self, point: HookPoint, role: Role) -> bool {
        self.masks[Handlers::slot(role)] & (1 << point as u32) != 0
    }
}

/// Whose handlers run at a moment: the owner model, its role, and its special attributes
/// (index in `Rules::sas`, rating).
pub(super) type Owner<'g> = (usize, Role, &'g [(u16, i32)]);

/// One handler that runs at a moment: (owner model, role, special attribute, rating).
pub(super) type Run = (usize, Role, u16, i32);
