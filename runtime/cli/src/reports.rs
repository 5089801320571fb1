//! The machine-readable outputs of `cav` (`--format json`, `--junit`): typed here so each has a
//! JSON Schema under schemas/reports/ (written by `cav schema`, checked fresh in CI) that tools
//! can code against, and that the end-to-end tests hold every output to.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `cav validate --format json`.
#[derive(Serialize, JsonSchema)]
pub struct ValidateReport {
    /// No errors (and no warnings, under `--deny warnings`).
    pub valid: bool,
    pub errors: usize,
    pub warnings: usize,
    /// The packs asked for.
    pub packs: Vec<PackRef>,
    /// Every problem, in file order; a long list ends with a `truncated` note.
    pub diagnostics: Vec<DiagnosticOut>,
}

#[derive(Serialize, JsonSchema)]
pub struct PackRef {
    pub id: String,
    pub version: String,
    /// Documents read for it (with the packs it builds on).
    pub documents: usize,
}

/// One problem, located.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct DiagnosticOut {
    /// `error`, `warning`, or `note` (the truncation note).
    pub severity: String,
    /// Stable class, e.g. `dangling-ref`, `unknown-field`, `not-implemented`.
    pub code: String,
    pub message: String,
    /// The file, as given or relative to the working directory.
    pub file: Option<String>,
    /// 1-based line and column of the start and end.
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub end_line: Option<u64>,
    pub end_column: Option<u64>,
    pub pack: Option<String>,
    /// JSON pointer of the value inside its document.
    pub pointer: Option<String>,
    pub expected: Option<String>,
    pub hint: Option<String>,
}

/// `cav list --format json`.
#[derive(Serialize, JsonSchema)]
pub struct ListReport {
    pub rulesets: Vec<ListRuleset>,
}

#[derive(Serialize, JsonSchema)]
pub struct ListRuleset {
    /// The ruleset pack's id.
    pub id: String,
    pub packs: Vec<ListPack>,
}

#[derive(Serialize, JsonSchema)]
pub struct ListPack {
    pub id: String,
    pub version: String,
    /// Documents of the pack in this ruleset, by kind.
    pub counts: BTreeMap<String, usize>,
    /// With a kind asked for: its documents from this pack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<ListEntry>,
}

#[derive(Serialize, JsonSchema)]
pub struct ListEntry {
    pub kind: String,
    pub id: String,
    pub name: String,
    /// The line of stats `cav list` prints (TV, MV/AV, range and RAV, …).
    pub stats: String,
}

/// `cav show --format json`.
#[derive(Serialize, JsonSchema)]
pub struct ShowReport {
    pub kind: String,
    pub id: String,
    pub name: String,
    /// The pack that defined it (patches by other packs are in `provenance`).
    pub pack: String,
    pub ruleset: String,
    /// The resolved document (inheritance and patches applied), as its kind's schema describes.
    pub document: serde_json::Value,
    /// With `--explain`: the `file:line:col` that set each value, by JSON pointer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<BTreeMap<String, String>>,
}

/// `cav test --format json`.
#[derive(Serialize, Deserialize, JsonSchema)]
pub struct TestReport {
    pub passed: usize,
    pub failed: usize,
    /// One per run: a test that names no ruleset runs once under each ruleset its pack joins.
    pub tests: Vec<TestOutcome>,
}

#[derive(Serialize, Deserialize, JsonSchema)]
pub struct TestOutcome {
    pub id: String,
    pub name: String,
    pub pack: String,
    /// The ruleset it ran under (or should have: see `failures`).
    pub ruleset: String,
    pub passed: bool,
    /// Why it failed, one line each.
    pub failures: Vec<String>,
    /// Where the rulebook states what the test checks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `cav hooks --format json`.
#[derive(Serialize, JsonSchema)]
pub struct HooksReport {
    /// Whose handlers run, in order.
    pub handler_order: String,
    pub hook_points: Vec<HookPointOut>,
    /// Every implemented hook point has a passing scenario test.
    pub complete: bool,
}

#[derive(Serialize, JsonSchema)]
pub struct HookPointOut {
    pub id: String,
    /// `implemented`, or what is missing.
    pub status: String,
    pub when: String,
    /// What `ctx` holds there.
    pub ctx: String,
    /// The other model's `as_target` handlers run too.
    pub as_target: bool,
    pub effects: Vec<String>,
    pub quantities: Vec<String>,
    /// Scenario tests where a handler ran and that pass.
    pub tests: Vec<String>,
    pub failing_tests: Vec<String>,
}

/// Every report schema `cav schema` writes under schemas/reports/: `(file name, schema)`.
pub fn schemas() -> Vec<(String, serde_json::Value)> {
    fn one<T: JsonSchema>(name: &str) -> (String, serde_json::Value) {
        let mut s = cav_format::schema_settings().into_generator().into_root_schema_for::<T>().to_value();
        if let Some(o) = s.as_object_mut() {
            o.insert("$id".into(), format!("https://cav.dev/schemas/reports/{name}.schema.json").into());
        }
        (format!("{name}.schema.json"), s)
    }
    vec![
        one::<ValidateReport>("validate"),
        one::<ListReport>("list"),
        one::<ShowReport>("show"),
        one::<TestReport>("test"),
        one::<HooksReport>("hooks"),
        one::<cav_lab::SimResult>("sim"),
        one::<cav_lab::VsResult>("sim-vs"),
        one::<crate::bench::BenchReport>("bench"),
    ]
}

/// The XML Schema the JUnit report of `cav test --junit` follows (the common subset CI systems
/// read: testsuites › testsuite › testcase › failure).
pub const JUNIT_XSD: &str = include_str!("junit.xsd");

/// `cav test --junit FILE`: one `testsuite` per ruleset, one `testcase` per run, its failures as
/// a `failure` element.
pub fn junit(report: &TestReport) -> String {
    use cav_format::xml::allowed_chars;
    use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};
    let mut w = quick_xml::Writer::new_with_indent(Vec::new(), b' ', 2);
    let mut suites: BTreeMap<&str, Vec<&TestOutcome>> = BTreeMap::new();
    for t in &report.tests {
        suites.entry(t.ruleset.as_str()).or_default().push(t);
    }
    let count = |ts: &[&TestOutcome]| (ts.len().to_string(), ts.iter().filter(|t| !t.passed).count().to_string());
    // Writing to a Vec cannot fail.
    let _ = w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)));
    let all: Vec<&TestOutcome> = report.tests.iter().collect();
    let (n, f) = count(&all);
    let _ = w.write_event(Event::Start(BytesStart::new("testsuites").with_attributes([
        ("name", "cav test"),
        ("tests", &*n),
        ("failures", &*f),
    ])));
    for (ruleset, ts) in &suites {
        let (n, f) = count(ts);
        let _ = w.write_event(Event::Start(BytesStart::new("testsuite").with_attributes([
            ("name", *ruleset),
            ("tests", &*n),
            ("failures", &*f),
        ])));
        for t in ts {
            // Texts from the packs may hold characters XML does not allow: quick-xml escapes
            // markup, `allowed_chars` the rest.
            let case = BytesStart::new("testcase").with_attributes([
                ("classname", &*allowed_chars(&format!("{}.{}", t.pack, t.ruleset))),
                ("name", &*allowed_chars(&t.id)),
            ]);
            if t.passed {
                let _ = w.write_event(Event::Empty(case));
                continue;
            }
            let _ = w.write_event(Event::Start(case));
            let first = allowed_chars(t.failures.first().map(String::as_str).unwrap_or("failed"));
            let _ = w.write_event(Event::Start(
                BytesStart::new("failure").with_attributes([("message", &*first), ("type", "assertion")]),
            ));
            let text = format!("{}\n{}", t.name, t.failures.join("\n"));
            let _ = w.write_event(Event::Text(BytesText::new(&allowed_chars(&text))));
            let _ = w.write_event(Event::End(BytesEnd::new("failure")));
            let _ = w.write_event(Event::End(BytesEnd::new("testcase")));
        }
        let _ = w.write_event(Event::End(BytesEnd::new("testsuite")));
    }
    let _ = w.write_event(Event::End(BytesEnd::new("testsuites")));
    let mut s = String::from_utf8(w.into_inner()).unwrap_or_default();
    s.push('\n');
    s
}
