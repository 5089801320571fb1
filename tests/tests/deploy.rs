//! The balance study as an array job (`deploy/`): the Slurm array script run as each task of a
//! 3-task array (the variables a Slurm node sets), the Kubernetes Indexed Job's own container
//! command run as each of its 3 pods (`JOB_COMPLETION_INDEX`), and `deploy/local.sh`, each
//! followed by its merge step, give byte for byte the unsharded `cav sim --format json`. The
//! manifests parse and agree with each other (shard count, volume, working directory); every
//! script parses; a shard with no index, a missing shard, overlapping seeds or foreign content
//! are refused with exit 2 and a message.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use cav_tests::root;
use serde_json::Value;

const SCENARIO: &str = "stand-and-fight";
const GAMES: &str = "30";
const SHARDS: usize = 3;

/// Everything a shard or merge script reads, so the caller's environment (a CI job running
/// inside a Slurm allocation or a pod) cannot leak in.
const STUDY_VARS: [&str; 16] = [
    "JOB_COMPLETION_INDEX",
    "SHARDS",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_SUBMIT_DIR",
    "SLURM_CPUS_PER_TASK",
    "SCENARIO",
    "GAMES",
    "SEED",
    "RULESET",
    "VS",
    "RESULTS",
    "RAYON_NUM_THREADS",
    "PLOT",
];

/// A deploy script (path relative to the project), executed directly as a node would (so its
/// executable bit and `#!` line count), with a clean study environment and the freshly built
/// `cav` as `CAV`.
fn script(rel: &str) -> Command {
    let mut c = Command::new(root().join(rel));
    for v in STUDY_VARS {
        c.env_remove(v);
    }
    c.env("CAV", cav_tests::cav_bin()).env("CAV_ROOT", root()).current_dir(root());
    c
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn ok(out: &Output, what: &str) {
    assert!(out.status.success(), "{what}: {}", show(out));
}

fn run_all(cmds: Vec<Command>, what: &str) {
    let children: Vec<_> =
        cmds.into_iter().map(|mut c| c.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()).collect();
    for (i, c) in children.into_iter().enumerate() {
        ok(&c.wait_with_output().unwrap(), &format!("{what} {}", i + 1));
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The unsharded run: `cav sim stand-and-fight --games 30 --format json`, once per test binary.
fn whole() -> &'static str {
    static WHOLE: OnceLock<String> = OnceLock::new();
    WHOLE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let out_file = tmp.path().join("whole.json");
        let out = cav_tests::cav_in(&root())
            .args(["sim", SCENARIO, "--games", GAMES, "--format", "json", "--out"])
            .arg(&out_file)
            .output()
            .unwrap();
        ok(&out, "the unsharded run");
        read(&out_file)
    })
}

fn assert_merged_is_whole(results: &Path, what: &str) {
    for i in 1..=SHARDS {
        let shard: Value = serde_json::from_str(&read(&results.join(format!("shard-{i}.json")))).unwrap();
        assert_eq!(shard["games"], 10, "{what}: shard {i} plays a third of the games: {shard}");
    }
    assert_eq!(read(&results.join("merged.json")), whole(), "{what}: the merge is the unsharded run, byte for byte");
    assert!(results.join("charts/win-rates.svg").is_file(), "{what}: the merge draws the charts");
    let leftovers: Vec<_> = std::fs::read_dir(results)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(leftovers.is_empty(), "{what}: temporary files left behind: {leftovers:?}");
}

#[test]
fn slurm_array_tasks_merge_into_the_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let task = |id: usize, min: usize| {
        let mut c = script("deploy/slurm/sim-array.sbatch");
        c.current_dir(tmp.path()) // sbatch runs a copy of the script elsewhere: it must cd itself
            .env("SLURM_SUBMIT_DIR", root())
            .env("SLURM_ARRAY_TASK_ID", id.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", SHARDS.to_string())
            .env("SLURM_ARRAY_TASK_MIN", min.to_string())
            .env("SLURM_ARRAY_TASK_MAX", (min + SHARDS - 1).to_string())
            .env("SLURM_CPUS_PER_TASK", "1")
            .env("SCENARIO", SCENARIO)
            .env("GAMES", GAMES)
            .env("RESULTS", &results);
        c
    };
    run_all((1..=SHARDS).map(|id| task(id, 1)).collect(), "array task");
    let out = script("deploy/slurm/merge.sbatch")
        .current_dir(tmp.path())
        .env("SLURM_SUBMIT_DIR", root())
        .env("SHARDS", SHARDS.to_string())
        .env("RESULTS", &results)
        .output()
        .unwrap();
    ok(&out, "merge.sbatch");
    assert!(!out.stdout.is_empty(), "the merge job's output holds the table: {}", show(&out));
    assert_merged_is_whole(&results, "slurm");

    // An array counted from 0 (`--array=0-2`) names the same shards 1..3.
    let zero = tmp.path().join("zero");
    run_all(
        (0..SHARDS)
            .map(|id| {
                let mut c = task(id, 0);
                c.env("RESULTS", &zero);
                c
            })
            .collect(),
        "0-based array task",
    );
    for i in 1..=SHARDS {
        let name = format!("shard-{i}.json");
        assert_eq!(read(&zero.join(&name)), read(&results.join(&name)), "{name} of a 0-based array");
    }

    // The merge job is meant to be submitted with SHARDS: without it, a message and exit 2.
    let out =
        script("deploy/slurm/merge.sbatch").env("SLURM_SUBMIT_DIR", root()).env("RESULTS", &results).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("SHARDS"), "{}", show(&out));

    // The script documents its array and the dependent merge.
    let text = read(&root().join("deploy/slurm/sim-array.sbatch"));
    assert!(text.contains("#SBATCH --array=1-"), "{text}");
    assert!(text.contains("--dependency=afterok:") && text.contains("merge.sbatch"), "{text}");
}

/// The YAML documents of a manifest, as JSON values (through the loader's own YAML reader).
fn manifest(rel: &str) -> Vec<Value> {
    let text = read(&root().join(rel));
    cav_content::yaml::parse(&text, cav_content::FileId(0))
        .unwrap_or_else(|e| panic!("{rel} is not YAML: {e:?}"))
        .into_iter()
        .map(|d| (*d.value).clone())
        .collect()
}

fn job(rel: &str) -> Value {
    let docs = manifest(rel);
    let jobs: Vec<_> = docs.into_iter().filter(|d| d["kind"] == "Job").collect();
    assert_eq!(jobs.len(), 1, "{rel} holds one Job");
    let j = jobs.into_iter().next().unwrap();
    assert_eq!(j["apiVersion"], "batch/v1", "{rel}");
    j
}

/// The one container of a Job: its command, working directory, environment and results mount.
struct Pod {
    command: Vec<String>,
    working_dir: String,
    env: BTreeMap<String, String>,
    results_mount: String,
    claim: String,
}

fn pod(rel: &str, job: &Value) -> Pod {
    let spec = &job["spec"]["template"]["spec"];
    assert_eq!(spec["restartPolicy"], "Never", "{rel}");
    let containers = spec["containers"].as_array().unwrap_or_else(|| panic!("{rel}: containers"));
    assert_eq!(containers.len(), 1, "{rel}: one container");
    let c = &containers[0];
    let requests = &c["resources"]["requests"];
    assert!(requests["cpu"].is_string() && requests["memory"].is_string(), "{rel}: resource requests: {c}");
    let command: Vec<String> =
        c["command"].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_owned()).collect();
    let env: BTreeMap<String, String> = c["env"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let v = e["value"].as_str().unwrap_or_else(|| panic!("{rel}: env values are strings: {e}"));
            (e["name"].as_str().unwrap().to_owned(), v.to_owned())
        })
        .collect();
    let results = env.get("RESULTS").unwrap_or_else(|| panic!("{rel}: RESULTS is set")).clone();
    let mount = c["volumeMounts"].as_array().unwrap().iter().find(|m| m["mountPath"] == results.as_str());
    let mount = mount.unwrap_or_else(|| panic!("{rel}: RESULTS ({results}) is a mounted volume"));
    let volume = spec["volumes"].as_array().unwrap().iter().find(|v| v["name"] == mount["name"]).unwrap();
    let claim = volume["persistentVolumeClaim"]["claimName"].as_str();
    let claim = claim.unwrap_or_else(|| panic!("{rel}: the results volume is a PVC: {volume}")).to_owned();
    let working_dir = c["workingDir"].as_str().unwrap_or_else(|| panic!("{rel}: workingDir")).to_owned();
    Pod { command, working_dir, env, results_mount: results, claim }
}

/// The container's command, run here: its working directory (the image's /opt/cav) is this
/// checkout, the results volume is `results`.
fn run_here(rel: &str, p: &Pod, results: &Path, overrides: &[(&str, String)]) -> Command {
    assert_eq!(p.working_dir, "/opt/cav", "{rel}: the image's working directory (deploy/Containerfile)");
    let mut c = script(&p.command[0]);
    c.args(&p.command[1..]);
    for (k, v) in &p.env {
        c.env(k, v);
    }
    c.env("RESULTS", results);
    for (k, v) in overrides {
        c.env(k, v);
    }
    c
}

#[test]
fn kubernetes_indexed_job_pods_merge_into_the_unsharded_run() {
    let sim = job("deploy/k8s/sim-job.yaml");
    let spec = &sim["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let completions = spec["completions"].as_u64().expect("completions");
    assert!(spec["parallelism"].as_u64().is_some_and(|p| p >= 1), "parallelism: {spec}");
    assert!(spec["backoffLimitPerIndex"].is_u64() || spec["backoffLimit"].is_u64(), "a retry limit: {spec}");
    let shard = pod("deploy/k8s/sim-job.yaml", &sim);
    assert!(shard.command.join(" ").contains("deploy/shard.sh"), "the pod runs deploy/shard.sh: {:?}", shard.command);
    assert_eq!(shard.env["SHARDS"], completions.to_string(), "SHARDS is the Job's completions");
    assert_eq!(shard.env["SCENARIO"], SCENARIO);
    assert!(shard.env.contains_key("GAMES"));

    let merge = job("deploy/k8s/merge-job.yaml");
    let merger = pod("deploy/k8s/merge-job.yaml", &merge);
    assert!(merger.command.join(" ").contains("deploy/merge.sh"), "{:?}", merger.command);
    assert_eq!(merger.env["SHARDS"], completions.to_string(), "the merge expects the Job's completions");
    assert_eq!((&merger.claim, &merger.results_mount), (&shard.claim, &shard.results_mount), "one shared volume");
    let pvc = manifest("deploy/k8s/results-pvc.yaml");
    assert!(
        pvc.iter().any(|d| d["kind"] == "PersistentVolumeClaim"
            && d["metadata"]["name"] == shard.claim.as_str()
            && d["spec"]["accessModes"].as_array().unwrap().iter().any(|m| m == "ReadWriteMany")),
        "results-pvc.yaml declares the claim, ReadWriteMany: {pvc:?}"
    );
    let image = |p: &Value| p["spec"]["template"]["spec"]["containers"][0]["image"].as_str().unwrap().to_owned();
    assert_eq!(image(&sim), image(&merge), "one image");
    let containerfile = read(&root().join("deploy/Containerfile"));
    assert!(containerfile.contains("WORKDIR /opt/cav") && containerfile.contains("COPY deploy /opt/cav/deploy"));
    let readme = read(&root().join("deploy/README.md"));
    assert!(readme.contains(&image(&sim)), "the README explains the image placeholder");

    // The pods, as Kubernetes starts them: JOB_COMPLETION_INDEX 0..2, SHARDS = 3 completions.
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let n = || ("SHARDS", SHARDS.to_string());
    run_all(
        (0..SHARDS)
            .map(|i| {
                let mut c = run_here("sim-job.yaml", &shard, &results, &[n(), ("GAMES", GAMES.into())]);
                c.env("JOB_COMPLETION_INDEX", i.to_string());
                c
            })
            .collect(),
        "pod",
    );
    let out = run_here("merge-job.yaml", &merger, &results, &[n()]).output().unwrap();
    ok(&out, "the merge Job");
    assert_merged_is_whole(&results, "kubernetes");

    // The merge refuses: a missing shard (named), overlapping seeds, other content.
    let merge_now = || run_here("merge-job.yaml", &merger, &results, &[n()]).output().unwrap();
    let refused = |why: &str, needle: &str| {
        let out = merge_now();
        assert_eq!(out.status.code(), Some(2), "{why}: {}", show(&out));
        assert!(String::from_utf8_lossy(&out.stderr).contains(needle), "{why}: {}", show(&out));
    };
    let shard2 = results.join("shard-2.json");
    let kept = read(&shard2);
    std::fs::remove_file(&shard2).unwrap();
    refused("a missing shard", "shard-2.json");
    // Shard 2 of another study (SEED=5: seeds 15..25) overlaps shard 3 (seeds 21..31).
    let mut c = run_here("sim-job.yaml", &shard, &results, &[n(), ("GAMES", GAMES.into()), ("SEED", "5".into())]);
    ok(&c.env("JOB_COMPLETION_INDEX", "1").output().unwrap(), "shard 2 of seed 5");
    refused("overlapping seeds", "overlap");
    let mut foreign: Value = serde_json::from_str(&kept).unwrap();
    foreign["content_hash"] = "0000".into();
    std::fs::write(&shard2, serde_json::to_string_pretty(&foreign).unwrap()).unwrap();
    refused("other content", "different content");
}

#[test]
fn local_sh_runs_the_shards_and_merges_into_the_unsharded_run() {
    let tmp = tempfile::tempdir().unwrap();
    let results = tmp.path().join("results");
    let out = script("deploy/local.sh")
        .arg(SHARDS.to_string())
        .env("SCENARIO", SCENARIO)
        .env("GAMES", GAMES)
        .env("RESULTS", &results)
        .output()
        .unwrap();
    ok(&out, "local.sh");
    assert!(!out.stdout.is_empty(), "local.sh prints the merged table: {}", show(&out));
    assert_merged_is_whole(&results, "local.sh");

    // A shard that fails: local.sh says which and how, and merges nothing.
    let failed = tmp.path().join("failed");
    let out = script("deploy/local.sh")
        .arg(SHARDS.to_string())
        .env("SCENARIO", "no-such-scenario")
        .env("GAMES", GAMES)
        .env("RESULTS", &failed)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shard 1/3 failed (exit 2)") && err.contains("no-such-scenario"), "{}", show(&out));
    assert!(!failed.join("merged.json").exists());
}

#[test]
fn a_shard_without_an_index_exits_2_saying_so() {
    let tmp = tempfile::tempdir().unwrap();
    // shard.sh with a whole study set but for what each case leaves out.
    let shard = || {
        let mut c = script("deploy/shard.sh");
        c.env("SCENARIO", SCENARIO).env("GAMES", GAMES).env("RESULTS", tmp.path());
        c
    };
    let refused = |c: &mut Command, needle: &str| {
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{needle}: {}", show(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "expected `{needle}`: {}", show(&out));
        err.into_owned()
    };
    let err = refused(&mut shard(), "no shard index");
    for var in ["JOB_COMPLETION_INDEX", "SHARDS", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT"] {
        assert!(err.contains(var), "the message names {var}: {err}");
    }
    refused(shard().env("JOB_COMPLETION_INDEX", "0"), "SHARDS is not");
    refused(shard().env("SLURM_ARRAY_TASK_ID", "1"), "SLURM_ARRAY_TASK_COUNT is not");
    refused(shard().env("JOB_COMPLETION_INDEX", "3").env("SHARDS", "3"), "shard 4 of 3");
    refused(shard().args(["0", "3"]), "shard 0 of 3");
    refused(shard().args(["1"]), "two arguments");
    refused(shard().args(["x", "3"]), "whole number");
    refused(shard().args(["1", "3"]).env_remove("SCENARIO"), "SCENARIO is not set");
    refused(shard().args(["1", "3"]).env_remove("GAMES"), "GAMES is not set");
    let files: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().collect();
    assert!(files.is_empty(), "a refused shard writes nothing: {files:?}");
}

#[test]
fn every_script_parses_and_is_executable() {
    let mut scripts: Vec<PathBuf> = vec![root().join("scripts/bench-validate")];
    for dir in ["deploy", "deploy/slurm"] {
        for e in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "sh" || x == "sbatch") {
                scripts.push(p);
            }
        }
    }
    scripts.sort();
    let names: Vec<String> = scripts.iter().map(|p| p.strip_prefix(root()).unwrap().display().to_string()).collect();
    for want in ["deploy/shard.sh", "deploy/merge.sh", "deploy/local.sh", "deploy/slurm/sim-array.sbatch"] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    for (p, name) in scripts.iter().zip(&names) {
        let out = Command::new("bash").arg("-n").arg(p).output().unwrap();
        assert!(out.status.success(), "bash -n {name}: {}", show(&out));
        let mode = std::fs::metadata(p).unwrap().permissions().mode();
        assert!(mode & 0o111 != 0, "{name} is executable (the Job runs it directly)");
        let text = read(p);
        assert!(text.starts_with("#!/usr/bin/env bash\n"), "{name}: a bash #! line");
        // sbatch reads #SBATCH lines only up to the first command.
        if name.ends_with(".sbatch") {
            let lines: Vec<&str> = text.lines().collect();
            let first_command = lines.iter().position(|l| !l.trim().is_empty() && !l.starts_with('#')).unwrap();
            let last_directive = lines.iter().rposition(|l| l.starts_with("#SBATCH")).expect("#SBATCH lines");
            assert!(last_directive < first_command, "{name}: an #SBATCH line after the first command is ignored");
        }
    }
}
