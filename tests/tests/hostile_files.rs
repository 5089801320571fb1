//! Hostile packs: links and script roots that try to read files outside the pack. Each is an
//! `outside-pack` error naming the pack's own path, and nothing of the outside file is shown.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Output};

use cav_tests::{cav_in as cav, root};

/// A copy of the project with a mod `evil` (extends the full rules) made by `make`.
fn project_with_evil(manifest_extra: &str, make: impl FnOnce(&Path)) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&root().join(d), &tmp.path().join(d)).unwrap();
    }
    let evil = tmp.path().join("mods/evil");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(
        evil.join("pack.yaml"),
        format!("id: evil\nname: Evil\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full\"]\n{manifest_extra}"),
    )
    .unwrap();
    make(&evil);
    tmp
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// Runs `cav validate` in both formats: exit 1, no trace of the outside file; returns the JSON
/// diagnostics.
fn validate(project: &Path, secret: &str) -> Vec<serde_json::Value> {
    let human = cav(project).arg("validate").output().unwrap();
    assert_eq!(human.status.code(), Some(1), "{}", text(&human));
    assert!(!text(&human).contains(secret), "outside content shown:\n{}", text(&human));
    let json = cav(project).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(json.status.code(), Some(1));
    assert!(!text(&json).contains(secret), "outside content shown:\n{}", text(&json));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    report["diagnostics"].as_array().unwrap().clone()
}

fn outside_at<'a>(diags: &'a [serde_json::Value], file_end: &str) -> &'a serde_json::Value {
    diags
        .iter()
        .find(|d| d["code"] == "outside-pack" && d["file"].as_str().is_some_and(|f| f.ends_with(file_end)))
        .unwrap_or_else(|| panic!("no outside-pack at {file_end} in {diags:#?}"))
}

#[test]
fn link_to_etc_passwd_is_not_read() {
    let p = project_with_evil("", |evil| symlink("/etc/passwd", evil.join("x.yaml")).unwrap());
    let diags = validate(p.path(), "root:");
    let d = outside_at(&diags, "mods/evil/x.yaml");
    assert_eq!(d["pack"], "evil");
    assert_eq!(diags.iter().filter(|d| d["severity"] == "error").count(), 1, "{diags:#?}");
}

#[test]
fn link_out_of_the_pack_to_a_directory_is_not_walked() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.yaml"), "kind: model\nid: SECRET-VALUE-42\n").unwrap();
    let o = outside.path().to_owned();
    let p = project_with_evil("", |evil| {
        symlink("/", evil.join("root")).unwrap();
        symlink(&o, evil.join("elsewhere")).unwrap();
        symlink("/proc/self/environ", evil.join("env.yaml")).unwrap();
    });
    let start = std::time::Instant::now();
    let diags = validate(p.path(), "SECRET-VALUE-42");
    assert!(start.elapsed().as_secs() < 60, "the filesystem was walked");
    for f in ["mods/evil/root", "mods/evil/elsewhere", "mods/evil/env.yaml"] {
        outside_at(&diags, f);
    }
}

#[test]
fn link_inside_the_pack_is_followed() {
    let p = project_with_evil("", |evil| {
        std::fs::create_dir_all(evil.join("real")).unwrap();
        std::fs::write(evil.join("real/a.yaml"), "kind: [broken\n").unwrap();
        symlink("real", evil.join("alias")).unwrap();
    });
    let out = cav(p.path()).args(["validate", "--format", "json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    assert!(diags.iter().all(|d| d["code"] != "outside-pack"), "{diags:#?}");
    // Read twice (once through the link), so reported twice.
    let syntax = diags.iter().filter(|d| d["code"] == "yaml-syntax").count();
    assert_eq!(syntax, 2, "{diags:#?}");
}

#[test]
fn script_roots_outside_the_pack_are_refused() {
    let p = project_with_evil("scripts: [\"/\", \"../../../x\", \"../iron-wolves\"]\n", |evil| {
        std::fs::create_dir_all(evil.join("ok")).unwrap();
    });
    let diags = validate(p.path(), "root:");
    for i in 0..3 {
        let d = diags
            .iter()
            .find(|d| d["code"] == "outside-pack" && d["pointer"] == format!("/scripts/{i}"))
            .unwrap_or_else(|| panic!("no outside-pack at /scripts/{i} in {diags:#?}"));
        assert!(d["file"].as_str().unwrap().ends_with("mods/evil/pack.yaml"));
        assert_eq!(d["line"], 6);
    }
}

#[test]
fn linked_script_root_leaving_the_pack_is_refused() {
    let p = project_with_evil("scripts: [lib]\n", |evil| symlink("/usr", evil.join("lib")).unwrap());
    let diags = validate(p.path(), "root:");
    let d = diags.iter().find(|d| d["code"] == "outside-pack" && d["pointer"] == "/scripts/0");
    assert!(d.is_some(), "{diags:#?}");
}

/// A FIFO named like a content file neither hangs the loader (it is opened without blocking and
/// refused as not a regular file) nor is skipped without a word.
#[test]
fn a_fifo_in_a_pack_is_refused_without_blocking() {
    let p = project_with_evil("", |evil| {
        let status = Command::new("mkfifo").arg(evil.join("x.yaml")).status().unwrap();
        assert!(status.success());
    });
    let start = std::time::Instant::now();
    let out = cav(p.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    assert!(
        diags.iter().any(|d| d["message"] == "not a regular file"
            && d["file"].as_str().is_some_and(|f| f.ends_with("mods/evil/x.yaml"))),
        "{diags:#?}"
    );
}

/// `cav replay` and `cav lua` named a FIFO refuse it at once instead of blocking on it, and
/// `cav lua` refuses a file over the script size limit before reading it.
#[test]
fn a_fifo_or_an_oversized_file_is_refused_not_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("log.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    for args in [vec!["replay"], vec!["lua"]] {
        let out =
            cav_tests::output_within(cav(&root()).args(&args).arg(&fifo), 20, &format!("`cav {}` on a FIFO", args[0]));
        assert_eq!(out.status.code(), Some(2), "`cav {}` on a FIFO: {}", args[0], text(&out));
        assert!(text(&out).contains("not a") && text(&out).contains("file"), "{}", text(&out));
    }
    let big = tmp.path().join("big.luau");
    std::fs::write(&big, "-".repeat(cav_format::limits::MAX_SCRIPT_BYTES + 1)).unwrap();
    let out = cav(&root()).arg("lua").arg(&big).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("larger than the"), "{}", text(&out));
}

/// `cav new` never writes through a link: not into a pack folder that is a link leading out of
/// the pack, nor through a dangling link where the new file would go.
#[test]
fn cav_new_writes_nothing_through_a_link() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let new = |args: &[&str]| cav(&root()).arg("new").args(args).current_dir(tmp.path()).output().unwrap();
    assert!(new(&["pack", "evil", "--dir", "."]).status.success());
    let models = tmp.path().join("evil/models");
    let _ = std::fs::remove_dir(&models);
    symlink(&outside, &models).unwrap();
    let out = new(&["model", "spy", "--pack", "evil"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("leads outside the pack"), "{}", text(&out));
    std::fs::remove_file(&models).unwrap();
    std::fs::create_dir_all(&models).unwrap();
    symlink(outside.join("planted.yaml"), models.join("spy.yaml")).unwrap();
    let out = new(&["model", "spy", "--pack", "evil"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("already exists"), "{}", text(&out));
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "nothing was written outside the pack");
}
