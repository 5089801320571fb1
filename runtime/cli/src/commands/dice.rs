//! `cav dice`: the exact odds of a dice expression (every result, at least, at most), or of a
//! ruleset's roll kind succeeding at each target — what `ctx.make_roll` and the bots read.

use std::path::Path;
use std::process::ExitCode;

use cav_rules::DiceExpr;
use serde::Serialize;

use crate::runner::compiled_rules;
use crate::{EXIT_INVALID, EXIT_USAGE, Format};

#[derive(Serialize)]
struct DiceReport {
    dice: String,
    /// One row per possible result: the chance of exactly it, of it or more, of it or less.
    results: Vec<ResultRow>,
}

#[derive(Serialize)]
struct ResultRow {
    result: i32,
    exactly: f64,
    at_least: f64,
    at_most: f64,
}

#[derive(Serialize)]
struct KindReport {
    kind: String,
    dice: String,
    succeeds: &'static str,
    modifier: i32,
    /// The chance of success at each target.
    targets: Vec<TargetRow>,
}

#[derive(Serialize)]
struct TargetRow {
    target: i32,
    success: f64,
}

/// The most rows a table prints (an exploding or wide expression has thousands of results).
const MOST_ROWS: usize = 200;

pub fn run(
    root: &Path,
    expr: Option<String>,
    kind: Option<String>,
    ruleset: &str,
    modifier: i32,
    format: Format,
    no_cache: bool,
) -> Result<ExitCode, String> {
    if let Some(id) = kind {
        let Some(rules) = compiled_rules(root, ruleset, no_cache)? else { return Ok(ExitCode::from(EXIT_INVALID)) };
        let Some(k) = rules.roll_kinds.iter().find(|k| k.id == id) else {
            let ids: Vec<&str> = rules.roll_kinds.iter().map(|k| k.id.as_str()).collect();
            let known = if ids.is_empty() { "it declares none".to_owned() } else { ids.join(", ") };
            eprintln!("error: {} has no roll kind `{id}` ({known})", rules.id);
            return Ok(ExitCode::from(EXIT_USAGE));
        };
        // (Up to what a critical's bonus dice can still reach.)
        let bonus = k.critical_bonus().map_or(0, |b| b.natural_max().saturating_add(b.plus).max(0));
        let (lo, hi) = (
            k.dice.natural_min().saturating_add(k.dice.plus),
            k.dice.natural_max().saturating_add(k.dice.plus).saturating_add(bonus),
        );
        let (lo, hi) = (lo.saturating_sub(1), hi.saturating_add(2).min(lo.saturating_add(MOST_ROWS as i32)));
        let report = KindReport {
            kind: k.id.clone(),
            dice: k.dice.to_string(),
            succeeds: match k.succeeds {
                cav_format::RollDirection::AtLeast => "at_least",
                cav_format::RollDirection::AtMost => "at_most",
            },
            modifier,
            targets: (lo..=hi).map(|t| TargetRow { target: t, success: k.chance(modifier, t) }).collect(),
        };
        match format {
            Format::Json => println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?),
            Format::Human => {
                let way = if report.succeeds == "at_least" { "reaching" } else { "at most" };
                println!("{} ({}, {way} the target, modifier {modifier:+}):", report.kind, report.dice);
                println!("{:>7}  {:>8}", "target", "success");
                for row in &report.targets {
                    println!("{:>7}  {:>7.2}%", row.target, row.success * 100.0);
                }
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let Some(text) = expr else {
        eprintln!("error: give a dice expression (`cav dice 2d20kl1`) or a roll kind (`--kind`)");
        return Ok(ExitCode::from(EXIT_USAGE));
    };
    let e = match DiceExpr::parse(&text) {
        Ok(e) => e,
        Err(why) => {
            eprintln!("error: {why}");
            return Ok(ExitCode::from(EXIT_USAGE));
        }
    };
    let odds = e.odds();
    let lo = e.natural_min().saturating_add(e.plus);
    let hi = e.natural_max().saturating_add(e.plus).min(lo.saturating_add(MOST_ROWS as i32 - 1));
    let results: Vec<ResultRow> = (lo..=hi)
        .map(|n| ResultRow {
            result: n,
            exactly: odds.at_least(n) - odds.at_least(n.saturating_add(1)),
            at_least: odds.at_least(n),
            at_most: odds.at_most(n),
        })
        .filter(|r| r.exactly > 1e-12)
        .collect();
    let report = DiceReport { dice: e.to_string(), results };
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?),
        Format::Human => {
            println!("{}:", report.dice);
            println!("{:>7}  {:>8}  {:>8}  {:>8}", "result", "exactly", "at least", "at most");
            for r in &report.results {
                println!(
                    "{:>7}  {:>7.2}%  {:>7.2}%  {:>7.2}%",
                    r.result,
                    r.exactly * 100.0,
                    r.at_least * 100.0,
                    r.at_most * 100.0
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
