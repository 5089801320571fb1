//! The work of a save on the bundled content, in instructions (wall clock on a shared machine
//! says little): a script save's quick path against a full reload after a save of one unit file
//! (the rulesets that do not hold it taken as the last reload found them). The quick path's
//! second call is the one to read (the first starts the kept type checker):
//! `valgrind --tool=callgrind --dump-before='quick_cost::quick' --dump-after='quick_cost::quick'
//!  --dump-before='quick_cost::full' --dump-after='quick_cost::full' target/release/examples/quick_cost`
//! (the dump after each function holds its cost). Without valgrind it prints wall-clock times:
//! `quick_cost 21` does each 21 times and prints the medians; `quick_cost 21 100` waits 100 ms
//! before each full reload, as a save comes after a pause.
use std::path::Path;
use std::time::Instant;

use cav_content::{LoadOptions, Loaded, pack::Cache};
use cav_script::{Limits, LuaHost, check_scripts};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav watch`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What `cav watch` does before its `reloaded` line on a full reload: load (from the cache),
/// validate every ruleset, load the watched ruleset's scripts.
#[inline(never)]
fn full(opts: &LoadOptions, cache: &mut Cache, memo: &mut cav_compile::Memo) -> Loaded {
    let mut loaded = cav_content::load_cached(opts, cache);
    cache.sweep();
    let mut v = cav_compile::validate_parts_with(&mut loaded, memo);
    let ix = loaded.rulesets.iter().position(|r| r.id == "cav-quickstart").unwrap();
    let rules = v.rules.swap_remove(ix).unwrap();
    drop(LuaHost::new(&rules, Limits::default()).unwrap());
    loaded
}

/// What the quick path does for a save of a Quick-Start script: check that ruleset's scripts
/// again (on one core), load the scripts with the kept rules (on the other), put the
/// diagnostics together.
#[inline(never)]
fn quick(loaded: &Loaded, parts: &cav_compile::Validated, rules: &cav_rules::Rules) {
    let ix = loaded.rulesets.iter().position(|r| r.id == "cav-quickstart").unwrap();
    let mut parts = parts.clone();
    let mut sources = loaded.sources.clone();
    parts.parts[ix][cav_compile::SCRIPT_PART] = check_scripts(&loaded.rulesets[ix], &mut sources);
    drop(LuaHost::new(rules, Limits::default()).unwrap());
    drop(parts.assemble(&sources));
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
    }
    // As a modder's files are: not all written a moment ago (see `common::Session::start`).
    std::thread::sleep(cav_content::pack::SETTLED);
    let root = dir.path();
    let opts = LoadOptions {
        paths: vec![root.join("content"), root.join("mods")],
        library: vec![root.join("content"), root.join("mods")],
    };
    let mut cache = Cache::default();
    let mut memo = cav_compile::Memo::default();
    let mut loaded = cav_content::load_cached(&opts, &mut cache);
    cache.sweep();
    let mut v = cav_compile::validate_parts_with(&mut loaded, &mut memo);
    let ix = loaded.rulesets.iter().position(|r| r.id == "cav-quickstart").unwrap();
    let rules = v.rules.swap_remove(ix).unwrap();
    // As `cav watch` runs it: one type checker kept running, its definitions loaded and the
    // modules' answers known from the first save (the one measured is the second).
    cav_script::check::keep_type_checker_running(true);
    quick(&loaded, &v, &rules);
    // `quick_cost N`: each path N times, the median printed (wall clock on a shared machine
    // varies run to run); under callgrind, once each (the default).
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1).max(1);
    let idle = std::time::Duration::from_millis(std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(0));
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let q = median(
        (0..n)
            .map(|_| {
                let t = Instant::now();
                quick(&loaded, &v, &rules);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    let card = root.join("content/cav-quickstart/models/dictator-b.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    let mut loaded = loaded;
    let f = median(
        (0..n)
            .map(|i| {
                std::fs::write(&card, text.replace("\ntv: 800\n", &format!("\ntv: {}\n", 801 + i))).unwrap();
                // As a modder saves: after a pause, the machine idle (it costs: see docs/speed.md).
                std::thread::sleep(idle);
                let t = Instant::now();
                loaded = full(&opts, &mut cache, &mut memo);
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect(),
    );
    println!(
        "quick path {q:.1} ms, full reload {f:.1} ms (median of {n}; {} files read again): of {} rulesets, {} built again, {} compiled again, scripts of {} checked again",
        cache.files_read_last(),
        loaded.rulesets.len(),
        loaded.rulesets.len() - cache.rulesets_reused(),
        loaded.rulesets.len() - memo.reused().0,
        loaded.rulesets.len() - memo.reused().1,
    );
}
