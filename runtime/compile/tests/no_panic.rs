//! Whatever numbers and words a ruleset holds, compiling it (and checking its scripts) reports
//! diagnostics and never panics: the bundled Quick-Start ruleset with random edits to its numbers,
//! dice and ids.

use std::path::Path;

use proptest::prelude::*;

fn compile_edited(edits: &[(usize, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    cav_watch::copy_tree(&repo.join("content"), &dir.path().join("content")).unwrap();
    let ruleset = dir.path().join("content/cav-quickstart/ruleset.yaml");
    let text = std::fs::read_to_string(&ruleset).unwrap();
    // Edit inside the rule blocks (dice, tables, procedures, model types), not the prose.
    let start = text.find("\ndice:").unwrap();
    let mut bytes = text.into_bytes();
    for (at, with) in edits {
        let i = start + at % (bytes.len() - start);
        let end = (i + with.len()).min(bytes.len());
        bytes.splice(i..end, with.bytes());
    }
    std::fs::write(&ruleset, bytes).unwrap();
    let mut loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![dir.path().join("content")],
        library: vec![dir.path().join("content")],
    });
    let rules = cav_compile::validate(&mut loaded);
    let _ = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
    // What compiled must also set up a game without panicking.
    for r in rules.into_iter().flatten() {
        if let Some(sc) = r.scenario("stand-and-fight") {
            let mut dice = cav_rules::SeededDice::new(1);
            let _ = cav_rules::setup::scenario_game(&r, sc, &mut dice, &mut cav_rules::NoLog, Some(1));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn edited_rulesets_compile_or_report(edits in prop::collection::vec(
        (0usize..6000, prop::sample::select(vec![
            "0", "-1", "99999999", "4294967296", "-0.5", "1e308", "nan", "1d0", "0d6", "3d6kh9",
            "1d4294967295", "2d6+2147483647", "x", "band-nowhere", "~", "[]", "{}", "knockdwn",
        ])),
        1..4,
    )) {
        compile_edited(&edits);
    }
}
