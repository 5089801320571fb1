//! The quick reload (a save of scripts alone, see `WatchOptions::quick`) must make live exactly
//! what a full reload makes live. Each sequence of edits runs twice on a copy of the content,
//! quick path on and off, and what the watcher says after each save must be the same line for
//! line: the `reloaded` / `kept last good` lines with their diagnostics and, after `--run`, the
//! seeded replay and its first different event (the event log of the game the new rules play).
//! The full reload that follows the quick path compares resolved documents and diagnostics and
//! says so when they differ, which would break the equality too.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use cav_watch::{After, LineSink, WatchOptions, watch};

/// One at a time: each session reloads the whole content on every save.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A save: the file (relative to the root) and its new text from its original text. A path
/// that starts with `atomic:` is saved as many editors do: a temporary file renamed over it.
type Edit = (&'static str, fn(&str) -> String);

/// What the watcher said after each edit (times and the temporary root taken out), and how many
/// saves the quick path took.
struct Run {
    said: Vec<Vec<String>>,
    quick: usize,
}

fn session(ruleset: &str, after: After, quick: bool, edits: &[Edit]) -> Run {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
    }
    let root: PathBuf = dir.path().canonicalize().unwrap();
    let mut opts = WatchOptions::for_root(&root, ruleset, after);
    opts.quick = quick;
    let counts = opts.counts.clone();
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::spawn(move || watch(&opts, &mut LineSink::new(tx), flag).unwrap());
    // Wait until the full reloads reach `n`; then every line they wrote is in the channel.
    let settle = |n: usize| {
        let deadline = Instant::now() + Duration::from_secs(60);
        while counts.full.load(Ordering::Relaxed) < n {
            assert!(Instant::now() < deadline, "no reload within 60 s");
            std::thread::sleep(Duration::from_millis(10));
        }
        // A second reload of the same save would show in the next edit's lines.
        std::thread::sleep(Duration::from_millis(150));
    };
    let clean = |line: String| {
        let line = line.replace(&root.display().to_string(), "<root>");
        // "reloaded R (what) in 12.3 ms, N warnings": the time differs from run to run.
        match line.strip_prefix("reloaded ").and_then(|_| line.rsplit_once(" in ")) {
            Some((head, tail)) => format!("{head} in _{}", tail.split_once(" ms").map_or("", |(_, rest)| rest)),
            None => line,
        }
    };
    settle(1);
    while rx.try_recv().is_ok() {}
    let mut said = Vec::new();
    for (rel, edit) in edits {
        let (rel, atomic) = rel.strip_prefix("atomic:").map_or((*rel, false), |r| (r, true));
        let path = root.join(rel);
        // A file that does not exist yet is created (its original text is empty).
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let before = counts.full.load(Ordering::Relaxed);
        if atomic {
            let tmp = path.with_file_name(".quick-test.tmp");
            std::fs::write(&tmp, edit(&text)).unwrap();
            std::fs::rename(&tmp, &path).unwrap();
        } else {
            std::fs::write(&path, edit(&text)).unwrap();
        }
        settle(before + 1);
        said.push(rx.try_iter().map(|(_, l)| clean(l)).collect::<Vec<_>>());
    }
    stop.store(true, Ordering::Relaxed);
    thread.join().unwrap();
    Run { said, quick: counts.quick.load(Ordering::Relaxed) }
}

/// Run `edits` with the quick path on and off: the same output after every edit. Returns how
/// many saves the quick path took.
fn same_with_and_without_quick(ruleset: &str, after: After, edits: &[Edit]) -> usize {
    let full = session(ruleset, after.clone(), false, edits);
    let quick = session(ruleset, after, true, edits);
    assert_eq!(full.quick, 0);
    for (i, (f, q)) in full.said.iter().zip(&quick.said).enumerate() {
        assert!(!f.is_empty(), "edit {i} ({}) was not reloaded", edits[i].0);
        assert!(
            !q.iter().any(|l| l.contains("differs from the quick reload")),
            "edit {i} ({}):\n{}",
            edits[i].0,
            q.join("\n")
        );
        assert_eq!(f, q, "edit {i} ({}): full reload (left) and quick path (right) differ", edits[i].0);
    }
    quick.quick
}

const CARD: &str = "content/cav-quickstart/models/dictator-b.yaml";
const STRIKE: &str = "content/cav-quickstart/scripts/strike.luau";
const FORBID: &str = "return { attack_declare = function(ctx) ctx.forbid(\"no\") end }\n";

#[test]
fn quick_reloads_of_scripts_match_full_reloads_in_the_quickstart() {
    let edits: &[Edit] = &[
        // A stat changed in a unit file (data files are reloaded in full).
        (CARD, |t| t.replace("\ntv: 800\n", "\ntv: 810\n")),
        // Strike on the card's MACs, so that its script plays in the replayed scenario.
        (CARD, |t| t.replace("special_attributes: [piercing]", "special_attributes: [piercing, strike]")),
        // A script edited so that the game changes: Strike forbids every attack.
        (STRIKE, |_| FORBID.to_owned()),
        // A script broken: the last good rules stay, with the syntax error shown.
        (STRIKE, |_| "return { attack_declare = function(ctx) end\n".to_owned()),
        // Fixed to the same handlers as before the break: the same game.
        (STRIKE, |_| FORBID.to_owned()),
        // A script whose top level fails when loaded.
        (STRIKE, |_| "error('no')\nreturn {}\n".to_owned()),
        // The unit file made invalid, then fixed, while the script is still broken.
        (CARD, |t| t.replace("\ntv: 810\n", "\ntv: [broken\n")),
        (CARD, |t| t.replace("\ntv: [broken\n", "\ntv: 800\n")),
        // The script restored: the game with Strike as written.
        (STRIKE, |_| {
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(STRIKE)).unwrap()
        }),
        // A comment: the same game, event for event.
        (STRIKE, |t| format!("{t}-- edited\n")),
        // Saved through a temporary file renamed over the script: still a save of a script alone.
        ("atomic:content/cav-quickstart/scripts/strike.luau", |t| format!("{t}-- edited again\n")),
    ];
    let after = After::Run { scenario: "stand-and-fight".into(), seed: 3 };
    let quick = same_with_and_without_quick("quickstart", after, edits);
    // Every script save but the restore: the full reload before it failed with other documents
    // than the live ones (the card edited while the script was broken), so the files may no
    // longer hold the live documents and only a full reload can tell.
    assert_eq!(quick, 6, "the quick path was taken for {quick} of the 7 script saves");
}

#[test]
fn quick_reloads_match_full_reloads_with_patches_and_extends() {
    let edits: &[Edit] = &[
        // A document another pack patches (iron-wolves sets its tv).
        ("content/cav-full/weapons/light-autocannon.yaml", |t| t.replacen("\ntv: ", "\ntv: 1", 1)),
        // A parent that documents extend.
        ("content/cav-full/rules/terrain.yaml", |t| t.replacen("climb_cost: {foot: 2}", "climb_cost: {foot: 3}", 1)),
        // A script of the full ruleset, edited and then broken.
        ("content/cav-full/scripts/ecm.luau", |t| format!("{t}-- edited\n")),
        ("content/cav-full/scripts/ecm.luau", |t| format!("{t}\nreturn (\n")),
        // A new script file: it may change what the loader finds, so it is reloaded in full.
        ("content/cav-full/scripts/a_new_module.luau", |_| "return {}\n".to_owned()),
    ];
    let quick = same_with_and_without_quick("full", After::Nothing, edits);
    assert_eq!(quick, 2, "the quick path takes the two edits of a script, not the new one");
}
