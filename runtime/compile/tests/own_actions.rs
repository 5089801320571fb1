//! A ruleset's own action types (`does:`): what only they may say, said of an engine word, and a
//! word of the engine taken as one's own, are errors where they are written.

mod common;

fn errors(doc: &str) -> Vec<(String, String)> {
    common::extension_diagnostics("own-actions", &[("rules/actions.yaml", doc)])
        .into_iter()
        .filter(|d| d.severity == cav_content::Severity::Error)
        .map(|d| (d.pointer.clone().unwrap_or_default(), d.message))
        .collect()
}

#[test]
fn an_own_action_type_is_checked_where_it_is_written() {
    let head = "kind: action_type\nname: Invented\ncategory: repeatable\ncost: 1\nsummary: Invented.\n";
    // A state that does not exist.
    let e = errors(&format!("{head}id: sprint\ndoes: move\nmove_times: 2\ngives: nowhere\n"));
    assert!(e.iter().any(|(p, m)| p == "/gives" && m.contains("nowhere")), "{e:#?}");
    // An engine word taken as the ruleset's own.
    let e = errors(&format!("{head}id: hold\ndoes: move\n"));
    assert!(e.iter().any(|(p, m)| p == "/id" && m.contains("takes a word of its own")), "{e:#?}");
    // What only an own action type says, said of an engine word: each field an error.
    let e = errors(&format!(
        "{head}id: hold\nmove_times: 2\navoids_cover: true\ngives: suppressed\nattack_rolls: [{{value: 1}}]\nrecovers: true\ncharges: true\nreturns_slain: true\n"
    ));
    for field in ["/move_times", "/avoids_cover", "/gives", "/attack_rolls", "/recovers", "/charges", "/returns_slain"]
    {
        assert!(e.iter().any(|(p, m)| p == field && m.contains("only of a ruleset's own")), "{field}: {e:#?}");
    }
    // A rally in a ruleset whose damage has no recovery test (CAV's).
    let e = errors(&format!("{head}id: rally\ndoes: hold\nrecovers: true\nnot_if_targeted: true\n"));
    assert!(e.iter().any(|(p, m)| p == "/recovers" && m.contains("recovery test")), "{e:#?}");
    // Only a move charges.
    let e = errors(&format!("{head}id: lunge\ndoes: hold\ncharges: true\n"));
    assert!(e.iter().any(|(p, m)| p == "/charges" && m.contains("only a move")), "{e:#?}");
    // A word that is neither the engine's nor declared as a kind of one.
    let e = errors(&format!("{head}id: sprint\n"));
    assert!(e.iter().any(|(p, _)| p == "/id"), "{e:#?}");
    // Well formed, nothing to say.
    let e = errors(&format!("{head}id: sprint\ndoes: move\nmove_times: 2\navoids_cover: true\ngives: suppressed\n"));
    assert!(e.is_empty(), "{e:#?}");
}

/// A condition a roll's `bounds:` names is checked as any condition: a state the ruleset lacks
/// is an error where it is written, not a bound that silently never holds.
#[test]
fn a_bounds_condition_naming_nothing_is_an_error() {
    let errors = common::edited_pack_errors("sythopian-wars", "rules/ruleset.yaml", |s| {
        s.replace("{condition: defender-ditching, max: 1}", "{condition: defender-ditchin, max: 1}")
    });
    assert_eq!(
        errors,
        vec![("/procedures/attack/hit/bounds/0/condition".to_owned(), "unknown-condition".to_owned())],
        "{errors:#?}"
    );
}

/// A charge in a ruleset without `procedures.charge` is an error at each action type that
/// charges, not a charge always refused in play.
#[test]
fn a_charge_needs_the_ruleset_s_charge() {
    let errors = common::edited_pack_errors("sythopian-wars", "rules/ruleset.yaml", |s| {
        assert!(s.contains("  charge: {inches: 0}"));
        s.replace("  charge: {inches: 0}", "  # no charge")
    });
    assert_eq!(errors, vec![("/charges".to_owned(), "action-type".to_owned()); 2], "{errors:#?}");
}

/// The acting model's one answer is met by many attackers: its roll may read only the answering
/// model's attributes.
#[test]
fn an_acting_answer_reads_only_the_answering_model() {
    let errors = common::edited_pack_errors("infinity-firefight", "rules/ruleset.yaml", |s| {
        let dodge = "{id: dodge, name: Dodge, target: [{of: target, attribute: ph}]";
        assert!(s.contains(dodge));
        s.replace(
            dodge,
            "{id: dodge, name: Dodge, target: [{of: target, attribute: ph}, {of: attacker, attribute: bs}]",
        )
    });
    assert_eq!(
        errors,
        vec![("/procedures/attack/opposed/answers/0/target/1/of".to_owned(), "attack".to_owned())],
        "{errors:#?}"
    );
}

/// A melee weapon in a ruleset without close combat is an error where it says `fire: melee`, not
/// a weapon that silently never strikes.
#[test]
fn a_melee_weapon_needs_the_ruleset_s_close_combat() {
    let errors = common::edited_pack_errors("sythopian-wars", "rules/ruleset.yaml", |s| {
        let (start, end) = (s.find("  melee:\n").unwrap(), s.find("    source: 002 L390-428\n").unwrap());
        format!("{}{}", &s[..start], &s[end + "    source: 002 L390-428\n".len()..])
    });
    assert!(errors.contains(&("/fire".to_owned(), "missing-field".to_owned())), "{errors:#?}");
    assert!(errors.iter().all(|(p, _)| p == "/fire" || p.contains("melee")), "{errors:#?}");
}
