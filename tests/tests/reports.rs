//! The machine-readable outputs hold to their own schemas (schemas/reports/): every
//! `--format json` report against its JSON Schema, the JUnit report against its XML Schema with
//! libxml2's `xmllint` (`.ci/run` installs it where missing).

use std::path::Path;
use std::process::Command;

use cav_tests::root;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

/// Run `cav args`, expecting `code`, and return stdout parsed as JSON.
fn json_of(args: &[&str], code: i32) -> serde_json::Value {
    let out = cav().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?} prints JSON: {e}"))
}

fn schema(name: &str) -> jsonschema::Validator {
    let path = root().join(format!("schemas/reports/{name}.schema.json"));
    let s: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    jsonschema::validator_for(&s).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn holds(name: &str, doc: &serde_json::Value) {
    let v = schema(name);
    let errors: Vec<String> = v.iter_errors(doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{name} report breaks its schema: {errors:#?}");
    // The schema is not vacuous: the report without its first required field fails it.
    let mut broken = doc.clone();
    let first = broken.as_object().and_then(|o| o.keys().next().cloned()).unwrap();
    broken.as_object_mut().unwrap().remove(&first);
    assert!(!v.is_valid(&broken), "{name}: a report without `{first}` should not hold");
}

/// A pack with one passing and one failing test (and a test for a ruleset it cannot join).
fn failing_pack(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("mixed");
    std::fs::create_dir_all(p.join("tests")).unwrap();
    std::fs::write(
        p.join("pack.yaml"),
        "id: mixed\nname: Mixed\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-quickstart >= 1.0\"]\n",
    )
    .unwrap();
    let test = |id: &str, success: bool| {
        format!(
            "kind: test\nid: {id}\nname: \"{id} & <friends>\"\nruleset: cav-quickstart\nmodels:\n  - {{id: red, model: dictator-b, side: red, at: [10, 5]}}\n  \
             - {{id: blue, model: dictator-b, side: blue, at: [10, 16], facing: 180}}\ndice: [1, 2, 1, 2]\nsteps:\n  \
             - {{model: red, do: fire, target: blue, weapons: [0]}}\nexpect:\n  events:\n    \
             - {{event: roll, kind: combat, natural: [1, 2], success: {success}}}\n"
        )
    };
    std::fs::write(p.join("tests/a.yaml"), format!("{}---\n{}", test("passes", false), test("fails", true))).unwrap();
    std::fs::write(
        p.join("tests/b.yaml"),
        test("elsewhere", false).replace("ruleset: cav-quickstart", "ruleset: cav-full"),
    )
    .unwrap();
    p
}

#[test]
fn validate_list_show_and_hooks_reports_hold_to_their_schemas() {
    holds("validate", &json_of(&["validate", "--format", "json"], 0));
    let list = json_of(&["list", "weapon", "--ruleset", "full", "--format", "json"], 0);
    holds("list", &list);
    let entries = &list["rulesets"][0]["packs"][0]["entries"];
    assert!(entries.as_array().is_some_and(|e| e.iter().any(|w| w["id"] == "medium-mac")), "{entries}");
    holds("list", &json_of(&["list", "--format", "json"], 0));
    let show = json_of(&["show", "dictator-b", "--explain", "--format", "json"], 0);
    holds("show", &show);
    assert_eq!(show["document"]["id"], "dictator-b");
    assert!(show["provenance"]["/tv"].as_str().is_some_and(|p| p.contains("dictator")), "{}", show["provenance"]);
    let hooks = json_of(&["hooks", "--format", "json"], 0);
    holds("hooks", &hooks);
    assert_eq!(hooks["complete"], true);
}

#[test]
fn test_reports_hold_to_their_schemas_json_and_junit() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = failing_pack(tmp.path());
    let report = json_of(&["test", pack.to_str().unwrap(), "--format", "json"], 1);
    holds("test", &report);
    assert_eq!((report["passed"].as_u64(), report["failed"].as_u64()), (Some(1), Some(2)), "{report:#}");
    let junit = tmp.path().join("report.xml");
    let out = cav().args(["test", pack.to_str().unwrap(), "--junit", junit.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains(r#"<testsuites name="cav test" tests="3" failures="2">"#), "{xml}");
    assert!(xml.contains("passes &amp; &lt;friends&gt;") || xml.contains("fails &amp; &lt;friends&gt;"), "{xml}");
    let xsd = root().join("schemas/reports/junit.xsd");
    let lint = Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(&xsd)
        .arg(&junit)
        .output()
        .expect("xmllint runs (libxml2-utils: `apt-get install libxml2-utils`; .ci/run installs it)");
    assert!(lint.status.success(), "{}", String::from_utf8_lossy(&lint.stderr));
    // And the XML Schema is not vacuous: a report without its counts fails it.
    let bad = tmp.path().join("bad.xml");
    std::fs::write(&bad, xml.replacen(r#" tests="3""#, "", 1)).unwrap();
    let lint = Command::new("xmllint").arg("--noout").arg("--schema").arg(&xsd).arg(&bad).output().unwrap();
    assert!(!lint.status.success());
    // An unwritable report path fails at once, before any test runs.
    let out = cav().args(["test", pack.to_str().unwrap(), "--junit", "/nonexistent/dir/r.xml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
}

/// `cav bench --format json` holds to its schema, and plays the same games each run (its rates
/// are wall clock and vary; the turns played do not).
#[test]
fn the_bench_report_holds_and_plays_the_same_games() {
    let args = ["bench", "--games", "4", "--battles", "1", "--odds", "1", "--format", "json"];
    let a = json_of(&args, 0);
    holds("bench", &a);
    let b = json_of(&args, 0);
    for part in ["duel", "battle"] {
        assert!(a[part]["native_per_second"].as_f64().unwrap() > 0.0, "{a}");
        assert!(a[part]["turns"].as_u64().unwrap() > 0, "{a}");
        assert_eq!(a[part]["turns"], b[part]["turns"], "{part}: other games were played");
    }
    assert_eq!(a["odds"]["sequences"], 266, "the enumeration of the MAC shot changed: {a}");
    let out = cav().args(["bench", "--games", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
