//! A failing scenario test says where and why in its own words: the file:line of the expectation
//! that failed, the models by the test's names, and the nearest event that did occur with the
//! fields that differ.

use std::path::Path;

#[test]
fn a_failing_expectation_names_its_line_the_nearest_event_and_what_differs() {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&cav_tests::root().join(d), &tmp.path().join(d)).unwrap();
    }
    let file = tmp.path().join("content/cav-full/tests/sa-scripts.yaml");
    let text = std::fs::read_to_string(&file).unwrap();
    let from = "    - {event: state_ended, model: blue, state: Jammed}\n    - {event: turn_end, turn: 2}";
    let at = text.find(from).expect("the duration test");
    let line = text[..at].matches('\n').count() + 1;
    std::fs::write(&file, text.replacen(from, &from.replacen("model: blue", "model: red", 1), 1)).unwrap();
    let out = cav_tests::cav_in(tmp.path())
        .current_dir(tmp.path())
        .args(["test", "--filter", "full-state-durations-bounded-by-turns"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let shown = Path::new("content/cav-full/tests/sa-scripts.yaml").display().to_string();
    assert!(
        said.contains(&format!("{shown}:{line}: expect.events[5]: not found after expected event 4: {{event: state_ended, model: red, state: Jammed}}")),
        "{said}"
    );
    assert!(said.contains("    nearest: {event: state_ended, model: blue, state: Jammed}\n"), "{said}");
    assert!(said.contains("    differs: model is blue, the test expects red\n"), "{said}");
}
