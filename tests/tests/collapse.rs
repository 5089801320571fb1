//! A structure that collapses into rubble changes what a line of sight across it crosses. The
//! engine remembers recent lines of sight, keyed by the board's version; a collapse must bump it,
//! or a line asked before the collapse is answered from memory after it. The bundled rubble gives
//! the same cover as a standing structure, so a mod that makes rubble open ground shows it.

use cav_tests::{cav_in, root};

const PACK: &str = "id: open-rubble\nname: Open rubble\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full\"]\n";

const DOCS: &str = r#"kind: patch
target: {kind: terrain, id: rubble}
summary: Rubble that is open ground, so a collapse changes what a line of sight crosses.
set:
  cover: none
  elevation: 0
---
kind: test
id: open-rubble-gives-no-cover
name: The patched rubble gives no cover (so the test below can see the collapse)
ruleset: cav-full
terrain:
  - {terrain: rubble, polygon: [[8, 10], [12, 10], [12, 12.5], [8, 12.5]]}
models:
  - {id: red, model: test-full-laser-cav, side: red, at: [10, 1.5]}
  - {id: spotter, model: test-full-assault-cav, side: blue, at: [10, 13.8], facing: 180}
steps:
  - {model: red, do: end}
expect:
  models:
    red: {against: [{model: spotter, line_of_sight: true, cover: none}]}
---
kind: test
id: a-collapse-changes-a-line-of-sight-asked-before
name: Light cover from the standing structure, asked before it collapses; none from its rubble after
ruleset: cav-full
terrain:
  - {terrain: structure-residential, polygon: [[8, 10], [12, 10], [12, 12.5], [8, 12.5]]}
models:
  - {id: red, model: test-full-laser-cav, side: red, at: [10, 0]}
  - {id: spotter, model: test-full-assault-cav, side: blue, at: [10, 13.8], facing: 180}
# As in cav-full's full-structure-collapses: four hits of 4 points bring down its 15.
dice: [5, 6, 5, 6, 5, 6, 5, 6]
steps:
  - model: red
    do: move
    to: [10, 1.5]
    check:
      red: {against: [{model: spotter, line_of_sight: true, cover: light}]}
  - {model: red, do: fire-at-structure, to: [10, 11], weapons: [0, 1, 3]}
expect:
  events:
    - {event: structure_collapsed, at: [10, 11.25]}
  models:
    red: {against: [{model: spotter, line_of_sight: true, cover: none}]}
"#;

#[test]
fn a_line_of_sight_asked_before_a_collapse_is_asked_afresh_after_it() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("open-rubble");
    std::fs::create_dir_all(pack.join("tests")).unwrap();
    std::fs::write(pack.join("pack.yaml"), PACK).unwrap();
    std::fs::write(pack.join("tests/collapse.yaml"), DOCS).unwrap();
    let out = cav_in(&root()).arg("test").arg(&pack).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.ends_with("2 passed, 0 failed\n"), "{text}");
}
