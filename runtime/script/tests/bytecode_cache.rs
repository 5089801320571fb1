//! Scripts are compiled once per process and their bytecode reused: a load from the cache must
//! behave exactly like a load of the text (results, error text with file:line, tracebacks,
//! syntax errors), and scripts must still be unable to load bytecode of their own.

use cav_script::sandbox::{Limits, Sandbox, load_module};
use mlua::chunk::ChunkMode;

fn sandbox(roots: Vec<std::path::PathBuf>) -> Sandbox {
    Sandbox::new(Limits::default(), roots).expect("sandbox")
}

/// The result of `source` loaded as text the way the host loaded scripts before the cache.
fn text_load(sb: &Sandbox, source: &str, name: &str) -> Result<Vec<String>, String> {
    sb.arm();
    let r = sb
        .lua
        .load(source)
        .set_name(format!("@{name}"))
        .set_mode(ChunkMode::Text)
        .into_function()
        .and_then(|f| f.call::<mlua::MultiValue>(()))
        .map(|vs| vs.iter().map(|v| v.to_string().unwrap_or_else(|_| format!("{v:?}"))).collect())
        .map_err(|e| e.to_string());
    sb.disarm();
    r
}

const RUNTIME_ERROR: &str = "local t = {}\n\nlocal function deep(n)\n  if n == 0 then\n    return t.x.y\n  end\n  return deep(n - 1) + 1\nend\nreturn deep(3)\n";

#[test]
fn cached_load_matches_text_load() {
    let sb = sandbox(vec![]);
    let ok = "local s = 0\nfor i = 1, 10 do s += i * i end\nreturn s, 'x' .. s, { 1 } ~= nil, 7 // 2\n";
    let want = text_load(&sb, ok, "sums.luau");
    for _ in 0..3 {
        assert_eq!(sb.run(ok, "sums.luau").map_err(|e| e.to_string()), want);
    }
    let want = text_load(&sb, RUNTIME_ERROR, "scripts/deep.luau").unwrap_err();
    assert!(want.contains("scripts/deep.luau:5:"), "{want}");
    for _ in 0..3 {
        // The first run compiles and caches, the next ones load the cached bytecode; a fresh
        // sandbox uses the same process-wide cache.
        assert_eq!(sb.run(RUNTIME_ERROR, "scripts/deep.luau").unwrap_err().to_string(), want);
        assert_eq!(sandbox(vec![]).run(RUNTIME_ERROR, "scripts/deep.luau").unwrap_err().to_string(), want);
    }
    // The chunk name is not in the bytecode: the same text under another name reports that name.
    let other = sb.run(RUNTIME_ERROR, "other.luau").unwrap_err().to_string();
    assert_eq!(other, want.replace("scripts/deep.luau", "other.luau"));
}

#[test]
fn step_budget_is_the_same_from_the_cache() {
    let limits = Limits { steps: 1000, ..Limits::default() };
    let sb = Sandbox::new(limits, vec![]).unwrap();
    let src = "local n = 0\nwhile true do\n  n += 1\nend\n";
    let want = text_load(&sb, src, "loop.luau").unwrap_err();
    assert!(want.contains("loop.luau:") && want.contains("budget of 1000 steps"), "{want}");
    for _ in 0..2 {
        assert_eq!(sb.run(src, "loop.luau").unwrap_err().to_string(), want);
    }
    // Exactly as many steps are allowed: a loop that fits still fits.
    let fits = "local n = 0\nfor i = 1, 200 do n += i end\nreturn n\n";
    assert_eq!(text_load(&sb, fits, "fits.luau").unwrap(), ["20100"]);
    assert_eq!(sb.run(fits, "fits.luau").unwrap(), ["20100"]);
}

#[test]
fn syntax_error_reports_the_same_message_every_time() {
    let sb = sandbox(vec![]);
    let bad = "local x = 1\nlocal function f(\n  return x\nend\n";
    let want = text_load(&sb, bad, "bad.luau").unwrap_err();
    assert!(want.contains("bad.luau:3:"), "{want}");
    for _ in 0..3 {
        assert_eq!(sb.run(bad, "bad.luau").unwrap_err().to_string(), want);
    }
}

#[test]
fn modules_from_the_cache_behave_as_from_text() {
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("m.luau"), RUNTIME_ERROR.replace("return deep(3)", "return { go = deep }"))
        .unwrap();
    std::fs::write(root.path().join("bad.luau"), "return {\n  x = = 1,\n}\n").unwrap();
    let roots = vec![root.path().canonicalize().unwrap()];
    let path = roots[0].join("m.luau");
    let mut seen = Vec::new();
    for _ in 0..3 {
        let sb = sandbox(roots.clone());
        let err = sb.run("return require('m').go(2)", "main.luau").unwrap_err().to_string();
        assert!(err.contains(&format!("{}:5:", path.display())), "{err}");
        let bad = sb.run("return require('bad')", "main.luau").unwrap_err().to_string();
        assert!(bad.contains(&format!("{}:2:", roots[0].join("bad.luau").display())), "{bad}");
        sb.arm();
        let direct = load_module(&sb, &roots[0].join("bad.luau")).unwrap_err().to_string();
        sb.disarm();
        seen.push((err, bad, direct));
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "{seen:#?}");
}

#[test]
fn scripts_still_cannot_load_bytecode() {
    let code = mlua::chunk::Compiler::new().compile("return 'from bytecode'").unwrap();
    let sb = sandbox(vec![]);
    // No loader is reachable from a script.
    assert_eq!(sb.run("return type(load), type(loadstring)", "t").unwrap(), ["nil", "nil"]);
    assert!(sb.run("return loadstring('return 1')()", "t").is_err());
    // Bytecode handed to the host as a script's text is refused, first time and every time.
    let text = String::from_utf8(code.clone()).expect("this bytecode is valid UTF-8");
    for _ in 0..2 {
        let err = sb.run(&text, "t").unwrap_err().to_string();
        assert!(err.contains("binary chunk"), "{err}");
    }
    // So is a module file holding bytecode.
    let root = tempfile::tempdir().unwrap();
    std::fs::write(root.path().join("bin.luau"), &code).unwrap();
    let sb = sandbox(vec![root.path().to_owned()]);
    for _ in 0..2 {
        let err = sb.run("return require('bin')", "t").unwrap_err().to_string();
        assert!(err.contains("binary chunk"), "{err}");
        assert!(!err.contains("from bytecode"), "{err}");
    }
}
