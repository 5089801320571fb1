//! `cav list`: the documents of each ruleset counted per kind and pack, or those of one kind
//! listed with a line of stats each.

use std::fmt::Write;
use std::path::Path;
use std::process::ExitCode;

use cav_format::DocKind;

use crate::project::{drop_in_background, errors_note, load_options, load_with, parse_kind, select_rulesets};
use crate::result_cache::{self, Output};
use crate::{EXIT_INVALID, Format, reports, show};

/// `cav list`: exit 1 when the content has errors (counted on stderr). Content unchanged since an
/// earlier run answers from the cache (`result_cache::answer`).
pub fn run(
    root: &Path,
    kind: Option<String>,
    ruleset: Option<String>,
    format: Format,
    no_cache: bool,
) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    let what: [(&str, &[u8]); 3] = [
        ("kind", kind.as_deref().unwrap_or_default().as_bytes()),
        ("ruleset", ruleset.as_deref().map_or(&[0xff][..], str::as_bytes)),
        ("format", if format == Format::Json { b"json" } else { b"human" }),
    ];
    result_cache::answer(no_cache, "list", &opts, &what, || {
        Ok((list(&opts, kind.as_deref(), ruleset.as_deref(), format)?, false))
    })
}

/// The listing, as `cav list` prints it.
fn list(
    opts: &cav_content::LoadOptions,
    kind: Option<&str>,
    ruleset: Option<&str>,
    format: Format,
) -> Result<Output, String> {
    let kind = kind.map(parse_kind).transpose()?;
    let loaded = load_with(opts);
    let mut report = reports::ListReport { rulesets: Vec::new() };
    for rs in select_rulesets(&loaded, ruleset)? {
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
    let mut out = String::new();
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
    let code = if loaded.error_count() == 0 { 0 } else { EXIT_INVALID };
    let stderr = errors_note(&loaded);
    drop_in_background(loaded);
    Ok(Output { code, stdout: out, stderr })
}
