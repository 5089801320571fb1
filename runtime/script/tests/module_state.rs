//! A script module's state lives for one game: every game on a host starts from fresh module
//! instances (their locals, tables and globals, and what `require` gives), whatever the games
//! before it did; what a module prints as it loads is printed in every game.

use std::path::{Path, PathBuf};

use cav_format::HookPoint;
use cav_rules::hooks::{HookCtx, Hooks};
use cav_rules::{Event, NoLog, Rules, SeededDice, setup::scenario_game};
use cav_script::{Limits, LuaHost, Sandbox};

/// The Quick-Start rules whose special attributes `scripts` (id, source) run the given Luau,
/// with `shared.luau` beside them for `require`.
fn rules_with(scripts: &[(&str, &str)], shared: &str) -> (Rules, tempfile::TempDir) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let mut rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("shared.luau"), shared).unwrap();
    for (id, source) in scripts {
        std::fs::write(dir.path().join(format!("{id}.luau")), source).unwrap();
        let sa = rules.sas.iter_mut().find(|s| s.id == *id).unwrap();
        sa.script = Some(((*id).into(), vec![PathBuf::from(dir.path())]));
    }
    (rules, dir)
}

/// The Quick-Start duel with seed 3 on `host`; what the scripts printed, in order.
fn duel_prints(rules: &Rules, host: &mut LuaHost) -> Vec<String> {
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut dice = SeededDice::new(3);
    let mut log = Vec::new();
    let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
    let mut engine = cav_rules::Engine { game, dice: &mut dice, log: &mut log, hooks: host };
    engine.play(&mut cav_rules::bot::Bot::default()).unwrap();
    log.into_iter()
        .filter_map(|e| match e {
            Event::ScriptPrint { text, .. } => Some(text),
            _ => None,
        })
        .collect()
}

const COUNTING_STRIKE: &str = "
local shared = require('shared')
print('strike loads')
local calls = 0
seen = 0 -- a global of the module's own environment (frozen once it has loaded)
local m = {}
function m.attack_declare(ctx)
  calls += 1
  print('declare', calls, seen, shared.bump())
end
return m
";

const COUNTER: &str = "local n = 0\nreturn { bump = function() n += 1 return n end, get = function() return n end }";

#[test]
fn every_game_on_a_host_starts_from_fresh_modules() {
    let (rules, _dir) = rules_with(&[("strike", COUNTING_STRIKE)], COUNTER);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let first = duel_prints(&rules, &mut host);
    assert_eq!(first.first().map(String::as_str), Some("strike loads"), "the load's print is the game's: {first:?}");
    assert_eq!(first.iter().filter(|p| *p == "strike loads").count(), 1, "one instance a game: {first:?}");
    assert!(first.contains(&"declare\t1\t0\t1".to_owned()), "{first:?}");
    assert!(first.contains(&"declare\t2\t0\t2".to_owned()), "the state lives through the game: {first:?}");
    // The same game again on the same host: the same prints, counting from 1 again.
    assert_eq!(duel_prints(&rules, &mut host), first);
    // And on a fresh host.
    let mut fresh = LuaHost::new(&rules, Limits::default()).unwrap();
    assert_eq!(duel_prints(&rules, &mut fresh), first);
}

/// A module's top level runs when its first handler of a game does, so it could read what
/// other handlers changed in a module both `require`; a top level that then returns other
/// handlers than it did at load is an error naming it, not a rule silently dropped.
#[test]
fn a_module_whose_handlers_depend_on_game_state_at_load_is_an_error() {
    let smart = "local s = require('shared')\nreturn { attack_declare = function(ctx) s.bump() end }";
    let strike =
        "local s = require('shared')\nif s.get() > 0 then return {} end\nreturn { attack_declare = function(ctx) end }";
    let (rules, _dir) = rules_with(&[("smart", smart), ("strike", strike)], COUNTER);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    host.new_game();
    // Red's Light Rockets (mount 2, Smart) first, then its Medium MACs (mount 0, Strike).
    let mut rockets = HookCtx::new(HookPoint::AttackDeclare, 1).target(0).weapon(2);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut rockets).unwrap();
    let mut macs = HookCtx::new(HookPoint::AttackDeclare, 1).target(0).weapon(0);
    let err = host.call(&game, &mut cav_rules::ForcedDice::default(), &mut macs).unwrap_err();
    assert!(err.contains("Strike") && err.contains("strike.luau") && err.contains("other hook points"), "{err}");
    // In a new game, the MACs first: the module loads as it did.
    host.new_game();
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut macs).unwrap();
}

/// Weak tables would show when memory is collected — which depends on the games played before on
/// the same Lua state, not on this one — so modules may not make them, and a metatable is frozen
/// once set so `__mode` cannot be added later. Ordinary metatables work as before.
#[test]
fn weak_tables_are_refused_and_metatables_frozen_once_set() {
    let sb = cav_script::Sandbox::new(Limits::default(), vec![]).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let module = |name: &str, source: &str| -> Result<String, String> {
        let path = dir.path().join(name);
        std::fs::write(&path, source).unwrap();
        cav_script::sandbox::load_module(&sb, &path)
            .map(|v| v.to_string().unwrap_or_default())
            .map_err(|e| e.to_string())
    };
    let err = module("weak.luau", "local cache = setmetatable({}, {__mode = 'k'})\nreturn {}").unwrap_err();
    assert!(err.contains("weak.luau:1") && err.contains("weak tables (`__mode`) are not available"), "{err}");
    let err =
        module("late.luau", "local mt = {}\nlocal t = setmetatable({}, mt)\nmt.__mode = 'k'\nreturn {}").unwrap_err();
    assert!(err.contains("late.luau:3"), "{err}");
    let class = "local C = {}\nC.__index = C\nfunction C.get(s) return s.v end\nreturn setmetatable({v = 3}, C):get()";
    assert_eq!(module("class.luau", class).unwrap(), "3");
}

/// The limits that decide are counted in steps, never in wall-clock time, so a game ends the same
/// on a loaded machine: a loop whose every step does real work (a `tostring`) ends by its step
/// budget, far inside the wall-clock safety net; a game's calls share a budget of steps too; and
/// `table.move` reads its bounds as the C function does (a numeric string is no way around it).
#[test]
fn budgets_are_steps_not_wall_clock_time() {
    let sb = cav_script::Sandbox::new(Limits::default(), vec![]).unwrap();
    assert!(Limits::default().time >= std::time::Duration::from_secs(1), "the wall clock is only a far net");
    let err = sb.run("local t = {} for i = 1, 1e9 do t[i % 100] = tostring(i) end", "heavy.luau").unwrap_err();
    assert!(err.to_string().contains("ran out of its budget of 2000000 steps"), "{err}");

    let err = sb.run("table.move({}, '1', '2147483646', 2, {})", "move.luau").unwrap_err();
    assert!(err.to_string().contains("2147483646 elements is more than the 262144"), "{err}");
    assert_eq!(sb.run("return table.move({1, 2, 3}, '1', '3', 2, {})[4]", "ok.luau").unwrap(), vec!["3".to_owned()]);

    // Three calls of 40 steps fit a game budget of 100 steps only until a new game starts.
    let small = Limits { steps_per_game: 100, ..Limits::default() };
    let sb = cav_script::Sandbox::new(small, vec![]).unwrap();
    let call = || sb.run("for i = 1, 40 do end", "call.luau");
    assert!(call().is_ok() && call().is_ok());
    let err = call().unwrap_err();
    assert!(err.to_string().contains("budget of 100 steps for the game"), "{err}");
    sb.new_game();
    assert!(call().is_ok(), "a new game, a new budget");
}

/// Garbage a game leaves does not run the next one out of memory (Luau has no emergency
/// collection): a module that makes megabytes of garbage, at its top level and in a handler,
/// played three times: each game's top level runs, and then a small chunk still runs. The fuzz target `script` found it
/// (tests/fuzz: `pcall(table.create, buffer.create(1793139))` in both places).
#[test]
fn garbage_left_by_a_game_does_not_reach_the_next() {
    let sb = Sandbox::new(Limits::default(), vec![]).unwrap();
    let source = "local M = {}\nlocal function calls() pcall(table.create, buffer.create(1793139)) end\ncalls()\n\
                  function M.o() calls() end\nreturn M";
    let chunk = sb.lua.load(source).set_name("garbage").into_function().unwrap();
    for game in 0..3 {
        sb.new_game();
        sb.arm();
        let module = cav_script::sandbox::instantiate(&sb.lua, &chunk, &sb.module_env)
            .unwrap_or_else(|e| panic!("game {game}: the module's top level: {e}"));
        let mlua::Value::Table(t) = module else { panic!("a table") };
        let handler: mlua::Function = t.get("o").unwrap();
        // Its own garbage may run the handler out of memory (its error, in its game); what it
        // leaves must not fail the next game's start.
        sb.arm();
        let _ = handler.call::<()>(());
        sb.disarm();
    }
    sb.new_game();
    assert_eq!(sb.run("return 1 + 1", "after").unwrap(), vec!["2"]);
}
