//! `cav test`: the scenario tests of packs run under every ruleset they join, reported as text,
//! JSON or JUnit; and the tests of a ruleset, which `cav hooks` and `cav coverage` run too.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_format::DocKind;

use crate::narrative::narrate;
use crate::progress::progress;
use serde::{Deserialize, Serialize};

use crate::project::{load_checked, load_options};
use crate::result_cache;
use crate::runner::lua_host;
use crate::{EXIT_INVALID, Format, reports};

/// `cav test`: the tests of the packs at `paths` (those whose id holds `filter`), each failure at
/// its line; exit 1 when one fails. Content unchanged since an earlier run gives the runs of
/// then (`result_cache::kept`: the tests are deterministic, their outcome is a function of the
/// content), printed and reported as now.
#[allow(clippy::too_many_arguments)]
pub fn run(
    root: &Path,
    paths: Vec<PathBuf>,
    filter: Option<String>,
    verbose: bool,
    format: Format,
    junit: Option<PathBuf>,
    no_cache: bool,
) -> Result<ExitCode, String> {
    // An unwritable report path fails before the tests run, not after.
    let junit_file = junit
        .as_ref()
        .map(|p| std::fs::File::create(p).map_err(|e| format!("cannot write the JUnit report {}: {e}", p.display())))
        .transpose()?;
    let human = format == Format::Human;
    let opts = load_options(paths, root);
    let what: [(&str, &[u8]); 2] =
        [("filter", filter.as_deref().map_or(&[0xff][..], str::as_bytes)), ("verbose", &[u8::from(verbose)])];
    // Lines said while the tests run stream out as they pass; lines kept are printed at once.
    let mut streamed = false;
    let tested = result_cache::kept(no_cache, "test", &opts, &what, || {
        streamed = true;
        Ok(run_tests(&opts, filter.as_deref(), verbose, human))
    })?;
    let report = match tested {
        Tested::Stopped { code, stderr } => {
            eprint!("{stderr}");
            return Ok(ExitCode::from(code));
        }
        Tested::Ran { lines, report } => {
            let mut out = std::io::stdout().lock();
            if human && !streamed {
                for line in &lines {
                    let _ = writeln!(out, "{line}");
                }
            }
            if human {
                let _ = writeln!(out, "{} passed, {} failed", report.passed, report.failed);
            } else {
                let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report).unwrap_or_default());
            }
            report
        }
    };
    if let (Some(mut file), Some(path)) = (junit_file, junit) {
        file.write_all(reports::junit(&report).as_bytes())
            .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
    }
    Ok(ExitCode::from(if report.failed == 0 { 0 } else { EXIT_INVALID }))
}

/// What `cav test` found: every run's lines (as the human report says them) and outcome; or
/// the content stopped it (its errors, said on stderr).
#[derive(Serialize, Deserialize)]
enum Tested {
    Ran { lines: Vec<String>, report: reports::TestReport },
    Stopped { code: u8, stderr: String },
}

/// The tests run, each line said as it is known when `say_now` (a human report); and whether a
/// finding depended on the moment (the result is then not kept).
fn run_tests(opts: &cav_content::LoadOptions, filter: Option<&str>, verbose: bool, say_now: bool) -> (Tested, bool) {
    let ((loaded, compiled), transient) =
        match load_checked(opts, "fix them before testing (`cav validate` shows warnings too)") {
            (Ok(checked), transient) => (checked, transient),
            (Err(errors), transient) => {
                return (Tested::Stopped { code: errors.code, stderr: errors.stderr }, transient);
            }
        };
    let packs: Vec<&str> = loaded.packs.iter().map(|p| p.id.as_str()).collect();
    let keep = |e: &cav_content::Entry| packs.contains(&e.pack.as_str()) && filter.is_none_or(|f| e.id.contains(f));
    let total: usize = loaded.rulesets.iter().map(|rs| ruleset_test_entries(rs, keep).len()).sum();
    let bar = progress(total as u64, "testing");
    let mut report = reports::TestReport { passed: 0, failed: 0, tests: Vec::new() };
    let mut lines = Vec::new();
    let mut out = std::io::stdout().lock();
    let mut say = |line: String| {
        if say_now {
            bar.suspend(|| writeln!(out, "{line}")).ok();
        }
        lines.push(line);
    };
    // The content compiled without error, yet a ruleset gave no rules or its scripts did not
    // load (said on stderr): the run stops, and is not kept.
    let stopped = (Tested::Stopped { code: EXIT_INVALID, stderr: String::new() }, true);
    for (rs, rules) in loaded.rulesets.iter().zip(compiled) {
        let tests = ruleset_test_entries(rs, keep);
        if tests.is_empty() {
            continue;
        }
        let Some(rules) = rules else { return stopped };
        let Some(mut host) = lua_host(&rules) else { return stopped };
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
            let Some(cav_format::Document::Test(t)) = e.doc.as_deref() else { continue };
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
    (Tested::Ran { lines, report }, transient)
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
    events.iter().filter_map(|e| narrate(&game_names, e)).collect()
}

/// The scenario tests that run under ruleset `rs` (those written for it), of the entries `keep`
/// accepts.
pub fn ruleset_tests(rs: &cav_content::Ruleset, keep: impl Fn(&cav_content::Entry) -> bool) -> Vec<&cav_format::Test> {
    ruleset_test_entries(rs, keep).into_iter().map(|(_, t)| t).collect()
}

/// [`ruleset_tests`], with each test's entry (its pack).
fn ruleset_test_entries(
    rs: &cav_content::Ruleset,
    keep: impl Fn(&cav_content::Entry) -> bool,
) -> Vec<(&cav_content::Entry, &cav_format::Test)> {
    rs.of_kind(DocKind::Test)
        .filter(|e| keep(e))
        .filter_map(|e| match e.doc.as_deref() {
            Some(cav_format::Document::Test(t)) if t.runs_under(&rs.id) => Some((e, t)),
            _ => None,
        })
        .collect()
}
