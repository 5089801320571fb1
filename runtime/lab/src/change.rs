//! What `cav sim --vs CHANGE` changes for its B run, made at the content level: every change but
//! `mod:` becomes `kind: patch` documents of a generated extension pack ([`write_pack`]) that is
//! loaded alongside the ruleset's own packs, so B goes through the real loader (patches, schema
//! validation, checks) and the real compiler, and B's content hash is that of the patched
//! documents. A change that names nothing (an unknown model, side, special attribute, option or
//! value, or one already as asked) is an error that says what was expected — never a silent no-op.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cav_content::Ruleset;
use cav_content::diag::did_you_mean;
use cav_format::DocKind;
use cav_format::vocab::{EngineOptions, OPTIONS};
use serde_json::{Value, json};

/// The syntax of a change, for messages and help.
pub const SYNTAX: &str = "swap:MODEL=OTHER[@SIDE], remove-sa:SA[@MODEL], option:NAME=VALUE or mod:PATH";

/// The id of the generated pack that carries a change's patches.
pub const PACK_ID: &str = "cav-sim-vs";

/// One change of `cav sim --vs`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// `swap:MODEL=OTHER[@SIDE]`: every placement of `model` in the scenario's forces (only on
    /// `side`, when given) fields `with` instead.
    Swap { model: String, with: String, side: Option<String> },
    /// `remove-sa:SA[@MODEL]`: the special attribute is taken off every model card, weapon mount and
    /// weapon document that has it, or (with `@MODEL`) off that model's card and its mounts.
    RemoveSa { sa: String, model: Option<String> },
    /// `option:NAME=VALUE`: the ruleset plays another reading of one of its options (the ruleset
    /// document's `options:` entry gets `default: VALUE`), or of an engine option it does not
    /// declare (the entry is added).
    SetOption { name: String, value: String },
    /// `mod:PATH`: the pack(s) at PATH are loaded too (a pack with the id of a loaded one replaces
    /// it, so a working copy of an installed mod can be compared with it).
    AddPacks { path: PathBuf },
}

/// The patches of a change, and what the user should know about them.
#[derive(Debug, Clone, Default)]
pub struct Patches {
    /// `kind: patch` documents (JSON values).
    pub docs: Vec<Value>,
    /// Notes for the user (e.g. the change touches no model of the scenario).
    pub notes: Vec<String>,
}

impl Change {
    /// Parse `KIND:SPEC`.
    pub fn parse(text: &str) -> Result<Change, String> {
        let bad = |why: &str| format!("`{text}`: {why}; expected {SYNTAX}");
        let (kind, spec) = text.split_once(':').ok_or_else(|| bad("no `KIND:`"))?;
        let spec = spec.trim();
        let word = |s: &str, what: &str| -> Result<String, String> {
            let s = s.trim();
            if s.is_empty() { Err(bad(&format!("{what} is empty"))) } else { Ok(s.to_owned()) }
        };
        match kind.trim() {
            "swap" => {
                let (model, rest) = spec.split_once('=').ok_or_else(|| bad("a swap is MODEL=OTHER[@SIDE]"))?;
                let (with, side) = match rest.split_once('@') {
                    Some((w, s)) => (w, Some(word(s, "the side")?)),
                    None => (rest, None),
                };
                Ok(Change::Swap { model: word(model, "the model")?, with: word(with, "the other model")?, side })
            }
            "remove-sa" => {
                let (sa, model) = match spec.split_once('@') {
                    Some((sa, m)) => (sa, Some(word(m, "the model")?)),
                    None => (spec, None),
                };
                Ok(Change::RemoveSa { sa: word(sa, "the special attribute")?, model })
            }
            "option" => {
                let (name, value) = spec.split_once('=').ok_or_else(|| bad("an option change is NAME=VALUE"))?;
                Ok(Change::SetOption { name: word(name, "the option")?, value: word(value, "the value")? })
            }
            "mod" => Ok(Change::AddPacks { path: PathBuf::from(word(spec, "the path")?) }),
            other => Err(bad(&format!("unknown kind of change `{other}`"))),
        }
    }

    /// The change as written (canonical spelling).
    pub fn spec(&self) -> String {
        match self {
            Change::Swap { model, with, side: None } => format!("swap:{model}={with}"),
            Change::Swap { model, with, side: Some(s) } => format!("swap:{model}={with}@{s}"),
            Change::RemoveSa { sa, model: None } => format!("remove-sa:{sa}"),
            Change::RemoveSa { sa, model: Some(m) } => format!("remove-sa:{sa}@{m}"),
            Change::SetOption { name, value } => format!("option:{name}={value}"),
            Change::AddPacks { path } => format!("mod:{}", path.display()),
        }
    }

    /// The patches that make this change to `rs`, for `scenario` (whose forces a swap edits);
    /// `rostered` lists the models the players' rosters field, where the scenario leaves forces
    /// to them. `mod:` has none (its packs are loaded as they are). An error when the change
    /// names nothing, or asks for what already is.
    pub fn patches(&self, rs: &Ruleset, scenario: &str, rostered: Option<&[String]>) -> Result<Patches, String> {
        match self {
            Change::Swap { model, with, side } => swap(rs, scenario, model, with, side.as_deref()),
            Change::RemoveSa { sa, model } => remove_sa(rs, scenario, rostered, sa, model.as_deref()),
            Change::SetOption { name, value } => set_option(rs, name, value),
            Change::AddPacks { .. } => Ok(Patches::default()),
        }
    }
}

fn patch(kind: DocKind, id: &str, summary: &str, body: Value) -> Value {
    let mut p = json!({ "kind": "patch", "target": { "kind": kind.tag(), "id": id }, "summary": summary });
    if let (Some(o), Value::Object(b)) = (p.as_object_mut(), body) {
        o.extend(b);
    }
    p
}

/// The id of a document of `kind` named by id, or by name when one document has it.
fn resolve(rs: &Ruleset, kind: DocKind, query: &str, what: &str) -> Result<String, String> {
    if rs.get(kind, query).is_some() {
        return Ok(query.to_owned());
    }
    let by_name: Vec<&cav_content::Entry> = rs.find(query).into_iter().filter(|e| e.kind == kind).collect();
    if let [one] = by_name.as_slice() {
        return Ok(one.id.clone());
    }
    let ids: Vec<&str> = rs.of_kind(kind).map(|e| e.id.as_str()).collect();
    let hint = did_you_mean(query, ids.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
    Err(format!("no {what} `{query}` in {}{hint}: expected the id of a {what} (`cav list {}`)", rs.id, kind.tag()))
}

/// The scenario's forces: side → placements.
fn forces<'a>(rs: &'a Ruleset, scenario: &str) -> Result<&'a serde_json::Map<String, Value>, String> {
    let sc = rs.get(DocKind::Scenario, scenario).ok_or_else(|| format!("no scenario `{scenario}` in {}", rs.id))?;
    sc.value
        .get("forces")
        .and_then(Value::as_object)
        .filter(|f| !f.is_empty())
        .ok_or_else(|| format!("scenario `{scenario}` does not fix its forces"))
}

fn swap(rs: &Ruleset, scenario: &str, model: &str, with: &str, side: Option<&str>) -> Result<Patches, String> {
    let forces = forces(rs, scenario)?;
    let sides: Vec<&str> = forces.keys().map(String::as_str).collect();
    if let Some(s) = side
        && !forces.contains_key(s)
    {
        let hint = did_you_mean(s, sides.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
        return Err(format!("scenario `{scenario}` has no side `{s}`{hint}: expected one of {}", sides.join(", ")));
    }
    let model = resolve(rs, DocKind::Model, model, "model")?;
    let with = resolve(rs, DocKind::Model, with, "model")?;
    if model == with {
        return Err(format!("swapping `{model}` for itself changes nothing: name another model after `=`"));
    }
    let mut set = serde_json::Map::new();
    let mut fielded: Vec<String> = Vec::new();
    for (s, placements) in forces {
        let list = placements.as_array().map(Vec::as_slice).unwrap_or(&[]);
        for p in list {
            if let Some(m) = p.get("model").and_then(Value::as_str)
                && !fielded.iter().any(|f| f == m)
            {
                fielded.push(m.to_owned());
            }
        }
        if side.is_some_and(|want| want != s) {
            continue;
        }
        if !list.iter().any(|p| p.get("model").and_then(Value::as_str) == Some(model.as_str())) {
            continue;
        }
        let swapped: Vec<Value> = list
            .iter()
            .map(|p| {
                let mut p = p.clone();
                if p.get("model").and_then(Value::as_str) == Some(model.as_str()) {
                    p["model"] = Value::String(with.clone());
                }
                p
            })
            .collect();
        set.insert(s.clone(), Value::Array(swapped));
    }
    if set.is_empty() {
        let on = side.map(|s| format!(" on side `{s}`")).unwrap_or_default();
        return Err(format!(
            "scenario `{scenario}` fields no `{model}`{on}: expected a model it fields ({})",
            fielded.join(", ")
        ));
    }
    let summary = format!("cav sim --vs: `{with}` in place of `{model}`");
    Ok(Patches {
        docs: vec![patch(DocKind::Scenario, scenario, &summary, json!({ "set": { "forces": set } }))],
        notes: vec![],
    })
}

/// The id a special-attribute list item names: `piercing` or `{sa: piercing, …}`.
fn sa_id(item: &Value) -> Option<&str> {
    item.as_str().or_else(|| item.get("sa").and_then(Value::as_str))
}

/// Pointers to the items of `list` (at `at`) that name `sa`.
fn sa_items(list: Option<&Value>, sa: &str, at: &str) -> Vec<String> {
    let items = list.and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    items.iter().enumerate().filter(|(_, v)| sa_id(v) == Some(sa)).map(|(i, _)| format!("{at}/{i}")).collect()
}

/// A model's pointers to `sa`: its own special attributes and its mounts'.
fn model_sa_pointers(value: &Value, sa: &str) -> Vec<String> {
    let mut out = sa_items(value.get("special_attributes"), sa, "/special_attributes");
    let mounts = value.get("weapons").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    for (w, m) in mounts.iter().enumerate() {
        out.extend(sa_items(m.get("special_attributes"), sa, &format!("/weapons/{w}/special_attributes")));
    }
    out
}

/// Pointers in removal order: within a list, the last item first, so earlier indices hold.
pub(crate) fn removal_order(mut ptrs: Vec<String>) -> Vec<String> {
    let key = |p: &String| -> Vec<(String, usize)> {
        p.split('/').map(|s| s.parse().map_or((s.to_owned(), 0), |n| (String::new(), n))).collect()
    };
    ptrs.sort_by_key(|p| std::cmp::Reverse(key(p)));
    ptrs
}

fn remove_sa(
    rs: &Ruleset,
    scenario: &str,
    rostered: Option<&[String]>,
    sa: &str,
    model: Option<&str>,
) -> Result<Patches, String> {
    let sa = resolve(rs, DocKind::SpecialAttribute, sa, "special attribute")?;
    let summary = format!("cav sim --vs: without `{sa}`");
    // The models and weapons the games field (the scenario's, or the rosters'), for the note below.
    let mut fielded: Vec<String> = match rostered {
        Some(models) => models.to_vec(),
        None => forces(rs, scenario)
            .map(|f| {
                f.values()
                    .filter_map(Value::as_array)
                    .flatten()
                    .filter_map(|p| p.get("model").and_then(Value::as_str).map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    };
    fielded.sort();
    fielded.dedup();
    let weapons_of = |m: &Value| -> Vec<String> {
        let mounts = m.get("weapons").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        mounts.iter().filter_map(|w| w.get("weapon").and_then(Value::as_str).map(str::to_owned)).collect()
    };
    let mut docs = Vec::new();
    let mut touched: Vec<(DocKind, String)> = Vec::new();
    let mut add = |kind: DocKind, id: &str, ptrs: Vec<String>| {
        if !ptrs.is_empty() {
            docs.push(patch(kind, id, &summary, json!({ "remove": removal_order(ptrs) })));
            touched.push((kind, id.to_owned()));
        }
    };
    match model {
        Some(m) => {
            let m = resolve(rs, DocKind::Model, m, "model")?;
            let entry = rs.get(DocKind::Model, &m).ok_or_else(|| format!("no model `{m}`"))?;
            add(DocKind::Model, &m, model_sa_pointers(&entry.value, &sa));
            if touched.is_empty() {
                let on_weapon: Vec<String> = weapons_of(&entry.value)
                    .into_iter()
                    .filter(|w| {
                        rs.get(DocKind::Weapon, w)
                            .is_some_and(|e| !sa_items(e.value.get("special_attributes"), &sa, "").is_empty())
                    })
                    .collect();
                if !on_weapon.is_empty() {
                    return Err(format!(
                        "`{sa}` is not on `{m}`'s card or mounts but on its weapon {} itself, which every model \
                         mounting it shares: `remove-sa:{sa}` takes it off everywhere",
                        on_weapon.join(", ")
                    ));
                }
                let mut has: Vec<String> = Vec::new();
                for v in entry.value.get("special_attributes").and_then(Value::as_array).into_iter().flatten() {
                    has.extend(sa_id(v).map(str::to_owned));
                }
                return Err(format!(
                    "model `{m}` has no special attribute `{sa}` on its card or mounts: expected one it has ({})",
                    if has.is_empty() { "none".to_owned() } else { has.join(", ") }
                ));
            }
        }
        None => {
            for e in rs.of_kind(DocKind::Model) {
                add(DocKind::Model, &e.id, model_sa_pointers(&e.value, &sa));
            }
            for e in rs.of_kind(DocKind::Weapon) {
                add(DocKind::Weapon, &e.id, sa_items(e.value.get("special_attributes"), &sa, "/special_attributes"));
            }
            if touched.is_empty() {
                return Err(format!(
                    "no model card, weapon mount or weapon in {} has the special attribute `{sa}`: expected one \
                     that some model carries",
                    rs.id
                ));
            }
        }
    }
    let mut notes = Vec::new();
    let fielded_weapons: Vec<String> =
        fielded.iter().filter_map(|m| rs.get(DocKind::Model, m)).flat_map(|e| weapons_of(&e.value)).collect();
    let reaches = touched.iter().any(|(k, id)| match k {
        DocKind::Model => fielded.contains(id),
        _ => fielded_weapons.contains(id),
    });
    if !reaches {
        notes.push(format!(
            "no model {} carries `{sa}` (it fields {}): expect no difference",
            if rostered.is_some() { "the rosters field".to_owned() } else { format!("scenario `{scenario}` fields") },
            fielded.join(", ")
        ));
    }
    Ok(Patches { docs, notes })
}

fn set_option(rs: &Ruleset, name: &str, value: &str) -> Result<Patches, String> {
    let entry = rs.get(DocKind::Ruleset, &rs.id).ok_or_else(|| format!("no ruleset document `{}`", rs.id))?;
    let declared: Vec<Value> = entry.value.get("options").and_then(Value::as_array).cloned().unwrap_or_default();
    let engine = OPTIONS.iter().find(|o| o.id == name);
    let summary = format!("cav sim --vs: option `{name}` set to `{value}`");
    let mut notes = Vec::new();
    let options = match declared.iter().position(|o| o.get("id").and_then(Value::as_str) == Some(name)) {
        Some(i) => {
            let o = &declared[i];
            let choices: Vec<&str> =
                o.get("choices").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
            if !choices.contains(&value) {
                let hint = did_you_mean(value, choices.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
                return Err(format!(
                    "option `{name}` of {} has no value `{value}`{hint}: expected one of {}",
                    rs.id,
                    choices.join(", ")
                ));
            }
            if o.get("default").and_then(Value::as_str) == Some(value) {
                return Err(format!(
                    "option `{name}` of {} is already `{value}`: expected another of its values ({})",
                    rs.id,
                    choices.iter().filter(|c| **c != value).copied().collect::<Vec<_>>().join(", ")
                ));
            }
            if engine.is_none() {
                notes.push(format!(
                    "option `{name}` is a reading the engine does not read; only scripts that look at ctx.options \
                     see the change"
                ));
            }
            let mut options = declared.clone();
            options[i]["default"] = Value::String(value.to_owned());
            options
        }
        None => {
            let Some(engine) = engine else {
                let mut known: Vec<&str> =
                    declared.iter().filter_map(|o| o.get("id").and_then(Value::as_str)).collect();
                for o in OPTIONS {
                    if !known.contains(&o.id) {
                        known.push(o.id);
                    }
                }
                let hint = did_you_mean(name, known.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
                return Err(format!(
                    "no option `{name}` in {} or the engine{hint}: expected one of {}",
                    rs.id,
                    known.join(", ")
                ));
            };
            if !engine.values.contains(&value) {
                let hint =
                    did_you_mean(value, engine.values.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
                return Err(format!(
                    "engine option `{name}` has no value `{value}`{hint}: expected one of {}",
                    engine.values.join(", ")
                ));
            }
            let mut set = EngineOptions::default();
            set.set(name, value);
            if set == EngineOptions::default() {
                return Err(format!(
                    "{} does not declare option `{name}`, so it already plays `{value}`, the engine's default: \
                     expected another of its values ({})",
                    rs.id,
                    engine.values.iter().filter(|v| **v != value).copied().collect::<Vec<_>>().join(", ")
                ));
            }
            let mut options = declared.clone();
            options.push(json!({
                "id": name,
                "summary": format!("Added by `cav sim --vs`: {}", engine.doc),
                "default": value,
                "choices": engine.values,
            }));
            options
        }
    };
    Ok(Patches {
        docs: vec![patch(DocKind::Ruleset, &rs.id, &summary, json!({ "set": { "options": options } }))],
        notes,
    })
}

/// Write the generated pack that carries `patches` into `dir` (created): an extension that depends
/// on every pack of `rs`, so it joins that ruleset (and no other), comes last in its load order
/// and may patch any of its documents. Returns the pack's directory.
pub fn write_pack(dir: &Path, rs: &Ruleset, change: &str, patches: &[Value]) -> Result<PathBuf, String> {
    if rs.pack(PACK_ID).is_some() {
        return Err(format!("a loaded pack already has the id `{PACK_ID}` that `cav sim --vs` uses"));
    }
    let pack = dir.join(PACK_ID);
    std::fs::create_dir_all(&pack).map_err(|e| format!("cannot create {}: {e}", pack.display()))?;
    let depends: Vec<&str> = rs.packs.iter().map(|p| p.id.as_str()).collect();
    let manifest = json!({
        "id": PACK_ID,
        "name": "cav sim --vs",
        "version": "1.0.0",
        "kind": "extension",
        "description": format!("Generated by `cav sim --vs {change}`: the B side of a paired run."),
        "depends": depends,
    });
    // JSON is YAML: one document per patch.
    let mut docs = String::new();
    for p in patches {
        let _ = writeln!(docs, "---\n{p}");
    }
    let write = |name: &str, text: String| {
        let f = pack.join(name);
        std::fs::write(&f, text).map_err(|e| format!("cannot write {}: {e}", f.display()))
    };
    write("pack.yaml", format!("{manifest}\n"))?;
    if !patches.is_empty() {
        write("change.yaml", docs)?;
    }
    Ok(pack)
}

/// The paths a B load requests: `extra` pack directories first (a generated pack, or a mod's
/// packs), then the directories of `rs`'s own packs except those whose id one of `replaced`
/// takes over. The same packs as A's, in the same (dependency, then alphabetical) load order.
pub fn b_paths(rs: &Ruleset, extra: &[PathBuf], replaced: &[String]) -> Vec<PathBuf> {
    let mut paths = extra.to_vec();
    paths.extend(rs.packs.iter().filter(|p| !replaced.contains(&p.id)).map(|p| p.dir.clone()));
    paths
}
