//! YAML text → JSON values with the span of every node and every mapping key, keyed by JSON
//! pointer. saphyr keeps node positions, which no serde_yaml fork does; schema errors (which
//! speak in JSON pointers) are located through these maps.

use std::collections::BTreeMap;

use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use serde_json::{Map, Number, Value};

use crate::diag::{Diagnostic, FileId, Loc, Pos};

/// Where each value of a document came from: JSON pointer → location of the value, and of its key.
#[derive(Debug, Clone, Default)]
pub struct Provenance {
    pub values: BTreeMap<String, Loc>,
    pub keys: BTreeMap<String, Loc>,
}

impl Provenance {
    /// Location to report for a pointer: the value, else the nearest located ancestor.
    pub fn locate(&self, pointer: &str) -> Option<Loc> {
        let mut p = pointer;
        loop {
            if let Some(l) = self.values.get(p) {
                return Some(*l);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return None,
            }
        }
    }

    /// Location of the key of a mapping entry (falls back to the value).
    pub fn locate_key(&self, pointer: &str) -> Option<Loc> {
        self.keys.get(pointer).copied().or_else(|| self.locate(pointer))
    }
}

/// One YAML document of a file. Shared (`Arc`) so a cached parse and every ruleset built from it
/// hold the same value; a document is copied only when inheritance or a patch changes it.
#[derive(Debug, Clone)]
pub struct YamlDoc {
    pub value: std::sync::Arc<Value>,
    pub prov: std::sync::Arc<Provenance>,
    /// Location of the document's root node.
    pub root: Loc,
}

/// Parse a YAML stream (one or more `---` documents).
pub fn parse(text: &str, file: FileId) -> Result<Vec<YamlDoc>, Vec<Diagnostic>> {
    let docs = MarkedYaml::load_from_str(text).map_err(|e| {
        let m = e.marker();
        let pos = Pos { line: m.line() as u32, col: m.col() as u32 + 1 };
        let info = e.info();
        let (code, expected) = if info.contains("duplicate") || info.contains("Duplicate") {
            ("duplicate-key", "each key at most once in a mapping")
        } else {
            ("yaml-syntax", "valid YAML")
        };
        vec![
            Diagnostic::error(code, format!("YAML: {info}"))
                .at(Some(Loc { file, start: pos, end: pos }))
                .expected(expected),
        ]
    })?;
    let mut out = Vec::with_capacity(docs.len());
    let mut errors = Vec::new();
    for doc in &docs {
        let mut prov = Provenance::default();
        let mut ptr = String::new();
        let value = convert(doc, file, &mut ptr, &mut prov, &mut errors);
        out.push(YamlDoc { value: std::sync::Arc::new(value), root: loc(doc, file), prov: std::sync::Arc::new(prov) });
    }
    if errors.is_empty() { Ok(out) } else { Err(errors) }
}

fn loc(node: &MarkedYaml, file: FileId) -> Loc {
    let p = |m: &saphyr::Marker| Pos { line: m.line() as u32, col: m.col() as u32 + 1 };
    let (start, mut end) = (p(&node.span.start), p(&node.span.end));
    if end < start {
        end = start;
    }
    Loc { file, start, end }
}

/// Escape a mapping key as a JSON-pointer segment (RFC 6901).
pub fn escape(seg: &str) -> String {
    seg.replace('~', "~0").replace('/', "~1")
}

fn convert(
    node: &MarkedYaml,
    file: FileId,
    ptr: &mut String,
    prov: &mut Provenance,
    errors: &mut Vec<Diagnostic>,
) -> Value {
    prov.values.insert(ptr.clone(), loc(node, file));
    match &node.data {
        YamlData::Value(s) => scalar(s, || loc(node, file), ptr, errors),
        YamlData::Sequence(items) => {
            let mut v = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                let len = ptr.len();
                ptr.push('/');
                ptr.push_str(&i.to_string());
                v.push(convert(item, file, ptr, prov, errors));
                ptr.truncate(len);
            }
            Value::Array(v)
        }
        YamlData::Mapping(m) => {
            let mut map = Map::with_capacity(m.len());
            for (k, val) in m.iter() {
                let key = match &k.data {
                    YamlData::Value(Scalar::String(s)) => s.to_string(),
                    YamlData::Value(Scalar::Integer(i)) => i.to_string(),
                    YamlData::Value(Scalar::Boolean(b)) => b.to_string(),
                    YamlData::Value(Scalar::FloatingPoint(f)) => f.to_string(),
                    YamlData::Value(Scalar::Null) => "null".into(),
                    _ => {
                        errors.push(
                            Diagnostic::error("yaml-key", "mapping key is not a plain scalar")
                                .at(Some(loc(k, file)))
                                .pointer(ptr.clone())
                                .expected("a plain text key"),
                        );
                        continue;
                    }
                };
                let len = ptr.len();
                ptr.push('/');
                ptr.push_str(&escape(&key));
                prov.keys.insert(ptr.clone(), loc(k, file));
                let v = convert(val, file, ptr, prov, errors);
                ptr.truncate(len);
                map.insert(key, v);
            }
            Value::Object(map)
        }
        YamlData::Tagged(_, inner) => convert(inner, file, ptr, prov, errors),
        YamlData::Representation(text, ..) => Value::String(text.to_string()),
        YamlData::Alias(_) | YamlData::BadValue => {
            errors.push(
                Diagnostic::error("yaml-value", "value could not be read (bad tag or unresolved alias)")
                    .at(Some(loc(node, file)))
                    .pointer(ptr.clone())
                    .expected("a plain YAML value"),
            );
            Value::Null
        }
    }
}

fn scalar(s: &Scalar, at: impl Fn() -> Loc, ptr: &str, errors: &mut Vec<Diagnostic>) -> Value {
    match s {
        Scalar::Null => Value::Null,
        Scalar::Boolean(b) => Value::Bool(*b),
        Scalar::Integer(i) => Value::Number((*i).into()),
        Scalar::FloatingPoint(f) => match Number::from_f64(f.into_inner()) {
            Some(n) => Value::Number(n),
            None => {
                errors.push(
                    Diagnostic::error("yaml-value", "infinite or NaN numbers are not allowed")
                        .at(Some(at()))
                        .pointer(ptr)
                        .expected("a finite number"),
                );
                Value::Null
            }
        },
        Scalar::String(s) => Value::String(s.to_string()),
    }
}
