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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    parse_fast(text, file).unwrap_or_else(|| parse_tree(text, file))
}

/// The reference reading: limits, then a saphyr tree, then values. Slower than [`parse_fast`],
/// which defers to it for everything out of the ordinary.
fn parse_tree(text: &str, file: FileId) -> Result<Vec<YamlDoc>, Vec<Diagnostic>> {
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
    let mut limits = Limits::default();
    for ev in Parser::new_from_str(text) {
        let Ok((ev, span)) = ev else { return Ok(()) };
        limits.event(&ev, &span, file)?;
    }
    Ok(())
}

/// The state of the limits check across the events of one stream (see [`prescan`]).
#[derive(Default)]
struct Limits {
    stack: Vec<Open>,
    anchors: std::collections::HashMap<usize, Extent>,
    nodes: usize,
    bytes: usize,
}

impl Limits {
    /// Account for one event; `Err` at the node that crosses a limit.
    fn event(&mut self, ev: &Event<'_>, span: &Span, file: FileId) -> Result<(), Box<Diagnostic>> {
        let at = |span: &Span| {
            let p = Pos { line: span.start.line() as u32, col: span.start.col() as u32 + 1 };
            Some(Loc { file, start: p, end: p })
        };
        let Limits { stack, anchors, nodes, bytes } = self;
        // The node this event adds: its pointer length and how many nodes it stands for.
        let (extent, anchor, opens) = match ev {
            Event::Scalar(v, _, anchor, _) => {
                if let Some(top) = stack.last_mut()
                    && top.mapping
                    && top.at_key
                {
                    // A key: located under the pointer it opens.
                    top.child_seg = 1 + v.len();
                    top.at_key = false;
                    *bytes += top.ptr_len + top.child_seg;
                    return Ok(());
                }
                (Extent { nodes: 1, height: 0, bytes: 0 }, *anchor, None)
            }
            Event::Alias(id) => (anchors.get(id).copied().unwrap_or_default(), 0, None),
            Event::SequenceStart(anchor, _) => (Extent { nodes: 1, ..Extent::default() }, *anchor, Some(false)),
            Event::MappingStart(anchor, _) => (Extent { nodes: 1, ..Extent::default() }, *anchor, Some(true)),
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(o) = stack.pop() else { return Ok(()) };
                if let Some(parent) = stack.last_mut() {
                    parent.deepest = parent.deepest.max(o.deepest);
                }
                if o.anchor != 0 {
                    let n = *nodes - o.nodes0;
                    let rel = (*bytes - o.bytes0).saturating_sub(n * o.ptr_len);
                    anchors.insert(o.anchor, Extent { nodes: n, height: o.deepest - stack.len(), bytes: rel });
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        // Where it goes: its pointer length, and advance the parent.
        let ptr_len = match stack.last_mut() {
            Some(top) if top.mapping => {
                if top.at_key {
                    // A collection or alias as a key: the loader reports it; it has no pointer.
                    top.child_seg = 0;
                    top.at_key = false;
                    *nodes += extent.nodes;
                    if opens.is_none() {
                        return Ok(());
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
                    .at(at(span))
                    .expected(format!("at most {MAX_DEPTH} levels of nested sequences and mappings")),
            ));
        }
        *nodes += extent.nodes;
        *bytes += extent.bytes + extent.nodes * ptr_len;
        if *nodes > MAX_NODES {
            return Err(Box::new(
                Diagnostic::error("yaml-limit", format!("file has more than {MAX_NODES} YAML values"))
                    .at(at(span))
                    .expected(format!("at most {MAX_NODES} values in one file (split it into several files)")),
            ));
        }
        if *bytes > MAX_POINTER_BYTES {
            return Err(Box::new(
                Diagnostic::error(
                    "yaml-limit",
                    format!("keys and nesting too large to locate: over {MAX_POINTER_BYTES} bytes of paths"),
                )
                .at(at(span))
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
                nodes0: *nodes - 1,
                bytes0: *bytes - ptr_len,
                deepest: depth,
            }),
            None if anchor != 0 => {
                anchors.insert(anchor, Extent { nodes: 1, height: 0, bytes: 0 });
            }
            None => {}
        }
        Ok(())
    }
}

/// An open collection of the one-pass reader.
enum Building {
    Seq(Vec<Value>),
    /// The entries so far and the key whose value comes next.
    Map(Map<String, Value>, Option<String>),
}

struct Frame {
    node: Building,
    /// Length of the collection's own pointer.
    ptr_len: usize,
    start: Pos,
}

fn pos(m: &saphyr_parser::Marker) -> Pos {
    Pos { line: m.line() as u32, col: m.col() as u32 + 1 }
}

fn span_loc(file: FileId, start: Pos, end: Pos) -> Loc {
    Loc { file, start, end: if end < start { start } else { end } }
}

/// The common case in one pass over the parser's events: the limits checked as in [`prescan`]
/// and the values and provenance built directly, as [`parse_tree`] would build them. Gives up
/// (`None`) on anything [`parse_tree`] reports or treats specially — a syntax error, an alias, a
/// key that is not a plain scalar or repeats, a value that cannot be read — so that path keeps
/// producing those diagnostics. `Some(Err)` is a limit crossed, as [`prescan`] reports it.
fn parse_fast(text: &str, file: FileId) -> Option<Result<Vec<YamlDoc>, Vec<Diagnostic>>> {
    let mut limits = Limits::default();
    let mut docs = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut ptr = String::new();
    // Gathered in document order, then bulk-built into the maps (packed nodes, no rebalancing).
    let mut values: Vec<(String, Loc)> = Vec::new();
    let mut keys: Vec<(String, Loc)> = Vec::new();
    let mut root: Option<(Value, Loc)> = None;
    for ev in Parser::new_from_str(text) {
        let (ev, span) = ev.ok()?;
        if let Err(d) = limits.event(&ev, &span, file) {
            return Some(Err(vec![*d]));
        }
        // A finished node and its location, to attach to its parent.
        let (value, at) = match ev {
            Event::StreamStart | Event::StreamEnd | Event::DocumentStart(_) | Event::Nothing => continue,
            Event::DocumentEnd => {
                let (value, root) = root.take()?;
                if !stack.is_empty() {
                    return None;
                }
                docs.push(YamlDoc {
                    value: std::sync::Arc::new(value),
                    prov: std::sync::Arc::new(Provenance {
                        values: values.drain(..).collect(),
                        keys: keys.drain(..).collect(),
                    }),
                    root,
                });
                continue;
            }
            Event::Alias(_) => return None,
            Event::Scalar(v, style, _, tag) => {
                let s = Scalar::parse_from_cow_and_metadata(v, style, tag.as_ref())?;
                let at = span_loc(file, pos(&span.start), pos(&span.end));
                if let Some(Frame { node: Building::Map(map, key @ None), ptr_len, .. }) = stack.last_mut() {
                    let k = match s {
                        Scalar::String(s) => s.into_owned(),
                        Scalar::Integer(i) => i.to_string(),
                        Scalar::Boolean(b) => b.to_string(),
                        Scalar::FloatingPoint(f) => f.to_string(),
                        Scalar::Null => "null".into(),
                    };
                    if map.contains_key(&k) {
                        return None; // a repeated key: reported by the loader
                    }
                    ptr.truncate(*ptr_len);
                    ptr.push('/');
                    push_escaped(&mut ptr, &k);
                    keys.push((ptr.clone(), at));
                    *key = Some(k);
                    continue;
                }
                push_child_segment(&stack, &mut ptr);
                let value = match s {
                    Scalar::FloatingPoint(f) => Value::Number(Number::from_f64(f.into_inner())?),
                    Scalar::String(s) => Value::String(s.into_owned()),
                    s => scalar(&s, || at, "", &mut Vec::new()),
                };
                values.push((ptr.clone(), at));
                (value, at)
            }
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                if let Some(Frame { node: Building::Map(_, None), .. }) = stack.last() {
                    return None; // a collection as a key
                }
                push_child_segment(&stack, &mut ptr);
                let node = if matches!(ev, Event::SequenceStart(..)) {
                    Building::Seq(Vec::new())
                } else {
                    Building::Map(Map::new(), None)
                };
                stack.push(Frame { node, ptr_len: ptr.len(), start: pos(&span.start) });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let frame = stack.pop()?;
                ptr.truncate(frame.ptr_len);
                let value = match frame.node {
                    Building::Seq(items) => Value::Array(items),
                    Building::Map(map, None) => Value::Object(map),
                    Building::Map(_, Some(_)) => return None,
                };
                let at = span_loc(file, frame.start, pos(&span.start));
                values.push((ptr.clone(), at));
                (value, at)
            }
        };
        match stack.last_mut() {
            None => {
                if root.is_some() {
                    return None;
                }
                root = Some((value, at));
            }
            Some(Frame { node: Building::Seq(items), ptr_len, .. }) => {
                items.push(value);
                ptr.truncate(*ptr_len);
            }
            Some(Frame { node: Building::Map(map, key), ptr_len, .. }) => {
                map.insert(key.take()?, value);
                ptr.truncate(*ptr_len);
            }
        }
    }
    if root.is_some() || !stack.is_empty() {
        return None;
    }
    Some(Ok(docs))
}

/// Extend the pointer with the segment of the next child of the innermost collection (a
/// mapping's key segment is already there).
fn push_child_segment(stack: &[Frame], ptr: &mut String) {
    if let Some(Frame { node: Building::Seq(items), .. }) = stack.last() {
        use std::fmt::Write;
        let _ = write!(ptr, "/{}", items.len());
    }
}

/// [`escape`] onto the end of `ptr`.
fn push_escaped(ptr: &mut String, seg: &str) {
    for c in seg.chars() {
        match c {
            '~' => ptr.push_str("~0"),
            '/' => ptr.push_str("~1"),
            c => ptr.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass reading must give exactly what the tree reading gives, or defer to it.
    fn same(text: &str) -> bool {
        let file = FileId(0);
        let show = |r: &Result<Vec<YamlDoc>, Vec<Diagnostic>>| match r {
            Ok(docs) => {
                docs.iter().map(|d| format!("{:?}|{:?}|{:?}", d.value, d.prov, d.root)).collect::<Vec<_>>().join("\n")
            }
            Err(e) => format!("{e:?}"),
        };
        let fast = parse_fast(text, file);
        if let Some(fast) = &fast {
            assert_eq!(show(fast), show(&parse_tree(text, file)), "for {text:?}");
        }
        fast.is_some()
    }

    #[test]
    fn one_pass_matches_tree_on_snippets() {
        for t in [
            "",
            "a",
            "---\n",
            "---\n---\n",
            "a: 1\nb: [1, 2.5, -3, 0x1f, 0o7, +4, ~, null, true, False, .inf, .nan, '', \"x\"]\n",
            "a:\n  - {x: 1, y: [ ]}\n  - - [1]\n    - {}\n---\nz: !!str 12\n",
            "? a\n: b\n",
            "1: a\n\"1\": b\n",
            "a: 1\na: 2\n",
            "!!int x: 1\n",
            "a: !!int x\n",
            "a: !custom {b: 1}\n",
            "a/b~c: {d/e: 1}\n",
            "x: &a [1, 2]\ny: *a\n",
            "[a]: 1\n",
            "a: [1,\n",
            "a: 'unterminated\n",
            "- &x a\n- *x\n",
            "key with spaces: value with: colon\n",
            "multi: |\n  line one\n  line two\n\nfolded: >\n  a\n  b\n",
            "a: 1e3\nb: 1.0\nc: -0.0\nd: 12345678901234567890\n",
            "- - - - - deep\n",
            "a:\nb:\n",
            "%YAML 1.2\n---\na: 1\n...\n---\nb: 2\n",
            "\u{feff}a: 1\n",
            "a: é\nü: ß\n",
            "a:\t1\n",
            "{a: 1, b: {c: [x, {d: e}]}}",
            "!!map {a: 1}",
            "!!seq [1]",
            "!!null ~",
            "!!float 1",
            "!!bool yes",
        ] {
            let fast = same(t);
            // Repeated keys, aliases, collection keys, unreadable values and syntax errors are
            // left to the tree reading; everything else is read in one pass.
            let odd = [
                "a: 1\na: 2",
                "1: a\n\"1\"",
                "!!int x",
                "*a",
                "*x",
                "[a]:",
                "[1,\n",
                "'unterminated",
                ".nan",
                ".inf",
                "with: colon",
                "a:\t1",
                "!!bool yes",
            ];
            assert_eq!(fast, !odd.iter().any(|o| t.contains(o)), "for {t:?}");
        }
    }

    #[test]
    fn one_pass_matches_tree_on_bundled_content() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut n = 0;
        for dir in ["content", "mods"] {
            for e in walkdir::WalkDir::new(root.join(dir)).into_iter().filter_map(Result::ok) {
                let p = e.path();
                if matches!(p.extension().and_then(|x| x.to_str()), Some("yaml" | "yml"))
                    && let Ok(text) = std::fs::read_to_string(p)
                {
                    assert!(same(&text), "{} took the slow path", p.display());
                    n += 1;
                }
            }
        }
        assert!(n > 10, "found {n} files");
    }
}
