//! `cav list`: the documents of each ruleset counted per kind and pack, or those of one kind
//! listed with a line of stats each.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use cav_format::DocKind;

use crate::project::{load, parse_kind, report_errors, select_rulesets};
use crate::{EXIT_INVALID, Format, reports, show};

/// `cav list`: exit 1 when the content has errors (counted on stderr).
pub fn run(root: &Path, kind: Option<String>, ruleset: Option<String>, format: Format) -> Result<ExitCode, String> {
    let kind = kind.map(|k| parse_kind(&k)).transpose()?;
    let loaded = load(vec![], root);
    let mut report = reports::ListReport { rulesets: Vec::new() };
    for rs in select_rulesets(&loaded, ruleset.as_deref())? {
        let mut packs = Vec::new();
        for p in &rs.packs {
            let of_pack: Vec<_> = rs.entries().filter(|e| e.pack == p.id).collect();
            let counts = DocKind::ALL
                .iter()
                .filter_map(|&k| {
                    let n = of_pack.iter().filter(|e| e.kind == k).count();
                    (n > 0).then(|| (k.tag().to_owned(), n))
                })
                .collect();
            let entries = of_pack
                .iter()
                .filter(|e| Some(e.kind) == kind)
                .map(|e| reports::ListEntry {
                    kind: e.kind.tag().to_owned(),
                    id: e.id.clone(),
                    name: e.name().to_owned(),
                    stats: show::stats(e),
                })
                .collect();
            packs.push(reports::ListPack { id: p.id.clone(), version: p.version.to_string(), counts, entries });
        }
        report.rulesets.push(reports::ListRuleset { id: rs.id.clone(), packs });
    }
    let mut out = std::io::stdout().lock();
    if format == Format::Json {
        let _ = writeln!(out, "{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        for rs in &report.rulesets {
            let _ = writeln!(out, "ruleset {} ({} packs)", rs.id, rs.packs.len());
            for p in &rs.packs {
                if kind.is_none() {
                    let counts: Vec<String> = DocKind::ALL
                        .iter()
                        .filter_map(|k| p.counts.get(k.tag()).map(|n| format!("{n} {}", k.title())))
                        .collect();
                    let counts = if counts.is_empty() { "no documents".into() } else { counts.join(", ") };
                    let _ = writeln!(out, "  {} {}: {counts}", p.id, p.version);
                }
                for e in &p.entries {
                    let _ = writeln!(out, "  {:<36} {:<32} {:<14} {}", e.id, e.name, p.id, e.stats);
                }
            }
        }
    }
    report_errors(&loaded);
    Ok(ExitCode::from(if loaded.error_count() == 0 { 0 } else { EXIT_INVALID }))
}
