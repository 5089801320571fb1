//! Same seed, same content, same result, whatever ran before on the thread: a script's module
//! state (locals, tables, what `require` gave) lives for one game. The fixture pack
//! `tests/data/module-state` holds special attributes that count in module-level locals; with
//! the bundled content it goes into a project of its own (the bundled content is left as it is).
//! Before every game got fresh modules, each of these failed: two `cav sim` runs differed, so
//! did thread counts and shards, the second of two identical scenario tests failed, and the
//! exact odds gave the +1 of "the first combat roll of a game" to the first die sequence only.

use std::path::{Path, PathBuf};
use std::process::Command;

use cav_tests::{root, succeeded as ok};

/// A project with the bundled content and the fixture pack as a mod.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    let fixture = root().join("tests/data/module-state");
    cav_watch::copy_tree(&fixture, &tmp.path().join("mods/module-state")).unwrap();
    tmp
}

fn cav(project: &Path) -> Command {
    let mut c = cav_tests::cav_in(project);
    c.current_dir(project);
    c
}

/// `cav sim ARGS --format json` run once, on `threads` worker threads; its JSON.
fn sim(project: &Path, args: &[&str], threads: usize) -> Vec<u8> {
    let out = cav(project)
        .env("RAYON_NUM_THREADS", threads.to_string())
        .arg("sim")
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    ok(&out, &format!("cav sim {} on {threads} threads", args.join(" ")))
}

/// The same JSON from two runs, from 1 and from 2 worker threads, and from two shards merged.
fn assert_reproducible(project: &Path, args: &[&str]) {
    let what = args.join(" ");
    let first = sim(project, args, 2);
    assert_eq!(first, sim(project, args, 2), "{what}: two runs differ");
    assert_eq!(first, sim(project, args, 1), "{what}: 1 and 2 worker threads differ");
    let tmp = tempfile::tempdir().unwrap();
    let shards: Vec<PathBuf> = (1..=2).map(|i| tmp.path().join(format!("s{i}.json"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let out = cav(project)
            .arg("sim")
            .args(args)
            .args(["--format", "json", "--shard", &format!("{}/2", i + 1), "--out"])
            .arg(shard)
            .output()
            .unwrap();
        ok(&out, &format!("{what}: shard {}/2", i + 1));
    }
    let merged = cav(project).args(["sim", "merge", "--format", "json"]).args(&shards).output().unwrap();
    assert_eq!(first, ok(&merged, "merge"), "{what}: the merged shards differ from the whole run");
}

/// The reproducer: "every third activation gains 1 AP", counted in a module-level local.
#[test]
fn a_counting_script_simulates_the_same_across_runs_threads_and_shards() {
    let p = project();
    // The script does act in these games (or the comparison below would prove nothing).
    let log = p.path().join("game.jsonl");
    let out = cav(p.path()).args(["play", "memo-fight", "--seed", "1", "--quiet", "--log"]).arg(&log).output().unwrap();
    ok(&out, "cav play memo-fight");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.lines().any(|l| l.contains("\"script_effect\"") && l.contains("\"Memo\"")),
        "Memo adds its action point in the game"
    );
    assert_reproducible(p.path(), &["memo-fight", "--games", "40", "--seed", "1"]);
}

/// Two identical scenario tests of "the first activation of a game gains 1 AP" (counted in a
/// module shared through `require`): each passes alone, and both pass in one run.
#[test]
fn a_scenario_test_passes_alone_and_after_any_other() {
    let p = project();
    let pack = p.path().join("mods/module-state");
    let all = cav(p.path()).arg("test").arg(&pack).output().unwrap();
    let text = String::from_utf8_lossy(&ok(&all, "both tests")).into_owned();
    assert!(text.contains("2 passed, 0 failed"), "{text}");
    for id in ["first-wind-a", "first-wind-b"] {
        let alone = cav(p.path()).arg("test").arg(&pack).args(["--filter", id]).output().unwrap();
        let text = String::from_utf8_lossy(&ok(&alone, id)).into_owned();
        assert!(text.contains("1 passed, 0 failed"), "{id} alone: {text}");
    }
}

/// `cav odds --format json` of one Medium MAC shot of `attacker` at a Dictator-B, medium band.
fn mac_odds(project: &Path, attacker: &str) -> serde_json::Value {
    let out = cav(project)
        .args(["odds", attacker, "medium-mac", "dictator-b", "--band", "medium", "--shots", "1", "--format", "json"])
        .output()
        .unwrap();
    serde_json::from_slice(&ok(&out, attacker)).unwrap()
}

/// Exact odds: every die sequence is a game of its own, so "the first combat roll of a game gets
/// +1" helps every sequence, exactly as a +1 on every roll does (Steady).
#[test]
fn exact_odds_weigh_every_die_sequence_from_fresh_modules() {
    let p = project();
    let odds = |attacker: &str| mac_odds(p.path(), attacker)["outcomes"].clone();
    let (first_shot, steady, bare) = (odds("first-shot-b"), odds("steady-b"), odds("bare-b"));
    assert_ne!(steady, bare, "+1 on the roll changes the odds (against the same card without it)");
    assert_eq!(first_shot, steady, "each sequence's first roll gets the +1");
}

/// Exact odds resume the later die sequences from the first one's checkpoint only where that is
/// sound (runtime/rules/src/game/resume.rs): a handler that throws a die as the shot is aimed
/// (`wavering`: +1 on a 2 of 1d2) gives exactly the mean of the odds with +0 and with +1; one that
/// prints (`chatty`: +1 and a line) gives exactly the odds of the same +1 without the line.
#[test]
fn exact_odds_weigh_a_die_thrown_or_a_line_printed_as_the_shot_is_aimed() {
    let p = project();
    let odds = |attacker: &str| -> (std::collections::BTreeMap<String, f64>, u64) {
        let v = mac_odds(p.path(), attacker);
        let outcomes = v["outcomes"].as_array().unwrap().iter();
        let by = outcomes.map(|o| (o["outcome"].as_str().unwrap().to_owned(), o["chance"]["value"].as_f64().unwrap()));
        (by.collect(), v["sequences"].as_u64().unwrap())
    };
    let ((wavering, w_seq), (bare, b_seq), (steady, _)) = (odds("wavering-b"), odds("bare-b"), odds("steady-b"));
    assert_ne!(bare, steady);
    assert!(w_seq > b_seq, "the 1d2 is weighed: {w_seq} sequences against {b_seq}");
    let all: std::collections::BTreeSet<&String> = bare.keys().chain(steady.keys()).chain(wavering.keys()).collect();
    for o in all {
        let mean = (bare.get(o).unwrap_or(&0.0) + steady.get(o).unwrap_or(&0.0)) / 2.0;
        let got = wavering.get(o).copied().unwrap_or(0.0);
        assert!((got - mean).abs() < 1e-12, "{o}: {got} against the mean {mean}");
    }
    assert_eq!(odds("chatty-b").0, steady, "a printed line changes nothing of the odds");
}

/// Every scenario of the bundled content, and the example mods' faction and roster, simulate to
/// the same JSON across runs, thread counts and shardings (the full rules' games run scripts:
/// Full-Auto, Slow-Fire, Smoke, ECM…).
#[test]
fn bundled_scenarios_and_example_mods_simulate_the_same_across_runs_threads_and_shards() {
    let project = root();
    assert_reproducible(&project, &["stand-and-fight", "--games", "40", "--seed", "3"]);
    let scenarios = std::fs::read_dir(project.join("content/cav-full/scenarios")).unwrap();
    let mut ids: Vec<String> = scenarios
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    assert!(ids.len() >= 10, "the full rules' ten scenarios: {ids:?}");
    for id in &ids {
        assert_reproducible(&project, &[id, "--ruleset", "full", "--tv", "1000", "--games", "4", "--seed", "5"]);
    }
    let wolves = project.join("mods/iron-wolves/forces/wolf-pack.yaml");
    let wolves = wolves.to_str().unwrap();
    let args = ["no-man-s-land", "--ruleset", "full", "--force", wolves, "--faction", "iron-wolves", "--games", "8"];
    assert_reproducible(&project, &args);
}

/// The step budget decides, not the clock: a Monte Carlo whose every attack runs a heavy handler
/// (300,000 steps, Deliberate) gives the same report on an idle machine and on one whose CPUs are
/// all kept busy. (With a call limit of 100 ms of wall clock, the loaded run ended in "script ran
/// out of time", as `.ci/run`'s 10,000,000-attack Monte Carlo once did on a loaded 2-core machine.)
#[test]
fn a_monte_carlo_of_heavy_scripts_is_the_same_with_the_cpus_saturated() {
    let p = project();
    let monte_carlo = || {
        let args = ["odds", "deliberate-b", "medium-mac", "dictator-b", "--band", "medium", "--shots", "1"];
        let out = cav(p.path()).args(args).args(["--monte-carlo", "40", "--seed", "4"]).output().unwrap();
        String::from_utf8(ok(&out, "cav odds --monte-carlo with a heavy handler")).unwrap()
    };
    let idle = monte_carlo();
    assert!(idle.contains("every outcome within its interval"), "{idle}");
    // Four spinning threads per CPU for as long as the loaded run lasts.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
    let spinners: Vec<_> = (0..4 * cpus)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            })
        })
        .collect();
    let loaded = monte_carlo();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinners.into_iter().for_each(|s| s.join().unwrap());
    assert_eq!(idle, loaded, "the same seed and content give the same report under load");
}

/// `cav validate` says where a function keeps state in its module (`script-module-state`), at
/// the name's file:line:column, with the way out: flags.
#[test]
fn validate_warns_where_a_function_keeps_state_in_its_module() {
    let p = project();
    let out = cav(p.path()).arg("validate").output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "warnings only: {text}");
    for (at, name) in [("first_shot.luau:7:3", "`fired`"), ("memo.luau:2:63", "`calls`")] {
        let shown = text.lines().any(|l| l.contains(at));
        assert!(shown && text.contains(&format!("a function assigns {name}")), "{at} {name}: {text}");
    }
    assert_eq!(text.matches("warning[script-module-state]").count(), 2, "{text}");
    assert!(text.contains("ctx.set_flag"), "{text}");
}

/// A module nested as deep as Luau compiles does not take `cav validate` down: the check runs in
/// the `cav-typecheck` process, whose crash (an unoptimised build's stack) stops only the script
/// checks, and says so; an optimised checker gets through and finds the module too complex to
/// type-check, an error at the script like any other.
#[test]
fn a_deeply_nested_module_does_not_stop_validate() {
    let p = project();
    let deep = format!(
        "local m = {{}}\n{}{}\nfunction m.combat_tp(ctx)\n  ctx.add_modifier('roll', 'first shot', 1)\nend\nreturn m\n",
        "do ".repeat(990),
        "end ".repeat(990)
    );
    std::fs::write(p.path().join("mods/module-state/scripts/steady.luau"), deep).unwrap();
    let out = cav(p.path()).arg("validate").output().unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    let too_complex = text.contains("error[script-type]") && text.contains("too complex to typecheck");
    assert_eq!(out.status.code(), Some(if too_complex { 1 } else { 0 }), "{text}");
    assert!(
        text.contains("warning[script-module-state]") || text.contains("scripts are not type-checked"),
        "the checks ran, or say they did not: {text}"
    );
    assert_eq!(text.matches("error[").count(), usize::from(too_complex), "no other error: {text}");
}

/// `cav watch` keeps one type checker running. A module that takes a checker down (nested as
/// deep as Luau compiles: an unoptimised checker's stack) must give what a checker started for
/// the check gives, and a module checked after it too (the kept checker is started again).
#[test]
fn a_kept_type_checker_gives_what_a_fresh_one_gives_even_when_it_fails() {
    use cav_content::LoadOptions;
    use cav_script::check::keep_type_checker_running;
    let p = project();
    let roots = vec![p.path().join("content"), p.path().join("mods")];
    let opts = LoadOptions { paths: roots.clone(), library: roots };
    let check = |kept: bool| {
        keep_type_checker_running(kept);
        let mut loaded = cav_content::load(&opts);
        let rs = loaded.rulesets.iter().find(|r| r.packs.iter().any(|p| p.id == "module-state")).unwrap().clone();
        let diags = cav_script::check_scripts(&rs, &mut loaded.sources);
        cav_content::diag::render_human(&diags, &loaded.sources)
    };
    let steady = p.path().join("mods/module-state/scripts/steady.luau");
    let good = std::fs::read_to_string(&steady).unwrap();
    let deep = format!(
        "local m = {{}}\n{}{}\nfunction m.combat_tp(ctx)\n  ctx.add_modifier('roll', 'first shot', 1)\nend\nreturn m\n",
        "do ".repeat(990),
        "end ".repeat(990)
    );
    let fresh_good = check(false);
    assert!(fresh_good.contains("script-module-state"), "the checker ran: {fresh_good}");
    assert_eq!(check(true), fresh_good, "kept, first check");
    std::fs::write(&steady, &deep).unwrap();
    let fresh_deep = check(false);
    assert_eq!(check(true), fresh_deep, "kept, a module that may take the checker down");
    assert_eq!(check(true), fresh_deep, "kept, the same again");
    std::fs::write(&steady, &good).unwrap();
    assert_eq!(check(true), fresh_good, "kept, after");
    keep_type_checker_running(false);
}
