//! The full reload: load every file, check and compile every ruleset, and make the result live
//! when it is valid; the last good rules ([`Live`]) stay when it is not.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use cav_content::diag::{Diagnostic, Sources};
use cav_content::{LoadOptions, Loaded, pack::Cache};
use cav_rules::Rules;
use cav_script::{Limits, LuaHost};

use crate::replay::Outcome;
use crate::report::{Announce, announce, changes, kept_last_good, script_names};
use crate::{After, WatchOptions};

/// The last good rules: replaced whole by a valid reload, never by a broken one.
pub(crate) struct Live {
    pub(crate) loaded: Loaded,
    /// The watched ruleset compiled from `loaded`: a save of scripts alone cannot change it.
    pub(crate) rules: Arc<Rules>,
    /// With `--test`, the other rulesets compiled from `loaded`: an edited pack's tests run under
    /// every ruleset it joins.
    pub(crate) others: Vec<Arc<Rules>>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) tests: Option<(usize, usize)>,
    /// What the last full reload found, kept while its documents are those of `loaded` (it made
    /// them live, or it failed with the same resolved values): a save of scripts alone starts
    /// from it. `None` once the files hold other documents, so that the next save is reloaded in
    /// full.
    pub(crate) basis: Option<Basis>,
}

/// The last full reload's diagnostics in parts (its rules moved to [`Live`]) and the sources
/// they point into: `None` when that load is the live one (its sources are `Live::loaded`'s,
/// kept once), a copy only when a broken reload left the older documents live.
pub(crate) struct Basis {
    pub(crate) validated: cav_compile::Validated,
    pub(crate) sources: Option<Sources>,
}

impl Live {
    /// The sources the basis's diagnostics point into.
    pub(crate) fn basis_sources(&self) -> &Sources {
        self.basis.as_ref().and_then(|b| b.sources.as_ref()).unwrap_or(&self.loaded.sources)
    }
}

/// What the quick path made of a save, for the full reload that follows to check: whether it
/// made new scripts live, and its diagnostics as [`diagnostic_keys`].
pub(crate) struct Expected {
    pub(crate) ok: bool,
    pub(crate) keys: Vec<String>,
}

/// Diagnostics as comparable text, sorted: two loads number their files differently, so a
/// diagnostic is compared by what it says and where, not by file id.
pub(crate) fn diagnostic_keys(diags: &[Diagnostic], sources: &Sources) -> Vec<String> {
    let mut keys: Vec<String> = diags
        .iter()
        .map(|d| {
            format!(
                "{:?} {} {} | {} | {:?} {:?} {:?} {:?}",
                d.severity,
                d.code,
                d.location(sources),
                d.message,
                d.pack,
                d.pointer,
                d.expected,
                d.hint
            )
        })
        .collect();
    keys.sort();
    keys
}

/// Do two loads have the same rulesets with the same resolved documents?
pub(crate) fn same_values(a: &Loaded, b: &Loaded) -> bool {
    a.rulesets.len() == b.rulesets.len()
        && a.rulesets.iter().zip(&b.rulesets).all(|(x, y)| {
            let index = |r: &cav_content::Ruleset| -> BTreeMap<(cav_format::DocKind, String), Arc<serde_json::Value>> {
                r.entries().map(|e| ((e.kind, e.id.clone()), e.value.clone())).collect()
            };
            let (ix, iy) = (index(x), index(y));
            x.id == y.id
                && ix.len() == iy.len()
                && ix.iter().zip(&iy).all(|((ka, va), (kb, vb))| ka == kb && (Arc::ptr_eq(va, vb) || va == vb))
        })
}

/// Is `id` the ruleset asked for as `ruleset` (`full` for `cav-full`)?
pub(crate) fn is_ruleset(id: &str, ruleset: &str) -> bool {
    id == ruleset || id == format!("cav-{ruleset}")
}

/// Build the live rules from a load that `cav_compile::validate` has checked: no error anywhere,
/// the ruleset compiled, scripts load. On failure, the reasons beyond the diagnostics.
pub(crate) fn build(
    loaded: &Loaded,
    compiled: Vec<Option<Arc<Rules>>>,
    ruleset: &str,
) -> Result<(Arc<Rules>, LuaHost), Vec<String>> {
    if loaded.error_count() > 0 {
        return Err(vec![]);
    }
    let Some(ix) = loaded.rulesets.iter().position(|r| is_ruleset(&r.id, ruleset)) else {
        return Err(vec![format!("no ruleset `{ruleset}`")]);
    };
    let rules =
        compiled.into_iter().nth(ix).flatten().ok_or_else(|| vec![format!("ruleset `{ruleset}` does not compile")])?;
    let host = LuaHost::new(&rules, Limits::default()).map_err(|e| vec![format!("scripts: {e}")])?;
    Ok((rules, host))
}

/// What every reload of one watch session works with.
pub(crate) struct Session<'a> {
    pub(crate) opts: &'a WatchOptions,
    /// What each full reload loads.
    pub(crate) load_opts: LoadOptions,
    pub(crate) stop: &'a AtomicBool,
}

/// What the last full reload read and found, for the next to take again where nothing it depends
/// on changed.
#[derive(Default)]
pub(crate) struct Known {
    /// Files, parses, schema checks and built rulesets.
    pub(crate) files: Cache,
    /// Compile, forces, unplayed-entry and script findings per ruleset.
    pub(crate) checks: cav_compile::Memo,
}

/// A full reload: every file (from the cache where unchanged), every ruleset checked (again only
/// where something it reads changed: `known` keeps the last reload's findings). After
/// the quick path, `expect` is what it made live: the full reload says nothing when it finds
/// the same, and says so and puts its own result live when it does not (the quick path saw
/// only the scripts).
pub(crate) fn full_reload(
    session: &Session,
    known: &mut Known,
    live: &mut Option<Live>,
    out: &mut dyn Write,
    since: Instant,
    scripts: &[PathBuf],
    expect: Option<Expected>,
) {
    let Session { opts, load_opts, stop } = session;
    let mut loaded = cav_content::load_cached(load_opts, &mut known.files);
    // The loaded sources are a copy: the cache keeps only the files this load read.
    known.files.sweep();
    // The rulesets the save did not touch are taken as the last reload found them (the loader
    // and the memo each check that nothing they read changed).
    let mut validated = cav_compile::validate_parts_with(&mut loaded, &mut known.checks);
    let compiled = std::mem::take(&mut validated.rules);
    let others: Vec<Arc<Rules>> = match opts.after {
        After::Test => compiled.iter().flatten().filter(|r| !is_ruleset(&r.id, &opts.ruleset)).cloned().collect(),
        _ => Vec::new(),
    };
    let built = build(&loaded, compiled, &opts.ruleset);
    // Only asked when needed (it compares every document), never before a `reloaded` line.
    let same_docs =
        |live: &Option<Live>, loaded: &Loaded| live.as_ref().is_some_and(|l| same_values(&l.loaded, loaded));
    if let Some(expect) = expect {
        let mut differs = Vec::new();
        if !same_docs(live, &loaded) {
            differs.push("resolved documents");
        }
        if expect.keys != diagnostic_keys(&loaded.diagnostics, &loaded.sources) {
            differs.push("diagnostics");
        }
        if expect.ok != built.is_ok() {
            differs.push(if built.is_ok() { "its rules load" } else { "its rules do not load" });
        }
        if differs.is_empty() {
            if let Some(l) = live.as_mut() {
                l.basis = Some(match built {
                    Ok((rules, _)) => {
                        l.loaded = loaded;
                        l.rules = rules;
                        l.others = others;
                        Basis { validated, sources: None }
                    }
                    Err(_) => Basis { validated, sources: Some(loaded.sources) },
                });
            }
            let _ = out.flush();
            opts.counts.full.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let _ = writeln!(
            out,
            "the full reload differs from the quick reload of the scripts ({}); its result follows",
            differs.join(", ")
        );
    }
    match built {
        Ok((rules, mut host)) => {
            let mut what = match live.as_ref() {
                Some(l) => changes(&l.loaded, &loaded, &opts.ruleset),
                None => format!("{} documents", loaded.documents),
            };
            // A script edit changes no document: name the scripts saved.
            if live.is_some() && !scripts.is_empty() {
                what = if what == "no document changed" {
                    script_names(scripts)
                } else {
                    format!("{what}, {}", script_names(scripts))
                };
            }
            // The first load only counts its warnings.
            let old = live.as_ref().map(|l| l.loaded.diagnostics.as_slice());
            let now = Announce {
                live: live.as_ref(),
                loaded: &loaded,
                old,
                diagnostics: &loaded.diagnostics,
                sources: &loaded.sources,
                what: &what,
                scripts,
                since,
            };
            let (outcome, tests) = announce(out, opts, stop, now, &rules, &others, &mut host);
            let basis = Some(Basis { validated, sources: None });
            *live = Some(Live { loaded, rules, others, outcome, tests, basis });
        }
        Err(errors) => {
            kept_last_good(out, &loaded.diagnostics, &loaded.sources, &errors, live.is_some());
            // The files still hold the live documents when only scripts (or files that make
            // no document) are broken: the next save of scripts alone can start from here.
            let same = same_docs(live, &loaded);
            if let Some(l) = live.as_mut() {
                l.basis = same.then(|| Basis { validated, sources: Some(loaded.sources) });
            }
        }
    }
    let _ = out.flush();
    opts.counts.full.fetch_add(1, Ordering::Relaxed);
}
