//! A name in an expected event that no document of the ruleset has could never occur in the log:
//! an `absent:` of it would pass without testing anything, so it is an error where it is written.

mod common;

const TEST: &str = "kind: test\nid: typo-absent\nname: n\nruleset: cav-full\n\
    models:\n  - {id: red, model: test-full-assault-cav, side: red, at: [10, 0]}\n  - {id: blue, model: test-full-assault-cav, side: blue, at: [10, 20], facing: 180}\n\
    dice: [6, 6]\nsteps:\n  - {model: red, do: fire, target: blue, weapons: [0]}\n    \
    \nexpect:\n  absent:\n    - {event: script_effect, source: Reinforcd}\n  \
    events:\n    - {event: attack, model: red, weapon: Medium MAK}\n    - {event: attack, model: red, weapon: Heavy Howitzer (AXLE)}\n";

#[test]
fn a_name_no_document_has_is_an_error_saying_the_absent_would_be_vacuous() {
    let diags = common::extension_diagnostics("typos", &[("tests/typo.yaml", TEST)]);
    let named: Vec<&cav_content::Diagnostic> = diags.iter().filter(|d| d.code == "unknown-name").collect();
    assert_eq!(named.len(), 2, "{diags:#?}");
    let absent = named.iter().find(|d| d.message.contains("`Reinforcd`")).unwrap();
    assert!(absent.message.contains("could never match, so it would pass without testing anything"), "{absent:?}");
    assert_eq!(absent.hint.as_deref(), Some("did you mean `Reinforced`?"));
    assert_eq!(absent.pointer.as_deref(), Some("/expect/absent/0/source"));
    let weapon = named.iter().find(|d| d.message.contains("`Medium MAK`")).unwrap();
    assert!(weapon.message.contains("could never be met"), "{weapon:?}");
    assert_eq!(weapon.hint.as_deref(), Some("did you mean `Medium MAC`?"));
    // A munition is logged as `Launcher (Munition)`: a name the ruleset can write.
    assert!(!named.iter().any(|d| d.message.contains("AXLE")), "{named:#?}");
}
