//! A process-wide, in-memory cache of the Luau bytecode compiled from script source text, so a
//! reload (or the check of every ruleset, then the host) compiles each script once, not each time
//! it is loaded.
//!
//! Luau does not verify bytecode: only bytecode this process compiled itself, from the text
//! given, is ever loaded. Nothing is read from or written to disk, and a source that looks like
//! bytecode (what Luau's loader would take as a binary chunk) is never compiled here: it goes the
//! text path, which refuses it as before.
//!
//! The cache is keyed by the exact source text. Bytecode does not hold the chunk name (it is given
//! to `luau_load`), and every entry is compiled with one set of options — Luau's defaults, the ones
//! the text path (`luaL_loadbuffer` without options) uses — so the text alone is the key and a
//! cached load makes the same function a text load makes. Source that does not compile is not
//! cached: it goes the text path, whose error message (chunk name, line) is the one users know.
//!
//! The cache is bounded by the bytes it holds (text and bytecode), least recently used out first,
//! so packs with many or large scripts cannot make it grow without end.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use mlua::Lua;
use mlua::chunk::{Chunk, ChunkMode, Compiler};

/// Bytes of text and bytecode the process-wide cache holds at most.
pub const CACHE_BYTES: usize = 64 << 20;

/// Bookkeeping bytes counted per entry on top of its text and bytecode.
const ENTRY_OVERHEAD: usize = 64;

/// Luau's default compile options, the ones `luaL_loadbuffer` compiles text with.
const COMPILER: Compiler = Compiler::new();

struct Slot {
    code: Arc<[u8]>,
    /// Value of `Cache::clock` when last used.
    used: u64,
}

/// Bytecode by source text, at most `cap` bytes of it.
pub(crate) struct Cache {
    map: HashMap<Box<str>, Slot>,
    bytes: usize,
    clock: u64,
    cap: usize,
}

impl Cache {
    pub(crate) fn new(cap: usize) -> Cache {
        Cache { map: HashMap::new(), bytes: 0, clock: 0, cap }
    }

    fn cost(source: &str, code: &[u8]) -> usize {
        source.len() + code.len() + ENTRY_OVERHEAD
    }

    fn get(&mut self, source: &str) -> Option<Arc<[u8]>> {
        self.clock += 1;
        let slot = self.map.get_mut(source)?;
        slot.used = self.clock;
        Some(slot.code.clone())
    }

    fn insert(&mut self, source: &str, code: Arc<[u8]>) {
        let cost = Self::cost(source, &code);
        if cost > self.cap || self.map.contains_key(source) {
            return;
        }
        if self.bytes + cost > self.cap {
            // Down to three quarters of the cap, oldest first, in one pass: a pack of very many
            // small scripts then costs a sort every so many inserts, not a scan at each. Stamps of
            // use are unique, so the oldest are those up to a stamp.
            let mut by_age: Vec<(u64, usize)> =
                self.map.iter().map(|(k, s)| (s.used, Self::cost(k, &s.code))).collect();
            by_age.sort_unstable();
            let goal = (self.cap / 4 * 3).saturating_sub(cost);
            let (mut bytes, mut oldest_kept) = (self.bytes, 0);
            for (used, c) in by_age {
                if bytes <= goal {
                    break;
                }
                bytes -= c;
                oldest_kept = used + 1;
            }
            self.map.retain(|_, s| s.used >= oldest_kept);
            self.bytes = bytes;
        }
        self.clock += 1;
        self.bytes += cost;
        self.map.insert(source.into(), Slot { code, used: self.clock });
    }

    /// The bytecode of `source`, compiled now or earlier; `None` when it does not compile (or
    /// looks like bytecode itself).
    pub(crate) fn bytecode(this: &Mutex<Cache>, source: &str) -> Option<Arc<[u8]>> {
        if looks_binary(source.as_bytes()) {
            return None;
        }
        let lock = || this.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(code) = lock().get(source) {
            return Some(code);
        }
        // Compiled outside the lock; `compile` refuses the error bytecode Luau makes of bad source
        // (first byte 0), but check it here too: that must never be cached.
        let code: Arc<[u8]> = COMPILER.compile(source).ok().filter(|c| c.first().is_some_and(|&b| b != 0))?.into();
        lock().insert(source, code.clone());
        Some(code)
    }

    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| Mutex::new(Cache::new(CACHE_BYTES)));

/// Whether Luau's loader would take `data` as a binary chunk (what `luaL_loadbuffer` checks).
fn looks_binary(data: &[u8]) -> bool {
    // SAFETY: reads at most the first two bytes of `data`, within its length.
    unsafe { mlua::ffi::luaL_isbytecode(data.as_ptr().cast(), data.len()) }
}

/// A chunk of the script text `source` named `name` (e.g. `@path`): its cached bytecode when it
/// compiles, else the text itself (refused if binary; a syntax error reported as ever).
pub(crate) fn chunk<'a>(lua: &Lua, source: &'a str, name: String) -> Chunk<'a> {
    match Cache::bytecode(&CACHE, source) {
        Some(code) => lua.load(code.to_vec()).set_name(name).set_mode(ChunkMode::Binary),
        None => lua.load(source).set_name(name).set_mode(ChunkMode::Text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_by_bytes_least_recently_used_out_first() {
        let cache = Mutex::new(Cache::new(4096));
        let sources: Vec<String> =
            (0..100).map(|i| format!("local t = {{}} for i = 1, {i} do t[i] = i * {i} end return #t")).collect();
        for s in &sources {
            assert!(Cache::bytecode(&cache, s).is_some());
            let c = cache.lock().unwrap();
            assert!(c.bytes() <= 4096, "{} bytes cached", c.bytes());
            let counted: usize = c.map.iter().map(|(k, s)| Cache::cost(k, &s.code)).sum();
            assert_eq!(c.bytes(), counted);
        }
        let n = cache.lock().unwrap().len();
        assert!(n > 1 && n < 100, "{n} entries");
        // The most recent ones are kept, the oldest went first.
        assert!(cache.lock().unwrap().map.contains_key(sources[99].as_str()));
        assert!(!cache.lock().unwrap().map.contains_key(sources[0].as_str()));
        // Using an entry keeps it over older ones.
        let keep = &sources[100 - n];
        let _ = Cache::bytecode(&cache, keep);
        let _ = Cache::bytecode(&cache, "return 'one more'");
        assert!(cache.lock().unwrap().map.contains_key(keep.as_str()));
        // An entry larger than the whole cache is compiled but not kept.
        let big = format!("return '{}'", "x".repeat(5000));
        assert!(Cache::bytecode(&cache, &big).is_some());
        assert!(!cache.lock().unwrap().map.contains_key(big.as_str()));
        assert!(cache.lock().unwrap().bytes() <= 4096);
    }

    #[test]
    fn bad_source_and_bytecode_are_not_cached() {
        let cache = Mutex::new(Cache::new(1 << 20));
        assert!(Cache::bytecode(&cache, "return +").is_none());
        let code = Cache::bytecode(&cache, "return 1").unwrap();
        let as_text = std::str::from_utf8(&code);
        if let Ok(text) = as_text {
            assert!(Cache::bytecode(&cache, text).is_none(), "bytecode passed as text is not compiled");
        }
        assert!(Cache::bytecode(&cache, "\x06\x01junk").is_none());
        assert_eq!(cache.lock().unwrap().len(), 1);
    }
}
