//! The watch loop: watch, load once, then wait for changes and reload (the quick path first for
//! a save of scripts alone) until stopped.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use cav_content::LoadOptions;

use crate::events::{digest, gather, is_ignored_name, is_script};
use crate::quick::quick_reload;
use crate::reload::{Known, Live, Session, full_reload};
use crate::watchers::Watchers;
use crate::{WatchOptions, check_options};

/// Watch until `stop` is set. Output goes to `out`, one line per reload (`reloaded …` or
/// `kept last good …`), with diagnostics before a `kept last good` line.
///
/// A save of scripts alone takes the quick path (`scripts_only`): its line comes first, then the
/// full reload runs at once and prints nothing when it agrees; when it does not, it says so in
/// one line, then prints its own result, which is live from then on.
///
/// Settings that cannot work (see [`check_options`]) are refused before anything is watched.
/// A reload runs on this thread: file events that arrive meanwhile queue in the channel and
/// start one more reload when it ends; `stop` is checked between the reload's steps (load,
/// replay or tests), so a stop during a long reload takes effect when its current step ends.
pub fn watch(opts: &WatchOptions, out: &mut dyn Write, stop: Arc<AtomicBool>) -> Result<(), String> {
    check_options(opts)?;
    let load_opts = LoadOptions {
        paths: if opts.paths.is_empty() { opts.library.clone() } else { opts.paths.clone() },
        library: opts.library.clone(),
    };
    let mut known = Known::default();
    let mut live: Option<Live> = None;
    let started = Instant::now();
    // Watch before the first load, so that a save made while it runs is not missed.
    let mut watchers = Watchers::start(opts, &load_opts)?;
    let session = Session { opts, load_opts, stop: &stop };
    // Every save checks the scripts again: one type checker, kept running, answers them all.
    cav_script::check::keep_type_checker_running(true);
    watchers.follow_links(&opts.library);
    let mut read_from = Instant::now();
    // The text of each file a reload was made for, as read just before it (a digest).
    let mut live_text: std::collections::HashMap<PathBuf, u64> = Default::default();
    full_reload(&session, &mut known, &mut live, out, started, &[], None);
    let _ = writeln!(
        out,
        "watching {} (Ctrl-C stops)",
        watchers.roots.iter().map(|r| r.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    let _ = out.flush();
    while !stop.load(Ordering::Relaxed) {
        let first = match watchers.rx.recv_timeout(Duration::from_millis(200)) {
            Ok(m) => m,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let Some((since, mut changed)) = gather(first, &watchers.rx, read_from, &known.files, &watchers.roots, out)
        else {
            continue;
        };
        watchers.watch_returned_roots();
        watchers.catch_up();
        changed.sort();
        changed.dedup();
        // Files whose text is what the live rules were loaded from need no reload (the quiet
        // period's report of a save already reloaded at once); anything else does.
        if changed.iter().all(|p| digest(p).is_some_and(|d| live_text.get(p) == Some(&d))) {
            continue;
        }
        for p in &changed {
            match digest(p) {
                Some(d) => {
                    live_text.insert(p.clone(), d);
                }
                // Removed, or a directory (one removed, created or moved in is reported alone,
                // not its files): what was known of the files under it no longer says what is
                // live, so the same text saved there again reloads.
                None => live_text.retain(|k, _| !k.starts_with(p)),
            };
        }
        let scripts: Vec<PathBuf> = changed.iter().filter(|p| is_script(p)).cloned().collect();
        read_from = Instant::now();
        // The loader reads again only files whose stamps changed: those the watcher names are
        // read again whatever their stamps say.
        known.files.forget_stamps(&changed);
        // Scripts alone: the quick path makes them live first, then the full reload checks it
        // (unless stopping). Events that come meanwhile queue for the next turn of the loop.
        // An editor's temporary file, renamed over the script it saved, is gone: nothing reads it.
        let gone_temp = |p: &PathBuf| is_ignored_name(p) && !p.exists();
        let only_scripts = changed.iter().all(|p| is_script(p) || gone_temp(p));
        let expect = if opts.quick && !scripts.is_empty() && only_scripts {
            quick_reload(&session, &mut live, out, since, &scripts)
        } else {
            None
        };
        if expect.is_none() || !stop.load(Ordering::Relaxed) {
            let cold = known.files.take_renumbered();
            full_reload(&session, &mut known, &mut live, out, since, &scripts, expect);
            if cold {
                release_free_memory();
            }
        }
        watchers.follow_links(&opts.library);
    }
    cav_script::check::keep_type_checker_running(false);
    let _ = writeln!(out, "stopped");
    Ok(())
}

/// A reload after the cache numbered its files afresh parses and checks everything again, next to
/// what the last reload kept until it is replaced: glibc's allocator keeps that peak for good
/// (memory freed inside its heaps is not given back), so a long session would grow by a cold
/// load's worth (~35 MB on the bundled content) every few thousand saves. Given back once
/// there, not after every reload: the next reload would fault the pages in again. (The `cav`
/// binary allocates through mimalloc, which gives freed memory back by itself; this still
/// serves the C++ of the Luau checker and a host program on the system's allocator.)
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}
