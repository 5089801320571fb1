//! What a reload prints: the `reloaded` line (what changed, the warnings the save brought, then
//! the replay or the tests), or the diagnostics and the `kept last good` line.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use cav_content::Loaded;
use cav_content::diag::{Diagnostic, Sources};
use cav_rules::Rules;
use cav_script::LuaHost;

use crate::reload::Live;
use crate::replay::{Outcome, compare, replay};
use crate::retest::rerun_tests;
use crate::{After, WatchOptions};

/// Warnings of `new` that `old` did not have (what the last save introduced).
pub(crate) fn new_warnings(old: &[Diagnostic], new: &[Diagnostic]) -> Vec<Diagnostic> {
    let key = |d: &Diagnostic| (d.code, d.message.clone(), d.pack.clone(), d.pointer.clone());
    let seen: std::collections::HashSet<_> = old.iter().map(key).collect();
    new.iter().filter(|d| !seen.contains(&key(d))).cloned().collect()
}

/// Documents whose resolved value differs between two loads: `changed`, `added`, `removed`.
pub(crate) fn changes(old: &Loaded, new: &Loaded, ruleset: &str) -> String {
    let index = |l: &Loaded| -> BTreeMap<(String, String), Arc<serde_json::Value>> {
        l.rulesets
            .iter()
            .filter(|r| r.id == ruleset || r.id == format!("cav-{ruleset}"))
            .flat_map(|r| r.entries().map(|e| ((e.kind.tag().to_owned(), e.id.clone()), e.value.clone())))
            .collect()
    };
    let (a, b) = (index(old), index(new));
    // Changed documents first (an edit is what the author is looking for), then added, removed.
    let (mut parts, mut added) = (Vec::new(), Vec::new());
    for (k, v) in &b {
        match a.get(k) {
            None => added.push(format!("+{} {}", k.0, k.1)),
            Some(old) if old != v => parts.push(format!("{} {}", k.0, k.1)),
            _ => {}
        }
    }
    parts.append(&mut added);
    for k in a.keys().filter(|k| !b.contains_key(*k)) {
        parts.push(format!("-{} {}", k.0, k.1));
    }
    if parts.is_empty() {
        return "no document changed".into();
    }
    let n = parts.len();
    parts.truncate(6);
    format!("{}{}", parts.join(", "), if n > 6 { format!(" and {} more", n - 6) } else { String::new() })
}

/// `script a.luau, script b.luau`: what a save of scripts changed.
pub(crate) fn script_names(scripts: &[PathBuf]) -> String {
    let named: Vec<String> = scripts.iter().map(|p| format!("script {}", cav_content::diag::display_path(p))).collect();
    named.join(", ")
}

/// What a reload made live, for [`announce`].
pub(crate) struct Announce<'a> {
    /// The rules live until now (`None` at the first load).
    pub(crate) live: Option<&'a Live>,
    /// The documents now live, and the diagnostics before (`None` at the first load) and now.
    pub(crate) loaded: &'a Loaded,
    pub(crate) old: Option<&'a [Diagnostic]>,
    pub(crate) diagnostics: &'a [Diagnostic],
    pub(crate) sources: &'a Sources,
    pub(crate) what: &'a str,
    /// The scripts the save changed (their packs' tests run, with the edited documents' packs).
    pub(crate) scripts: &'a [PathBuf],
    pub(crate) since: Instant,
}

/// The `reloaded` line, after the warnings the save brought, then the replay or the tests asked
/// for. Returns their results, for the next reload to compare with.
pub(crate) fn announce(
    out: &mut dyn Write,
    opts: &WatchOptions,
    stop: &AtomicBool,
    now: Announce,
    rules: &Rules,
    others: &[std::sync::Arc<Rules>],
    host: &mut LuaHost,
) -> (Option<Outcome>, Option<(usize, usize)>) {
    let ms = now.since.elapsed().as_secs_f64() * 1000.0;
    // A rule that is recognised but not played must not hide behind "reloaded": show the
    // warnings this save brought (the first load only counts them).
    let warnings = now.old.map(|old| new_warnings(old, now.diagnostics)).unwrap_or_default();
    let _ = write!(out, "{}", cav_content::diag::render_human(&warnings, now.sources));
    let n = now.diagnostics.len();
    let counted = if n == 0 { String::new() } else { format!(", {n} warning{}", if n == 1 { "" } else { "s" }) };
    let _ = writeln!(out, "reloaded {} ({}) in {ms:.1} ms{counted}", rules.id, now.what);
    let mut outcome = None;
    let mut tests = None;
    match &opts.after {
        _ if stop.load(Ordering::Relaxed) => {}
        After::Run { scenario, seed } => match replay(rules, host, scenario, *seed) {
            Ok(o) => {
                compare(out, now.live.and_then(|l| l.outcome.as_ref()), &o);
                outcome = Some(o);
            }
            Err(e) => {
                let _ = writeln!(out, "  replay failed: {e}");
            }
        },
        After::Test => tests = rerun_tests(out, stop, &now, rules, others, host),
        After::Nothing => {}
    }
    (outcome, tests)
}

/// A reload that cannot be made live: its diagnostics, the reasons beyond them, and the
/// `kept last good` line.
pub(crate) fn kept_last_good(
    out: &mut dyn Write,
    diags: &[Diagnostic],
    sources: &Sources,
    errors: &[String],
    had_live: bool,
) {
    let _ = write!(out, "{}", cav_content::diag::render_human(diags, sources));
    for e in errors {
        let _ = writeln!(out, "error: {e}");
    }
    let n = diags.iter().filter(|d| d.severity == cav_content::diag::Severity::Error).count() + errors.len();
    let errors = format!("{n} error{}", if n == 1 { "" } else { "s" });
    // One status line, saying what is live now.
    if had_live {
        let _ = writeln!(out, "kept last good rules live ({errors})");
    } else {
        let _ = writeln!(out, "kept last good rules: none yet, nothing is live ({errors})");
    }
}
