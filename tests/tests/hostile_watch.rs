//! `cav watch` refuses settings that cannot work, at once, with exit 2 and a message saying why:
//! a debounce outside 5..=5000 ms (0 spun a core, a huge one never reloaded), a path that does
//! not exist, a root without content (both used to watch nothing, or the wrong thing, silently).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

/// Run `cav` with these arguments; kill it after 20 s (a watch that does not refuse runs forever).
fn cav(args: &[&str]) -> Output {
    let mut child = Command::new(cav_tests::cav_bin())
        .args(args)
        .env("CAV_ROOT", root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!("`cav {}` did not exit:\n{}", args.join(" "), String::from_utf8_lossy(&out.stdout));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn refused(args: &[&str], says: &str) {
    let out = cav(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "`cav {}`: {err}", args.join(" "));
    assert!(err.contains(says), "`cav {}` should say {says:?}: {err}", args.join(" "));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("watching"), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_debounce_outside_the_range_is_refused() {
    refused(&["watch", "--debounce-ms", "0"], "5..=5000");
    refused(&["watch", "--debounce-ms", "4"], "5..=5000");
    refused(&["watch", "--debounce-ms", "5001"], "5..=5000");
    refused(&["watch", "--debounce-ms", "18446744073709551615"], "5..=5000");
    refused(&["watch", "--debounce-ms", "-1"], "'-1'");
}

#[test]
fn a_missing_path_is_refused() {
    refused(&["watch", "/nonexistent/pack"], "/nonexistent/pack: no such file or directory");
}

#[test]
fn a_root_without_content_is_refused() {
    refused(&["--root", "/nonexistent", "watch"], "no content to watch");
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(empty.path().join("content")).unwrap();
    refused(&["--root", empty.path().to_str().unwrap(), "watch"], "no pack in");
}

#[test]
fn a_missing_ruleset_is_refused() {
    refused(&["watch", "--ruleset", "nonesuch"], "no ruleset `nonesuch` to watch; rulesets: ");
}
