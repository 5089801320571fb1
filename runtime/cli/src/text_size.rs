//! How much room a text takes in the pictures (`cav map`, `cav card --svg`, `cav odds --svg`):
//! the width of a line of DejaVu Sans, regular and bold, and its height.

/// Width of `s` in `size`-px DejaVu Sans (the pictures' first font), from the font's advance
/// widths rounded up by class of character, so an estimate is never much short of what a browser
/// draws: labels are placed and pictures sized with it (the picture tests measure in Chromium).
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            ' ' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'i' | 'j' | 'l' | 'I' | 'J' | '·' => 0.36,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '{' | '}' | '-' | '/' | '\\' | '"' | '`' => 0.48,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '#' | '&' | '+' | '=' | '<' | '>' | '~' | '^' => 1.0,
            'A'..='Z' => 0.8,
            c if c.is_ascii() => 0.65,
            // Dashes, ×, arrows, other scripts: as wide as the widest Latin letters.
            _ => 1.0,
        })
        .sum();
    em * size
}

/// The same for bold text (DejaVu Sans Bold is about a tenth wider).
pub(crate) fn bold_width(s: &str, size: f64) -> f64 {
    text_width(s, size) * 1.12
}

/// Height of a line of `size`-px text: the font's ascent (0.93 em) and descent (0.24 em), as
/// browsers measure a text's box, and a little air.
pub(crate) fn line_h(size: f64) -> f64 {
    1.22 * size
}
