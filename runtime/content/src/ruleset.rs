//! Building a frozen, indexed [`Ruleset`] from the packs of one load set: `extends:`
//! inheritance, patches across packs, per-field provenance, schema validation and typed decoding.

use std::collections::BTreeSet;

/// The maps of ids looked up thousands of times a reload (see `foldhash` in Cargo.toml).
pub(crate) type FastMap<K, V> = foldhash::HashMap<K, V>;
use std::sync::Arc;

use cav_format::{DocKind, Document, PackKind};
use semver::Version;
use serde_json::Value;

use crate::diag::{Diagnostic, FileId, Loc, Sources, did_you_mean};
use crate::pack::{LoadSet, Pack, RawDoc};
use crate::schema::Validators;
use crate::yaml::{Provenance, escape};

/// A pack as it takes part in a ruleset.
#[derive(Debug, Clone, PartialEq)]
pub struct PackInfo {
    pub id: String,
    pub name: String,
    pub version: Version,
    pub kind: PackKind,
    pub dir: std::path::PathBuf,
    pub script_roots: Vec<std::path::PathBuf>,
}

/// One resolved document.
#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: DocKind,
    pub id: String,
    /// Pack that defined the document (patches by other packs are in `prov`).
    pub pack: String,
    pub file: FileId,
    pub root: Loc,
    /// Resolved value (inheritance and patches applied).
    pub value: Arc<Value>,
    /// File:line:col that set each value, by JSON pointer.
    pub prov: Arc<Provenance>,
    /// Typed document; `None` when the value failed validation.
    pub doc: Option<Arc<Document>>,
    /// Pack whose script roots hold the document's `script:` module: the pack that last set it
    /// (its own, or the pack of a patch that changed it).
    pub script_pack: String,
}

impl Entry {
    pub fn name(&self) -> &str {
        self.value.get("name").and_then(Value::as_str).unwrap_or(&self.id)
    }
}

/// The content of one ruleset pack with everything loaded alongside it: immutable and indexed.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// Id of the ruleset pack.
    pub id: String,
    /// Packs in load order.
    pub packs: Vec<PackInfo>,
    /// Shared by the copies of a ruleset (a reload takes an unchanged ruleset again, see
    /// `crate::reuse`): a copy costs a few counts, not the entries.
    entries: Arc<Vec<Entry>>,
    /// Each kind's entries by id (looked up by `&str`, without making a key).
    index: Arc<FastMap<DocKind, FastMap<String, usize>>>,
    /// The entries of each kind, in entry order: `of_kind` is asked per document by the checks
    /// and the compiler, and walking every entry each time made a pack of thousands of models
    /// quadratic.
    by_kind: Arc<FastMap<DocKind, Vec<usize>>>,
}

impl Ruleset {
    /// Is `other` this ruleset, built from the same documents? Entries are compared by the
    /// addresses of their shared values: a ruleset a reload took unchanged (`crate::reuse`)
    /// shares them, and a value behind an `Arc` is never changed in place while shared. A
    /// ruleset built again from unchanged files may compare unequal: then it is only checked
    /// again.
    pub fn same_as(&self, other: &Ruleset) -> bool {
        self.id == other.id
            && self.packs == other.packs
            && (Arc::ptr_eq(&self.entries, &other.entries) || self.same_entries(other))
    }

    fn same_entries(&self, other: &Ruleset) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().zip(other.entries.iter()).all(|(a, b)| {
                a.kind == b.kind
                    && a.id == b.id
                    && a.pack == b.pack
                    && a.file == b.file
                    && a.root == b.root
                    && a.script_pack == b.script_pack
                    && Arc::ptr_eq(&a.value, &b.value)
                    && Arc::ptr_eq(&a.prov, &b.prov)
                    && match (&a.doc, &b.doc) {
                        (Some(x), Some(y)) => Arc::ptr_eq(x, y),
                        (None, None) => true,
                        _ => false,
                    }
            })
    }

    pub fn get(&self, kind: DocKind, id: &str) -> Option<&Entry> {
        self.index.get(&kind)?.get(id).map(|&i| &self.entries[i])
    }

    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    pub fn of_kind(&self, kind: DocKind) -> impl Iterator<Item = &Entry> {
        self.by_kind.get(&kind).into_iter().flatten().map(|&i| &self.entries[i])
    }

    /// Entries whose id or name matches `query` (case and punctuation ignored).
    pub fn find(&self, query: &str) -> Vec<&Entry> {
        let q = normalise_name(query);
        self.entries.iter().filter(|e| normalise_name(&e.id) == q || normalise_name(e.name()) == q).collect()
    }

    pub fn pack(&self, id: &str) -> Option<&PackInfo> {
        self.packs.iter().find(|p| p.id == id)
    }

    /// A copy whose typed documents `change` has edited (values and provenance are kept): how
    /// `cav coverage` takes one entry's behaviour away to see which tests notice.
    pub fn with_docs(&self, mut change: impl FnMut(&Entry, &mut Document)) -> Ruleset {
        let mut out = self.clone();
        for e in Arc::make_mut(&mut out.entries) {
            if let Some(mut doc) = e.doc.take() {
                change(e, Arc::make_mut(&mut doc));
                e.doc = Some(doc);
            }
        }
        out
    }
}

/// Lower-case letters and digits only: `Dictator-B` and `dictator b` compare equal.
pub fn normalise_name(s: &str) -> String {
    name_chars(s).collect()
}

fn name_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars().filter(|c| c.is_alphanumeric()).flat_map(char::to_lowercase)
}

/// Does a model's `faction:` (`name`) name faction `f`: by its id, name or another name
/// (`also_called`), case and punctuation ignored? Rosters and the content check read it alike.
/// Compared letter by letter, without making the normalised names (asked once per model).
pub fn names_faction(f: &cav_format::Faction, name: &str) -> bool {
    let same = |a: &str| name_chars(a).eq(name_chars(name));
    same(f.id.as_str()) || same(&f.name) || f.also_called.iter().any(|a| same(a))
}

/// The schema check and typed decoding of the entries of earlier loads, so that a reload (watch
/// mode) redoes them only for entries whose resolved value changed: they are most of a load.
/// Looked up by kind, id and pack; a hit needs everything else the result depends on to be
/// equal too: the value (key order included: it orders maps and diagnostics), its provenance
/// (every location, so a shifted line or a renumbered file misses), the root and whether its
/// `extends` was broken. Only the validators it was made with may use it. [`build`] returns the
/// records of one ruleset; the caller keeps those of the last load only, so it stays bounded.
#[derive(Default)]
pub struct Checked {
    /// The id of the validators the records were made with (0: none yet).
    validators: u64,
    map: FastMap<(DocKind, String, String), Vec<Arc<CheckedEntry>>>,
    /// `extends:` resolved, by the addresses of the child's and the parent's value and
    /// provenance. The records hold those Arcs, so an address cannot be reused by another value
    /// while it is here, and values behind an `Arc` are never changed in place while shared
    /// (`Arc::make_mut` copies): an equal address is the same, unchanged value. An unchanged
    /// chain thus keeps its resolved Arcs from load to load, and the check above finds them.
    extended: FastMap<[usize; 4], Arc<Extended>>,
}

#[derive(Debug)]
struct Extended {
    inputs: (Arc<Value>, Arc<Provenance>, Arc<Value>, Arc<Provenance>),
    value: Arc<Value>,
    prov: Arc<Provenance>,
}

fn extends_key(child: &Entry, parent: &Entry) -> [usize; 4] {
    [
        Arc::as_ptr(&child.value) as usize,
        Arc::as_ptr(&child.prov) as usize,
        Arc::as_ptr(&parent.value) as usize,
        Arc::as_ptr(&parent.prov) as usize,
    ]
}

#[derive(Debug)]
struct CheckedEntry {
    value: Arc<Value>,
    prov: Arc<Provenance>,
    root: Loc,
    broken: bool,
    doc: Option<Arc<Document>>,
    diags: Vec<Diagnostic>,
}

/// The records of one earlier [`build`] for this entry, from any of `memo`'s builds.
fn find<'m>(
    memo: &'m [Arc<Checked>],
    validators: &Validators,
    e: &Entry,
    broken: bool,
) -> Option<&'m Arc<CheckedEntry>> {
    let key = (e.kind, e.id.clone(), e.pack.clone());
    memo.iter().filter(|c| c.validators == validators.id()).find_map(|c| {
        c.map.get(&key)?.iter().find(|r| {
            r.root == e.root
                && r.broken == broken
                // The memo holds its Arcs, so an equal address is the same, unchanged value.
                && (Arc::ptr_eq(&r.value, &e.value) || same(&r.value, &e.value))
                && (Arc::ptr_eq(&r.prov, &e.prov) || *r.prov == *e.prov)
        })
    })
}

/// Equal values with their mapping keys in the same order (`Value`'s `==` ignores key order).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b)),
        _ => a == b,
    }
}

struct Builder<'a> {
    packs: &'a [Pack],
    /// The files read, to name the other place of a duplicate id in its message.
    sources: &'a Sources,
    validators: &'a Validators,
    memo: &'a [Arc<Checked>],
    /// This build's records, for the next load's memo.
    checked: Checked,
    entries: Vec<Entry>,
    removed: Vec<bool>,
    index: FastMap<(DocKind, String), usize>,
    /// Raw `extends` target of each entry still to resolve.
    pending_extends: FastMap<usize, (String, Option<Loc>)>,
    /// Entries whose `extends` could not be resolved (reported once, there): the keys they would
    /// have inherited are not reported missing as well.
    broken_extends: std::collections::HashSet<usize>,
    diags: Vec<Diagnostic>,
}

/// Build the ruleset of one load set, reusing the checks `memo` holds; also returns this build's
/// records (see [`Checked`]). `sources` holds the packs' files (a diagnostic may name two).
pub fn build(
    packs: &[Pack],
    set: &LoadSet,
    validators: &Validators,
    memo: &[Arc<Checked>],
    sources: &Sources,
) -> (Ruleset, Vec<Diagnostic>, Checked) {
    let mut b = Builder {
        packs,
        sources,
        validators,
        memo,
        checked: Checked { validators: validators.id(), ..Checked::default() },
        entries: Vec::new(),
        removed: Vec::new(),
        index: FastMap::default(),
        pending_extends: FastMap::default(),
        broken_extends: Default::default(),
        diags: Vec::new(),
    };
    let mut by_id: Option<FastMap<&str, usize>> = None;
    for &p in &set.order {
        if packs[p].docs.is_empty() {
            continue; // nothing to register (a manifest-only pack); skip its dependency walk
        }
        let by_id = by_id.get_or_insert_with(|| packs.iter().enumerate().map(|(i, p)| (p.id.as_str(), i)).collect());
        let visible = visible_packs(packs, by_id, p);
        let first_new = b.entries.len();
        let mut patches = Vec::new();
        for raw in &packs[p].docs {
            b.register(p, raw, &mut patches, &visible);
        }
        for i in first_new..b.entries.len() {
            b.resolve_extends(i, &visible, &mut Vec::new());
        }
        for raw in patches {
            b.apply_patch(p, raw, &visible);
        }
    }
    b.validate();
    let Builder { entries, removed, diags, checked, .. } = b;
    let entries: Vec<Entry> = entries.into_iter().zip(removed).filter(|(_, r)| !r).map(|(e, _)| e).collect();
    let mut by_kind: FastMap<DocKind, Vec<usize>> = FastMap::default();
    for (i, e) in entries.iter().enumerate() {
        by_kind.entry(e.kind).or_default().push(i);
    }
    let mut index: FastMap<DocKind, FastMap<String, usize>> = FastMap::default();
    for (kind, at) in &by_kind {
        let mut ids = FastMap::with_capacity_and_hasher(at.len(), Default::default());
        ids.extend(at.iter().map(|&i| (entries[i].id.clone(), i)));
        index.insert(*kind, ids);
    }
    let pack_infos = set
        .order
        .iter()
        .map(|&p| {
            let pk = &packs[p];
            PackInfo {
                id: pk.id.clone(),
                name: pk.manifest.as_ref().map(|m| m.name.clone()).unwrap_or_else(|| pk.id.clone()),
                version: pk.version.clone(),
                kind: pk.kind,
                dir: pk.dir.clone(),
                script_roots: pk.script_roots.clone(),
            }
        })
        .collect();
    let (entries, index, by_kind) = (Arc::new(entries), Arc::new(index), Arc::new(by_kind));
    (Ruleset { id: packs[set.root].id.clone(), packs: pack_infos, entries, index, by_kind }, diags, checked)
}

/// Pack ids a pack may build on: itself and its dependency closure.
fn visible_packs(packs: &[Pack], by_id: &FastMap<&str, usize>, p: usize) -> BTreeSet<String> {
    let mut seen = BTreeSet::from([packs[p].id.clone()]);
    let mut stack = vec![p];
    while let Some(i) = stack.pop() {
        for d in &packs[i].depends {
            if d.kind != crate::pack::DepKind::Incompatible
                && seen.insert(d.id.clone())
                && let Some(&j) = by_id.get(d.id.as_str())
            {
                stack.push(j);
            }
        }
    }
    seen
}

impl Builder<'_> {
    fn register<'r>(&mut self, p: usize, raw: &'r RawDoc, patches: &mut Vec<&'r RawDoc>, visible: &BTreeSet<String>) {
        let pack = &self.packs[p].id;
        let v = &raw.doc.value;
        let prov = &raw.doc.prov;
        let Some(obj) = v.as_object() else {
            self.diags.push(
                Diagnostic::error("wrong-type", format!("a document must be a mapping, found {v}"))
                    .at(Some(raw.doc.root))
                    .pack(pack)
                    .pointer("")
                    .expected("a mapping with `kind:` and `id:` keys"),
            );
            return;
        };
        let kinds: Vec<&str> = DocKind::ALL.iter().map(|k| k.tag()).collect();
        let kind = match obj.get("kind") {
            None => {
                self.diags.push(
                    Diagnostic::error("missing-kind", "document has no `kind:` key")
                        .at(Some(raw.doc.root))
                        .pack(pack)
                        .pointer("")
                        .expected(format!("`kind:` one of {}", kinds.join(", "))),
                );
                return;
            }
            Some(Value::String(k)) => match DocKind::from_tag(k) {
                Some(kind) => kind,
                None => {
                    self.diags.push(
                        Diagnostic::error("unknown-kind", format!("unknown document kind `{k}`"))
                            .at(prov.locate("/kind"))
                            .pack(pack)
                            .pointer("/kind")
                            .expected(format!("one of {}", kinds.join(", ")))
                            .hint(did_you_mean(k, kinds.iter().copied())),
                    );
                    return;
                }
            },
            Some(other) => {
                self.diags.push(
                    Diagnostic::error("wrong-type", format!("`kind` is {other}, not text"))
                        .at(prov.locate("/kind"))
                        .pack(pack)
                        .pointer("/kind")
                        .expected(format!("one of {}", kinds.join(", "))),
                );
                return;
            }
        };
        if kind == DocKind::Patch {
            patches.push(raw);
            return;
        }
        let Some(id) = obj.get("id").and_then(Value::as_str) else {
            // The schema pass reports a missing or mistyped id with the expected form.
            self.validators.check(kind, v, prov, pack, &mut self.diags);
            return;
        };
        if let Some(&existing) = self.index.get(&(kind, id.to_owned())) {
            let e = &self.entries[existing];
            let how = if e.pack == *pack {
                "give one of them another id".to_owned()
            } else {
                format!("to change `{id}` from pack `{}`, write a `kind: patch` document targeting it", e.pack)
            };
            // Two packs where neither builds on the other are equally at fault: each is told. Each
            // message names the other place (file:line:col), the diagnostic sits at its own.
            let unrelated = e.pack != *pack && !visible.contains(&e.pack);
            let place = |loc: Option<Loc>, file: FileId| {
                loc.map(|l| l.show(self.sources)).unwrap_or_else(|| self.sources.get(file).display.clone())
            };
            let (there, here) = (place(e.prov.locate("/id"), e.file), place(prov.locate("/id"), raw.file));
            let first = format!("{} `{id}` is already defined (in pack `{}`) at {there}", kind.tag(), e.pack);
            let message = if unrelated { format!("{first}, which pack `{pack}` does not depend on") } else { first };
            let how = if unrelated {
                format!("rename one of them, or make `{pack}` depend on `{}` and write a `kind: patch` instead", e.pack)
            } else {
                how
            };
            if unrelated {
                self.diags.push(
                    Diagnostic::error(
                        "duplicate-id",
                        format!(
                            "{} `{id}` is also defined by pack `{pack}` at {here}, which does not depend on `{}`",
                            kind.tag(),
                            e.pack
                        ),
                    )
                    .at(e.prov.locate("/id"))
                    .pack(e.pack.clone())
                    .pointer("/id")
                    .expected("an id not used by another document of the same kind")
                    .hint(Some("rename one of them, or make one pack depend on the other".to_owned())),
                );
            }
            self.diags.push(
                Diagnostic::error("duplicate-id", message)
                    .at(prov.locate("/id"))
                    .pack(pack)
                    .pointer("/id")
                    .expected("an id not used by another document of the same kind")
                    .hint(Some(how)),
            );
            return;
        }
        let idx = self.entries.len();
        if let Some(parent) = obj.get("extends").and_then(Value::as_str) {
            self.pending_extends.insert(idx, (parent.to_owned(), prov.locate("/extends")));
        }
        self.index.insert((kind, id.to_owned()), idx);
        self.entries.push(Entry {
            kind,
            id: id.to_owned(),
            pack: pack.clone(),
            file: raw.file,
            root: raw.doc.root,
            value: v.clone(),
            prov: prov.clone(),
            doc: None,
            script_pack: pack.clone(),
        });
        self.removed.push(false);
    }

    fn resolve_extends(&mut self, i: usize, visible: &BTreeSet<String>, chain: &mut Vec<usize>) {
        let Some((parent, loc)) = self.pending_extends.remove(&i) else { return };
        let kind = self.entries[i].kind;
        let pack = self.entries[i].pack.clone();
        let Some(&pi) = self.index.get(&(kind, parent.clone())).filter(|&&pi| visible.contains(&self.entries[pi].pack))
        else {
            let ids: Vec<&str> = self.entries.iter().filter(|e| e.kind == kind).map(|e| e.id.as_str()).collect();
            self.diags.push(
                Diagnostic::error(
                    "dangling-ref",
                    format!("`extends: {parent}`: no {} `{parent}` in this pack or its dependencies", kind.tag()),
                )
                .at(loc)
                .pack(pack)
                .pointer("/extends")
                .expected(format!("the id of a {} document", kind.tag()))
                .hint(did_you_mean(&parent, ids))
                .missing(kind, &parent),
            );
            self.broken_extends.insert(i);
            return;
        };
        chain.push(i);
        if chain.contains(&pi) {
            let names: Vec<String> = chain.iter().map(|&c| self.entries[c].id.clone()).collect();
            self.diags.push(
                Diagnostic::error(
                    "extends-cycle",
                    format!("`extends` loops: {} → {}", names.join(" → "), self.entries[pi].id),
                )
                .at(loc)
                .pack(pack)
                .pointer("/extends")
                .expected("a chain of `extends` that ends"),
            );
            self.broken_extends.insert(i);
            chain.pop();
            return;
        }
        self.resolve_extends(pi, visible, chain);
        chain.pop();
        let key = extends_key(&self.entries[i], &self.entries[pi]);
        let validators = self.validators.id();
        let memo = self.memo.iter().filter(|c| c.validators == validators).find_map(|c| c.extended.get(&key));
        if let Some(x) = memo {
            let (e, p) = (&self.entries[i], &self.entries[pi]);
            debug_assert!(
                Arc::ptr_eq(&x.inputs.0, &e.value)
                    && Arc::ptr_eq(&x.inputs.1, &e.prov)
                    && Arc::ptr_eq(&x.inputs.2, &p.value)
                    && Arc::ptr_eq(&x.inputs.3, &p.prov)
            );
            let x = x.clone();
            self.entries[i].value = x.value.clone();
            self.entries[i].prov = x.prov.clone();
            self.checked.extended.insert(key, x);
            return;
        }
        let inputs = (
            self.entries[i].value.clone(),
            self.entries[i].prov.clone(),
            self.entries[pi].value.clone(),
            self.entries[pi].prov.clone(),
        );
        let mut value = (*self.entries[pi].value).clone();
        let mut prov = (*self.entries[pi].prov).clone();
        if let Some(o) = value.as_object_mut() {
            o.remove("extends");
        }
        let child = &self.entries[i];
        merge(&mut value, &mut prov, &child.value, &child.prov, &mut String::new());
        let x = Extended { inputs, value: Arc::new(value), prov: Arc::new(prov) };
        self.entries[i].value = x.value.clone();
        self.entries[i].prov = x.prov.clone();
        self.checked.extended.insert(key, Arc::new(x));
    }

    fn apply_patch(&mut self, p: usize, raw: &RawDoc, visible: &BTreeSet<String>) {
        let pack = self.packs[p].id.clone();
        let prov = &raw.doc.prov;
        if !self.validators.check(DocKind::Patch, &raw.doc.value, prov, &pack, &mut self.diags) {
            return;
        }
        let patch: cav_format::Patch = match serde_json::from_value(strip_meta((*raw.doc.value).clone())) {
            Ok(p) => p,
            Err(e) => {
                self.diags.push(Diagnostic::error("schema", e.to_string()).at(Some(raw.doc.root)).pack(pack));
                return;
            }
        };
        let (kind, id) = (patch.target.kind, patch.target.id.0.clone());
        let target = self.index.get(&(kind, id.clone())).copied().filter(|&t| !self.removed[t]);
        let Some(t) = target.filter(|&t| visible.contains(&self.entries[t].pack)) else {
            let ids: Vec<&str> = self.entries.iter().filter(|e| e.kind == kind).map(|e| e.id.as_str()).collect();
            let why = if target.is_some() { "is in a pack this pack does not depend on" } else { "does not exist" };
            self.diags.push(
                Diagnostic::error("patch-target", format!("patch target {} `{id}` {why}", kind.tag()))
                    .at(prov.locate("/target/id"))
                    .pack(pack)
                    .pointer("/target/id")
                    .expected(format!("the id of a {} in a pack listed in `depends`", kind.tag()))
                    .hint(did_you_mean(&id, ids))
                    .missing(kind, &id),
            );
            return;
        };
        if patch.delete {
            self.removed[t] = true;
            self.index.remove(&(kind, id));
            return;
        }
        for (i, ptr) in patch.remove.iter().enumerate() {
            let entry = &mut self.entries[t];
            if !remove_at(Arc::make_mut(&mut entry.value), Arc::make_mut(&mut entry.prov), ptr) {
                let at = format!("/remove/{i}");
                self.diags.push(
                    Diagnostic::error(
                        "patch-target",
                        format!("patch removes `{ptr}`, which {} `{id}` does not have", kind.tag()),
                    )
                    .at(prov.locate(&at))
                    .pack(pack.clone())
                    .pointer(at)
                    .expected("a JSON pointer to an existing value, e.g. `/special_attributes/0`"),
                );
            }
        }
        if let Some(set) = &patch.set {
            let mut over_prov = Provenance::default();
            for (k, v) in prov.values.range("/set".to_owned()..) {
                let Some(rest) = k.strip_prefix("/set") else { break };
                over_prov.values.insert(rest.to_owned(), *v);
            }
            for (k, v) in prov.keys.range("/set/".to_owned()..) {
                let Some(rest) = k.strip_prefix("/set") else { break };
                over_prov.keys.insert(rest.to_owned(), *v);
            }
            let entry = &mut self.entries[t];
            if set.get("script").is_some() {
                entry.script_pack = pack.clone();
            }
            merge(Arc::make_mut(&mut entry.value), Arc::make_mut(&mut entry.prov), set, &over_prov, &mut String::new());
        }
    }

    fn validate(&mut self) {
        use rayon::prelude::*;
        let (validators, memo, removed, broken) = (self.validators, self.memo, &self.removed, &self.broken_extends);
        // Each entry is checked on its own: on every core, the results then taken in order.
        let checked: Vec<Option<Arc<CheckedEntry>>> = self
            .entries
            .par_iter()
            .enumerate()
            .map(|(i, e)| {
                if removed[i] {
                    return None;
                }
                let broken = broken.contains(&i);
                if let Some(rec) = find(memo, validators, e, broken) {
                    return Some(rec.clone());
                }
                let (doc, diags) = check_entry(validators, e, broken);
                Some(Arc::new(CheckedEntry {
                    value: e.value.clone(),
                    prov: e.prov.clone(),
                    root: e.root,
                    broken,
                    doc: doc.map(Arc::new),
                    diags,
                }))
            })
            .collect();
        for (e, rec) in self.entries.iter_mut().zip(checked) {
            let Some(rec) = rec else { continue };
            if rec.doc.is_some() {
                e.doc.clone_from(&rec.doc);
            }
            self.diags.extend(rec.diags.iter().cloned());
            self.checked.map.entry((e.kind, e.id.clone(), e.pack.clone())).or_default().push(rec);
        }
    }
}

/// The schema check and typed decoding of one resolved entry.
fn check_entry(validators: &Validators, e: &Entry, broken: bool) -> (Option<Document>, Vec<Diagnostic>) {
    let mut found = Vec::new();
    let valid = validators.check(e.kind, &e.value, &e.prov, &e.pack, &mut found);
    if broken {
        found.retain(|d| d.code != "missing-field");
    }
    // A variant whose parent is missing has no document (its `extends` error says why); the
    // schema requires of a variant only `kind` and `id`, so decoding it would only repeat, as
    // missing fields, the values the parent was to give.
    if !valid || broken {
        return (None, found);
    }
    match Document::decode(e.kind, strip_meta((*e.value).clone())) {
        Ok(d) => (Some(d), found),
        Err(err) => {
            found.push(
                Diagnostic::error("schema", format!("{} `{}`: {err}", e.kind.tag(), e.id))
                    .at(Some(e.root))
                    .pack(e.pack.clone()),
            );
            (None, found)
        }
    }
}

/// Drop the keys every document may carry but the typed structs do not hold.
pub fn strip_meta(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("kind");
        o.remove("extends");
    }
    v
}

/// Deep merge: mappings merge key by key; anything else replaces, with its provenance.
fn merge(base: &mut Value, base_prov: &mut Provenance, over: &Value, over_prov: &Provenance, ptr: &mut String) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                let len = ptr.len();
                ptr.push('/');
                ptr.push_str(&escape(k));
                if let Some(key_loc) = over_prov.keys.get(ptr.as_str()) {
                    base_prov.keys.insert(ptr.clone(), *key_loc);
                }
                match b.get_mut(k) {
                    Some(bv) => merge(bv, base_prov, v, over_prov, ptr),
                    None => {
                        b.insert(k.clone(), v.clone());
                        copy_subtree(base_prov, over_prov, ptr);
                    }
                }
                ptr.truncate(len);
            }
        }
        (b, o) => {
            *b = o.clone();
            drop_subtree(base_prov, ptr);
            copy_subtree(base_prov, over_prov, ptr);
        }
    }
}

fn in_subtree(k: &str, ptr: &str) -> bool {
    k.strip_prefix(ptr).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

fn drop_subtree(prov: &mut Provenance, ptr: &str) {
    prov.values.retain(|k, _| !in_subtree(k, ptr));
    prov.keys.retain(|k, _| !in_subtree(k, ptr) || k == ptr);
}

fn copy_subtree(prov: &mut Provenance, from: &Provenance, ptr: &str) {
    for (k, v) in from.values.range(ptr.to_owned()..) {
        if !k.starts_with(ptr) {
            break;
        }
        if in_subtree(k, ptr) {
            prov.values.insert(k.clone(), *v);
        }
    }
    for (k, v) in from.keys.range(ptr.to_owned()..) {
        if !k.starts_with(ptr) {
            break;
        }
        if in_subtree(k, ptr) {
            prov.keys.insert(k.clone(), *v);
        }
    }
}

/// Remove the value at `ptr`; array elements after it move down, and so does their provenance.
fn remove_at(value: &mut Value, prov: &mut Provenance, ptr: &str) -> bool {
    let Some((parent_ptr, last)) = ptr.rsplit_once('/') else { return false };
    let key = last.replace("~1", "/").replace("~0", "~");
    let Some(parent) = value.pointer_mut(parent_ptr) else { return false };
    match parent {
        Value::Object(m) => {
            if m.remove(&key).is_none() {
                return false;
            }
            drop_subtree(prov, ptr);
            prov.keys.remove(ptr);
            true
        }
        Value::Array(a) => {
            let Some(i) = key.parse::<usize>().ok().filter(|&i| i < a.len()) else { return false };
            a.remove(i);
            let shift = |map: &mut std::collections::BTreeMap<String, Loc>| {
                let moved: Vec<(String, Loc)> = map
                    .iter()
                    .filter(|(k, _)| k.starts_with(&format!("{parent_ptr}/")))
                    .map(|(k, v)| (k.clone(), *v))
                    .collect();
                for (k, _) in &moved {
                    map.remove(k);
                }
                for (k, v) in moved {
                    let rest = &k[parent_ptr.len() + 1..];
                    let (idx, tail) = rest.split_once('/').map_or((rest, ""), |(a, b)| (a, b));
                    let Ok(j) = idx.parse::<usize>() else { continue };
                    let nk = match j.cmp(&i) {
                        std::cmp::Ordering::Less => k,
                        std::cmp::Ordering::Equal => continue,
                        std::cmp::Ordering::Greater if tail.is_empty() => format!("{parent_ptr}/{}", j - 1),
                        std::cmp::Ordering::Greater => format!("{parent_ptr}/{}/{tail}", j - 1),
                    };
                    map.insert(nk, v);
                }
            };
            shift(&mut prov.values);
            shift(&mut prov.keys);
            true
        }
        _ => false,
    }
}
