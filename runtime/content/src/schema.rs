//! JSON Schema validation of documents, with errors turned into located diagnostics.

use std::collections::HashMap;
use std::sync::OnceLock;

use cav_format::DocKind;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::Value;

use crate::diag::{Diagnostic, did_you_mean};
use crate::yaml::{Provenance, YamlDoc, escape};

/// One compiled validator per document kind, plus the manifest's, each compiled when first
/// needed: compiling all of them is most of a small load, and a pack of models needs four.
/// Threads that check documents of the same kind wait for its one compile (`OnceLock`); other
/// kinds compile beside it.
pub struct Validators {
    kinds: HashMap<DocKind, OnceLock<(Value, Validator)>>,
    manifest: OnceLock<(Value, Validator)>,
    /// Unique in the process (never 0), so results checked by one set of validators are never
    /// taken for another's (an address could be reused once a set is dropped).
    id: u64,
}

impl Default for Validators {
    fn default() -> Self {
        Self::new()
    }
}

fn compile(schema: Value) -> (Value, Validator) {
    // Our own generated schemas always compile; a failure here is a bug in cav-format.
    let v = jsonschema::validator_for(&schema).expect("generated schema compiles");
    (schema, v)
}

impl Validators {
    pub fn new() -> Self {
        Validators {
            kinds: DocKind::ALL.iter().map(|&k| (k, OnceLock::new())).collect(),
            manifest: OnceLock::new(),
            id: {
                static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
                NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            },
        }
    }

    fn kind(&self, kind: DocKind) -> &(Value, Validator) {
        self.kinds[&kind].get_or_init(|| compile(cav_format::schema_for_kind(kind)))
    }

    /// This set's id (see the field).
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The validators of this process: the schemas are fixed at build time, so they are compiled
    /// once, not per load (compiling them is most of a small load).
    pub fn shared() -> &'static Validators {
        static SHARED: std::sync::OnceLock<Validators> = std::sync::OnceLock::new();
        SHARED.get_or_init(Validators::new)
    }

    pub fn check_manifest(&self, doc: &YamlDoc, pack: &str, diags: &mut Vec<Diagnostic>) {
        let (schema, v) = self.manifest.get_or_init(|| compile(cav_format::manifest_schema()));
        report(v, schema, &doc.value, &doc.prov, pack, diags);
    }

    /// Validate a document of `kind`; returns whether it is valid.
    pub fn check(
        &self,
        kind: DocKind,
        value: &Value,
        prov: &Provenance,
        pack: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> bool {
        let (schema, v) = self.kind(kind);
        if v.is_valid(value) {
            return true;
        }
        report(v, schema, value, prov, pack, diags);
        false
    }
}

fn report(v: &Validator, schema: &Value, value: &Value, prov: &Provenance, pack: &str, diags: &mut Vec<Diagnostic>) {
    for err in v.iter_errors(value) {
        collect(&err, schema, prov, pack, diags);
    }
}

/// `oneOf`/`anyOf` errors say only "not valid under any schema". When one branch got further into
/// the value (a deeper error pointer), report that branch's errors; when every branch failed at
/// the value itself, report one error listing what each branch accepts.
fn collect(e: &ValidationError<'_>, schema: &Value, prov: &Provenance, pack: &str, out: &mut Vec<Diagnostic>) {
    let (ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context }) = e.kind() else {
        out.push(to_diag(e, schema, prov, pack));
        return;
    };
    let depth = |e: &ValidationError<'_>| e.instance_path().as_str().matches('/').count();
    let base = depth(e);
    // An optional section (`anyOf: [section, null]`) given but wrong: what the section says is
    // wrong with it (a missing key, at its place), not "not an accepted value".
    let null_only = |b: &Vec<ValidationError<'_>>| {
        b.len() == 1
            && matches!(
                b[0].kind(),
                ValidationErrorKind::Type {
                    kind: jsonschema::error::TypeKind::Single(jsonschema::types::JsonType::Null)
                }
            )
    };
    if !e.instance().is_null()
        && context.iter().any(null_only)
        && let [section] = context.iter().filter(|b| !b.is_empty() && !null_only(b)).collect::<Vec<_>>()[..]
    {
        for sub in section.iter() {
            collect(sub, schema, prov, pack, out);
        }
        return;
    }
    let best = context
        .iter()
        .filter(|b| !b.is_empty())
        .max_by_key(|b| (b.iter().map(&depth).max().unwrap_or(0), usize::MAX - b.len()));
    if let Some(best) = best
        && best.iter().any(|x| depth(x) > base)
    {
        for sub in best.iter().filter(|x| depth(x) > base) {
            collect(sub, schema, prov, pack, out);
        }
        return;
    }
    let mut accepts: Vec<String> = Vec::new();
    accepted(context, &mut accepts);
    let mut words = Vec::new();
    enum_words(context, &mut words);
    let hint = e.instance().as_str().and_then(|got| did_you_mean(got, words.iter().map(String::as_str)));
    let ptr = e.instance_path().as_str().to_owned();
    out.push(
        Diagnostic::error("schema", format!("{} is not an accepted value here", e.instance()))
            .pack(pack)
            .at(prov.locate(&ptr))
            .pointer(ptr)
            .expected(if accepts.is_empty() { "a value of another form".to_owned() } else { accepts.join(", or ") })
            .hint(hint),
    );
}

/// Every word an `enum` among the failed branches allows (for a did-you-mean hint).
fn enum_words(context: &[Vec<ValidationError<'static>>], words: &mut Vec<String>) {
    for x in context.iter().flatten() {
        match x.kind() {
            ValidationErrorKind::Enum { options } => {
                words.extend(options.as_array().into_iter().flatten().filter_map(|v| v.as_str().map(str::to_owned)))
            }
            ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
                enum_words(context, words)
            }
            _ => {}
        }
    }
}

/// What the branches of a failed `oneOf`/`anyOf` would have accepted, in words.
fn accepted(context: &[Vec<ValidationError<'static>>], accepts: &mut Vec<String>) {
    for x in context.iter().flatten() {
        let what = match x.kind() {
            ValidationErrorKind::Type { kind } => type_words(kind),
            ValidationErrorKind::Enum { options } => format!(
                "one of: {}",
                options
                    .as_array()
                    .map(|a| a
                        .iter()
                        .map(|v| v.as_str().map_or(v.to_string(), str::to_owned))
                        .collect::<Vec<_>>()
                        .join(", "))
                    .unwrap_or_default()
            ),
            ValidationErrorKind::Constant { expected_value } => {
                expected_value.as_str().map_or(expected_value.to_string(), str::to_owned)
            }
            ValidationErrorKind::Pattern { pattern } => pattern_words(pattern),
            ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
                accepted(context, accepts);
                continue;
            }
            _ => continue,
        };
        if !accepts.contains(&what) {
            accepts.push(what);
        }
    }
}

fn type_words(kind: &jsonschema::error::TypeKind) -> String {
    match kind {
        jsonschema::error::TypeKind::Single(t) => format!("{t}"),
        jsonschema::error::TypeKind::Multiple(ts) => ts.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" or "),
    }
}

fn pattern_words(pattern: &str) -> String {
    if pattern == cav_format::ID_PATTERN {
        "an id: lower-case letters, digits and `-` (e.g. `medium-mac`)".to_owned()
    } else if pattern == cav_format::RAV_PATTERN {
        "a RAV like `5/2`, `4` or `NA/1`".to_owned()
    } else {
        format!("text matching {pattern}")
    }
}

/// The sub-schema at a schema path (to list allowed properties or enum values for hints).
fn schema_at<'a>(schema: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = schema;
    for seg in path.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        cur = match cur {
            Value::Object(m) => m.get(&seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
        // Follow local references so the path stays meaningful.
        if let Some(r) = cur.get("$ref").and_then(Value::as_str)
            && let Some(p) = r.strip_prefix('#')
        {
            cur = schema.pointer(p)?;
        }
    }
    Some(cur)
}

fn resolve_ref<'a>(root: &'a Value, s: &'a Value) -> &'a Value {
    match s.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
        Some(p) => root.pointer(p).unwrap_or(s),
        None => s,
    }
}

fn to_diag(e: &ValidationError<'_>, schema: &Value, prov: &Provenance, pack: &str) -> Diagnostic {
    let ptr = e.instance_path().as_str().to_owned();
    let schema_path = e.schema_path().as_str();
    let parent_path = schema_path.rsplit_once('/').map_or("", |(p, _)| p);
    let d = |code: &'static str, msg: String| Diagnostic::error(code, msg).pack(pack);
    match e.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let name = unexpected.first().cloned().unwrap_or_default();
            let key_ptr = format!("{ptr}/{}", escape(&name));
            let allowed: Vec<String> = schema_at(schema, parent_path)
                .map(|s| resolve_ref(schema, s))
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| p.keys().cloned().collect())
                .unwrap_or_default();
            let hint = did_you_mean(&name, allowed.iter().map(String::as_str));
            let expected = if allowed.is_empty() {
                "no further keys".to_owned()
            } else {
                format!("one of: {}", allowed.join(", "))
            };
            let msg = if unexpected.len() > 1 {
                format!("unknown keys {}", unexpected.iter().map(|u| format!("`{u}`")).collect::<Vec<_>>().join(", "))
            } else {
                format!("unknown key `{name}`")
            };
            d("unknown-field", msg).at(prov.locate_key(&key_ptr)).pointer(key_ptr).expected(expected).hint(hint)
        }
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default().to_owned();
            let what = schema_at(schema, parent_path)
                .map(|s| resolve_ref(schema, s))
                .and_then(|s| s.pointer(&format!("/properties/{}/description", escape(&name))))
                .and_then(Value::as_str)
                .map(|s| format!(" ({})", s.trim_end_matches('.')))
                .unwrap_or_default();
            let within = if ptr.is_empty() {
                "the document".to_owned()
            } else {
                format!("`{}`", ptr.trim_start_matches('/').replace('/', "."))
            };
            d("missing-field", format!("missing required key `{name}`"))
                .at(prov.locate(&ptr))
                .pointer(ptr)
                .expected(format!("a `{name}` key{what}"))
                .hint(Some(format!("add `{name}:` to {within}")))
        }
        ValidationErrorKind::Enum { options } => {
            let opts: Vec<String> = options
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            let got = e.instance().as_str().unwrap_or_default().to_owned();
            d("schema", format!("{} is not an allowed value", e.instance()))
                .at(prov.locate(&ptr))
                .pointer(ptr)
                .expected(format!("one of: {}", opts.join(", ")))
                .hint(did_you_mean(&got, opts.iter().map(String::as_str)))
        }
        ValidationErrorKind::Constant { expected_value } => {
            d("schema", format!("{} is not allowed here", e.instance()))
                .at(prov.locate(&ptr))
                .pointer(ptr)
                .expected(format!("{expected_value}"))
        }
        ValidationErrorKind::Type { kind } => {
            let expected = type_words(kind);
            d("wrong-type", format!("{} is {}, not {expected}", e.instance(), type_name(e.instance())))
                .at(prov.locate(&ptr))
                .pointer(ptr)
                .expected(expected)
        }
        ValidationErrorKind::Pattern { pattern } => {
            let expected = pattern_words(pattern);
            d("schema", format!("{} has the wrong form", e.instance()))
                .at(prov.locate(&ptr))
                .pointer(ptr)
                .expected(expected)
        }
        _ => d("schema", e.to_string())
            .at(prov.locate(&ptr))
            .pointer(ptr)
            .expected(format!("a value satisfying `{}`", e.kind().keyword())),
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "empty",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}
