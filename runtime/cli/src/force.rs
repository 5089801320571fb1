//! `cav force check` and `cav force build`: rosters held to the ruleset's force-building rules,
//! and a bot that builds a legal one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_content::{Diagnostic, Ruleset, Severity};
use cav_format::{DocKind, Document, Force};
use clap::Subcommand;

use cav_content::LoadOptions;

use crate::project::{load_options, load_with, select_rulesets};
use crate::result_cache::{self, Output};
use crate::{EXIT_INVALID, Format};

#[derive(Subcommand)]
pub enum ForceCommand {
    /// Check rosters (`kind: force` files, inside a pack or anywhere) against the ruleset's force
    /// building: faction, squads (types, sizes, tasks, secondary limit), upgrades, assets,
    /// strike pool and threat value. Every violation is located at file:line and cites the rule.
    #[command(
        after_help = "Exit codes: 0 every roster is legal, 1 a roster breaks a rule or the content has errors, 2 usage.\n\
        Examples:\n  cav force check mods/iron-wolves/forces/wolf-pack.yaml\n  cav force check my-roster.yaml --format json"
    )]
    Check {
        /// Roster files (YAML, one or more `kind: force` documents each).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Ruleset whose force-building rules apply (`full`, or a ruleset pack id).
        #[arg(long, default_value = "full")]
        ruleset: String,
        #[arg(long, value_enum, default_value = "human")]
        format: Format,
    },
    /// Let a bot build a legal force for a faction and a threat value pool: squads of models the
    /// faction may field, then upgrades paid from the specialization bonus. The same seed and
    /// content give the same force.
    #[command(after_help = "Prints the roster as YAML (or writes it with --out), ready for `cav force check`.\n\
        Examples:\n  cav force build --faction open --tv 2500 --seed 7\n  \
        cav force build --faction ritterlich-republic --tv 1000 --out red.yaml")]
    Build {
        /// Faction id or name (`cav list faction` lists them).
        #[arg(long)]
        faction: String,
        /// The threat value pool.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
        tv: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "full")]
        ruleset: String,
        /// Write the roster to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// The book's guide to a starting threat value pool: the TV per model of a chassis size in one
    /// of the ruleset's tables (`force_building.pool_guide`), times the squads agreed on, times the
    /// models the tables assume a squad holds. Without --size, prints the tables.
    #[command(after_help = "Exit codes: 0 printed, 1 no such table or size (the known ones are listed), 2 usage.\n\
        Examples:\n  cav force pool\n  cav force pool --table cav-and-vehicles --size medium --squads 3")]
    Pool {
        /// Table id (`cav`, `vehicles`, `cav-and-vehicles` in the full rules).
        #[arg(long)]
        table: Option<String>,
        /// Chassis size in that table (`medium`, `extra-large`, …).
        #[arg(long, requires = "table")]
        size: Option<String>,
        /// Squads per side.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        squads: u32,
        #[arg(long, default_value = "full")]
        ruleset: String,
    },
}

/// Content (and rosters) unchanged since an earlier run answer from the cache
/// (`result_cache::answer`, `result_cache::kept`): checking, building with a seed and the guide
/// are functions of them.
pub fn run(cmd: ForceCommand, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    let opts = load_options(vec![], root);
    match cmd {
        ForceCommand::Check { files, ruleset, format } => {
            // The rosters by their paths and bytes; one that cannot be hashed soundly (a link, a
            // FIFO, a device) is not cached, and the check says what is wrong with it.
            let digest = result_cache::files_digest(&files);
            let shape: &[u8] = if format == Format::Json { b"json" } else { b"human" };
            let rosters: &[u8] = digest.as_ref().map_or(&[], |d| d);
            let what: [(&str, &[u8]); 3] = [("ruleset", ruleset.as_bytes()), ("format", shape), ("rosters", rosters)];
            result_cache::answer(no_cache || digest.is_none(), "force-check", &opts, &what, || {
                let out = check(&opts, &files, &ruleset, format)?;
                // A roster changed while it was checked: the verdict is not of the bytes keyed.
                Ok((out, result_cache::files_digest(&files) != digest))
            })
        }
        ForceCommand::Build { faction, tv, seed, ruleset, out } => {
            let schema = match &out {
                Some(p) => relative_schema(root, p),
                None => "schemas/editor/force.schema.json".to_owned(),
            };
            let (tvb, seedb) = (tv.to_le_bytes(), seed.to_le_bytes());
            let what: [(&str, &[u8]); 5] = [
                ("faction", faction.as_bytes()),
                ("tv", &tvb),
                ("seed", &seedb),
                ("ruleset", ruleset.as_bytes()),
                ("schema", schema.as_bytes()),
            ];
            let built: Built = result_cache::kept(no_cache, "force-build", &opts, &what, || {
                Ok((build(&opts, &faction, tv, seed, &ruleset, &schema)?, false))
            })?;
            match out {
                Some(p) => {
                    std::fs::write(&p, &built.text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                    eprintln!("wrote {} ({} squads, TV {} of {})", p.display(), built.squads, built.total, tv);
                }
                None => print!("{}", built.text),
            }
            Ok(ExitCode::SUCCESS)
        }
        ForceCommand::Pool { table, size, squads, ruleset } => {
            let squadsb = squads.to_le_bytes();
            let what: [(&str, &[u8]); 4] = [
                ("table", table.as_deref().map_or(&[0xff][..], str::as_bytes)),
                ("size", size.as_deref().map_or(&[0xff][..], str::as_bytes)),
                ("squads", &squadsb),
                ("ruleset", ruleset.as_bytes()),
            ];
            result_cache::answer(no_cache, "force-pool", &opts, &what, || {
                Ok((pool(&opts, table.as_deref(), size.as_deref(), squads, &ruleset)?, false))
            })
        }
    }
}

/// The ruleset to build forces in, when the content loads without errors.
fn ruleset<'l>(loaded: &'l cav_content::Loaded, want: &str, skip: &[PathBuf]) -> Result<&'l Ruleset, String> {
    let rs = select_rulesets(loaded, Some(want))?.into_iter().next().ok_or("no ruleset")?;
    let elsewhere = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| !d.loc.is_some_and(|l| skip.iter().any(|p| same_file(&loaded.sources.get(l.file).path, p))))
        .count();
    if elsewhere > 0 {
        return Err(format!("the content has {elsewhere} error(s); run `cav validate` and fix them first"));
    }
    if cav_forces::force_rules(rs).is_none() {
        return Err(format!("ruleset `{}` does not build forces (its scenarios fix their forces)", rs.id));
    }
    Ok(rs)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn check(opts: &LoadOptions, files: &[PathBuf], want: &str, format: Format) -> Result<Output, String> {
    let mut loaded = load_with(opts);
    cav_compile::validate(&mut loaded);
    let rs = ruleset(&loaded, want, files)?.clone();
    // The ruleset's own force-building rules first (an undeclared faction class, a reading with
    // no formula): a roster's verdict means nothing under rules that are wrong.
    let mut diags: Vec<Diagnostic> = cav_forces::check_ruleset(&rs);
    let mut summaries = Vec::new();
    for file in files {
        let (docs, mut d) = cav_content::read_loose(&mut loaded, file, DocKind::Force);
        diags.append(&mut d);
        for doc in docs {
            let Document::Force(force) = &doc.doc else { continue };
            let found = cav_forces::check(&rs, force, &|p| doc.prov.locate(p), None);
            let errors = found.iter().filter(|d| d.severity == Severity::Error).count();
            summaries.push((file.clone(), force.clone(), errors));
            diags.extend(found);
        }
    }
    cav_content::diag::normalise(&mut diags, &loaded.sources);
    let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    match format {
        Format::Json => {
            let forces: Vec<serde_json::Value> = summaries
                .iter()
                .map(|(file, f, e)| {
                    let c = cav_forces::costs(&rs, f);
                    serde_json::json!({
                        "file": file.display().to_string(), "id": f.id.as_str(), "legal": *e == 0,
                        "tvp": f.tvp, "models": c.models, "upgrades": c.upgrades, "assets": c.assets,
                        "strike_pool": c.strike_pool, "total": c.total(), "c3_points": cav_forces::c3_points(&rs, f),
                    })
                })
                .collect();
            let out = serde_json::json!({
                "legal": errors == 0,
                "ruleset": rs.id,
                "forces": forces,
                "diagnostics": cav_content::diag::to_json(&diags, &loaded.sources),
            });
            let _ = writeln!(stdout, "{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
        Format::Human => {
            stderr = cav_content::diag::render_human(&diags, &loaded.sources);
            for (file, f, e) in &summaries {
                stdout.push_str(&summary(&rs, file, f, *e));
            }
            if summaries.is_empty() && errors == 0 {
                let _ = writeln!(stdout, "no `kind: force` document in {}", files.len());
            }
        }
    }
    Ok(Output { code: if errors > 0 { EXIT_INVALID } else { 0 }, stdout, stderr })
}

fn summary(rs: &Ruleset, file: &Path, f: &Force, errors: usize) -> String {
    let c = cav_forces::costs(rs, f);
    let rules = cav_forces::force_rules(rs);
    let bonus = rules.map_or(0, |r| (f.tvp as u64 * r.specialization_bonus_percent as u64 / 100) as u32);
    let models: u32 = f.squads.iter().flat_map(|s| &s.models).map(|m| m.count).sum();
    let mut s = String::new();
    let verdict = if errors == 0 { "legal".to_owned() } else { format!("{errors} violation(s)") };
    let _ = writeln!(
        s,
        "{}: force `{}` ({}, {} squads, {models} models): {verdict}",
        file.display(),
        f.id.as_str(),
        f.faction.as_str(),
        f.squads.len()
    );
    let _ = writeln!(
        s,
        "  TV {} of {} + bonus {bonus}: models {}, upgrades {}, assets {}, strike pool {}; C3 points {}",
        c.total(),
        f.tvp,
        c.models,
        c.upgrades,
        c.assets,
        c.strike_pool,
        cav_forces::c3_points(rs, f)
    );
    s
}

/// A roster `cav force build` made: its YAML (`schema` in the editor modeline), squads and TV.
#[derive(serde::Serialize, serde::Deserialize)]
struct Built {
    text: String,
    squads: usize,
    total: u32,
}

fn build(opts: &LoadOptions, faction: &str, tv: u32, seed: u64, want: &str, schema: &str) -> Result<Built, String> {
    let mut loaded = load_with(opts);
    cav_compile::validate(&mut loaded);
    let rs = ruleset(&loaded, want, &[])?;
    let force = cav_forces::build(rs, &cav_forces::BuildRequest { faction: faction.to_owned(), tvp: tv, seed })?;
    let text = cav_forces::to_yaml(&force, schema);
    Ok(Built { text, squads: force.squads.len(), total: cav_forces::costs(rs, &force).total() })
}

/// `cav force pool`: a starting pool from the ruleset's guide (001 L1643-1675), or its tables.
fn pool(
    opts: &LoadOptions,
    table: Option<&str>,
    size: Option<&str>,
    squads: u32,
    want: &str,
) -> Result<Output, String> {
    let mut loaded = load_with(opts);
    cav_compile::validate(&mut loaded);
    let rs = ruleset(&loaded, want, &[])?;
    let guide = cav_forces::force_rules(rs).and_then(|f| f.pool_guide.as_ref()).ok_or_else(|| {
        format!("ruleset `{}` gives no guide to a starting pool (`force_building.pool_guide`)", rs.id)
    })?;
    let cite = guide.source.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
    let (mut out, mut err) = (String::new(), String::new());
    let known = |ids: &mut dyn Iterator<Item = &cav_format::Id>| ids.map(|i| i.as_str()).collect::<Vec<_>>().join(", ");
    let Some(size) = size else {
        for (id, sizes) in guide.tables.iter().filter(|(id, _)| table.is_none_or(|t| id.as_str() == t)) {
            let _ = writeln!(out, "{id}: TV per model (per squad of {})", guide.squad_size);
            let mut rows: Vec<(&cav_format::Id, &u32)> = sizes.iter().collect();
            rows.sort_by_key(|&(_, tv)| *tv);
            for (s, tv) in rows {
                let _ = writeln!(out, "  {:<12} {tv:>5} ({:>6})", s.as_str(), tv.saturating_mul(guide.squad_size));
            }
        }
        if let Some(t) = table.filter(|t| !guide.tables.keys().any(|k| k.as_str() == *t)) {
            let _ = writeln!(err, "error: no table `{t}` in the guide; tables: {}", known(&mut guide.tables.keys()));
            return Ok(Output { code: EXIT_INVALID, stdout: out, stderr: err });
        }
        return Ok(Output { code: 0, stdout: out, stderr: err });
    };
    let table = table.unwrap_or_default();
    let Some(sizes) = guide.tables.iter().find(|(k, _)| k.as_str() == table).map(|(_, v)| v) else {
        let _ = writeln!(err, "error: no table `{table}` in the guide; tables: {}", known(&mut guide.tables.keys()));
        return Ok(Output { code: EXIT_INVALID, stdout: out, stderr: err });
    };
    let Some(per_model) = sizes.iter().find(|(k, _)| k.as_str() == size).map(|(_, v)| *v) else {
        let _ = writeln!(err, "error: no size `{size}` in table `{table}`; sizes: {}", known(&mut sizes.keys()));
        return Ok(Output { code: EXIT_INVALID, stdout: out, stderr: err });
    };
    let pool = u64::from(squads) * u64::from(guide.squad_size) * u64::from(per_model);
    let _ = writeln!(
        out,
        "{pool} TV: {squads} squad{} × {} models × {per_model} TV ({size}, {table}){cite}",
        if squads == 1 { "" } else { "s" },
        guide.squad_size
    );
    Ok(Output { code: 0, stdout: out, stderr: err })
}

/// The schema's path as seen from the file written, for the editor modeline.
fn relative_schema(root: &Path, file: &Path) -> String {
    let schema = root.join("schemas/editor/force.schema.json");
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (schema.canonicalize(), dir.canonicalize()) {
        (Ok(s), Ok(d)) => {
            let common = s.ancestors().find(|a| d.starts_with(a)).map(Path::to_path_buf).unwrap_or_default();
            let ups = d.strip_prefix(&common).map(|r| r.components().count()).unwrap_or(0);
            let rest = s.strip_prefix(&common).unwrap_or(&s);
            format!("{}{}", "../".repeat(ups), rest.display())
        }
        _ => schema.display().to_string(),
    }
}
