//! What scripts make the host hold is bounded too: prints, modifier labels and values, forbid
//! reasons, set_value, and script files. Each refusal names the special attribute, the hook and
//! the script's file, ends within a second, and the process's peak memory stays bounded. (Its
//! own test binary: VmHWM is per process.)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cav_format::HookPoint;
use cav_rules::hooks::{HookCtx, Hooks};
use cav_rules::{NoLog, Rules, SeededDice, setup::scenario_game};
use cav_script::{Limits, LuaHost, Sandbox};

fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

/// Call `point` on red's Medium MAC (Strike) with `source` as the Strike script, `times` times.
fn call(rules: &Rules, source: &str, point: HookPoint, times: usize) -> Result<(), String> {
    let mut rules = rules.clone();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("strike.luau"), source).unwrap();
    rules.sas.iter_mut().find(|s| s.id == "strike").unwrap().script =
        Some(("strike".into(), vec![PathBuf::from(dir.path())]));
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default())?;
    for _ in 0..times {
        let mut ctx = HookCtx::new(point, 1).target(0).weapon(0).value(3.0);
        let start = Instant::now();
        let r = host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx);
        assert!(start.elapsed() < Duration::from_secs(1), "a call took {:?}", start.elapsed());
        r?;
        host.take_prints();
    }
    Ok(())
}

#[test]
fn host_side_copies_are_bounded() {
    let rules = rules();
    let before = peak_kib();
    let big = "local big = string.rep('x', 1024 * 1024)\n";
    let cases: &[(&str, String, HookPoint, &str)] = &[
        (
            "print a large string in a loop",
            format!("{big}return {{ attack_declare = function(ctx)\n  for i = 1, 1000 do print(big) end\nend }}"),
            HookPoint::AttackDeclare,
            "strike.luau:3: print: over the budget",
        ),
        (
            "print many references to one string",
            format!(
                "{big}return {{ attack_declare = function(ctx)\n  print(table.unpack(table.create(1000, big)))\nend }}"
            ),
            HookPoint::AttackDeclare,
            "strike.luau:3: print: over the budget",
        ),
        (
            "a large modifier label",
            format!("{big}return {{ combat_tp = function(ctx)\n  ctx.add_modifier('roll', big, 1)\nend }}"),
            HookPoint::CombatTp,
            "strike.luau:3: `ctx.add_modifier` source of 1048576 bytes is longer than 200 bytes",
        ),
        (
            "a large forbid reason",
            format!("{big}return {{ attack_declare = function(ctx)\n  ctx.forbid(big)\nend }}"),
            HookPoint::AttackDeclare,
            "strike.luau:3: `ctx.forbid` reason of 1048576 bytes is longer than 200 bytes",
        ),
        (
            "many modifiers",
            "return { combat_tp = function(ctx)\n  for i = 1, 1e6 do ctx.add_modifier('roll', 'x', 1) end\nend }"
                .into(),
            HookPoint::CombatTp,
            "strike.luau:2: `ctx.add_modifier`: more than 64 effects in one call",
        ),
        (
            "a modifier that would wrap the roll",
            "return { combat_tp = function(ctx)\n  ctx.add_modifier('roll', 'x', 2147483647)\nend }".into(),
            HookPoint::CombatTp,
            "strike.luau:2: `ctx.add_modifier` value 2147483647 is not a whole number from -1000 to 1000",
        ),
        (
            "a fractional modifier",
            "return { combat_tp = function(ctx)\n  ctx.add_modifier('roll', 'x', 0.5)\nend }".into(),
            HookPoint::CombatTp,
            "is not a whole number",
        ),
        (
            "set_value NaN",
            "return { attack_targets = function(ctx)\n  ctx.set_value(0/0)\nend }".into(),
            HookPoint::AttackTargets,
            "strike.luau:2: `ctx.set_value` needs a finite number, not NaN",
        ),
        (
            "set_value infinity",
            "return { attack_targets = function(ctx)\n  ctx.set_value(-math.huge)\nend }".into(),
            HookPoint::AttackTargets,
            "needs a finite number",
        ),
    ];
    for (name, source, point, must) in cases {
        let err = call(&rules, source, *point, 200).expect_err(name);
        assert!(err.contains(must), "{name}: {err:?} does not contain {must:?}");
        assert!(err.starts_with("Strike (") || err.starts_with("Strike: "), "{name}: {err}");
    }
    let grew = peak_kib().saturating_sub(before);
    eprintln!("peak memory grew by {grew} KiB");
    assert!(grew < 64 * 1024, "peak memory grew by {grew} KiB");

    // Two 100 MB string literals: refused by size before the file is read or compiled.
    let source = format!("local a = \"{0}\"\nlocal b = \"{0}\"\nreturn {{}}", "x".repeat(100 << 20));
    let err = call(&rules, &source, HookPoint::AttackDeclare, 1).unwrap_err();
    let must = "strike.luau: script of 209715235 bytes is larger than the 262144 bytes a script may have";
    assert!(err.starts_with("Strike: ") && err.contains(must), "{err}");
}

#[test]
fn a_chunk_over_the_size_limit_is_refused_before_compiling() {
    let sb = Sandbox::new(Limits::default(), vec![]).unwrap();
    let chunk = format!("local a = \"{}\"", "x".repeat(300 * 1024));
    let err = sb.run(&chunk, "big.luau").unwrap_err().to_string();
    assert!(err.contains("big.luau: script of 307212 bytes is larger than"), "{err}");
    assert_eq!(sb.run("return 1 + 1", "after").unwrap(), vec!["2"]);
}

/// The clock is checked at every interrupt, so the budget must end with each call: Lua code the
/// host runs between calls (mlua's helpers, when a view type is first made) is not charged to a
/// call that ended long ago.
#[test]
fn a_host_idle_longer_than_the_budget_still_works() {
    let rules = rules();
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    std::thread::sleep(Duration::from_millis(150));
    let mut ctx = HookCtx::new(HookPoint::AttackDeclare, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx).unwrap();
}
