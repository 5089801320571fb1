//! References between documents, declared once on the types: a field whose value is the id of a
//! document of another kind carries `#[schemars(extend("x-cav-ref" = "<kind>"))]` (a map whose
//! keys are such ids, `"x-cav-ref-keys"`). From that one declaration come
//!
//! - the loader's dangling-reference check ([`references`], used by `cav-content`'s checks), and
//! - the editor schemas ([`editor_schema`]): the kind schemas with every reference constrained to
//!   the ids of the loaded content, so the YAML language server completes ids and flags a dangling
//!   one as you type.
//!
//! The plain kind schemas (`schemas/<kind>.schema.json`) stay content-independent: the annotation
//! is an extension keyword validators ignore.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use crate::DocKind;

/// The schema keyword naming the kind of document a string value is the id of.
pub const REF: &str = "x-cav-ref";
/// The schema keyword naming the kind of document the keys of a map are ids of.
pub const KEY_REF: &str = "x-cav-ref-keys";

/// One step of the path to a reference inside a document.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Step {
    /// A named key of a mapping.
    Field(String),
    /// Every item of a sequence, or every value of a mapping.
    Each,
    /// The keys of a mapping are the references.
    Keys,
}

/// Where a kind's documents hold references: paths with the kind each names.
type Paths = Vec<(Vec<Step>, DocKind)>;

fn paths(kind: DocKind) -> &'static Paths {
    static ALL: OnceLock<BTreeMap<DocKind, Paths>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        DocKind::ALL
            .iter()
            .map(|&k| {
                let schema = crate::schema_for_kind(k);
                let mut out = Vec::new();
                collect(&schema, &schema, &mut Vec::new(), &mut Vec::new(), &mut out);
                out.sort();
                out.dedup();
                (k, out)
            })
            .collect()
    });
    &all[&kind]
}

/// The kind an annotation names; an annotation that names no kind is a bug the tests catch.
fn kind_of(v: Option<&Value>) -> Option<DocKind> {
    v.and_then(Value::as_str).and_then(DocKind::from_tag)
}

fn collect<'a>(root: &'a Value, s: &'a Value, path: &mut Vec<Step>, refs: &mut Vec<&'a str>, out: &mut Paths) {
    let Some(obj) = s.as_object() else { return };
    if let Some(k) = kind_of(obj.get(REF)) {
        // On a list (`Vec<Id>`) the annotation is about its items.
        if obj.get("items").is_some_and(Value::is_object) {
            path.push(Step::Each);
            out.push((path.clone(), k));
            path.pop();
        } else {
            out.push((path.clone(), k));
        }
    }
    if let Some(k) = kind_of(obj.get(KEY_REF)) {
        path.push(Step::Keys);
        out.push((path.clone(), k));
        path.pop();
    }
    if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
        // Recursive definitions are walked once per path.
        if !refs.contains(&r)
            && let Some(target) = r.strip_prefix("#/").map(|p| format!("/{p}")).and_then(|p| root.pointer(&p))
        {
            refs.push(r);
            collect(root, target, path, refs, out);
            refs.pop();
        }
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for branch in obj.get(key).and_then(Value::as_array).into_iter().flatten() {
            collect(root, branch, path, refs, out);
        }
    }
    for key in ["then", "else"] {
        if let Some(b) = obj.get(key) {
            collect(root, b, path, refs, out);
        }
    }
    for (name, sub) in obj.get("properties").and_then(Value::as_object).into_iter().flatten() {
        path.push(Step::Field(name.clone()));
        collect(root, sub, path, refs, out);
        path.pop();
    }
    let each = obj
        .get("patternProperties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .chain(obj.get("additionalProperties").filter(|a| a.is_object()))
        .chain(obj.get("items").filter(|a| a.is_object()));
    for sub in each {
        path.push(Step::Each);
        collect(root, sub, path, refs, out);
        path.pop();
    }
}

/// One reference a document makes: where (a JSON pointer), to which kind, and the id.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Reference<'a> {
    pub pointer: String,
    pub kind: DocKind,
    pub id: &'a str,
}

/// Every reference a document of `kind` makes (its schema-valid JSON value, `kind`/`extends`
/// included or not), in the order of the declared paths, each once.
pub fn references(kind: DocKind, value: &Value) -> Vec<Reference<'_>> {
    let mut out = Vec::new();
    for (path, to) in paths(kind) {
        follow(value, path, *to, &mut String::new(), &mut out);
    }
    out.sort();
    out.dedup();
    out
}

/// `key` as a JSON Pointer token (RFC 6901), added to `ptr`.
fn push_escaped(ptr: &mut String, key: &str) {
    if key.contains(['~', '/']) {
        ptr.push_str(&key.replace('~', "~0").replace('/', "~1"));
    } else {
        ptr.push_str(key);
    }
}

fn follow<'a>(v: &'a Value, path: &[Step], kind: DocKind, ptr: &mut String, out: &mut Vec<Reference<'a>>) {
    let Some((step, rest)) = path.split_first() else {
        if let Some(id) = v.as_str() {
            out.push(Reference { pointer: ptr.clone(), kind, id });
        }
        return;
    };
    let len = ptr.len();
    match step {
        Step::Field(name) => {
            if let Some(next) = v.get(name) {
                ptr.push('/');
                push_escaped(ptr, name);
                follow(next, rest, kind, ptr, out);
            }
        }
        Step::Each => match v {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let _ = write!(ptr, "/{i}");
                    follow(item, rest, kind, ptr, out);
                    ptr.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    ptr.push('/');
                    push_escaped(ptr, k);
                    follow(item, rest, kind, ptr, out);
                    ptr.truncate(len);
                }
            }
            _ => {}
        },
        Step::Keys => {
            if let Value::Object(map) = v {
                for k in map.keys() {
                    let mut pointer = ptr.clone();
                    pointer.push('/');
                    push_escaped(&mut pointer, k);
                    out.push(Reference { pointer, kind, id: k });
                }
            }
        }
    }
    ptr.truncate(len);
}

/// The ids an editor schema offers for each kind, with a line about each (name, pack).
pub type IdCatalog = BTreeMap<DocKind, Vec<(String, String)>>;

/// The editor schema of `kind`: its schema with every reference (`x-cav-ref`) turned into an
/// `enum` of the catalog's ids of that kind, with `enumDescriptions` saying what each is, and
/// every map keyed by references (`x-cav-ref-keys`) given one property per id. Each kind's list is
/// one definition (`cav-ids-<kind>`) the references point to. A kind with no ids in the catalog
/// is left as it is. A model type (`ModelType`) becomes one of `model_types`, the types the
/// content's rulesets declare, with a line about each. Everything else — required keys, types,
/// the vocabulary's words — is the plain schema's.
pub fn editor_schema(kind: DocKind, ids: &IdCatalog, model_types: &[(String, String)]) -> Value {
    let mut schema = crate::schema_for_kind(kind);
    let mut used = std::collections::BTreeSet::new();
    constrain(&mut schema, ids, &mut used);
    if let Some(ty) = schema.pointer_mut("/definitions/ModelType")
        && !model_types.is_empty()
    {
        ty["enum"] = model_types.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().into();
        ty["enumDescriptions"] = model_types.iter().map(|(_, d)| d.as_str()).collect::<Vec<_>>().into();
    }
    // `extends:` names a document of the same kind (the loader checks it where it resolves it,
    // in its own words, so it is not an `x-cav-ref`).
    if let Some(ext) = schema.pointer_mut("/properties/extends")
        && ids.get(&kind).is_some_and(|l| !l.is_empty())
    {
        *ext = ids_ref(kind, ext.get("description").cloned());
        used.insert(kind);
    }
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("$id".into(), format!("https://cav.dev/schemas/editor/{}.schema.json", kind.tag()).into());
        let defs = obj.entry("definitions").or_insert_with(|| json!({}));
        for k in used {
            let list = &ids[&k];
            defs[format!("cav-ids-{}", k.tag())] = json!({
                "type": "string",
                "enum": list.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>(),
                "enumDescriptions": list.iter().map(|(_, d)| d.as_str()).collect::<Vec<_>>(),
                // The YAML language server's message for a value out of the list (instead of
                // the whole list).
                "errorMessage": format!(
                    "not the id of a {} of the content the schema was made from: `cav list {}` lists them; \
                     rerun `cav schema` after adding one",
                    k.tag().replace('_', " "),
                    k.tag()
                ),
            });
        }
    }
    schema
}

/// A reference to the id list of `kind`, keeping the field's description.
fn ids_ref(kind: DocKind, description: Option<Value>) -> Value {
    let mut s = json!({"allOf": [{"$ref": format!("#/definitions/cav-ids-{}", kind.tag())}]});
    if let Some(d) = description {
        s["description"] = d;
    }
    s
}

fn constrain(s: &mut Value, ids: &IdCatalog, used: &mut std::collections::BTreeSet<DocKind>) {
    match s {
        Value::Object(obj) => {
            // On a list (`Vec<Id>`) the annotation is about its items.
            if obj.get("items").is_some_and(Value::is_object)
                && let Some(k) = obj.remove(REF)
                && let Some(items) = obj.get_mut("items").and_then(Value::as_object_mut)
            {
                items.insert(REF.into(), k);
            }
            if let Some(k) = kind_of(obj.get(REF)).filter(|k| ids.get(k).is_some_and(|l| !l.is_empty())) {
                used.insert(k);
                // An optional id (`Option<Id>`) may also be null, as in the plain schema.
                let nullable = obj
                    .get("anyOf")
                    .and_then(Value::as_array)
                    .is_some_and(|b| b.iter().any(|b| b.get("type") == Some(&"null".into())));
                let description = obj.get("description").cloned();
                *s = if nullable {
                    let mut any = json!({"anyOf": [ids_ref(k, None), {"type": "null"}]});
                    if let Some(d) = description {
                        any["description"] = d;
                    }
                    any
                } else {
                    ids_ref(k, description)
                };
                return;
            }
            if let Some(list) = kind_of(obj.get(KEY_REF)).and_then(|k| ids.get(&k)).filter(|l| !l.is_empty()) {
                key_properties(obj, list);
            }
            for v in obj.values_mut() {
                constrain(v, ids, used);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| constrain(v, ids, used)),
        _ => {}
    }
}

/// A map keyed by references: one property per id (so editors complete the keys), no others.
fn key_properties(obj: &mut Map<String, Value>, list: &[(String, String)]) {
    let value = obj
        .remove("patternProperties")
        .and_then(|p| p.as_object().and_then(|m| m.values().next().cloned()))
        .or_else(|| obj.get("additionalProperties").filter(|a| a.is_object()).cloned())
        .unwrap_or(json!({}));
    let mut props = Map::new();
    for (id, about) in list {
        let mut v = value.clone();
        match v.as_object_mut() {
            Some(o) if o.contains_key("$ref") => v = json!({"allOf": [v], "description": about}),
            Some(o) => {
                o.entry("description").or_insert_with(|| about.clone().into());
            }
            None => {}
        }
        props.insert(id.clone(), v);
    }
    obj.insert("properties".into(), Value::Object(props));
    obj.insert("additionalProperties".into(), false.into());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every annotation names a kind: one that did not would be silently unchecked.
    #[test]
    fn every_annotation_names_a_kind() {
        fn walk(v: &Value, bad: &mut Vec<String>) {
            match v {
                Value::Object(o) => {
                    for key in [REF, KEY_REF] {
                        if let Some(k) = o.get(key)
                            && kind_of(Some(k)).is_none()
                        {
                            bad.push(k.to_string());
                        }
                    }
                    o.values().for_each(|v| walk(v, bad));
                }
                Value::Array(a) => a.iter().for_each(|v| walk(v, bad)),
                _ => {}
            }
        }
        let mut bad = Vec::new();
        for &k in DocKind::ALL {
            walk(&crate::schema_for_kind(k), &mut bad);
        }
        assert!(bad.is_empty(), "annotations naming no document kind: {bad:?}");
    }

    #[test]
    fn model_references() {
        let model = json!({
            "id": "m", "move_class": "walker",
            "weapons": [{"weapon": "medium-mac", "special_attributes": ["blaster", {"sa": "piercing", "rating": 1}]}],
            "special_attributes": ["hard"]
        });
        let got: Vec<(String, DocKind, &str)> =
            references(DocKind::Model, &model).into_iter().map(|r| (r.pointer, r.kind, r.id)).collect();
        let want = [
            ("/move_class", DocKind::MoveClass, "walker"),
            ("/special_attributes/0", DocKind::SpecialAttribute, "hard"),
            ("/weapons/0/special_attributes/0", DocKind::SpecialAttribute, "blaster"),
            ("/weapons/0/special_attributes/1/sa", DocKind::SpecialAttribute, "piercing"),
            ("/weapons/0/weapon", DocKind::Weapon, "medium-mac"),
        ];
        for w in want {
            assert!(got.contains(&(w.0.to_owned(), w.1, w.2)), "{w:?} not in {got:?}");
        }
        assert_eq!(got.len(), want.len(), "{got:?}");
    }

    #[test]
    fn map_keys_and_table_roles() {
        let terrain = json!({"costs": {"walker": 1, "a/b": 2}});
        let got = references(DocKind::Terrain, &terrain);
        assert!(got.iter().any(|r| r.pointer == "/costs/walker" && r.kind == DocKind::MoveClass));
        assert!(got.iter().any(|r| r.pointer == "/costs/a~1b" && r.id == "a/b"));
        let ruleset = json!({"tables": {"range_bands": "bands", "combat_modifiers": "cm", "combat_damage": "cd"}});
        let got: Vec<(String, DocKind)> =
            references(DocKind::Ruleset, &ruleset).into_iter().map(|r| (r.pointer, r.kind)).collect();
        assert!(got.contains(&("/tables/range_bands".into(), DocKind::RangeBands)), "{got:?}");
        assert!(got.contains(&("/tables/combat_modifiers".into(), DocKind::ModifierTable)), "{got:?}");
        assert!(got.contains(&("/tables/combat_damage".into(), DocKind::Table)), "{got:?}");
    }

    /// Every reference the loader checked by hand before the declarations (checks.rs) is declared.
    #[test]
    fn the_checked_references_are_declared() {
        let cases = [
            (
                DocKind::Model,
                json!({"move_class": "a", "emplacement": "b", "special_attributes": ["c", {"sa": "d"}],
                       "weapons": [{"weapon": "e", "special_attributes": ["f"]}]}),
                vec![
                    "/move_class",
                    "/emplacement",
                    "/special_attributes/0",
                    "/special_attributes/1/sa",
                    "/weapons/0/weapon",
                    "/weapons/0/special_attributes/0",
                ],
            ),
            (
                DocKind::Weapon,
                json!({"special_attributes": ["a"], "template": {"gives": "b"}}),
                vec!["/special_attributes/0", "/template/gives"],
            ),
            (DocKind::SpecialAttribute, json!({"grants": ["a"]}), vec!["/grants/0"]),
            (
                DocKind::Upgrade,
                json!({"grants": ["a"], "profiles": [{"launcher": "b", "fires_as": "c", "special_attributes": ["d"]}]}),
                vec!["/grants/0", "/profiles/0/launcher", "/profiles/0/fires_as", "/profiles/0/special_attributes/0"],
            ),
            (DocKind::Asset, json!({"attack": {"special_attributes": ["a"]}}), vec!["/attack/special_attributes/0"]),
            (
                DocKind::Strike,
                json!({"attack": {"special_attributes": ["a"], "lays": "b", "leaves": {"terrain": "f"}},
                       "missile": {"model": "c", "launcher": "d"}, "called_by": [{"sa": "e"}]}),
                vec![
                    "/attack/special_attributes/0",
                    "/attack/lays",
                    "/attack/leaves/terrain",
                    "/missile/model",
                    "/missile/launcher",
                    "/called_by/0/sa",
                ],
            ),
            (DocKind::Table, json!({"rows": [{"effect": {"states": ["a"]}}]}), vec!["/rows/0/effect/states/0"]),
            (
                DocKind::Terrain,
                json!({"costs": {"a": 1}, "climb_cost": {"b": 1}, "waived_by": ["c"], "entered_with": [{"sa": "d"}]}),
                vec!["/costs/a", "/climb_cost/b", "/waived_by/0", "/entered_with/0/sa"],
            ),
            (DocKind::ActionType, json!({"free_with": ["a"]}), vec!["/free_with/0"]),
            (DocKind::ModelState, json!({"supersedes": ["a"]}), vec!["/supersedes/0"]),
            (DocKind::Scenario, json!({"forces": {"red": [{"model": "a"}]}}), vec!["/forces/red/0/model"]),
        ];
        for (kind, value, want) in cases {
            let got: Vec<String> = references(kind, &value).into_iter().map(|r| r.pointer).collect();
            for w in &want {
                assert!(got.iter().any(|g| g == w), "{}: {w} is not declared a reference (found {got:?})", kind.tag());
            }
        }
    }

    #[test]
    fn editor_schema_offers_the_ids() {
        let mut ids = IdCatalog::new();
        ids.insert(DocKind::Weapon, vec![("medium-mac".into(), "Medium MAC (cav-full)".into())]);
        ids.insert(DocKind::MoveClass, vec![("walker".into(), "Walker".into()), ("tracked".into(), "Tracked".into())]);
        let s = editor_schema(DocKind::Model, &ids, &[]);
        let text = s.to_string();
        assert_eq!(s["definitions"]["cav-ids-weapon"]["enum"], json!(["medium-mac"]));
        assert_eq!(s["properties"]["move_class"]["allOf"][0]["$ref"], "#/definitions/cav-ids-move_class");
        assert_eq!(s["definitions"]["cav-ids-move_class"]["enum"], json!(["walker", "tracked"]));
        assert_eq!(s["definitions"]["cav-ids-move_class"]["enumDescriptions"], json!(["Walker", "Tracked"]));
        // Kinds without ids keep the plain id schema.
        assert!(!text.contains(&format!(r#""{REF}":"weapon""#)));
        assert!(text.contains(&format!(r#""{REF}":"special_attribute""#)));
        let w = editor_schema(DocKind::Weapon, &ids, &[]);
        assert_eq!(w["properties"]["extends"]["allOf"][0]["$ref"], "#/definitions/cav-ids-weapon");
        let t = editor_schema(DocKind::Terrain, &ids, &[]);
        assert_eq!(t["properties"]["costs"]["additionalProperties"], json!(false));
        assert!(t["properties"]["costs"]["properties"]["walker"].is_object());
    }
}
