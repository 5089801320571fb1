//! `cav validate`: every problem of the packs in one run, as located diagnostics or JSON, with a
//! one-line verdict (the documents checked, the rulesets each mod joins).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use std::fmt::Write as _;

use crate::project::{drop_in_background, load_options, load_with};
use crate::result_cache::{self, Output};
use crate::{Deny, EXIT_INVALID, Format, pack_arg, reports};

/// `cav validate`: exit 1 on an error (or, with `--deny warnings`, a warning). A run over content
/// unchanged since an earlier run answers from the cache (`result_cache`), with the same output.
pub fn run(
    root: &Path,
    paths: Vec<PathBuf>,
    format: Format,
    deny: Option<Deny>,
    no_cache: bool,
) -> Result<ExitCode, String> {
    let opts = load_options(pack_arg::resolve_all(paths, root)?, root);
    let what: [(&str, &[u8]); 2] =
        [("format", if format == Format::Json { b"json" } else { b"human" }), ("deny", &[u8::from(deny.is_some())])];
    result_cache::answer(no_cache, "validate", &opts, &what, || check(&opts, format, deny))
}

/// The whole check, its output, and whether any finding depends on the moment of the run rather
/// than on the content.
fn check(opts: &cav_content::LoadOptions, format: Format, deny: Option<Deny>) -> Result<(Output, bool), String> {
    let mut loaded = load_with(opts);
    let parts = cav_compile::validate_parts(&mut loaded);
    let transient = parts.transient();
    drop_in_background(parts);
    let (mut stdout, mut stderr) = (String::new(), String::new());
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
            let _ = writeln!(stdout, "{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        Format::Human => {
            stderr = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
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
                let _ = writeln!(stdout, "ok: {} in {packs}{alongside} are valid{warned}", plural(own, "document"));
                // Which rulesets each mod asked about plays in (a mod may join several).
                for p in loaded.packs.iter().filter(|p| p.kind == cav_format::PackKind::Extension).take(NAMED) {
                    let joins: Vec<&str> =
                        loaded.rulesets.iter().filter(|r| r.pack(&p.id).is_some()).map(|r| r.id.as_str()).collect();
                    let joins = if joins.is_empty() { "no ruleset".to_owned() } else { joins.join(", ") };
                    let _ = writeln!(stdout, "  {} joins {joins}", p.id);
                }
            } else {
                let _ = writeln!(
                    stdout,
                    "{}{warned} in {} of {packs}{alongside}{}",
                    plural(errors, "error"),
                    plural(own, "document"),
                    if errors == 0 { " (warnings denied)" } else { "" }
                );
            }
        }
    }
    drop_in_background(loaded);
    Ok((Output { code: if failed { EXIT_INVALID } else { 0 }, stdout, stderr }, transient))
}
