//! The sandbox every script runs in: Luau with an explicit library list, read-only libraries,
//! no way to reach files, the clock or randomness, a memory cap and an instruction budget per
//! call. `require` only finds modules in the pack's declared script roots, as source text.
//!
//! Every call ends within its budget whatever the script does: the interrupt counts steps (per
//! call and per game: the limits that decide, the same under any load) and checks a far
//! wall-clock safety net at every callback, and what a single C library call can work on is bounded —
//! the memory cap bounds every input, `prelude.luau` makes callbacks of C functions (sort
//! comparators, gsub replacements, foreach) checked steps and refuses searches and moves whose
//! worst case is too long, `print` has a byte budget per call and per game, and a script file
//! or chunk larger than `MAX_SCRIPT_BYTES` is refused before it is read or compiled (compiling
//! happens outside the Lua heap, where the memory cap does not reach).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use cav_content::pack::{RealDirs, resolve_below};
use cav_format::limits;
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value, VmState};

use crate::bytecode;

pub use cav_format::limits::MAX_SCRIPT_BYTES;

/// Resource limits of a sandbox.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes the Lua state may allocate.
    pub memory: usize,
    /// Interrupt checks (loop iterations and calls, roughly) one call may take.
    pub steps: u64,
    /// Interrupt checks every call of one game may take together (until `Sandbox::new_game`).
    pub steps_per_game: u64,
    /// Wall-clock safety net of one call, checked at every interrupt (the step budgets decide).
    pub time: Duration,
    /// Bytes a script may `print` in one call.
    pub print_per_call: usize,
    /// Bytes scripts may `print` in one game (until `Sandbox::new_game`).
    pub print_per_game: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: limits::SCRIPT_MEMORY,
            steps: limits::SCRIPT_STEPS,
            steps_per_game: limits::SCRIPT_STEPS_PER_GAME,
            time: Duration::from_millis(limits::SCRIPT_TIME_MS),
            print_per_call: limits::SCRIPT_PRINT_PER_CALL,
            print_per_game: limits::SCRIPT_PRINT_PER_GAME,
        }
    }
}

/// Chunk name of the sandbox's own Lua code (`prelude.luau`); `running_at` looks past it.
pub(crate) const PRELUDE: &str = "=[sandbox]";

/// Globals a script never sees (removed before the environment is frozen).
const REMOVED: &[&str] =
    &["loadstring", "load", "dofile", "loadfile", "getfenv", "setfenv", "collectgarbage", "gcinfo", "newproxy"];

pub struct Sandbox {
    pub lua: Lua,
    /// Lines printed by scripts since the last `take_prints`.
    prints: Rc<RefCell<Vec<String>>>,
    /// Bytes printed in this call and in this game.
    printed: Rc<Cell<(usize, usize)>>,
    steps: Rc<Cell<u64>>,
    /// Steps taken in this game (until `new_game`).
    game_steps: Rc<Cell<u64>>,
    /// Steps taken in the games before this one (`steps_taken`).
    earlier_steps: Cell<u64>,
    deadline: Rc<Cell<Option<Instant>>>,
    /// Where the running script was when its memory passed three quarters of the cap.
    high_water: Rc<RefCell<(usize, Option<String>)>>,
    limits: Limits,
    /// The modules `require` gave in this game, by name: emptied by `new_game`, so every game
    /// instantiates them afresh (a module's state lives for one game).
    required: Table,
    /// The metatable of every module instance's environment (`instantiate`).
    pub module_env: Table,
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
    locate_module_in(roots, name, &RealDirs::default())
}

/// [`locate_module`], resolving each script root once for every module looked up with `real`.
pub fn locate_module_in(roots: &[PathBuf], name: &str, real: &RealDirs) -> Result<PathBuf, String> {
    if !valid_module(name) {
        return Err(format!("`{name}` is not a module name (dotted lower-case words)"));
    }
    let rel = name.replace('.', "/");
    for root in roots {
        for ext in ["luau", "lua"] {
            let rel = PathBuf::from(format!("{rel}.{ext}"));
            if !root.join(&rel).is_file() {
                continue;
            }
            let real_root = real.real(root).ok_or_else(|| format!("cannot read script root {}", root.display()))?;
            let real = resolve_below(root, &real_root, &rel).ok_or_else(|| format!("cannot read module `{name}`"))?;
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
        lua.set_memory_limit(limits.memory)?;
        let prints = Rc::new(RefCell::new(Vec::new()));
        let printed = Rc::new(Cell::new((0usize, 0usize)));
        let g = lua.globals();
        for name in REMOVED {
            g.raw_set(*name, Value::Nil)?;
        }
        // Dice come only from the engine: no random numbers of Lua's own.
        let math: Table = g.get("math")?;
        math.raw_set("random", Value::Nil)?;
        math.raw_set("randomseed", Value::Nil)?;
        g.raw_set("print", print_fn(&lua, prints.clone(), printed.clone(), &limits)?)?;
        // `require`: modules from the script roots only, read and compiled once (`chunks`),
        // instantiated once per game (`required`, emptied by `new_game`), frozen.
        let required = lua.create_table()?;
        // Every module instance's environment reads the shared globals through this one
        // metatable (read-only: no script reaches it, and none could change it if one did).
        let module_env = lua.create_table()?;
        module_env.raw_set("__index", lua.globals())?;
        module_env.set_readonly(true);
        g.raw_set("require", require_fn(&lua, roots, required.clone(), module_env.clone())?)?;
        let steps = Rc::new(Cell::new(0u64));
        let game_steps = Rc::new(Cell::new(0u64));
        // `charge(n)`: n steps more, for a callback a C function makes (a comparator, a
        // replacement), whose own work may cost far more than one step; the next interrupt
        // holds the count to the budgets. Only the prelude holds it.
        let (s, g) = (steps.clone(), game_steps.clone());
        let charge = lua.create_function(move |_, n: u32| {
            s.set(s.get().saturating_add(n.into()));
            g.set(g.get().saturating_add(n.into()));
            Ok(())
        })?;
        // Wrap the library functions whose C work a script could make unbounded.
        bytecode::chunk(&lua, include_str!("prelude.luau"), PRELUDE.to_owned()).call::<()>((
            limits::SCRIPT_PATTERN_WORK,
            limits::SCRIPT_TABLE_MOVE,
            charge,
            limits::SCRIPT_CALLBACK_STEPS,
        ))?;
        lua.sandbox(true)?;
        let deadline: Rc<Cell<Option<Instant>>> = Rc::new(Cell::new(None));
        let high_water: Rc<RefCell<(usize, Option<String>)>> = Rc::new(RefCell::new((0, None)));
        set_interrupt(&lua, &limits, &steps, &game_steps, &deadline, &high_water);
        Ok(Sandbox {
            lua,
            prints,
            printed,
            steps,
            game_steps,
            earlier_steps: Cell::new(0),
            deadline,
            high_water,
            limits,
            required,
            module_env,
        })
    }

    /// Reset the budget before a call.
    pub fn arm(&self) {
        self.steps.set(0);
        *self.high_water.borrow_mut() = (self.lua.used_memory(), None);
        self.printed.set((0, self.printed.get().1));
        self.deadline.set(Some(Instant::now() + self.limits.time));
    }

    /// End the budget after a call: Lua code the host itself runs between calls (mlua's helper
    /// chunks when a view type is first made) is not charged to the last script.
    pub fn disarm(&self) {
        self.deadline.set(None);
    }

    /// A new game starts: reset the per-game budgets, forget lines not yet taken and the
    /// modules `require` gave, so nothing the last game did reaches this one.
    pub fn new_game(&self) {
        // Luau has no emergency collection: an allocation past the cap fails even when garbage
        // could free the room. Garbage an earlier game left (a handler that made megabytes of
        // it) must not make this one run out of memory, so a heap past half the cap is
        // collected here. (Normal games use well under a quarter of it: no cost for them.)
        if self.lua.used_memory() > self.limits.memory / 2 {
            let _ = self.lua.gc_collect();
        }
        self.printed.set((0, 0));
        self.earlier_steps.set(self.steps_taken());
        self.game_steps.set(0);
        self.prints.borrow_mut().clear();
        // `clear` fails only on a read-only table, which `required` never is.
        let cleared = self.required.clear();
        debug_assert!(cleared.is_ok());
    }

    /// Steps every script has taken since the sandbox was made, in every game: what a command
    /// that plays many games (exact odds) holds to a budget of its own.
    pub fn steps_taken(&self) -> u64 {
        self.earlier_steps.get().saturating_add(self.game_steps.get())
    }

    /// Whether lines printed wait to be taken (`take_prints`).
    pub fn has_prints(&self) -> bool {
        !self.prints.borrow().is_empty()
    }

    pub fn take_prints(&self) -> Vec<String> {
        std::mem::take(&mut self.prints.borrow_mut())
    }

    /// Run a chunk of source text (never bytecode: text that looks like it is refused) under the
    /// budget; returns its results as text.
    pub fn run(&self, source: &str, name: &str) -> mlua::Result<Vec<String>> {
        self.arm();
        check_size(source.len(), name)?;
        let result = bytecode::chunk(&self.lua, source, format!("@{name}"))
            .into_function()
            .and_then(|f| f.call::<mlua::MultiValue>(()))
            .map(|values| values.iter().map(|v| v.to_string().unwrap_or_else(|_| format!("{v:?}"))).collect());
        self.disarm();
        if result.is_err() {
            // A failed script may leave garbage near the memory cap: free it for the next one.
            let _ = self.lua.gc_collect();
        }
        result.map_err(|e| self.locate_memory_error(e, name))
    }

    /// A memory error carries no location (the stack is gone when it arrives): name the file
    /// and the cap instead.
    pub fn locate_memory_error(&self, err: mlua::Error, file: &str) -> mlua::Error {
        match err {
            mlua::Error::MemoryError(_) => {
                let at = self.high_water.borrow_mut().1.take().filter(|a| !a.is_empty());
                let at = at.unwrap_or_else(|| format!("{file}: "));
                mlua::Error::runtime(format!(
                    "{at}script ran out of memory (the sandbox has {} bytes)",
                    self.limits.memory
                ))
            }
            e => e,
        }
    }
}

/// `print`: lines kept for the host (`take_prints`), within a byte budget per call and per game.
fn print_fn(
    lua: &Lua,
    out: Rc<RefCell<Vec<String>>>,
    count: Rc<Cell<(usize, usize)>>,
    limits: &Limits,
) -> mlua::Result<Function> {
    let (per_call, per_game) = (limits.print_per_call, limits.print_per_game);
    lua.create_function(move |lua, args: mlua::Variadic<Value>| {
        // Count as the line is built, so a huge line is refused before it is copied whole.
        let mut line = String::new();
        let (mut call, mut game) = count.get();
        for (i, v) in args.iter().enumerate() {
            let text = match v {
                Value::String(s) if s.as_bytes().len() > per_call => None,
                v => Some(v.to_string().unwrap_or_else(|_| format!("{v:?}"))),
            };
            let size = text.as_ref().map_or(usize::MAX, |t| t.len() + usize::from(i > 0));
            (call, game) = (call.saturating_add(size), game.saturating_add(size));
            if call > per_call || game > per_game {
                return Err(mlua::Error::runtime(format!(
                    "{}print: over the budget of {per_call} bytes a call and {per_game} bytes a game",
                    running_at(lua)
                )));
            }
            if i > 0 {
                line.push('\t');
            }
            line.push_str(&text.unwrap_or_default());
        }
        count.set((call, game));
        out.borrow_mut().push(line);
        Ok(())
    })
}

/// `require`: modules from the script roots only, read and compiled once, instantiated once per game
/// in `cache` (`Sandbox::required`); `meta` is `Sandbox::module_env`.
fn require_fn(lua: &Lua, roots: Vec<PathBuf>, cache: Table, meta: Table) -> mlua::Result<Function> {
    let chunks: Rc<RefCell<HashMap<String, Function>>> = Rc::default();
    let roots = Rc::new(roots);
    let real = Rc::new(RealDirs::default());
    lua.create_function(move |lua, name: String| {
        if let Some(m) = cache.raw_get::<Option<Value>>(name.as_str())? {
            return Ok(m);
        }
        let chunk = chunks.borrow().get(&name).cloned();
        let chunk = match chunk {
            Some(chunk) => chunk,
            None => {
                let path = locate_module_in(&roots, &name, &real).map_err(mlua::Error::runtime)?;
                let chunk = load_resolved(lua, &path, &path)?;
                chunks.borrow_mut().insert(name.clone(), chunk.clone());
                chunk
            }
        };
        let value = instantiate(lua, &chunk, &meta)?;
        cache.raw_set(name.as_str(), value.clone())?;
        Ok(value)
    })
}

/// The interrupt that holds every call to its budgets (`Limits`), while armed (`Sandbox::arm`).
fn set_interrupt(
    lua: &Lua,
    limits: &Limits,
    steps: &Rc<Cell<u64>>,
    game_steps: &Rc<Cell<u64>>,
    deadline: &Rc<Cell<Option<Instant>>>,
    high_water: &Rc<RefCell<(usize, Option<String>)>>,
) {
    let (s, g, d, hw) = (steps.clone(), game_steps.clone(), deadline.clone(), high_water.clone());
    let (budget, game_budget) = (limits.steps, limits.steps_per_game);
    // Each time the heap has grown by a sixteenth of the cap, remember where the script is: an
    // allocation failure carries no location of its own, so this names the line that grew it.
    let growth = (limits.memory / 16).max(1);
    lua.set_interrupt(move |lua| {
        // Disarmed (between calls: mlua's own helper chunks): no budget to check.
        let Some(deadline) = d.get() else { return Ok(VmState::Continue) };
        let n = s.get() + 1;
        s.set(n);
        let total = g.get() + 1;
        g.set(total);
        let used = lua.used_memory();
        let mut mark = hw.borrow_mut();
        if used >= mark.0 + growth {
            *mark = (used, Some(running_at(lua)));
        } else if used < mark.0 {
            mark.0 = used; // collected: measure growth from here
        }
        drop(mark);
        if n > budget {
            let msg = format!("script ran out of its budget of {budget} steps");
            return Err(mlua::Error::runtime(format!("{}{msg}", running_at(lua))));
        }
        if total > game_budget {
            let msg = format!("the scripts ran out of their budget of {game_budget} steps for the game");
            return Err(mlua::Error::runtime(format!("{}{msg}", running_at(lua))));
        }
        // Every time, not every n-th: a C call between two interrupts may have used the time.
        if Instant::now() > deadline {
            return Err(mlua::Error::runtime(format!("{}script ran out of time", running_at(lua))));
        }
        Ok(VmState::Continue)
    });
}

/// `file:line: ` of the script code running when the interrupt fired (empty when unknown), so a
/// runaway script is reported where it loops, like any other runtime error. Frames of C
/// functions and of the sandbox's own prelude are looked past.
fn running_at(lua: &Lua) -> String {
    (0..32)
        .map_while(|level| {
            lua.inspect_stack(level, |d| {
                let source = d.source();
                let script = source.source.as_deref() != Some(PRELUDE);
                let at = source.short_src.map(|s| s.into_owned()).zip(d.current_line()).filter(|_| script);
                at.map(|(s, l)| format!("{s}:{l}: "))
            })
        })
        .flatten()
        .next()
        .unwrap_or_default()
}

/// Refuse a script of `len` bytes over `MAX_SCRIPT_BYTES`.
fn check_size(len: usize, name: &str) -> mlua::Result<()> {
    if len > MAX_SCRIPT_BYTES {
        return Err(mlua::Error::runtime(format!(
            "{name}: script of {len} bytes is larger than the {MAX_SCRIPT_BYTES} bytes a script may have"
        )));
    }
    Ok(())
}

/// Read a script file, refusing one larger than `MAX_SCRIPT_BYTES` before reading it.
pub fn read_script(path: &Path) -> mlua::Result<String> {
    let err = |e: std::io::Error| mlua::Error::runtime(format!("cannot read {}: {e}", path.display()));
    let meta = std::fs::metadata(path).map_err(err)?;
    // Only a regular file: opening a FIFO would block, a device never end.
    if !meta.is_file() {
        return Err(mlua::Error::runtime(format!("cannot read {}: not a regular file", path.display())));
    }
    let size = meta.len();
    check_size(usize::try_from(size).unwrap_or(usize::MAX), &path.display().to_string())?;
    // Read at most one byte more than allowed, in case the file grew since.
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(std::fs::File::open(path).map_err(err)?, MAX_SCRIPT_BYTES as u64 + 1),
        &mut text,
    )
    .map_err(err)?;
    check_size(text.len(), &path.display().to_string())?;
    Ok(text)
}

/// Load a module file as text in its own environment; its returned table is frozen so no other
/// script can change it. (`load_chunk` then `instantiate`.)
/// `path` should come from [`find_module`]; whatever it is, only a regular file outside `/proc`,
/// `/dev` and `/sys` is read.
pub fn load_module(sandbox: &Sandbox, path: &Path) -> mlua::Result<Value> {
    instantiate(&sandbox.lua, &load_chunk(&sandbox.lua, path)?, &sandbox.module_env)
}

/// Read and compile a module file (as text: see [`load_module`]) without running it: the chunk
/// [`instantiate`] makes instances of.
pub fn load_chunk(lua: &Lua, path: &Path) -> mlua::Result<Function> {
    let real = path.canonicalize().map_err(|e| mlua::Error::runtime(format!("cannot read {}: {e}", path.display())))?;
    load_resolved(lua, &real, path)
}

/// [`load_chunk`] of `real`, a path whose links are resolved already ([`locate_module`]'s
/// answers are), named `path`.
pub(crate) fn load_resolved(lua: &Lua, real: &Path, path: &Path) -> mlua::Result<Function> {
    if ["/proc", "/dev", "/sys"].iter().any(|r| real.starts_with(r)) || !real.is_file() {
        return Err(mlua::Error::runtime(format!("cannot read {}: not a module file", path.display())));
    }
    let text = read_script(real)?;
    let name = path.display().to_string();
    bytecode::chunk(lua, &text, format!("@{name}")).into_function()
}

/// Run a module's chunk as a new instance: a copy of it (`deep_clone`: the compiled code is
/// shared) in an environment of its own, so its top-level locals, the tables it makes and the
/// globals it writes are new, whatever earlier instances did. Once it has loaded, every table it
/// returned or left in its globals is frozen (`freeze`): a handler that writes one stops with an
/// error, so what a script remembers lives in the game (`ctx.set_flag`), where odds, replays and
/// shards see it. `meta` is `Sandbox::module_env`.
pub fn instantiate(lua: &Lua, chunk: &Function, meta: &Table) -> mlua::Result<Value> {
    // Its own environment: globals it writes stay its own (the shared ones are read-only).
    let env = lua.create_table()?;
    env.set_metatable(Some(meta.clone()))?;
    let f = chunk.deep_clone()?;
    f.set_environment(env.clone())?;
    let value: Value = f.call(())?;
    freeze(&[Value::Table(env), value.clone()])?;
    Ok(value)
}

/// The most tables one module's instance may leave to be frozen; beyond it the instance fails
/// (a module that builds that many tables at load is a hostile one).
const MAX_FROZEN_TABLES: usize = 100_000;

/// Make every table reachable from `roots` (keys and values, not metatables) read-only.
fn freeze(roots: &[Value]) -> mlua::Result<()> {
    // A module leaves a handful of tables: a list searched is cheaper than a set, until there
    // are many (a hostile module's thousands stay linear in time).
    let mut seen: Vec<*const std::ffi::c_void> = Vec::new();
    let mut many = std::collections::HashSet::new();
    let mut stack: Vec<Table> =
        roots.iter().filter_map(|v| if let Value::Table(t) = v { Some(t.clone()) } else { None }).collect();
    while let Some(t) = stack.pop() {
        let at = t.to_pointer();
        let first_time = if seen.len() < 32 {
            if seen.contains(&at) {
                false
            } else {
                seen.push(at);
                true
            }
        } else {
            if many.is_empty() {
                many.extend(seen.iter().copied());
            }
            many.insert(at)
        };
        if !first_time {
            continue;
        }
        if seen.len().max(many.len()) > MAX_FROZEN_TABLES {
            return Err(mlua::Error::runtime(format!(
                "the module leaves more than {MAX_FROZEN_TABLES} tables when it loads"
            )));
        }
        t.for_each(|k: Value, v: Value| {
            for x in [k, v] {
                if let Value::Table(inner) = x {
                    stack.push(inner);
                }
            }
            Ok(())
        })?;
        t.set_readonly(true);
    }
    Ok(())
}
