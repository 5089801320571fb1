//! SVG charts of a [`SimResult`] (`cav sim --plot DIR`): win rates with their 95 % intervals, the
//! game lengths, the damage per game, each weapon's hit and penetration rates, and its hit rate
//! per range band. Plain SVG 1.1, no script, no
//! external reference, so a browser opens the files as they are.

use std::fmt::Write;

use crate::{SimResult, wilson};

const W: f64 = 640.0;
const LEFT: f64 = 150.0;
const RIGHT: f64 = 40.0;
const ROW: f64 = 28.0;
const TOP: f64 = 48.0;

/// Text escaped for XML.
use cav_format::xml::escape as esc;

fn open(out: &mut String, height: f64, title: &str) {
    open_w(out, W, height, title);
}

fn open_w(out: &mut String, width: f64, height: f64, title: &str) {
    let _ = write!(
        out,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">
<title>{}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="24" font-size="15" font-weight="bold">{}</text>
"#,
        esc(title),
        LEFT / 10.0,
        esc(title)
    );
}

/// A horizontal axis from 0 to 100 % under `rows` rows, `span` wide from `left`.
fn percent_axis(out: &mut String, rows: usize, left: f64, span: f64) {
    let bottom = TOP + rows as f64 * ROW;
    for p in [0, 25, 50, 75, 100] {
        let x = left + span * f64::from(p) / 100.0;
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{bottom}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#555">{p} %</text>"##,
            bottom + 16.0
        );
    }
}

/// Win rate of each side and the draw rate, each a bar with its Wilson 95 % interval.
pub fn win_rates(r: &SimResult) -> String {
    let mut rows: Vec<(String, u64)> =
        r.sides.iter().map(|s| (s.clone(), r.wins.get(s).copied().unwrap_or(0))).collect();
    rows.push(("draws".to_owned(), r.draws));
    let height = TOP + rows.len() as f64 * ROW + 40.0;
    let mut out = String::new();
    open(&mut out, height, &format!("{}: win rates over {} games (95 % intervals)", r.scenario, r.games));
    percent_axis(&mut out, rows.len(), LEFT, W - LEFT - RIGHT);
    let span = W - LEFT - RIGHT;
    for (i, (name, n)) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        let rate = if r.games == 0 { 0.0 } else { *n as f64 / r.games as f64 };
        let (lo, hi) = wilson(*n, r.games);
        let _ = writeln!(
            out,
            r##"<g class="bar" data-side="{}"><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{LEFT}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4a7ab5"/><line class="interval" x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="black" stroke-width="2"/><text x="{:.1}" y="{:.1}">{:.1} % [{:.1}, {:.1}]</text></g>"##,
            esc(name),
            LEFT - 8.0,
            y + ROW * 0.6,
            esc(name),
            y + 4.0,
            span * rate,
            ROW - 8.0,
            LEFT + span * lo,
            LEFT + span * hi,
            y + ROW / 2.0,
            y + ROW / 2.0,
            LEFT + span * hi + 6.0,
            y + ROW * 0.6,
            rate * 100.0,
            lo * 100.0,
            hi * 100.0
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Games by length in turns: a histogram.
pub fn turns(r: &SimResult) -> String {
    let height = 320.0;
    let mut out = String::new();
    open(&mut out, height, &format!("{}: game length in turns ({} games)", r.scenario, r.games));
    let (Some((&first, _)), Some((&last, _))) = (r.turns.first_key_value(), r.turns.last_key_value()) else {
        out.push_str("</svg>\n");
        return out;
    };
    let most = r.turns.values().copied().max().unwrap_or(1).max(1);
    let (x0, x1, y0, y1) = (60.0, W - RIGHT, TOP, height - 40.0);
    let n = (last - first + 1) as f64;
    let bw = (x1 - x0) / n;
    let _ = writeln!(out, r##"<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="#555"/>"##);
    for (&t, &count) in &r.turns {
        let h = (y1 - y0) * count as f64 / most as f64;
        let x = x0 + (t - first) as f64 * bw;
        let _ = writeln!(
            out,
            r##"<g class="bar" data-turns="{t}"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#6a9f58"><title>{t} turns: {count} games</title></rect><text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{t}</text></g>"##,
            x + 1.0,
            y1 - h,
            (bw - 2.0).max(1.0),
            x + bw / 2.0,
            y1 + 16.0
        );
    }
    let _ = writeln!(
        out,
        r##"<text x="{x0}" y="{:.1}" fill="#555">mean {:.2} turns, sd {:.2}; tallest bar {most} games</text>"##,
        height - 8.0,
        r.mean_turns(),
        r.sd_turns()
    );
    out.push_str("</svg>\n");
    out
}

/// Each weapon's hit rate (hits per shot) and penetration rate (penetrations per hit).
pub fn weapons(r: &SimResult) -> String {
    let rows: Vec<(&String, &crate::WeaponStats)> = r.weapons.iter().filter(|(_, w)| w.shots > 0).collect();
    let height = TOP + rows.len() as f64 * ROW + 56.0;
    let mut out = String::new();
    open(&mut out, height, &format!("{}: weapons — hit rate (blue) and penetrations per hit (orange)", r.scenario));
    percent_axis(&mut out, rows.len(), LEFT, W - LEFT - RIGHT);
    let span = W - LEFT - RIGHT;
    for (i, (name, w)) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        let hit = w.hits as f64 / w.shots as f64;
        let pen = if w.hits == 0 { 0.0 } else { w.penetrations as f64 / w.hits as f64 };
        let _ = writeln!(
            out,
            r##"<g class="bar" data-weapon="{}"><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{LEFT}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4a7ab5"><title>{} shots, {} hits</title></rect><rect x="{LEFT}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e08a2e"><title>{} penetrations</title></rect></g>"##,
            esc(name),
            LEFT - 8.0,
            y + ROW * 0.6,
            esc(name),
            y + 3.0,
            span * hit,
            (ROW - 6.0) / 2.0,
            w.shots,
            w.hits,
            y + 3.0 + (ROW - 6.0) / 2.0,
            span * pen,
            (ROW - 6.0) / 2.0,
            w.penetrations
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Each weapon's hit rate at each range band, with its Wilson 95 % interval.
pub fn bands(r: &SimResult) -> String {
    let rows: Vec<(String, &crate::WeaponStats)> = r
        .bands
        .iter()
        .flat_map(|(w, bands)| bands.iter().map(move |(b, s)| (format!("{w} · {b}"), s)))
        .filter(|(_, s)| s.shots > 0)
        .collect();
    let (left, width) = (260.0, W + 120.0);
    let height = TOP + rows.len() as f64 * ROW + 40.0;
    let mut out = String::new();
    open_w(&mut out, width, height, &format!("{}: hit rate by weapon and range band (95 % intervals)", r.scenario));
    let span = width - left - RIGHT - 90.0;
    percent_axis(&mut out, rows.len(), left, span);
    for (i, (name, s)) in rows.iter().enumerate() {
        let y = TOP + i as f64 * ROW;
        let rate = s.hits as f64 / s.shots as f64;
        let (lo, hi) = wilson(s.hits, s.shots);
        let _ = writeln!(
            out,
            r##"<g class="bar" data-band="{}"><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect x="{left}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#4a7ab5"><title>{} shots, {} hits</title></rect><line class="interval" x1="{:.1}" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="black" stroke-width="2"/><text x="{:.1}" y="{:.1}">{:.1} % of {}</text></g>"##,
            esc(name),
            left - 8.0,
            y + ROW * 0.6,
            esc(name),
            y + 4.0,
            span * rate,
            ROW - 8.0,
            s.shots,
            s.hits,
            left + span * lo,
            left + span * hi,
            y + ROW / 2.0,
            y + ROW / 2.0,
            left + span * hi + 6.0,
            y + ROW * 0.6,
            rate * 100.0,
            s.shots
        );
    }
    out.push_str("</svg>\n");
    out
}

/// Games by the damage each side dealt in them: a histogram per side, one above the other.
pub fn damage(r: &SimResult) -> String {
    const PANEL: f64 = 200.0;
    let height = TOP + r.sides.len() as f64 * (PANEL + 30.0) + 10.0;
    let mut out = String::new();
    // Where hits land table rows, damage is only the points the rows deal: the title says so.
    let what = match &r.damage_model {
        Some(t) => {
            format!("damage points table rows dealt per game (hits read `{t}`: their effects are in the report)")
        }
        None => "damage dealt per game".to_owned(),
    };
    open(&mut out, height, &format!("{}: {what}, by side ({} games)", r.scenario, r.games));
    let last = r.damage_games.values().filter_map(|h| h.last_key_value()).map(|(d, _)| *d).max().unwrap_or(0);
    let (x0, x1) = (60.0, W - RIGHT);
    let bw = (x1 - x0) / f64::from(last + 1);
    for (i, side) in r.sides.iter().enumerate() {
        let empty = std::collections::BTreeMap::new();
        let h = r.damage_games.get(side).unwrap_or(&empty);
        let most = h.values().copied().max().unwrap_or(1).max(1);
        let y0 = TOP + i as f64 * (PANEL + 30.0) + 18.0;
        let y1 = y0 + PANEL - 40.0;
        let per = if r.games == 0 { 0.0 } else { r.damage.get(side).copied().unwrap_or(0) as f64 / r.games as f64 };
        let _ = writeln!(
            out,
            r##"<text x="{x0}" y="{:.1}" font-weight="bold">{} — mean {per:.2} damage per game; tallest bar {most} games</text><line x1="{x0}" y1="{y1:.1}" x2="{x1}" y2="{y1:.1}" stroke="#555"/>"##,
            y0 - 4.0,
            esc(side)
        );
        for (&d, &count) in h {
            let bh = (y1 - y0 - 10.0) * count as f64 / most as f64;
            let x = x0 + f64::from(d) * bw;
            let _ = writeln!(
                out,
                r##"<g class="bar" data-side="{}" data-damage="{d}"><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="#b5544a"><title>{d} damage: {count} games</title></rect><text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{d}</text></g>"##,
                esc(side),
                x + 1.0,
                y1 - bh,
                (bw - 2.0).max(1.0),
                x + bw / 2.0,
                y1 + 16.0
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

/// Every chart, with its file name.
pub fn charts(r: &SimResult) -> Vec<(&'static str, String)> {
    vec![
        ("win-rates.svg", win_rates(r)),
        ("turns.svg", turns(r)),
        ("damage.svg", damage(r)),
        ("weapons.svg", weapons(r)),
        ("bands.svg", bands(r)),
    ]
}

/// The paired differences B − A of a `--vs` run, each a dot at the mean with its 95 % interval
/// (from the per-game differences) around a zero line: win and draw rates in percentage points in
/// one panel, turns and damage per game in another (each panel on its own symmetric scale).
pub fn differences(r: &crate::VsResult) -> String {
    let rows = r.rows();
    let (rates, means): (Vec<&crate::DiffRow>, Vec<&crate::DiffRow>) = rows.iter().partition(|d| d.rate);
    let panel_gap = 44.0;
    let width = W + 140.0;
    let height = TOP + 20.0 + (rates.len() + means.len()) as f64 * ROW + 2.0 * panel_gap + 30.0;
    let mut out = String::new();
    open_w(&mut out, width, height, &format!("{}: B − A over {} paired games", r.a.scenario, r.a.games));
    let _ = writeln!(out, r##"<text x="{:.1}" y="44" fill="#333">B: {}</text>"##, LEFT / 10.0, esc(&r.change));
    let span = W - LEFT - RIGHT - 40.0;
    let mut y = TOP + 20.0;
    for (title, panel, scale) in [("rates (percentage points)", &rates, 100.0), ("per game", &means, 1.0)] {
        // A symmetric axis wide enough for every interval of the panel.
        let reach = panel
            .iter()
            .flat_map(|d| {
                let (lo, hi) = d.diff.interval.unwrap_or((d.diff.mean, d.diff.mean));
                [lo.abs(), hi.abs(), d.diff.mean.abs()]
            })
            .fold(0.0f64, f64::max)
            * scale;
        let reach = if reach > 0.0 { nice(reach) } else { 1.0 };
        let x = |v: f64| LEFT + span / 2.0 + span / 2.0 * (v * scale / reach).clamp(-1.0, 1.0);
        let bottom = y + 8.0 + panel.len() as f64 * ROW;
        let _ = writeln!(out, r##"<text x="{:.1}" y="{:.1}" fill="#555">{}</text>"##, LEFT / 10.0, y + 4.0, esc(title));
        for t in [-1.0, -0.5, 0.0, 0.5, 1.0] {
            let xv = LEFT + span / 2.0 + span / 2.0 * t;
            let colour = if t == 0.0 { "#555" } else { "#ddd" };
            let _ = writeln!(
                out,
                r##"<line x1="{xv:.1}" y1="{:.1}" x2="{xv:.1}" y2="{bottom:.1}" stroke="{colour}"/><text x="{xv:.1}" y="{:.1}" text-anchor="middle" fill="#555">{:+}</text>"##,
                y + 8.0,
                bottom + 14.0,
                t * reach
            );
        }
        for (i, d) in panel.iter().enumerate() {
            let cy = y + 8.0 + i as f64 * ROW + ROW / 2.0;
            let colour = if d.diff.excludes_zero() { "#c0392b" } else { "#4a7ab5" };
            let unit = if d.rate { " pp" } else { "" };
            let label = match d.diff.interval {
                Some((lo, hi)) => {
                    format!("{:+.2}{unit} [{:+.2}, {:+.2}]", d.diff.mean * scale, lo * scale, hi * scale)
                }
                None => format!("{:+.2}{unit} (no interval under 2 games)", d.diff.mean * scale),
            };
            let (lo, hi) = d.diff.interval.unwrap_or((d.diff.mean, d.diff.mean));
            let _ = writeln!(
                out,
                r##"<g class="diff" data-row="{}"><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><line class="interval" x1="{:.1}" x2="{:.1}" y1="{cy:.1}" y2="{cy:.1}" stroke="{colour}" stroke-width="2"/><circle cx="{:.1}" cy="{cy:.1}" r="4" fill="{colour}"/><text x="{:.1}" y="{:.1}">{}</text></g>"##,
                esc(&d.name),
                LEFT - 8.0,
                cy + 4.0,
                esc(&d.name),
                x(lo),
                x(hi),
                x(d.diff.mean),
                LEFT + span + 16.0,
                cy + 4.0,
                esc(&label)
            );
        }
        y = bottom + panel_gap;
    }
    let _ = writeln!(
        out,
        r##"<text x="{:.1}" y="{:.1}" fill="#555">red: the 95 % interval leaves out 0; {} of {} games played differently</text>"##,
        LEFT / 10.0,
        height - 10.0,
        r.paired.games_changed,
        r.a.games
    );
    out.push_str("</svg>\n");
    out
}

/// The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `x` (> 0).
fn nice(x: f64) -> f64 {
    let p = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * p).find(|v| *v >= x).unwrap_or(10.0 * p)
}

/// Every chart of a paired run, with its file name: the differences, then A's and B's own charts
/// (`a-…`, `b-…`).
pub fn charts_vs(r: &crate::VsResult) -> Vec<(String, String)> {
    let mut out = vec![("differences.svg".to_owned(), differences(r))];
    for (prefix, run) in [("a", &r.a), ("b", &r.b)] {
        out.extend(charts(run).into_iter().map(|(name, svg)| (format!("{prefix}-{name}"), svg)));
    }
    out
}
