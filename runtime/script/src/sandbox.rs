//! The sandbox every script runs in: Luau with an explicit library list, read-only libraries,
//! no way to reach files, the clock or randomness, a memory cap and an instruction budget per
//! call. `require` only finds modules in the pack's declared script roots, as source text.

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use mlua::chunk::ChunkMode;
use mlua::{Lua, LuaOptions, StdLib, Table, Value, VmState};

/// Resource limits of a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes the Lua state may allocate.
    pub memory: usize,
    /// Interrupt checks (loop iterations and calls, roughly) one call may take.
    pub steps: u64,
    /// Wall-clock cap of one call, as a second line of defence.
    pub time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { memory: 16 * 1024 * 1024, steps: 2_000_000, time: Duration::from_millis(100) }
    }
}

/// Globals a script never sees (removed before the environment is frozen).
const REMOVED: &[&str] =
    &["loadstring", "load", "dofile", "loadfile", "getfenv", "setfenv", "collectgarbage", "gcinfo", "newproxy"];

pub struct Sandbox {
    pub lua: Lua,
    /// Lines printed by scripts since the last `take_prints`.
    prints: Rc<RefCell<Vec<String>>>,
    steps: Rc<Cell<u64>>,
    deadline: Rc<Cell<Option<Instant>>>,
    limits: Limits,
}

/// The only module names `require` accepts: dotted lower-case paths.
fn valid_module(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            !part.is_empty()
                && part.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
        })
}

/// Find `name` (`a.b` → `a/b.luau` or `a/b.lua`) in the script roots. The path returned has its
/// links resolved and lies inside the root it was found in; a module whose real path leaves its
/// root is not found (see [`locate_module`] for why).
pub fn find_module(roots: &[PathBuf], name: &str) -> Option<PathBuf> {
    locate_module(roots, name).ok()
}

/// Like [`find_module`], saying why a module is not given: not found, or found as a link (or
/// under a linked directory) whose real path leaves the script root.
pub fn locate_module(roots: &[PathBuf], name: &str) -> Result<PathBuf, String> {
    if !valid_module(name) {
        return Err(format!("`{name}` is not a module name (dotted lower-case words)"));
    }
    let rel = name.replace('.', "/");
    for root in roots {
        for ext in ["luau", "lua"] {
            let p = root.join(format!("{rel}.{ext}"));
            if !p.is_file() {
                continue;
            }
            let real_root = root.canonicalize().map_err(|e| format!("cannot read script root: {e}"))?;
            let real = p.canonicalize().map_err(|e| format!("cannot read module `{name}`: {e}"))?;
            let system = ["/proc", "/dev", "/sys"].iter().any(|r| real.starts_with(r));
            if !real.starts_with(&real_root) || system {
                return Err(format!("module `{name}` leads outside the pack's script root (a link); it is not loaded"));
            }
            return Ok(real);
        }
    }
    Err(format!("module `{name}` not found in the pack's script roots"))
}

impl Sandbox {
    pub fn new(limits: Limits, roots: Vec<PathBuf>) -> mlua::Result<Sandbox> {
        let libs = StdLib::TABLE
            | StdLib::STRING
            | StdLib::MATH
            | StdLib::BIT
            | StdLib::UTF8
            | StdLib::COROUTINE
            | StdLib::BUFFER;
        let lua = Lua::new_with(libs, LuaOptions::default())?;
        let prints = Rc::new(RefCell::new(Vec::new()));
        let g = lua.globals();
        for name in REMOVED {
            g.raw_set(*name, Value::Nil)?;
        }
        // Dice come only from the engine: no random numbers of Lua's own.
        let math: Table = g.get("math")?;
        math.raw_set("random", Value::Nil)?;
        math.raw_set("randomseed", Value::Nil)?;
        let out = prints.clone();
        g.raw_set(
            "print",
            lua.create_function(move |_, args: mlua::Variadic<Value>| {
                let line: Vec<String> =
                    args.iter().map(|v| v.to_string().unwrap_or_else(|_| format!("{v:?}"))).collect();
                out.borrow_mut().push(line.join("\t"));
                Ok(())
            })?,
        )?;
        // `require`: modules from the script roots only, loaded once, frozen.
        let cache = lua.create_table()?;
        let roots = Rc::new(roots);
        g.raw_set(
            "require",
            lua.create_function(move |lua, name: String| {
                if let Some(m) = cache.raw_get::<Option<Value>>(name.as_str())? {
                    return Ok(m);
                }
                let path = locate_module(&roots, &name).map_err(mlua::Error::runtime)?;
                let value = load_module(lua, &path)?;
                cache.raw_set(name.as_str(), value.clone())?;
                Ok(value)
            })?,
        )?;
        lua.sandbox(true)?;
        lua.set_memory_limit(limits.memory)?;
        let steps = Rc::new(Cell::new(0u64));
        let deadline: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
        let (s, d) = (steps.clone(), deadline.clone());
        let budget = limits.steps;
        lua.set_interrupt(move |lua| {
            let n = s.get() + 1;
            s.set(n);
            if n > budget {
                let msg = format!("script ran out of its budget of {budget} steps");
                return Err(mlua::Error::runtime(format!("{}{msg}", running_at(lua))));
            }
            if n % 1024 == 0 && d.get().is_some_and(|t| Instant::now() > t) {
                return Err(mlua::Error::runtime(format!("{}script ran out of time", running_at(lua))));
            }
            Ok(VmState::Continue)
        });
        Ok(Sandbox { lua, prints, steps, deadline, limits })
    }

    /// Reset the budget before a call.
    pub fn arm(&self) {
        self.steps.set(0);
        self.deadline.set(Some(Instant::now() + self.limits.time));
    }

    pub fn take_prints(&self) -> Vec<String> {
        std::mem::take(&mut self.prints.borrow_mut())
    }

    /// Run a chunk of source text (never bytecode) under the budget; returns its results as text.
    pub fn run(&self, source: &str, name: &str) -> mlua::Result<Vec<String>> {
        self.arm();
        let result = self
            .lua
            .load(source)
            .set_name(format!("@{name}"))
            .set_mode(ChunkMode::Text)
            .into_function()
            .and_then(|f| f.call::<mlua::MultiValue>(()))
            .map(|values| values.iter().map(|v| v.to_string().unwrap_or_else(|_| format!("{v:?}"))).collect());
        if result.is_err() {
            // A failed script may leave garbage near the memory cap: free it for the next one.
            let _ = self.lua.gc_collect();
        }
        result
    }
}

/// `file:line: ` of the Lua code running when the interrupt fired (empty when unknown), so a
/// runaway script is reported where it loops, like any other runtime error.
fn running_at(lua: &Lua) -> String {
    lua.inspect_stack(0, |d| {
        let src = d.source().short_src.map(|s| s.into_owned());
        src.zip(d.current_line()).map(|(s, l)| format!("{s}:{l}: "))
    })
    .flatten()
    .unwrap_or_default()
}

/// Load a module file as text in its own environment; its returned table is frozen so no other
/// script can change it.
/// `path` should come from [`find_module`]; whatever it is, only a regular file outside `/proc`,
/// `/dev` and `/sys` is read.
pub fn load_module(lua: &Lua, path: &Path) -> mlua::Result<Value> {
    let cannot = |e: &dyn std::fmt::Display| mlua::Error::runtime(format!("cannot read {}: {e}", path.display()));
    let real = path.canonicalize().map_err(|e| cannot(&e))?;
    if ["/proc", "/dev", "/sys"].iter().any(|r| real.starts_with(r)) || !real.is_file() {
        return Err(cannot(&"not a module file"));
    }
    let text = std::fs::read_to_string(&real).map_err(|e| cannot(&e))?;
    let name = path.display().to_string();
    // Its own environment: globals it writes stay its own (the shared ones are read-only).
    let env = lua.create_table()?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", lua.globals())?;
    env.set_metatable(Some(meta))?;
    let f =
        lua.load(&text).set_name(format!("@{name}")).set_mode(ChunkMode::Text).set_environment(env).into_function()?;
    let value: Value = f.call(())?;
    if let Value::Table(t) = &value {
        t.set_readonly(true);
    }
    Ok(value)
}
