//! `cav card`: the data cards of the models asked for (or of every model of a pack), drawn by
//! `card.rs` as one SVG page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_format::DocKind;

use crate::card;
use crate::project::{load, select_rulesets};

/// `cav card`: the SVG written to `svg`.
pub fn run(
    root: &Path,
    ids: Vec<String>,
    pack: Option<String>,
    ruleset: String,
    svg: PathBuf,
) -> Result<ExitCode, String> {
    let loaded = load(vec![], root);
    let rs = select_rulesets(&loaded, Some(&ruleset))?.into_iter().next().ok_or("no ruleset")?;
    let model = |e: &cav_content::Entry| match e.doc.as_deref() {
        Some(cav_format::Document::Model(m)) => Some(card::data(m, rs)),
        _ => None,
    };
    let mut cards = Vec::new();
    for id in &ids {
        let Some(e) = rs.get(DocKind::Model, id) else {
            let all: Vec<&str> = rs.entries().filter(|e| e.kind == DocKind::Model).map(|e| e.id.as_str()).collect();
            let hint =
                cav_content::diag::did_you_mean(id, all.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
            return Err(format!("no model `{id}` in {}{hint}", rs.id));
        };
        cards.extend(model(e));
    }
    if let Some(p) = &pack {
        let mut of: Vec<&cav_content::Entry> =
            rs.entries().filter(|e| e.kind == DocKind::Model && e.pack == *p).collect();
        if of.is_empty() {
            return Err(format!("pack `{p}` has no models in {} (`cav list model` lists them by pack)", rs.id));
        }
        of.sort_by(|a, b| a.id.cmp(&b.id));
        cards.extend(of.into_iter().filter_map(model));
    }
    std::fs::write(&svg, card::svg(&cards)).map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    eprintln!("wrote {} ({} card{})", svg.display(), cards.len(), if cards.len() == 1 { "" } else { "s" });
    Ok(ExitCode::SUCCESS)
}
