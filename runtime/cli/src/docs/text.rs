//! How values and prose are written into the pages: values as one line of flow-style YAML,
//! examples cut short, inline code, table cells, first sentences.

use serde_json::Value;

/// Longest example shown in a table cell, in characters (longer ones end with ` …`).
const EXAMPLE_CHARS: usize = 80;

pub(super) fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 { format!("{}", x as i64) } else { format!("{x}") }
}

/// An enum value as written in YAML.
pub(super) fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => flow(other),
    }
}

/// A value as one line of flow-style YAML.
pub(super) fn flow(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) if plain(s) => s.clone(),
        Value::String(s) => serde_json::to_string(s).unwrap_or_default(),
        Value::Array(a) => format!("[{}]", a.iter().map(flow).collect::<Vec<_>>().join(", ")),
        Value::Object(o) => {
            format!("{{{}}}", o.iter().map(|(k, v)| format!("{}: {}", key(k), flow(v))).collect::<Vec<_>>().join(", "))
        }
    }
}

fn key(k: &str) -> String {
    if plain(k) { k.to_owned() } else { serde_json::to_string(k).unwrap_or_default() }
}

/// Whether a string reads back as itself unquoted in flow YAML.
fn plain(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    let reserved = ["true", "false", "null", "yes", "no", "on", "off", "y", "n", "~"];
    (first.is_alphabetic() || first == '_')
        && !s.ends_with(' ')
        && s.chars().all(|c| c.is_alphanumeric() || " _-./()+'".contains(c))
        && !reserved.contains(&s.to_lowercase().as_str())
}

pub(super) fn truncate(s: &str) -> String {
    if s.chars().count() <= EXAMPLE_CHARS {
        return s.to_owned();
    }
    let cut: String = s.chars().take(EXAMPLE_CHARS - 2).collect();
    format!("{} …", cut.trim_end())
}

/// Inline code that may itself hold backticks.
pub(super) fn code(s: &str) -> String {
    if s.contains('`') { format!("`` {s} ``") } else { format!("`{s}`") }
}

/// Text fit for a table cell.
pub(super) fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|")
}

pub(super) fn first_sentence(d: Option<&str>) -> String {
    let d = d.unwrap_or_default().replace('\n', " ");
    match d.find(". ") {
        Some(i) => d[..=i].to_owned(),
        None => d,
    }
}
