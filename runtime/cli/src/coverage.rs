//! `cav coverage`: for every catalog entry (special attributes, weapons, upgrades, assets, strike
//! packages), how it is played (`cav_compile::behaviour`: script, data, ruleset, engine), what it
//! declares that nothing plays, and the scenario tests that *prove* it: a test proves an entry
//! when it passes on the content as it is and fails once the entry's behaviour is taken away
//! (a special attribute stripped from every card, weapon and upgrade; a weapon's profile
//! degraded). Everything is read from the content, the vocabulary and the test results, so the
//! map cannot drift.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use cav_compile::behaviour::{self, Behaviour, CATALOG_KINDS};
use cav_content::Ruleset;
use cav_content::ruleset::Entry;
use cav_format::{DocKind, Document};
use serde::Serialize;

use crate::commands::test::ruleset_tests;
use crate::project::{load_checked, load_options};
use crate::result_cache::{self, Output};
use crate::{CoverageFormat, EXIT_INVALID, Format};

/// The official catalog the issue counts (214 names, `cav-names.tsv`).
pub const CATALOG_PACK: &str = "cav-full";

/// `cav coverage`: the content checked, the catalog mapped and reported; with `check`, exit 1
/// unless every entry of the official catalog is complete. Content unchanged since an earlier
/// run answers from the cache (`result_cache::answer`): the tests and their mutations are
/// deterministic, so the map is a function of the content.
pub fn run(root: &Path, format: CoverageFormat, check: bool, no_cache: bool) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    let shape: &[u8] = match format {
        CoverageFormat::Human => b"human",
        CoverageFormat::Json => b"json",
        CoverageFormat::Markdown => b"markdown",
    };
    let what: [(&str, &[u8]); 2] = [("format", shape), ("check", &[u8::from(check)])];
    result_cache::answer(no_cache, "coverage", &opts, &what, || {
        let ((loaded, compiled), transient) = match load_checked(&opts, "fix them first (`cav validate`)") {
            (Ok(checked), transient) => (checked, transient),
            (Err(errors), transient) => return Ok((errors, transient)),
        };
        let mut passed = std::collections::BTreeSet::new();
        let rows = map(&loaded, &compiled, &mut passed)?;
        let sections = sections(&loaded, &passed);
        let (fmt, md) = match format {
            CoverageFormat::Human => (Format::Human, false),
            CoverageFormat::Json => (Format::Json, false),
            CoverageFormat::Markdown => (Format::Human, true),
        };
        let mut out = Vec::new();
        report(&rows, &sections, fmt, md, &mut out);
        let stdout = String::from_utf8(out).map_err(|e| e.to_string())?;
        let complete = rows.iter().filter(|r| r.pack == CATALOG_PACK).all(|r| r.status == Status::Complete);
        let code = if check && !complete { EXIT_INVALID } else { 0 };
        Ok((Output { code, stdout, stderr: String::new() }, transient))
    })
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub kind: &'static str,
    pub id: String,
    pub name: String,
    pub pack: String,
    pub source: Option<String>,
    pub status: Status,
    pub behaviour: Behaviour,
    /// Passing tests whose models carry the entry.
    pub tests: Vec<String>,
    /// Of those, the ones that fail without the entry's behaviour.
    pub proving: Vec<String>,
    /// Why the mutation could not be run, if it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unproven_why: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Played, nothing declared left unplayed, and a test fails without it.
    Complete,
    /// Played and proved, but part of what it declares is not played.
    Partial,
    /// Played, but no test fails without it.
    Untested,
    /// Nothing plays it.
    NotPlayed,
}

impl Status {
    fn word(self) -> &'static str {
        match self {
            Status::Complete => "complete",
            Status::Partial => "partial",
            Status::Untested => "untested",
            Status::NotPlayed => "NOT PLAYED",
        }
    }
}

/// A section of a rulebook (`kind: rulebook`) with what plays it and the tests that cite it.
#[derive(Debug, Clone, Serialize)]
pub struct SectionRow {
    pub book: String,
    pub id: String,
    pub title: String,
    pub lines: [u32; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Rule documents whose `source:` cites lines of the section (`modifier_table x`, …).
    pub data: Vec<String>,
    /// Passing scenario tests whose `source:` cites lines of the section.
    pub tests: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_played: Option<String>,
}

/// Every section of every rulebook document of the loaded rulesets, with the rule documents and
/// the passing tests that cite its lines.
pub fn sections(loaded: &cav_content::Loaded, passed: &BTreeSet<String>) -> Vec<SectionRow> {
    let mut rows: BTreeMap<(String, u32, String), SectionRow> = BTreeMap::new();
    for rs in &loaded.rulesets {
        for e in rs.of_kind(DocKind::Rulebook) {
            let Some(Document::Rulebook(book)) = e.doc.as_deref() else { continue };
            let cites = |source: &str, s: &cav_format::RuleSection| {
                cav_format::rulebook::cited_lines(source, &book.book)
                    .iter()
                    .any(|&(a, b)| a <= s.lines[1] && b >= s.lines[0])
            };
            let sources = rule_sources(rs, &loaded.sources);
            for s in &book.sections {
                let row = rows.entry((book.book.clone(), s.lines[0], s.id.0.clone())).or_insert_with(|| SectionRow {
                    book: book.book.clone(),
                    id: s.id.0.clone(),
                    title: s.title.clone(),
                    lines: s.lines,
                    parent: s.parent.as_ref().map(|p| p.0.clone()),
                    data: Vec::new(),
                    tests: Vec::new(),
                    not_played: s.not_played.clone(),
                });
                for (doc, source) in &sources {
                    if cites(source, s) && !row.data.contains(doc) {
                        row.data.push(doc.clone());
                    }
                }
                for t in rs.of_kind(DocKind::Test) {
                    if let Some(Document::Test(test)) = t.doc.as_deref()
                        && passed.contains(test.id.as_str())
                        && test.source.as_deref().is_some_and(|src| cites(src, s))
                        && !row.tests.contains(&test.id.0)
                    {
                        row.tests.push(test.id.0.clone());
                    }
                }
            }
        }
    }
    let mut out: Vec<SectionRow> = rows.into_values().collect();
    for r in &mut out {
        r.data.sort();
        r.tests.sort();
    }
    out
}

/// A test fixture: a document under a pack's `tests/` folder (a terrain piece, a special attribute
/// that only gives the tests a source of some state). Not a rule nor a catalog entry.
fn is_fixture(files: &cav_content::Sources, e: &cav_content::Entry) -> bool {
    files.get(e.file).path.components().any(|c| c.as_os_str() == "tests")
}

/// Every `source:` of the ruleset's rule documents (not the catalog, cards or tests), with the
/// document it belongs to.
fn rule_sources(rs: &Ruleset, files: &cav_content::Sources) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in rs.entries() {
        if is_fixture(files, e) {
            continue;
        }
        if matches!(
            e.kind,
            DocKind::Model
                | DocKind::Test
                | DocKind::Force
                | DocKind::Rulebook
                | DocKind::Patch
                | DocKind::SpecialAttribute
                | DocKind::Weapon
                | DocKind::Upgrade
                | DocKind::Asset
                | DocKind::Strike
        ) {
            continue;
        }
        let name = format!("{} {}", e.kind.tag(), e.id);
        let mut stack = vec![e.value.as_ref()];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(o) => {
                    for (k, x) in o {
                        match (k.as_str(), x) {
                            ("source", serde_json::Value::String(s)) => out.push((name.clone(), s.clone())),
                            ("notes", _) => {}
                            _ => stack.push(x),
                        }
                    }
                }
                serde_json::Value::Array(a) => stack.extend(a.iter()),
                _ => {}
            }
        }
    }
    out
}

/// The map over every ruleset that compiled. An entry met in several rulesets (the Quick-Start
/// builds on the full rules) gathers the tests of all of them.
pub fn map(
    loaded: &cav_content::Loaded,
    compiled: &[Option<cav_rules::Rules>],
    passed_out: &mut BTreeSet<String>,
) -> Result<Vec<Row>, String> {
    let mut rows: BTreeMap<(usize, String, String), Row> = BTreeMap::new();
    let total: usize = loaded
        .rulesets
        .iter()
        .map(|rs| rs.entries().filter(|e| CATALOG_KINDS.contains(&e.kind) && !is_fixture(&loaded.sources, e)).count())
        .sum();
    let bar = std::io::stderr().is_terminal().then(|| {
        indicatif::ProgressBar::new(total as u64).with_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} entries ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        )
    });
    for (rs, rules) in loaded.rulesets.iter().zip(compiled) {
        if let Some(b) = &bar {
            b.set_message(format!("proving {}", rs.id));
        }
        let tests = ruleset_tests(rs, |_| true);
        let passed: BTreeSet<&str> = match rules {
            Some(rules) => {
                let mut host = cav_script::LuaHost::new(rules, cav_script::Limits::default())
                    .map_err(|e| format!("scripts: {e}"))?;
                tests
                    .iter()
                    .filter(|t| cav_rules::testing::run_test_with(rules, t, &mut host).passed())
                    .map(|t| t.id.as_str())
                    .collect()
            }
            None => BTreeSet::new(),
        };
        passed_out.extend(passed.iter().map(|s| s.to_string()));
        let index = behaviour::Mentions::of(rs);
        for (k, &kind) in CATALOG_KINDS.iter().enumerate() {
            for e in rs.of_kind(kind).filter(|e| !is_fixture(&loaded.sources, e)) {
                if let Some(b) = &bar {
                    b.inc(1);
                }
                let key = (k, e.id.clone(), e.pack.clone());
                let row = rows.entry(key).or_insert_with(|| Row {
                    kind: kind.tag(),
                    id: e.id.clone(),
                    name: e.name().to_owned(),
                    pack: e.pack.clone(),
                    source: e.value.get("source").and_then(|v| v.as_str()).map(str::to_owned),
                    status: Status::NotPlayed,
                    behaviour: behaviour::behaviour_in(rs, e, &index),
                    tests: Vec::new(),
                    proving: Vec::new(),
                    unproven_why: None,
                });
                let touching: Vec<&cav_format::Test> =
                    tests.iter().copied().filter(|t| passed.contains(t.id.as_str()) && touches(rs, t, e)).collect();
                if touching.is_empty() {
                    continue;
                }
                row.tests.extend(touching.iter().map(|t| t.id.0.clone()));
                match without(rs, e) {
                    Err(why) => row.unproven_why = Some(why),
                    Ok((mutated, rules)) => {
                        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default())
                            .map_err(|e| format!("scripts: {e}"))?;
                        for t in touching {
                            // The test as it reads without the entry (an upgrade leaves its models).
                            let t = match mutated.get(DocKind::Test, t.id.as_str()).and_then(|x| x.doc.as_deref()) {
                                Some(Document::Test(m)) => m,
                                _ => t,
                            };
                            if !cav_rules::testing::run_test_with(&rules, t, &mut host).passed() {
                                row.proving.push(t.id.0.clone());
                            }
                        }
                    }
                }
            }
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let mut out: Vec<Row> = rows.into_values().collect();
    for r in &mut out {
        r.tests.sort();
        r.tests.dedup();
        r.proving.sort();
        r.proving.dedup();
        r.status = match (r.behaviour.played(), r.proving.is_empty(), r.behaviour.gaps.is_empty()) {
            (false, _, _) => Status::NotPlayed,
            (true, true, _) => Status::Untested,
            (true, false, true) => Status::Complete,
            (true, false, false) => Status::Partial,
        };
    }
    Ok(out)
}

/// Whether a test's models carry the entry (on the card, a weapon, a mount, an upgrade).
fn touches(rs: &Ruleset, t: &cav_format::Test, e: &Entry) -> bool {
    let granted = |m: &cav_format::TestModel| {
        m.upgrades.iter().any(|u| match rs.get(DocKind::Upgrade, u.id().as_str()).and_then(|x| x.doc.as_deref()) {
            Some(Document::Upgrade(up)) => up.grants.iter().any(|g| g.id().as_str() == e.id),
            _ => false,
        })
    };
    if e.kind == DocKind::Asset {
        let emplaced = |m: &cav_format::TestModel| {
            matches!(rs.get(DocKind::Model, m.model.as_str()).and_then(|x| x.doc.as_deref()),
                Some(Document::Model(card)) if card.emplacement.as_ref().is_some_and(|a| a.as_str() == e.id))
        };
        return t.terrain.iter().any(|a| a.asset.as_ref().is_some_and(|x| x.as_str() == e.id))
            || t.assets.values().any(|held| held.keys().any(|a| a.as_str() == e.id))
            || t.models.iter().any(emplaced);
    }
    if e.kind == DocKind::Strike {
        return t.steps.iter().any(|s| s.strike.as_ref().is_some_and(|x| x.as_str() == e.id));
    }
    t.models.iter().any(|m| match rs.get(DocKind::Model, m.model.as_str()).and_then(|x| x.doc.as_deref()) {
        Some(Document::Model(card)) => match e.kind {
            DocKind::Upgrade => m.upgrades.iter().any(|u| u.id().as_str() == e.id),
            DocKind::SpecialAttribute => {
                granted(m)
                    || card.special_attributes.iter().any(|s| s.id().as_str() == e.id)
                    || card.weapons.iter().any(|w| {
                        w.special_attributes.iter().any(|s| s.id().as_str() == e.id)
                            || matches!(rs.get(DocKind::Weapon, w.weapon.as_str()).and_then(|x| x.doc.as_deref()),
                                Some(Document::Weapon(wd)) if wd.special_attributes.iter().any(|s| s.id().as_str() == e.id))
                    })
            }
            DocKind::Weapon => card.weapons.iter().any(|w| w.weapon.as_str() == e.id),
            _ => false,
        },
        _ => false,
    })
}

/// Whether weapon `id` makes an attack of its own (its range is a distance).
fn launches(rs: &Ruleset, id: &str) -> bool {
    matches!(rs.get(DocKind::Weapon, id).and_then(|x| x.doc.as_deref()),
        Some(Document::Weapon(w)) if matches!(w.range, cav_format::Distance::Inches(_)))
}

/// The ruleset with `e`'s behaviour taken away, and its rules.
fn without(rs: &Ruleset, e: &Entry) -> Result<(Ruleset, cav_rules::Rules), String> {
    let id = e.id.as_str();
    let mutated = match e.kind {
        // (Without it no card may mount weapons where it provides the mount: the mount stays.)
        DocKind::SpecialAttribute => rs.with_docs(|entry, doc| match doc {
            Document::SpecialAttribute(sa) if entry.id == id => sa.carries = None,
            Document::Model(m) => {
                m.special_attributes.retain(|s| s.id().as_str() != id);
                for w in &mut m.weapons {
                    w.special_attributes.retain(|s| s.id().as_str() != id);
                }
            }
            Document::Weapon(w) => w.special_attributes.retain(|s| s.id().as_str() != id),
            Document::Upgrade(u) => {
                u.grants.retain(|s| s.id().as_str() != id);
                // (A single-use upgrade left with nothing to spend is not one any more.)
                if u.grants.is_empty() && u.modifiers.is_empty() {
                    u.single_use = false;
                }
            }
            _ => {}
        }),
        // A launcher with no attack of its own (a pylon): without it, models do not carry it.
        DocKind::Weapon if !launches(rs, id) => rs.with_docs(|_, doc| {
            if let Document::Model(m) = doc {
                m.weapons.retain(|w| w.weapon.as_str() != id);
            }
        }),
        DocKind::Weapon => rs.with_docs(|entry, doc| match doc {
            Document::Weapon(w) if entry.id == id => {
                if let cav_format::Distance::Inches(r) = w.range {
                    w.range = cav_format::Distance::Inches((r / 2.0).floor());
                }
                w.rav = cav_format::Rav { hard: Some(0), soft: Some(0) };
                w.special_attributes.clear();
                w.cannot_target.clear();
                w.fire = cav_format::FireMode::Direct;
                w.requires_target_lock = false;
                w.script = None;
            }
            Document::Model(m) => {
                for w in m.weapons.iter_mut().filter(|w| w.weapon.as_str() == id) {
                    w.rav = None;
                }
            }
            _ => {}
        }),
        DocKind::Upgrade => rs.with_docs(|_, doc| {
            if let Document::Test(t) = doc {
                for m in &mut t.models {
                    m.upgrades.retain(|u| u.id().as_str() != id);
                }
            }
        }),
        // Without the asset, its terrain piece is not on the board, no side holds it, and the
        // cards of its emplacements are plain cards (whose turret mount needs no Turret).
        DocKind::Asset => rs.with_docs(|_, doc| match doc {
            Document::SpecialAttribute(sa) => sa.carries = None,
            Document::Test(t) => {
                t.terrain.retain(|a| a.asset.as_ref().is_none_or(|x| x.as_str() != id));
                for held in t.assets.values_mut() {
                    held.retain(|a, _| a.as_str() != id);
                }
            }
            Document::Model(m) if m.emplacement.as_ref().is_some_and(|a| a.as_str() == id) => m.emplacement = None,
            _ => {}
        }),
        // Without its attack: half the range, RAV 0, no special attributes (no area, no blaster).
        DocKind::Strike => rs.with_docs(|entry, doc| match doc {
            Document::Strike(st) if entry.id == id => {
                if let Some(cav_format::Distance::Inches(r)) = st.attack.range {
                    st.attack.range = Some(cav_format::Distance::Inches((r / 2.0).floor()));
                }
                st.attack.rav = Some(cav_format::Rav { hard: Some(0), soft: Some(0) });
                st.attack.special_attributes.clear();
            }
            _ => {}
        }),
        _ => return Err("no test places it".into()),
    };
    let rules =
        cav_compile::compile_rules(&mutated).map_err(|e| format!("the ruleset does not compile without it: {e}"))?;
    Ok((mutated, rules))
}

/// Print the map: the catalog, then the rulebooks' sections.
pub fn report(rows: &[Row], sections: &[SectionRow], format: Format, markdown: bool, out: &mut impl Write) {
    if format == Format::Json {
        let doc = serde_json::json!({ "entries": rows, "sections": sections });
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&doc).unwrap_or_default());
        return;
    }
    let mut text = String::new();
    if markdown {
        text.push_str(
            "# Catalog coverage\n\nGenerated by `cav coverage --format markdown`; a test fails when this page is stale.\n\n\
             How each catalog entry is played and which scenario tests prove it. A test proves an entry when it \
             passes as the content is and fails once the entry's behaviour is taken away (a special attribute \
             stripped from every card, weapon and upgrade; a weapon's range halved, RAV 0, no special attributes).\n\n",
        );
    }
    text.push_str(&summary(rows));
    text.push('\n');
    for &kind in CATALOG_KINDS.iter() {
        let of_kind: Vec<&Row> = rows.iter().filter(|r| r.kind == kind.tag()).collect();
        if of_kind.is_empty() {
            continue;
        }
        if markdown {
            text.push_str(&format!(
                "\n## {}\n\n| entry | pack | status | played by | proving tests | not played |\n|---|---|---|---|---|---|\n",
                kind.title()
            ));
        } else {
            text.push_str(&format!("\n{}\n", kind.title()));
        }
        for r in of_kind {
            let ways: Vec<String> = r.behaviour.ways.iter().map(|(w, at)| format!("{} ({at})", w.id())).collect();
            let tests = if r.proving.is_empty() {
                match (&r.unproven_why, r.tests.is_empty()) {
                    (Some(why), _) => format!("none: {why}"),
                    (None, true) => "none: no passing test carries it".to_owned(),
                    (None, false) => format!("none of {} carrying it fails without it", r.tests.len()),
                }
            } else {
                r.proving.join(", ")
            };
            if markdown {
                text.push_str(&format!(
                    "| `{}` {} | {} | {} | {} | {} | {} |\n",
                    r.id,
                    r.source.as_deref().map(|s| format!("({s})")).unwrap_or_default(),
                    r.pack,
                    r.status.word(),
                    ways.join("; ").replace('|', "\\|"),
                    tests,
                    r.behaviour
                        .gaps
                        .iter()
                        .cloned()
                        .chain(r.behaviour.book_silent.iter().map(|l| format!("The book gives no rules: {l}")))
                        .collect::<Vec<_>>()
                        .join("; ")
                        .replace('|', "\\|")
                ));
            } else {
                text.push_str(&format!("  {:<42} {:<10} {}\n", r.id, r.status.word(), ways.join("; ")));
                text.push_str(&format!("  {:<42} {:<10} tests: {tests}\n", "", ""));
                for g in &r.behaviour.gaps {
                    text.push_str(&format!("  {:<42} {:<10} not played: {g}\n", "", ""));
                }
                for l in &r.behaviour.book_silent {
                    text.push_str(&format!("  {:<42} {:<10} the book gives no rules: {l}\n", "", ""));
                }
            }
        }
    }
    section_report(sections, markdown, &mut text);
    let _ = out.write_all(text.as_bytes());
}

fn section_report(sections: &[SectionRow], markdown: bool, text: &mut String) {
    let mut books: Vec<&str> = sections.iter().map(|s| s.book.as_str()).collect();
    books.dedup();
    for book in books {
        let mine: Vec<&SectionRow> = sections.iter().filter(|s| s.book == book).collect();
        let tested = mine.iter().filter(|s| !s.tests.is_empty()).count();
        let unplayed = mine.iter().filter(|s| s.not_played.is_some()).count();
        let head = format!(
            "Rulebook {book}: {} sections — {tested} with a passing scenario test citing their lines, {unplayed} not played",
            mine.len()
        );
        if markdown {
            text.push_str(&format!(
                "\n## Rulebook {book}\n\n{head}.\n\n| section | lines | rule data citing it | tests citing it | not played |\n|---|---|---|---|---|\n"
            ));
        } else {
            text.push_str(&format!("\n{head}\n"));
        }
        for s in mine {
            let indent = if s.parent.is_some() { "  " } else { "" };
            let tests = if s.tests.is_empty() { "none".to_owned() } else { s.tests.join(", ") };
            if markdown {
                text.push_str(&format!(
                    "| {indent}{} | {}–{} | {} | {} | {} |\n",
                    s.title,
                    s.lines[0],
                    s.lines[1],
                    s.data.join(", "),
                    tests,
                    s.not_played.as_deref().unwrap_or("")
                ));
            } else {
                text.push_str(&format!("  {indent}{} (L{}-{})\n", s.title, s.lines[0], s.lines[1]));
                if !s.data.is_empty() {
                    text.push_str(&format!("  {indent}  data: {}\n", s.data.join(", ")));
                }
                text.push_str(&format!("  {indent}  tests: {tests}\n"));
                if let Some(why) = &s.not_played {
                    text.push_str(&format!("  {indent}  not played: {why}\n"));
                }
            }
        }
    }
}

/// One line per status for the official catalog, one for the rest.
fn summary(rows: &[Row]) -> String {
    let mut s = String::new();
    for (label, official) in [(format!("{CATALOG_PACK} catalog"), true), ("other packs".to_owned(), false)] {
        let mine: Vec<&Row> = rows.iter().filter(|r| (r.pack == CATALOG_PACK) == official).collect();
        if mine.is_empty() {
            continue;
        }
        let n = |st: Status| mine.iter().filter(|r| r.status == st).count();
        let limited =
            mine.iter().filter(|r| r.status == Status::Complete && !r.behaviour.book_silent.is_empty()).count();
        let complete = match limited {
            0 => format!("{} complete", n(Status::Complete)),
            l => format!("{} complete ({l} of them as far as the book's text goes)", n(Status::Complete)),
        };
        s.push_str(&format!(
            "{label}: {} entries — {complete}, {} partial (proved, part of it not played), {} untested (played, no test fails without it), {} not played\n",
            mine.len(),
            n(Status::Partial),
            n(Status::Untested),
            n(Status::NotPlayed)
        ));
    }
    s
}
