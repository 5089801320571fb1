//! `cav show`: one resolved document found by id or name — as text (a model as its data card,
//! with upgrades fitted), with where each value came from, or as JSON.

use std::path::Path;
use std::process::ExitCode;

use crate::project::{load_options, load_with, parse_kind, select_rulesets};
use crate::result_cache::{self, Output};
use crate::{Format, reports, show};

/// `cav show`: the document printed; a document not found, or found more than once, is a usage
/// error.
#[allow(clippy::too_many_arguments)]
pub fn run(
    root: &Path,
    id: String,
    explain: bool,
    ruleset: Option<String>,
    kind: Option<String>,
    with: Vec<String>,
    format: Format,
    no_cache: bool,
) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    let explained = [u8::from(explain)];
    let mut what: Vec<(&str, &[u8])> = vec![
        ("id", id.as_bytes()),
        ("explain", &explained),
        ("ruleset", ruleset.as_deref().map_or(&[0xff][..], str::as_bytes)),
        ("kind", kind.as_deref().map_or(&[0xff][..], str::as_bytes)),
        ("format", if format == Format::Json { b"json" } else { b"human" }),
    ];
    what.extend(with.iter().map(|w| ("with", w.as_bytes())));
    result_cache::answer(no_cache, "show", &opts, &what, || {
        let stdout = show(&opts, &id, explain, ruleset.as_deref(), kind.as_deref(), &with, format)?;
        Ok((Output { code: 0, stdout, stderr: String::new() }, false))
    })
}

/// The document as `cav show` prints it.
fn show(
    opts: &cav_content::LoadOptions,
    id: &str,
    explain: bool,
    ruleset: Option<&str>,
    kind: Option<&str>,
    with: &[String],
    format: Format,
) -> Result<String, String> {
    let kind = kind.map(parse_kind).transpose()?;
    let loaded = load_with(opts);
    let rulesets = select_rulesets(&loaded, ruleset)?;
    let found = rulesets.iter().find_map(|rs| {
        let hits: Vec<_> = rs.find(id).into_iter().filter(|e| kind.is_none_or(|k| e.kind == k)).collect();
        (!hits.is_empty()).then_some((rs, hits))
    });
    let Some((rs, hits)) = found else {
        let all: Vec<String> = loaded.rulesets.iter().flat_map(|r| r.entries().map(|e| e.id.clone())).collect();
        let hint = cav_content::diag::did_you_mean(id, all.iter().map(String::as_str))
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        return Err(format!(
            "no document `{id}` in {}{hint}",
            rulesets.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
        ));
    };
    if hits.len() > 1 {
        let kinds: Vec<&str> = hits.iter().map(|e| e.kind.tag()).collect();
        return Err(format!("`{id}` names several documents ({}); add --kind", kinds.join(", ")));
    }
    let e = hits[0];
    if !with.is_empty() {
        let rules = cav_compile::compile_rules(rs).map_err(|m| format!("ruleset {} does not compile: {m}", rs.id))?;
        // Names and words come from packs: no control sequence reaches the terminal.
        return Ok(cav_content::diag::shown_lines(&show::fitted(e, rs, rules, with)?));
    }
    if format == Format::Json {
        let report = reports::ShowReport {
            kind: e.kind.tag().to_owned(),
            id: e.id.clone(),
            name: e.name().to_owned(),
            pack: e.pack.clone(),
            ruleset: rs.id.clone(),
            document: (*e.value).clone(),
            provenance: explain.then(|| show::provenance(e, &loaded.sources)),
        };
        return Ok(format!("{}\n", serde_json::to_string_pretty(&report).unwrap_or_default()));
    }
    let text = if explain { show::explain(e, &loaded.sources) } else { show::render(e, rs) };
    Ok(cav_content::diag::shown_lines(&text))
}
