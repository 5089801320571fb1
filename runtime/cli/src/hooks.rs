//! `cav hooks`: every hook point of the vocabulary — when it fires, what `ctx` holds there, the
//! effects and quantities it accepts — with the scenario tests that exercise it. The tests are
//! found by running every pack's scenario tests with the real Lua host and recording at which
//! points a handler ran, so the list cannot drift from the engine.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use cav_format::HookPoint;
use cav_format::vocab::HANDLER_ORDER;

use crate::commands::test::ruleset_tests;
use crate::progress::progress;
use crate::project::{load_checked, load_options};
use crate::result_cache::{self, Output};
use crate::{EXIT_INVALID, Format};

/// `cav hooks`: the content checked, its tests run, every hook point listed with them; exit 1
/// when an implemented point has no passing test.
/// Content unchanged since an earlier run answers from the cache (`result_cache::answer`).
pub fn run(root: &Path, format: Format, no_cache: bool) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    let what: [(&str, &[u8]); 1] = [("format", if format == Format::Json { b"json" } else { b"human" })];
    result_cache::answer(no_cache, "hooks", &opts, &what, || {
        let ((loaded, compiled), transient) = match load_checked(&opts, "fix them first (`cav validate`)") {
            (Ok(checked), transient) => (checked, transient),
            (Err(errors), transient) => return Ok((errors, transient)),
        };
        let by_point = exercised(&loaded, &compiled)?;
        let mut out = Vec::new();
        let complete = report(&by_point, format == Format::Json, &mut out);
        let stdout = String::from_utf8(out).map_err(|e| e.to_string())?;
        Ok((Output { code: if complete { 0 } else { EXIT_INVALID }, stdout, stderr: String::new() }, transient))
    })
}

/// The tests (id, passed) that ran a handler at each hook point, by `HookPoint as usize`.
pub fn exercised(
    loaded: &cav_content::Loaded,
    compiled: &[Option<cav_rules::Rules>],
) -> Result<Vec<Vec<(String, bool)>>, String> {
    let mut by_point: Vec<Vec<(String, bool)>> = vec![Vec::new(); HookPoint::ALL.len()];
    let total: usize = loaded.rulesets.iter().map(|rs| ruleset_tests(rs, |_| true).len()).sum();
    let bar = progress(total as u64, "running the tests");
    for (rs, rules) in loaded.rulesets.iter().zip(compiled) {
        let Some(rules) = rules else { continue };
        let tests = ruleset_tests(rs, |_| true);
        if tests.is_empty() {
            continue;
        }
        let mut host =
            cav_script::LuaHost::new(rules, cav_script::Limits::default()).map_err(|e| format!("scripts: {e}"))?;
        for t in tests {
            host.take_ran();
            bar.inc(1);
            let outcome = cav_rules::testing::run_test_with(rules, t, &mut host);
            let ran = host.take_ran();
            for &p in HookPoint::ALL {
                if ran & (1 << p as u32) != 0 {
                    by_point[p as usize].push((outcome.id.clone(), outcome.passed()));
                }
            }
        }
    }
    bar.finish_and_clear();
    Ok(by_point)
}

/// Print the list; exit code 1 when an implemented hook point has no passing test.
pub fn report(by_point: &[Vec<(String, bool)>], json: bool, out: &mut impl Write) -> bool {
    let mut complete = true;
    let mut rows = Vec::new();
    for &p in HookPoint::ALL {
        let tests = &by_point[p as usize];
        let passing: Vec<&str> = tests.iter().filter(|(_, ok)| *ok).map(|(id, _)| id.as_str()).collect();
        let failing: Vec<&str> = tests.iter().filter(|(_, ok)| !*ok).map(|(id, _)| id.as_str()).collect();
        if p.status().implemented() && passing.is_empty() {
            complete = false;
        }
        rows.push((p, passing, failing));
    }
    if json {
        let strs = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let doc = crate::reports::HooksReport {
            handler_order: HANDLER_ORDER.to_owned(),
            hook_points: rows
                .iter()
                .map(|(p, passing, failing)| crate::reports::HookPointOut {
                    id: p.id().to_owned(),
                    status: if p.status().implemented() { "implemented".to_owned() } else { p.status().describe() },
                    when: p.doc().to_owned(),
                    ctx: p.ctx_fields().to_string(),
                    as_target: p.has_target(),
                    effects: p.accepts().iter().map(|e| e.id().to_owned()).collect(),
                    quantities: p.quantities().iter().map(|q| q.id().to_owned()).collect(),
                    tests: strs(passing),
                    failing_tests: strs(failing),
                })
                .collect(),
            complete,
        };
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return complete;
    }
    let _ = writeln!(out, "Whose handlers run: {HANDLER_ORDER}.\n");
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (p, passing, failing) in &rows {
        let status = if p.status().implemented() {
            *counts.entry("implemented").or_default() += 1;
            "implemented".to_owned()
        } else {
            *counts.entry("not called").or_default() += 1;
            p.status().describe()
        };
        let _ = writeln!(out, "{p}  [{status}]");
        let _ = writeln!(out, "  when:       {}", p.doc());
        if p.status().implemented() {
            let fx: Vec<&str> = p.accepts().iter().map(|e| e.id()).collect();
            let qs: Vec<&str> = p.quantities().iter().map(|q| q.id()).collect();
            let _ = writeln!(out, "  ctx holds:  {}", p.ctx_fields());
            let _ = writeln!(
                out,
                "  effects:    {}{}",
                if fx.is_empty() { "none (look only)".to_owned() } else { fx.join(", ") },
                if qs.is_empty() { String::new() } else { format!(" — quantities: {}", qs.join(", ")) }
            );
            if p.has_target() {
                let _ = writeln!(out, "  as_target:  the other model's `as_target.{p}` handlers run too");
            }
            let shown: Vec<&str> = passing.iter().take(3).copied().collect();
            let more = if passing.len() > 3 { format!(" and {} more", passing.len() - 3) } else { String::new() };
            let _ = writeln!(
                out,
                "  tested by:  {}{more}",
                if shown.is_empty() { "NO PASSING SCENARIO TEST".to_owned() } else { shown.join(", ") }
            );
            if !failing.is_empty() {
                let _ = writeln!(out, "  failing:    {}", failing.join(", "));
            }
        }
        let _ = writeln!(out);
    }
    let tested = rows.iter().filter(|(p, passing, _)| p.status().implemented() && !passing.is_empty()).count();
    let _ = writeln!(
        out,
        "{} hook points: {} implemented ({tested} with a passing scenario test), {} not called yet",
        HookPoint::ALL.len(),
        counts.get("implemented").copied().unwrap_or(0),
        counts.get("not called").copied().unwrap_or(0)
    );
    complete
}
