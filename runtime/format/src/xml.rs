//! Text for the XML and HTML the tools write (SVG cards, maps and charts, the replay viewer, the
//! JUnit report) from data a pack or a log supplies: names, ids, messages. One home, so every
//! picture stays well-formed and free of markup whatever a stranger's pack calls things.

use std::borrow::Cow;

/// Whether XML 1.0 allows `c` in a document (its `Char` production): not the C0 controls but
/// tab, line feed and carriage return, and not U+FFFE or U+FFFF.
fn allowed(c: char) -> bool {
    !matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}')
}

/// `s` with every character XML does not allow replaced by U+FFFD (for writers that escape the
/// markup characters themselves, as quick-xml does).
pub fn allowed_chars(s: &str) -> Cow<'_, str> {
    if s.chars().all(allowed) {
        Cow::Borrowed(s)
    } else {
        Cow::Owned(s.chars().map(|c| if allowed(c) { c } else { '\u{FFFD}' }).collect())
    }
}

/// `s` for XML or HTML text and attribute values: `&`, `<`, `>`, `"` and `'` escaped, characters
/// XML does not allow replaced by U+FFFD.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if allowed(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_and_controls_replaced() {
        assert_eq!(escape("<a href=\"x\">&'</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
        assert_eq!(escape("a\u{1}b\u{1b}[31m\tc\nd\u{FFFF}"), "a\u{FFFD}b\u{FFFD}[31m\tc\nd\u{FFFD}");
        assert_eq!(allowed_chars("plain"), Cow::Borrowed("plain"));
        assert_eq!(allowed_chars("nul\u{0}"), "nul\u{FFFD}");
    }
}
