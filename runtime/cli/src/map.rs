//! `cav map`: the board of a game at a chosen moment, as SVG — to scale, terrain by type and
//! elevation, every model with its base, facing and front arc, the lines of sight between
//! enemies with their cover and range, and the range-band rings of one model's first weapon.
//! The game is the one `cav play SCENARIO --seed S` plays; the moment is the start of a turn.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use cav_format::Cover;
use cav_rules::geom::P;
use cav_rules::{Engine, Game, NoLog, SeededDice};
use clap::Args;

use crate::{EXIT_INVALID, lua_host};

#[derive(Args)]
#[command(
    after_help = "The game is the one `cav play SCENARIO --seed S` plays (bots on both sides, the packs' scripts \
    on); --turn T draws the board as turn T starts (after T-1 whole turns; a game that ends sooner is drawn as it \
    ended). Lines of sight join every pair of enemy models still in play: green clear, amber light cover, red heavy \
    cover, dashed grey no line of sight; each is labelled with the range in inches. Rings mark where each range band \
    of the --rings model's first weapon ends.\n\
    Scenarios that leave forces to rosters (full rules) are not drawn yet (exit 2).\n\
    Examples:\n  cav map stand-and-fight --seed 3 --turn 3 --svg map.svg\n  \
    cav map stand-and-fight --seed 3 --turn 1 --rings black --svg start.svg"
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
    /// The model whose first weapon's band rings are drawn: a model's name or its side (the
    /// side's first model); default: the first model.
    #[arg(long, value_name = "MODEL")]
    rings: Option<String>,
    /// Write the SVG to FILE.
    #[arg(long, value_name = "FILE")]
    svg: PathBuf,
}

pub fn run(cmd: MapCommand, root: &Path) -> Result<ExitCode, String> {
    let Some(rules) = crate::compiled_rules(root, &cmd.ruleset)? else { return Ok(ExitCode::from(EXIT_INVALID)) };
    let sc = rules.scenario(&cmd.scenario).ok_or_else(|| {
        let ids: Vec<&str> = rules.scenarios.iter().map(|s| s.id.as_str()).collect();
        format!("no scenario `{}` in {}; scenarios: {}", cmd.scenario, rules.id, ids.join(", "))
    })?;
    if rules.scenarios[sc].forces.is_empty() {
        return Err(format!(
            "scenario `{}` leaves forces to rosters; `cav map` draws scenarios that fix their forces for now",
            cmd.scenario
        ));
    }
    let Some(mut host) = lua_host(&rules) else { return Ok(ExitCode::from(EXIT_INVALID)) };
    let mut dice = SeededDice::new(cmd.seed);
    let mut events: Vec<cav_rules::Event> = Vec::new();
    let game = cav_rules::setup::scenario_game(&rules, sc, &mut dice, &mut NoLog, None);
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
        Some(r) => (0..game.models.len())
            .find(|&m| game.models[m].name == *r || game.sides[game.models[m].side] == *r)
            .ok_or_else(|| format!("no model or side `{r}` in this game"))?,
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

/// Pixels per inch.
const SCALE: f64 = 12.0;
const MARGIN: f64 = 30.0;
const SIDE_COLOURS: [&str; 4] = ["#c0392b", "#222222", "#2563a8", "#2e8b57"];

use cav_format::xml::escape as esc;

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

/// The board of `game`; `marks`: events whose strike points and drift are drawn (the last
/// turn's).
pub fn svg(game: &Game, title: &str, rings: usize, marks: &[cav_rules::Event]) -> String {
    let [bw, bh] = [game.board.size[0], game.board.size[1]];
    let (w, h) = (bw * SCALE + 2.0 * MARGIN, bh * SCALE + 2.0 * MARGIN + 76.0);
    // Board inches → page pixels; +y is up the page, as facings count (0 = +y, clockwise).
    let px = |p: P| (MARGIN + p.x * SCALE, MARGIN + 30.0 + (bh - p.y) * SCALE);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n\
         <title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{MARGIN}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
        esc(title),
        esc(title)
    );
    let (x0, y0) = px(P::new(0.0, bh));
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
            "<g class=\"terrain\" data-terrain=\"{}\"><polygon points=\"{}\" fill=\"{colour}\" fill-opacity=\"{opacity:.2}\" stroke=\"{colour}\"><title>{} (cover {:?}, elevation {})</title></polygon>\
             <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#444\" text-anchor=\"middle\">{}</text></g>",
            esc(&t.id),
            pts.join(" "),
            esc(&t.name),
            t.cover,
            t.elevation,
            px(a.center).0,
            px(a.center).1 + 3.0,
            esc(&t.name)
        );
    }
    // Band rings of one model's first weapon, clipped to the board.
    let _ = writeln!(
        s,
        "<clipPath id=\"board\"><rect x=\"{x0}\" y=\"{y0}\" width=\"{:.0}\" height=\"{:.0}\"/></clipPath>",
        bw * SCALE,
        bh * SCALE
    );
    if let Some(m) = game.models.get(rings).filter(|m| m.on_table())
        && let Some(wpn) = game.card(rings).weapons.first()
    {
        let (cx, cy) = px(m.pos);
        let base = game.card(rings).base_radius;
        for b in &game.rules.bands {
            let r = (wpn.range * b.multiplier + base) * SCALE;
            let _ = writeln!(
                s,
                "<g class=\"band\" clip-path=\"url(#board)\"><circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"none\" stroke=\"#7a7a7a\" stroke-dasharray=\"2 4\"/>\
                 <text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#555\" text-anchor=\"middle\">{} {}</text></g>",
                cy - r - 2.0,
                esc(&wpn.name),
                esc(&b.name)
            );
        }
    }
    // Lines of sight between enemies in play.
    let live: Vec<usize> =
        (0..game.models.len()).filter(|&m| game.models[m].in_play() && game.models[m].on_table()).collect();
    for (i, &a) in live.iter().enumerate() {
        for &b in &live[i + 1..] {
            if game.models[a].side == game.models[b].side {
                continue;
            }
            let (los, cover) = game.sight(a, b, false);
            let (colour, dash, what) = match (los, cover) {
                (false, _) | (_, Cover::Blocking) => ("#9a9a9a", " stroke-dasharray=\"6 4\"", "no line of sight"),
                (true, Cover::None) => ("#2e8b57", "", "clear"),
                (true, Cover::Light) => ("#e0a100", "", "light cover"),
                (true, Cover::Heavy) => ("#c0392b", "", "heavy cover"),
            };
            let ((ax, ay), (bx, by)) = (px(game.models[a].pos), px(game.models[b].pos));
            let range = game.range(a, b);
            let _ = writeln!(
                s,
                "<g class=\"sight\" data-cover=\"{what}\"><line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash}/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"{colour}\" text-anchor=\"middle\">{range:.1}\" {what}</text></g>",
                (ax + bx) / 2.0,
                (ay + by) / 2.0 - 4.0
            );
        }
    }
    // Strike points (a cross) and where a missed one drifted (an arrow to the point it fell).
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
                let _ = writeln!(
                    s,
                    "<g class=\"drift\"><line x1=\"{fx:.1}\" y1=\"{fy:.1}\" x2=\"{tx:.1}\" y2=\"{ty:.1}\" stroke=\"#8e44ad\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\"/>\
                     <circle cx=\"{tx:.1}\" cy=\"{ty:.1}\" r=\"4\" fill=\"#8e44ad\"/>\
                     <text x=\"{tx:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#8e44ad\" text-anchor=\"middle\">drifted {inches:.1}\" ({})</text></g>",
                    ty - 7.0,
                    esc(&game.models[*model].name)
                );
            }
            _ => {}
        }
    }
    // Models: base, front arc, facing, name.
    let half = game.rules.proc.sight.arc_half_width;
    // Wrecks stay where they fell (drawn faded); models off the table are not drawn.
    let drawn = |m: &cav_rules::game::Model| m.on_table() || (m.destroyed && !m.left_board && m.aboard.is_none());
    for (i, m) in game.models.iter().enumerate().filter(|(_, m)| drawn(m)) {
        let card = game.card(i);
        let colour = SIDE_COLOURS[m.side % SIDE_COLOURS.len()];
        let (cx, cy) = px(m.pos);
        let r = card.base_radius.max(0.3) * SCALE;
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
            "<g class=\"model{state}\" data-name=\"{}\" data-side=\"{}\" opacity=\"{}\">\
             <path class=\"arc\" d=\"M{cx:.1},{cy:.1} L{lx:.1},{ly:.1} A{reach:.1},{reach:.1} 0 {large} 1 {rx:.1},{ry:.1} Z\" fill=\"{colour}\" fill-opacity=\"0.10\" stroke=\"none\"/>\
             <circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"{colour}\" fill-opacity=\"0.85\" stroke=\"white\"/>\
             <line x1=\"{cx:.1}\" y1=\"{cy:.1}\" x2=\"{fx:.1}\" y2=\"{fy:.1}\" stroke=\"{colour}\" stroke-width=\"2.5\"/>\
             <text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">{} ({}, {} damage)</text></g>",
            esc(&m.name),
            esc(&game.sides[m.side]),
            if m.destroyed { 0.35 } else { 1.0 },
            cy + r + 13.0,
            esc(&m.name),
            esc(&game.sides[m.side]),
            m.damage
        );
    }
    let ly = MARGIN + 30.0 + bh * SCALE + 20.0;
    let _ = writeln!(
        s,
        "<text class=\"legend\" x=\"{MARGIN}\" y=\"{ly:.0}\" font-size=\"11\">1 square = 6\" · lines of sight: \
         <tspan fill=\"#2e8b57\">clear</tspan>, <tspan fill=\"#e0a100\">light cover</tspan>, \
         <tspan fill=\"#c0392b\">heavy cover</tspan>, <tspan fill=\"#9a9a9a\">none</tspan> · shaded wedge: front arc</text>\n\
         <text class=\"legend\" x=\"{MARGIN}\" y=\"{:.0}\" font-size=\"11\" fill=\"#8e44ad\">× strike point, ● where a missed one \
         drifted (the last turn's) · dotted rings: where each range band of the ringed model's first weapon ends</text>",
        ly + 16.0
    );
    s.push_str("</svg>\n");
    s
}
