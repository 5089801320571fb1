//! The quick path: a save of scripts alone is checked and made live from the live rules, before
//! the full reload that follows checks it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use cav_content::diag::{Diagnostic, FileId, Sources};
use cav_script::{Limits, LuaHost};

use crate::events::is_script;
use crate::reload::{Expected, Live, Session, diagnostic_keys};
use crate::report::{Announce, announce, kept_last_good, script_names};

/// What the quick path made of a save of scripts.
pub(crate) struct Quick {
    /// The diagnostics the full reload is expected to find, and the sources they point into.
    diagnostics: Vec<Diagnostic>,
    sources: Sources,
    /// The new scripts loaded with the live rules, or why they cannot be.
    host: Result<LuaHost, Vec<String>>,
}

/// The quick path for a save that changed only script files. The loader reads no script (it
/// checks only that each `script:` module file exists inside its root), so such a save changes
/// no document and the live documents and compiled rules stay: check again the scripts of the
/// rulesets whose script roots hold a changed file (`require` cannot leave the roots), put the
/// diagnostics together as `cav_compile::validate` does, and load the scripts into a new host.
///
/// `None` (reload in full) when the save may be more than an edit of scripts the last full
/// reload read: a script created, removed or made a link can change what the loader finds
/// (`script-missing`, a module leading outside its root), and without a
/// [`Basis`](crate::reload::Basis) the live documents may not be those of the files.
pub(crate) fn scripts_only(live: &Live, changed: &[PathBuf]) -> Option<Quick> {
    let basis = live.basis.as_ref()?;
    if changed.is_empty() || basis.validated.parts.len() != live.loaded.rulesets.len() {
        return None;
    }
    let basis_sources = live.basis_sources();
    let read_last_time = |p: &Path| (0..basis_sources.len() as u32).any(|i| basis_sources.get(FileId(i)).path == p);
    // The checks know a script by its canonical path (the watcher may report it through the
    // roots as given). The file itself must not be a link: making one is not an edit.
    let mut files = Vec::new();
    for p in changed {
        let meta = std::fs::symlink_metadata(p).ok()?;
        let file = std::fs::canonicalize(p).ok()?;
        if !is_script(p) || !meta.is_file() || !read_last_time(&file) {
            return None;
        }
        files.push(file);
    }
    let mut validated = basis.validated.clone();
    let mut sources = basis_sources.clone();
    // The scripts are checked on one core while the new host loads them on the other: the host
    // is thrown away when the check finds an error, as the full reload would not make it.
    let (host, checked) = std::thread::scope(|scope| {
        let check = std::thread::Builder::new().spawn_scoped(scope, || {
            for (rs, parts) in live.loaded.rulesets.iter().zip(&mut validated.parts) {
                let roots: Vec<PathBuf> = rs
                    .packs
                    .iter()
                    .flat_map(|p| &p.script_roots)
                    .map(|r| std::fs::canonicalize(r).unwrap_or_else(|_| r.clone()))
                    .collect();
                if files.iter().any(|p| roots.iter().any(|r| p.starts_with(r))) {
                    parts[cav_compile::SCRIPT_PART] = cav_script::check_scripts(rs, &mut sources);
                }
            }
        });
        let host = LuaHost::new(&live.rules, Limits::default()).map_err(|e| vec![format!("scripts: {e}")]);
        (host, check.map(|c| c.join().is_ok()))
    });
    // No thread for the check, or a check that panicked: the full reload will tell.
    if checked.ok() != Some(true) {
        return None;
    }
    let diagnostics = validated.assemble(&sources);
    let host =
        if diagnostics.iter().any(|d| d.severity == cav_content::diag::Severity::Error) { Err(vec![]) } else { host };
    Some(Quick { diagnostics, sources, host })
}

/// The quick path (see `scripts_only`): the `reloaded` line comes from it, then the full
/// reload checks it. `None` when it does not apply.
pub(crate) fn quick_reload(
    session: &Session,
    live: &mut Option<Live>,
    out: &mut dyn Write,
    since: Instant,
    scripts: &[PathBuf],
) -> Option<Expected> {
    let Session { opts, stop, .. } = session;
    let l = live.as_mut()?;
    let q = scripts_only(l, scripts)?;
    opts.counts.quick.fetch_add(1, Ordering::Relaxed);
    let ok = q.host.is_ok();
    // What the full reload checks, taken after the output (it is not needed to go live).
    let keys = match q.host {
        Ok(mut host) => {
            let what = script_names(scripts);
            let now = Announce {
                live: Some(l),
                loaded: &l.loaded,
                old: Some(&l.loaded.diagnostics),
                diagnostics: &q.diagnostics,
                sources: &q.sources,
                what: &what,
                scripts,
                since,
            };
            let (outcome, tests) = announce(out, opts, stop, now, &l.rules, &l.others, &mut host);
            let _ = out.flush();
            (l.outcome, l.tests) = (outcome, tests);
            let keys = diagnostic_keys(&q.diagnostics, &q.sources);
            l.loaded.diagnostics = q.diagnostics;
            l.loaded.sources = q.sources;
            keys
        }
        Err(errors) => {
            kept_last_good(out, &q.diagnostics, &q.sources, &errors, true);
            let _ = out.flush();
            diagnostic_keys(&q.diagnostics, &q.sources)
        }
    };
    Some(Expected { ok, keys })
}
