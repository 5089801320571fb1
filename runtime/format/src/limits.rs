//! Named limits of the runtime: every bound a pack or a script can run into, in one place.

// Scripts
/// Bytes the Lua state of the script sandbox may allocate. Measured: the sandbox itself (libraries,
/// prelude) takes ~650 KB and the Quick-Start scripts ~35 KB more; the cap bounds what any single
/// library call (sort, find, concat, …) can work on.
pub const SCRIPT_MEMORY: usize = 4 * 1024 * 1024;
/// Largest script file (or chunk) the sandbox compiles: checked before the file is read, since
/// compiling happens outside the Lua heap.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;
/// Interrupt checks (loop iterations and calls, roughly) one hook call may take.
pub const SCRIPT_STEPS: u64 = 2_000_000;
/// Wall-clock budget of one hook call, in milliseconds (checked at every interrupt).
pub const SCRIPT_TIME_MS: u64 = 100;
/// Worst-case steps a single pattern or plain search (`string.find`, `match`, `gmatch`, `gsub`,
/// `split`) may cost: pattern length × subject length^(repetitions + 1) × 2^optionals.
pub const SCRIPT_PATTERN_WORK: f64 = 5e7;
/// Elements one `table.move` may move.
pub const SCRIPT_TABLE_MOVE: usize = 1 << 18;
/// Bytes a script may `print` in one hook call, and in one game.
pub const SCRIPT_PRINT_PER_CALL: usize = 64 * 1024;
pub const SCRIPT_PRINT_PER_GAME: usize = 1024 * 1024;
/// Longest modifier label (`ctx.add_modifier`) or forbid reason (`ctx.forbid`), in bytes.
pub const SCRIPT_LABEL_BYTES: usize = 200;
/// Largest |value| of one scripted modifier (`ctx.add_modifier`).
pub const SCRIPT_MODIFIER_VALUE: i32 = 1_000;
/// Modifiers one handler call may add.
pub const SCRIPT_MODIFIERS_PER_CALL: usize = 64;
