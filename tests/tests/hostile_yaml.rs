//! Hostile YAML through the release-shaped binary: each case once crashed, hung or ate gigabytes.
//! Every run here has its address space capped (prlimit, util-linux) and its wall time bounded,
//! and must end with exit 1 and a located diagnostic.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Address space the child may map: far below what the old failures reached (2–6 GB).
const ADDRESS_SPACE: &str = "--as=3221225472";

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

fn cav_exe() -> PathBuf {
    cav_tests::cav_bin()
}

/// A copy of the project with `text` as a file of the example mod.
fn project_with(name: &str, text: &str) -> tempfile::TempDir {
    project_writing(&format!("mods/iron-wolves/{name}"), text)
}

/// A copy of the project with `text` written at `path` (relative to the project).
fn project_writing(path: &str, text: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&root().join(d), &tmp.path().join(d)).unwrap();
    }
    std::fs::write(tmp.path().join(path), text).unwrap();
    tmp
}

/// Run `cav validate --format json` on the project, capped; (exit code, stdout, seconds).
fn validate(project: &Path) -> (Option<i32>, String, f64) {
    let exe = cav_exe();
    let start = Instant::now();
    let out = Command::new("prlimit")
        .arg(ADDRESS_SPACE)
        .arg(exe)
        .args(["validate", "--format", "json"])
        .env("CAV_ROOT", project)
        .output()
        .expect("prlimit (util-linux) runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned(), start.elapsed().as_secs_f64())
}

fn located(report: &str, code: &str, file: &str) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(report).expect("JSON report");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == code && d["file"].as_str().unwrap_or_default().ends_with(file))
        .unwrap_or_else(|| panic!("no {code} in {file}: {report:.2000}"))
        .clone()
}

#[test]
fn deep_block_nesting_is_refused_not_a_stack_overflow() {
    let tmp = project_with("deep.yaml", &format!("{}x\n", "- ".repeat(10_000)));
    let (code, out, secs) = validate(tmp.path());
    assert_eq!(code, Some(1), "{out:.2000}");
    let d = located(&out, "yaml-limit", "deep.yaml");
    assert_eq!(d["line"], 1);
    assert!(secs < 20.0, "took {secs} s");
}

#[test]
fn depth_times_width_stays_within_memory() {
    let text = format!("{}[{}]\n", "- ".repeat(3_000), vec!["1"; 1_000_000].join(","));
    let tmp = project_with("wide.yaml", &text);
    let (code, out, secs) = validate(tmp.path());
    assert_eq!(code, Some(1), "{out:.2000}");
    located(&out, "yaml-limit", "wide.yaml");
    assert!(secs < 20.0, "took {secs} s");
}

#[test]
fn a_flood_of_errors_is_capped_and_counted() {
    // 60,000 documents of an unknown kind: one error each.
    let text = "---\nkind: modle\nid: x\n".repeat(60_000);
    let tmp = project_with("flood.yaml", &text);
    let (code, out, secs) = validate(tmp.path());
    assert_eq!(code, Some(1));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["errors"].as_u64().unwrap() >= 60_000, "every error is counted: {}", v["errors"]);
    let shown = v["diagnostics"].as_array().unwrap();
    assert!(shown.len() <= cav_format::limits::MAX_DIAGNOSTICS + 1, "{} shown", shown.len());
    assert_eq!(shown.last().unwrap()["code"], "diagnostics-truncated");
    assert!(out.len() < 4_000_000, "{} bytes of output", out.len());
    assert!(secs < 60.0, "took {secs} s");
}

#[test]
fn boards_and_dice_a_scenario_cannot_afford() {
    // A board of no width, dice past their limits, and a game of four billion turns (it would never end).
    let text = "kind: patch\ntarget: {kind: scenario, id: stand-and-fight}\nset: {board: [0, -48], terrain_features: 1d4294967295, turn_limit: 4294967295}\n";
    let tmp = project_writing("content/cav-quickstart/scenarios/hostile.yaml", text);
    let (code, out, _) = validate(tmp.path());
    assert_eq!(code, Some(1), "{out:.2000}");
    assert!(out.contains("hostile.yaml"), "the errors point at the patch: {out:.3000}");
    assert!(out.contains("/turn_limit"), "the turn limit is refused: {out:.3000}");
}

/// More models than any game fields: a scenario placing 501 a side (3,000 a side once played for
/// 81 s), and a force with 600, are refused where they are written, with the limit named.
#[test]
fn forces_larger_than_any_game_are_refused() {
    let most = cav_format::limits::MAX_MODELS_PER_SIDE;
    let placements = "    - model: dictator-b\n".repeat(most + 1);
    let scenario = format!(
        "kind: scenario\nid: horde\nname: Horde\nboard: [48, 48]\ndeployment:\n  - side: red\n    zone: {{x: 0, y: 0, width: 48, height: 6}}\n  - side: black\n    zone: {{x: 0, y: 42, width: 48, height: 6}}\nforces:\n  red:\n{placements}  black:\n    - model: dictator-b\nvictory: last_standing\nsummary: Invented for a test.\n"
    );
    let tmp = project_writing("content/cav-quickstart/scenarios/horde.yaml", &scenario);
    let (code, out, secs) = validate(tmp.path());
    assert_eq!(code, Some(1), "{out:.2000}");
    assert!(
        out.contains(&format!("side `red` fields {} models, more than the {most} one side may field", most + 1)),
        "{out:.3000}"
    );
    assert!(out.contains("horde.yaml"), "{out:.3000}");
    assert!(secs < 60.0, "{secs} s");

    let force = "# yaml-language-server: $schema=../../../schemas/editor/force.schema.json\nkind: force\nid: huge\nname: Huge\nfaction: iron-wolves\ntvp: 1000000\nsquads:\n  - type: attack\n    models:\n      - {model: fenrir, count: 99}\n".to_owned()
        + &"  - type: attack\n    models:\n      - {model: fenrir, count: 99}\n".repeat(6);
    let tmp = project_with("forces/huge.yaml", &force);
    let (code, out, _) = validate(tmp.path());
    assert_eq!(code, Some(1), "{out:.2000}");
    assert!(
        out.contains(&format!("the force fields 693 models, more than the {most} one side may field")),
        "{out:.3000}"
    );
}
