//! The legend under the board — the scale, the sides' colours, what the lines, wedges, boxes,
//! marks and rings mean — flowed into lines as wide as the board, and the key to the numbers on
//! the board in columns.

use std::fmt::Write as _;

use cav_format::xml::escape as esc;
use cav_rules::Game;

use super::labels::Key;
use super::{LEGEND, MARGIN, SIDE_COLOURS};
use crate::text_size::{bold_width, line_h, text_width};

/// A piece of the legend: runs of text, each in its colour (None: the legend's own).
pub(super) type Item = Vec<(String, Option<&'static str>)>;

pub(super) fn item_width(item: &Item) -> f64 {
    item.iter().map(|(t, _)| text_width(t, LEGEND)).sum()
}

/// The pieces of the legend: what every map shows, and what this one does (ranges left off for
/// room, squad boxes, rings).
pub(super) fn legend_items(
    game: &Game,
    unlabelled: usize,
    squads: bool,
    ringed: Option<&(String, String)>,
) -> Vec<Item> {
    let scale = match &game.rules.hexes {
        Some(g) => format!("1 hex = {}\"", g.across_flats),
        None => "1 square = 6\"".into(),
    };
    let mut items: Vec<Item> = vec![vec![(scale, None)]];
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
    if squads {
        items.push(vec![("dashed box: a squad, its models numbered in the key".into(), None)]);
    }
    items.push(vec![("× strike point, ● where a missed one drifted (the last turn's)".into(), Some("#8e44ad"))]);
    if let Some((model, weapon)) = ringed {
        items.push(vec![(format!("dotted rings: where each range band of {model}'s {weapon} ends"), None)]);
    }
    items
}

/// The legend's pieces flowed into lines at most `room` wide, from `y` down; where it ends.
pub(super) fn flow_legend(s: &mut String, items: Vec<Item>, room: f64, y: f64) -> f64 {
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
    let mut y = y;
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
    y
}

/// The key to the numbers on the board, in columns, from `y` down; where it ends and how wide
/// the page must be for it (at least `width`).
pub(super) fn key_columns(s: &mut String, key: &Key, room: f64, y: f64, width: f64) -> (f64, f64) {
    let step = line_h(LEGEND) + 3.0;
    let (mut y, mut width) = (y, width);
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
    (y, width)
}
