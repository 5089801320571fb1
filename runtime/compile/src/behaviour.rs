//! How a catalog entry (special attribute, weapon, upgrade, asset, strike package) is played,
//! read from the content and the declared vocabulary, so it cannot drift from either: its own
//! script, its declarative modifiers, the ruleset documents that name it (a modifier-table
//! condition `sa-<id>`, a procedure's `sa:` field, force building), or — for a weapon — its
//! profile, which the engine plays. What it declares and nothing plays is a gap, with the reason.
//! `cav validate` warns about an entry with no behaviour at all; `cav coverage` prints the map.

use std::fmt::Write as _;

use cav_content::Ruleset;
use cav_content::ruleset::Entry;
use cav_format::vocab::{self, ConditionWord, Status};
use cav_format::{DocKind, Document, HookPoint, ModifierTarget, NoteKind};
use serde_json::Value;

/// The catalog's document kinds, in the order the map lists them.
pub const CATALOG_KINDS: [DocKind; 5] =
    [DocKind::SpecialAttribute, DocKind::Weapon, DocKind::Upgrade, DocKind::Asset, DocKind::Strike];

/// One way an entry is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    /// Its own Luau module, through the hook API.
    Script,
    /// Its declarative `modifiers:`.
    Data,
    /// Ruleset documents name it (conditions, procedures, force building).
    Ruleset,
    /// A weapon's profile (range, RAV, fire mode), played by the engine's combat procedure.
    Profile,
    /// An engine mechanism made for what the entry is (a minefield, a template, a launcher):
    /// it plays the moments the entry's hook points name.
    Mechanism,
}

impl Way {
    pub fn id(self) -> &'static str {
        match self {
            Way::Script => "script",
            Way::Data => "data",
            Way::Ruleset => "ruleset",
            Way::Profile | Way::Mechanism => "engine",
        }
    }
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Behaviour {
    /// How it is played, each with where (`modifiers: combat_roll`, `modifier_table x /rows/3/condition`).
    pub ways: Vec<(Way, String)>,
    /// What it declares that nothing plays, and why.
    pub gaps: Vec<String>,
    /// What the rulebook names of it without rules to play (`kind: book_silent` notes).
    pub book_silent: Vec<String>,
}

impl Behaviour {
    pub fn played(&self) -> bool {
        !self.ways.is_empty()
    }
}

/// What `cav play` does not do yet with a kind of catalog entry, if anything: it places no
/// asset a roster buys on the table (scenario tests place them); assets held off the table
/// (`modifiers:`) go to their side's hand.
fn play_gap(e: &Entry) -> Option<&'static str> {
    match e.doc.as_deref() {
        Some(Document::Asset(a)) if a.modifiers.is_empty() && a.footprint.is_none() && a.emplacement.is_none() => Some(
            "`cav play` cannot set it down for a roster that buys it: it has no `footprint` (scenario tests place it)",
        ),
        _ => None,
    }
}

/// How `e` (a catalog entry of `rs`) is played. Asking of many entries, build [`Mentions`] once
/// and call [`behaviour_in`].
pub fn behaviour(rs: &Ruleset, e: &Entry) -> Behaviour {
    behaviour_in(rs, e, &Mentions::of(rs))
}

/// [`behaviour`] with the ruleset's rule documents indexed once.
pub fn behaviour_in(rs: &Ruleset, e: &Entry, index: &Mentions) -> Behaviour {
    let mut b = Behaviour::default();
    if let Some(notes) = notes(e) {
        b.gaps.extend(notes.iter().filter(|n| n.kind == NoteKind::Unplayed).map(|n| n.text.trim().to_owned()));
        b.book_silent.extend(notes.iter().filter(|n| n.kind == NoteKind::BookSilent).map(|n| n.text.trim().to_owned()));
    }
    let (hooks, script, modifiers): (&[HookPoint], Option<&String>, &[cav_format::Modifier]) = match e.doc.as_deref() {
        Some(Document::SpecialAttribute(d)) => (&d.hooks, d.script.as_ref(), &d.modifiers),
        Some(Document::Upgrade(d)) => (&d.hooks, d.script.as_ref(), &d.modifiers),
        Some(Document::Asset(d)) => {
            asset_ways(&mut b, d);
            (&d.hooks, d.script.as_ref(), &d.modifiers)
        }
        Some(Document::Strike(d)) => {
            strike_ways(&mut b, d);
            (&d.hooks, d.script.as_ref(), &[])
        }
        Some(Document::Weapon(d)) => {
            weapon_ways(rs, e, &mut b, d);
            (&d.hooks, d.script.as_ref(), &[])
        }
        _ => return b,
    };
    if let Some(s) = script {
        b.ways.push((Way::Script, s.clone()));
    }
    modifier_ways(e, &mut b, modifiers);
    if let Some(Document::SpecialAttribute(sa)) = e.doc.as_deref()
        && let Some(c) = sa.carries
    {
        b.ways.push((
            Way::Data,
            format!("carries {} weapons per rating level on mount {:?} (checked on cards)", c.per_rating, c.mount),
        ));
    }
    upgrade_ways(rs, e, index, &mut b);
    // A special attribute that brings others with it (Orbital Flight); what they do is their own
    // entries' (not followed here: grants may form a cycle).
    if let Some(Document::SpecialAttribute(sa)) = e.doc.as_deref() {
        for g in &sa.grants {
            b.ways.push((Way::Data, format!("grants {}", g.id())));
        }
    }
    // A special attribute that calls a strike on its own terms (Satellite Uplink).
    if e.kind == DocKind::SpecialAttribute {
        for s in rs.of_kind(DocKind::Strike) {
            if let Some(Document::Strike(d)) = s.doc.as_deref()
                && d.called_by.iter().any(|c| c.sa.as_str() == e.id)
            {
                b.ways.push((Way::Data, format!("calls strike `{}` (its called_by)", s.id)));
            }
        }
    }
    if matches!(e.kind, DocKind::SpecialAttribute | DocKind::Upgrade | DocKind::Weapon) {
        for (doc, ptr, word) in index.mentions(&e.id, e.kind) {
            match condition_status(&word) {
                Some(Status::Recognised(r)) => {
                    b.gaps.push(format!("{doc} {ptr} names `{word}`, which never holds: {r}"))
                }
                _ => b.ways.push((Way::Ruleset, format!("{doc} {ptr}"))),
            }
        }
    }
    if let Some(why) = play_gap(e) {
        b.gaps.push(why.to_owned());
    }
    if script.is_none() && !hooks.is_empty() && b.ways.iter().all(|(w, _)| *w == Way::Profile) {
        let hs: Vec<&str> = hooks.iter().map(|h| h.id()).collect();
        b.gaps.push(format!(
            "it declares hook points {} but has no script and nothing in the ruleset plays it",
            hs.join(", ")
        ));
    }
    b.ways.sort();
    b.ways.dedup();
    b
}

/// How an asset is played: as terrain, a piece set down from a roster, an emplacement, a minefield.
fn asset_ways(b: &mut Behaviour, d: &cav_format::Asset) {
    if let Some(t) = &d.terrain {
        b.ways.push((Way::Data, format!("placed as terrain `{t}`")));
    }
    if d.footprint.is_some() && d.placement == cav_format::AssetPlacement::PreDeployment {
        b.ways.push((Way::Data, "set down before deployment from a roster (its footprint)".into()));
    }
    if d.emplacement.is_some() {
        b.ways.push((
            Way::Mechanism,
            "a weapon emplacement: the cards naming it stand in its piece and share one card".into(),
        ));
    }
    if let Some(m) = &d.mines {
        b.ways.push((
            Way::Mechanism,
            format!("a minefield ({} charges): its attack on enemies moving over it", m.charges),
        ));
    }
}

/// How a strike is played: called on a point, or flying in as a model.
fn strike_ways(b: &mut Behaviour, d: &cav_format::Strike) {
    match d.attack.range {
        _ if d.missile.is_some() => b.ways.push((
            Way::Mechanism,
            d.missile.as_ref().map_or(String::new(), |m| {
                format!("called in by a strike caller, it flies in as a model (`{}`)", m.model)
            }),
        )),
        Some(cav_format::Distance::Inches(_)) => {
            b.ways.push((Way::Profile, "called in by a strike caller (`call-strike`): range, RAV, area".into()))
        }
        _ => b.gaps.push(format!(
            "its range is not a distance (`{:?}`): it is not called on a point, so `call-strike` refuses it",
            d.attack.range
        )),
    }
}

/// How a weapon is played: its profile, a template, a launcher of munitions or of strikes.
fn weapon_ways(rs: &Ruleset, e: &Entry, b: &mut Behaviour, d: &cav_format::Weapon) {
    match d.range {
        cav_format::Distance::Inches(_) => {
            // A special attribute giving an area, on a direct-fire weapon (the engine's
            // `attack_roll` sweeps it).
            let gives_area = |s: &cav_format::SaRef| {
                matches!(rs.get(DocKind::SpecialAttribute, s.id().as_str()).and_then(|e| e.doc.as_deref()),
                    Some(Document::SpecialAttribute(sa)) if sa.modifiers.iter().any(|m| m.target == cav_format::ModifierTarget::AreaOfEffect))
            };
            let area = d.fire == cav_format::FireMode::Direct && d.special_attributes.iter().any(gives_area);
            let area = if area { ", a roll at each other model its area around the target touches" } else { "" };
            let guided = match &d.guided_strike {
                Some(g) => format!(", a guided munition: lost on a miss, a direct roll at the {} band's TP", g.band),
                None => String::new(),
            };
            b.ways.push((Way::Profile, format!("{} fire, range, RAV{area}{guided}", fire_word(d.fire))))
        }
        _ if d.template.is_some() => b.ways.push((
            Way::Mechanism,
            d.template.as_ref().map_or(String::new(), |t| {
                format!("template: a {}\"×{}\" strip, no roll, gives {}", t.length, t.width, t.gives)
            }),
        )),
        _ => {
            // A launcher with no attack of its own (a pylon) fires the munitions loaded in it.
            let loads: Vec<&str> = rs
                .of_kind(DocKind::Upgrade)
                .filter(|u| match u.doc.as_deref() {
                    Some(Document::Upgrade(up)) => {
                        up.profiles.iter().any(|p| p.launcher.as_ref().is_some_and(|l| l.as_str() == e.id))
                    }
                    _ => false,
                })
                .map(|u| u.id.as_str())
                .collect();
            // … or is the launch point of strikes that fly in (cruise missiles).
            let launches: Vec<&str> = rs
                .of_kind(DocKind::Strike)
                .filter(|x| match x.doc.as_deref() {
                    Some(Document::Strike(st)) => {
                        st.missile.as_ref().and_then(|m| m.launcher.as_ref()).is_some_and(|l| l.as_str() == e.id)
                    }
                    _ => false,
                })
                .map(|x| x.id.as_str())
                .collect();
            if !launches.is_empty() {
                b.ways.push((Way::Mechanism, format!("the launch point of {}", launches.join(", "))));
            } else if loads.is_empty() {
                b.gaps.push(format!("its range is not a distance (`{:?}`): the engine cannot fire it", d.range))
            } else {
                b.ways.push((Way::Mechanism, format!("a launcher: it fires what is loaded ({})", loads.join(", "))))
            }
        }
    }
}

/// How each declarative modifier is played, or why it never applies.
fn modifier_ways(e: &Entry, b: &mut Behaviour, modifiers: &[cav_format::Modifier]) {
    for (i, m) in modifiers.iter().enumerate() {
        let mut why = Vec::new();
        if let Status::Recognised(r) = m.target.status() {
            why.push(format!("target `{}`: {r}", m.target));
        }
        for w in &m.when {
            if let Some(Status::Recognised(r)) = condition_status(w.as_str()) {
                why.push(format!("condition `{w}`: {r}"));
            }
        }
        let design = e.kind == DocKind::SpecialAttribute
            && m.when.is_empty()
            && matches!(
                m.target,
                ModifierTarget::MoveValue | ModifierTarget::ArmorValue | ModifierTarget::DamageControl
            );
        if design {
            // vocab: a special attribute's card values are its design, in the printed card.
            b.ways.push((
                Way::Data,
                format!(
                    "modifiers/{i}: {} (design: in a printed card's values, applied to a `values: chassis` card)",
                    m.target
                ),
            ));
        } else if why.is_empty() {
            b.ways.push((Way::Data, format!("modifiers/{i}: {}", m.target)));
        } else {
            b.gaps.push(format!("modifiers/{i} ({}) never applies — {}", m.target, why.join("; ")));
        }
    }
}

/// How an upgrade is played beyond its own script and modifiers: the clouds it meets, what it
/// grants, the munition profiles it loads.
fn upgrade_ways(rs: &Ruleset, e: &Entry, index: &Mentions, b: &mut Behaviour) {
    if let Some(Document::Upgrade(_)) = e.doc.as_deref() {
        // A single-use upgrade a munition's cloud names (`cloud.stopped_by`: the anti-nano pod).
        for other in rs.of_kind(DocKind::Upgrade) {
            let Some(Document::Upgrade(o)) = other.doc.as_deref() else { continue };
            if o.profiles
                .iter()
                .any(|p| p.cloud.as_ref().is_some_and(|c| c.stopped_by.iter().any(|u| u.as_str() == e.id)))
            {
                b.ways.push((Way::Data, format!("meets the cloud of `{}` (its `cloud.stopped_by`)", other.id)));
            }
        }
    }
    if let Some(Document::Upgrade(u)) = e.doc.as_deref() {
        for g in &u.grants {
            b.ways.push((Way::Data, format!("grants {}", g.id())));
            let granted = rs.get(DocKind::SpecialAttribute, g.id().as_str());
            if granted.is_some_and(|sa| !behaviour_in(rs, sa, index).played()) {
                b.gaps.push(format!("it grants `{}`, which is not played", g.id()));
            }
        }
        for p in &u.profiles {
            let Some(launcher) = &p.launcher else { continue };
            b.ways.push((Way::Data, format!("profile for {launcher}")));
            // A profile reaches with its own range, its launcher's, the weapon it fires as, or by
            // being dropped beneath the model (bombs).
            let weapon_reaches =
                |id: &cav_format::Id| match rs.get(DocKind::Weapon, id.as_str()).and_then(|w| w.doc.as_deref()) {
                    Some(Document::Weapon(w)) => matches!(w.range, cav_format::Distance::Inches(_)),
                    _ => false,
                };
            let reach = weapon_reaches(launcher)
                || p.fires_as.as_ref().is_some_and(weapon_reaches)
                || p.dropped.is_some()
                || matches!(p.range, Some(cav_format::Distance::Inches(_)));
            if !reach {
                b.gaps.push(format!(
                    "its profile for {launcher} has no range, nor has the launcher or the weapon it fires as, and it is not dropped: it is never fired"
                ));
            }
        }
    }
}

fn notes(e: &Entry) -> Option<&[cav_format::Note]> {
    Some(match e.doc.as_deref()? {
        Document::SpecialAttribute(d) => &d.notes,
        Document::Upgrade(d) => &d.notes,
        Document::Asset(d) => &d.notes,
        Document::Strike(d) => &d.notes,
        Document::Weapon(d) => &d.notes,
        _ => return None,
    })
}

fn fire_word(f: cav_format::FireMode) -> String {
    serde_json::to_value(f).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn condition_status(word: &str) -> Option<Status> {
    match vocab::condition(word)? {
        ConditionWord::Fixed(c) => Some(c.status),
        ConditionWord::Family(f, _) => Some(f.status),
    }
}

/// A step of the walk of a document's value: the root, an array's index, an object's key.
enum Step<'v> {
    Root,
    Index(usize),
    Key(&'v str),
}

/// Every text value of the ruleset's rule documents (rulesets, modifier tables, tables, states,
/// squad and action types, terrain) by the text, with where it stands: built once per ruleset,
/// since every special attribute and upgrade asks which rule rows name it.
pub struct Mentions {
    /// The documents' labels (`table \`damage\``), by number.
    labels: Vec<String>,
    /// Where each text stands: (label number, pointer).
    by_text: foldhash::HashMap<String, Vec<(usize, String)>>,
}

impl Mentions {
    pub fn of(rs: &Ruleset) -> Mentions {
        let mut labels = Vec::new();
        let mut by_text: foldhash::HashMap<String, Vec<(usize, String)>> = Default::default();
        // One pointer, grown and cut back as the walk goes (a string is made only for the
        // texts found): each stacked value carries the length of its parent's pointer.
        let mut ptr = String::new();
        for doc in rs.entries() {
            if !matches!(
                doc.kind,
                DocKind::Ruleset
                    | DocKind::ModifierTable
                    | DocKind::Table
                    | DocKind::ModelState
                    | DocKind::SquadType
                    | DocKind::ActionType
                    | DocKind::Terrain
            ) {
                continue;
            }
            let label = labels.len();
            labels.push(format!("{} `{}`", doc.kind.tag(), doc.id));
            ptr.clear();
            let mut stack: Vec<(usize, Step, &Value)> = vec![(0, Step::Root, &doc.value)];
            while let Some((parent, step, v)) = stack.pop() {
                ptr.truncate(parent);
                match step {
                    Step::Root => {}
                    Step::Index(i) => {
                        let _ = write!(ptr, "/{i}");
                    }
                    Step::Key(k) => {
                        ptr.push('/');
                        ptr.push_str(k);
                    }
                }
                match v {
                    // A row's own `id` only names the row; notes are prose.
                    Value::String(s) if !ptr.ends_with("/id") && !ptr.contains("/notes/") => {
                        by_text.entry(s.clone()).or_default().push((label, ptr.clone()));
                    }
                    Value::Array(a) => stack.extend(a.iter().enumerate().map(|(i, x)| (ptr.len(), Step::Index(i), x))),
                    Value::Object(o) => stack.extend(o.iter().map(|(k, x)| (ptr.len(), Step::Key(k), x))),
                    _ => {}
                }
            }
        }
        Mentions { labels, by_text }
    }

    /// Where the rule documents name `id` (a special attribute, upgrade or weapon), as (document, pointer,
    /// the word), sorted: the id itself or a condition word built on it (`sa-ID`, …).
    fn mentions(&self, id: &str, kind: DocKind) -> Vec<(String, String, String)> {
        let prefixes: &[&str] = match kind {
            DocKind::SpecialAttribute => &["sa-", "defender-sa-", "squad-sa-"],
            DocKind::Upgrade => &["upgrade-"],
            _ => &[],
        };
        let mut out = Vec::new();
        let words = std::iter::once(id.to_owned()).chain(prefixes.iter().map(|p| format!("{p}{id}")));
        for word in words {
            for (doc, ptr) in self.by_text.get(&word).into_iter().flatten() {
                out.push((self.labels[*doc].clone(), ptr.clone(), word.clone()));
            }
        }
        out.sort();
        out
    }
}
