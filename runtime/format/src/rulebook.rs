//! The `rulebook` document: the sections of a rulebook, by line range of its source text, so
//! `cav coverage` can list each procedure with the scenario tests that cite its lines.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::common::{Id, Note};

/// A rulebook as a list of sections.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rulebook {
    pub id: Id,
    pub name: String,
    /// The source text's number, as `source:` citations name it (`001` in `001 L4617-4641`).
    pub book: String,
    pub sections: Vec<RuleSection>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
}

/// One section: its heading in our words and its first and last line in the source text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleSection {
    pub id: Id,
    pub title: String,
    /// First and last line, inclusive.
    pub lines: [u32; 2],
    /// The section it is part of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<Id>,
    /// Why the engine does not play it, where it does not (fiction, a table of contents, a rule
    /// not implemented yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_played: Option<String>,
}

/// The line ranges a `source:` citation names in `book`: `001 L4617-4641, L4650, 000 L12`
/// (a range without its own book number belongs to the book named before it).
pub fn cited_lines(source: &str, book: &str) -> Vec<(u32, u32)> {
    let mut current: Option<&str> = None;
    let mut out = Vec::new();
    for token in source.split([',', ';', ' ']).filter(|t| !t.is_empty()) {
        if token.len() == 3 && token.chars().all(|c| c.is_ascii_digit()) {
            current = Some(token);
            continue;
        }
        let Some(rest) = token.strip_prefix('L') else { continue };
        if current != Some(book) {
            continue;
        }
        let mut parts = rest.splitn(2, '-');
        let first = parts.next().and_then(|p| p.parse::<u32>().ok());
        let last = parts.next().and_then(|p| p.trim_end_matches(|c: char| !c.is_ascii_digit()).parse::<u32>().ok());
        if let Some(a) = first {
            out.push((a, last.unwrap_or(a).max(a)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn citations_name_their_book() {
        assert_eq!(super::cited_lines("001 L4617-4641, L4650, 000 L12", "001"), vec![(4617, 4641), (4650, 4650)]);
        assert_eq!(super::cited_lines("001 L4617-4641, L4650, 000 L12", "000"), vec![(12, 12)]);
        assert_eq!(super::cited_lines("001 L6591-6597 example", "001"), vec![(6591, 6597)]);
    }
}
