//! Every limit the platform puts on what a pack may ask for, in one place. A pack is untrusted
//! input: each limit keeps a hostile or broken file from crashing, hanging or exhausting the
//! memory of `cav validate`, `cav watch` or `cav play`, and each is far above anything real
//! content needs. A pack that crosses one gets a located diagnostic, never a crash.
//!
//! Sections are grouped by the part of the platform that enforces them.

// Loader

/// Largest content file read, in bytes (4 MiB; the largest official file is 16 KB). Enforced by
/// `cav_content::pack::MAX_FILE_BYTES`, which must equal this (a test holds them together).
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// Models one side may field, and one game hold (scenarios, rosters, scenario tests, replayed
/// logs): a 10,000-TV full-rules force fields ~55; 1,000 models play a full-rules game in ~5 s.
pub const MAX_MODELS_PER_SIDE: usize = 500;
pub const MAX_MODELS: usize = 1_000;
/// Attributes one ruleset declares for its models, and for its weapons (`attributes:`,
/// `weapon_attributes:`; the schema's `maxItems`): every card holds a value of each per damage
/// column, so a ruleset of thousands would make every card megabytes. CAV declares 4, Infinity 4.
pub const MAX_ATTRIBUTES: usize = 64;
/// Bytes of every file one load reads together (the bundled content is ~1.2 MB): what parsing
/// holds grows ~15× the text, so many files each under `MAX_FILE_BYTES` must not add up to
/// gigabytes.
pub const MAX_LOAD_BYTES: u64 = 32 * 1024 * 1024;

/// Deepest nesting of collections (sequences and mappings, block or flow) in a YAML document.
/// Official content nests under 10 levels. Parsing, conversion, schema validation and dropping a
/// value all recurse once per level, so this bounds the stack any file can make them use; checked
/// by a streaming pre-scan before any tree is built.
pub const MAX_DEPTH: usize = 64;

/// Most nodes (scalars and collections, aliases counted as what they expand to) in one file.
/// The largest official file has about 2,000. Each node costs a few hundred bytes once parsed,
/// converted and located, so this caps a file at tens of MB.
pub const MAX_NODES: usize = 200_000;

/// Most bytes of JSON pointers the provenance of one file may hold (every node and mapping key
/// is located by its pointer, so this is the sum of their lengths). Deep nesting or long keys
/// multiply with the node count; this keeps the provenance linear in the file size.
pub const MAX_POINTER_BYTES: usize = 16 * 1024 * 1024;

/// Most diagnostics a run reports in full. The rest are counted in a final "… and N more" line
/// (the error count and exit code still reflect all of them). A thousand is more than anyone
/// reads, and keeps the output of a file made of errors to about a megabyte instead of hundreds.
pub const MAX_DIAGNOSTICS: usize = 1_000;

/// Longest source line, in bytes, that a diagnostic prints with its caret; a longer line (a
/// minified or hostile file) is named by file:line:col only, so a thousand diagnostics on one
/// 4 MiB line do not print it a thousand times.
pub const MAX_SNIPPET_LINE: usize = 1_000;

// Scenarios and dice

/// Longest board side in inches (a scenario's `board`). The largest table the rules describe is
/// 72"; this leaves room for campaigns while keeping placement arithmetic small.
pub const MAX_BOARD_INCHES: f64 = 1_000.0;

/// Farthest a script's forced move (`ctx.move_model`) goes, in inches.
pub const SCRIPT_FORCED_MOVE: f64 = 24.0;

/// Most hexes one placed terrain piece may list (a scenario's or a test's `hexes:`).
pub const MAX_PLACED_HEXES: usize = 10_000;

/// Most dice in one dice expression (`100d6`).
pub const MAX_DICE: u32 = 100;

/// Most sides of one die in a dice expression (`1d1000`). Odds tables and terrain placement are
/// sized by the faces a roll can show, so they stay small.
pub const MAX_DIE_SIDES: u32 = 1_000;

/// Largest constant a dice expression may add (`1d6+1000`).
pub const MAX_DICE_BONUS: i32 = 1_000;

/// Most times one die of an exploding expression (`1d6x`) is rolled again: a chain of sixes
/// must end, and its exact odds stay a finite table.
pub const MAX_DIE_EXPLOSIONS: u32 = 20;

/// Most hit rolls one shot makes under a ruleset's `procedures.attack` (a rate of fire read from
/// attributes), and most damage points one hit deals: a pack's numbers cannot make one shot
/// roll or deal without end.
pub const MAX_ATTACK_ROLLS: i32 = 100;

/// Most rolls on lookup tables one result may chain (`roll_on`, `roll_again`: a system damage
/// table's "roll twice", its sub-tables): a table that rolls itself again on every row, or
/// forced dice that keep choosing such rows, must end. The seed's deepest real chain is 4.
pub const MAX_TABLE_ROLLS: u32 = 32;

/// Most points of a side's activation pool in one turn (`turn_order.pool`): each pays one
/// activation, so this bounds a pooled turn's work whatever a pack's pool says.
pub const MAX_POOL: u32 = 1_000;

/// Longest game in turns (a ruleset's or scenario's `turn_limit`, a rolled `turn_dice`): a game
/// whose bots never close must still end. The rules suggest 8–12.
pub const MAX_TURNS: u32 = 1_000;

/// Most terrain features setup places for one scenario, whatever its `terrain_features` dice roll.
pub const MAX_TERRAIN_FEATURES: usize = 1_000;

/// Most re-rolls of a "roll again" procedure (a salvage container's activation die re-rolled on
/// numbers already used): a die that can never name what is wanted must not roll forever.
pub const MAX_REROLLS: u32 = 100;

// Watch
/// Shortest quiet period `cav watch` accepts after the last file event before it reloads, in ms.
/// Below this the debouncer ticks so often that an idle watch keeps a core busy.
pub const WATCH_DEBOUNCE_MIN_MS: u64 = 5;
/// Longest quiet period `cav watch` accepts, in ms: beyond it an edit seems never to be picked up.
pub const WATCH_DEBOUNCE_MAX_MS: u64 = 5_000;
/// Empty slots (of earlier file versions) the watch cache keeps before it numbers its files afresh
/// and parses them again; below it, each forgotten version costs a pointer per copy of the sources
/// (the cache's, the live load's). High, because numbering afresh costs a cold load's time and
/// its peak of memory: a session saves this many times (~130,000 saves of data files) first.
pub const WATCH_CACHE_EMPTY_SLOTS: usize = 65_536;

// Scripts
/// Bytes the Lua state of the script sandbox may allocate. Measured: the sandbox itself (libraries,
/// prelude) takes ~650 KB and the Quick-Start scripts ~35 KB more; the cap bounds what any single
/// library call (sort, find, concat, …) can work on.
pub const SCRIPT_MEMORY: usize = 4 * 1024 * 1024;
/// Largest script file (or chunk) the sandbox compiles: checked before the file is read, since
/// compiling happens outside the Lua heap.
pub const MAX_SCRIPT_BYTES: usize = 256 * 1024;
/// Interrupt checks (loop iterations and calls, roughly) one hook call may take: the limit that
/// decides, the same on every machine under any load.
pub const SCRIPT_STEPS: u64 = 2_000_000;
/// Largest file `cav sim merge` reads (a result holds counts and sums: a few kilobytes per
/// weapon and modifier source).
pub const MAX_SIM_RESULT_BYTES: u64 = 16 * 1024 * 1024;
/// Steps each callback a library function makes costs (a `table.sort` comparison, a `gsub`
/// replacement, a `foreach` call): what the C function does around it (an error caught by a
/// `pcall` comparator, a metamethod) may cost many times a plain step, and the step budget, not
/// the wall clock, must stop it.
pub const SCRIPT_CALLBACK_STEPS: u32 = 16;
/// Interrupt checks all the scripts of one game may take together (a game of the bundled content
/// takes well under a million).
pub const SCRIPT_STEPS_PER_GAME: u64 = 200_000_000;
/// Wall-clock safety net of one hook call, in milliseconds (checked at every interrupt): far above
/// what `SCRIPT_STEPS` allows on any machine, so the step budget decides, and this only stops
/// work no step counts (a C call the prelude does not bound).
pub const SCRIPT_TIME_MS: u64 = 2_000;
/// Worst-case steps a single pattern or plain search (`string.find`, `match`, `gmatch`, `gsub`,
/// `split`) may cost: pattern length × subject length^(repetitions + 1) × 2^optionals.
pub const SCRIPT_PATTERN_WORK: f64 = 5e7;
/// Elements one `table.move` may move.
pub const SCRIPT_TABLE_MOVE: usize = 1 << 18;
/// Die sequences one `cav odds` command may play over every attack it weighs, and the script
/// steps they may take (each sequence is a game with its own `SCRIPT_STEPS_PER_GAME`).
pub const ODDS_SEQUENCES: u64 = 50_000_000;
pub const ODDS_SCRIPT_STEPS: u64 = 5_000_000_000;
/// Bytes a script may `print` in one hook call, and in one game.
pub const SCRIPT_PRINT_PER_CALL: usize = 64 * 1024;
pub const SCRIPT_PRINT_PER_GAME: usize = 1024 * 1024;
/// Longest modifier label (`ctx.add_modifier`) or forbid reason (`ctx.forbid`), in bytes.
pub const SCRIPT_LABEL_BYTES: usize = 200;
/// Largest |value| of one scripted modifier (`ctx.add_modifier`).
pub const SCRIPT_MODIFIER_VALUE: i32 = 1_000;
/// Effects (modifiers, damage, states, …) one handler call may ask for.
pub const SCRIPT_EFFECTS_PER_CALL: usize = 64;
/// Cards all of a side's held assets (SIGINT) add to one turn's draw deck together: a deck of
/// millions of cards from a hostile `count` would exhaust memory.
pub const HELD_DECK_CARDS: u32 = 256;
/// Inches `area` modifiers (`attack_targets`) may widen an area attack beyond the weapon's own
/// radius (SMART: 1): a bound, so that no script blankets the table.
pub const SCRIPT_AREA_GROWTH: f64 = 6.0;
/// Terrain pieces laid by scripts (`ctx.place_terrain`) lying on the table at once; one more is
/// a script error that stops the game, not a board that grows without end.
pub const SCRIPT_PLACED_TERRAIN: usize = 64;

/// Most markers scripts keep on the board at once (`ctx.place_marker`): each is drawn and
/// handed to every `ctx.markers()`.
pub const SCRIPT_MARKERS: usize = 64;
/// Flags the scripts of one game hold at once (`ctx.set_flag`); one more is a script error that
/// stops the game, not a state that grows without end. Keys and text values are at most
/// `SCRIPT_LABEL_BYTES` long.
pub const SCRIPT_FLAGS: usize = 1024;

// The result cache (`cav-cache`)

/// Bytes the cache directory may hold (entries of every build together): past it, the entries
/// used longest ago are removed as a new one is written.
pub const CACHE_MAX_BYTES: u64 = 256 * 1024 * 1024;
/// Entries the cache directory may hold, whatever their size.
pub const CACHE_MAX_ENTRIES: usize = 4_096;
/// Largest entry read or written (a result bigger than this is not cached): a damaged or planted
/// file cannot make a read allocate more.
pub const CACHE_MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;
/// Files the inputs of one cached result may span, and their bytes together: a larger tree runs
/// without the cache rather than hashing without bound.
pub const CACHE_MAX_INPUT_FILES: usize = 100_000;
pub const CACHE_MAX_INPUT_BYTES: u64 = 2 * MAX_LOAD_BYTES;
