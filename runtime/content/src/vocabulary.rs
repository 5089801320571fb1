//! The vocabulary pass: every word a document uses where the engine must understand it is checked
//! against the declared vocabulary (`cav_format::vocab`). An unknown word is an error with a
//! did-you-mean hint; a word the engine recognises but does not implement yet is a warning that
//! says plainly what does not happen.

use cav_format::vocab::{self, ConditionWord, FamilyRef, Status};
use cav_format::*;

use crate::diag::{Diagnostic, did_you_mean};
use crate::ruleset::{Entry, Ruleset};

/// Check the vocabulary words of every valid document of the ruleset.
pub fn run(rs: &Ruleset, diags: &mut Vec<Diagnostic>) {
    let names = Names::new(rs);
    for e in rs.entries() {
        if let Some(doc) = e.doc.as_deref() {
            check(&mut Cx { names: &names, e, diags }, doc);
        }
    }
}

/// Whether the ruleset's own document loaded: what it declares (its attributes) is known.
fn ruleset_loaded(rs: &Ruleset) -> bool {
    rs.of_kind(DocKind::Ruleset).all(|e| e.doc.is_some())
}

/// The attributes the ruleset's models carry (`attributes:`), in the order it declares them: the
/// names `attacker-attribute-<id>` may use, and the argument the compiled condition holds.
pub fn ruleset_attributes(rs: &Ruleset) -> Vec<String> {
    rs.of_kind(DocKind::Ruleset)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::Ruleset(r)) => Some(r.attributes.iter().map(|a| a.id.0.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The values the ruleset's terrain carries (`terrain_values:`), in the order it declares them.
pub fn terrain_values(rs: &Ruleset) -> Vec<String> {
    rs.of_kind(DocKind::Ruleset)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::Ruleset(r)) => Some(r.terrain_values.iter().map(|a| a.id.0.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The arcs around a defender the ruleset names (`procedures.sight.defense_arcs`), in order.
pub fn defense_arcs(rs: &Ruleset) -> Vec<String> {
    rs.of_kind(DocKind::Ruleset)
        .filter_map(|e| match e.doc.as_deref() {
            Some(Document::Ruleset(r)) => {
                Some(r.procedures.sight.defense_arcs.iter().map(|a| a.id.0.clone()).collect::<Vec<_>>())
            }
            _ => None,
        })
        .flatten()
        .collect()
}

/// The ruleset's own action types (`action_type` documents with `does:`), in document order: the
/// names `action-<id>` may use, and the argument the compiled condition holds (its place in
/// the compiled rules' `own_actions`).
pub fn own_actions(rs: &Ruleset) -> Vec<String> {
    rs.of_kind(DocKind::ActionType)
        .filter(|e| matches!(e.doc.as_deref(), Some(Document::ActionType(a)) if a.does.is_some()))
        .map(|e| e.id.clone())
        .collect()
}

/// The groups the ruleset's model states belong to (`groups:`), in order of first mention: the
/// names `attacker-in-<group>` may use, and the argument the compiled condition holds.
pub fn state_groups(rs: &Ruleset) -> Vec<String> {
    let mut groups: Vec<String> = Vec::new();
    for e in rs.of_kind(DocKind::ModelState) {
        if let Some(Document::ModelState(s)) = e.doc.as_deref() {
            for g in &s.groups {
                if !groups.iter().any(|x| x == g.as_str()) {
                    groups.push(g.as_str().to_owned());
                }
            }
        }
    }
    groups
}

/// The ids condition families may name in this ruleset, and every condition id it can spell
/// (for did-you-mean hints), gathered once per ruleset.
struct Names {
    bands: Vec<String>,
    states: Vec<String>,
    state_groups: Vec<String>,
    sas: Vec<String>,
    upgrades: Vec<String>,
    attributes: Vec<String>,
    terrain_values: Vec<String>,
    defense_arcs: Vec<String>,
    ruleset_loaded: bool,
    own_actions: Vec<String>,
    actions_loaded: bool,
    all: Vec<String>,
}

impl Names {
    fn new(rs: &Ruleset) -> Names {
        let ids = |kind: DocKind| rs.of_kind(kind).map(|e| e.id.clone()).collect::<Vec<_>>();
        let bands = rs
            .of_kind(DocKind::RangeBands)
            .filter_map(|e| match e.doc.as_deref() {
                Some(Document::RangeBands(b)) => Some(b.bands.iter().map(|x| x.id.0.clone()).collect::<Vec<_>>()),
                _ => None,
            })
            .flatten()
            .collect();
        let mut names = Names {
            bands,
            states: ids(DocKind::ModelState),
            state_groups: state_groups(rs),
            sas: ids(DocKind::SpecialAttribute),
            upgrades: ids(DocKind::Upgrade),
            attributes: ruleset_attributes(rs),
            terrain_values: terrain_values(rs),
            defense_arcs: defense_arcs(rs),
            ruleset_loaded: ruleset_loaded(rs),
            own_actions: own_actions(rs),
            actions_loaded: rs.of_kind(DocKind::ActionType).all(|e| e.doc.is_some()),
            all: vocab::CONDITIONS.iter().map(|c| c.id.to_owned()).collect(),
        };
        let mut all = std::mem::take(&mut names.all);
        for f in vocab::CONDITION_FAMILIES {
            for id in names.family(f.names).unwrap_or_default() {
                all.push(format!("{}{id}", f.prefix));
            }
        }
        names.all = all;
        names
    }

    /// The ids a family's rest may name (`None`: not checked).
    fn family(&self, names: FamilyRef) -> Option<&[String]> {
        Some(match names {
            FamilyRef::RangeBand => &self.bands,
            FamilyRef::ModelState => &self.states,
            FamilyRef::StateGroup => &self.state_groups,
            FamilyRef::SpecialAttribute => &self.sas,
            FamilyRef::Upgrade => &self.upgrades,
            // (A ruleset document that did not load declares nothing we know of: its own error
            // is the one to report, not every row naming its attributes.)
            FamilyRef::Attribute if !self.ruleset_loaded => return None,
            FamilyRef::Attribute => &self.attributes,
            FamilyRef::TerrainValue if !self.ruleset_loaded => return None,
            FamilyRef::TerrainValue => &self.terrain_values,
            FamilyRef::DefenseArc if !self.ruleset_loaded => return None,
            FamilyRef::DefenseArc => &self.defense_arcs,
            // (Likewise an action type that did not load may have been one.)
            FamilyRef::OwnAction if !self.actions_loaded => return None,
            FamilyRef::OwnAction => &self.own_actions,
            FamilyRef::CriticalResult => return None,
        })
    }
}

/// Check the vocabulary words of one document.
fn check(cx: &mut Cx, doc: &Document) {
    match doc {
        Document::ModifierTable(t) => {
            for (i, m) in t.modifiers.iter().enumerate() {
                let what = || format!("modifier `{}`", m.id);
                cx.condition(&|| format!("/modifiers/{i}/condition"), m.condition.as_str(), &what);
                for (j, c) in m.also.iter().enumerate() {
                    cx.condition(&|| format!("/modifiers/{i}/also/{j}"), c.as_str(), &what);
                }
            }
        }
        // Hook points a script handles are checked with the script (cav-script's `check`).
        Document::SpecialAttribute(sa) => cx.effects(&sa.modifiers),
        // A special attribute given under a condition (`{sa: improved-range, condition: …}`).
        Document::Weapon(w) => cx.sa_conditions("/special_attributes", &w.special_attributes),
        Document::Model(m) => {
            cx.sa_when_untested("/special_attributes", &m.special_attributes);
            for (i, w) in m.weapons.iter().enumerate() {
                // Most mounts give no special attribute under a condition: no pointer to make.
                let conditional =
                    |r: &cav_format::SaRef| matches!(r, cav_format::SaRef::Rated(r) if !r.when.is_empty());
                if w.special_attributes.iter().any(conditional) {
                    cx.sa_conditions(&format!("/weapons/{i}/special_attributes"), &w.special_attributes);
                }
            }
        }
        Document::Upgrade(u) => {
            cx.effects(&u.modifiers);
            cx.sa_when_untested("/grants", &u.grants);
            for (i, p) in u.profiles.iter().enumerate() {
                cx.sa_when_untested(&format!("/profiles/{i}/special_attributes"), &p.special_attributes);
            }
        }
        Document::Strike(s) => cx.sa_when_untested("/attack/special_attributes", &s.attack.special_attributes),
        Document::Asset(a) => {
            if let Some(att) = &a.attack {
                cx.sa_when_untested("/attack/special_attributes", &att.special_attributes);
            }
        }
        Document::ActionType(a) => cx.action(a),
        Document::Ruleset(r) => {
            cx.options(r);
            // The conditional bounds of the attack's rolls (`bounds:`) name conditions too.
            let attack = r.procedures.attack.iter().flat_map(|a| {
                std::iter::once(("attack/hit", "hit", &a.hit))
                    .chain(a.damage.as_ref().map(|d| ("attack/damage", "damage", &d.roll)))
            });
            let melee = r.procedures.melee.iter().map(|m| ("melee/hit", "melee hit", &m.hit));
            for (at, name, roll) in attack.chain(melee) {
                for (i, b) in roll.bounds.iter().enumerate() {
                    let ptr = || format!("/procedures/{at}/bounds/{i}/condition");
                    cx.condition(&ptr, b.condition.as_str(), &|| format!("the {name} roll's bound"));
                }
            }
            for (i, u) in r.c3.iter().flat_map(|c| c.uses.iter()).enumerate() {
                if let Status::Recognised(why) = u.status() {
                    cx.warn(
                        &format!("/c3/uses/{i}"),
                        format!("C3 use `{u}` is recognised but not implemented ({why}): no point can be spent on it"),
                    );
                }
            }
            for (ty, rules) in &r.model_types {
                for (i, t) in rules.traits.iter().enumerate() {
                    if let Status::Recognised(why) = t.status() {
                        cx.warn(
                            &format!("/model_types/{ty}/traits/{i}"),
                            format!("model trait `{t}` is recognised but not implemented ({why}): {ty} models play without it"),
                        );
                    }
                }
            }
        }
        _ => {}
    }
}

struct Cx<'a> {
    names: &'a Names,
    e: &'a Entry,
    diags: &'a mut Vec<Diagnostic>,
}

impl Cx<'_> {
    fn located(&self, d: Diagnostic, ptr: &str) -> Diagnostic {
        d.at(self.e.prov.locate(ptr)).pack(self.e.pack.clone()).pointer(ptr)
    }

    fn warn(&mut self, ptr: &str, message: String) {
        let d = self.located(Diagnostic::warning("not-implemented", message), ptr);
        self.diags.push(d);
    }

    /// The pointer and the name of what the condition belongs to are made only for a diagnostic:
    /// every modifier of every table is checked on every reload, and nearly all are fine.
    fn condition(&mut self, ptr: &dyn Fn() -> String, id: &str, what: &dyn Fn() -> String) {
        match vocab::condition(id) {
            None => {
                let d = Diagnostic::error(
                    "unknown-condition",
                    format!("condition `{id}` is not in the engine's vocabulary"),
                )
                .expected("a condition id listed in docs/vocabulary.md")
                .hint(did_you_mean(id, self.names.all.iter().map(String::as_str)));
                let d = self.located(d, &ptr());
                self.diags.push(d);
            }
            Some(ConditionWord::Fixed(c)) => {
                if let Status::Recognised(why) = c.status {
                    self.warn(
                        &ptr(),
                        format!("condition `{id}` is recognised but not implemented ({why}): {} never applies", what()),
                    );
                }
            }
            Some(ConditionWord::Family(f, rest)) => {
                if let Some(ids) = self.names.family(f.names)
                    && !ids.iter().any(|x| x == rest)
                {
                    let d = Diagnostic::error(
                        "unknown-condition",
                        format!("condition `{id}`: {} `{rest}` does not exist", f.names.what()),
                    )
                    .expected(format!("`{}` followed by the id of a {}", f.prefix, f.names.what()))
                    .hint(did_you_mean(id, self.names.all.iter().map(String::as_str)));
                    let d = self.located(d, &ptr());
                    self.diags.push(d);
                } else if let Status::Recognised(why) = f.status {
                    self.warn(
                        &ptr(),
                        format!("condition `{id}` is recognised but not implemented ({why}): {} never applies", what()),
                    );
                }
            }
        }
    }

    /// `when:` is tested for a weapon's special attributes only (the attack it is part of is the
    /// situation): elsewhere it would be ignored, so it is a warning that says so.
    fn sa_when_untested(&mut self, ptr: &str, sas: &[cav_format::SaRef]) {
        for (i, r) in sas.iter().enumerate() {
            if let cav_format::SaRef::Rated(r) = r
                && !r.when.is_empty()
            {
                self.warn(
                    &format!("{ptr}/{i}/when"),
                    format!(
                        "`when:` is not tested here (only on a weapon's special attributes): `{}` always applies, whatever the conditions",
                        r.sa
                    ),
                );
            }
        }
    }

    fn sa_conditions(&mut self, ptr: &str, sas: &[cav_format::SaRef]) {
        for (i, r) in sas.iter().enumerate() {
            let cav_format::SaRef::Rated(r) = r else { continue };
            for (j, c) in r.when.iter().enumerate() {
                let at = format!("{ptr}/{i}/when/{j}");
                // `sa-…` tests the attacker's special attributes, this one among them.
                if c.as_str().starts_with("sa-") {
                    let d = Diagnostic::error(
                        "unknown-condition",
                        format!(
                            "special attribute `{}` cannot be given under condition `{c}`: a condition on special attributes would test itself",
                            r.sa
                        ),
                    )
                    .expected("a condition that does not depend on the attacker's special attributes");
                    let d = self.located(d, &at);
                    self.diags.push(d);
                    continue;
                }
                self.condition(&|| at.clone(), c.as_str(), &|| format!("special attribute `{}`", r.sa));
            }
        }
    }

    fn effects(&mut self, modifiers: &[Modifier]) {
        for (i, m) in modifiers.iter().enumerate() {
            let ptr = format!("/modifiers/{i}");
            if let Status::Recognised(why) = m.target.status() {
                self.warn(
                    &format!("{ptr}/target"),
                    format!(
                        "effect target `{}` is recognised but not implemented ({why}): this modifier never applies",
                        m.target
                    ),
                );
                continue;
            }
            for (j, w) in m.when.iter().enumerate() {
                self.condition(&|| format!("{ptr}/when/{j}"), w.as_str(), &|| "this modifier".into());
            }
            if !m.when.is_empty() && !m.target.conditional() {
                self.warn(
                    &format!("{ptr}/when"),
                    format!(
                        "`when:` is not tested for effect target `{}` (a property of the card, read once): the effect always applies",
                        m.target
                    ),
                );
            }
        }
    }

    fn action(&mut self, a: &ActionType) {
        // A ruleset's own action: its word is its own; the engine's action it is a kind of is
        // checked as any action id (the schema holds `does:` to the vocabulary).
        if let Some(does) = a.does {
            if ActionKind::from_id(a.id.as_str()).is_some() {
                let d = Diagnostic::error(
                    "unknown-action",
                    format!(
                        "`{}` is an action of the engine: an action type with `does:` takes a word of its own",
                        a.id
                    ),
                )
                .expected("a word the engine's vocabulary does not have (`run`, `defend`)");
                let d = self.located(d, "/id");
                self.diags.push(d);
            }
            if let Status::Recognised(why) = does.status() {
                self.warn(
                    "/does",
                    format!("action `{does}` is recognised but not implemented ({why}): no model can take it"),
                );
            }
            return;
        }
        match ActionKind::from_id(a.id.as_str()) {
            None => {
                let d =
                    Diagnostic::error("unknown-action", format!("action `{}` is not in the engine's vocabulary", a.id))
                        .expected("an action id listed in docs/vocabulary.md")
                        .hint(did_you_mean(a.id.as_str(), ActionKind::ALL.iter().map(|k| k.id())));
                let d = self.located(d, "/id");
                self.diags.push(d);
            }
            Some(k) => {
                if let Status::Recognised(why) = k.status() {
                    self.warn(
                        "/id",
                        format!("action `{k}` is recognised but not implemented ({why}): no model can take it"),
                    );
                }
            }
        }
    }

    fn options(&mut self, r: &cav_format::Ruleset) {
        for (i, o) in r.options.iter().enumerate() {
            match vocab::OPTIONS.iter().find(|x| x.id == o.id.as_str()) {
                Some(engine) => {
                    for (j, c) in o.choices.iter().enumerate() {
                        if !engine.values.contains(&c.as_str()) {
                            let d = Diagnostic::error(
                                "unknown-option-value",
                                format!("option `{}` has no value `{c}` in the engine", o.id),
                            )
                            .expected(format!("one of {}", engine.values.join(", ")))
                            .hint(did_you_mean(c.as_str(), engine.values.iter().copied()));
                            let d = self.located(d, &format!("/options/{i}/choices/{j}"));
                            self.diags.push(d);
                        }
                    }
                }
                None => self.warn(
                    &format!("/options/{i}/id"),
                    format!(
                        "option `{}` is a documented reading the engine does not read: choosing another value than `{}` changes nothing",
                        o.id, o.default
                    ),
                ),
            }
        }
    }
}
