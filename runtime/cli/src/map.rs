//! `cav map`: the board of a game at a chosen moment, as SVG — to scale, terrain by type and
//! elevation, every model with its base, facing and front arc, the lines of sight between
//! enemies with their cover and range, and the range-band rings of one model's first weapon.
//! The game is the one `cav play SCENARIO --seed S` plays (with its rosters, for a scenario that
//! leaves forces to them); the moment is the start of a turn. Labels are placed greedily so that
//! no text overlaps another or a model (`Placer`); what finds no room is numbered into a key.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_format::Cover;
use cav_rules::geom::P;
use cav_rules::{Engine, Game, SeededDice};
use clap::Args;

use crate::{EXIT_INVALID, lua_host};

#[derive(Args)]
#[command(
    after_help = "The game is the one `cav play SCENARIO --seed S` plays (bots on both sides, the packs' scripts \
    on; for a scenario that leaves forces to rosters, the same --force, --tv and --faction); --turn T draws the \
    board as turn T starts (after T-1 whole turns; a game that ends sooner is drawn as it ended). Lines of sight join \
    every pair of enemy models still in play: green clear, amber light cover, red heavy cover, dashed grey no line of \
    sight; each is labelled with the range in inches where there is room (else on the line's tooltip). Rings mark \
    where each range band of the --rings model's first weapon ends.\n\
    Labels never overlap one another or a model: one that finds no room is numbered on the board and written out \
    in the key below it; squad mates standing together are boxed with one label and numbered in the key.\n\
    Examples:\n  cav map stand-and-fight --seed 3 --turn 3 --svg map.svg\n  \
    cav map stand-and-fight --seed 3 --turn 1 --rings black --svg start.svg\n  \
    cav map no-man-s-land --ruleset full --tv 1200 --turn 2 --rings 3 --svg full.svg"
)]
pub struct MapCommand {
    /// Scenario id.
    scenario: String,
    #[arg(long, default_value = "quickstart")]
    ruleset: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw the board as this turn starts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    turn: u32,
    /// The model whose first weapon's band rings are drawn: its name, its number (the `model` of
    /// the log's events, from 0), its card's id or its side (the first such model); default: the
    /// first model.
    #[arg(long, value_name = "MODEL")]
    rings: Option<String>,
    /// Write the SVG to FILE.
    #[arg(long, value_name = "FILE")]
    svg: PathBuf,
    #[command(flatten)]
    rosters: crate::play::Rosters,
}

pub fn run(cmd: MapCommand, root: &Path) -> Result<ExitCode, String> {
    // Loaded as `cav play` loads, so a roster scenario gets the same rosters.
    let mut loaded = crate::load(vec![], root);
    let compiled = cav_compile::validate(&mut loaded);
    let rs = crate::select_rulesets(&loaded, Some(&cmd.ruleset))?.into_iter().next().ok_or("no ruleset")?.clone();
    let ix = loaded.rulesets.iter().position(|r| r.id == rs.id).unwrap_or(0);
    let Some(mut rules) = compiled.into_iter().nth(ix).flatten().filter(|_| loaded.error_count() == 0) else {
        eprint!("{}", cav_content::diag::render_errors(&loaded.diagnostics, &loaded.sources));
        eprintln!("error: the content has errors; fix them first (`cav validate`)");
        return Ok(ExitCode::from(EXIT_INVALID));
    };
    let sc = rules.scenario(&cmd.scenario).ok_or_else(|| {
        let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
        format!("no scenario `{}` in {}; scenarios: {}", cmd.scenario, rules.id, ids.join(", "))
    })?;
    let rosters = if rules.scenarios[sc].forces.is_empty() {
        let chosen = crate::play::Chosen::Now(&cmd.rosters);
        match crate::play::roster_squads(&mut loaded, &rs, &mut rules, sc, cmd.seed, &chosen)? {
            Ok((squads, _)) => Some(squads),
            Err(crate::play::InvalidRoster) => return Ok(ExitCode::from(EXIT_INVALID)),
        }
    } else if !cmd.rosters.files.is_empty() {
        return Err(format!("scenario `{}` fixes its forces; --force is for scenarios that do not", cmd.scenario));
    } else {
        None
    };
    let rules = rules;
    let Some(mut host) = lua_host(&rules) else { return Ok(ExitCode::from(EXIT_INVALID)) };
    // The game `cav play` plays (`play::play_game`), stopped as turn T starts.
    let mut dice = SeededDice::new(cmd.seed);
    let mut events: Vec<cav_rules::Event> = Vec::new();
    let game = match &rosters {
        Some(forces) => cav_rules::setup::roster_game(&rules, sc, forces, &mut dice, &mut events, Some(cmd.seed)),
        None => cav_rules::setup::scenario_game(&rules, sc, &mut dice, &mut events, Some(cmd.seed)),
    };
    let mut engine = Engine { game, dice: &mut dice, log: &mut events, hooks: &mut host };
    let mut bot = cav_rules::bot::Bot::default();
    let mut ended = None;
    for _ in 1..cmd.turn {
        if let Some(end) = engine.play_turn(&mut bot).map_err(|e| format!("the game stopped: {e}"))? {
            ended = Some(end);
            break;
        }
    }
    let game = &engine.game;
    // The strike points and drift of the turn just played.
    let since = events.iter().rposition(|e| matches!(e, cav_rules::Event::TurnStart { .. })).unwrap_or(0);
    let marks = &events[since..];
    let rings = match &cmd.rings {
        None => 0,
        Some(r) => ringed(game, r)?,
    };
    let moment = match &ended {
        Some(_) => format!("as the game ended in turn {}", game.turn),
        None => format!("start of turn {}", cmd.turn),
    };
    let title = format!("{} — seed {}, {moment}", rules.scenarios[sc].name, cmd.seed);
    std::fs::write(&cmd.svg, svg(game, &title, rings, marks))
        .map_err(|e| format!("cannot write {}: {e}", cmd.svg.display()))?;
    eprintln!("wrote {} ({title})", cmd.svg.display());
    Ok(ExitCode::SUCCESS)
}

/// The model `--rings` names: by name, by number, by card id, by side, the first that matches in
/// that order; none: an error listing what it may name.
fn ringed(game: &Game, r: &str) -> Result<usize, String> {
    let models = 0..game.models.len();
    let found = models
        .clone()
        .find(|&m| game.models[m].name == r)
        .or_else(|| r.parse::<usize>().ok().filter(|&m| m < game.models.len()))
        .or_else(|| models.clone().find(|&m| game.card(m).id == r))
        .or_else(|| models.clone().find(|&m| game.sides[game.models[m].side] == r));
    found.ok_or_else(|| {
        let list: Vec<String> =
            models.map(|m| format!("{m} `{}` ({})", game.models[m].name, game.card(m).id)).collect();
        format!(
            "no model `{r}` in this game: --rings takes a model's name, number or card id, or a side ({}); models: {}",
            game.sides.join(", "),
            list.join(", ")
        )
    })
}

/// Pixels per inch.
const SCALE: f64 = 12.0;
const MARGIN: f64 = 30.0;
const SIDE_COLOURS: [&str; 4] = ["#c0392b", "#222222", "#2563a8", "#2e8b57"];
/// Font sizes: model and squad labels, lines of sight, terrain and rings, marker numbers, legend.
const LABEL: f64 = 11.0;
const SIGHT: f64 = 10.0;
const SMALL: f64 = 9.0;
const NUMBER: f64 = 10.0;
const LEGEND: f64 = 11.0;
/// Squad mates standing within `SQUAD_LINK` inches of one another (centre to centre, in a chain)
/// and within `SQUAD_SPAN` across are drawn as one group: a dashed box, one label, each model
/// numbered in the key.
const SQUAD_LINK: f64 = 5.0;
const SQUAD_SPAN: f64 = 12.0;
/// Gaps (px) between a marker and its label tried in turn; from `LEADER` on, a leader line joins
/// them.
const GAPS: [f64; 7] = [2.0, 6.0, 12.0, 22.0, 36.0, 54.0, 76.0];
const LEADER: f64 = 12.0;

use cav_format::xml::escape as esc;

/// Width of `s` in `size`-px DejaVu Sans (the pictures' first font), from the font's advance
/// widths rounded up by class of character, so an estimate is never much short of what a browser
/// draws: labels are placed and pictures sized with it (the picture tests measure in Chromium).
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            ' ' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'i' | 'j' | 'l' | 'I' | 'J' | '·' => 0.36,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '{' | '}' | '-' | '/' | '\\' | '"' | '`' => 0.48,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '#' | '&' | '+' | '=' | '<' | '>' | '~' | '^' => 1.0,
            'A'..='Z' => 0.8,
            c if c.is_ascii() => 0.65,
            // Dashes, ×, arrows, other scripts: as wide as the widest Latin letters.
            _ => 1.0,
        })
        .sum();
    em * size
}

/// The same for bold text (DejaVu Sans Bold is about a tenth wider).
pub(crate) fn bold_width(s: &str, size: f64) -> f64 {
    text_width(s, size) * 1.12
}

/// A box on the page (px): left, top, right, bottom.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn at(x0: f64, y0: f64, w: f64, h: f64) -> Rect {
        Rect { x0, y0, x1: x0 + w, y1: y0 + h }
    }
    fn around(cx: f64, cy: f64, r: f64) -> Rect {
        Rect { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r }
    }
    fn hits(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn within(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.y0 >= o.y0 && self.x1 <= o.x1 && self.y1 <= o.y1
    }
    fn grow(&self, by: f64) -> Rect {
        Rect { x0: self.x0 - by, y0: self.y0 - by, x1: self.x1 + by, y1: self.y1 + by }
    }
    fn centre(&self) -> (f64, f64) {
        ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)
    }
    /// The point of the box nearest to (x, y).
    fn nearest(&self, x: f64, y: f64) -> (f64, f64) {
        (x.clamp(self.x0, self.x1), y.clamp(self.y0, self.y1))
    }
}

/// Height of a line of `size`-px text: the font's ascent (0.93 em) and descent (0.24 em), as
/// browsers measure a text's box, and a little air.
fn line_h(size: f64) -> f64 {
    1.22 * size
}

/// One text placed on the board: its box (the text starts at its left, baseline 0.95 em down).
struct Label {
    text: String,
    class: &'static str,
    size: f64,
    bold: bool,
    fill: String,
    at: Rect,
    /// A leader line from the thing labelled to the label, when it stands off.
    leader: Option<((f64, f64), (f64, f64))>,
}

/// Greedy, deterministic label placement: each text takes the first of its candidate boxes that
/// stays on the board and clear of the markers and of every text placed before it; what finds
/// none is numbered into the key (or left to its tooltip). First come, first served, so the
/// order of `place` calls is the order of importance.
struct Placer {
    bounds: Rect,
    taken: Vec<Rect>,
    labels: Vec<Label>,
}

impl Placer {
    fn free(&self, r: &Rect) -> bool {
        r.within(&self.bounds) && !self.taken.iter().any(|t| t.hits(r))
    }

    /// Boxes of `w`×`h` around `a`, nearest first: right, left, below, above, the four corners,
    /// then flush with either edge above and below; ring by ring at each of `gaps`.
    fn candidates(a: Rect, w: f64, h: f64, gaps: &[f64]) -> Vec<(Rect, f64)> {
        let (cx, cy) = a.centre();
        let mut out = Vec::new();
        for &g in gaps {
            let d = g * 0.7;
            for (x, y) in [
                (a.x1 + g, cy - h / 2.0),
                (a.x0 - g - w, cy - h / 2.0),
                (cx - w / 2.0, a.y1 + g),
                (cx - w / 2.0, a.y0 - g - h),
                (a.x1 + d, a.y1 + d),
                (a.x0 - d - w, a.y1 + d),
                (a.x1 + d, a.y0 - d - h),
                (a.x0 - d - w, a.y0 - d - h),
                (a.x0, a.y1 + g),
                (a.x1 - w, a.y1 + g),
                (a.x0, a.y0 - g - h),
                (a.x1 - w, a.y0 - g - h),
            ] {
                out.push((Rect::at(x, y, w, h), g));
            }
        }
        out
    }

    /// Place `text` at the first free box of `cands` (each with its gap to `from`); true if placed.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        text: &str,
        class: &'static str,
        size: f64,
        bold: bool,
        fill: &str,
        from: Rect,
        cands: &[(Rect, f64)],
    ) -> bool {
        let Some(&(at, gap)) = cands.iter().find(|(r, _)| self.free(r)) else { return false };
        let leader = (gap >= LEADER).then(|| {
            let (cx, cy) = at.centre();
            let p = from.nearest(cx, cy);
            (p, at.nearest(p.0, p.1))
        });
        self.taken.push(at.grow(1.0));
        self.labels.push(Label { text: text.to_owned(), class, size, bold, fill: fill.to_owned(), at, leader });
        true
    }

    /// A label next to a marker (or a squad's box) `a`.
    fn next_to(&mut self, text: &str, class: &'static str, size: f64, fill: &str, a: Rect) -> bool {
        let (w, h) = (text_width(text, size), line_h(size));
        self.place(text, class, size, false, fill, a, &Self::candidates(a, w, h, &GAPS))
    }

    /// A number for `a` in the key. Placed next to it wherever there is room; failing that (the
    /// board full within 76 px all round), at its side even over something else: a marker needs
    /// its number, and the picture tests would count the overlap.
    fn number(&mut self, n: usize, fill: &str, a: Rect) {
        let text = n.to_string();
        let (w, h) = (bold_width(&text, NUMBER), line_h(NUMBER));
        let cands = Self::candidates(a, w, h, &GAPS);
        if !self.place(&text, "label number", NUMBER, true, fill, a, &cands) {
            let at = cands[0].0;
            self.taken.push(at);
            self.labels.push(Label {
                text,
                class: "label number",
                size: NUMBER,
                bold: true,
                fill: fill.to_owned(),
                at,
                leader: None,
            });
        }
    }
}

/// Fill of a terrain type, by what it is (cover, elevation, water-like impassable open ground).
fn fill(t: &cav_rules::compile::TerrainDef) -> (&'static str, f64) {
    let id = t.id.as_str();
    let colour = if t.structure.is_some() {
        "#6b6b6b"
    } else if id.contains("water") || id.contains("river") || id.contains("lake") {
        "#6fa8dc"
    } else if id.contains("wood") || id.contains("jungle") || id.contains("forest") {
        "#5a9e4b"
    } else if t.elevation > 0 || t.raises_ground {
        "#b08a5a"
    } else if t.road {
        "#d9cfa5"
    } else {
        "#9e9e86"
    };
    // Higher ground is drawn more solid.
    (colour, (0.35 + 0.12 * f64::from(t.elevation.clamp(0, 4))).min(0.85))
}

/// `members` (model indices, in order) split into chains of models each within `SQUAD_LINK` of
/// another; each chain in the order of its first model.
fn clusters(game: &Game, members: &[usize]) -> Vec<Vec<usize>> {
    let mut of: Vec<usize> = (0..members.len()).collect();
    // Relabel until no link joins two clusters (a handful of models: quadratic is fine).
    let mut changed = true;
    while changed {
        changed = false;
        for a in 0..members.len() {
            for b in a + 1..members.len() {
                let near = game.models[members[a]].pos.dist(game.models[members[b]].pos) <= SQUAD_LINK;
                if near && of[a] != of[b] {
                    let (keep, drop) = (of[a].min(of[b]), of[a].max(of[b]));
                    of.iter_mut().filter(|c| **c == drop).for_each(|c| *c = keep);
                    changed = true;
                }
            }
        }
    }
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut firsts: Vec<usize> = Vec::new();
    for (k, &m) in members.iter().enumerate() {
        match firsts.iter().position(|&f| f == of[k]) {
            Some(c) => out[c].push(m),
            None => {
                firsts.push(of[k]);
                out.push(vec![m]);
            }
        }
    }
    out
}

/// A piece of the legend: runs of text, each in its colour (None: the legend's own).
type Item = Vec<(String, Option<&'static str>)>;

fn item_width(item: &Item) -> f64 {
    item.iter().map(|(t, _)| text_width(t, LEGEND)).sum()
}

/// The board of `game`; `marks`: events whose strike points and drift are drawn (the last
/// turn's). Labels are placed so that no two texts overlap and none covers a model; what does
/// not fit is numbered on the board and written out in the key below it.
pub fn svg(game: &Game, title: &str, rings: usize, marks: &[cav_rules::Event]) -> String {
    let [bw, bh] = [game.board.size[0], game.board.size[1]];
    // Board inches → page pixels; +y is up the page, as facings count (0 = +y, clockwise).
    let px = |p: P| (MARGIN + p.x * SCALE, MARGIN + 30.0 + (bh - p.y) * SCALE);
    let (x0, y0) = px(P::new(0.0, bh));
    let board = Rect::at(x0, y0, bw * SCALE, bh * SCALE);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<rect class=\"board\" x=\"{x0}\" y=\"{y0}\" width=\"{:.0}\" height=\"{:.0}\" fill=\"#eef0e2\" stroke=\"#555\"/>",
        bw * SCALE,
        bh * SCALE
    );
    // A 6" grid, to read distances by eye.
    let mut g = String::from("<g class=\"grid\" stroke=\"#d5d8c4\" stroke-width=\"0.6\">");
    for i in (6..bw as i64).step_by(6) {
        let (x, _) = px(P::new(i as f64, 0.0));
        let _ = write!(g, "<line x1=\"{x:.1}\" y1=\"{y0}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>", y0 + bh * SCALE);
    }
    for i in (6..bh as i64).step_by(6) {
        let (_, y) = px(P::new(0.0, i as f64));
        let _ = write!(g, "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>", x0 + bw * SCALE);
    }
    s.push_str(&g);
    s.push_str("</g>\n");
    for a in &game.board.areas {
        let t = &game.rules.terrains[a.terrain];
        let (colour, opacity) = fill(t);
        let pts: Vec<String> = a.poly.points.iter().map(|&p| px(p)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let _ = writeln!(
            s,
            "<g class=\"terrain\" data-terrain=\"{}\"><polygon points=\"{}\" fill=\"{colour}\" fill-opacity=\"{opacity:.2}\" stroke=\"{colour}\"><title>{} (cover {:?}, elevation {})</title></polygon></g>",
            esc(&t.id),
            pts.join(" "),
            esc(&t.name),
            t.cover,
            t.elevation,
        );
    }
    // Band rings of one model's first weapon, clipped to the board; their labels come later.
    let _ = writeln!(
        s,
        "<clipPath id=\"board\"><rect x=\"{x0}\" y=\"{y0}\" width=\"{:.0}\" height=\"{:.0}\"/></clipPath>",
        bw * SCALE,
        bh * SCALE
    );
    let mut ring_labels: Vec<(String, f64, f64, f64)> = Vec::new();
    let mut ringed = None;
    if let Some(m) = game.models.get(rings).filter(|m| m.on_table())
        && let Some(wpn) = game.card(rings).weapons.first()
    {
        let (cx, cy) = px(m.pos);
        let base = game.card(rings).base_radius;
        ringed = Some((m.name.clone(), wpn.name.clone()));
        for b in &game.rules.bands {
            let r = (wpn.range * b.multiplier + base) * SCALE;
            let what = format!("{} {}", wpn.name, b.name);
            let _ = writeln!(
                s,
                "<g class=\"band\" clip-path=\"url(#board)\"><circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"none\" stroke=\"#7a7a7a\" stroke-dasharray=\"2 4\"><title>{}</title></circle></g>",
                esc(&what)
            );
            ring_labels.push((what, cx, cy, r));
        }
    }
    // Lines of sight between enemies in play; their range labels come last, where room is left.
    let live: Vec<usize> =
        (0..game.models.len()).filter(|&m| game.models[m].in_play() && game.models[m].on_table()).collect();
    let mut sights = Vec::new();
    for (i, &a) in live.iter().enumerate() {
        for &b in &live[i + 1..] {
            if game.models[a].side == game.models[b].side {
                continue;
            }
            let (los, cover) = game.sight(a, b, false);
            let (colour, dash, what, rank) = match (los, cover) {
                (false, _) | (_, Cover::Blocking) => ("#9a9a9a", " stroke-dasharray=\"6 4\"", "no line of sight", 1),
                (true, Cover::None) => ("#2e8b57", "", "clear", 0),
                (true, Cover::Light) => ("#e0a100", "", "light cover", 0),
                (true, Cover::Heavy) => ("#c0392b", "", "heavy cover", 0),
            };
            let ((ax, ay), (bx, by)) = (px(game.models[a].pos), px(game.models[b].pos));
            let range = game.range(a, b);
            let text = format!("{range:.1}\" {what}");
            let _ = writeln!(
                s,
                "<g class=\"sight\" data-cover=\"{what}\"><line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash}><title>{}</title></line></g>",
                esc(&format!("{} – {}: {text}", game.models[a].name, game.models[b].name))
            );
            sights.push((rank, range, text, colour, (ax, ay), (bx, by)));
        }
    }
    // Strike points (a cross) and where a missed one drifted (an arrow to the point it fell).
    let mut drifts = Vec::new();
    for e in marks {
        match e {
            cav_rules::Event::StrikePoint { model, at } => {
                let (x, y) = px(*at);
                let _ = writeln!(
                    s,
                    "<g class=\"strike-point\" stroke=\"#8e44ad\" stroke-width=\"2\"><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>\
                     <line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/><title>strike point of {}</title></g>",
                    x - 6.0,
                    y - 6.0,
                    x + 6.0,
                    y + 6.0,
                    x - 6.0,
                    y + 6.0,
                    x + 6.0,
                    y - 6.0,
                    esc(&game.models[*model].name)
                );
            }
            cav_rules::Event::Drift { model, from, to, inches } => {
                let ((fx, fy), (tx, ty)) = (px(*from), px(*to));
                let text = format!("drifted {inches:.1}\" ({})", game.models[*model].name);
                let _ = writeln!(
                    s,
                    "<g class=\"drift\"><line x1=\"{fx:.1}\" y1=\"{fy:.1}\" x2=\"{tx:.1}\" y2=\"{ty:.1}\" stroke=\"#8e44ad\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>\
                     <circle cx=\"{tx:.1}\" cy=\"{ty:.1}\" r=\"4\" fill=\"#8e44ad\"><title>{}</title></circle></g>",
                    esc(&text)
                );
                drifts.push((text, Rect::around(tx, ty, 4.0)));
            }
            _ => {}
        }
    }
    // Models: base, front arc, facing; the markers are what labels keep clear of.
    let half = game.rules.proc.sight.arc_half_width;
    // Wrecks stay where they fell (drawn faded); models off the table are not drawn.
    let drawn = |m: &cav_rules::game::Model| m.on_table() || (m.destroyed && !m.left_board && m.aboard.is_none());
    let mut markers: Vec<Option<Rect>> = vec![None; game.models.len()];
    let full = |i: usize| {
        let m = &game.models[i];
        let fate = if m.destroyed { "destroyed".to_owned() } else { format!("{} damage", m.damage) };
        // Names the bots give start with the side ("red Dictator-B"); others are told it.
        let side = &game.sides[m.side];
        if m.name.starts_with(&format!("{side} ")) {
            format!("{} ({fate})", m.name)
        } else {
            format!("{} ({side}, {fate})", m.name)
        }
    };
    for (i, m) in game.models.iter().enumerate().filter(|(_, m)| drawn(m)) {
        let card = game.card(i);
        let colour = SIDE_COLOURS[m.side % SIDE_COLOURS.len()];
        let (cx, cy) = px(m.pos);
        let r = card.base_radius.max(0.3) * SCALE;
        markers[i] = Some(Rect::around(cx, cy, r));
        let dir = |deg: f64, len: f64| {
            let rad = deg.to_radians();
            (cx + rad.sin() * len, cy - rad.cos() * len)
        };
        let reach = r + 3.0 * SCALE;
        let (lx, ly) = dir(m.facing - half, reach);
        let (rx, ry) = dir(m.facing + half, reach);
        let (fx, fy) = dir(m.facing, r + 10.0);
        let large = if half > 90.0 { 1 } else { 0 };
        let state = if m.destroyed { " destroyed" } else { "" };
        let _ = writeln!(
            s,
            "<g class=\"model{state}\" data-name=\"{}\" data-side=\"{}\" opacity=\"{}\"><title>{}</title>\
             <path class=\"arc\" d=\"M{cx:.1},{cy:.1} L{lx:.1},{ly:.1} A{reach:.1},{reach:.1} 0 {large} 1 {rx:.1},{ry:.1} Z\" fill=\"{colour}\" fill-opacity=\"0.10\" stroke=\"none\"/>\
             <circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{colour}\" fill-opacity=\"0.85\" stroke=\"white\"/>\
             <line x1=\"{cx:.1}\" y1=\"{cy:.1}\" x2=\"{fx:.1}\" y2=\"{fy:.1}\" stroke=\"{colour}\" stroke-width=\"2.5\"/></g>",
            esc(&m.name),
            esc(&game.sides[m.side]),
            if m.destroyed { 0.35 } else { 1.0 },
            esc(&full(i)),
        );
    }
    let mut placer =
        Placer { bounds: board, taken: markers.iter().flatten().map(|r| r.grow(2.0)).collect(), labels: Vec::new() };
    // The key: (number, text, colour) of what is numbered on the board.
    let mut key: Vec<(usize, String, &'static str)> = Vec::new();
    // Squad mates standing close together (each within SQUAD_LINK of another, all within
    // SQUAD_SPAN): one dashed box, one label, the models numbered in the key.
    let mut boxed = vec![false; game.models.len()];
    let mut squads = String::new();
    for (q, squad) in game.squads.iter().enumerate() {
        let members: Vec<usize> = squad
            .members
            .iter()
            .copied()
            .filter(|&i| game.models[i].squad == Some(q) && game.models[i].on_table() && markers[i].is_some())
            .collect();
        for cluster in clusters(game, &members) {
            let boxes: Vec<Rect> = cluster.iter().filter_map(|&i| markers[i]).collect();
            let b = boxes.iter().fold(boxes[0], |a, r| Rect {
                x0: a.x0.min(r.x0),
                y0: a.y0.min(r.y0),
                x1: a.x1.max(r.x1),
                y1: a.y1.max(r.y1),
            });
            if cluster.len() < 2 || b.x1 - b.x0 > SQUAD_SPAN * SCALE || b.y1 - b.y0 > SQUAD_SPAN * SCALE {
                continue;
            }
            let members = cluster;
            let b = b.grow(5.0);
            let colour = SIDE_COLOURS[squad.side % SIDE_COLOURS.len()];
            let _ = writeln!(
                squads,
                "<g class=\"squad\" data-name=\"{}\" data-side=\"{}\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"6\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.2\" stroke-dasharray=\"5 3\"/></g>",
                esc(&squad.name),
                esc(&game.sides[squad.side]),
                b.x0,
                b.y0,
                b.x1 - b.x0,
                b.y1 - b.y0
            );
            let label = format!("{} {}: {} models", game.sides[squad.side], squad.name, members.len());
            if !placer.next_to(&label, "label squad", LABEL, colour, b) {
                let n = key.len() + 1;
                key.push((n, label, colour));
                placer.number(n, colour, b);
            }
            for &i in &members {
                boxed[i] = true;
                let n = key.len() + 1;
                key.push((n, format!("{} · {}", full(i), squad.name), colour));
                placer.number(n, colour, markers[i].unwrap_or(b));
            }
        }
    }
    // Each other model on the table; then drift; then wrecks; then terrain.
    let short = |i: usize| {
        let m = &game.models[i];
        if m.destroyed { format!("{} (destroyed)", m.name) } else { format!("{} ({} damage)", m.name, m.damage) }
    };
    let one = |placer: &mut Placer,
               key: &mut Vec<(usize, String, &'static str)>,
               text: &str,
               long: String,
               colour: &'static str,
               a: Rect| {
        if !placer.next_to(text, "label", LABEL, colour, a) {
            let n = key.len() + 1;
            key.push((n, long, colour));
            placer.number(n, colour, a);
        }
    };
    for i in (0..game.models.len()).filter(|&i| !boxed[i] && !game.models[i].destroyed) {
        if let Some(a) = markers[i] {
            let colour = SIDE_COLOURS[game.models[i].side % SIDE_COLOURS.len()];
            one(&mut placer, &mut key, &short(i), full(i), colour, a);
        }
    }
    for (text, a) in &drifts {
        one(&mut placer, &mut key, text, text.clone(), "#8e44ad", *a);
    }
    for i in (0..game.models.len()).filter(|&i| game.models[i].destroyed) {
        if let Some(a) = markers[i] {
            let colour = SIDE_COLOURS[game.models[i].side % SIDE_COLOURS.len()];
            one(&mut placer, &mut key, &short(i), full(i), colour, a);
        }
    }
    for a in &game.board.areas {
        let t = &game.rules.terrains[a.terrain];
        let (cx, cy) = px(a.center);
        let (w, h) = (text_width(&t.name, SMALL), line_h(SMALL));
        // Centred on the piece first, then close around its centre (no leader lines).
        let mut cands = vec![(Rect::at(cx - w / 2.0, cy - h / 2.0, w, h), 0.0)];
        cands.extend(Placer::candidates(Rect::around(cx, cy, 0.0), w, h, &[4.0, 10.0]));
        if !placer.place(&t.name, "label terrain", SMALL, false, "#444", Rect::around(cx, cy, 0.0), &cands) {
            let n = key.len() + 1;
            key.push((n, format!("terrain: {}", t.name), "#444"));
            placer.number(n, "#444", Rect::around(cx, cy, 0.0));
        }
    }
    // Ring labels where they fit, above or below the ring's top or bottom (else the ring's tooltip).
    for (what, cx, cy, r) in &ring_labels {
        let (w, h) = (text_width(what, SMALL), line_h(SMALL));
        let cands: Vec<(Rect, f64)> = [cy - r - 2.0 - h, cy - r + 2.0, cy + r + 2.0, cy + r - 2.0 - h]
            .iter()
            .map(|&top| (Rect::at(cx - w / 2.0, top, w, h), 0.0))
            .collect();
        placer.place(what, "label band", SMALL, false, "#555", Rect::around(*cx, *cy, 0.0), &cands);
    }
    // Ranges of the lines of sight last, lines that can shoot first, shorter first; along the
    // line, from its middle out, above it then below; a range with no room is left to the
    // line's tooltip.
    sights.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut unlabelled = 0;
    for (_, _, text, colour, (ax, ay), (bx, by)) in &sights {
        let (w, h) = (text_width(text, SIGHT), line_h(SIGHT));
        let mut cands = Vec::new();
        for t in [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74] {
            let (x, y) = (ax + (bx - ax) * t, ay + (by - ay) * t);
            cands.push((Rect::at(x - w / 2.0, y - 3.0 - h, w, h), 0.0));
            cands.push((Rect::at(x - w / 2.0, y + 3.0, w, h), 0.0));
        }
        if !placer.place(text, "label sight", SIGHT, false, colour, Rect::around(*ax, *ay, 0.0), &cands) {
            unlabelled += 1;
        }
    }
    s.push_str(&squads);
    // Leader lines under the texts; the texts on top, with a white halo to read over lines.
    for l in &placer.labels {
        if let Some(((ax, ay), (bx, by))) = l.leader {
            let _ = writeln!(
                s,
                "<line class=\"leader\" x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"#777\" stroke-width=\"0.8\"/>"
            );
        }
    }
    for l in &placer.labels {
        let _ = writeln!(
            s,
            "<text class=\"{}\" x=\"{:.1}\" y=\"{:.1}\" font-size=\"{}\"{} fill=\"{}\" stroke=\"white\" stroke-width=\"3\" stroke-opacity=\"0.8\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>",
            l.class,
            l.at.x0,
            l.at.y0 + 0.95 * l.size,
            l.size,
            if l.bold { " font-weight=\"bold\"" } else { "" },
            l.fill,
            esc(&l.text)
        );
    }
    // The legend, flowed into lines as wide as the board, then the key in columns.
    let mut items: Vec<Item> = vec![vec![("1 square = 6\"".into(), None)]];
    let mut sides: Item = vec![("sides:".into(), None)];
    for (i, side) in game.sides.iter().enumerate() {
        sides.push((format!(" ■ {side}"), Some(SIDE_COLOURS[i % SIDE_COLOURS.len()])));
    }
    items.push(sides);
    items.push(vec![
        ("lines of sight: ".into(), None),
        ("clear".into(), Some("#2e8b57")),
        (", ".into(), None),
        ("light cover".into(), Some("#e0a100")),
        (", ".into(), None),
        ("heavy cover".into(), Some("#c0392b")),
        (", ".into(), None),
        ("none".into(), Some("#9a9a9a")),
    ]);
    if unlabelled > 0 {
        items.push(vec![(format!("{unlabelled} ranges left off for room (on each line's tooltip)"), None)]);
    }
    items.push(vec![("shaded wedge: front arc".into(), None)]);
    if !squads.is_empty() {
        items.push(vec![("dashed box: a squad, its models numbered in the key".into(), None)]);
    }
    items.push(vec![("× strike point, ● where a missed one drifted (the last turn's)".into(), Some("#8e44ad"))]);
    if let Some((model, weapon)) = &ringed {
        items.push(vec![(format!("dotted rings: where each range band of {model}'s {weapon} ends"), None)]);
    }
    let room = (bw * SCALE).max(items.iter().map(item_width).fold(0.0, f64::max));
    let sep = text_width(" · ", LEGEND);
    let mut lines: Vec<Vec<Item>> = vec![Vec::new()];
    let mut used = 0.0;
    for item in items {
        let w = item_width(&item);
        let line = lines.last_mut().expect("a line");
        if !line.is_empty() && used + sep + w > room {
            lines.push(vec![item]);
            used = w;
        } else {
            used += if line.is_empty() { w } else { sep + w };
            line.push(item);
        }
    }
    let step = line_h(LEGEND) + 3.0;
    let mut y = board.y1 + 20.0;
    for line in &lines {
        let mut t = format!("<text class=\"legend\" x=\"{MARGIN}\" y=\"{y:.0}\" font-size=\"{LEGEND}\">");
        for (k, item) in line.iter().enumerate() {
            if k > 0 {
                t.push_str(" · ");
            }
            for (run, colour) in item {
                match colour {
                    Some(c) => {
                        let _ = write!(t, "<tspan fill=\"{c}\">{}</tspan>", esc(run));
                    }
                    None => t.push_str(&esc(run)),
                }
            }
        }
        t.push_str("</text>\n");
        s.push_str(&t);
        y += step;
    }
    let mut width = 2.0 * MARGIN + room.max(bold_width(title, 15.0));
    if !key.is_empty() {
        y += 8.0;
        let _ = writeln!(
            s,
            "<text class=\"legend key-title\" x=\"{MARGIN}\" y=\"{y:.0}\" font-size=\"{LEGEND}\" font-weight=\"bold\">Key to the numbers on the board</text>"
        );
        y += step;
        let num_w = bold_width(&key.len().to_string(), LEGEND) + 6.0;
        let col_w = num_w + key.iter().map(|(_, t, _)| text_width(t, LEGEND)).fold(0.0, f64::max) + 18.0;
        let cols = ((room / col_w).floor() as usize).max(1);
        let rows = key.len().div_ceil(cols);
        width = width.max(2.0 * MARGIN + col_w * cols as f64);
        for (k, (n, text, colour)) in key.iter().enumerate() {
            let (col, row) = (k / rows, k % rows);
            let (x, ky) = (MARGIN + col_w * col as f64, y + step * row as f64);
            let _ = writeln!(
                s,
                "<g class=\"key\"><text x=\"{:.1}\" y=\"{ky:.0}\" font-size=\"{LEGEND}\" font-weight=\"bold\" fill=\"{colour}\" text-anchor=\"end\">{n}</text>\
                 <text x=\"{:.1}\" y=\"{ky:.0}\" font-size=\"{LEGEND}\">{}</text></g>",
                x + num_w - 6.0,
                x + num_w,
                esc(text)
            );
        }
        y += step * rows as f64;
    }
    let height = y + 6.0;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n\
         <title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{MARGIN}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n{s}</svg>\n",
        esc(title),
        esc(title)
    )
}
