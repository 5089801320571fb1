//! The replay viewer (`cav replay LOG --html FILE`): one self-contained HTML file — the event
//! log embedded as JSON, a small script, no network and no build step — that steps through a
//! game event by event: the board as it stands (terrain, models with facing and damage, the
//! attack being made), the current roll with its dice, modifiers and their sources, each
//! model's damage, and a timeline to jump around (slider, buttons, arrow keys, the event list;
//! `#N` in the address opens event N). It reads the same JSONL every other tool reads.
//!
//! A log is untrusted (a stranger's game): its text can never become markup. The embedded JSON
//! holds no `<`; the script (`viewer.js`) builds every element as DOM nodes, so a log's strings
//! and numbers are only text nodes and attribute values; and the page's Content-Security-Policy
//! lets only its own script and stylesheet run (by their SHA-256), no other source of anything.

use sha2::{Digest, Sha256};

use cav_format::xml::escape as esc;

const SCRIPT: &str = include_str!("viewer.js");
const STYLE: &str = include_str!("viewer.css");

/// The page for `events` (the log's records in order; a header record, if any, is skipped by
/// the script as it has no `event` key); `tracks[i]`: model i's damage tracks, for its bar.
pub fn html(title: &str, events: &[serde_json::Value], tracks: &[u32]) -> String {
    let data = serde_json::json!({ "events": events, "tracks": tracks }).to_string();
    // Inside a script element, `</script` ends it and `<!--` starts a comment state that can
    // swallow the rest of the page: no `<` is left in the JSON (it only occurs in strings, where
    // `\u003c` is the same character).
    let data = data.replace('<', "\\u003c");
    let csp = format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; base-uri 'none'; form-action 'none'",
        sha256(SCRIPT),
        sha256(STYLE)
    );
    let title = esc(title);
    // One pass over the template: text put in is never searched for placeholders again.
    let mut page = String::with_capacity(PAGE.len() + data.len() + SCRIPT.len() + STYLE.len());
    let mut rest = PAGE;
    while let Some(at) = rest.find("{{") {
        let end = rest[at..].find("}}").map_or(rest.len(), |e| at + e + 2);
        page.push_str(&rest[..at]);
        page.push_str(match &rest[at..end] {
            "{{CSP}}" => &csp,
            "{{STYLE}}" => STYLE,
            "{{SCRIPT}}" => SCRIPT,
            "{{TITLE}}" => &title,
            "{{EVENTS}}" => &data,
            other => other,
        });
        rest = &rest[end..];
    }
    page.push_str(rest);
    page
}

/// A CSP source for exactly this text: `sha256-` and its digest in base64.
fn sha256(text: &str) -> String {
    format!("sha256-{}", data_encoding::BASE64.encode(&Sha256::digest(text.as_bytes())))
}

const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{CSP}}">
<title>{{TITLE}}</title>
<style>{{STYLE}}</style>
</head>
<body>
<h1>{{TITLE}}</h1>
<div id="controls">
  <button id="first">|◀</button><button id="prev">◀</button>
  <input id="timeline" type="range" min="0" value="0">
  <button id="next">▶</button><button id="last">▶|</button>
  <span>event <span id="event-index">0</span> / <span id="event-count">0</span></span>
</div>
<div id="main">
  <svg id="board" width="600" height="600" viewBox="0 0 600 600"></svg>
  <div id="side">
    <div class="panel"><h2>Event</h2><div id="event-text"></div></div>
    <div class="panel" id="roll"><h2>Roll</h2><div id="roll-body">no roll yet</div></div>
    <div class="panel"><h2>Damage</h2><div id="damage"></div></div>
    <div class="panel"><h2>Timeline</h2><div id="events"></div></div>
  </div>
</div>
<script id="log" type="application/json">{{EVENTS}}</script>
<script>{{SCRIPT}}</script>
</body>
</html>
"##;

#[cfg(test)]
mod tests {
    /// A log's text cannot end the page's script or open a comment in it: the embedded JSON holds
    /// no `<`, and the page has exactly its own two script elements.
    #[test]
    fn log_text_never_becomes_markup() {
        let event = serde_json::json!({"event": "deployed", "name": "<!--<script>alert(1)</script>", "at": [1, 2]});
        let page = super::html("</title><script>", &[event], &[3]);
        assert_eq!(page.matches("<script").count(), 2, "only the page's own: the log data and the code");
        assert!(!page.contains("<!--"), "no comment opened by the log");
        assert!(page.contains("\\u003c!--\\u003cscript>alert(1)\\u003c/script>"), "the name is kept, escaped");
    }
}
