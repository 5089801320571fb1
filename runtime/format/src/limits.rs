//! Named limits: how far the runtime lets input and settings go.

// Watch
/// Shortest quiet period `cav watch` accepts after the last file event before it reloads, in ms.
/// Below this the debouncer ticks so often that an idle watch keeps a core busy.
pub const WATCH_DEBOUNCE_MIN_MS: u64 = 5;
/// Longest quiet period `cav watch` accepts, in ms: beyond it an edit seems never to be picked up.
pub const WATCH_DEBOUNCE_MAX_MS: u64 = 5_000;
/// Empty slots (of earlier file versions) the watch cache keeps before it numbers its files afresh
/// and parses them again; below it, each forgotten version costs a few dozen bytes.
pub const WATCH_CACHE_EMPTY_SLOTS: usize = 4096;
