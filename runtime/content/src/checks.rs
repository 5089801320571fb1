//! Checks that need the whole ruleset: references between documents, script modules, and
//! consistency a schema cannot express. Each check is a small function over the ruleset.

use cav_format::*;

use crate::diag::{Diagnostic, did_you_mean};
use crate::ruleset::{Entry, Ruleset, normalise_name};

type Check = fn(&Ruleset, &Entry, &Document, &mut Vec<Diagnostic>);

/// Every check of one document that needs only the ruleset, run over every valid document (the
/// faction and script checks run beside them, with what `run` works out once for the ruleset).
const CHECKS: &[(&str, Check)] = &[
    ("references", references),
    ("switched-on", switched_on),
    ("damage-track", damage_track),
    ("table-rows", table_rows),
    ("design-rav", design_rav),
    ("held-asset-effects", held_asset_effects),
    ("fits", fits),
    ("state-counts", state_counts),
];

pub fn run(rs: &Ruleset, disk: &ScriptDisk) -> Vec<Diagnostic> {
    use rayon::prelude::*;
    // The checks of one document only read the ruleset: documents on every core, their
    // diagnostics then in document order.
    let entries: Vec<&Entry> = rs.entries().collect();
    let factions = Factions::of(rs);
    let per_doc: Vec<Vec<Diagnostic>> = entries
        .par_iter()
        .map(|e| {
            let mut diags = Vec::new();
            if let Some(doc) = e.doc.as_deref() {
                for (_, check) in CHECKS {
                    check(rs, e, doc, &mut diags);
                }
                faction(&factions, e, doc, &mut diags);
                scripts(rs, disk, e, &mut diags);
            }
            diags
        })
        .collect();
    let mut diags: Vec<Diagnostic> = per_doc.into_iter().flatten().collect();
    notes_options(rs, &mut diags);
    crate::vocabulary::run(rs, &mut diags);
    diags
}

/// Report a reference from `e` at `ptr` to a `kind` document `id` that does not exist.
fn reference(rs: &Ruleset, e: &Entry, ptr: &str, kind: DocKind, id: &str, diags: &mut Vec<Diagnostic>) {
    if rs.get(kind, id).is_some() {
        return;
    }
    let candidates: Vec<&Entry> = rs.of_kind(kind).collect();
    let by_name = candidates.iter().find(|c| normalise_name(c.name()) == normalise_name(id));
    let hint = match by_name {
        Some(c) => Some(format!("did you mean `{}` (the id of \"{}\")?", c.id, c.name())),
        None => did_you_mean(id, candidates.iter().map(|c| c.id.as_str())),
    };
    diags.push(
        Diagnostic::error("dangling-ref", format!("{} `{id}` does not exist", kind.tag().replace('_', " ")))
            .at(e.prov.locate(ptr))
            .pack(e.pack.clone())
            .pointer(ptr.to_owned())
            .expected(format!("the id of a {} document", kind.tag()))
            .hint(hint)
            .missing(kind, id),
    );
}

/// Every reference the document makes, as its kind's schema declares them (`x-cav-ref` on the
/// types of `cav-format`, read by `cav_format::refs`: the same declaration the editor schemas are
/// made from), must name a document of that kind. Scenario tests and rosters are left to
/// `cav-compile` and `cav-forces`, which check what they name in context (test model ids beside
/// document ids; the ruleset a test runs under; the ruleset's force-building rules).
fn references(rs: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    if matches!(doc, Document::Test(_) | Document::Force(_)) {
        return;
    }
    for (pointer, kind, id) in references_of(e.kind, &e.value).iter() {
        reference(rs, e, pointer, *kind, id, diags);
    }
    match doc {
        Document::Ruleset(rules) => {
            for (i, o) in rules.options.iter().enumerate() {
                if !o.choices.contains(&o.default) {
                    diags.push(
                        Diagnostic::error(
                            "option",
                            format!("option `{}` defaults to `{}`, which is not among its choices", o.id, o.default),
                        )
                        .at(e.prov.locate(&format!("/options/{i}/default")))
                        .pack(e.pack.clone())
                        .pointer(format!("/options/{i}/default"))
                        .expected(format!("one of {:?}", o.choices.iter().map(|c| c.as_str()).collect::<Vec<_>>())),
                    );
                }
            }
        }
        Document::Table(t) => {
            for (i, row) in t.rows.iter().enumerate() {
                for (j, f) in row.footnotes.iter().enumerate() {
                    if !t.footnotes.iter().any(|n| &n.id == f) {
                        diags.push(
                            Diagnostic::error("dangling-ref", format!("footnote `{f}` is not defined in this table"))
                                .at(e.prov.locate(&format!("/rows/{i}/footnotes/{j}")))
                                .pack(e.pack.clone())
                                .pointer(format!("/rows/{i}/footnotes/{j}"))
                                .expected("the id of an entry of `footnotes`"),
                        );
                    }
                }
            }
        }
        _ => {}
    }
}

/// What a document value refers to: (pointer, kind, id), as `cav_format::refs::references` finds.
type Refs = std::sync::Arc<[(String, DocKind, String)]>;

/// The references of each document value found so far, by the value's address while it lives:
/// a reload shares the values of unchanged files (`Arc`), so it walks again only what changed.
/// The `Weak` keeps the address from being reused, and a value is never changed in place while
/// another pointer to it exists (`Arc::make_mut` moves it away from its `Weak`s).
struct KnownRefs {
    by_value: foldhash::HashMap<usize, (std::sync::Weak<serde_json::Value>, DocKind, Refs)>,
    /// Values that died are dropped when the map reaches this size (a quarter more than lived
    /// then: what dead values hold stays small beside the live).
    prune_at: usize,
}

static KNOWN_REFS: std::sync::LazyLock<std::sync::Mutex<KnownRefs>> =
    std::sync::LazyLock::new(|| std::sync::Mutex::new(KnownRefs { by_value: Default::default(), prune_at: 1024 }));

fn references_of(kind: DocKind, value: &std::sync::Arc<serde_json::Value>) -> Refs {
    let at = std::sync::Arc::as_ptr(value) as usize;
    let known = |k: &KnownRefs| {
        let (w, k, refs) = k.by_value.get(&at)?;
        (*k == kind && w.upgrade().is_some_and(|v| std::sync::Arc::ptr_eq(&v, value))).then(|| refs.clone())
    };
    if let Some(refs) = known(&KNOWN_REFS.lock().unwrap_or_else(|e| e.into_inner())) {
        return refs;
    }
    let refs: Refs =
        cav_format::refs::references(kind, value).into_iter().map(|r| (r.pointer, r.kind, r.id.to_owned())).collect();
    let mut k = KNOWN_REFS.lock().unwrap_or_else(|e| e.into_inner());
    if k.by_value.len() >= k.prune_at {
        k.by_value.retain(|_, (w, _, _)| w.strong_count() > 0);
        k.prune_at = (k.by_value.len() + k.by_value.len() / 4).max(1024);
    }
    k.by_value.insert(at, (std::sync::Arc::downgrade(value), kind, refs.clone()));
    refs
}

/// A note that names a ruleset option must name one that exists.
fn notes_options(rs: &Ruleset, diags: &mut Vec<Diagnostic>) {
    // From the raw values: a ruleset document with another problem still declares its options.
    let options: Vec<String> = rs
        .of_kind(DocKind::Ruleset)
        .filter_map(|r| r.value.get("options").and_then(|o| o.as_array()))
        .flatten()
        .filter_map(|o| o.get("id").and_then(|i| i.as_str()).map(str::to_owned))
        .collect();
    for e in rs.entries() {
        note_options(e, &options, diags);
    }
}

fn note_options(e: &Entry, options: &[String], diags: &mut Vec<Diagnostic>) {
    let Some(notes) = e.value.get("notes").and_then(|n| n.as_array()) else { return };
    for (i, n) in notes.iter().enumerate() {
        if let Some(opt) = n.get("option").and_then(|o| o.as_str())
            && !options.iter().any(|o| o == opt)
        {
            let ptr = format!("/notes/{i}/option");
            diags.push(
                Diagnostic::error("dangling-ref", format!("ruleset option `{opt}` does not exist"))
                    .at(e.prov.locate(&ptr))
                    .pack(e.pack.clone())
                    .pointer(ptr)
                    .expected("the id of an option of the ruleset document")
                    .hint(did_you_mean(opt, options.iter().map(String::as_str))),
            );
        }
    }
}

/// Where a `script:` module's file is, as the script check finds it on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ScriptFile {
    /// A file inside its script root.
    Inside,
    /// A file that resolves (links included) outside its script root.
    Outside(std::path::PathBuf),
    Missing,
}

/// Look for module `module` (`a.b` → `a/b.lua` or `a/b.luau`) in the script roots of `pack`. A
/// module file must resolve (links included) inside its script root, as `require` insists.
fn script_file(pack: &crate::PackInfo, module: &str, roots: &crate::pack::RealDirs) -> ScriptFile {
    let rel = module.replace('.', "/");
    let mut found = ScriptFile::Missing;
    for root in &pack.script_roots {
        for ext in ["lua", "luau"] {
            let rel = std::path::PathBuf::from(format!("{rel}.{ext}"));
            let path = root.join(&rel);
            if !path.is_file() {
                continue;
            }
            if roots.real(root).is_some_and(|r| crate::pack::resolve_inside_below(root, &r, &rel).is_none()) {
                return ScriptFile::Outside(path);
            }
            found = ScriptFile::Inside;
        }
    }
    found
}

/// What the disk says of every `script:` module of the ruleset, in entry order: a reload reuses
/// the ruleset's findings only when this is unchanged (see [`crate::reuse`]).
pub(crate) fn script_files(rs: &Ruleset, disk: &ScriptDisk) -> Vec<ScriptFile> {
    let mut out = Vec::new();
    for e in rs.entries() {
        if e.doc.is_none() {
            continue;
        }
        let Some(module) = e.value.get("script").and_then(|s| s.as_str()) else { continue };
        let Some(pack) = rs.pack(&e.script_pack) else { continue };
        out.push(disk.file(pack, module));
    }
    out
}

/// What one load found on disk of each `script:` module ([`script_file`]), asked once per pack
/// and module however many rulesets and documents name it: each answer takes a few `stat`s and
/// resolves paths (thousands of system calls a reload when asked per document and per ruleset),
/// and one load sees the disk one way.
#[derive(Default)]
pub struct ScriptDisk {
    /// By pack id and module: the pack's script roots asked with, and the answer.
    found: std::sync::Mutex<crate::ruleset::FastMap<(String, String), Found>>,
    /// The script roots, resolved once.
    roots: crate::pack::RealDirs,
}

type Found = (Vec<std::path::PathBuf>, ScriptFile);

impl ScriptDisk {
    pub(crate) fn file(&self, pack: &crate::PackInfo, module: &str) -> ScriptFile {
        let key = (pack.id.clone(), module.to_owned());
        if let Ok(found) = self.found.lock()
            && let Some((roots, file)) = found.get(&key)
            && *roots == pack.script_roots
        {
            return file.clone();
        }
        let file = script_file(pack, module, &self.roots);
        if let Ok(mut found) = self.found.lock() {
            found.insert(key, (pack.script_roots.clone(), file.clone()));
        }
        file
    }
}

/// A `script:` module must exist in the script roots of the pack that defines the document.
fn scripts(rs: &Ruleset, disk: &ScriptDisk, e: &Entry, diags: &mut Vec<Diagnostic>) {
    let Some(module) = e.value.get("script").and_then(|s| s.as_str()) else { return };
    let Some(pack) = rs.pack(&e.script_pack) else { return };
    match disk.file(pack, module) {
        ScriptFile::Inside => {}
        ScriptFile::Outside(path) => diags.push(
            Diagnostic::error(
                "outside-pack",
                format!(
                    "script module `{module}` ({}) leads outside its script root",
                    crate::diag::display_path(&path)
                ),
            )
            .at(e.prov.locate("/script"))
            .pack(e.pack.clone())
            .pointer("/script")
            .expected("a module file inside the pack's script root, not a link out of it"),
        ),
        ScriptFile::Missing => {
            let rel = module.replace('.', "/");
            let roots: Vec<String> = pack.script_roots.iter().map(|r| crate::diag::display_path(r)).collect();
            diags.push(
                Diagnostic::error("script-missing", format!("script module `{module}` not found"))
                    .at(e.prov.locate("/script"))
                    .pack(e.pack.clone())
                    .pointer("/script")
                    .expected(if roots.is_empty() {
                        "a `scripts:` root in pack.yaml holding the module".to_owned()
                    } else {
                        format!("a file `{rel}.lua` in {}", roots.join(", "))
                    }),
            );
        }
    }
}

/// `switched_on: true` asks bots to take the Special action the special attribute's script
/// grants: without a `special_action` hook there is none, and the flag would do nothing unsaid.
fn switched_on(_: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::SpecialAttribute(sa) = doc else { return };
    if sa.switched_on && !(sa.script.is_some() && sa.hooks.contains(&cav_format::HookPoint::SpecialAction)) {
        diags.push(
            Diagnostic::warning(
                "switched-on",
                format!("`switched_on` on special attribute `{}` does nothing: it has no scripted `special_action` handler to switch it on", e.id),
            )
            .at(e.prov.locate("/switched_on"))
            .pack(e.pack.clone())
            .pointer("/switched_on")
            .expected("`special_action` in `hooks:` and a `script:` that handles it"),
        );
    }
}

/// Every per-column value of a data card spells out exactly damage_tracks + 1 columns.
fn damage_track(_: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::Model(m) = doc else { return };
    let dt = &m.damage_track;
    let want = dt.damage_tracks as usize + 1;
    // The pointer is made only for a diagnostic (see `fits`).
    let mut check = |ptr: &dyn Fn() -> String, len: Option<usize>| {
        if let Some(n) = len
            && n != want
        {
            let ptr = ptr();
            diags.push(
                Diagnostic::error(
                    "damage-track",
                    format!(
                        "{n} columns, but the card has {} damage tracks (columns 0–{})",
                        dt.damage_tracks, dt.damage_tracks
                    ),
                )
                .at(e.prov.locate(&ptr))
                .pack(e.pack.clone())
                .pointer(ptr)
                .expected(format!("{want} values, or one value for every column")),
            );
        }
    };
    for (id, values) in &dt.columns {
        check(&|| format!("/damage_track/{id}"), values.columns());
    }
    check(&|| "/damage_track/ccv".into(), dt.ccv.as_ref().and_then(|c| c.columns()));
    for (i, w) in m.weapons.iter().enumerate() {
        check(&|| format!("/weapons/{i}/rav"), w.rav.as_ref().and_then(|c| c.columns()));
    }
    for (i, w) in m.weapons.iter().enumerate() {
        if !w.mount.is_empty() && w.mount.len() as u32 != w.quantity {
            let ptr = format!("/weapons/{i}/mount");
            diags.push(
                Diagnostic::error("damage-track", format!("{} mounts for {} weapons", w.mount.len(), w.quantity))
                    .at(e.prov.locate(&ptr))
                    .pack(e.pack.clone())
                    .pointer(ptr)
                    .expected("one mounting location per weapon"),
            );
        }
    }
}

/// The effects an asset has from a side's hand (SIGINT's cards, a recon drone, field repair, a
/// nano barrier): they mean nothing on a special attribute or upgrade, and an asset has no other
/// `modifiers:`. Either way round the engine would ignore the word: an error.
const HELD_ASSET_EFFECTS: &[ModifierTarget] = &[
    ModifierTarget::DrawDeckCard,
    ModifierTarget::SkipCard,
    ModifierTarget::ReloadAmmoBins,
    ModifierTarget::FieldRepair,
    ModifierTarget::FieldRepairLingering,
    ModifierTarget::LaidWallLength,
    ModifierTarget::LaidWallWidth,
];

fn held_asset_effects(_: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let (modifiers, asset) = match doc {
        Document::Asset(a) => (&a.modifiers, true),
        Document::SpecialAttribute(s) => (&s.modifiers, false),
        Document::Upgrade(u) => (&u.modifiers, false),
        _ => return,
    };
    for (i, m) in modifiers.iter().enumerate() {
        if HELD_ASSET_EFFECTS.contains(&m.target) == asset {
            continue;
        }
        let ptr = format!("/modifiers/{i}/target");
        let (message, expected) = if asset {
            (
                format!("`{}` is not an effect an asset has: the engine would ignore it on asset `{}`", m.target, e.id),
                "an asset's effect from a side's hand: draw_deck_card, skip_card, reload_ammo_bins, field_repair, field_repair_lingering, laid_wall_length, laid_wall_width",
            )
        } else {
            (
                format!(
                    "`{}` is an effect of an asset a side holds: the engine would ignore it on `{}`",
                    m.target, e.id
                ),
                "an effect of a special attribute or upgrade (docs/vocabulary.md)",
            )
        };
        diags.push(
            Diagnostic::error("held-asset-effects", message)
                .at(e.prov.locate(&ptr))
                .pack(e.pack.clone())
                .pointer(ptr)
                .expected(expected),
        );
    }
}

/// A weapon whose special attributes add to its RAV by design (Piercing: `hard_rav`) and whose
/// card prints its RAV: the first column should be the profile's plus the bonus. A card that
/// prints something else is not refused (the book's own cards differ in places) but said.
fn design_rav(rs: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::Model(m) = doc else { return };
    for (i, w) in m.weapons.iter().enumerate() {
        let Some(printed) = w.rav.as_ref().and_then(|c| c.at(0)) else { continue };
        let Some(Document::Weapon(def)) = rs.get(DocKind::Weapon, w.weapon.as_str()).and_then(|x| x.doc.as_deref())
        else {
            continue;
        };
        let bonus = |target: ModifierTarget| -> Option<(i32, Vec<String>)> {
            let mut sum = 0i32;
            let mut names = Vec::new();
            for r in def.special_attributes.iter().chain(&w.special_attributes) {
                let Some(Document::SpecialAttribute(sa)) =
                    rs.get(DocKind::SpecialAttribute, r.id().as_str()).and_then(|x| x.doc.as_deref())
                else {
                    continue;
                };
                for md in sa.modifiers.iter().filter(|md| md.target == target) {
                    let rating = r.rating().unwrap_or(1);
                    sum = sum.saturating_add(if md.per_rating { md.value.saturating_mul(rating) } else { md.value });
                    names.push(sa.name.clone());
                }
            }
            (!names.is_empty()).then_some((sum, names))
        };
        for (target, kind, base, shown) in [
            (ModifierTarget::HardRav, "Hard", def.rav.hard, printed.hard),
            (ModifierTarget::SoftRav, "Soft", def.rav.soft, printed.soft),
        ] {
            let (Some((by, names)), Some(base)) = (bonus(target), base) else { continue };
            let want = (i32::from(base) + by).clamp(0, 255);
            if shown.map(i32::from) == Some(want) {
                continue;
            }
            let ptr = format!("/weapons/{i}/rav");
            let shown = shown.map_or("NA".to_owned(), |v| v.to_string());
            diags.push(
                Diagnostic::warning(
                    "design-rav",
                    format!(
                        "the card prints {kind} RAV {shown} for `{}` in its first column, but the profile's {base} with {} makes {want}",
                        w.weapon.as_str(),
                        names.join(", ")
                    ),
                )
                .at(e.prov.locate(&ptr))
                .pack(e.pack.clone())
                .pointer(ptr)
                .expected(format!("{kind} RAV {want} in the first column, or no `rav:` (the engine adds the bonus to the profile)")),
            );
        }
    }
}

/// Lookup-table rows ascend without gaps or overlaps; only the last may be open-ended.
fn table_rows(_: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::Table(t) = doc else { return };
    let mut next: Option<i32> = None;
    for (i, row) in t.rows.iter().enumerate() {
        let ptr = format!("/rows/{i}");
        let mut bad = |msg: String, expected: String| {
            diags.push(
                Diagnostic::error("table-rows", msg)
                    .at(e.prov.locate(&format!("{ptr}/min")))
                    .pack(e.pack.clone())
                    .pointer(ptr.clone())
                    .expected(expected),
            );
        };
        if let Some(n) = next
            && row.min != n
        {
            bad(format!("row starts at {}, but the previous row ends at {}", row.min, n - 1), format!("min: {n}"));
        }
        match row.max {
            Some(max) if max < row.min => bad(format!("max {max} is below min {}", row.min), "max ≥ min".into()),
            Some(max) => next = Some(max + 1),
            None if i + 1 < t.rows.len() => bad("only the last row may leave out `max`".into(), "a `max` value".into()),
            None => {}
        }
    }
}

/// What a card carries fits it: every special attribute is one for models (`applies_to`), every
/// special attribute of a weapon (the weapon's own, or a mount's) one for weapons, and each
/// special attribute's and weapon's `restriction: {model_types}` admits the model's type.
/// Otherwise the engine would play the word anyway: a weapon SA under a model applies to every
/// weapon of it, a CAV-only SA on infantry plays.
fn fits(rs: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let sa = |id: &str| match rs.get(DocKind::SpecialAttribute, id).and_then(|x| x.doc.as_deref()) {
        Some(Document::SpecialAttribute(s)) => Some(s),
        _ => None,
    };
    // The pointers and names are made only for a diagnostic: this runs for every card of every
    // reload, and nearly always finds nothing.
    let wrong_place =
        |ptr: &dyn Fn() -> String, id: &str, applies: AppliesTo, on: &str, diags: &mut Vec<Diagnostic>| {
            let (is, fits) = match applies {
                AppliesTo::Model => ("a special attribute of models", "under the model's `special_attributes`"),
                AppliesTo::Weapon => ("a special attribute of weapons", "under a weapon's `special_attributes`"),
                AppliesTo::Game => {
                    ("a rule of the whole game", "listed nowhere: it applies to every game of its ruleset")
                }
                AppliesTo::Scenario => ("a scenario's rule", "under a scenario's or a test's `rules:`"),
                AppliesTo::ModelOrWeapon => return,
            };
            let ptr = ptr();
            diags.push(
                Diagnostic::error("applies-to", format!("`{id}` is {is} (its `applies_to`), not of {on}"))
                    .at(e.prov.locate(&ptr))
                    .pack(e.pack.clone())
                    .pointer(ptr)
                    .expected(format!("`{id}` {fits}")),
            );
        };
    match doc {
        Document::Weapon(w) => {
            for (i, s) in w.special_attributes.iter().enumerate() {
                if let Some(x) = sa(s.id().as_str())
                    && matches!(x.applies_to, AppliesTo::Model | AppliesTo::Game | AppliesTo::Scenario)
                {
                    let ptr = || format!("/special_attributes/{i}");
                    wrong_place(&ptr, s.id().as_str(), x.applies_to, "weapons", diags);
                }
            }
        }
        Document::Model(m) => {
            let ty = &m.model_type;
            let restricted =
                |ptr: &dyn Fn() -> String, what: &dyn Fn() -> String, r: &Restriction, diags: &mut Vec<Diagnostic>| {
                    if r.model_types.is_empty() || r.model_types.contains(ty) {
                        return;
                    }
                    let types: Vec<&str> = r.model_types.iter().map(|t| t.id()).collect();
                    let ptr = ptr();
                    diags.push(
                    Diagnostic::error(
                        "restriction",
                        format!(
                            "{} is restricted to {} models (its `restriction: {{model_types}}`); `{}` is of type {}",
                            what(),
                            types.join(", "),
                            e.id,
                            ty.id()
                        ),
                    )
                    .at(e.prov.locate(&ptr))
                    .pack(e.pack.clone())
                    .pointer(ptr)
                    .expected(format!("a special attribute or weapon that a model of type {} may carry", ty.id())),
                );
                };
            for (i, s) in m.special_attributes.iter().enumerate() {
                let Some(x) = sa(s.id().as_str()) else { continue };
                let ptr = || format!("/special_attributes/{i}");
                if matches!(x.applies_to, AppliesTo::Weapon | AppliesTo::Game | AppliesTo::Scenario) {
                    wrong_place(&ptr, s.id().as_str(), x.applies_to, "models", diags);
                }
                restricted(&ptr, &|| format!("special attribute `{}`", s.id()), &x.restriction, diags);
            }
            for (i, mount) in m.weapons.iter().enumerate() {
                if let Some(Document::Weapon(w)) =
                    rs.get(DocKind::Weapon, mount.weapon.as_str()).and_then(|x| x.doc.as_deref())
                {
                    restricted(
                        &|| format!("/weapons/{i}/weapon"),
                        &|| format!("weapon `{}`", mount.weapon),
                        &w.restriction,
                        diags,
                    );
                }
                for (j, s) in mount.special_attributes.iter().enumerate() {
                    let Some(x) = sa(s.id().as_str()) else { continue };
                    let ptr = || format!("/weapons/{i}/special_attributes/{j}");
                    if matches!(x.applies_to, AppliesTo::Model | AppliesTo::Game | AppliesTo::Scenario) {
                        wrong_place(&ptr, s.id().as_str(), x.applies_to, "weapons", diags);
                    }
                    restricted(&ptr, &|| format!("special attribute `{}`", s.id()), &x.restriction, diags);
                }
            }
        }
        _ => {}
    }
}

/// A model's `faction:` names a faction of the ruleset (by id, name or another name, as rosters
/// read it), so a misspelt faction is found when the card is written, not when a roster fields it.
fn faction(factions: &Factions, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::Model(m) = doc else { return };
    if factions.names.contains(&normalise_name(&m.faction)) {
        return;
    }
    let hint = if factions.all.is_empty() {
        Some("this ruleset declares no factions: add a `kind: faction` document (`cav new faction`)".to_owned())
    } else {
        did_you_mean(&m.faction, factions.all.iter().map(|f| f.name.as_str())).or_else(|| {
            let names: Vec<&str> = factions.all.iter().map(|f| f.name.as_str()).collect();
            Some(format!("the ruleset's factions: {}", names.join(", ")))
        })
    };
    diags.push(
        Diagnostic::error("dangling-ref", format!("faction `{}` does not exist", m.faction))
            .at(e.prov.locate("/faction"))
            .pack(e.pack.clone())
            .pointer("/faction")
            .expected("the id, name or another name (`also_called`) of a faction document")
            .hint(hint)
            .missing(DocKind::Faction, &m.faction),
    );
}

/// The ruleset's factions and every name a model's `faction:` may give them, normalised as
/// [`crate::ruleset::names_faction`] compares them: made once per check of a ruleset, not once
/// per model (comparing each model with every name was a few % of a save's reload).
struct Factions<'a> {
    all: Vec<&'a Faction>,
    names: foldhash::HashSet<String>,
}

impl<'a> Factions<'a> {
    fn of(rs: &'a Ruleset) -> Self {
        let all: Vec<&Faction> = rs
            .of_kind(DocKind::Faction)
            .filter_map(|x| match x.doc.as_deref()? {
                Document::Faction(f) => Some(f),
                _ => None,
            })
            .collect();
        let names = all
            .iter()
            .flat_map(|f| [f.id.as_str(), f.name.as_str()].into_iter().chain(f.also_called.iter().map(String::as_str)))
            .map(normalise_name)
            .collect();
        Factions { all, names }
    }
}

/// `activations:` counts only with `duration: activations`, `turns:` only with `duration: turns`:
/// elsewhere the engine would ignore the number.
fn state_counts(_: &Ruleset, e: &Entry, doc: &Document, diags: &mut Vec<Diagnostic>) {
    let Document::ModelState(s) = doc else { return };
    for (key, given, with) in [
        ("activations", s.activations.is_some(), StateDuration::Activations),
        ("turns", s.turns.is_some(), StateDuration::Turns),
    ] {
        if given && s.duration != with {
            let ptr = format!("/{key}");
            diags.push(
                Diagnostic::error(
                    "state-duration",
                    format!(
                        "`{key}:` counts only for `duration: {key}`: the engine would ignore it on state `{}`",
                        e.id
                    ),
                )
                .at(e.prov.locate(&ptr))
                .pack(e.pack.clone())
                .pointer(ptr)
                .expected(format!("`duration: {key}`, or no `{key}:`")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    /// The references kept for a value are its own: the same value is answered from what was
    /// found, a changed one (a new value, or one changed in place) is walked again.
    #[test]
    fn kept_references_follow_the_value() {
        let weapon = |id: &str| serde_json::json!({"weapons": [{"weapon": id}]});
        let ids = |r: &Refs| r.iter().map(|(_, _, id)| id.clone()).collect::<Vec<_>>();
        let mut v = Arc::new(weapon("medium-mac"));
        let first = references_of(DocKind::Model, &v);
        assert_eq!(ids(&first), ["medium-mac"]);
        assert!(Arc::ptr_eq(&first, &references_of(DocKind::Model, &v)), "the same value is not walked again");
        assert!(references_of(DocKind::Weapon, &v).is_empty(), "another kind declares other references");
        *Arc::make_mut(&mut v) = weapon("heavy-mac");
        assert_eq!(ids(&references_of(DocKind::Model, &v)), ["heavy-mac"]);
        for i in 0..10_000 {
            // Values dropped and made again (addresses reused where the allocator may).
            let w = Arc::new(weapon(&format!("w{i}")));
            assert_eq!(ids(&references_of(DocKind::Model, &w)), [format!("w{i}")]);
        }
        assert!(KNOWN_REFS.lock().unwrap().by_value.len() <= 20_000, "dead values are dropped");
    }
}
