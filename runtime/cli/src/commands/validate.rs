//! `cav validate`: every problem of the packs in one run, as located diagnostics or JSON, with a
//! one-line verdict (the documents checked, the rulesets each mod joins).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::project::{drop_in_background, load};
use crate::{Deny, EXIT_INVALID, Format, pack_arg, reports};

/// `cav validate`: exit 1 on an error (or, with `--deny warnings`, a warning).
pub fn run(root: &Path, paths: Vec<PathBuf>, format: Format, deny: Option<Deny>) -> Result<ExitCode, String> {
    let mut loaded = load(pack_arg::resolve_all(paths, root)?, root);
    cav_compile::validate(&mut loaded);
    let errors = loaded.error_count();
    let warnings = loaded.diagnostics.len() - errors;
    let failed = errors > 0 || deny.is_some() && warnings > 0;
    match format {
        Format::Json => {
            let out = reports::ValidateReport {
                valid: !failed,
                errors,
                warnings,
                packs: loaded
                    .packs
                    .iter()
                    .map(|p| reports::PackRef { id: p.id.clone(), version: p.version.clone(), documents: p.documents })
                    .collect(),
                diagnostics: serde_json::from_value(cav_content::diag::to_json(&loaded.diagnostics, &loaded.sources))
                    .map_err(|e| format!("diagnostics do not fit their report: {e}"))?,
            };
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        Format::Human => {
            eprint!("{}", cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources));
            // Named up to a screenful; a long list ends "… and N more".
            const NAMED: usize = 12;
            let mut packs: Vec<String> =
                loaded.packs.iter().take(NAMED).map(|p| format!("{} {}", p.id, p.version)).collect();
            if loaded.packs.len() > NAMED {
                packs.push(format!("… and {} more", loaded.packs.len() - NAMED));
            }
            let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
            let warned = if warnings == 0 { String::new() } else { format!(", {}", plural(warnings, "warning")) };
            // The documents of the packs asked about, and apart those of the packs loaded
            // alongside because they build on them.
            let own: usize = loaded.packs.iter().map(|p| p.documents).sum();
            let (packs, alongside) = match (loaded.packs.len(), loaded.documents.saturating_sub(own)) {
                (1, 0) => (packs.join(", "), String::new()),
                (1, n) => (packs.join(", "), format!(" (and {n} of the packs it builds on)")),
                (k, 0) => (format!("{k} packs ({})", packs.join(", ")), String::new()),
                (k, n) => {
                    (format!("{k} packs ({})", packs.join(", ")), format!(" (and {n} of the packs they build on)"))
                }
            };
            if !failed {
                println!("ok: {} in {packs}{alongside} are valid{warned}", plural(own, "document"));
                // Which rulesets each mod asked about plays in (a mod may join several).
                for p in loaded.packs.iter().filter(|p| p.kind == cav_format::PackKind::Extension).take(NAMED) {
                    let joins: Vec<&str> =
                        loaded.rulesets.iter().filter(|r| r.pack(&p.id).is_some()).map(|r| r.id.as_str()).collect();
                    let joins = if joins.is_empty() { "no ruleset".to_owned() } else { joins.join(", ") };
                    println!("  {} joins {joins}", p.id);
                }
            } else {
                println!(
                    "{}{warned} in {} of {packs}{alongside}{}",
                    plural(errors, "error"),
                    plural(own, "document"),
                    if errors == 0 { " (warnings denied)" } else { "" }
                );
            }
        }
    }
    drop_in_background(loaded);
    Ok(ExitCode::from(if failed { EXIT_INVALID } else { 0 }))
}
