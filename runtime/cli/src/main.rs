//! `cav`: the command-line front end. The only place that touches the terminal, the file
//! system layout and exit codes; everything else lives in the library crates.

/// mimalloc, not the system's malloc: loading, checking, compiling and playing allocate and free
/// many small values, and glibc's allocator was over a quarter of a save's instructions
/// (docs/speed.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod bench;
mod card;
mod commands;
mod coverage;
mod docs;
mod editor;
mod force;
mod hooks;
mod input;
mod map;
mod narrative;
mod new;
mod odds;
mod pack_arg;
mod play;
mod progress;
mod project;
mod replay;
mod reports;
mod result_cache;
mod rosters;
mod runner;
mod show;
mod sim;
mod text_size;
mod viewer;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Exit code: content has errors.
const EXIT_INVALID: u8 = 1;
/// Exit code: the command was used wrongly (clap uses 2 for its own usage errors too).
const EXIT_USAGE: u8 = 2;

#[derive(Parser)]
#[command(
    name = "cav",
    version,
    about = "Content packs, rules and tools for CAV: Strike Operations",
    long_about = "Content packs, rules and tools for CAV: Strike Operations.\n\n\
        Rules live in YAML content packs (content/ for the official rulesets, mods/ for community \
        packs), checked against the JSON Schemas in schemas/. Start with `cav validate`, then \
        `cav list` and `cav show dictator-b --explain`.",
    after_help = "Exit codes: 0 success, 1 invalid content, 2 usage error.\n\
        Content is found under --root (default: the nearest directory above the working \
        directory that holds content/, else the directory cav was built from)."
)]
struct Cli {
    /// Project root holding content/ and mods/.
    #[arg(long, global = true, env = "CAV_ROOT", value_name = "DIR")]
    root: Option<PathBuf>,
    /// Neither read nor write the result cache (the output of `cav validate`, `list`, `show`,
    /// `hooks`, `coverage` and `force`; the pages, cards and test runs `cav docs`, `card` and
    /// `test` write and print from; the compiled rules `cav play`, `sim`, `replay`, `map`, `odds`
    /// and `dice` start from, with the rosters a game chose and the B of `sim --vs`; the packs'
    /// script roots `cav lua` reads; the type checker's answers; also `CAV_NO_CACHE=1`); `cav
    /// cache info` says where it is.
    #[arg(long, global = true)]
    no_cache: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum CacheAction {
    /// Where the cache is, its entries and their size.
    Info,
    /// Remove every entry (other files in the folder stay).
    Clear,
}

/// What `--deny` can turn into failures.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Deny {
    Warnings,
}

#[derive(Subcommand)]
enum Command {
    /// Check packs: YAML, schemas, dependencies, references, the engine's vocabulary, each
    /// ruleset compiled for the engine, and the Luau scripts. Reports every problem in one run.
    #[command(after_help = "A word the engine does not know (a condition id, an action, an effect target…) is an \
        error; one it recognises but does not implement yet is a warning that says what does not happen \
        (docs/vocabulary.md lists them all).\n\n\
        Examples:\n  cav validate                      all bundled content and mods\n  \
        cav validate mods/iron-wolves     one pack (its dependencies are loaded from content/ and mods/)\n  \
        cav validate iron-wolves          the same pack by its id, from anywhere in the project\n  \
        cav validate path/to/unit.yaml    problems in one file only\n  \
        cav validate --deny warnings      fail (exit 1) on warnings too, e.g. in a mod's CI\n  \
        cav validate --format json        machine-readable, one object per problem\n\n\
        A run over content unchanged since an earlier run (every file of the folders read, byte for byte, the \
        options, the working directory and this build of cav) answers from the result cache with the same \
        output: see `cav cache --help`. Folders holding a symbolic link or a special file are checked every time.")]
    Validate {
        /// Packs (a directory, or the id of a pack of the project or of the pack the working
        /// directory is in), content roots or single YAML files (default: content/ and mods/).
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// `--deny warnings`: warnings make the run fail (exit 1) too.
        #[arg(long, value_enum, value_name = "warnings")]
        deny: Option<Deny>,
    },
    /// How fast the engine plays on this machine: Quick-Start duels and full-rules battles per
    /// second on one core (hooks off and with the packs' scripts), and the exact odds of one attack.
    #[command(after_help = "Wall clock on one core, event log off, bots on both sides; every game is seeded, so the \
        same content plays the same games (the turns played are reported to show it). On a shared machine wall \
        clock varies from run to run: the instruction counts docs/speed.md records come from scripts/bench-games \
        (callgrind).\n\n\
        Examples:\n  cav bench\n  cav bench --games 20000 --battles 200\n  cav bench --format json")]
    Bench {
        /// Quick-Start duels played each way.
        #[arg(long, default_value_t = 20_000)]
        games: u64,
        /// Full-rules battles played each way.
        #[arg(long, default_value_t = 200)]
        battles: u64,
        /// Exact-odds enumerations of the attack.
        #[arg(long, default_value_t = 100)]
        odds: u64,
        /// Threat value of each side's roster in the battles.
        #[arg(long, default_value_t = 1000)]
        tv: u32,
        /// `json`: the report schemas/reports/bench.schema.json describes.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// The result cache: where it is, what it holds, and clearing it.
    #[command(
        after_help = "The output of `cav validate`, `list`, `show` and `hooks`, the compiled rules `cav play`, `sim`, \
        `replay`, `map`, `odds` and `dice` start from, and the type checker's answers are kept in the user's cache directory: CAV_CACHE_DIR, else \
        $XDG_CACHE_HOME/cav (~/.cache/cav), never inside a pack or content folder. Each entry is named by a hash of \
        everything its result depends on and checked on every read; a damaged one is ignored, said on stderr and \
        written again. The folder is bounded (256 MiB, 4,096 entries): the entries used longest ago go first. \
        `--no-cache` (or CAV_NO_CACHE=1) runs any command without it.\n\n\
        Examples:\n  cav cache info\n  cav cache clear"
    )]
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Write the JSON Schemas of every document kind (draft-07, for editors), the editor schemas
    /// (the same with the ids of content/ and mods/ for every reference) to schemas/editor/, the
    /// Luau definitions of the hook API (cav-hooks.d.luau, for luau-lsp) to schemas/, and the
    /// engine's vocabulary reference to docs/vocabulary.md.
    #[command(
        after_help = "Add `# yaml-language-server: $schema=<path>/schemas/editor/model.schema.json` as the first line of a \
        YAML file to get completion and checking in editors that use the YAML language server: keys, the engine's \
        words and the ids of the content (weapons, special attributes, move classes…), a dangling id flagged as you type. \
        The editor schemas carry the ids of content/ and mods/: rerun `cav schema` after adding or renaming documents.\n\n\
        Examples:\n  cav schema                                   everything, ids of content/ and mods/\n  \
        cav schema --ids ../my-pack --out ../my-pack/.schemas   editor schemas with the ids your pack sees"
    )]
    Schema {
        /// Directory to write to (default: <root>/schemas).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Write only the editor schemas, with the ids of these packs and every pack they load
        /// alongside, to --out (default: <root>/schemas/editor).
        #[arg(long, value_name = "PATH", num_args = 1..)]
        ids: Vec<PathBuf>,
        /// Only check that the files are up to date; exit 1 if not.
        #[arg(long)]
        check: bool,
    },
    /// Count documents per kind and pack, or list the documents of one kind.
    #[command(after_help = "Kinds: model, weapon, special_attribute, upgrade, asset, strike, ruleset, range_bands, \
        modifier_table, table, move_class, terrain, model_state, action_type, squad_type, scenario.\n\
        With a kind, each document prints with a line of stats (TV, MV/AV/DC, range and RAV, hooks…).\n\
        Examples:\n  cav list\n  cav list weapon --ruleset cav-quickstart\n  cav list model --format json | jq '.rulesets[].packs[].entries[].id'")]
    List {
        /// A document kind, e.g. `weapon` or `special_attribute`.
        kind: Option<String>,
        /// Only this ruleset (pack id, or `full` / `quickstart`).
        #[arg(long)]
        ruleset: Option<String>,
        /// `json`: the report schemas/reports/list.schema.json describes.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Play a scenario between two bots, headless and deterministic, and tell it turn by turn.
    #[command(
        after_help = "With no arguments: the Quick-Start \"Stand and Fight!\" duel (two Dictator-Bs) on a board with \
        random terrain from seed 1.\nThe same seed and content give byte-identical output and log.\n\
        Full-rules scenarios leave forces to the players: --force gives a side's roster, the bot builds the others\n\
        (--tv, --faction); each roster squad activates on its own draw-deck cards, its upgrades fitted, and its\n\
        FIST models call strikes from its `strike_pools`. Its assets act from its side's hand (SIGINT, drones,\n\
        repair modules) or are set down by the bot in front of its zone before deployment (fortifications,\n\
        minefields); an asset neither does is said on stderr.\n\
        Examples:\n  cav play\n  cav play --seed 7 --log game.jsonl\n  cav play stand-and-fight --ruleset quickstart\n  \
        cav play no-man-s-land --ruleset full --force mods/iron-wolves/forces/wolf-pack.yaml --faction iron-wolves"
    )]
    Play {
        /// Scenario id (default: the ruleset's first scenario that fixes its forces).
        scenario: Option<String>,
        /// Ruleset: `quickstart`, `full`, or a ruleset pack id.
        #[arg(long, default_value = "quickstart")]
        ruleset: String,
        /// Seed of the dice (and of the random terrain).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the event log as JSON lines to FILE.
        #[arg(long, value_name = "FILE")]
        log: Option<PathBuf>,
        /// Print only the summary, not the narrative.
        #[arg(long)]
        quiet: bool,
        /// Also draw the board as the game ended, as SVG (`cav map` draws it as a turn starts).
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
        /// Who plays: `rules` (the rules bot), `search` (the searching bot for every side), or
        /// `SIDE=search` (repeatable: those sides search). The log records it, so `cav replay`
        /// plays the same bots.
        #[arg(long, value_name = "BOT", default_value = "rules")]
        bot: Vec<String>,
        #[command(flatten)]
        rosters: rosters::Rosters,
    },
    /// Replay an event log of `cav play --log` on the current content: say what changed since it
    /// was written, and whether the game still plays event for event the same.
    Replay(replay::ReplayCommand),
    /// Play N games of a scenario with bots on both sides, on every core, and report win rates
    /// (with 95 % intervals), game length, damage and weapon statistics; `cav sim merge` adds
    /// the results of shards.
    Sim(sim::SimCommand),
    /// The exact odds of one attack: every outcome as a fraction, through the real procedures.
    Odds(odds::OddsCommand),
    /// The exact odds of a dice expression, or of a ruleset's roll kind succeeding at each target.
    #[command(after_help = "Dice are written as on Roll20 and Foundry: 2d6, d10, 3d6kh2 / 2d20kl1 (keep highest / \
        lowest), 4d6dl1 (drop), 1d10r1 (a 1 rolled again once), 1d6x or 1d6x>=5 (exploding), 6d6cs>=4 (count the \
        dice showing 4 or more), 1d6+1.\n\
        With --kind, the chance that a roll of the ruleset's roll kind (`roll_kinds:`) succeeds at each target, its \
        natural results and criticals counted, a modifier given with --modifier.\n\
        Exit codes: 0 success, 1 invalid content, 2 usage (a malformed expression, an unknown kind).\n\
        Examples:\n  cav dice 2d20kl1\n  cav dice 6d6cs>=4 --format json\n  \
        cav dice --kind target-lock --ruleset my-game --modifier -1")]
    Dice {
        /// A dice expression (`3d6kh2`).
        #[arg(required_unless_present = "kind", conflicts_with = "kind")]
        expr: Option<String>,
        /// A roll kind of the ruleset (`roll_kinds:`).
        #[arg(long)]
        kind: Option<String>,
        /// Ruleset of the roll kind: `quickstart`, `full`, or a ruleset pack id.
        #[arg(long, default_value = "quickstart")]
        ruleset: String,
        /// Added to the roll (the target of a roll-under kind).
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        modifier: i32,
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Draw the board of a game at the start of a turn, as SVG: terrain, models with bases,
    /// facings and arcs, lines of sight with cover and range, a model's range-band rings.
    Map(map::MapCommand),
    /// Draw models' data cards as the book lays them out, as SVG: name, type, TV, the damage
    /// track with every column (MV, AV, DC, CCV, each weapon's RAV), weapons with range, mounts
    /// and special attributes, the model's special attributes; values the pack notes as assumed
    /// (lost in the source's text) are marked.
    #[command(after_help = "Examples:\n  cav card dictator-b --svg dictator-b.svg\n  \
        cav card dictator-b cobra --svg two.svg                 two cards on one page\n  \
        cav card --pack iron-wolves --svg iron-wolves.svg       a faction sheet: every model of the pack")]
    Card {
        /// Model ids (several are drawn one above the other).
        ids: Vec<String>,
        /// Every model of this pack (a faction sheet).
        #[arg(long, required_unless_present = "ids")]
        pack: Option<String>,
        /// Look in this ruleset (pack id, or `full` / `quickstart`).
        #[arg(long, default_value = "quickstart")]
        ruleset: String,
        /// Write the SVG to FILE.
        #[arg(long, value_name = "FILE")]
        svg: PathBuf,
    },
    /// Watch packs and scripts; on every save reload, swap in valid rules at once, keep the last
    /// good ones when a save breaks something.
    #[command(
        after_help = "Each reload prints one line starting `reloaded` (what changed, milliseconds from the file \
        event to the new rules being live) or, after the located diagnostics, one starting `kept last good`.\n\
        A save of scripts alone is made live with the live rules first (the scripts checked again); the full \
        reload then follows and prints a line only when it finds something the quick one did not.\n\
        Paths must exist and the root must hold packs; a debounce outside 5..=5000 ms is refused (exit 2).\n\
        Ctrl-C stops once the running reload step ends; a second Ctrl-C stops at once.\n\
        Examples:\n  cav watch\n  cav watch --run stand-and-fight --seed 3     replay and show what the edit changed\n  \
        cav watch --test                              re-run the edited packs' scenario tests on every save"
    )]
    Watch {
        /// Packs (a directory or a pack's id) or content roots (default: content/ and mods/).
        paths: Vec<PathBuf>,
        /// Ruleset to compile and play.
        #[arg(long, default_value = "quickstart")]
        ruleset: String,
        /// After each reload, replay this scenario and compare the outcome with the previous rules.
        #[arg(long, value_name = "SCENARIO", conflicts_with = "test")]
        run: Option<String>,
        /// Seed of the replay.
        #[arg(long, default_value_t = 1, requires = "run")]
        seed: u64,
        /// After each reload, re-run the scenario tests of the packs the save edited (all at the
        /// first load) under every ruleset they join, and name each that fails with why.
        #[arg(long)]
        test: bool,
        /// Quiet period in milliseconds after the last file event before reloading (5 to 5000); a
        /// save reported complete (Linux: the file closed after writing) reloads at once.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64)
            .range(cav_format::limits::WATCH_DEBOUNCE_MIN_MS..=cav_format::limits::WATCH_DEBOUNCE_MAX_MS))]
        debounce_ms: u64,
    },
    /// Run the scenario tests (`kind: test` documents) of packs and print `N passed, N failed`.
    #[command(after_help = "With no arguments: the tests of every bundled pack and mod.\n\
        Examples:\n  cav test\n  cav test content/cav-quickstart\n  cav test --filter damage\n  \
        cav test --junit report.xml       and a JUnit report for the CI system\n  \
        cav test --format json | jq '.tests[] | select(.passed | not) | .id'")]
    Test {
        /// Packs: a directory, or a pack's id (default: content/ and mods/).
        paths: Vec<PathBuf>,
        /// Only tests whose id contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Print the event log of failing tests.
        #[arg(long)]
        verbose: bool,
        /// `json`: every run with its failures, as schemas/reports/test.schema.json describes.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Also write a JUnit XML report to FILE (schemas/reports/junit.xsd), for CI systems.
        #[arg(long, value_name = "FILE")]
        junit: Option<PathBuf>,
    },
    /// Start a pack, a weapon, a model, a special attribute (scripted or not), a scenario or a
    /// scenario test from a valid, commented template with the editor modeline, then validate the
    /// pack.
    #[command(after_help = "Nothing is overwritten. A new pack goes into mods/ inside a project checkout, else into \
        the working directory (--dir chooses). The other kinds write into the pack the working directory is in (or \
        any folder of it); elsewhere --pack names the pack by its path or, anywhere in the project, by its id. The \
        pack depends on the full rules, so it joins both rulesets, and the generated test runs under both.\n\
        Examples (from anywhere in the project; inside the pack's folder --pack can be left out):\n  \
        cav new pack ember-hounds\n  \
        cav new weapon ember-gun --pack ember-hounds              weapons/ember-gun.yaml\n  \
        cav new model ember-hound --pack ember-hounds             models/ember-hound.yaml, armed with ember-gun\n  \
        cav new model ember-alpha --extends ember-hound --pack ember-hounds   a variant: only what differs\n  \
        cav new sa flare-coil --script --pack ember-hounds        its document and scripts/flare_coil.luau\n  \
        cav new test hound-fires --pack ember-hounds              tests/hound-fires.yaml\n  \
        cav new scenario hound-duel --pack ember-hounds           scenarios/hound-duel.yaml (`cav play hound-duel`)\n  \
        cav test ember-hounds                                     the test, under the Quick-Start and the full rules")]
    New {
        #[arg(value_enum)]
        what: new::What,
        /// The new document's id (or the pack's): lower-case letters, digits and dashes.
        id: String,
        /// The pack to write into, by path or by id (default: the pack the working directory is
        /// in; not for `pack`).
        #[arg(long, value_name = "PACK")]
        pack: Option<PathBuf>,
        /// `pack` only: the directory to make the pack in.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// `sa` only: give it a Luau module in the pack's scripts/ (a `combat_tp` handler to edit).
        #[arg(long)]
        script: bool,
        /// Write a variant of document PARENT (model, weapon, sa, scenario): it starts from every
        /// value of PARENT and writes only what differs (`extends: PARENT`).
        #[arg(long, value_name = "PARENT")]
        extends: Option<String>,
    },
    /// List every hook point a script can handle: when it fires, what `ctx` holds, which effects
    /// and quantities it accepts, and the scenario tests that exercise it.
    #[command(after_help = "The tests are found by running every pack's scenario tests with the Lua host and \
        recording where a handler ran. Exit 1 when an implemented hook point has no passing test.\n\
        The same list, without tests: docs/vocabulary.md; the Luau types: schemas/cav-hooks.d.luau.\n\
        Examples:\n  cav hooks\n  cav hooks --format json")]
    Hooks {
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Map the catalog: how each special attribute, weapon, upgrade, asset and strike package is
    /// played (script, data, ruleset, engine), what is not played and why, and the scenario tests
    /// that prove it.
    #[command(after_help = "A test proves an entry when it passes on the content as it is and fails once the entry's \
        behaviour is taken away: a special attribute stripped from every card, weapon and upgrade; a weapon's range \
        halved, its RAV 0 and its special attributes gone. Every test of every pack runs once per entry that its \
        models carry, so this takes a while; a progress bar shows on a terminal.\n\
        Statuses: complete (played, proved, nothing declared left unplayed; a part the rulebook names without \
        rules to play it is listed as such), partial (proved, part not played), \
        untested (played, no test fails without it), NOT PLAYED.\n\
        --check exits 1 unless every entry of the official catalog (cav-full) is complete.\n\
        Examples:\n  cav coverage\n  cav coverage --format json | jq '.entries[] | select(.status != \"complete\") | .id'\n  \
        cav coverage --format markdown > docs/coverage.md")]
    Coverage {
        #[arg(long, value_enum, default_value_t = CoverageFormat::Human)]
        format: CoverageFormat,
        /// Exit 1 unless every official catalog entry is complete.
        #[arg(long)]
        check: bool,
    },
    /// Write the reference under docs/reference/: one page per document kind (every field by
    /// path: type, allowed values, default, required, meaning, an example from the bundled
    /// content, rulebook lines), the catalog of every loaded ruleset, and an index.
    #[command(after_help = "Generated from the JSON Schemas and the content loaded from content/ and mods/; the \
        output is sorted and dated nowhere, so the same code and content give the same files.\n\
        --check writes nothing and exits 1 naming the stale files (CI runs it).\n\
        Examples:\n  cav docs\n  cav docs --check\n  cav docs --out /tmp/reference")]
    Docs {
        /// Directory to write to (default: <root>/docs/reference).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Only check that the files are up to date; exit 1 if not.
        #[arg(long)]
        check: bool,
    },
    /// Run Luau code in exactly the sandbox special-attribute scripts get (file, or stdin).
    #[command(after_help = "The sandbox has table, string, math (without random), bit32, utf8, coroutine and buffer; \
        no io, os, debug, package, load or loadstring. `require \"name\"` finds modules in the bundled \
        packs' script roots. Memory and steps per call are capped.\n\
        Examples:\n  cav lua script.luau\n  echo 'print(1 + 1)' | cav lua")]
    Lua {
        /// A file of Luau source (default: standard input).
        file: Option<PathBuf>,
    },
    /// Force building (full rules): check rosters against the rules, or let a bot build one.
    #[command(subcommand)]
    Force(force::ForceCommand),
    /// Show one resolved document (a model prints as its data card).
    #[command(
        after_help = "ID may be an id (`dictator-b`) or a name (`\"Dictator-B\"`); case and punctuation are ignored.\n\
        --explain prints every value with the file:line:col that set it, through `extends:` and patches.\n\
        Examples:\n  cav show dictator-b\n  cav show invented-lancer --ruleset full --with makeshift-armor,ace-pilot"
    )]
    Show {
        id: String,
        /// Print where each value came from.
        #[arg(long)]
        explain: bool,
        /// Look in this ruleset (pack id, or `full` / `quickstart`).
        #[arg(long)]
        ruleset: Option<String>,
        /// Restrict to one document kind when an id is used by several.
        #[arg(long)]
        kind: Option<String>,
        /// Fit these upgrades to the model first (repeat, or comma-separated): the card shows
        /// the TV, MV, AV and special attributes the model plays with. `UPGRADE@WEAPON` names a
        /// munition's launcher; `UPGRADE@WEAPON=CHOICE` the weapon type and the grant taken by an
        /// upgrade that grants one of several (`amped-weapons@medium-mac=piercing`);
        /// `UPGRADE#VARIANT` the rank bought (`officer#major`); `UPGRADE*N` how many of a
        /// repeatable upgrade (`claymore-anti-personnel-mines*2`).
        #[arg(long = "with", value_name = "UPGRADE", value_delimiter = ',')]
        with: Vec<String>,
        /// `json`: the resolved document and (with --explain) where each value came from, as
        /// schemas/reports/show.schema.json describes.
        #[arg(long, value_enum, default_value_t = Format::Human, conflicts_with = "with")]
        format: Format,
    },
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum CoverageFormat {
    Human,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Human,
    Json,
}

fn main() -> ExitCode {
    // Output piped into `head` that stops reading ends `cav` quietly, as it does any Unix tool,
    // instead of a panic on the next print (Rust ignores SIGPIPE by default).
    #[cfg(unix)]
    // SAFETY: restoring a signal's default disposition at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let root = cli.root.clone().unwrap_or_else(project::find_root);
    match run(cli.command, &root, cli.no_cache) {
        Ok(code) => code,
        Err(msg) => {
            // Parts of it may come from packs (ids, folder names): no control sequence reaches
            // the terminal, line by line.
            let msg: Vec<String> = msg.lines().map(cav_content::diag::shown).collect();
            eprintln!("error: {}", msg.join("\n"));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Each command to the module that runs it.
fn run(cmd: Command, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    match cmd {
        Command::Validate { paths, format, deny } => commands::validate::run(root, paths, format, deny, no_cache),
        Command::Cache { action } => commands::cache::run(action),
        Command::Bench { games, battles, odds, tv, format } => {
            bench::run(root, bench::Options { games, battles, odds, tv, format })
        }
        Command::Schema { out, check, ids } => commands::schema::run(root, out, check, ids),
        Command::List { kind, ruleset, format } => commands::list::run(root, kind, ruleset, format, no_cache),
        Command::Lua { file } => commands::lua::run(root, file, no_cache),
        Command::Docs { out, check } => docs::run(root, out, check, no_cache),
        Command::Watch { paths, ruleset, run, seed, test, debounce_ms } => {
            commands::watch::run(root, paths, ruleset, run, seed, test, debounce_ms)
        }
        Command::Test { paths, filter, verbose, format, junit } => {
            commands::test::run(root, pack_arg::resolve_all(paths, root)?, filter, verbose, format, junit, no_cache)
        }
        Command::New { what, id, pack, dir, script, extends } => new::run(root, what, id, pack, dir, script, extends),
        Command::Hooks { format } => hooks::run(root, format, no_cache),
        Command::Coverage { format, check } => coverage::run(root, format, check, no_cache),
        Command::Force(cmd) => force::run(cmd, root, no_cache),
        Command::Play { scenario, ruleset, seed, log, quiet, svg, bot, rosters } => {
            let search = sim::search_sides(&bot)?;
            play::run(root, scenario, &ruleset, seed, play::Outputs { log, svg, quiet }, rosters, search, no_cache)
        }
        Command::Replay(cmd) => replay::run(cmd, root, no_cache),
        Command::Sim(cmd) => sim::run(cmd, root, no_cache),
        Command::Odds(cmd) => odds::run(cmd, root, no_cache),
        Command::Dice { expr, kind, ruleset, modifier, format } => {
            commands::dice::run(root, expr, kind, &ruleset, modifier, format, no_cache)
        }
        Command::Map(cmd) => map::run(cmd, root, no_cache),
        Command::Card { ids, pack, ruleset, svg } => commands::card::run(root, ids, pack, ruleset, svg, no_cache),
        Command::Show { id, explain, ruleset, kind, with, format } => {
            commands::show::run(root, id, explain, ruleset, kind, with, format, no_cache)
        }
    }
}
