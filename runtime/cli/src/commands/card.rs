//! `cav card`: the data cards of the models asked for (or of every model of a pack), drawn by
//! `card.rs` as one SVG page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_format::DocKind;

use crate::card;
use crate::project::{load_options, load_with, select_rulesets};
use crate::result_cache;

/// `cav card`: the SVG written to `svg`. Content unchanged since an earlier run gives the page
/// drawn then (`result_cache::kept`).
pub fn run(
    root: &Path,
    ids: Vec<String>,
    pack: Option<String>,
    ruleset: String,
    svg: PathBuf,
    no_cache: bool,
) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    let mut what: Vec<(&str, &[u8])> =
        vec![("ruleset", ruleset.as_bytes()), ("pack", pack.as_deref().map_or(&[0xff][..], str::as_bytes))];
    what.extend(ids.iter().map(|id| ("id", id.as_bytes())));
    let (page, count): (String, usize) = result_cache::kept(no_cache, "card", &opts, &what, || {
        Ok((draw(&opts, &ids, pack.as_deref(), &ruleset)?, false))
    })?;
    std::fs::write(&svg, page).map_err(|e| format!("cannot write {}: {e}", svg.display()))?;
    eprintln!("wrote {} ({count} card{})", svg.display(), if count == 1 { "" } else { "s" });
    Ok(ExitCode::SUCCESS)
}

/// The page of the cards asked for, and how many it holds.
fn draw(
    opts: &cav_content::LoadOptions,
    ids: &[String],
    pack: Option<&str>,
    ruleset: &str,
) -> Result<(String, usize), String> {
    let loaded = load_with(opts);
    let rs = select_rulesets(&loaded, Some(ruleset))?.into_iter().next().ok_or("no ruleset")?;
    let model = |e: &cav_content::Entry| match e.doc.as_deref() {
        Some(cav_format::Document::Model(m)) => Some(card::data(m, rs)),
        _ => None,
    };
    let mut cards = Vec::new();
    for id in ids {
        let Some(e) = rs.get(DocKind::Model, id) else {
            let all: Vec<&str> = rs.entries().filter(|e| e.kind == DocKind::Model).map(|e| e.id.as_str()).collect();
            let hint =
                cav_content::diag::did_you_mean(id, all.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
            return Err(format!("no model `{id}` in {}{hint}", rs.id));
        };
        cards.extend(model(e));
    }
    if let Some(p) = pack {
        let mut of: Vec<&cav_content::Entry> =
            rs.entries().filter(|e| e.kind == DocKind::Model && e.pack == *p).collect();
        if of.is_empty() {
            return Err(format!("pack `{p}` has no models in {} (`cav list model` lists them by pack)", rs.id));
        }
        of.sort_by(|a, b| a.id.cmp(&b.id));
        cards.extend(of.into_iter().filter_map(model));
    }
    Ok((card::svg(&cards), cards.len()))
}
