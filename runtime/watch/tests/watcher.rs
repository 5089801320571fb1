//! A real watcher on a temporary copy of the content: valid edits are picked up, a broken edit is
//! reported and the old rules stay, the fix is picked up, a file deleted and created again works.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cav_watch::{After, LineSink, WatchOptions, watch};

/// The tests of this file run one at a time: each reloads the whole content on every save, and the
/// memory test reads the process's resident size, which the other tests would disturb.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Session {
    _serial: std::sync::MutexGuard<'static, ()>,
    rx: mpsc::Receiver<(Instant, String)>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
    root: PathBuf,
    _dir: tempfile::TempDir,
}

impl Session {
    fn start(after: After) -> Session {
        Session::start_with("quickstart", after)
    }

    fn start_with(ruleset: &str, after: After) -> Session {
        Session::start_opts(ruleset, after, None)
    }

    fn start_opts(ruleset: &str, after: After, debounce: Option<Duration>) -> Session {
        Session::start_custom(ruleset, after, |_, opts| opts.debounce = debounce.unwrap_or(opts.debounce))
    }

    /// A session whose options `adjust` changes (given the project root) before watching starts.
    fn start_custom(ruleset: &str, after: After, adjust: impl FnOnce(&Path, &mut WatchOptions)) -> Session {
        let serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::tempdir().unwrap();
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        for d in ["content", "mods"] {
            cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
        }
        let root = dir.path().to_owned();
        let mut opts = WatchOptions::for_root(&root, ruleset, after);
        adjust(&root, &mut opts);
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            watch(&opts, &mut LineSink::new(tx), flag).unwrap();
        });
        let mut s = Session { _serial: serial, rx, stop, thread: Some(thread), root, _dir: dir };
        s.expect("watching");
        s
    }

    /// Wait for a line starting with `prefix`; return it (and fail after 20 s).
    fn expect(&mut self, prefix: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = Vec::new();
        while Instant::now() < deadline {
            if let Ok((_, line)) = self.rx.recv_timeout(Duration::from_millis(100)) {
                if line.starts_with(prefix) {
                    return line;
                }
                seen.push(line);
            }
        }
        panic!("no line starting {prefix:?}; saw:\n{}", seen.join("\n"));
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[test]
fn edits_reload_broken_saves_keep_the_last_good_rules() {
    let mut s = Session::start(After::Nothing);
    let card = s.path("content/cav-quickstart/models/dictator-b.yaml");
    let text = std::fs::read_to_string(&card).unwrap();

    // A valid edit: the card's TV.
    std::fs::write(&card, text.replace("\ntv: 800\n", "\ntv: 810\n")).unwrap();
    let line = s.expect("reloaded");
    assert!(line.contains("model dictator-b"), "{line}");

    // A broken save: reported, old rules kept.
    std::fs::write(&card, text.replace("\ntv: 800\n", "\ntv: [broken\n")).unwrap();
    s.expect("error[");
    let kept = s.expect("kept last good");
    assert!(kept.contains("kept last good rules"), "{kept}");

    // The fix is picked up again.
    std::fs::write(&card, &text).unwrap();
    s.expect("reloaded");

    // Delete a file, then create it again.
    let tests = s.path("content/cav-quickstart/tests/movement.yaml");
    let saved = std::fs::read_to_string(&tests).unwrap();
    std::fs::remove_file(&tests).unwrap();
    let line = s.expect("reloaded");
    assert!(line.contains("-test qs-move"), "{line}");
    std::fs::write(&tests, &saved).unwrap();
    let line = s.expect("reloaded");
    assert!(line.contains("+test qs-move"), "{line}");

    // An atomic save (write a temp file, rename it over the original).
    let tmp = s.path("content/cav-quickstart/models/.dictator-b.yaml.tmp");
    std::fs::write(&tmp, text.replace("\ntv: 800\n", "\ntv: 820\n")).unwrap();
    std::fs::rename(&tmp, &card).unwrap();
    let line = s.expect("reloaded");
    assert!(line.contains("model dictator-b"), "{line}");

    // A new pack directory appearing.
    let newpack = s.path("mods/new-pack");
    std::fs::create_dir_all(newpack.join("models")).unwrap();
    std::fs::write(
        newpack.join("pack.yaml"),
        "id: new-pack\nname: New\nversion: 0.1.0\nkind: extension\ndepends: [cav-quickstart]\n",
    )
    .unwrap();
    std::fs::write(
        newpack.join("models/walker.yaml"),
        text.replace("id: dictator-b", "id: new-walker").replace("name: Dictator-B", "name: New Walker"),
    )
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let line = s.expect("reloaded");
        if line.contains("+model new-walker") {
            break;
        }
        assert!(Instant::now() < deadline, "the new pack's model never appeared");
    }
}

#[test]
fn a_lua_change_replaces_the_handler_and_a_broken_script_keeps_the_old_one() {
    let mut s = Session::start(After::Test);
    let script = s.path("content/cav-quickstart/scripts/strike.luau");
    let good = std::fs::read_to_string(&script).unwrap();

    // A script that no longer forbids anything: the two Strike tests (fire, salvo) now fail.
    std::fs::write(&script, "return { attack_declare = function(ctx) end }\n").unwrap();
    let reloaded = s.expect("reloaded");
    assert!(reloaded.contains("script ") && reloaded.contains("strike.luau"), "the script is named: {reloaded}");
    // Only the edited pack's tests run, and each failing one says why.
    let packs = s.expect("  testing the packs edited:");
    assert_eq!(packs, "  testing the packs edited: cav-quickstart");
    let t = s.expect("  tests:");
    assert!(t.contains(" 2 failed"), "{t}");
    let failing = s.expect("  failing:");
    assert!(failing.contains("qs-sa-strike"), "the failing tests are named: {failing}");
    assert!(failing.split_once(": ").is_some_and(|(_, why)| why.contains(": ")), "and why: {failing}");

    // A script that does not compile: reported, the last good rules (and scripts) stay.
    std::fs::write(&script, "return { attack_declare = function(ctx) end\n").unwrap();
    let kept = s.expect("kept last good");
    assert!(kept.starts_with("kept last good rules live (1 error"), "one status line: {kept}");

    // Restored: all pass again.
    std::fs::write(&script, &good).unwrap();
    s.expect("reloaded");
    let t = s.expect("  tests:");
    assert!(t.contains(" 0 failed"), "{t}");
}

#[test]
fn run_replays_the_scenario_and_shows_the_first_difference() {
    let mut s = Session::start(After::Run { scenario: "stand-and-fight".into(), seed: 3 });
    let card = s.path("content/cav-quickstart/models/dictator-b.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    // Weaker armour changes the game.
    std::fs::write(&card, text.replacen("  av: ", "  av: [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]\n  #av: ", 1)).unwrap();
    s.expect("reloaded");
    s.expect("  replay:");
    let diff = s.expect("  first different event");
    assert!(diff.contains("(#"), "{diff}");
    // Models by name, not by index.
    let was = s.expect("    was:");
    assert!(was.contains(r#""model":"red Dictator-B""#) || was.contains(r#""model":"black Dictator-B""#), "{was}");
    // Restoring it replays the original game again.
    std::fs::write(&card, &text).unwrap();
    s.expect("reloaded");
    s.expect("  replay:");
    s.expect("  changed:");
}

/// A completed save (the file closed after writing, which inotify reports) is reloaded at once,
/// not after the quiet period; when the quiet period then reports the same save, the rules are
/// already live and nothing is reloaded twice.
#[cfg(target_os = "linux")]
#[test]
fn a_completed_save_is_live_before_the_quiet_period_and_reloads_once() {
    let quiet = Duration::from_millis(cav_format::limits::WATCH_DEBOUNCE_MAX_MS);
    let s = Session::start_opts("quickstart", After::Nothing, Some(quiet));
    let card = s.path("content/cav-quickstart/models/dictator-b.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    let saved = Instant::now();
    std::fs::write(&card, text.replace("\ntv: 800\n", "\ntv: 801\n")).unwrap();
    let deadline = saved + quiet;
    let line = loop {
        let (at, line) =
            s.rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .unwrap_or_else(|_| panic!("the save was not live within the {} ms quiet period", quiet.as_millis()));
        if line.starts_with("reloaded") {
            assert!(at < deadline, "live only after the quiet period: {line}");
            break line;
        }
    };
    assert!(line.contains("model dictator-b"), "{line}");
    // The quiet period ends and reports the save: no second reload.
    let after = deadline + Duration::from_secs(2);
    while let Ok((_, line)) = s.rx.recv_timeout(after.saturating_duration_since(Instant::now())) {
        assert!(!line.starts_with("reloaded") && !line.starts_with("kept"), "reloaded twice: {line}");
    }
}

/// Wait for a `reloaded` line that contains `what`, skipping other reloads (at most 20 s).
fn reloaded_with(s: &mut Session, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let line = s.expect("reloaded");
        if line.contains(what) {
            return line;
        }
        assert!(Instant::now() < deadline, "no reload showing {what:?}; last: {line}");
    }
}

#[test]
fn a_pack_directory_removed_or_moved_away_reloads_without_it() {
    let mut s = Session::start_with("full", After::Nothing);
    let pack = s.path("mods/iron-wolves");

    // Removed whole: the debouncer reports one `Remove` of the directory (not of its files), for a
    // path that no longer exists. The pack's models and its patch of light-autocannon go at once.
    let saved = s.path("saved-iron-wolves");
    cav_watch::copy_tree(&pack, &saved).unwrap();
    std::fs::remove_dir_all(&pack).unwrap();
    let line = reloaded_with(&mut s, "-model fenrir");
    assert!(line.contains("weapon light-autocannon"), "the patch stays live: {line}");

    // Moved back in from outside the watched roots: the pack is back.
    std::fs::rename(&saved, &pack).unwrap();
    let line = reloaded_with(&mut s, "+model fenrir");
    assert!(line.contains("weapon light-autocannon"), "{line}");

    // Moved away out of the watched roots (a rename `From` with no `To`).
    std::fs::rename(&pack, &saved).unwrap();
    let line = reloaded_with(&mut s, "-model fenrir");
    assert!(line.contains("weapon light-autocannon"), "{line}");

    // Renamed to a hidden directory inside the roots (discovery skips it): gone as well.
    std::fs::rename(&saved, &pack).unwrap();
    reloaded_with(&mut s, "+model fenrir");
    std::fs::rename(&pack, s.path("mods/.iron-wolves.old")).unwrap();
    reloaded_with(&mut s, "-model fenrir");
}

/// Resident memory of this process in kB.
fn rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn memory_stays_flat_over_many_saves_of_a_large_file() {
    let mut s = Session::start(After::Nothing);
    let card = s.path("content/cav-quickstart/models/dictator-b.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    // A file over 512 KiB: the card, then lines of comment.
    let padding: String =
        (0..10_500).map(|i| format!("# padding line {i:06} of the card, to make it large\n")).collect();
    assert!(padding.len() > 512 << 10, "{}", padding.len());
    let save = |s: &mut Session, n: usize| {
        let tv = 800 + n % 2;
        std::fs::write(
            &card,
            format!("{}# save {n}\n{padding}", text.replace("\ntv: 800\n", &format!("\ntv: {tv}\n"))),
        )
        .unwrap();
        s.expect("reloaded");
    };
    const WARM: usize = 10;
    const SAVES: usize = 70;
    for n in 0..WARM {
        save(&mut s, n);
    }
    let before = rss_kb();
    for n in WARM..SAVES {
        save(&mut s, n);
    }
    let after = rss_kb();
    let grown_mb = after.saturating_sub(before) / 1024;
    eprintln!("VmRSS after {WARM} saves: {} MB, after {SAVES}: {} MB", before / 1024, after / 1024);
    // Keeping every saved version grew by about 1 MB a save (about 60 MB here).
    assert!(grown_mb < 24, "resident memory grew by {grown_mb} MB over {} saves", SAVES - WARM);
}

/// Wait until the watcher has said nothing for a while, dropping what it says meanwhile: a pack
/// copied back file by file may come back over several reloads on a loaded machine, and an edit
/// made before the last of them would be reported with them.
fn settle(s: &mut Session) {
    while s.rx.recv_timeout(Duration::from_millis(1500)).is_ok() {}
}

/// Wait for a reload that shows `what` changed (neither added nor removed).
fn edited(s: &mut Session, what: &str) {
    let line = reloaded_with(s, what);
    assert!(line.contains(&format!("({what})")) || line.contains(&format!("({what},")), "{line}");
}

/// A pack deleted and created again (copied back, not renamed), moved back in, or replaced by a
/// symlink to a copy of it outside the roots, keeps being watched: a later save in it reloads.
#[test]
fn a_recreated_pack_keeps_being_watched() {
    let mut s = Session::start_with("full", After::Nothing);
    let pack = s.path("mods/iron-wolves");
    let saved = s.path("saved-iron-wolves");
    cav_watch::copy_tree(&pack, &saved).unwrap();
    let card = |p: &Path| p.join("models/fenrir.yaml");
    let retitle = |p: &Path, name: &str| {
        let t = std::fs::read_to_string(card(p)).unwrap();
        let t: String = t
            .lines()
            .map(|l| if l.starts_with("name:") { format!("name: {name}") } else { l.to_owned() })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(card(p), t + "\n").unwrap();
    };

    // Deleted, then created again file by file.
    std::fs::remove_dir_all(&pack).unwrap();
    reloaded_with(&mut s, "-model fenrir");
    cav_watch::copy_tree(&saved, &pack).unwrap();
    reloaded_with(&mut s, "+model fenrir");
    settle(&mut s);
    retitle(&pack, "Fenrir Recreated");
    edited(&mut s, "model fenrir");

    // Moved away and back.
    std::fs::rename(&pack, s.path("away")).unwrap();
    reloaded_with(&mut s, "-model fenrir");
    std::fs::rename(s.path("away"), &pack).unwrap();
    reloaded_with(&mut s, "+model fenrir");
    retitle(&pack, "Fenrir Moved Back");
    edited(&mut s, "model fenrir");

    // Replaced by a symlink to a copy outside the roots: watched where it really is.
    let copy = s.path("wolves-copy");
    cav_watch::copy_tree(&pack, &copy).unwrap();
    std::fs::remove_dir_all(&pack).unwrap();
    reloaded_with(&mut s, "-model fenrir");
    std::os::unix::fs::symlink(&copy, &pack).unwrap();
    reloaded_with(&mut s, "+model fenrir");
    retitle(&copy, "Fenrir Through A Link");
    edited(&mut s, "model fenrir");
}

/// A pack given as a path of its own (`cav watch ~/my-mod`), outside the library: deleted and
/// created again, or moved away and back, it is watched again, and its removal is reported at
/// once (the watch on the pack's own directory goes with it; its parent is watched too).
#[test]
fn a_pack_watched_by_its_own_path_survives_being_recreated() {
    let mut s = Session::start_custom("full", After::Nothing, |root, opts| {
        let outside = root.join("elsewhere/iron-wolves");
        std::fs::create_dir_all(root.join("elsewhere")).unwrap();
        std::fs::rename(root.join("mods/iron-wolves"), &outside).unwrap();
        opts.paths = vec![outside];
    });
    let pack = s.path("elsewhere/iron-wolves");
    let saved = s.path("saved-iron-wolves");
    cav_watch::copy_tree(&pack, &saved).unwrap();
    let retitle = |name: &str| {
        let card = pack.join("models/fenrir.yaml");
        let t = std::fs::read_to_string(&card).unwrap();
        std::fs::write(&card, t.replacen("name: Fenrir", &format!("name: {name}"), 1)).unwrap();
    };
    // Gone: a path given is missing, so the last good rules stay (said at once).
    std::fs::remove_dir_all(&pack).unwrap();
    assert!(reloaded_or_kept(&mut s).starts_with("kept last good"));
    cav_watch::copy_tree(&saved, &pack).unwrap();
    reloaded_with(&mut s, "");
    settle(&mut s);
    retitle("Fenrir Again");
    edited(&mut s, "model fenrir");
    std::fs::rename(&pack, s.path("away")).unwrap();
    assert!(reloaded_or_kept(&mut s).starts_with("kept last good"));
    std::fs::rename(s.path("away"), &pack).unwrap();
    reloaded_with(&mut s, "");
    retitle("Fenrir Once More");
    edited(&mut s, "model fenrir");
}

/// Wait for the next reload's line, good (`reloaded`) or not (`kept last good`).
fn reloaded_or_kept(s: &mut Session) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    while Instant::now() < deadline {
        if let Ok((_, line)) = s.rx.recv_timeout(Duration::from_millis(100))
            && (line.starts_with("reloaded") || line.starts_with("kept last good"))
        {
            return line;
        }
    }
    panic!("no reload within 20 s");
}

/// With `--test`, a save runs the tests of the pack it edited under every ruleset the pack joins:
/// the Overcharge example joins both, and a script that drops its effect fails its tests under
/// the Quick-Start (the watched ruleset) and the full rules alike, each named with why.
#[test]
fn an_edited_packs_tests_run_under_every_ruleset_it_joins() {
    let mut s = Session::start(After::Test);
    let script = s.path("mods/overcharge/scripts/overcharge.luau");
    let good = std::fs::read_to_string(&script).unwrap();
    let broken = good.replace("\"short-range overcharge\", 1)", "\"short-range overcharge\", 0)");
    assert_ne!(broken, good, "the example adds a short-range modifier");
    std::fs::write(&script, broken).unwrap();
    assert_eq!(s.expect("  testing the packs edited:"), "  testing the packs edited: overcharge");
    let quick = s.expect("  tests:");
    assert!(!quick.contains(" 0 failed"), "{quick}");
    let failing = s.expect("  failing:");
    assert!(failing.contains("overcharge-") && failing.split(": ").count() >= 3, "{failing}");
    let full = s.expect("  tests under cav-full:");
    assert!(!full.contains(" 0 failed"), "{full}");
    let failing = s.expect("  failing:");
    assert!(failing.contains("[cav-full]: "), "{failing}");
    std::fs::write(&script, &good).unwrap();
}
