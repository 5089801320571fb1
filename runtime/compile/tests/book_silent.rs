//! A `book_silent` note (what the rulebook names without rules to play it) must say where the
//! book stops: without a line cited it is an error at the note.

mod common;

fn sa(note: &str) -> String {
    format!(
        "kind: special_attribute\nid: star-drive\nname: Star Drive\napplies_to: model\nparameter: none\n\
         modifiers:\n  - {{target: move_value, value: 1}}\nsummary: An invented test attribute.\n\
         notes:\n  - kind: book_silent\n    text: {note}\n"
    )
}

#[test]
fn a_book_silent_note_cites_the_line_where_the_book_stops() {
    let uncited = common::extension_diagnostics(
        "stars",
        &[("special-attributes/star.yaml", &sa("Jumps between stars are not described."))],
    );
    let errors: Vec<_> = uncited.iter().filter(|d| d.code == "book-silent-uncited").collect();
    assert_eq!(errors.len(), 1, "{uncited:#?}");
    assert_eq!(errors[0].loc.map(|l| l.start.line), Some(11), "at the note's text: {:#?}", errors[0]);
    let cited = common::extension_diagnostics(
        "stars",
        &[("special-attributes/star.yaml", &sa("Jumps between stars (001 L7812) are not described."))],
    );
    assert!(cited.iter().all(|d| d.code != "book-silent-uncited"), "{cited:#?}");
}
