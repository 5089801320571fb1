//! The content as the reference quotes it: the documents as their authors wrote them (for
//! examples), and the sections of the loaded rulebooks (for the rulebook lines a field cites).

use std::collections::BTreeMap;
use std::path::Path;

use cav_content::{FileId, Loaded};
use cav_format::DocKind;
use serde_json::Value;

pub(super) struct Raw {
    /// Every document of every loaded file, content before test fixtures, then by path.
    pub(super) docs: Vec<Value>,
    /// Every `pack.yaml`, in the same order.
    pub(super) manifests: Vec<Value>,
}

/// The documents as their authors wrote them (before `extends:` and patches), so an example
/// shows what one types. Sorted by path below the root, files under a `tests/` folder last.
pub(super) fn raw_documents(loaded: &Loaded, root: &Path) -> Raw {
    let mut files: Vec<(bool, String, FileId)> = (0..loaded.sources.len())
        .map(|i| {
            let id = FileId(i as u32);
            let path = &loaded.sources.get(id).path;
            let rel = path.strip_prefix(root).unwrap_or(path);
            let fixture = rel.components().any(|c| c.as_os_str() == "tests");
            (fixture, rel.to_string_lossy().replace('\\', "/"), id)
        })
        .filter(|(_, p, _)| p.ends_with(".yaml") || p.ends_with(".yml"))
        .collect();
    files.sort();
    files.dedup_by(|a, b| a.1 == b.1);
    let mut raw = Raw { docs: Vec::new(), manifests: Vec::new() };
    for (_, path, id) in files {
        let Ok(docs) = cav_content::yaml::parse(&loaded.sources.get(id).text, id) else { continue };
        let manifest = path == "pack.yaml" || path.ends_with("/pack.yaml");
        for d in docs {
            let v = Value::clone(&d.value);
            if manifest { raw.manifests.push(v) } else { raw.docs.push(v) }
        }
    }
    raw
}

/// A rulebook's sections: `(first line, last line, title)`.
pub(super) type Sections = Vec<(u32, u32, String)>;

/// The sections of every `kind: rulebook` document loaded, by book number.
pub(super) fn rulebooks(loaded: &Loaded) -> BTreeMap<String, Sections> {
    let mut books: BTreeMap<String, Sections> = BTreeMap::new();
    for rs in &loaded.rulesets {
        for e in rs.of_kind(DocKind::Rulebook) {
            let Some(book) = e.value.get("book").and_then(Value::as_str) else { continue };
            let sections = books.entry(book.to_owned()).or_default();
            for s in e.value.get("sections").and_then(Value::as_array).into_iter().flatten() {
                let line = |i: usize| s.pointer(&format!("/lines/{i}")).and_then(Value::as_u64).map(|n| n as u32);
                let (Some(a), Some(b), Some(t)) = (line(0), line(1), s.get("title").and_then(Value::as_str)) else {
                    continue;
                };
                if !sections.iter().any(|x| x.0 == a && x.1 == b && x.2 == t) {
                    sections.push((a, b, t.to_owned()));
                }
            }
        }
    }
    books
}

/// The rulebook citations in a description (`001 L3670-3692`, `001 L10701-10761, L10800`), each
/// with the narrowest section of its book that holds its first line.
pub(super) fn citations(text: &str, books: &BTreeMap<String, Sections>) -> Vec<String> {
    let b = text.as_bytes();
    let digits = |i: usize, n: usize| i + n <= b.len() && b[i..i + n].iter().all(u8::is_ascii_digit);
    let mut out = Vec::new();
    let mut i = 0;
    while i + 6 <= b.len() {
        // A citation inside inline code is an example of the notation, not a citation.
        let in_code = b[..i].iter().filter(|&&c| c == b'`').count() % 2 == 1;
        let starts = !in_code
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
            && digits(i, 3)
            && b[i + 3] == b' '
            && b[i + 4] == b'L'
            && digits(i + 5, 1);
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + 5;
        loop {
            while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'-') {
                j += 1;
            }
            if b[j..].starts_with(b", L") && digits(j + 3, 1) {
                j += 3;
            } else {
                break;
            }
        }
        let cite = text[i..j].trim_end_matches('-');
        let book = &text[i..i + 3];
        let first = cav_format::rulebook::cited_lines(cite, book).first().copied();
        let section = first.and_then(|(a, _)| {
            books.get(book)?.iter().filter(|s| s.0 <= a && a <= s.1).min_by_key(|s| (s.1 - s.0, s.0, s.2.clone()))
        });
        out.push(match section {
            Some(s) => format!("{cite} ({})", s.2),
            None => cite.to_owned(),
        });
        i = j;
    }
    out
}
