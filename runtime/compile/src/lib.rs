//! Compile a loaded [`Ruleset`] into the engine's [`Rules`].
//!
//! Compiling is part of validation: `cav validate`, `cav watch` and every command that plays run
//! it, and everything it finds is a [`Diagnostic`] located at the document, JSON pointer and pack
//! that caused it — never an unlocated string. Like the loader, it does not stop at the first
//! problem: it returns every diagnostic, and the rules only when there was no error.
//!
//! One module per part of the ruleset: `tables` (range bands, modifier and lookup tables),
//! `catalog` (model states, special attributes and upgrades, terrain), `assets` (battlefield
//! assets), `strikes` (strike packages), `procedures` (the typed procedure sections, model types,
//! actions, options), `cards` (models as the engine plays them), `scenarios` and `tests` (what
//! scenario tests name must exist). Words of the vocabulary (condition ids and the like) are
//! checked by the loader's vocabulary pass; here they are only resolved.

mod assets;
mod attributes;
pub mod behaviour;
mod cards;
pub use cards::scale_for_a_small_table;
mod catalog;
mod conditions;
mod model_types;
mod procedures;
mod required;
mod scenarios;
mod strikes;
mod tables;
mod tests;

use cav_content::Ruleset;
use cav_content::diag::Diagnostic;
use cav_content::ruleset::Entry;
use cav_format::{DocKind, Document, ModifierConvention};
use cav_rules::DiceExpr;
use cav_rules::compile::{AssetDef, CardDef, Proc, Rules, SaDef, SaIx, StrikeDef, TargetOdds};

/// The result of compiling one ruleset.
#[derive(Debug)]
pub struct Compiled {
    /// The rules, when nothing was an error.
    pub rules: Option<Rules>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Compile the ruleset whose ruleset document is `rs.id`.
pub fn compile(rs: &Ruleset) -> Compiled {
    let mut cx = Cx { rs, diags: Vec::new(), errors: 0, types: Vec::new(), rav: None, tables: Vec::new() };
    let rules = build(&mut cx);
    Compiled { rules: rules.filter(|_| cx.errors == 0), diagnostics: cx.diags }
}

/// Everything `cav validate` checks beyond loading: compile every ruleset of `loaded` and check
/// its scripts (syntax, handlers, declared hooks), adding the diagnostics to `loaded` (sorted and
/// deduplicated). Returns the rules of each ruleset, in `loaded.rulesets` order, where they
/// compiled without error.
pub fn validate(loaded: &mut cav_content::Loaded) -> Vec<Option<Rules>> {
    validate_parts(loaded).owned_rules()
}

/// What [`validate`] found, kept apart so that a reload that changes only script files can check
/// the scripts again and put the diagnostics together exactly as `validate` would have
/// ([`Validated::assemble`]), without compiling again.
#[derive(Debug, Clone)]
pub struct Validated {
    /// The rules of each ruleset, in `loaded.rulesets` order, where they compiled without error
    /// (shared with the [`Memo`] that keeps them for the next reload).
    pub rules: Vec<Option<std::sync::Arc<Rules>>>,
    /// The loader's diagnostics (before `validate` added its own).
    pub loader: Vec<Diagnostic>,
    /// Per ruleset, in `loaded.rulesets` order: compile, scripts, forces and unplayed entries.
    pub parts: Vec<[Vec<Diagnostic>; 4]>,
    /// The packs asked for (their warnings show; the library's do not).
    pub requested: Vec<String>,
}

/// Index of the script diagnostics in [`Validated::parts`].
pub const SCRIPT_PART: usize = 1;

impl Validated {
    /// Whether a finding depends on the moment of the run rather than on the content (a type
    /// checker that could not run or finish, a script stopped by the sandbox's clock): counted
    /// over every finding, before those about the library are left out of the report, since a
    /// library's check that could not run leaves out findings that would have shown. A result
    /// with such a finding is not kept in `cav`'s cache.
    /// The rules of each ruleset, owned (the parts' copies are shared with nothing else).
    pub fn owned_rules(self) -> Vec<Option<Rules>> {
        let rules = self.rules;
        rules.into_iter().map(|r| r.map(|r| std::sync::Arc::try_unwrap(r).unwrap_or_else(|r| (*r).clone()))).collect()
    }

    pub fn transient(&self) -> bool {
        self.loader.iter().chain(self.parts.iter().flatten().flatten()).any(|d| d.transient)
    }

    /// The diagnostics `validate` leaves in `loaded.diagnostics`, from the parts: the same order
    /// before deduplication, so the same duplicate is kept.
    pub fn assemble(&self, sources: &cav_content::diag::Sources) -> Vec<Diagnostic> {
        // Warnings about the library (packs loaded only because a requested pack builds on them)
        // are not the author's to fix, as for the loader's own checks; errors always show, since
        // they stop the ruleset the requested packs play in.
        let shown = |d: &&Diagnostic| {
            d.severity == cav_content::diag::Severity::Error
                || d.pack.as_deref().is_none_or(|p| self.requested.iter().any(|r| r == p))
        };
        let mut all = self.loader.clone();
        all.extend(self.parts.iter().flatten().flatten().filter(shown).cloned());
        cav_content::diag::normalise(&mut all, sources);
        all
    }
}

/// [`validate`], keeping its parts apart (see [`Validated`]).
pub fn validate_parts(loaded: &mut cav_content::Loaded) -> Validated {
    validate_inner(loaded, None)
}

/// What [`validate_parts_with`] found for each ruleset of the last load, so that a reload takes
/// again the findings of a ruleset that did not change (watch mode).
#[derive(Default)]
pub struct Memo {
    rulesets: Vec<Checked>,
    /// Of the last call: rulesets whose compile findings were taken again, and whose script
    /// findings were.
    reused: usize,
    replayed: usize,
}

impl Memo {
    /// How many rulesets of the last [`validate_parts_with`] were taken again without compiling
    /// them, and how many without checking their scripts.
    pub fn reused(&self) -> (usize, usize) {
        (self.reused, self.replayed)
    }
}

/// One ruleset as it was checked: what compiling it gave (compile, forces and unplayed entries
/// read only the ruleset) and what its script check read and found.
#[derive(Clone)]
struct Checked {
    ruleset: Ruleset,
    rules: Option<std::sync::Arc<Rules>>,
    compile: Vec<Diagnostic>,
    forces: Vec<Diagnostic>,
    unplayed: Vec<Diagnostic>,
    scripts: Option<cav_script::ScriptsChecked>,
}

/// [`validate_parts`], taking again from `memo` the findings of each ruleset that is the same as
/// in the last load ([`Ruleset::same_as`]; its scripts only when no file under its script roots
/// changed), and keeping this load's findings in `memo` for the next. Gives what
/// [`validate_parts`] gives.
pub fn validate_parts_with(loaded: &mut cav_content::Loaded, memo: &mut Memo) -> Validated {
    validate_inner(loaded, Some(memo))
}

fn validate_inner(loaded: &mut cav_content::Loaded, mut memo: Option<&mut Memo>) -> Validated {
    use rayon::prelude::*;
    let last = memo.as_mut().map(|m| std::mem::take(&mut m.rulesets)).unwrap_or_default();
    let keep = memo.is_some();
    let (rulesets, sources) = (&loaded.rulesets, &mut loaded.sources);
    let kept: Vec<Option<&Checked>> = rulesets.iter().map(|rs| last.iter().find(|c| c.ruleset.same_as(rs))).collect();
    // The script checks add the script files to `sources`, so they run one ruleset after the
    // other (the files get the same ids whatever the thread count); the rest only reads the
    // ruleset and runs beside them. The diagnostics are then taken in the order they always were.
    type Scripts = (Vec<Diagnostic>, Option<cav_script::ScriptsChecked>);
    let mut replayed = 0;
    let (scripts, compiled): (Vec<Scripts>, Vec<_>) = rayon::join(
        || {
            rulesets
                .iter()
                .map(|rs| {
                    if !keep {
                        return (cav_script::check_scripts(rs, sources), None);
                    }
                    // Kept by what the check reads: a ruleset whose models changed may have the
                    // same scripts, script roots and ids as before.
                    let inputs = cav_script::ScriptInputs::of(rs);
                    let old = last.iter().filter_map(|c| c.scripts.as_ref());
                    match old.clone().find_map(|s| s.replay(&inputs, sources).map(|d| (d, s))) {
                        Some((diags, s)) => {
                            replayed += 1;
                            (diags, Some(s.clone()))
                        }
                        None => cav_script::check_scripts_kept(inputs, sources),
                    }
                })
                .collect()
        },
        || {
            rulesets
                .par_iter()
                .zip(&kept)
                .map(|(rs, k)| match k {
                    Some(k) => (k.rules.clone(), k.compile.clone(), k.forces.clone(), k.unplayed.clone()),
                    None => {
                        // A save rebuilds one ruleset: its checks share the cores.
                        let (c, (forces, unplayed)) =
                            rayon::join(|| compile(rs), || (check_forces(rs), unplayed_entries(rs)));
                        (c.rules.map(std::sync::Arc::new), c.diagnostics, forces, unplayed)
                    }
                })
                .collect()
        },
    );
    let mut parts = Vec::new();
    let mut rules = Vec::new();
    for (((r, compile_diags, forces, unplayed), (script_diags, scripts)), rs) in
        compiled.into_iter().zip(scripts).zip(rulesets)
    {
        if let Some(m) = memo.as_mut() {
            m.rulesets.push(Checked {
                ruleset: rs.clone(),
                rules: r.clone(),
                compile: compile_diags.clone(),
                forces: forces.clone(),
                unplayed: unplayed.clone(),
                scripts,
            });
        }
        parts.push([compile_diags, script_diags, forces, unplayed]);
        rules.push(r);
    }
    if let Some(m) = memo.as_mut() {
        m.reused = kept.iter().flatten().count();
        m.replayed = replayed;
    }
    let requested = loaded.packs.iter().map(|p| p.id.clone()).collect();
    let v = Validated { rules, loader: std::mem::take(&mut loaded.diagnostics), parts, requested };
    loaded.diagnostics = v.assemble(&loaded.sources);
    v
}

/// The rosters (`kind: force`) a ruleset's packs carry, held to its force-building rules. A
/// ruleset that does not build forces (the Quick-Start) does not check them: its scenarios fix
/// their forces, and a roster of a mod that joins both rulesets is for the other one.
fn check_forces(rs: &Ruleset) -> Vec<Diagnostic> {
    if cav_forces::force_rules(rs).is_none() {
        return Vec::new();
    }
    let mut out = cav_forces::check_ruleset(rs);
    for e in rs.of_kind(cav_format::DocKind::Force) {
        if let Some(cav_format::Document::Force(f)) = e.doc.as_deref() {
            out.extend(cav_forces::check(rs, f, &|p| e.prov.locate(p), Some(&e.pack)));
        }
    }
    out
}

/// Whether `text` cites a line of a source text: `L` then digits (`001 L7608`, `L8604-8606`).
fn cites_a_line(text: &str) -> bool {
    text.match_indices('L').any(|(i, _)| text[i + 1..].starts_with(|c: char| c.is_ascii_digit()))
}

/// A catalog entry nothing plays (no script, no modifier the engine applies, no rule document
/// naming it) is a warning at its document, so a card carrying it is never quietly weaker than
/// the book says. `cav coverage` gives the whole map.
fn unplayed_entries(rs: &Ruleset) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let index = behaviour::Mentions::of(rs);
    for kind in behaviour::CATALOG_KINDS {
        for e in rs.of_kind(kind) {
            let b = behaviour::behaviour_in(rs, e, &index);
            // A limit of the book is shown as one only with the line where the book stops.
            let notes = e.value.get("notes").and_then(|n| n.as_array()).map(Vec::as_slice).unwrap_or(&[]);
            for (i, n) in notes.iter().enumerate() {
                let text = n.get("text").and_then(|t| t.as_str()).unwrap_or_default();
                if n.get("kind").and_then(|k| k.as_str()) == Some("book_silent") && !cites_a_line(text) {
                    let ptr = format!("/notes/{i}/text");
                    out.push(
                        Diagnostic::error(
                            "book-silent-uncited",
                            "a `book_silent` note says where the book stops: it cites the line (`001 L7608`)"
                                .to_owned(),
                        )
                        .at(e.prov.locate(&ptr))
                        .pack(e.pack.clone())
                        .pointer(&ptr)
                        .expected("a citation such as `001 L7608` in the note's text"),
                    );
                }
            }
            if b.played() {
                // What its notes say is not played yet (`kind: unplayed`).
                let notes = e.value.get("notes").and_then(|n| n.as_array()).map(Vec::as_slice).unwrap_or(&[]);
                for (i, n) in notes.iter().enumerate() {
                    if n.get("kind").and_then(|k| k.as_str()) == Some("unplayed") {
                        let ptr = format!("/notes/{i}");
                        let text = n.get("text").and_then(|t| t.as_str()).unwrap_or_default().trim();
                        out.push(
                            Diagnostic::warning(
                                "not-implemented",
                                format!(
                                    "{} `{}` is played in part; not yet: {text}",
                                    kind.tag().replace('_', " "),
                                    e.id
                                ),
                            )
                            .at(e.prov.locate(&ptr))
                            .pack(e.pack.clone())
                            .pointer(&ptr),
                        );
                    }
                }
                continue;
            }
            let ptr = if e.value.get("hooks").is_some() { "/hooks" } else { "" };
            let why = match b.gaps.is_empty() {
                true => "it has no script, no modifier the engine applies, and no rule document names it".to_owned(),
                false => b.gaps.join("; "),
            };
            out.push(
                Diagnostic::warning(
                    "not-implemented",
                    format!("{} `{}` is not played yet: {why}", kind.tag().replace('_', " "), e.id),
                )
                .at(e.prov.locate(ptr))
                .pack(e.pack.clone())
                .pointer(ptr),
            );
        }
    }
    out
}

/// Compile, or say why not in one message (for tests, benchmarks and examples).
pub fn compile_rules(rs: &Ruleset) -> Result<Rules, String> {
    let c = compile(rs);
    c.rules.ok_or_else(|| {
        let msgs: Vec<String> = c
            .diagnostics
            .iter()
            .filter(|d| d.severity == cav_content::diag::Severity::Error)
            .map(|d| format!("{}: {}", d.pointer.as_deref().unwrap_or(""), d.message))
            .collect();
        if msgs.is_empty() { "the ruleset has errors the loader reported".to_owned() } else { msgs.join("; ") }
    })
}

/// The compiler's context: the ruleset and what it found.
pub(crate) struct Cx<'a> {
    pub rs: &'a Ruleset,
    pub diags: Vec<Diagnostic>,
    errors: usize,
    /// The model types the ruleset declares, in `TypeIx` order.
    pub types: Vec<String>,
    /// The weapon attribute with `role: rav`, whose value no term reads (it depends on the target).
    pub rav: Option<String>,
    /// The tables rows and the attack roll on, by their index in `Rules::lookup_tables`
    /// (`tables::table_ix`), compiled once everything that names them is (`tables::lookup_tables`).
    pub tables: Vec<String>,
}

impl<'a> Cx<'a> {
    /// The declared model type a pack names (an undeclared word is `model_types::check`'s error).
    pub fn type_ix(&self, ty: &cav_format::ModelType) -> Option<cav_rules::compile::TypeIx> {
        self.types.iter().position(|t| *t == ty.0).map(|i| cav_rules::compile::TypeIx(i as u8))
    }

    /// The declared model types of a list a pack gives.
    pub fn type_ixs(&self, list: &[cav_format::ModelType]) -> Vec<cav_rules::compile::TypeIx> {
        list.iter().filter_map(|t| self.type_ix(t)).collect()
    }

    /// An error at `ptr` of document `e`.
    pub fn error(
        &mut self,
        e: &Entry,
        ptr: &str,
        code: &'static str,
        message: String,
        expected: &str,
        hint: Option<String>,
    ) {
        self.errors += 1;
        self.diags.push(
            Diagnostic::error(code, message)
                .at(e.prov.locate(ptr))
                .pack(e.pack.clone())
                .pointer(ptr)
                .expected(expected)
                .hint(hint),
        );
    }

    /// A document the loader already reported as missing or invalid: the rules cannot be built,
    /// but there is nothing new to say.
    pub fn fail_quietly(&mut self) {
        self.errors += 1;
    }

    /// The decoded document `kind`/`id`, if it exists and is valid.
    pub fn doc(&self, kind: DocKind, id: &str) -> Option<&'a Document> {
        self.rs.get(kind, id).and_then(|e| e.doc.as_deref())
    }

    /// Parse a dice expression at `ptr` of `e`.
    pub fn dice(&mut self, e: &Entry, ptr: &str, text: &str) -> DiceExpr {
        DiceExpr::parse(text).unwrap_or_else(|why| {
            self.error(
                e,
                ptr,
                "dice",
                format!("`{text}` is not a dice expression: {why}"),
                "a dice expression such as `2d6`, `1d10`, `3d6kh2`, `1d6x` or `6d6cs>=4`",
                None,
            );
            DiceExpr::plain(2, 6)
        })
    }

    /// The position of `id` in `ids`, or an error at `ptr` naming what was expected.
    /// `ptr` is written out only for the error (a pointer is made for every reference checked).
    pub fn index_of(
        &mut self,
        e: &Entry,
        ptr: impl std::fmt::Display,
        id: &str,
        ids: &[String],
        what: &str,
    ) -> Option<usize> {
        let found = ids.iter().position(|x| x == id);
        if found.is_none() {
            self.error(
                e,
                &ptr.to_string(),
                "dangling-ref",
                format!("{what} `{id}` does not exist"),
                &format!("the id of a {what}"),
                cav_content::diag::did_you_mean(id, ids.iter().map(String::as_str)),
            );
        }
        found
    }
}

fn build(cx: &mut Cx) -> Option<Rules> {
    let rs = cx.rs;
    let Some(entry) = rs.get(DocKind::Ruleset, &rs.id) else {
        // A ruleset pack without its ruleset document cannot be played: said, not left to `cav play`.
        cx.errors += 1;
        cx.diags.push(
            Diagnostic::error(
                "ruleset-missing",
                format!("ruleset pack `{}` has no `ruleset` document with id `{}`: it cannot be played", rs.id, rs.id),
            )
            .pack(&rs.id)
            .expected(format!("a document `kind: ruleset` with `id: {}` in the pack", rs.id)),
        );
        return None;
    };
    let Some(Document::Ruleset(ruleset)) = entry.doc.as_deref() else {
        cx.fail_quietly();
        return None;
    };
    cx.types = ruleset.model_types.keys().map(|t| t.0.clone()).collect();
    model_types::check(cx, entry, ruleset);
    let sign = match ruleset.modifier_convention {
        ModifierConvention::Roll => 1,
        ModifierConvention::TargetPoint => -1,
    };
    let standard = cx.dice(entry, "/dice/standard", &ruleset.dice.standard);
    let drift = ruleset.dice.drift.as_deref().map(|d| cx.dice(entry, "/dice/drift", d));

    let (bands, band_ids, indirect_tp) = tables::range_bands(cx, ruleset);
    let states = catalog::states(cx, sign);
    let names = conditions::Names::new(rs, band_ids.clone());
    let (sas, upgrades) = catalog::special_attributes(cx, &names);
    let tables = tables::roll_tables(cx, entry, ruleset, sign, &names);
    let move_classes: Vec<String> = rs.of_kind(DocKind::MoveClass).map(|e| e.id.clone()).collect();
    let hexes = board(cx, entry, &ruleset.board);
    defense_arcs(cx, entry, &ruleset.procedures.sight.defense_arcs);
    let (terrains, mv_parts) = catalog::terrains(cx, &move_classes, &sas, hexes.is_some());
    let (mut assets, asset_cards) = assets::assets(cx, &terrains, &sas, &names);
    let mut proc = procedures::procedures(cx, entry, ruleset, &names, &band_ids, &terrains);
    let (models, mut cards) = cards::cards(cx, &sas, &move_classes, ruleset, &proc, &names);
    emplacements(cx, &models, &mut cards, &assets);
    let (attributes, weapon_attributes, weapon_rav) = attributes::attributes(cx, entry, ruleset, &models, &mut cards);
    cx.rav = weapon_rav.map(|i| weapon_attributes[i].clone());
    append_asset_cards(&mut assets, &mut cards, asset_cards);
    let mut strikes = strikes::strikes(cx, &sas);
    strikes::missiles(cx, &mut strikes, &mut cards);
    let ForceBuildingSas { strike_caller, asset_user, unique_sa, reserved, c3_sa } =
        ForceBuildingSas::of(ruleset, &sas);
    arm_cards(&mut proc, &sas, &mut cards, &strikes, strike_caller);
    let preset = ruleset.dice.preset_tp.as_deref().map(|d| cx.dice(entry, "/dice/preset_tp", d));
    let scenarios = scenarios::scenarios(cx, &models, &terrains, hexes.as_ref(), &sas);
    let action_costs = procedures::action_costs(rs);
    let has_charge = ruleset.procedures.charge.is_some();
    let own_actions = procedures::own_actions(cx, &states, &attributes, &weapon_attributes, has_charge);
    let (action_slots, slot_uses) = procedures::action_slots(cx, rs, ruleset);
    let reaction_slots = procedures::reaction_slots(cx, entry, ruleset, &action_slots);
    let action_free_with = procedures::action_free_with(rs, &sas);
    let action_model_types = procedures::action_model_types(cx, &sas);
    let engine_options = procedures::engine_options(ruleset);
    if engine_options.small_table {
        match &ruleset.procedures.small_table {
            Some(small) => cards::scale_for_a_small_table(&mut cards, small),
            None => cx.error(
                entry,
                "/options",
                "small-table",
                "option `table-size: small` is chosen, but the ruleset does not say how move values and ranges scale"
                    .into(),
                "a `procedures.small_table: {scale, rounding}` section",
                None,
            ),
        }
    }
    let c3 = procedures::c3(cx, entry, ruleset, &names);
    let (roll_kinds, contests) = procedures::roll_kinds(cx, entry, ruleset);
    procedures::engine_rolls(cx, entry, ruleset, standard, &roll_kinds, &mut proc);
    let attack =
        procedures::attack(cx, entry, ruleset, &roll_kinds, &contests, &attributes, &weapon_attributes, &names);
    let melee = procedures::melee(cx, entry, ruleset, &roll_kinds, &attributes, &weapon_attributes, &names);
    procedures::recovery(cx, entry, ruleset, &roll_kinds, &attributes, &mut proc);
    tests::check(cx);
    let lookup_tables = tables::lookup_tables(cx, sign, &names);
    let action_points_by = ruleset.action_points_by.as_ref().and_then(|by| {
        let ix = cx.index_of(
            entry,
            "/action_points_by/attribute",
            &by.attribute.0,
            &attributes,
            "attribute of the ruleset's `attributes:`",
        )?;
        for (i, pair) in by.steps.windows(2).enumerate() {
            if pair[0].at_most.is_none_or(|a| pair[1].at_most.is_some_and(|b| b <= a)) {
                cx.error(
                    entry,
                    &format!("/action_points_by/steps/{}/at_most", i + 1),
                    "action-points",
                    "the steps do not rise: each covers values above the one before".into(),
                    "an `at_most` above the step before's; only the last step may leave it out",
                    None,
                );
            }
        }
        if by.steps.last().is_some_and(|s| s.at_most.is_some()) {
            cx.error(
                entry,
                &format!("/action_points_by/steps/{}/at_most", by.steps.len() - 1),
                "action-points",
                "the last step has an `at_most`: a higher value would have no action points".into(),
                "a last step without `at_most` (any higher value)",
                None,
            );
        }
        for (i, s) in by.steps.iter().enumerate() {
            if !(0..=i64::from(ruleset.action_points)).contains(&i64::from(s.value)) {
                cx.error(
                    entry,
                    &format!("/action_points_by/steps/{i}/value"),
                    "action-points",
                    format!("{} action points, where the ruleset's most is {}", s.value, ruleset.action_points),
                    &format!("0 to `action_points` ({})", ruleset.action_points),
                    None,
                );
            }
        }
        let steps = by.steps.iter().map(|s| (s.at_most, s.value.max(0).unsigned_abs().min(ruleset.action_points)));
        Some(cav_rules::compile::ActionPointsBy { attribute: ix, steps: steps.collect() })
    });
    let attribute_bounds =
        ruleset.attributes.iter().map(|a| (a.min.unwrap_or(i32::MIN), a.max.unwrap_or(i32::MAX))).collect();

    let squad_types = squad_types(rs);
    let mut rules = Rules {
        id: ruleset.id.0.clone(),
        name: ruleset.name.clone(),
        action_points: ruleset.action_points,
        action_points_by,
        squad_types,
        activation: ruleset.activation,
        turn: procedures::turn(cx, entry, ruleset),
        // (Filled in below, once the roll kinds judging the engine's rolls are known.)
        engine_odds: Default::default(),
        standard_odds: Default::default(),
        standard,
        drift,
        attributes,
        weapon_attributes,
        weapon_rav,
        hexes,
        mv_parts,
        attack,
        melee,
        roll_kinds,
        contests,
        turn_limit: ruleset.turn_limit,
        point_blank: ruleset.point_blank,
        bands,
        indirect_tp,
        combat_mods: tables.combat,
        indirect_mods: tables.indirect,
        strike_point_mods: tables.strike_point,
        strike_package_mods: tables.strike_package,
        pilot_mods: tables.pilot,
        close_combat_mods: tables.close_combat,
        break_mods: tables.break_away,
        damage_roll_mods: tables.damage_roll,
        damage: tables.damage,
        close_combat_damage: tables.close_combat_damage,
        critical: tables.critical,
        random_terrain: tables.random_terrain,
        victory_levels: tables.victory_levels,
        structure_damage: tables.structure_damage,
        structure_critical: tables.structure_critical,
        lookup_tables,
        attribute_bounds,
        states,
        move_classes,
        terrains,
        sas,
        upgrades,
        assets,
        cards,
        strikes,
        strike_caller,
        asset_user,
        unique_sa,
        reserved,
        c3_sa,
        preset,
        scenarios,
        proc,
        sign,
        engine_options,
        features: ruleset.features.clone(),
        c3,
        options: ruleset.options.iter().map(|o| (o.id.0.clone(), o.default.0.clone())).collect(),
        action_costs,
        own_actions,
        terrain_values: ruleset.terrain_values.iter().map(|v| v.name.clone()).collect(),
        terrain_value_ids: ruleset.terrain_values.iter().map(|v| v.id.0.clone()).collect(),
        action_slots,
        slot_uses,
        reaction_slots,
        reaction_windows: ruleset.reaction_windows.clone(),
        action_free_with,
        marks_targeted: action_model_types.values().any(|t| t.not_if_targeted),
        action_model_types,
    };
    let tps = rules.bands.iter().flat_map(|b| [b.combat_tp, b.strike_point_tp]).chain([rules.indirect_tp]);
    rules.engine_odds = TargetOdds::new(&rules, tps.collect::<Vec<_>>());
    unlisted_features(cx, entry, &rules);
    required::check(cx, entry, ruleset, &names, &rules);
    Some(rules)
}

/// A feature the ruleset's `features:` leaves out while its data configures it would leave that
/// data quietly unplayed: an error at the list.
fn unlisted_features(cx: &mut Cx, entry: &Entry, rules: &Rules) {
    let Some(listed) = &rules.features else { return };
    for f in cav_rules::game::features::ALL {
        if let Some(what) = (f.configured_by)(rules).filter(|_| !listed.contains(&f.word)) {
            cx.error(
                entry,
                "/features",
                "feature-unlisted",
                format!("{what} configures the feature `{}`, which the ruleset's `features:` leaves out", f.word),
                "every feature its data configures listed",
                Some(format!("add `{}` to `features:`, or remove what configures it", f.word)),
            );
        }
    }
}

/// Cards that are an asset's weapon emplacement.
fn emplacements(cx: &mut Cx, models: &[(String, cav_format::Model)], cards: &mut [CardDef], assets: &[AssetDef]) {
    for ((_, m), card) in models.iter().zip(cards.iter_mut()) {
        let Some(a) = &m.emplacement else { continue };
        card.emplacement = assets.iter().position(|x| x.id == a.as_str() && x.emplacement_ap.is_some());
        if card.emplacement.is_none()
            && assets.iter().any(|x| x.id == a.as_str())
            && let Some(e) = cx.rs.get(DocKind::Model, &card.id)
        {
            cx.error(
                e,
                "/emplacement",
                "emplacement",
                format!("asset `{a}` is not a weapon emplacement (it has no `emplacement:`)"),
                "an asset with `emplacement:`",
                None,
            );
        }
    }
}

/// The cards of assets that attack on their own follow the models' cards.
fn append_asset_cards(assets: &mut [AssetDef], cards: &mut Vec<CardDef>, asset_cards: Vec<CardDef>) {
    for a in assets.iter_mut() {
        if let Some((_, _, card)) = &mut a.mines {
            *card += cards.len();
        }
    }
    cards.extend(asset_cards);
}

/// The special attributes force building names (`force_building:` of the ruleset), resolved.
struct ForceBuildingSas {
    strike_caller: Option<SaIx>,
    asset_user: Option<SaIx>,
    unique_sa: Option<SaIx>,
    reserved: Vec<(SaIx, String)>,
    c3_sa: Option<SaIx>,
}

impl ForceBuildingSas {
    fn of(ruleset: &cav_format::Ruleset, sas: &[SaDef]) -> ForceBuildingSas {
        let strike_caller = ruleset
            .force_building
            .as_ref()
            .and_then(|f| sas.iter().position(|s| s.id == f.strike_caller_sa.as_str()))
            .map(|i| i as cav_rules::compile::SaIx);
        let asset_user = ruleset
            .force_building
            .as_ref()
            .and_then(|f| sas.iter().position(|s| s.id == f.asset_user_sa.as_str()))
            .map(|i| i as cav_rules::compile::SaIx);
        let unique_sa = ruleset
            .force_building
            .as_ref()
            .and_then(|f| f.unique_sa.as_ref())
            .and_then(|u| sas.iter().position(|s| s.id == u.as_str()))
            .map(|i| i as cav_rules::compile::SaIx);
        let reserved = ruleset
            .force_building
            .iter()
            .flat_map(|f| &f.reserved)
            .filter_map(|r| {
                let sa = sas.iter().position(|s| s.id == r.sa.as_str())?;
                Some((sa as cav_rules::compile::SaIx, r.squad_type.0.clone()))
            })
            .collect();
        // The special attribute whose rating adds points to its force group's C3 pool.
        let c3_sa = ruleset
            .force_building
            .as_ref()
            .and_then(|f| sas.iter().position(|s| s.id == f.c3_sa.as_str()))
            .map(|i| i as cav_rules::compile::SaIx);
        ForceBuildingSas { strike_caller, asset_user, unique_sa, reserved, c3_sa }
    }
}

/// Arm the cards with the close-defense reaction and, where strike packages are called in, the
/// strikes a strike caller carries.
fn arm_cards(
    proc: &mut Proc,
    sas: &[SaDef],
    cards: &mut [CardDef],
    strikes: &[StrikeDef],
    strike_caller: Option<SaIx>,
) {
    if let Some(cd) = &mut proc.close_defense {
        cd.mount.name = sas[cd.sa as usize].name.clone();
        cd.mount.derive(sas);
    }
    for c in cards.iter_mut() {
        c.arm_close_defense(proc.close_defense.as_ref());
    }
    if proc.strike_point_tp.is_some() {
        for c in cards.iter_mut() {
            c.arm_strikes(strikes, strike_caller);
        }
    }
}

/// Each squad type's largest size, by id.
fn squad_types(rs: &Ruleset) -> Vec<(String, u32)> {
    rs.of_kind(DocKind::SquadType)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::SquadType(t)) => Some((e.id.clone(), t.max_models)),
            _ => None,
        })
        .collect()
}

/// The arcs around a defender rise outwards from its facing and close the circle at 180°.
fn defense_arcs(cx: &mut Cx, entry: &Entry, arcs: &[cav_format::DefenseArc]) {
    for (i, w) in arcs.windows(2).enumerate() {
        if w[1].up_to <= w[0].up_to {
            cx.error(
                entry,
                &format!("/procedures/sight/defense_arcs/{}/up_to", i + 1),
                "defense-arcs",
                format!(
                    "arc `{}` ends at {}°, not past the arc before it ({}°)",
                    w[1].id.as_str(),
                    w[1].up_to,
                    w[0].up_to
                ),
                "arcs in order outwards from the facing",
                None,
            );
        }
    }
    if let Some(last) = arcs.last().filter(|a| a.up_to < 180.0) {
        cx.error(
            entry,
            &format!("/procedures/sight/defense_arcs/{}/up_to", arcs.len() - 1),
            "defense-arcs",
            format!(
                "the last arc, `{}`, ends at {}°: an attacker further round would be in none",
                last.id.as_str(),
                last.up_to
            ),
            "the last arc's `up_to: 180`",
            None,
        );
    }
}

/// The board's topology (`board:`): `None` for continuous inches; a word that belongs to the other
/// topology is an error at it. Hex boards are played in part: a warning says what is not.
fn board(cx: &mut Cx, entry: &Entry, board: &cav_format::BoardRules) -> Option<cav_rules::compile::HexGeometry> {
    use cav_format::Topology;
    match board.topology {
        Topology::Continuous => {
            for (set, key) in [(board.orientation.is_some(), "orientation"), (board.hex_size.is_some(), "hex_size")] {
                if set {
                    cx.error(
                        entry,
                        &format!("/board/{key}"),
                        "board",
                        format!("`{key}` describes hexes, but the board is continuous"),
                        &format!("`topology: hex` with it, or no `{key}`"),
                        None,
                    );
                }
            }
            None
        }
        Topology::Hex => {
            let Some(orientation) = board.orientation else {
                cx.error(
                    entry,
                    "/board",
                    "missing-field",
                    "a hex board needs to say which way its hexes lie".into(),
                    "`orientation: flat` or `orientation: pointy`",
                    None,
                );
                return None;
            };
            cx.diags.push(
                cav_content::Diagnostic::warning(
                    "not-implemented",
                    "a hex board is played in part: models stand at hex centres facing hexsides, move hex by hex \
                     across stacked terrain (keeping `enemy_clearance`, flying over models and nap of the earth, \
                     leaving the board where they may), and trace ranges, obscurement, cover and blocking \
                     terrain along hex lines, but a sideways shift (drift or lateral shift) is refused on hexes",
                )
                .at(entry.prov.locate("/board/topology"))
                .pack(entry.pack.clone())
                .pointer("/board/topology"),
            );
            Some(cav_rules::compile::HexGeometry { orientation, across_flats: board.hex_size.unwrap_or(1.0) })
        }
    }
}
