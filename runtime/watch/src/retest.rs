//! Re-running the packs' scenario tests after each reload (`--test`): the packs a save edited, and
//! their tests under every ruleset they join.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use cav_content::Loaded;
use cav_rules::Rules;
use cav_script::{Limits, LuaHost};

use crate::report::Announce;

/// The ruleset's tests of the `packs` edited (all, when `None`): how many pass, and each that
/// fails with its first failure.
fn run_tests(
    live_loaded: &Loaded,
    rules: &Rules,
    host: &mut LuaHost,
    packs: Option<&BTreeSet<String>>,
) -> (usize, Vec<(String, String)>) {
    let (mut pass, mut fail) = (0, Vec::new());
    for rs in live_loaded.rulesets.iter().filter(|r| r.id == rules.id) {
        for e in rs.of_kind(cav_format::DocKind::Test) {
            if packs.is_some_and(|p| !p.contains(&e.pack)) {
                continue;
            }
            if let Some(cav_format::Document::Test(t)) = e.doc.as_deref()
                && t.runs_under(&rules.id)
            {
                let r = cav_rules::testing::run_test_with(rules, t, host);
                if r.passed() {
                    pass += 1;
                } else {
                    let why = r.failures.first().map(|f| f.lines().next().unwrap_or_default().to_owned());
                    fail.push((t.id.0.clone(), why.unwrap_or_default()));
                }
            }
        }
    }
    (pass, fail)
}

/// The packs whose documents or scripts differ between two loads (`None`: the first load, or
/// nothing found to pin it on: every pack).
fn edited_packs(old: Option<&Loaded>, new: &Loaded, scripts: &[PathBuf]) -> Option<BTreeSet<String>> {
    let old = old?;
    let index = |l: &Loaded| -> BTreeMap<(String, String), (String, Arc<serde_json::Value>)> {
        l.rulesets
            .iter()
            .flat_map(|r| {
                r.entries().map(|e| ((e.kind.tag().to_owned(), e.id.clone()), (e.pack.clone(), e.value.clone())))
            })
            .collect()
    };
    let (a, b) = (index(old), index(new));
    let mut packs: BTreeSet<String> = BTreeSet::new();
    for (k, (pack, v)) in &b {
        if a.get(k).is_none_or(|(_, old)| old != v) {
            packs.insert(pack.clone());
        }
    }
    for (k, (pack, _)) in &a {
        if !b.contains_key(k) {
            packs.insert(pack.clone());
        }
    }
    // A script belongs to the pack whose folder holds it.
    for s in scripts {
        let holder = new.rulesets.iter().flat_map(|r| &r.packs).filter(|p| s.starts_with(&p.dir));
        if let Some(p) = holder.max_by_key(|p| p.dir.as_os_str().len()) {
            packs.insert(p.id.clone());
        }
    }
    (!packs.is_empty()).then_some(packs)
}

/// The tests `--test` asks for after a reload: the edited packs' tests under the watched ruleset,
/// then under every other ruleset they join. Returns the totals for the next reload to compare
/// with.
pub(crate) fn rerun_tests(
    out: &mut dyn Write,
    stop: &AtomicBool,
    now: &Announce,
    rules: &Rules,
    others: &[std::sync::Arc<Rules>],
    host: &mut LuaHost,
) -> Option<(usize, usize)> {
    let packs = edited_packs(now.live.map(|l| &l.loaded), now.loaded, now.scripts);
    if let Some(p) = &packs {
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        let _ = writeln!(out, "  testing the packs edited: {}", p.join(", "));
    }
    let (pass, failing) = run_tests(now.loaded, rules, host, packs.as_ref());
    // Totals compare only when both runs took every pack's tests.
    let was = now
        .live
        .and_then(|l| l.tests)
        .filter(|_| packs.is_none())
        .map(|(p, f)| format!(" (was {p} passed, {f} failed)"))
        .unwrap_or_default();
    let _ = writeln!(out, "  tests: {pass} passed, {} failed{was}", failing.len());
    // Name them and say why (the first 20): the author wants to know which, not how many.
    for (id, why) in failing.iter().take(20) {
        let _ = writeln!(out, "  failing: {id}: {why}");
    }
    if failing.len() > 20 {
        let _ = writeln!(out, "  failing: and {} more (`cav test` lists them)", failing.len() - 20);
    }
    let tests = packs.is_none().then_some((pass, failing.len())).or(now.live.and_then(|l| l.tests));
    // The same packs' tests under every other ruleset they join (with a host of their own).
    for other in others {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let joins = now.loaded.rulesets.iter().find(|r| r.id == other.id).is_some_and(|rs| match &packs {
            Some(p) => p.iter().any(|p| rs.pack(p).is_some()),
            None => true,
        });
        if !joins {
            continue;
        }
        let mut other_host = match LuaHost::new(other, Limits::default()) {
            Ok(h) => h,
            Err(e) => {
                let _ = writeln!(out, "  tests under {}: not run: scripts: {e}", other.id);
                continue;
            }
        };
        let (pass, failing) = run_tests(now.loaded, other, &mut other_host, packs.as_ref());
        let _ = writeln!(out, "  tests under {}: {pass} passed, {} failed", other.id, failing.len());
        for (id, why) in failing.iter().take(20) {
            let _ = writeln!(out, "  failing: {id} [{}]: {why}", other.id);
        }
    }
    tests
}
