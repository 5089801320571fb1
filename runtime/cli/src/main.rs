//! `cav`: the command-line front end. The only place that touches the terminal, the file
//! system layout and exit codes; everything else lives in the library crates.

mod card;
mod coverage;
mod docs;
mod editor;
mod force;
mod hooks;
mod map;
mod new;
mod odds;
mod pack_arg;
mod play;
mod replay;
mod reports;
mod show;
mod sim;
mod viewer;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_content::{LoadOptions, Loaded};
use cav_format::DocKind;
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
    #[command(subcommand)]
    command: Command,
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
        cav validate --format json        machine-readable, one object per problem")]
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
        #[command(flatten)]
        rosters: play::Rosters,
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
    let root = cli.root.clone().unwrap_or_else(find_root);
    match run(cli.command, &root) {
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

/// The nearest ancestor of the working directory with a `content/` directory, else the source tree.
fn find_root() -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    cwd.ancestors()
        .find(|d| d.join("content").is_dir() && d.join("schemas").is_dir())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
}

/// Every file generated from the code, with its text: the JSON Schemas and Luau definitions
/// (under `schemas/`, or `out`) and the vocabulary reference `docs/vocabulary.md`.
fn generated_files(root: &Path, out: Option<PathBuf>) -> Vec<(PathBuf, String)> {
    let dir = out.unwrap_or_else(|| root.join("schemas"));
    let mut files: Vec<(PathBuf, String)> = cav_format::all_schemas()
        .into_iter()
        .map(|(name, schema)| (dir.join(name), cav_format::render_schema(&schema)))
        .collect();
    files.extend(editor::files(&dir.join(editor::DIR), &editor::catalog(&load(library(root), root))));
    files.push((dir.join("cav-hooks.d.luau"), cav_script::definitions()));
    for (name, schema) in reports::schemas() {
        files.push((dir.join("reports").join(name), cav_format::render_schema(&schema)));
    }
    files.push((dir.join("reports/junit.xsd"), reports::JUNIT_XSD.to_owned()));
    files.push((root.join("docs/vocabulary.md"), cav_format::vocab::markdown()));
    files
}

/// Whether two paths name the same directory (however they were spelled).
fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).ok().is_some_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// The working directory, when `cav` runs outside the project (an installed `cav` in a mod's own
/// folder) and the directory is a pack or holds packs.
fn packs_here(root: &Path) -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    let inside = std::fs::canonicalize(root).is_ok_and(|r| cwd.starts_with(r));
    let holds = cwd.join("pack.yaml").is_file()
        || std::fs::read_dir(&cwd)
            .is_ok_and(|d| d.filter_map(|e| e.ok()).any(|e| e.path().join("pack.yaml").is_file()));
    (!inside && holds).then_some(cwd)
}

/// Where packs are found: the project's content/ and mods/, and the packs of the working
/// directory outside the project.
fn library(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("content"), root.join("mods")];
    dirs.extend(packs_here(root));
    dirs
}

/// Load with a spinner on an interactive terminal (large trees take a moment).
fn load(paths: Vec<PathBuf>, root: &Path) -> Loaded {
    // No paths: the author's own packs when run in their folder, else everything.
    let paths =
        if paths.is_empty() { packs_here(root).map(|d| vec![d]).unwrap_or_else(|| library(root)) } else { paths };
    let mut cache = cav_content::pack::Cache::default();
    let spinner = std::io::stderr().is_terminal().then(|| {
        let s = indicatif::ProgressBar::new_spinner().with_message("loading content packs…");
        s.enable_steady_tick(std::time::Duration::from_millis(80));
        // The count of files read, from the loader as it goes.
        let (bar, read) = (s.clone(), cache.files_read.clone());
        std::thread::spawn(move || {
            while !bar.is_finished() {
                let n = read.load(std::sync::atomic::Ordering::Relaxed);
                bar.set_message(format!("loading content packs… {n} files read"));
                std::thread::sleep(std::time::Duration::from_millis(80));
            }
        });
        s
    });
    let loaded = cav_content::load_cached(&LoadOptions { paths, library: library(root) }, &mut cache);
    if let Some(s) = spinner {
        s.finish_and_clear();
    }
    drop_in_background(cache);
    loaded
}

/// Free a large structure on another thread. Freeing every document of a big pack one by one
/// costs as much as a fifth of `cav validate`: `load` frees its file cache this way for every
/// command (play, sim and the rest go on at once instead of waiting), and a one-shot command
/// frees its documents too, since the process exits when `main` returns, whether or not the
/// thread has finished.
fn drop_in_background<T: Send + 'static>(t: T) {
    if std::thread::Builder::new().spawn(move || drop(t)).is_err() {
        // No thread to spare: the value was moved into the closure and is freed with it here.
    }
}

fn run(cmd: Command, root: &Path) -> Result<ExitCode, String> {
    match cmd {
        Command::Validate { paths, format, deny } => {
            let mut loaded = load(pack_arg::resolve_all(paths, root)?, root);
            cav_compile::validate(&mut loaded);
            let errors = loaded.error_count();
            let warnings = loaded.diagnostics.len() - errors;
            let failed = errors > 0 || deny.is_some() && warnings > 0;
            match format {
                Format::Json => {
                    let out = reports::ValidateReport {
                        valid: !failed,
                        errors,
                        warnings,
                        packs: loaded
                            .packs
                            .iter()
                            .map(|p| reports::PackRef {
                                id: p.id.clone(),
                                version: p.version.clone(),
                                documents: p.documents,
                            })
                            .collect(),
                        diagnostics: serde_json::from_value(cav_content::diag::to_json(
                            &loaded.diagnostics,
                            &loaded.sources,
                        ))
                        .map_err(|e| format!("diagnostics do not fit their report: {e}"))?,
                    };
                    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
                }
                Format::Human => {
                    eprint!("{}", cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources));
                    // Named up to a screenful; a long list ends "… and N more".
                    const NAMED: usize = 12;
                    let mut packs: Vec<String> =
                        loaded.packs.iter().take(NAMED).map(|p| format!("{} {}", p.id, p.version)).collect();
                    if loaded.packs.len() > NAMED {
                        packs.push(format!("… and {} more", loaded.packs.len() - NAMED));
                    }
                    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                    let warned =
                        if warnings == 0 { String::new() } else { format!(", {}", plural(warnings, "warning")) };
                    // The documents of the packs asked about, and apart those of the packs loaded
                    // alongside because they build on them.
                    let own: usize = loaded.packs.iter().map(|p| p.documents).sum();
                    let (packs, alongside) = match (loaded.packs.len(), loaded.documents.saturating_sub(own)) {
                        (1, 0) => (packs.join(", "), String::new()),
                        (1, n) => (packs.join(", "), format!(" (and {n} of the packs it builds on)")),
                        (k, 0) => (format!("{k} packs ({})", packs.join(", ")), String::new()),
                        (k, n) => (
                            format!("{k} packs ({})", packs.join(", ")),
                            format!(" (and {n} of the packs they build on)"),
                        ),
                    };
                    if !failed {
                        println!("ok: {} in {packs}{alongside} are valid{warned}", plural(own, "document"));
                        // Which rulesets each mod asked about plays in (a mod may join several).
                        for p in loaded.packs.iter().filter(|p| p.kind == cav_format::PackKind::Extension).take(NAMED) {
                            let joins: Vec<&str> = loaded
                                .rulesets
                                .iter()
                                .filter(|r| r.pack(&p.id).is_some())
                                .map(|r| r.id.as_str())
                                .collect();
                            let joins = if joins.is_empty() { "no ruleset".to_owned() } else { joins.join(", ") };
                            println!("  {} joins {joins}", p.id);
                        }
                    } else {
                        println!(
                            "{}{warned} in {} of {packs}{alongside}{}",
                            plural(errors, "error"),
                            plural(own, "document"),
                            if errors == 0 { " (warnings denied)" } else { "" }
                        );
                    }
                }
            }
            drop_in_background(loaded);
            Ok(ExitCode::from(if failed { EXIT_INVALID } else { 0 }))
        }
        Command::Schema { out, check, ids } => {
            let mut stale = Vec::new();
            let files = if ids.is_empty() {
                generated_files(root, out)
            } else {
                let dir = out.unwrap_or_else(|| root.join("schemas").join(editor::DIR));
                editor::files(&dir, &editor::catalog(&load(ids, root)))
            };
            for (path, text) in files {
                if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
                    continue;
                }
                if check {
                    stale.push(path.display().to_string());
                } else {
                    if let Some(dir) = path.parent() {
                        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    }
                    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                    println!("wrote {}", path.display());
                }
            }
            if check && !stale.is_empty() {
                println!(
                    "stale: {} (run `cav schema`; the editor schemas in schemas/editor/ carry the ids of content/ and \
                     mods/, so adding, renaming or removing a document needs it too)",
                    stale.join(", ")
                );
                return Ok(ExitCode::from(EXIT_INVALID));
            }
            if check {
                println!("generated files are up to date");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::List { kind, ruleset, format } => {
            let kind = kind.map(|k| parse_kind(&k)).transpose()?;
            let loaded = load(vec![], root);
            let mut report = reports::ListReport { rulesets: Vec::new() };
            for rs in select_rulesets(&loaded, ruleset.as_deref())? {
                let mut packs = Vec::new();
                for p in &rs.packs {
                    let of_pack: Vec<_> = rs.entries().filter(|e| e.pack == p.id).collect();
                    let counts = DocKind::ALL
                        .iter()
                        .filter_map(|&k| {
                            let n = of_pack.iter().filter(|e| e.kind == k).count();
                            (n > 0).then(|| (k.tag().to_owned(), n))
                        })
                        .collect();
                    let entries = of_pack
                        .iter()
                        .filter(|e| Some(e.kind) == kind)
                        .map(|e| reports::ListEntry {
                            kind: e.kind.tag().to_owned(),
                            id: e.id.clone(),
                            name: e.name().to_owned(),
                            stats: show::stats(e),
                        })
                        .collect();
                    packs.push(reports::ListPack { id: p.id.clone(), version: p.version.to_string(), counts, entries });
                }
                report.rulesets.push(reports::ListRuleset { id: rs.id.clone(), packs });
            }
            let mut out = std::io::stdout().lock();
            if format == Format::Json {
                let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            } else {
                for rs in &report.rulesets {
                    let _ = writeln!(out, "ruleset {} ({} packs)", rs.id, rs.packs.len());
                    for p in &rs.packs {
                        if kind.is_none() {
                            let counts: Vec<String> = DocKind::ALL
                                .iter()
                                .filter_map(|k| p.counts.get(k.tag()).map(|n| format!("{n} {}", k.title())))
                                .collect();
                            let counts = if counts.is_empty() { "no documents".into() } else { counts.join(", ") };
                            let _ = writeln!(out, "  {} {}: {counts}", p.id, p.version);
                        }
                        for e in &p.entries {
                            let _ = writeln!(out, "  {:<36} {:<32} {:<14} {}", e.id, e.name, p.id, e.stats);
                        }
                    }
                }
            }
            report_errors(&loaded);
            Ok(ExitCode::from(if loaded.error_count() == 0 { 0 } else { EXIT_INVALID }))
        }
        Command::Lua { file } => lua_cmd(root, file),
        Command::Docs { out, check } => docs::run(root, out, check),
        Command::Watch { paths, ruleset, run, seed, test, debounce_ms } => {
            let after = match (run, test) {
                (Some(scenario), _) => cav_watch::After::Run { scenario, seed },
                (None, true) => cav_watch::After::Test,
                (None, false) => cav_watch::After::Nothing,
            };
            let opts = cav_watch::WatchOptions {
                paths: pack_arg::resolve_all(paths, root)?,
                debounce: std::time::Duration::from_millis(debounce_ms),
                ..cav_watch::WatchOptions::for_root(root, &ruleset, after)
            };
            cav_watch::check_options(&opts)?;
            let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let flag = stop.clone();
            // The first Ctrl-C stops after the running reload step; a second one does not wait.
            ctrlc::set_handler(move || {
                if flag.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    std::process::exit(130);
                }
            })
            .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
            cav_watch::watch(&opts, &mut std::io::stdout(), stop)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Test { paths, filter, verbose, format, junit } => {
            test_cmd(root, pack_arg::resolve_all(paths, root)?, filter, verbose, format, junit)
        }
        Command::New { what, id, pack, dir, script, extends } => {
            let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
            let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
            let pack = match (what, pack) {
                (new::What::Pack, _) => {
                    // Inside a project checkout a mod belongs in its mods/; elsewhere, here.
                    let dir =
                        dir.unwrap_or_else(|| if cwd.starts_with(&root) { root.join("mods") } else { cwd.clone() });
                    cwd.join(dir).join(&id)
                }
                (_, Some(p)) => cwd.join(pack_arg::resolve(&p, &root, &cwd)?),
                // Inside a pack (or any folder of one) the pack is the one it is in.
                (_, None) => pack_arg::enclosing(&cwd).ok_or_else(|| {
                    format!(
                        "which pack? {} is not inside a pack (no pack.yaml here or above): run `cav new` in the \
                         pack's folder, or give --pack with the pack's path or id",
                        cwd.display()
                    )
                })?,
            };
            if what != new::What::Pack && !pack.join("pack.yaml").is_file() {
                return Err(format!(
                    "{} is not a pack (no pack.yaml); start one with `cav new pack ID`",
                    pack.display()
                ));
            }
            if script && what != new::What::Sa {
                return Err("--script is for `cav new sa`".to_owned());
            }
            // Modelines point at editor schemas that complete ids: the project's own inside it
            // (refreshed below with the new ids), else the pack's `.schemas/`.
            let inside = pack.starts_with(&root);
            let schemas = if inside { root.join("schemas").join(editor::DIR) } else { pack.join(".schemas") };
            let files = new::files(
                what,
                &id,
                &new::Target { pack: &pack, schemas: &schemas, script, extends: extends.as_deref() },
            )?;
            // Paths as typed from here (`../weapons/x.yaml` from a folder of the pack).
            let from_here = |p: &Path| match p.strip_prefix(&cwd) {
                Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
                Ok(rel) => rel.display().to_string(),
                Err(_) => new::relative(&cwd, p).display().to_string(),
            };
            for path in new::write(&files, &pack)? {
                println!("wrote {}", from_here(&path));
            }
            let mut loaded = load(vec![pack.clone()], &root);
            cav_compile::validate(&mut loaded);
            let pack_id = loaded.packs.iter().find(|p| same_dir(&p.dir, &pack)).map(|p| p.id.clone());
            eprint!("{}", cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources));
            // The schemas the modelines point at are written whether or not the pack validates
            // (without the rulesets it builds on, an installed `cav` with no content still gives
            // the editor its keys).
            let catalog = if inside { editor::catalog(&load(vec![], &root)) } else { editor::catalog(&loaded) };
            for (path, text) in editor::files(&schemas, &catalog) {
                if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
                    if let Some(dir) = path.parent() {
                        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
                    }
                    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
            }
            if loaded.error_count() > 0 {
                return Ok(ExitCode::from(EXIT_INVALID));
            }
            let shown = match (&pack_id, from_here(&pack)) {
                (Some(id), path) if *id != path => format!("{id} ({path})"),
                (_, path) => path,
            };
            let joins: Vec<&str> = loaded
                .rulesets
                .iter()
                .filter(|r| r.packs.iter().any(|p| Some(&p.id) == pack_id.as_ref()))
                .map(|r| r.id.as_str())
                .collect();
            // Each next step is a command that works as printed from here.
            let arg = pack_arg::arg_for(&pack, &root, &cwd);
            let pack_opt = if pack_arg::enclosing(&cwd).is_some_and(|p| same_dir(&p, &pack)) {
                String::new()
            } else {
                format!(" --pack {arg}")
            };
            println!("ok: {shown} validates (it joins {}); next:", joins.join(", "));
            let steps: Vec<(String, &str)> = match what {
                new::What::Pack => vec![
                    (format!("cav new weapon ID{pack_opt}"), "a weapon"),
                    (format!("cav new model ID{pack_opt}"), "a data card, armed with the pack's first weapon"),
                    (format!("cav new sa ID --script{pack_opt}"), "a scripted special attribute"),
                    (format!("cav validate {arg}"), "check the pack"),
                ],
                new::What::Test => vec![
                    (format!("cav validate {arg}"), "check the pack after editing"),
                    (format!("cav test {arg}"), "run its tests under every ruleset it joins"),
                ],
                _ => vec![(format!("cav validate {arg}"), "check the pack after editing")],
            };
            let width = steps.iter().map(|(c, _)| c.len()).max().unwrap_or(0) + 2;
            for (command, what) in &steps {
                println!("  {:<width$} {what}", format!("`{command}`"), width = width + 2);
            }
            if what == new::What::Pack && !pack_opt.is_empty() {
                println!("  (inside the pack's folder, or any folder of it, no --pack is needed)");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Hooks { format } => {
            let mut loaded = load(vec![], root);
            let compiled = cav_compile::validate(&mut loaded);
            if loaded.error_count() > 0 {
                eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
                eprintln!("error: the content has errors; fix them first (`cav validate`)");
                return Ok(ExitCode::from(EXIT_INVALID));
            }
            let by_point = hooks::exercised(&loaded, &compiled)?;
            let complete = hooks::report(&by_point, format == Format::Json, &mut std::io::stdout().lock());
            Ok(ExitCode::from(if complete { 0 } else { EXIT_INVALID }))
        }
        Command::Coverage { format, check } => {
            let mut loaded = load(vec![], root);
            let compiled = cav_compile::validate(&mut loaded);
            if loaded.error_count() > 0 {
                eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
                eprintln!("error: the content has errors; fix them first (`cav validate`)");
                return Ok(ExitCode::from(EXIT_INVALID));
            }
            let mut passed = std::collections::BTreeSet::new();
            let rows = coverage::map(&loaded, &compiled, &mut passed)?;
            let sections = coverage::sections(&loaded, &passed);
            let (fmt, md) = match format {
                CoverageFormat::Human => (Format::Human, false),
                CoverageFormat::Json => (Format::Json, false),
                CoverageFormat::Markdown => (Format::Human, true),
            };
            coverage::report(&rows, &sections, fmt, md, &mut std::io::stdout().lock());
            let complete = rows
                .iter()
                .filter(|r| r.pack == coverage::CATALOG_PACK)
                .all(|r| r.status == coverage::Status::Complete);
            Ok(ExitCode::from(if check && !complete { EXIT_INVALID } else { 0 }))
        }
        Command::Force(cmd) => force::run(cmd, root),
        Command::Play { scenario, ruleset, seed, log, quiet, svg, rosters } => {
            play::run(root, scenario, &ruleset, seed, play::Outputs { log, svg, quiet }, rosters)
        }
        Command::Replay(cmd) => replay::run(cmd, root),
        Command::Sim(cmd) => sim::run(cmd, root),
        Command::Odds(cmd) => odds::run(cmd, root),
        Command::Map(cmd) => map::run(cmd, root),
        Command::Card { ids, pack, ruleset, svg } => {
            let loaded = load(vec![], root);
            let rs = select_rulesets(&loaded, Some(&ruleset))?.into_iter().next().ok_or("no ruleset")?;
            let model = |e: &cav_content::Entry| match &e.doc {
                Some(cav_format::Document::Model(m)) => Some(card::data(m, rs)),
                _ => None,
            };
            let mut cards = Vec::new();
            for id in &ids {
                let Some(e) = rs.get(DocKind::Model, id) else {
                    let all: Vec<&str> =
                        rs.entries().filter(|e| e.kind == DocKind::Model).map(|e| e.id.as_str()).collect();
                    let hint = cav_content::diag::did_you_mean(id, all.iter().copied())
                        .map(|h| format!(" ({h})"))
                        .unwrap_or_default();
                    return Err(format!("no model `{id}` in {}{hint}", rs.id));
                };
                cards.extend(model(e));
            }
            if let Some(p) = &pack {
                let mut of: Vec<&cav_content::Entry> =
                    rs.entries().filter(|e| e.kind == DocKind::Model && e.pack == *p).collect();
                if of.is_empty() {
                    return Err(format!("pack `{p}` has no models in {} (`cav list model` lists them by pack)", rs.id));
                }
                of.sort_by(|a, b| a.id.cmp(&b.id));
                cards.extend(of.into_iter().filter_map(model));
            }
            std::fs::write(&svg, card::svg(&cards)).map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
            eprintln!("wrote {} ({} card{})", svg.display(), cards.len(), if cards.len() == 1 { "" } else { "s" });
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { id, explain, ruleset, kind, with, format } => {
            let kind = kind.map(|k| parse_kind(&k)).transpose()?;
            let loaded = load(vec![], root);
            let rulesets = select_rulesets(&loaded, ruleset.as_deref())?;
            let found = rulesets.iter().find_map(|rs| {
                let hits: Vec<_> = rs.find(&id).into_iter().filter(|e| kind.is_none_or(|k| e.kind == k)).collect();
                (!hits.is_empty()).then_some((rs, hits))
            });
            let Some((rs, hits)) = found else {
                let all: Vec<String> = loaded.rulesets.iter().flat_map(|r| r.entries().map(|e| e.id.clone())).collect();
                let hint = cav_content::diag::did_you_mean(&id, all.iter().map(String::as_str))
                    .map(|h| format!(" ({h})"))
                    .unwrap_or_default();
                return Err(format!(
                    "no document `{id}` in {}{hint}",
                    rulesets.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
                ));
            };
            if hits.len() > 1 {
                let kinds: Vec<&str> = hits.iter().map(|e| e.kind.tag()).collect();
                return Err(format!("`{id}` names several documents ({}); add --kind", kinds.join(", ")));
            }
            let e = hits[0];
            if !with.is_empty() {
                let rules =
                    cav_compile::compile_rules(rs).map_err(|m| format!("ruleset {} does not compile: {m}", rs.id))?;
                print!("{}", show::fitted(e, rs, rules, &with)?);
                return Ok(ExitCode::SUCCESS);
            }
            if format == Format::Json {
                let report = reports::ShowReport {
                    kind: e.kind.tag().to_owned(),
                    id: e.id.clone(),
                    name: e.name().to_owned(),
                    pack: e.pack.clone(),
                    ruleset: rs.id.clone(),
                    document: (*e.value).clone(),
                    provenance: explain.then(|| show::provenance(e, &loaded.sources)),
                };
                println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
                return Ok(ExitCode::SUCCESS);
            }
            let text = if explain { show::explain(e, &loaded.sources) } else { show::render(e, rs) };
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn parse_kind(k: &str) -> Result<DocKind, String> {
    let tag = k.replace('-', "_");
    let tag = tag.strip_suffix('s').filter(|t| DocKind::from_tag(t).is_some()).unwrap_or(&tag);
    DocKind::from_tag(tag).ok_or_else(|| {
        let tags: Vec<&str> = DocKind::ALL.iter().map(|k| k.tag()).collect();
        format!("unknown kind `{k}`; kinds: {}", tags.join(", "))
    })
}

/// `full` and `quickstart` are accepted as short names of the bundled rulesets.
fn select_rulesets<'a>(loaded: &'a Loaded, want: Option<&str>) -> Result<Vec<&'a cav_content::Ruleset>, String> {
    let Some(w) = want else { return Ok(loaded.rulesets.iter().collect()) };
    let hit: Vec<_> = loaded.rulesets.iter().filter(|r| r.id == w || r.id == format!("cav-{w}")).collect();
    if hit.is_empty() {
        let ids: Vec<&str> = loaded.rulesets.iter().map(|r| r.id.as_str()).collect();
        return Err(format!("no ruleset `{w}`; available: {}", ids.join(", ")));
    }
    Ok(hit)
}

fn report_errors(loaded: &Loaded) {
    let n = loaded.error_count();
    if n > 0 {
        eprintln!(
            "warning: the content has {n} error{}; run `cav validate` for details",
            if n == 1 { "" } else { "s" }
        );
    }
}

fn test_cmd(
    root: &Path,
    paths: Vec<PathBuf>,
    filter: Option<String>,
    verbose: bool,
    format: Format,
    junit: Option<PathBuf>,
) -> Result<ExitCode, String> {
    // An unwritable report path fails before the tests run, not after.
    let junit_file = junit
        .as_ref()
        .map(|p| std::fs::File::create(p).map_err(|e| format!("cannot write the JUnit report {}: {e}", p.display())))
        .transpose()?;
    let mut loaded = load(paths, root);
    let compiled = cav_compile::validate(&mut loaded);
    if loaded.error_count() > 0 {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: the content has errors; fix them before testing (`cav validate` shows warnings too)");
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    let human = format == Format::Human;
    let packs: Vec<&str> = loaded.packs.iter().map(|p| p.id.as_str()).collect();
    let keep = |e: &cav_content::Entry| {
        packs.contains(&e.pack.as_str()) && filter.as_ref().is_none_or(|f| e.id.contains(f.as_str()))
    };
    let total: usize = loaded.rulesets.iter().map(|rs| ruleset_test_entries(rs, keep).len()).sum();
    let bar = progress(total as u64, "testing");
    let mut report = reports::TestReport { passed: 0, failed: 0, tests: Vec::new() };
    let mut out = std::io::stdout().lock();
    let mut say = |line: String| {
        if human {
            bar.suspend(|| writeln!(out, "{line}")).ok();
        }
    };
    for (rs, rules) in loaded.rulesets.iter().zip(compiled) {
        let tests = ruleset_test_entries(rs, keep);
        if tests.is_empty() {
            continue;
        }
        let Some(rules) = rules else { return Ok(ExitCode::from(EXIT_INVALID)) };
        let Some(mut host) = lua_host(&rules) else { return Ok(ExitCode::from(EXIT_INVALID)) };
        for (e, t) in tests {
            bar.set_message(t.id.to_string());
            let r = cav_rules::testing::run_test_with(&rules, t, &mut host);
            bar.inc(1);
            // A test that names no ruleset runs under each its pack joins: say which run this is.
            let under = if t.ruleset.is_none() { format!(" [{}]", rs.id) } else { String::new() };
            if r.passed() {
                say(format!("test {}{under} ... ok", r.id));
            } else {
                say(format!("test {}{under} ... FAILED ({})", r.id, r.name));
                // Each failure at the line of the test it is about (the test's own line else).
                let at = |ptr: &str| {
                    e.prov.locate(ptr).map(|l| format!("{}:{}", loaded.sources.get(l.file).display, l.start.line))
                };
                say(format!("  {}", at("").unwrap_or_default()));
                for f in &r.failures {
                    match cav_rules::testing::failure_pointer(f).and_then(|p| at(&p)) {
                        Some(line) => say(format!("  {line}: {f}")),
                        None => say(format!("  {f}")),
                    }
                }
                if verbose {
                    for line in narrate_test(&rules, t, &r.events) {
                        say(format!("  |{line}"));
                    }
                }
            }
            report.tests.push(reports::TestOutcome {
                id: r.id.to_string(),
                name: r.name.to_string(),
                pack: e.pack.clone(),
                ruleset: rs.id.clone(),
                passed: r.passed(),
                failures: r.failures.iter().map(ToString::to_string).collect(),
                source: t.source.clone(),
            });
        }
    }
    bar.finish_and_clear();
    // A test written for a ruleset its pack does not join never ran above: that is a failure,
    // not a skip.
    let mut seen = std::collections::BTreeSet::new();
    for rs in &loaded.rulesets {
        for e in rs.of_kind(DocKind::Test).filter(|e| keep(e)) {
            let Some(cav_format::Document::Test(t)) = &e.doc else { continue };
            if !seen.insert(e.id.clone()) {
                continue;
            }
            let joined: Vec<&str> =
                loaded.rulesets.iter().filter(|r| r.pack(&e.pack).is_some()).map(|r| r.id.as_str()).collect();
            if let Some(ruleset) = &t.ruleset
                && !joined.contains(&ruleset.as_str())
            {
                let why = format!(
                    "it is for ruleset `{ruleset}`, which pack `{}` does not join: it joins {}; \
                     make the pack depend on `{ruleset}` or a pack it builds on",
                    e.pack,
                    joined.join(", "),
                );
                say(format!("test {} ... FAILED ({why})", e.id));
                report.tests.push(reports::TestOutcome {
                    id: e.id.clone(),
                    name: t.name.clone(),
                    pack: e.pack.clone(),
                    ruleset: ruleset.to_string(),
                    passed: false,
                    failures: vec![why],
                    source: t.source.clone(),
                });
            }
        }
    }
    report.passed = report.tests.iter().filter(|t| t.passed).count();
    report.failed = report.tests.len() - report.passed;
    if human {
        let _ = writeln!(out, "{} passed, {} failed", report.passed, report.failed);
    } else {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    }
    if let (Some(mut file), Some(path)) = (junit_file, junit) {
        file.write_all(reports::junit(&report).as_bytes())
            .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
    }
    Ok(ExitCode::from(if report.failed == 0 { 0 } else { EXIT_INVALID }))
}

/// The narrative of a test's events, with the test's own model names (`cav test --verbose`).
fn narrate_test(rules: &cav_rules::Rules, t: &cav_format::Test, events: &[cav_rules::event::Event]) -> Vec<String> {
    let mut game_names =
        cav_rules::game::Game::new(rules, cav_rules::game::Board { size: t.board, areas: vec![] }, vec![]);
    for u in &t.models {
        if let Some(c) = rules.card(u.model.as_str()) {
            game_names.add_model(c, 0, cav_rules::geom::P::default(), 0.0);
            let last = game_names.models.len() - 1;
            game_names.models[last].name = u.id.to_string();
        }
    }
    // Minefields attack through models laid after the test's own, in terrain order.
    for a in t.terrain.iter().filter_map(|a| a.asset.as_ref()) {
        if rules.assets.iter().any(|x| x.id == a.as_str() && x.mines.is_some()) {
            game_names.add_model(0, 0, cav_rules::geom::P::default(), 0.0);
            let last = game_names.models.len() - 1;
            game_names.models[last].name = format!("the {a}");
        }
    }
    // Models the game brought in later (a cruise missile) are named as they deploy.
    for e in events {
        if let cav_rules::event::Event::Deployed { model, name, .. } = e
            && *model >= game_names.models.len()
        {
            while game_names.models.len() <= *model {
                game_names.add_model(0, 0, cav_rules::geom::P::default(), 0.0);
            }
            game_names.models[*model].name = name.clone();
        }
    }
    events.iter().filter_map(|e| play::narrate(&game_names, e)).collect()
}

/// A progress bar on an interactive terminal (stderr), hidden when piped.
fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len).with_prefix(what.to_owned());
    if let Ok(style) = indicatif::ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {wide_msg}") {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The scenario tests that run under ruleset `rs` (those written for it), of the entries `keep`
/// accepts.
fn ruleset_tests(rs: &cav_content::Ruleset, keep: impl Fn(&cav_content::Entry) -> bool) -> Vec<&cav_format::Test> {
    ruleset_test_entries(rs, keep).into_iter().map(|(_, t)| t).collect()
}

/// [`ruleset_tests`], with each test's entry (its pack).
fn ruleset_test_entries(
    rs: &cav_content::Ruleset,
    keep: impl Fn(&cav_content::Entry) -> bool,
) -> Vec<(&cav_content::Entry, &cav_format::Test)> {
    rs.of_kind(DocKind::Test)
        .filter(|e| keep(e))
        .filter_map(|e| match &e.doc {
            Some(cav_format::Document::Test(t)) if t.runs_under(&rs.id) => Some((e, t)),
            _ => None,
        })
        .collect()
}

/// The compiled rules of one ruleset of the content (`quickstart`, `full` or a pack id); `None`
/// once the content's errors are printed (the caller exits 1: invalid content).
fn compiled_rules(root: &Path, ruleset: &str) -> Result<Option<cav_rules::Rules>, String> {
    let mut loaded = load(vec![], root);
    let compiled = cav_compile::validate(&mut loaded);
    let rs = select_rulesets(&loaded, Some(ruleset))?.into_iter().next().ok_or("no ruleset")?;
    let ix = loaded.rulesets.iter().position(|r| r.id == rs.id).unwrap_or(0);
    let rules = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0);
    if rules.is_none() {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: the content has errors; fix them first (`cav validate`)");
    }
    Ok(rules)
}

/// A file named on the command line (a log, a sim result), opened for reading: without blocking
/// (a FIFO or a device named instead would hang the open), then held to being a regular file of
/// at most `max` bytes (`what` it should be, for the message).
fn open_input(path: &Path, max: u64, what: &str) -> Result<std::fs::File, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    if meta.len() > max {
        return Err(format!("{} is {} bytes, more than {what} may be ({max})", path.display(), meta.len()));
    }
    Ok(file)
}

/// The scripts of the packs, loaded for play; a script that fails to load is invalid content
/// (exit 1), not a usage error.
fn lua_host(rules: &cav_rules::Rules) -> Option<cav_script::LuaHost> {
    match cav_script::LuaHost::new(rules, cav_script::Limits::default()) {
        Ok(host) => Some(host),
        Err(e) => {
            eprintln!("error: scripts: {e}");
            None
        }
    }
}

fn lua_cmd(root: &Path, file: Option<PathBuf>) -> Result<ExitCode, String> {
    let (source, name) = match &file {
        // Checked as scripts are: a regular file, its size before it is read.
        Some(f) => (cav_script::sandbox::read_script(f).map_err(|e| e.to_string())?, f.display().to_string()),
        None => {
            // At most one byte past the script size limit: the sandbox then refuses it by size.
            let mut s = String::new();
            let limit = cav_script::sandbox::MAX_SCRIPT_BYTES as u64 + 1;
            std::io::Read::read_to_string(&mut std::io::Read::take(std::io::stdin(), limit), &mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            (s, "stdin".to_owned())
        }
    };
    let loaded = load(vec![], root);
    let roots: Vec<PathBuf> =
        loaded.rulesets.iter().flat_map(|r| r.packs.iter().flat_map(|p| p.script_roots.clone())).collect();
    let sandbox = cav_script::Sandbox::new(cav_script::Limits::default(), roots).map_err(|e| e.to_string())?;
    let result = sandbox.run(&source, &name);
    for line in sandbox.take_prints() {
        println!("{line}");
    }
    match result {
        Ok(values) => {
            if !values.is_empty() {
                println!("{}", values.join("\t"));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}
