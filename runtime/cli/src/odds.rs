//! `cav odds`: the exact chance of every outcome of one attack (cav_rules::odds enumerates the
//! dice through the engine's own procedures and the packs' scripts), as a table, JSON or an SVG
//! bar chart; a matrix of a weapon against every model at every band; and a Monte Carlo check of
//! the exact figures.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_rules::odds::{Attack, AttackOdds, AttackSpec, Budget, Chance, Outcome, exact};
use cav_rules::{Rules, SeededDice};
use clap::Args;
use serde::Serialize;

use crate::progress::progress;
use crate::runner::{compiled_rules, lua_host};
use crate::{EXIT_INVALID, Format};

#[derive(Args)]
#[command(after_help = "Every die the attack rolls is enumerated through the engine's own procedures and the packs' \
    scripts (the combat roll, the damage table, pilot checks, criticals, whatever a hook rolls), so the figures are \
    exact fractions that sum to 1 and always agree with what games play. Each die sequence is a game of its own \
    (scripts start from fresh modules); until its first die every sequence plays alike, so the handlers that \
    answer there run once for the attack and their answers are given to every sequence.\n\
    The two models stand on an open board at the range given (--range, in inches as the ruleset measures it) or at \
    the middle of a band of the first weapon (--band), facing each other; --cover puts the target in a terrain piece.\n\
    Without TARGET: the matrix of the weapon against every model at every band (chance to hit, to penetrate, \
    expected damage, to destroy).\n\
    Work is counted, not timed: an attack may have at most 500,000 die sequences (one whose first sequences \
    project far more is refused at once), and one command weighs at most 50,000,000 in all and runs its scripts \
    for at most 5,000,000,000 steps (the matrix stops there, naming how far it got); a progress bar shows the \
    matrix on a terminal.\n\
    --monte-carlo N plays the attack N times with seeded dice and holds each outcome's frequency to its exact \
    chance (a Wilson 99.9 % interval); exit 1 when one falls outside.\n\
    Exit codes: 0 success, 1 invalid content (or a Monte Carlo check that fails), 2 usage (unknown model, weapon, \
    state, band; a target out of reach).\n\
    Examples:\n  cav odds dictator-b medium-mac dictator-b --band medium\n  \
    cav odds dictator-b 0 dictator-b --range 10 --target-state knockdown --cover light-woods\n  \
    cav odds dictator-b medium-mac dictator-b --band medium --svg mac.svg\n  \
    cav odds dictator-b medium-mac                        the matrix: every model, every band\n  \
    cav odds dictator-b medium-mac dictator-b --band medium --monte-carlo 1000000\n  \
    cav odds line-trooper combi-rifle fusilier --ruleset infinity-firefight --range 10 --answer bs-attack")]
pub struct OddsCommand {
    /// The attacking model (id).
    attacker: String,
    /// Its weapon: a weapon id or name on its card, a mount number (0 = first), `all`, or a
    /// comma-separated list of those.
    weapon: String,
    /// The target model (id); without it, the matrix against every model at every band.
    target: Option<String>,
    /// Ruleset: `quickstart`, `full`, or a ruleset pack id.
    #[arg(long, default_value = "quickstart")]
    ruleset: String,
    /// The range band (id or name) of the first weapon: the models stand at its middle.
    #[arg(long, conflicts_with = "range")]
    band: Option<String>,
    /// The range in inches, as the ruleset measures it.
    #[arg(long)]
    range: Option<f64>,
    /// A state the attacker starts with (repeatable).
    #[arg(long = "attacker-state", value_name = "STATE")]
    attacker_states: Vec<String>,
    /// A state the target starts with (repeatable).
    #[arg(long = "target-state", value_name = "STATE")]
    target_states: Vec<String>,
    /// Damage points the attacker has already taken.
    #[arg(long, default_value_t = 0)]
    attacker_damage: u32,
    /// Damage points the target has already taken.
    #[arg(long, default_value_t = 0)]
    target_damage: u32,
    /// A terrain piece (id) the target stands in.
    #[arg(long, value_name = "TERRAIN")]
    cover: Option<String>,
    /// How the target answers the attack, where the ruleset lets it (`procedures.attack.opposed`:
    /// Infinity's `dodge` or `bs-attack`, a shot back whose hits the outcomes count as "attacker
    /// takes"); `none` lets it be. Default: the first answer it has.
    #[arg(long, value_name = "ANSWER")]
    answer: Option<String>,
    /// Fire only N of each named mount's copies (a card's "2× Medium MAC" fires two shots; 1 =
    /// the odds of one shot).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    shots: Option<u32>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Also draw the outcomes as an SVG bar chart to FILE.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Play the attack N times with seeded dice and compare with the exact chances.
    #[arg(long, value_name = "N")]
    monte_carlo: Option<u64>,
    /// The first seed of the Monte Carlo games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The `--format json` report of one attack.
#[derive(Serialize)]
struct OddsReport<'a> {
    attacker: &'a str,
    target: &'a str,
    weapons: &'a [String],
    band: &'a str,
    range: f64,
    /// Die sequences played.
    sequences: u64,
    outcomes: Vec<OutcomeRow>,
    hit: Fraction,
    penetrate: Fraction,
    destroyed: Fraction,
    expected_damage: f64,
}

#[derive(Serialize)]
struct OutcomeRow {
    outcome: String,
    chance: Fraction,
}

#[derive(Serialize)]
struct Fraction {
    /// "num/den", exact.
    exact: String,
    value: f64,
}

impl From<Chance> for Fraction {
    fn from(c: Chance) -> Self {
        Fraction { exact: c.to_string(), value: c.value() }
    }
}

pub fn run(cmd: OddsCommand, root: &Path, no_cache: bool) -> Result<ExitCode, String> {
    let Some(rules) = compiled_rules(root, &cmd.ruleset, no_cache)? else { return Ok(ExitCode::from(EXIT_INVALID)) };
    let mut rules = rules;
    let card = rules.card(&cmd.attacker).ok_or_else(|| unknown(&rules, "model", &cmd.attacker))?;
    let weapons = mounts(&rules, card, &cmd.weapon)?;
    // Fewer shots: a copy of the attacker's card whose named mounts have that many copies.
    let mut attacker = cmd.attacker.clone();
    if let Some(n) = cmd.shots {
        attacker = cav_rules::odds::with_shots(&mut rules, card, &weapons, n)?;
    }
    let card = rules.card(&attacker).unwrap_or(card);
    let Some(mut host) = lua_host(&rules) else { return Ok(ExitCode::from(EXIT_INVALID)) };
    for s in cmd.attacker_states.iter().chain(&cmd.target_states) {
        if !rules.states.iter().any(|x| x.id == *s) {
            let ids: Vec<&str> = rules.states.iter().map(|x| x.id.as_str()).collect();
            return Err(format!("no model state `{s}` in {}; states: {}", rules.id, ids.join(", ")));
        }
    }
    if let Some(t) = &cmd.cover
        && rules.terrain(t).is_none()
    {
        return Err(unknown(&rules, "terrain", t));
    }
    let spec = |target: &str, range: f64| AttackSpec {
        attacker: attacker.clone(),
        target: target.to_owned(),
        weapons: weapons.clone(),
        range,
        attacker_states: cmd.attacker_states.clone(),
        target_states: cmd.target_states.clone(),
        attacker_damage: cmd.attacker_damage,
        target_damage: cmd.target_damage,
        cover: cmd.cover.clone(),
        answer: cmd.answer.as_ref().map(|a| if a == "none" { String::new() } else { a.clone() }),
    };
    let reach = rules.cards[card].weapons[weapons[0]].range;
    let Some(target) = cmd.target.clone() else {
        return matrix(&rules, &mut host, &cmd, reach, &spec);
    };
    if rules.card(&target).is_none() {
        return Err(unknown(&rules, "model", &target));
    }
    let range = match (cmd.range, &cmd.band) {
        (Some(r), _) => r,
        (None, Some(b)) => {
            let band =
                rules.bands.iter().position(|x| x.id == *b || x.name.eq_ignore_ascii_case(b)).ok_or_else(|| {
                    let ids: Vec<&str> = rules.bands.iter().map(|x| x.id.as_str()).collect();
                    format!("no range band `{b}` in {}; bands: {}", rules.id, ids.join(", "))
                })?;
            middle(&rules, band, reach)
        }
        (None, None) => return Err("give the range: --band BAND or --range INCHES".into()),
    };
    let attack = Attack::new(&rules, &spec(&target, range), &mut host)?;
    let odds =
        exact(&attack, &mut host, &mut Budget::default()).map_err(|e| format!("{} at {target}: {e}", cmd.attacker))?;
    if let Some(n) = cmd.monte_carlo {
        return monte_carlo(&rules, &spec(&target, range), &odds, n, cmd.seed);
    }
    if let Some(path) = &cmd.svg {
        let title =
            format!("{} {} → {} at {} ({range:.1}\")", cmd.attacker, odds.weapons.join(" + "), target, odds.band);
        std::fs::write(path, chart(&title, &odds)).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    match cmd.format {
        Format::Json => {
            let report = OddsReport {
                attacker: &cmd.attacker,
                target: &target,
                weapons: &odds.weapons,
                band: &odds.band,
                range,
                sequences: odds.leaves,
                outcomes: odds
                    .outcomes
                    .iter()
                    .map(|(o, c)| OutcomeRow { outcome: o.to_string(), chance: (*c).into() })
                    .collect(),
                hit: odds.chance(|o| o.hits > 0).into(),
                penetrate: odds.chance(|o| o.penetrations > 0).into(),
                destroyed: odds.chance(|o| o.destroyed).into(),
                expected_damage: expected_damage(&odds),
            };
            println!("{}", serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?);
        }
        Format::Human => print!("{}", table(&cmd.attacker, &target, range, &odds)),
    }
    Ok(ExitCode::SUCCESS)
}

fn unknown(rules: &Rules, what: &str, id: &str) -> String {
    let ids: Vec<&str> = match what {
        "model" => rules.cards.iter().map(|c| c.id.as_str()).collect(),
        _ => rules.terrains.iter().map(|t| t.id.as_str()).collect(),
    };
    let hint = cav_content::diag::did_you_mean(id, ids.iter().copied()).map(|h| format!(" ({h})")).unwrap_or_default();
    format!("no {what} `{id}` in {}{hint}", rules.id)
}

/// The mounts WEAPON names on the card: weapon ids or names, mount numbers, `all`.
fn mounts(rules: &Rules, card: usize, spec: &str) -> Result<Vec<usize>, String> {
    let ws = &rules.cards[card].weapons;
    let mut out = Vec::new();
    for part in spec.split(',').map(str::trim) {
        if part == "all" {
            out.extend(0..ws.len());
        } else if let Ok(n) = part.parse::<usize>() {
            if n >= ws.len() {
                return Err(format!(
                    "`{}` has {} weapon mounts (0 to {}); there is no mount {n}",
                    rules.cards[card].id,
                    ws.len(),
                    ws.len().saturating_sub(1)
                ));
            }
            out.push(n);
        } else {
            let found: Vec<usize> =
                (0..ws.len()).filter(|&i| ws[i].weapon == part || ws[i].name.eq_ignore_ascii_case(part)).collect();
            if found.is_empty() {
                let names: Vec<String> =
                    ws.iter().enumerate().map(|(i, w)| format!("{i} = {} ({})", w.weapon, w.name)).collect();
                return Err(format!(
                    "`{}` carries no weapon `{part}`; its mounts: {}",
                    rules.cards[card].id,
                    names.join(", ")
                ));
            }
            out.extend(found);
        }
    }
    out.dedup();
    if out.is_empty() {
        return Err("name at least one weapon".into());
    }
    Ok(out)
}

/// The middle of a band of a weapon of reach `reach` (bands end at reach × multiplier).
fn middle(rules: &Rules, band: usize, reach: f64) -> f64 {
    let lo = if band == 0 { 0.0 } else { reach * rules.bands[band - 1].multiplier };
    let hi = reach * rules.bands[band].multiplier;
    ((lo + hi) / 2.0 * 100.0).round() / 100.0
}

fn expected_damage(odds: &AttackOdds) -> f64 {
    odds.outcomes.iter().map(|(o, c)| f64::from(o.damage) * c.value()).sum()
}

fn percent(c: Chance) -> String {
    format!("{:6.2} %", c.value() * 100.0)
}

fn table(attacker: &str, target: &str, range: f64, odds: &AttackOdds) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{attacker} fires {} at {target}, {range}\" ({} band): {} die sequences",
        odds.weapons.join(" + "),
        odds.band,
        odds.leaves
    );
    let width = odds.outcomes.iter().map(|(o, _)| o.to_string().chars().count()).max().unwrap_or(7).max(7);
    let _ = writeln!(s, "\n  {:<width$}  {:>8}  exact", "outcome", "chance");
    for (o, c) in &odds.outcomes {
        let _ = writeln!(s, "  {:<width$}  {}  {c}", o.to_string(), percent(*c));
    }
    let _ = writeln!(s);
    for (what, c) in [
        ("hit", odds.chance(|o| o.hits > 0)),
        ("penetrate", odds.chance(|o| o.penetrations > 0)),
        ("destroy", odds.chance(|o| o.destroyed)),
    ] {
        let _ = writeln!(s, "  {what:<10} {}  {c}", percent(c));
    }
    let _ = writeln!(s, "  expected damage {:.3} points", expected_damage(odds));
    s
}

fn matrix(
    rules: &Rules,
    host: &mut cav_script::LuaHost,
    cmd: &OddsCommand,
    reach: f64,
    spec: &dyn Fn(&str, f64) -> AttackSpec,
) -> Result<ExitCode, String> {
    let mut rows = Vec::new();
    // One budget for the whole matrix: the command, not each cell, is held to it.
    let mut budget = Budget::default();
    let cells = rules.cards.len() * if cmd.range.is_some() { 1 } else { rules.bands.len() };
    let bar = progress(cells as u64, "weighing");
    for card in &rules.cards {
        for (b, band) in rules.bands.iter().enumerate() {
            bar.inc(1);
            let range = cmd.range.unwrap_or_else(|| middle(rules, b, reach));
            let cell = Attack::new(rules, &spec(&card.id, range), host).and_then(|a| exact(&a, host, &mut budget));
            if let Err(e) = &cell
                && budget.spent()
            {
                return Err(format!(
                    "{e}, after {} of the matrix's {cells} attacks: weigh one target (`cav odds ATTACKER WEAPON TARGET`) or one --range",
                    rows.len(),
                ));
            }
            rows.push((card.id.clone(), band.id.clone(), range, cell));
            if cmd.range.is_some() {
                break;
            }
        }
    }
    bar.finish_and_clear();
    if matches!(cmd.format, Format::Json) {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|(target, band, range, cell)| match cell {
                Ok(o) => serde_json::json!({
                    "target": target, "band": band, "range": range,
                    "hit": o.chance(|x| x.hits > 0).value(),
                    "penetrate": o.chance(|x| x.penetrations > 0).value(),
                    "expected_damage": expected_damage(o),
                    "destroyed": o.chance(|x| x.destroyed).value(),
                }),
                Err(e) => serde_json::json!({"target": target, "band": band, "range": range, "error": e}),
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?);
        return Ok(ExitCode::SUCCESS);
    }
    let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(6).max(6);
    println!("{} {} against every model of {}\n", cmd.attacker, cmd.weapon, rules.id);
    println!(
        "  {:<w$}  {:<12} {:>6}  {:>7}  {:>9}  {:>8}  {:>8}",
        "target", "band", "range", "hit", "penetrate", "damage", "destroy"
    );
    for (target, band, range, cell) in &rows {
        match cell {
            Ok(o) if o.outcomes.iter().all(|(x, _)| x.no_attack.is_some()) => {
                let why = o.outcomes.first().and_then(|(x, _)| x.no_attack.clone()).unwrap_or_default();
                println!("  {target:<w$}  {band:<12} {range:>6.1}  no attack: {why}")
            }
            Ok(o) => println!(
                "  {target:<w$}  {band:<12} {range:>6.1}  {:>6.1}%  {:>8.1}%  {:>8.3}  {:>7.1}%",
                o.chance(|x| x.hits > 0).value() * 100.0,
                o.chance(|x| x.penetrations > 0).value() * 100.0,
                expected_damage(o),
                o.chance(|x| x.destroyed).value() * 100.0
            ),
            Err(e) => println!("  {target:<w$}  {band:<12} {range:>6.1}  {e}"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Play the attack `n` times with seeded dice (game i: seed + i) and hold each outcome's
/// frequency to its exact chance: inside the Wilson score interval at 99.9 % (z = 3.29, so a
/// table of a dozen outcomes is unlikely to fail by chance alone; the dice are seeded, so a run
/// is the same every time).
fn monte_carlo(rules: &Rules, spec: &AttackSpec, odds: &AttackOdds, n: u64, seed: u64) -> Result<ExitCode, String> {
    use rayon::prelude::*;
    const Z: f64 = 3.290_526_731_491_926;
    let chunks = 64u64;
    let per = n.div_ceil(chunks);
    let counts = (0..chunks)
        .into_par_iter()
        .map_init(
            // Each worker sets the attack up anew: a game's sight memo is its own.
            || {
                lua_host(rules).ok_or_else(|| "scripts do not load".to_owned()).and_then(|mut h| {
                    let a = Attack::new(rules, spec, &mut h)?;
                    Ok((h, a))
                })
            },
            |worker, c| -> Result<std::collections::HashMap<Outcome, u64>, String> {
                let (host, attack) = worker.as_mut().map_err(|e| e.clone())?;
                let mut counts = std::collections::HashMap::new();
                let mut events = Vec::new();
                for i in (c * per)..((c + 1) * per).min(n) {
                    let mut dice = SeededDice::new(seed.wrapping_add(i));
                    *counts.entry(attack.play(&mut dice, host, &mut events)?).or_insert(0u64) += 1;
                }
                Ok(counts)
            },
        )
        .try_reduce(std::collections::HashMap::new, |mut a, b| {
            for (k, v) in b {
                *a.entry(k).or_insert(0) += v;
            }
            Ok(a)
        })?;
    println!("{} attacks with seeded dice against the exact odds (Wilson 99.9 % interval)\n", n);
    let mut failed = 0;
    for (o, c) in &odds.outcomes {
        let k = counts.get(o).copied().unwrap_or(0);
        let (lo, hi) = cav_lab::wilson_z(k, n, Z);
        let ok = (lo..=hi).contains(&c.value());
        failed += usize::from(!ok);
        println!(
            "  {} {:<40} exact {:8.5} %  seen {:8.5} %  [{:.5}, {:.5}] %",
            if ok { "ok  " } else { "FAIL" },
            o.to_string(),
            c.value() * 100.0,
            k as f64 / n as f64 * 100.0,
            lo * 100.0,
            hi * 100.0
        );
    }
    let strays: u64 = counts.iter().filter(|(o, _)| !odds.outcomes.iter().any(|(x, _)| x == *o)).map(|(_, v)| v).sum();
    if strays > 0 {
        failed += 1;
        println!("  FAIL {strays} attacks ended in an outcome the enumeration never reached");
    }
    if failed > 0 {
        println!("\n{failed} outcome(s) outside their interval");
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    println!("\nevery outcome within its interval");
    Ok(ExitCode::SUCCESS)
}

/// The widest an outcome's label may run before it wraps (px).
const LABEL_MAX: f64 = 400.0;

/// `text` in lines of at most `max` px of 12-px text, broken after its ", " (an outcome's
/// parts) or, within a longer part, at spaces; each break keeps its separator at the end of the
/// line, so the lines joined are the text again.
fn wrap(text: &str, max: f64) -> Vec<String> {
    let fits = |s: &str| crate::text_size::text_width(s.trim_end(), 12.0) <= max;
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for part in text.split_inclusive(", ") {
        if fits(&format!("{line}{part}")) {
            line.push_str(part);
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for word in part.split_inclusive(' ') {
            if !line.is_empty() && !fits(&format!("{line}{word}")) {
                lines.push(std::mem::take(&mut line));
            }
            line.push_str(word);
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A horizontal bar per outcome, most likely first, with its percentage. Labels wrap at
/// `LABEL_MAX` and the chart is as wide as its longest line and its title, so no text is cut.
fn chart(title: &str, odds: &AttackOdds) -> String {
    use cav_format::xml::escape as esc;
    let (bar_w, line_h) = (360.0, 14.0);
    let labels: Vec<Vec<String>> = odds.outcomes.iter().map(|(o, _)| wrap(&o.to_string(), LABEL_MAX)).collect();
    let widest = labels.iter().flatten().map(|l| crate::text_size::text_width(l.trim_end(), 12.0)).fold(0.0, f64::max);
    let left = (widest + 18.0).max(120.0).ceil();
    let rows: Vec<f64> = labels.iter().map(|l| (line_h * l.len() as f64 + 8.0).max(22.0)).collect();
    let height = 60.0 + rows.iter().sum::<f64>();
    // The percentage after the bar: "100.00 %" at most.
    let width = (left + bar_w + 6.0 + crate::text_size::text_width("100.00 %", 12.0) + 12.0)
        .max(10.0 + crate::text_size::bold_width(title, 15.0) + 10.0)
        .ceil();
    let max = odds.outcomes.iter().map(|(_, c)| c.value()).fold(0.0, f64::max).max(1e-9);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"24\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
        esc(title),
        esc(title)
    );
    let mut y = 44.0;
    for (((o, c), lines), row_h) in odds.outcomes.iter().zip(&labels).zip(&rows) {
        let w = bar_w * c.value() / max;
        // The label's lines centred on the bar.
        let first = y + row_h / 2.0 + 4.0 - line_h * (lines.len() as f64 - 1.0) / 2.0;
        let mut label = String::new();
        for (k, l) in lines.iter().enumerate() {
            let _ = write!(
                label,
                "<tspan x=\"{:.1}\" y=\"{:.1}\">{}</tspan>",
                left - 8.0,
                first + line_h * k as f64,
                esc(l)
            );
        }
        let _ = writeln!(
            s,
            "<g class=\"outcome\"><text text-anchor=\"end\">{label}</text>\
             <rect x=\"{left}\" y=\"{:.1}\" width=\"{w:.2}\" height=\"16\" fill=\"#4477aa\"><title>{}</title></rect>\
             <text x=\"{:.1}\" y=\"{:.1}\">{:.2} %</text></g>",
            y + row_h / 2.0 - 8.0,
            esc(&format!("{o}: {c}")),
            left + w + 6.0,
            y + row_h / 2.0 + 4.0,
            c.value() * 100.0
        );
        y += row_h;
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use cav_rules::event::Event;
    use cav_rules::odds::{Attack, AttackSpec, Budget, exact, exact_by_faces, with_shots};
    use cav_rules::{Rules, SeededDice};

    /// The Quick-Start rules with a one-shot copy of the Dictator-B (`dictator-b#1-shot`).
    fn quickstart() -> Rules {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("content")],
            library: vec![root.join("content"), root.join("mods")],
        });
        assert_eq!(loaded.error_count(), 0);
        let mut rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap();
        let card = rules.card("dictator-b").unwrap();
        assert_eq!(with_shots(&mut rules, card, &[0], 1).unwrap(), "dictator-b#1-shot");
        rules
    }

    fn mac_shot() -> AttackSpec {
        AttackSpec {
            attacker: "dictator-b#1-shot".into(),
            target: "dictator-b".into(),
            weapons: vec![0],
            range: 18.0,
            ..Default::default()
        }
    }

    #[test]
    fn walking_totals_gives_the_odds_of_walking_every_face() {
        let rules = quickstart();
        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
        let attack = Attack::new(&rules, &mac_shot(), &mut host).unwrap();
        let short = exact(&attack, &mut host, &mut Budget::default()).unwrap();
        let long = exact_by_faces(&attack, &mut host, &mut Budget::default()).unwrap();
        assert!(long.leaves > short.leaves, "{} face sequences vs {} total sequences", long.leaves, short.leaves);
        assert_eq!(short.outcomes, long.outcomes);
        // Every sequence is one outcome: the chances sum to exactly 1.
        let all = short.chance(|_| true);
        assert_eq!((all.num, all.den), (1, 1));
    }

    /// The enumeration's chance to hit is the chance of the engine's own combat roll: a seeded
    /// play says the target point and the modifiers; 2d6 must come to their difference.
    #[test]
    fn the_chance_to_hit_is_the_combat_rolls() {
        let rules = quickstart();
        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
        let attack = Attack::new(&rules, &mac_shot(), &mut host).unwrap();
        assert_eq!(attack.band, "Medium");
        let mut events = Vec::new();
        attack.play(&mut SeededDice::new(7), &mut host, &mut events).unwrap();
        let roll = events
            .iter()
            .find_map(|e| match e {
                Event::Roll(r) if r.kind == "combat" => Some(r.clone()),
                _ => None,
            })
            .expect("a combat roll");
        let needed = roll.target.unwrap() - roll.mods.iter().map(|m| m.value).sum::<i32>();
        let ways: u128 = (1..=6).flat_map(|a| (1..=6).map(move |b| a + b)).filter(|&t| t >= needed).count() as u128;
        let hit = exact(&attack, &mut host, &mut Budget::default()).unwrap().chance(|o| o.hits > 0);
        assert_eq!(hit.num * 36, ways * hit.den, "hit {hit} vs {ways}/36 (2d6 ≥ {needed})");
    }

    /// One command's budget is shared by its attacks (the matrix's cells): what each plays is
    /// taken from it, and the attack that finds it short is refused and leaves it spent.
    #[test]
    fn the_attacks_of_one_command_share_its_budget() {
        let rules = quickstart();
        let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
        let attack = Attack::new(&rules, &mac_shot(), &mut host).unwrap();
        let mut budget = Budget::default();
        let once = exact(&attack, &mut host, &mut budget).unwrap();
        assert_eq!(budget.sequences, Budget::default().sequences - once.leaves);
        assert!(!budget.spent());
        // Enough for one attack and a half: the second is refused.
        let mut budget = Budget { sequences: once.leaves * 3 / 2, ..Budget::default() };
        exact(&attack, &mut host, &mut budget).unwrap();
        let err = exact(&attack, &mut host, &mut budget).unwrap_err();
        assert!(err.contains("ran out of one command's budget of"), "{err}");
        assert!(budget.spent());
        // The script steps the attacks take (the Quick-Start's scripted special attributes) too.
        use cav_rules::hooks::Hooks as _;
        let before = host.script_steps();
        exact(&attack, &mut host, &mut Budget::default()).unwrap();
        let steps = host.script_steps() - before;
        assert!(steps > 0, "the attack runs scripts");
        let mut budget = Budget { script_steps: steps / 2, ..Budget::default() };
        let err = exact(&attack, &mut host, &mut budget).unwrap_err();
        assert!(err.contains("the scripts ran out of one command's budget of"), "{err}");
        assert!(budget.spent());
    }

    /// Hooks that roll `1d1000` six times at every combat roll (10¹⁸ more sequences per roll).
    struct Storm;

    impl cav_rules::hooks::Hooks for Storm {
        fn active(&self) -> bool {
            true
        }
        fn wants(&self, point: cav_format::HookPoint) -> bool {
            point == cav_format::HookPoint::CombatTp
        }
        fn call(
            &mut self,
            _: &cav_rules::Game,
            dice: &mut dyn cav_rules::Dice,
            _: &mut cav_rules::hooks::HookCtx,
        ) -> Result<(), String> {
            for _ in 0..6 {
                dice.roll(1000);
            }
            Ok(())
        }
    }

    /// An attack refused part-way (here by its projection) has paid for what it played: a
    /// matrix of attacks that each fail still meets the command's budget.
    #[test]
    fn a_refused_attack_is_charged_what_it_played() {
        let rules = quickstart();
        let attack = Attack::new(&rules, &mac_shot(), &mut Storm).unwrap();
        let mut budget = Budget::default();
        let err = exact(&attack, &mut Storm, &mut budget).unwrap_err();
        assert!(err.contains("the attack has about") && err.contains("its first 1000 cover"), "{err}");
        assert_eq!(budget.sequences, Budget::default().sequences - 1000);
    }

    /// The handlers' answers before a sequence's first die, given again from the first sequence
    /// (`odds::Prefix`), weigh every attack as running every handler of every sequence does:
    /// every weapon of every Quick-Start card at every reach, and the full rules' cards at a few
    /// (their scripted weapons among them); and the scripts run less for it. The sequences
    /// resumed from the first one's checkpoint (`game/resume.rs`) weigh them alike too.
    #[test]
    fn answers_given_again_weigh_as_every_handler_run() {
        use cav_rules::hooks::Hooks as _;
        use cav_rules::odds::{exact_every_call, exact_replaying};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("content")],
            library: vec![root.join("content"), root.join("mods")],
        });
        assert_eq!(loaded.error_count(), 0);
        let (mut weighed, mut fewer_steps, mut rolled) = (0, 0, 0);
        for (ruleset, ranges) in [("cav-quickstart", &[2.0, 7.0, 14.0, 22.0, 34.0][..]), ("cav-full", &[5.0, 20.0][..])]
        {
            let base = cav_compile::compile_rules(loaded.ruleset(ruleset).unwrap()).unwrap();
            let cards: Vec<usize> = (0..base.cards.len()).filter(|&c| !base.cards[c].weapons.is_empty()).collect();
            // The full rules' cards are many: every seventh, and each of them against one target.
            let step = if ruleset == "cav-full" { 7 } else { 1 };
            for &card in cards.iter().step_by(step) {
                for w in 0..base.cards[card].weapons.len() {
                    let mut rules = base.clone();
                    let Ok(id) = with_shots(&mut rules, card, &[w], 1) else { continue };
                    let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
                    let target = base.cards[cards[(card + 1) % cards.len()]].id.clone();
                    for &range in ranges {
                        let spec = AttackSpec {
                            attacker: id.clone(),
                            target: target.clone(),
                            weapons: vec![w],
                            range,
                            ..Default::default()
                        };
                        let Ok(attack) = Attack::new(&rules, &spec, &mut host) else { continue };
                        let before = host.script_steps();
                        let Ok(short) = exact(&attack, &mut host, &mut Budget::default()) else { continue };
                        let middle = host.script_steps();
                        let long = exact_every_call(&attack, &mut host, &mut Budget::default()).unwrap();
                        assert_eq!(short.outcomes, long.outcomes, "{ruleset}: {id} mount {w} at {range}\" at {target}");
                        assert_eq!(short.leaves, long.leaves);
                        let replayed = exact_replaying(&attack, &mut host, &mut Budget::default()).unwrap();
                        assert_eq!(
                            short.outcomes, replayed.outcomes,
                            "{ruleset}: {id} mount {w} at {range}\" (resumed)"
                        );
                        assert_eq!((long.resumed, replayed.resumed), (0, 0));
                        // Every sequence after the first, where there are more.
                        if short.leaves > 1 {
                            assert_eq!(short.resumed, short.leaves - 1, "{ruleset}: {id} mount {w} at {range}\"");
                            rolled += 1;
                        }
                        weighed += 1;
                        fewer_steps += usize::from(middle - before < host.script_steps() - middle);
                    }
                }
            }
        }
        assert!(weighed >= 500, "{weighed} attacks weighed");
        assert!(fewer_steps >= 100, "the scripts ran less in {fewer_steps} of {weighed} attacks");
        assert!(rolled >= 500, "{rolled} attacks rolled dice");
    }

    #[test]
    fn an_attack_out_of_reach_or_on_a_missing_mount_is_refused() {
        let rules = quickstart();
        let far = AttackSpec { range: 200.0, ..mac_shot() };
        let mut host = cav_rules::hooks::NoHooks;
        assert!(Attack::new(&rules, &far, &mut host).err().unwrap().contains("out of reach"));
        let nine = AttackSpec { weapons: vec![9], ..mac_shot() };
        assert!(Attack::new(&rules, &nine, &mut host).err().unwrap().contains("no mount 9"));
        let nan = AttackSpec { range: f64::NAN, ..mac_shot() };
        assert!(Attack::new(&rules, &nan, &mut host).is_err());
        let mut r = rules.clone();
        let card = r.card("dictator-b").unwrap();
        assert!(with_shots(&mut r, card, &[0], 3).unwrap_err().contains("cannot fire 3 shots"));
    }
}
