//! The Luau definitions of the hook API (`schemas/cav-hooks.d.luau`, for luau-lsp) checked with
//! Luau's own type checker — `Luau.Analysis`, the analyzer luau-lsp is built on, in process through
//! the `luau-analyze` crate (strict mode, the new solver): the definitions load, every pack's
//! scripts type-check against them, and the worked example, typed as the handler table
//! (`local overcharge: CavHandlers = {}`), turns a misspelled handler into a type error.

use std::path::{Path, PathBuf};

use luau_analyze::Checker;

fn checker() -> Checker {
    let defs = std::fs::read_to_string(cav_tests::root().join("schemas/cav-hooks.d.luau")).unwrap();
    let mut c = Checker::new().expect("the Luau checker starts");
    c.add_definitions(&defs).unwrap_or_else(|e| panic!("schemas/cav-hooks.d.luau does not load: {e}"));
    c
}

/// The type errors of `source`, as `line:col message` (1-based).
fn errors(c: &mut Checker, source: &str) -> Vec<String> {
    let r = c.check(source).unwrap_or_else(|e| panic!("the checker failed: {e}"));
    assert!(!r.timed_out && !r.cancelled, "the check did not finish");
    r.errors().iter().map(|d| format!("{}:{} {}", d.line + 1, d.col + 1, d.message)).collect()
}

fn scripts(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            scripts(&p, out);
        } else if p.extension().is_some_and(|x| x == "luau") && p.components().any(|c| c.as_os_str() == "scripts") {
            out.push(p);
        }
    }
}

/// Every script of the bundled packs type-checks against the definitions.
#[test]
fn every_pack_script_type_checks_against_the_hook_definitions() {
    let root = cav_tests::root();
    let mut files = Vec::new();
    scripts(&root.join("content"), &mut files);
    scripts(&root.join("mods"), &mut files);
    files.sort();
    assert!(files.len() > 10, "found only {files:?}");
    let mut c = checker();
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let errs = errors(&mut c, &std::fs::read_to_string(f).unwrap());
            (!errs.is_empty()).then(|| format!("{}: {}", f.strip_prefix(&root).unwrap().display(), errs.join("; ")))
        })
        .collect();
    assert!(failures.is_empty(), "type errors:\n{}", failures.join("\n"));
}

/// The worked example is typed as the handler table: a misspelled handler, or a misspelled
/// effect function, is a type error at its line.
#[test]
fn a_misspelled_handler_is_a_type_error() {
    let path = cav_tests::root().join("mods/overcharge/scripts/overcharge.luau");
    let script = std::fs::read_to_string(path).unwrap();
    assert!(script.contains("local overcharge: CavHandlers = {}"), "the example is no longer typed as CavHandlers");
    let mut c = checker();
    assert_eq!(errors(&mut c, &script), Vec::<String>::new());

    let typo = script.replacen("function overcharge.damage_calc(", "function overcharge.damage_calcc(", 1);
    let errs = errors(&mut c, &typo);
    let line = typo.lines().position(|l| l.contains("damage_calcc")).unwrap() + 1;
    assert!(
        errs.iter()
            .any(|e| e.starts_with(&format!("{line}:")) && e.contains("damage_calcc") && e.contains("CavHandlers")),
        "a misspelled handler is not flagged at line {line}: {errs:?}"
    );

    let typo = script.replacen("ctx.add_modifier(", "ctx.add_modifer(", 1);
    let errs = errors(&mut c, &typo);
    assert!(errs.iter().any(|e| e.contains("add_modifer")), "a misspelled effect is not flagged: {errs:?}");
}

/// The module `cav new sa ID --script` writes type-checks as it stands: an author starts from a
/// script the checker accepts, typed as the handler table.
#[test]
fn the_scaffolded_script_type_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = cav_tests::cav_in(&cav_tests::root()).args(args).current_dir(tmp.path()).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["new", "pack", "typed"]);
    run(&["new", "sa", "flare-coil", "--script", "--pack", "typed"]);
    let script = std::fs::read_to_string(tmp.path().join("typed/scripts/flare_coil.luau")).unwrap();
    assert!(script.contains(": CavHandlers = {}"), "{script}");
    assert_eq!(errors(&mut checker(), &script), Vec::<String>::new());
}
