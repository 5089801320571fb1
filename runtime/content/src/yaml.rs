//! YAML text → JSON values with the span of every node and every mapping key, keyed by JSON
//! pointer. saphyr keeps node positions, which no serde_yaml fork does; schema errors (which
//! speak in JSON pointers) are located through these maps.

use std::collections::BTreeMap;

use cav_format::limits::{MAX_DEPTH, MAX_NODES, MAX_POINTER_BYTES};
use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
use saphyr_parser::{Event, Parser, Span};
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
    if let Err(d) = prescan(text, file) {
        return Err(vec![*d]);
    }
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

/// Size of an anchored node, so an alias counts as what it expands to.
#[derive(Clone, Copy, Default)]
struct Extent {
    nodes: usize,
    /// Levels below the anchored node.
    height: usize,
    /// Sum of pointer lengths relative to the anchored node.
    bytes: usize,
}

/// An open collection during the pre-scan.
struct Open {
    mapping: bool,
    /// Next event of a mapping is a key.
    at_key: bool,
    /// Entries seen (sequence index).
    items: usize,
    /// Length of the pointer of this collection.
    ptr_len: usize,
    /// Length of the pointer segment of its next child.
    child_seg: usize,
    anchor: usize,
    /// Counters when it opened, and the deepest level reached inside it.
    nodes0: usize,
    bytes0: usize,
    deepest: usize,
}

/// Measure a YAML stream from the parser's events (an iterative state machine) before anything
/// recursive touches it: nesting depth, node count and the bytes of pointers its provenance
/// will hold, aliases counted as what they expand to. Beyond [`MAX_DEPTH`], [`MAX_NODES`] or
/// [`MAX_POINTER_BYTES`] the file is refused at the node that crossed the limit. Syntax errors
/// are left to the loader, which reports them.
fn prescan(text: &str, file: FileId) -> Result<(), Box<Diagnostic>> {
    let at = |span: &Span| {
        let p = Pos { line: span.start.line() as u32, col: span.start.col() as u32 + 1 };
        Some(Loc { file, start: p, end: p })
    };
    let mut stack: Vec<Open> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, Extent> = std::collections::HashMap::new();
    let (mut nodes, mut bytes) = (0usize, 0usize);
    for ev in Parser::new_from_str(text) {
        let Ok((ev, span)) = ev else { return Ok(()) };
        // The node this event adds: its pointer length and how many nodes it stands for.
        let (extent, anchor, opens) = match &ev {
            Event::Scalar(v, _, anchor, _) => {
                if let Some(top) = stack.last_mut()
                    && top.mapping
                    && top.at_key
                {
                    // A key: located under the pointer it opens.
                    top.child_seg = 1 + v.len();
                    top.at_key = false;
                    bytes += top.ptr_len + top.child_seg;
                    continue;
                }
                (Extent { nodes: 1, height: 0, bytes: 0 }, *anchor, None)
            }
            Event::Alias(id) => (anchors.get(id).copied().unwrap_or_default(), 0, None),
            Event::SequenceStart(anchor, _) => (Extent { nodes: 1, ..Extent::default() }, *anchor, Some(false)),
            Event::MappingStart(anchor, _) => (Extent { nodes: 1, ..Extent::default() }, *anchor, Some(true)),
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(o) = stack.pop() else { continue };
                if let Some(parent) = stack.last_mut() {
                    parent.deepest = parent.deepest.max(o.deepest);
                }
                if o.anchor != 0 {
                    let n = nodes - o.nodes0;
                    let rel = (bytes - o.bytes0).saturating_sub(n * o.ptr_len);
                    anchors.insert(o.anchor, Extent { nodes: n, height: o.deepest - stack.len(), bytes: rel });
                }
                continue;
            }
            _ => continue,
        };
        // Where it goes: its pointer length, and advance the parent.
        let ptr_len = match stack.last_mut() {
            Some(top) if top.mapping => {
                if top.at_key {
                    // A collection or alias as a key: the loader reports it; it has no pointer.
                    top.child_seg = 0;
                    top.at_key = false;
                    nodes += extent.nodes;
                    if opens.is_none() {
                        continue;
                    }
                    top.ptr_len
                } else {
                    top.at_key = true;
                    top.ptr_len + top.child_seg
                }
            }
            Some(top) => {
                top.items += 1;
                top.ptr_len + 1 + (top.items - 1).checked_ilog10().unwrap_or(0) as usize + 1
            }
            None => 0,
        };
        let depth = stack.len() + usize::from(opens.is_some()) + extent.height;
        if depth > MAX_DEPTH {
            return Err(Box::new(
                Diagnostic::error("yaml-limit", format!("YAML nests deeper than {MAX_DEPTH} levels"))
                    .at(at(&span))
                    .expected(format!("at most {MAX_DEPTH} levels of nested sequences and mappings")),
            ));
        }
        nodes += extent.nodes;
        bytes += extent.bytes + extent.nodes * ptr_len;
        if nodes > MAX_NODES {
            return Err(Box::new(
                Diagnostic::error("yaml-limit", format!("file has more than {MAX_NODES} YAML values"))
                    .at(at(&span))
                    .expected(format!("at most {MAX_NODES} values in one file (split it into several files)")),
            ));
        }
        if bytes > MAX_POINTER_BYTES {
            return Err(Box::new(
                Diagnostic::error(
                    "yaml-limit",
                    format!("keys and nesting too large to locate: over {MAX_POINTER_BYTES} bytes of paths"),
                )
                .at(at(&span))
                .expected("shorter keys or shallower nesting"),
            ));
        }
        if let Some(top) = stack.last_mut() {
            top.deepest = top.deepest.max(depth);
        }
        match opens {
            Some(mapping) => stack.push(Open {
                mapping,
                at_key: true,
                items: 0,
                ptr_len,
                child_seg: 0,
                anchor,
                nodes0: nodes - 1,
                bytes0: bytes - ptr_len,
                deepest: depth,
            }),
            None if anchor != 0 => {
                anchors.insert(anchor, Extent { nodes: 1, height: 0, bytes: 0 });
            }
            None => {}
        }
    }
    Ok(())
}
