//! Hostile dependency graphs: planning stays fast whatever the number of packs, and the blame
//! lands on the pack that caused the problem while every other pack still loads.

use std::path::Path;
use std::time::{Duration, Instant};

use cav_tests::{cav_in as cav, root};

/// The official content and `n` mods `p00000`… where mod i depends on `dep(i)`.
fn project(n: usize, dep: impl Fn(usize) -> String) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    for i in 0..n {
        let dir = tmp.path().join(format!("mods/p{i:05}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("pack.yaml"),
            format!("id: p{i:05}\nname: P{i}\nversion: 1.0.0\nkind: extension\ndepends: [\"{}\"]\n", dep(i)),
        )
        .unwrap();
    }
    tmp
}

fn json_validate(project: &Path) -> (Option<i32>, serde_json::Value, Duration) {
    let start = Instant::now();
    let out = cav(project).args(["validate", "--format", "json"]).output().unwrap();
    let took = start.elapsed();
    (out.status.code(), serde_json::from_slice(&out.stdout).unwrap(), took)
}

fn errors(report: &serde_json::Value) -> Vec<&serde_json::Value> {
    report["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] == "error").collect()
}

/// 2,000 mods in one dependency cycle: one error, blamed on the cycle, in seconds (it took 264 s
/// in a debug build when planning was cubic); the rulesets still validate.
#[test]
fn a_2000_pack_cycle_is_one_error_in_seconds() {
    let n = 2000;
    let p = project(n, |i| format!("p{:05}", (i + 1) % n));
    let (code, report, took) = json_validate(p.path());
    assert_eq!(code, Some(1));
    let errs = errors(&report);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0]["code"], "dependency-cycle");
    assert!(report["warnings"].as_u64().unwrap() > 0, "the rulesets were not validated");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// A chain of 2,000 mods on top of the full rules: valid, and planned in seconds.
#[test]
fn a_2000_pack_chain_plans_in_seconds() {
    let n = 2000;
    let p = project(n, |i| if i + 1 < n { format!("p{:05}", i + 1) } else { "cav-full".into() });
    let (code, report, took) = json_validate(p.path());
    assert_eq!(code, Some(0), "{report:#}");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// A mod that depends on itself is one error on that mod; the rulesets and the other mods load.
#[test]
fn a_pack_depending_on_itself_is_blamed_alone() {
    let p = project(1, |_| "cav-quickstart".into());
    let evil = p.path().join("mods/evil");
    std::fs::create_dir_all(&evil).unwrap();
    std::fs::write(
        evil.join("pack.yaml"),
        "id: evil\nname: Evil\nversion: 1.0.0\nkind: extension\ndepends: [\"evil\", \"cav-quickstart\"]\n",
    )
    .unwrap();
    let (code, report, _) = json_validate(p.path());
    assert_eq!(code, Some(1));
    let errs = errors(&report);
    assert_eq!(errs.len(), 1, "{errs:#?}");
    assert_eq!(errs[0]["code"], "dependency-cycle");
    assert_eq!(errs[0]["pack"], "evil");
    assert!(errs[0]["file"].as_str().unwrap().ends_with("mods/evil/pack.yaml"));
    assert!(report["warnings"].as_u64().unwrap() > 0, "the rulesets were not validated");
}

/// Two mods that do not build on each other define the same id: both are told (the one that
/// sorts later is not blamed alone); a mod that builds on the other is the one at fault.
#[test]
fn a_duplicate_id_between_unrelated_mods_blames_both() {
    let p = project(0, |_| unreachable!());
    for (name, deps) in [("alpha", "[cav-full]"), ("beta", "[cav-full]"), ("gamma", "[alpha]")] {
        let dir = p.path().join(format!("mods/{name}/models"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            p.path().join(format!("mods/{name}/pack.yaml")),
            format!("id: {name}\nname: {name}\nversion: 1.0.0\nkind: extension\ndepends: {deps}\n"),
        )
        .unwrap();
        let twin = std::fs::read_to_string(root().join("mods/iron-wolves/models/warg.yaml")).unwrap();
        std::fs::write(dir.join("twin.yaml"), twin.replace("id: warg", "id: twin")).unwrap();
    }
    let (code, report, _) = json_validate(p.path());
    assert_eq!(code, Some(1));
    let dup: Vec<(&str, &str)> = errors(&report)
        .iter()
        .filter(|d| d["code"] == "duplicate-id")
        .map(|d| (d["pack"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert!(dup.iter().any(|(p, m)| *p == "alpha" && m.contains("also defined by pack `beta`")), "{dup:#?}");
    assert!(dup.iter().any(|(p, m)| *p == "beta" && m.contains("which pack `beta` does not depend on")), "{dup:#?}");
    // gamma builds on alpha: redefining alpha's id is gamma's fault alone.
    assert!(dup.iter().any(|(p, m)| *p == "gamma" && m.contains("already defined (in pack `alpha`)")), "{dup:#?}");
    assert!(!dup.iter().any(|(p, m)| *p == "alpha" && m.contains("gamma")), "{dup:#?}");
}
