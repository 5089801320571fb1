//! Is a roster legal? One function per rule of 001 L594-1336, each reporting every violation it
//! finds at the roster's line, with the rulebook lines of the document that sets the rule.

mod assets;
mod faction;
mod limits;
mod ruleset;
mod squads;
mod upgrades;

use cav_content::diag::did_you_mean;
use cav_content::{Diagnostic, Loc, Ruleset};
use cav_format::vocab::{self, EngineOptions};
use cav_format::*;

use crate::roster::Roster;

pub(crate) use faction::may_field;
pub(crate) use limits::percent;
pub use ruleset::check_ruleset;

/// Where the roster is: how to locate a JSON pointer of it, and its pack (if any).
struct Site<'s> {
    locate: &'s dyn Fn(&str) -> Option<Loc>,
    pack: Option<&'s str>,
}

impl Site<'_> {
    fn diag(&self, d: Diagnostic, ptr: &str) -> Diagnostic {
        let d = d.at((self.locate)(ptr)).pointer(ptr.to_owned());
        match self.pack {
            Some(p) => d.pack(p.to_owned()),
            None => d,
        }
    }
    fn error(&self, ptr: &str, message: String, expected: &str, cite: Option<&str>) -> Diagnostic {
        self.diag(Diagnostic::error("force-rule", cited(message, cite)).expected(expected.to_owned()), ptr)
    }
    fn warning(&self, ptr: &str, message: String, cite: Option<&str>) -> Diagnostic {
        self.diag(Diagnostic::warning("force-rule", cited(message, cite)), ptr)
    }
    fn dangling(&self, ptr: &str, kind: DocKind, id: &str, candidates: Vec<&str>) -> Diagnostic {
        let what = kind.tag().replace('_', " ");
        self.diag(
            Diagnostic::error("dangling-ref", format!("{what} `{id}` does not exist"))
                .expected(format!("the id of a {} document", kind.tag()))
                .hint(did_you_mean(id, candidates))
                .missing(kind, id),
            ptr,
        )
    }
}

fn cited(message: String, cite: Option<&str>) -> String {
    match cite {
        Some(c) => format!("{message} ({c})"),
        None => message,
    }
}

/// Every violation of the ruleset's force-building rules in `force`, located through `locate`
/// (JSON pointer → file:line:col). Empty when the roster is legal. A ruleset without force
/// building reports that once.
pub fn check(rs: &Ruleset, force: &Force, locate: &dyn Fn(&str) -> Option<Loc>, pack: Option<&str>) -> Vec<Diagnostic> {
    let site = Site { locate, pack };
    let mut out = Vec::new();
    let Some(rules) = crate::force_rules(rs) else {
        out.push(site.error(
            "",
            format!("ruleset `{}` does not build forces (its ruleset document has no `force_building:`)", rs.id),
            "a ruleset with force-building rules, e.g. `--ruleset full`",
            None,
        ));
        return out;
    };
    let r = Roster::new(rs);
    let cx = Cx { rs, r: &r, rules, force, site: &site, secondary_reading: chosen_reading(rs, SECONDARY_OPTION) };
    cx.faction(&mut out);
    cx.squads(&mut out);
    cx.squad_counts(&mut out);
    cx.upgrades(&mut out);
    cx.uniques(&mut out);
    cx.assets_and_strikes(&mut out);
    cx.threat_value(&mut out);
    out
}

/// The ruleset option whose chosen reading picks the secondary-squad formula.
pub(crate) const SECONDARY_OPTION: &str = "secondary-squad-limit";

/// The reading a ruleset plays of option `id`: the value its `options:` entry chooses, or the
/// engine's default reading when it does not declare the option.
pub(crate) fn chosen_reading<'r>(rs: &'r Ruleset, id: &str) -> Option<&'r str> {
    let declared = crate::ruleset_doc(rs).and_then(|d| d.options.iter().find(|o| o.id.as_str() == id));
    if let Some(o) = declared {
        return Some(o.default.as_str());
    }
    let engine = vocab::OPTIONS.iter().find(|o| o.id == id)?;
    engine.values.iter().copied().find(|v| {
        let mut opts = EngineOptions::default();
        opts.set(id, v) && opts == EngineOptions::default()
    })
}

struct Cx<'a> {
    rs: &'a Ruleset,
    r: &'a Roster<'a>,
    rules: &'a ForceRules,
    force: &'a Force,
    site: &'a Site<'a>,
    /// The chosen reading of option `secondary-squad-limit`.
    secondary_reading: Option<&'a str>,
}

impl<'a> Cx<'a> {
    fn ids(&self, kind: DocKind) -> Vec<&'a str> {
        self.rs.of_kind(kind).map(|e| e.id.as_str()).collect()
    }

    fn faction_doc(&self) -> Option<&'a Faction> {
        self.r.faction(self.force.faction.as_str())
    }
}

fn list<'x>(items: impl Iterator<Item = &'x str>) -> String {
    let v: Vec<&str> = items.collect();
    match v.len() {
        0 => String::new(),
        1 => v[0].to_owned(),
        n => format!("{} or {}", v[..n - 1].join(", "), v[n - 1]),
    }
}

pub(crate) fn task_name(t: Option<Task>) -> &'static str {
    let Some(t) = t else { return "no task" };
    match t {
        Task::Attack => "attack",
        Task::FireSupport => "fire support",
        Task::Recon => "recon",
        Task::Transport => "transport",
        Task::FlightAttack => "flight attack",
        Task::FlightFireSupport => "flight fire support",
        Task::FlightRecon => "flight recon",
        Task::FlightTransport => "flight transport",
    }
}
