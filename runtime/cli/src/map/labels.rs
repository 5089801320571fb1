//! Where the texts of the map go: greedy, deterministic label placement (`Placer`) that keeps
//! every text clear of the others and of the models, squads standing together boxed under one
//! label, and what finds no room numbered into the key.

use std::fmt::Write as _;

use cav_format::xml::escape as esc;
use cav_rules::Game;
use cav_rules::geom::P;

use super::{GAPS, LABEL, LEADER, NUMBER, SIDE_COLOURS, SIGHT, SMALL, SQUAD_LINK, SQUAD_SPAN, full, scale, short};
use crate::text_size::{bold_width, line_h, text_width};

/// The key: (number, text, colour) of what is numbered on the board.
pub(super) type Key = Vec<(usize, String, &'static str)>;

/// A band ring to label: its text, and the ring's centre and radius on the page.
pub(super) type RingLabel = (String, f64, f64, f64);

/// A line of sight to label: whether it can shoot (0) or not (1), its range, its label, its
/// colour and its ends on the page.
pub(super) type Sight = (i32, f64, String, &'static str, (f64, f64), (f64, f64));

/// A box on the page (px): left, top, right, bottom.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rect {
    pub(super) x0: f64,
    pub(super) y0: f64,
    pub(super) x1: f64,
    pub(super) y1: f64,
}

impl Rect {
    pub(super) fn at(x0: f64, y0: f64, w: f64, h: f64) -> Rect {
        Rect { x0, y0, x1: x0 + w, y1: y0 + h }
    }
    pub(super) fn around(cx: f64, cy: f64, r: f64) -> Rect {
        Rect { x0: cx - r, y0: cy - r, x1: cx + r, y1: cy + r }
    }
    fn hits(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
    fn within(&self, o: &Rect) -> bool {
        self.x0 >= o.x0 && self.y0 >= o.y0 && self.x1 <= o.x1 && self.y1 <= o.y1
    }
    pub(super) fn grow(&self, by: f64) -> Rect {
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

/// One text placed on the board: its box (the text starts at its left, baseline 0.95 em down).
pub(super) struct Label {
    pub(super) text: String,
    pub(super) class: &'static str,
    pub(super) size: f64,
    pub(super) bold: bool,
    pub(super) fill: String,
    pub(super) at: Rect,
    /// A leader line from the thing labelled to the label, when it stands off.
    pub(super) leader: Option<((f64, f64), (f64, f64))>,
}

/// Greedy, deterministic label placement: each text takes the first of its candidate boxes that
/// stays on the board and clear of the markers and of every text placed before it; what finds
/// none is numbered into the key (or left to its tooltip). First come, first served, so the
/// order of `place` calls is the order of importance.
pub(super) struct Placer {
    pub(super) bounds: Rect,
    pub(super) taken: Vec<Rect>,
    pub(super) labels: Vec<Label>,
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

/// `members` (model indices, in order) split into chains of models each within `SQUAD_LINK` of
/// another; each chain in the order of its first model.
pub(super) fn clusters(game: &Game, members: &[usize]) -> Vec<Vec<usize>> {
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

/// Squad mates standing close together (each within SQUAD_LINK of another, all within
/// SQUAD_SPAN): one dashed box, one label, the models numbered in the key. The boxes drawn, and
/// which models are boxed.
pub(super) fn squad_boxes(
    game: &Game,
    markers: &[Option<Rect>],
    placer: &mut Placer,
    key: &mut Key,
) -> (String, Vec<bool>) {
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
            let span = SQUAD_SPAN * scale(game);
            if cluster.len() < 2 || b.x1 - b.x0 > span || b.y1 - b.y0 > span {
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
                key.push((n, format!("{} · {}", full(game, i), squad.name), colour));
                placer.number(n, colour, markers[i].unwrap_or(b));
            }
        }
    }
    (squads, boxed)
}

/// A model's (or a drift's) label next to its marker, else a number there and `long` in the key.
fn label_or_number(placer: &mut Placer, key: &mut Key, text: &str, long: String, colour: &'static str, a: Rect) {
    if !placer.next_to(text, "label", LABEL, colour, a) {
        let n = key.len() + 1;
        key.push((n, long, colour));
        placer.number(n, colour, a);
    }
}

/// Each other model on the table; then drift; then wrecks (terrain and the rest follow).
pub(super) fn label_models(
    game: &Game,
    markers: &[Option<Rect>],
    boxed: &[bool],
    drifts: &[(String, Rect)],
    placer: &mut Placer,
    key: &mut Key,
) {
    for i in (0..game.models.len()).filter(|&i| !boxed[i] && !game.models[i].destroyed) {
        if let Some(a) = markers[i] {
            let colour = SIDE_COLOURS[game.models[i].side % SIDE_COLOURS.len()];
            label_or_number(placer, key, &short(game, i), full(game, i), colour, a);
        }
    }
    for (text, a) in drifts {
        label_or_number(placer, key, text, text.clone(), "#8e44ad", *a);
    }
    for i in (0..game.models.len()).filter(|&i| game.models[i].destroyed) {
        if let Some(a) = markers[i] {
            let colour = SIDE_COLOURS[game.models[i].side % SIDE_COLOURS.len()];
            label_or_number(placer, key, &short(game, i), full(game, i), colour, a);
        }
    }
}

/// Each piece of terrain's name.
pub(super) fn label_terrain(game: &Game, px: &impl Fn(P) -> (f64, f64), placer: &mut Placer, key: &mut Key) {
    // On a hex board terrain comes a hex at a time: each type is named once, on its first hex.
    let mut named = Vec::new();
    for a in &game.board.areas {
        if game.rules.hexes.is_some() {
            if named.contains(&a.terrain) {
                continue;
            }
            named.push(a.terrain);
        }
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
}

/// Ring labels where they fit, above or below the ring's top or bottom (else the ring's tooltip).
pub(super) fn label_rings(ring_labels: &[RingLabel], placer: &mut Placer) {
    for (what, cx, cy, r) in ring_labels {
        let (w, h) = (text_width(what, SMALL), line_h(SMALL));
        let cands: Vec<(Rect, f64)> = [cy - r - 2.0 - h, cy - r + 2.0, cy + r + 2.0, cy + r - 2.0 - h]
            .iter()
            .map(|&top| (Rect::at(cx - w / 2.0, top, w, h), 0.0))
            .collect();
        placer.place(what, "label band", SMALL, false, "#555", Rect::around(*cx, *cy, 0.0), &cands);
    }
}

/// Ranges of the lines of sight last, lines that can shoot first, shorter first; along the
/// line, from its middle out, above it then below; a range with no room is left to the
/// line's tooltip. How many were left off.
pub(super) fn label_sights(sights: &mut [Sight], placer: &mut Placer) -> usize {
    sights.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut unlabelled = 0;
    for (_, _, text, colour, (ax, ay), (bx, by)) in sights.iter() {
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
    unlabelled
}
