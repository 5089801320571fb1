//! The walk of a kind's JSON Schema that lists its fields: every field by path with its type,
//! whether it is required, default, allowed values, description, example and rulebook lines, and
//! the named types the fields use.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::sources::{Sections, citations};
use super::text::{code, flow, num, scalar, truncate};

/// An enum with at most this many values lists them in the field's row; a longer one is listed
/// under its type only.
const INLINE_VALUES: usize = 10;

/// A step from a document's root to a field, to look its example up.
#[derive(Clone)]
enum Seg {
    Key(String),
    Items,
    AnyKey,
    /// Only where the object's `key` is `value` (an `if`/`then` branch).
    When(String, Value),
}

/// The "Required" cell of a field a variant (`extends:`) takes from its parent.
pub(super) const UNLESS_VARIANT: &str = "yes, unless `extends:`";

pub(super) struct Row {
    pub(super) path: String,
    /// The `if` that selects the branch the field belongs to (`event: game_start`).
    pub(super) when: Option<String>,
    pub(super) ty: String,
    /// "yes", "no", or "yes, unless `extends:`" (a variant takes it from its parent).
    pub(super) required: &'static str,
    pub(super) default: Option<String>,
    pub(super) values: String,
    pub(super) description: String,
    pub(super) example: Option<String>,
    pub(super) cites: Vec<String>,
}

/// An enumeration's values with their meanings, and its definition's name if it has one.
type EnumGroup = (Option<String>, Vec<(String, String)>);

/// A named definition the page's fields use, listed under "Types".
pub(super) struct TypeEntry {
    pub(super) description: String,
    /// `(value, meaning)` for an enumeration.
    pub(super) values: Vec<(String, String)>,
    /// What it is otherwise (`number or SpecialDistance`, `object, fields at weapons[]`).
    pub(super) shape: String,
}

struct Walker<'a> {
    defs: Map<String, Value>,
    examples: &'a [&'a Value],
    books: &'a BTreeMap<String, Sections>,
    rows: Vec<Row>,
    types: BTreeMap<String, TypeEntry>,
    /// Definitions the page names.
    noted: BTreeSet<String>,
    /// Object definitions whose fields are listed already, with the path they are listed at.
    expanded: BTreeMap<String, String>,
}

/// A kind's fields, walked from its schema, and the named types they use.
pub(super) fn fields(
    schema: &Value,
    examples: &[&Value],
    books: &BTreeMap<String, Sections>,
) -> (Vec<Row>, BTreeMap<String, TypeEntry>) {
    let defs = schema.get("definitions").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut w = Walker {
        defs,
        examples,
        books,
        rows: Vec::new(),
        types: BTreeMap::new(),
        noted: BTreeSet::new(),
        expanded: BTreeMap::new(),
    };
    w.children(schema, &[], "", None);
    let listed: Vec<String> = w.expanded.keys().cloned().collect();
    for name in &listed {
        w.note_type(name);
    }
    // Entries name further types: until none is new.
    loop {
        let todo: Vec<String> = w.noted.iter().filter(|n| !w.types.contains_key(*n)).cloned().collect();
        if todo.is_empty() {
            break;
        }
        for n in todo {
            let e = w.type_entry(&n);
            w.types.insert(n, e);
        }
    }
    (w.rows, w.types)
}

/// The name of the definition a node points at (`$ref`, or schemars' one-item `allOf` wrapper
/// that carries a field's own description or default).
fn ref_name(node: &Value) -> Option<&str> {
    if let Some(r) = node.get("$ref").and_then(Value::as_str) {
        return r.strip_prefix("#/definitions/");
    }
    match node.get("allOf").and_then(Value::as_array).map(Vec::as_slice) {
        Some([one]) if one.get("if").is_none() => ref_name(one),
        _ => None,
    }
}

fn is_null(node: &Value) -> bool {
    node.get("type").and_then(Value::as_str) == Some("null")
}

/// The alternatives of an `anyOf`/`oneOf`, without the `null` of an optional field.
fn alternatives(node: &Value) -> Vec<&Value> {
    ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| node.get(*k).and_then(Value::as_array))
        .flatten()
        .filter(|a| !is_null(a))
        .collect()
}

/// The JSON types a node names, without `null`.
fn json_types(node: &Value) -> Vec<&str> {
    match node.get("type") {
        Some(Value::String(t)) if t != "null" => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter(|t| *t != "null").collect(),
        _ => Vec::new(),
    }
}

fn anchor(name: &str) -> String {
    name.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect::<String>().to_lowercase()
}

impl Walker<'_> {
    fn def(&self, name: &str) -> Value {
        self.defs.get(name).cloned().unwrap_or(Value::Null)
    }

    /// The node with definitions followed.
    fn target(&self, node: &Value) -> Value {
        let mut t = node.clone();
        for _ in 0..16 {
            match ref_name(&t) {
                Some(n) => t = self.def(n),
                None => break,
            }
        }
        t
    }

    /// The values of an enumeration (`enum`, `const`, `oneOf`/`anyOf` of those), with the meaning
    /// of each where the schema gives one; `None` if the node is not one.
    fn enum_values(&self, node: &Value) -> Option<Vec<(String, String)>> {
        let t = self.target(node);
        let meanings: Vec<&str> = t
            .get("enumDescriptions")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(vals) = t.get("enum").and_then(Value::as_array) {
            return Some(
                vals.iter()
                    .enumerate()
                    .map(|(i, v)| (scalar(v), meanings.get(i).map(|m| m.replace('\n', " ")).unwrap_or_default()))
                    .collect(),
            );
        }
        if let Some(c) = t.get("const") {
            let m = t.get("description").and_then(Value::as_str).unwrap_or_default().replace('\n', " ");
            return Some(vec![(scalar(c), m)]);
        }
        let alts = alternatives(&t);
        if alts.is_empty() {
            return None;
        }
        let mut out = Vec::new();
        for a in alts {
            out.extend(self.enum_values(a)?);
        }
        Some(out)
    }

    /// The field's type in words; definitions by name, linked to their entry under "Types".
    fn type_str(&mut self, node: &Value, depth: usize) -> String {
        // `depth`: how many named types this one is inside; only the outermost is spelled out.
        if depth > 4 {
            return "…".into();
        }
        if let Some(name) = ref_name(node) {
            let name = name.to_owned();
            if name == "Id" {
                return "id".into();
            }
            self.note_type(&name);
            let d = self.def(&name);
            let link = format!("[`{name}`](#{})", anchor(&name));
            return if self.is_object(&d) {
                format!("{link} object")
            } else if depth > 0 {
                link
            } else if self.enum_values(&d).is_some() {
                format!("{link} ({})", self.base_type(&d))
            } else {
                let inner = self.type_str(&d, depth + 1);
                format!("{link}: {inner}")
            };
        }
        if node.get("const").is_some() || node.get("enum").is_some() {
            return self.base_type(node);
        }
        let alts = alternatives(node);
        if let [one] = alts.as_slice() {
            return self.type_str(one, depth);
        }
        if !alts.is_empty() {
            if self.enum_values(node).is_some() {
                return self.base_type(node);
            }
            let mut parts: Vec<String> = Vec::new();
            for a in alts {
                let t = self.type_str(a, depth);
                if !parts.contains(&t) {
                    parts.push(t);
                }
            }
            return parts.join(" or ");
        }
        let types = json_types(node);
        if types.is_empty() {
            if node.get("properties").is_some() {
                return "object".into();
            }
            return "any value".into();
        }
        let mut parts = Vec::new();
        for t in types {
            let p = match t {
                "array" => {
                    let n = match (node.get("minItems"), node.get("maxItems")) {
                        (Some(a), Some(b)) if a == b => format!(" ({a} items)"),
                        _ => String::new(),
                    };
                    match node.get("items") {
                        Some(items) if items.is_object() => format!("list{n} of {}", self.type_str(items, depth)),
                        _ => format!("list{n}"),
                    }
                }
                "object" => match map_value(node) {
                    Some((key, v)) => format!("map of {key} → {}", self.type_str(v, depth)),
                    None => "object".into(),
                },
                "integer" | "number" => {
                    let mut s = t.to_owned();
                    let min = node.get("minimum").and_then(Value::as_f64);
                    let max = node.get("maximum").and_then(Value::as_f64);
                    match (min, max) {
                        (Some(a), Some(b)) => {
                            let _ = write!(s, " {}–{}", num(a), num(b));
                        }
                        (Some(a), None) if a != 0.0 => {
                            let _ = write!(s, " ≥ {}", num(a));
                        }
                        (None, Some(b)) => {
                            let _ = write!(s, " ≤ {}", num(b));
                        }
                        _ => {}
                    }
                    s
                }
                "string" => match node.get("pattern").and_then(Value::as_str) {
                    Some(p) if p == cav_format::ID_PATTERN => "id".into(),
                    Some(p) => format!("string matching `{p}`"),
                    None => "string".into(),
                },
                other => other.to_owned(),
            };
            parts.push(p);
        }
        parts.join(" or ")
    }

    /// `string`, `integer`… of an enumeration.
    fn base_type(&self, node: &Value) -> String {
        let t = self.target(node);
        let mut types: BTreeSet<String> = json_types(&t).into_iter().map(str::to_owned).collect();
        if types.is_empty() {
            for v in t.get("enum").and_then(Value::as_array).into_iter().flatten().chain(t.get("const")) {
                types.insert(json_type_of(v).to_owned());
            }
        }
        for a in alternatives(&t) {
            types.insert(self.base_type(a));
        }
        types.into_iter().collect::<Vec<_>>().join(" or ")
    }

    fn is_object(&self, node: &Value) -> bool {
        let t = self.target(node);
        t.get("properties").is_some() || json_types(&t) == ["object"] && map_value(&t).is_none()
    }

    /// Record a named definition for the "Types" section.
    fn note_type(&mut self, name: &str) {
        if name != "Id" {
            self.noted.insert(name.to_owned());
        }
    }

    /// The "Types" entry of a definition (once every field is listed, so objects can say where
    /// their fields are).
    fn type_entry(&mut self, name: &str) -> TypeEntry {
        let d = self.def(name);
        let description = d.get("description").and_then(Value::as_str).unwrap_or_default().to_owned();
        let values = self.enum_values(&d).unwrap_or_default();
        let shape = if !values.is_empty() {
            format!("One of {} {}.", values.len(), if values.len() == 1 { "value" } else { "values" })
        } else if self.is_object(&d) {
            match self.expanded.get(name) {
                Some(p) if p.is_empty() => "An object: the fields of the document above.".to_owned(),
                Some(p) => format!("An object; its fields are listed under {}.", code(p)),
                None => "An object.".to_owned(),
            }
        } else {
            format!("Type: {}.", self.type_str(&d, 1))
        };
        TypeEntry { description, values, shape }
    }

    /// The enumerations a field's values come from (itself, a list's items, the alternatives
    /// of a union), each with its definition's name if it has one.
    fn enum_groups(&self, node: &Value, out: &mut Vec<EnumGroup>) {
        if let Some(n) = ref_name(node) {
            let d = self.def(n);
            match self.enum_values(&d) {
                Some(v) => out.push((Some(n.to_owned()), v)),
                None => self.enum_groups(&d, out),
            }
            return;
        }
        if node.get("enum").is_some() || node.get("const").is_some() {
            out.push((None, self.enum_values(node).unwrap_or_default()));
            return;
        }
        if let Some(items) = node.get("items").filter(|i| i.is_object()) {
            self.enum_groups(items, out);
        }
        for a in alternatives(node) {
            self.enum_groups(a, out);
        }
    }

    /// The allowed values for a field's row: every value when they are few or have no type of
    /// their own, else a pointer to their type under "Types".
    fn values_cell(&mut self, node: &Value) -> String {
        let mut groups = Vec::new();
        self.enum_groups(node, &mut groups);
        let total: usize = groups.iter().map(|g| g.1.len()).sum();
        let list = |vals: &[(String, String)]| vals.iter().map(|(v, _)| code(v)).collect::<Vec<_>>().join(", ");
        let parts: Vec<String> = groups
            .iter()
            .map(|(name, vals)| match name {
                Some(n) if total > INLINE_VALUES => format!("{} values: see [`{n}`](#{})", vals.len(), anchor(n)),
                _ => list(vals),
            })
            .collect();
        parts.join("; ")
    }

    fn field(
        &mut self,
        name: &str,
        node: &Value,
        required: &'static str,
        segs: &[Seg],
        parent: &str,
        when: Option<&str>,
    ) {
        let path = if parent.is_empty() { name.to_owned() } else { format!("{parent}.{name}") };
        let mut segs = segs.to_vec();
        segs.push(Seg::Key(name.to_owned()));
        let own = node.get("description").and_then(Value::as_str);
        // An id's format is said once, at the document's own `id`.
        let inherited = (ref_name(node) != Some("Id") || path == "id")
            .then(|| self.target(node).get("description").and_then(Value::as_str).map(str::to_owned))
            .flatten();
        let mut description = own.map(str::to_owned).or(inherited).unwrap_or_default().replace('\n', " ");
        let ty = self.type_str(node, 0);
        let values = self.values_cell(node);
        let default = node.get("default").map(flow);
        let example = self
            .examples
            .iter()
            .find_map(|d| lookup(d, &segs).filter(|v| !v.is_null()))
            .map(flow)
            .or_else(|| node.get("examples").and_then(|e| e.get(0)).map(flow))
            .or_else(|| default.clone())
            .map(|e| truncate(&e));
        let cites = citations(&description, self.books);
        // A definition listed at another path already: say where, rather than list it twice.
        if let Some(n) = self.object_def(node)
            && let Some(first) = self.expanded.get(&n)
            && *first != path
        {
            let at = if first.is_empty() { "the document's own fields".to_owned() } else { code(first) };
            let _ = write!(description, "{}Fields as under {at}.", if description.is_empty() { "" } else { " " });
        }
        self.rows.push(Row {
            path: path.clone(),
            when: when.map(str::to_owned),
            ty,
            required,
            default,
            values,
            description,
            example,
            cites,
        });
        self.children(node, &segs, &path, when);
    }

    /// The object definition a field holds (directly, as a list's items, in a map, or as an
    /// alternative), for the "listed already" check.
    fn object_def(&self, node: &Value) -> Option<String> {
        if let Some(n) = ref_name(node) {
            let d = self.def(n);
            return if self.is_object(&d) { Some(n.to_owned()) } else { self.object_def(&d) };
        }
        if let Some(items) = node.get("items").filter(|i| i.is_object()) {
            return self.object_def(items);
        }
        if let Some((_, v)) = map_value(node) {
            return self.object_def(v);
        }
        alternatives(node).into_iter().find_map(|a| self.object_def(a))
    }

    /// List the fields below a node: an object's properties, a list's items, a map's values,
    /// each alternative, each `if`/`then` branch.
    fn children(&mut self, node: &Value, segs: &[Seg], path: &str, when: Option<&str>) {
        if let Some(name) = ref_name(node) {
            let name = name.to_owned();
            let d = self.def(&name);
            if self.is_object(&d) || self.object_def(&d).is_some() {
                if self.expanded.contains_key(&name) {
                    return;
                }
                self.expanded.insert(name.clone(), path.to_owned());
            }
            self.children(&d, segs, path, when);
            return;
        }
        if let Some(props) = node.get("properties").and_then(Value::as_object) {
            fn names(r: Option<&Value>) -> BTreeSet<&str> {
                r.and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
            }
            let required = names(node.get("required"));
            // Required of a document without `extends:` only (`cav_format::not_a_variant`).
            let not_a_variant = cav_format::not_a_variant();
            let unless_variant = names(
                node.get("allOf")
                    .and_then(Value::as_array)
                    .and_then(|all| all.iter().find(|i| i.get("if") == Some(&not_a_variant)))
                    .and_then(|i| i.get("then"))
                    .and_then(|t| t.get("required")),
            );
            for (k, v) in props {
                let r = match (required.contains(k.as_str()), unless_variant.contains(k.as_str())) {
                    (true, _) => "yes",
                    (false, true) => UNLESS_VARIANT,
                    (false, false) => "no",
                };
                self.field(k, v, r, segs, path, when);
            }
            // Named fields and a schema for every other key (a damage track's per-column
            // attributes): one row for the other keys.
            if let Some(other) = node.get("additionalProperties").filter(|v| v.is_object()) {
                self.field("<id>", other, "no", segs, path, when);
            }
        }
        if let Some(items) = node.get("items") {
            let mut s = segs.to_vec();
            s.push(Seg::Items);
            let p = format!("{path}[]");
            match items {
                Value::Array(tuple) => {
                    for i in tuple {
                        self.children(i, &s, &p, when);
                    }
                }
                one => self.children(one, &s, &p, when),
            }
        }
        if let Some((key, v)) = map_value(node) {
            let mut s = segs.to_vec();
            s.push(Seg::AnyKey);
            let p = if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") };
            self.children(v, &s, &p, when);
        }
        for a in alternatives(node) {
            self.children(a, segs, path, when);
        }
        for item in node.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            match (item.get("if"), item.get("then")) {
                (Some(cond), Some(then)) => {
                    let branch = cond
                        .get("properties")
                        .and_then(Value::as_object)
                        .and_then(|p| p.iter().find_map(|(k, v)| v.get("const").map(|c| (k.clone(), c.clone()))));
                    let mut s = segs.to_vec();
                    let label = match branch {
                        Some((k, c)) => {
                            let l = format!("{k}: {}", scalar(&c));
                            s.push(Seg::When(k, c));
                            Some(l)
                        }
                        None => when.map(str::to_owned),
                    };
                    self.children(then, &s, path, label.as_deref());
                }
                _ => self.children(item, segs, path, when),
            }
        }
    }
}

/// A map's key placeholder and value schema (`patternProperties`, or `additionalProperties`
/// given as a schema).
fn map_value(node: &Value) -> Option<(&'static str, &Value)> {
    if let Some((pattern, v)) = node.get("patternProperties").and_then(Value::as_object).and_then(|m| m.iter().next()) {
        return Some((if pattern == cav_format::ID_PATTERN { "<id>" } else { "<key>" }, v));
    }
    match node.get("additionalProperties") {
        Some(v @ Value::Object(_)) => Some(("<key>", v)),
        _ => None,
    }
}

/// The first value a document holds at a path.
fn lookup<'v>(v: &'v Value, segs: &[Seg]) -> Option<&'v Value> {
    match segs.split_first() {
        None => Some(v),
        Some((Seg::Key(k), rest)) => v.as_object()?.get(k).and_then(|x| lookup(x, rest)),
        Some((Seg::Items, rest)) => v.as_array()?.iter().find_map(|x| lookup(x, rest)),
        Some((Seg::AnyKey, rest)) => v.as_object()?.values().find_map(|x| lookup(x, rest)),
        Some((Seg::When(k, c), rest)) => {
            if v.get(k) == Some(c) {
                lookup(v, rest)
            } else {
                None
            }
        }
    }
}

fn json_type_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
