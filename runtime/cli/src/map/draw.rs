//! Drawing the board of `cav map` (and of `cav play --svg`): the page put together, and its
//! layers from the bottom up — the board, its grid and terrain, one model's band rings, the lines
//! of sight, strike points and drift, the models, and the labels placed over them.

use std::fmt::Write as _;

use cav_format::Cover;
use cav_format::xml::escape as esc;
use cav_rules::Game;
use cav_rules::geom::P;

use super::labels::{
    Key, Label, Placer, Rect, RingLabel, Sight, label_models, label_rings, label_sights, label_terrain, squad_boxes,
};
use super::legend::{flow_legend, item_width, key_columns, legend_items};
use super::{MARGIN, SIDE_COLOURS, full, scale};
use crate::text_size::bold_width;

/// The board of `game`; `marks`: events whose strike points and drift are drawn (the last
/// turn's). Labels are placed so that no two texts overlap and none covers a model; what does
/// not fit is numbered on the board and written out in the key below it.
pub fn svg(game: &Game, title: &str, rings: usize, marks: &[cav_rules::Event]) -> String {
    let [bw, bh] = [game.board.size[0], game.board.size[1]];
    let sc = scale(game);
    // Board inches → page pixels; +y is up the page, as facings count (0 = +y, clockwise).
    let px = |p: P| (MARGIN + p.x * sc, MARGIN + 30.0 + (bh - p.y) * sc);
    let (x0, y0) = px(P::new(0.0, bh));
    let board = Rect::at(x0, y0, bw * sc, bh * sc);
    let mut s = String::new();
    draw_board(&mut s, game, &px, board);
    let (ring_labels, ringed) = draw_rings(&mut s, game, rings, &px, board);
    let mut sights = draw_sights(&mut s, game, &px);
    let drifts = draw_marks(&mut s, game, marks, &px);
    let markers = draw_models(&mut s, game, &px);
    let mut placer =
        Placer { bounds: board, taken: markers.iter().flatten().map(|r| r.grow(2.0)).collect(), labels: Vec::new() };
    // The key: (number, text, colour) of what is numbered on the board.
    let mut key: Key = Vec::new();
    let (squads, boxed) = squad_boxes(game, &markers, &mut placer, &mut key);
    label_models(game, &markers, &boxed, &drifts, &mut placer, &mut key);
    label_terrain(game, &px, &mut placer, &mut key);
    label_rings(&ring_labels, &mut placer);
    let unlabelled = label_sights(&mut sights, &mut placer);
    s.push_str(&squads);
    draw_labels(&mut s, &placer.labels);
    // The legend, flowed into lines as wide as the board, then the key in columns.
    let items = legend_items(game, unlabelled, !squads.is_empty(), ringed.as_ref());
    let room = (bw * sc).max(items.iter().map(item_width).fold(0.0, f64::max));
    let y = flow_legend(&mut s, items, room, board.y1 + 20.0);
    let width = 2.0 * MARGIN + room.max(bold_width(title, 15.0));
    let (y, width) = key_columns(&mut s, &key, room, y, width);
    let height = y + 6.0;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n\
         <title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{MARGIN}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n{s}</svg>\n",
        esc(title),
        esc(title)
    )
}

/// The board, its 6" grid and its terrain.
fn draw_board(s: &mut String, game: &Game, px: &impl Fn(P) -> (f64, f64), board: Rect) {
    let [bw, bh] = [game.board.size[0], game.board.size[1]];
    let sc = scale(game);
    let (x0, y0) = (board.x0, board.y0);
    let _ = writeln!(
        s,
        "<rect class=\"board\" x=\"{x0}\" y=\"{y0}\" width=\"{:.0}\" height=\"{:.0}\" fill=\"#eef0e2\" stroke=\"#555\"/>",
        bw * sc,
        bh * sc
    );
    if let Some(hexes) = &game.rules.hexes {
        draw_hexes(s, hexes, px, [bw, bh]);
    } else {
        draw_grid(s, px, board, [bw, bh], sc);
    }
    for a in &game.board.areas {
        let t = &game.rules.terrains[a.terrain];
        let (colour, opacity) = fill(t, game.rules.hexes.is_some());
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
    // Markers scripts put down (`ctx.place_marker`): a small diamond each, named in its title.
    for m in &game.markers {
        let (x, y) = px(m.at);
        let source = game.rules.sas.get(m.sa as usize).map_or("", |sa| sa.name.as_str());
        let _ = writeln!(
            s,
            "<g class=\"marker\" data-marker=\"{}\"><polygon points=\"{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}\" fill=\"#8e44ad\" stroke=\"white\"><title>marker {} ({})</title></polygon></g>",
            esc(&m.id),
            y - 6.0,
            x + 6.0,
            y + 6.0,
            x - 6.0,
            esc(&m.id),
            esc(source),
        );
    }
}

/// A 6" grid, to read distances by eye.
fn draw_grid(s: &mut String, px: &impl Fn(P) -> (f64, f64), board: Rect, [bw, bh]: [f64; 2], sc: f64) {
    let (x0, y0) = (board.x0, board.y0);
    let mut g = String::from("<g class=\"grid\" stroke=\"#d5d8c4\" stroke-width=\"0.6\">");
    for i in (6..bw as i64).step_by(6) {
        let (x, _) = px(P::new(i as f64, 0.0));
        let _ = write!(g, "<line x1=\"{x:.1}\" y1=\"{y0}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>", y0 + bh * sc);
    }
    for i in (6..bh as i64).step_by(6) {
        let (_, y) = px(P::new(0.0, i as f64));
        let _ = write!(g, "<line x1=\"{x0}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/>", x0 + bw * sc);
    }
    s.push_str(&g);
    s.push_str("</g>\n");
}

/// The most hexes a map draws (a pack's tiny hexes on a big board draw none, and say so).
const MOST_HEXES: f64 = 20_000.0;

/// A hex board's hexes whose centres lie on the board, each labelled by its axial coordinates.
fn draw_hexes(s: &mut String, g: &cav_rules::compile::HexGeometry, px: &impl Fn(P) -> (f64, f64), [bw, bh]: [f64; 2]) {
    let step = g.across_flats / 2.0;
    if (bw / step) * (bh / step) > MOST_HEXES * 4.0 {
        let _ = writeln!(s, "<!-- hexes too small to draw at this size -->");
        return;
    }
    let mut seen = std::collections::BTreeSet::new();
    let (nx, ny) = ((bw / step).ceil() as i64, (bh / step).ceil() as i64);
    for i in 0..=nx {
        for j in 0..=ny {
            let h = g.hex_at(P::new(i as f64 * step, j as f64 * step));
            let c = g.centre(h);
            if (0.0..=bw).contains(&c.x) && (0.0..=bh).contains(&c.y) {
                seen.insert((h.x, h.y));
            }
        }
    }
    let mut out = String::from("<g class=\"hexes\" fill=\"none\" stroke=\"#c9ccb6\" stroke-width=\"0.6\">");
    for (x, y) in seen {
        let h = cav_rules::compile::Hex::new(x, y);
        let pts: Vec<String> = g.corners(h).iter().map(|&p| px(p)).map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let [col, row] = g.offset(h);
        let _ = write!(
            out,
            "<polygon class=\"hex\" points=\"{}\"><title>hex [{col}, {row}]</title></polygon>",
            pts.join(" ")
        );
    }
    out.push_str("</g>\n");
    s.push_str(&out);
}

/// The band rings of model `rings`'s first weapon, clipped to the board; their labels (text,
/// centre and radius) are placed later. Also who and what is ringed, for the legend.
fn draw_rings(
    s: &mut String,
    game: &Game,
    rings: usize,
    px: &impl Fn(P) -> (f64, f64),
    board: Rect,
) -> (Vec<RingLabel>, Option<(String, String)>) {
    let [bw, bh] = [game.board.size[0], game.board.size[1]];
    let sc = scale(game);
    let (x0, y0) = (board.x0, board.y0);
    // Band rings of one model's first weapon, clipped to the board; their labels come later.
    let _ = writeln!(
        s,
        "<clipPath id=\"board\"><rect x=\"{x0}\" y=\"{y0}\" width=\"{:.0}\" height=\"{:.0}\"/></clipPath>",
        bw * sc,
        bh * sc
    );
    let mut ring_labels: Vec<RingLabel> = Vec::new();
    let mut ringed = None;
    if let Some(m) = game.models.get(rings).filter(|m| m.on_table())
        && let Some(wpn) = game.card(rings).weapons.first()
    {
        let (cx, cy) = px(m.pos);
        let base = game.card(rings).base_radius;
        ringed = Some((m.name.clone(), wpn.name.clone()));
        for b in &game.rules.bands {
            let r = (wpn.range * b.multiplier + base) * sc;
            let what = format!("{} {}", wpn.name, b.name);
            let _ = writeln!(
                s,
                "<g class=\"band\" clip-path=\"url(#board)\"><circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{r:.1}\" fill=\"none\" stroke=\"#7a7a7a\" stroke-dasharray=\"2 4\"><title>{}</title></circle></g>",
                esc(&what)
            );
            ring_labels.push((what, cx, cy, r));
        }
    }
    (ring_labels, ringed)
}

/// The lines of sight between enemies in play, by cover; their range labels come last, where
/// room is left.
fn draw_sights(s: &mut String, game: &Game, px: &impl Fn(P) -> (f64, f64)) -> Vec<Sight> {
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
            let text = match &game.rules.hexes {
                Some(h) => {
                    let n = (range / h.across_flats).round();
                    let obscured = game.obscurement(a, b);
                    let what =
                        if obscured > 0 && los { format!("{what}, obscured {obscured}") } else { what.to_owned() };
                    format!("{n:.0} hex{} {what}", if n == 1.0 { "" } else { "es" })
                }
                None => format!("{range:.1}\" {what}"),
            };
            let _ = writeln!(
                s,
                "<g class=\"sight\" data-cover=\"{what}\"><line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"{colour}\" stroke-width=\"1.6\"{dash}><title>{}</title></line></g>",
                esc(&format!("{} – {}: {text}", game.models[a].name, game.models[b].name))
            );
            sights.push((rank, range, text, colour, (ax, ay), (bx, by)));
        }
    }
    sights
}

/// Strike points (a cross) and where a missed one drifted (an arrow to the point it fell); the
/// drift labels, to place.
fn draw_marks(
    s: &mut String,
    game: &Game,
    marks: &[cav_rules::Event],
    px: &impl Fn(P) -> (f64, f64),
) -> Vec<(String, Rect)> {
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
    drifts
}

/// The models: base, front arc, facing; the markers (by model) are what labels keep clear of.
fn draw_models(s: &mut String, game: &Game, px: &impl Fn(P) -> (f64, f64)) -> Vec<Option<Rect>> {
    let sc = scale(game);
    let half = game.rules.proc.sight.arc_half();
    // Wrecks stay where they fell (drawn faded); models off the table are not drawn.
    let drawn = |m: &cav_rules::game::Model| {
        m.on_table() || (m.destroyed && !m.left_board && m.features.transport.aboard.is_none())
    };
    let mut markers: Vec<Option<Rect>> = vec![None; game.models.len()];
    for (i, m) in game.models.iter().enumerate().filter(|(_, m)| drawn(m)) {
        let card = game.card(i);
        let colour = SIDE_COLOURS[m.side % SIDE_COLOURS.len()];
        let (cx, cy) = px(m.pos);
        let r = card.base_radius.max(0.3) * sc;
        markers[i] = Some(Rect::around(cx, cy, r));
        let dir = |deg: f64, len: f64| {
            let rad = deg.to_radians();
            (cx + rad.sin() * len, cy - rad.cos() * len)
        };
        let reach = r + 3.0 * sc;
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
            esc(&full(game, i)),
        );
    }
    markers
}

/// The labels: leader lines under the texts; the texts on top, with a white halo to read over
/// lines.
fn draw_labels(s: &mut String, labels: &[Label]) {
    for l in labels {
        if let Some(((ax, ay), (bx, by))) = l.leader {
            let _ = writeln!(
                s,
                "<line class=\"leader\" x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke=\"#777\" stroke-width=\"0.8\"/>"
            );
        }
    }
    for l in labels {
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
}

/// Fill of a terrain type, by what it is (cover, elevation, water-like impassable open ground).
/// (The colours of a hex game's ground types are for hex boards: CAV's maps keep theirs.)
fn fill(t: &cav_rules::compile::TerrainDef, hexes: bool) -> (&'static str, f64) {
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
    } else if !hexes {
        "#9e9e86"
    } else if id.contains("snow") || id.contains("ice") {
        "#f4f7fb"
    } else if id.contains("mud") || id.contains("swamp") {
        "#7a6a4a"
    } else if id.contains("sand") {
        "#e3cf8c"
    } else if id.contains("scrub") || id.contains("grass") {
        "#9cbf6e"
    } else if id.contains("urban") || id.contains("rubble") || id.contains("rough") {
        "#8a8a8a"
    } else {
        "#9e9e86"
    };
    // Higher ground is drawn more solid.
    (colour, (0.35 + 0.12 * f64::from(t.elevation.clamp(0, 4))).min(0.85))
}

#[cfg(test)]
mod tests {
    use super::P;
    use cav_rules::game::{Board, Marker};

    /// A script's marker is drawn where it lies, its name (a script's text) escaped.
    #[test]
    fn markers_are_drawn_with_their_names_escaped() {
        let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let mut loaded = cav_content::load(&cav_content::LoadOptions {
            paths: vec![root.join("mods").join("hex-vehicles")],
            library: vec![],
        });
        let rules = cav_compile::validate(&mut loaded).into_iter().flatten().next().expect("hex-vehicles compiles");
        let mut game = cav_rules::Game::new(&rules, Board { size: [10.0, 10.0], areas: Vec::new() }, vec!["a".into()]);
        game.markers.push(Marker { sa: 0, id: "<b>&\"beacon".into(), at: P::new(3.0, 4.0) });
        let svg = super::svg(&game, "markers", 0, &[]);
        assert!(svg.contains("class=\"marker\" data-marker=\"&lt;b&gt;&amp;&quot;beacon\""), "{svg}");
        assert!(!svg.contains("<b>"), "no markup from a script's text");
    }
}
