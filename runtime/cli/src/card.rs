//! A model's data card as the book lays it out: the values of a resolved `kind: model` document
//! gathered once (`CardData`), drawn as text by `cav show` and as SVG by `cav card --svg`
//! (a faction sheet: every model card of a pack on one page). A value the pack notes as
//! `assumed` (lost in the source's extraction and filled in) is marked on the card.

use std::fmt::Write as _;

use cav_content::Ruleset;
use cav_format::{Document, Model, NoteKind, PerColumn, Rav};

use crate::show::{book_words, per_col, sa_text};

/// One cell of the damage track: its text and whether the value was assumed.
pub struct Cell {
    pub text: String,
    pub assumed: bool,
}

pub struct WeaponLine {
    /// "2× Medium MAC (L/R) RNG 12\"" (no brackets when it has no mount: an infantry weapon).
    pub title: String,
    /// The weapon's name: "Medium MAC".
    pub name: String,
    /// Its special attributes, weapon's and mount's, by id as packs write them (`cav show`).
    pub sas: Vec<String>,
    /// The same by name as the book prints them (the SVG card): "Blaster 2", "Ammo Bin [1]".
    pub sa_names: Vec<String>,
    pub rav: Option<Vec<Cell>>,
}

pub struct CardData {
    pub id: String,
    pub name: String,
    /// "Rach Extra-Large CAV (Attack)".
    pub kind: String,
    pub move_class: String,
    pub tv: String,
    pub tv_assumed: bool,
    pub damage_tracks: u32,
    /// The per-column attributes (CAV's MV, AV, then DC, EXP where the card has them), the
    /// attributes with one value, then CCV: (label, id, cells).
    pub rows: Vec<(String, String, Vec<Cell>)>,
    pub weapons: Vec<WeaponLine>,
    /// The name of the weapons' RAV rows: the ruleset's weapon attribute with `role: rav`.
    pub rav_name: String,
    /// Special attributes by id (`cav show`) and by name (the SVG card).
    pub sas: Vec<String>,
    pub sa_names: Vec<String>,
    pub source: Option<String>,
    /// (kind, field, text) of every note.
    pub notes: Vec<(String, Option<String>, String)>,
}

/// Whether the value at `ptr` (or a value holding it) is noted as assumed.
fn assumed(m: &Model, ptr: &str) -> bool {
    m.notes.iter().any(|n| {
        n.kind == NoteKind::Assumed
            && n.field
                .as_deref()
                .is_some_and(|f| ptr == f || ptr.strip_prefix(f).is_some_and(|rest| rest.starts_with('/')))
    })
}

fn cells(m: &Model, ptr: &str, texts: Vec<String>) -> Vec<Cell> {
    texts.into_iter().enumerate().map(|(i, text)| Cell { text, assumed: assumed(m, &format!("{ptr}/{i}")) }).collect()
}

/// A special attribute as the book's card prints it: its document's name (the id where the
/// document is missing), rating, uses and condition: "Blaster 2", "Ammo Bin [1]".
fn sa_name(rs: &Ruleset, s: &cav_format::SaRef) -> String {
    let mut t = match rs.get(cav_format::DocKind::SpecialAttribute, s.id().as_str()).map(|e| e.doc.as_deref()) {
        Some(Some(Document::SpecialAttribute(sa))) => sa.name.clone(),
        _ => s.id().to_string(),
    };
    if let Some(r) = s.rating() {
        let _ = write!(t, " {r}");
    }
    if let Some(u) = s.uses() {
        let _ = write!(t, " [{u}]");
    }
    if let cav_format::SaRef::Rated(r) = s
        && let Some(c) = &r.condition
    {
        let _ = write!(t, " ({c})");
    }
    t
}

pub fn data(m: &Model, rs: &Ruleset) -> CardData {
    let dt = &m.damage_track;
    let cols = dt.damage_tracks as usize + 1;
    let chassis = m.chassis.map(|c| format!("{} ", book_words(&crate::show::erased::Tag::tag(&c)))).unwrap_or_default();
    let words = |x: &dyn crate::show::erased::Tag| book_words(&x.tag());
    // The per-column attributes in the order the ruleset declares them, by the names it gives.
    let ruleset = match rs.get(cav_format::DocKind::Ruleset, &rs.id).map(|e| e.doc.as_deref()) {
        Some(Some(Document::Ruleset(r))) => Some(r),
        _ => None,
    };
    let declared: &[cav_format::AttributeDef] = ruleset.map_or(&[], |r| &r.attributes);
    // A ruleset whose shot is its own (`procedures.attack`) reads its weapons' attributes, not a
    // RAV: the card shows those.
    let own_shot = ruleset.filter(|r| r.procedures.attack.is_some());
    // The RAV rows, by the ruleset's name for its `role: rav` weapon attribute; none without one.
    let rav_def = ruleset.map(|r| r.weapon_attributes.iter().find(|a| a.role == Some(cav_format::AttributeRole::Rav)));
    let rav_name = rav_def.flatten().map_or_else(|| "RAV".to_owned(), |a| a.name.clone());
    let shows_rav = own_shot.is_none() && rav_def.is_none_or(|d| d.is_some());
    let mut track: Vec<_> = dt.columns.iter().collect();
    track.sort_by_key(|(id, _)| declared.iter().position(|a| a.id == **id).unwrap_or(usize::MAX));
    let mut rows: Vec<(String, String, Vec<Cell>)> = track
        .into_iter()
        .map(|(id, r)| {
            let name = declared.iter().find(|a| a.id == *id).map_or_else(|| id.0.to_uppercase(), |a| a.name.clone());
            (name, id.0.clone(), cells(m, &format!("/damage_track/{id}"), per_col(r, cols)))
        })
        .collect();
    // The attributes with one value (Sythopian Wars' Move and Resolve), the same in every column.
    for a in declared.iter().filter(|a| !a.per_column) {
        if let Some(v) = m.attributes.get(&a.id).copied().or(a.default) {
            let ptr = format!("/attributes/{}", a.id);
            rows.push((a.name.clone(), a.id.0.clone(), cells(m, &ptr, vec![v.to_string(); cols])));
        }
    }
    if let Some(r) = &dt.ccv {
        rows.push(("CCV".into(), "ccv".into(), cells(m, "/damage_track/ccv", per_col(r, cols))));
    }
    let weapons = m
        .weapons
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let def = rs.get(cav_format::DocKind::Weapon, w.weapon.as_str()).and_then(|e| match e.doc.as_deref() {
                Some(Document::Weapon(w)) => Some(w),
                _ => None,
            });
            let name = def.map_or(w.weapon.as_str(), |d| d.name.as_str());
            let mounts: Vec<String> = w.mount.iter().map(|m| format!("{m:?}")).collect();
            let rng = def
                .map(|d| match &d.range {
                    cav_format::Distance::Inches(i) => format!(" RNG {i}\""),
                    cav_format::Distance::Special(sp) => format!(" RNG {sp:?}"),
                })
                .unwrap_or_default();
            let refs: Vec<&cav_format::SaRef> =
                def.map(|d| d.special_attributes.iter()).into_iter().flatten().chain(&w.special_attributes).collect();
            let rav = w.rav.clone().or_else(|| def.map(|d| PerColumn::Same(d.rav))).filter(|_| shows_rav);
            // Infantry carry their weapons on no mount: nothing in brackets then.
            let mounts = if mounts.is_empty() { String::new() } else { format!(" ({})", mounts.join("/")) };
            let values: String = own_shot
                .map(|r| {
                    (r.weapon_attributes.iter())
                        .filter(|a| a.role.is_none())
                        .filter_map(|a| {
                            let v = def.and_then(|d| d.attributes.get(&a.id).copied()).or(a.default)?;
                            Some(format!(", {} {v}", a.name))
                        })
                        .collect()
                })
                .unwrap_or_default();
            WeaponLine {
                title: format!("{}× {name}{mounts}{rng}{values}", w.quantity),
                name: name.to_owned(),
                sas: refs.iter().map(|s| sa_text(s)).collect(),
                sa_names: refs.iter().map(|s| sa_name(rs, s)).collect(),
                rav: rav.map(|r| cells(m, &format!("/weapons/{i}/rav"), per_col::<Rav>(&r, cols))),
            }
        })
        .collect();
    CardData {
        id: m.id.0.clone(),
        name: m.name.clone(),
        kind: match &m.task {
            Some(task) => format!("{} {chassis}{} ({})", m.faction, words(&m.model_type), words(task)),
            None => format!("{} {chassis}{}", m.faction, words(&m.model_type)),
        },
        move_class: m.move_class.0.clone(),
        tv: m.tv.to_string(),
        tv_assumed: assumed(m, "/tv"),
        damage_tracks: dt.damage_tracks,
        rows,
        weapons,
        rav_name,
        sas: m.special_attributes.iter().map(sa_text).collect(),
        sa_names: m.special_attributes.iter().map(|s| sa_name(rs, s)).collect(),
        source: m.source.clone(),
        notes: m.notes.iter().map(|n| (format!("{:?}", n.kind), n.field.clone(), n.text.clone())).collect(),
    }
}

use cav_format::xml::escape as esc;

use crate::text_size::{bold_width, text_width};

const CELL_W: f64 = 38.0;
/// The narrowest column of row labels ("damage track", "RAV Medium MAC"); wider for longer.
const LABEL_W: f64 = 200.0;
const ROW_H: f64 = 20.0;

/// The card's height on the page, for stacking cards into a sheet.
fn height(c: &CardData) -> f64 {
    let rows = 1 + c.rows.len() + c.weapons.iter().filter(|w| w.rav.is_some()).count();
    76.0 + ROW_H * rows as f64 + 20.0 * c.weapons.len() as f64 + 44.0 + if has_assumed(c) { 18.0 } else { 0.0 }
}

fn has_assumed(c: &CardData) -> bool {
    let rav = c.weapons.iter().flat_map(|w| w.rav.iter().flatten());
    c.tv_assumed || c.rows.iter().flat_map(|r| &r.2).chain(rav).any(|x| x.assumed)
}

/// The row labels of the damage-track table: the rows', then a RAV row per weapon that has one.
fn rav_label(c: &CardData, w: &WeaponLine) -> String {
    format!("{} {}", c.rav_name, w.name)
}

/// Width of the column of row labels: the longest (bold 12 px) and a gap before the cells.
fn label_w(c: &CardData) -> f64 {
    let labels = c
        .rows
        .iter()
        .map(|r| r.0.to_owned())
        .chain(c.weapons.iter().filter(|w| w.rav.is_some()).map(|w| rav_label(c, w)));
    labels.map(|l| 12.0 + bold_width(&l, 12.0) + 12.0).fold(LABEL_W, f64::max)
}

fn weapon_text(w: &WeaponLine) -> String {
    if w.sa_names.is_empty() { w.title.clone() } else { format!("{} — {}", w.title, w.sa_names.join(", ")) }
}

fn sa_line(c: &CardData) -> String {
    if c.sa_names.is_empty() { "none".to_owned() } else { c.sa_names.join(", ") }
}

fn legend(c: &CardData) -> String {
    format!("* assumed: lost in the source's text and filled in (see `cav show {} --explain` and its notes)", c.id)
}

/// The card's width: its table, and every line of text (estimated as DejaVu Sans draws it) with
/// a margin, so nothing runs past the frame or the page.
fn width(c: &CardData) -> f64 {
    let tv = format!("TV {}{}", c.tv, if c.tv_assumed { "*" } else { "" });
    let mut lines = vec![
        12.0 + bold_width(&c.name, 17.0) + 24.0 + text_width(&tv, 15.0) + 12.0,
        12.0 + text_width(&format!("{} · move class {}", c.kind, c.move_class), 12.0) + 12.0,
        12.0 + bold_width("Special attributes: ", 12.0) + text_width(&sa_line(c), 12.0) + 12.0,
        label_w(c) + CELL_W * (c.damage_tracks as f64 + 1.0) + 20.0,
    ];
    lines.extend(c.weapons.iter().map(|w| 20.0 + text_width(&weapon_text(w), 12.0) + 12.0));
    if has_assumed(c) {
        lines.push(12.0 + text_width(&legend(c), 10.0) + 12.0);
    }
    lines.into_iter().fold(560.0, f64::max).ceil()
}

/// One card at (x, y) as an SVG group.
fn draw(c: &CardData, x: f64, y: f64, out: &mut String) {
    let (w, h) = (width(c), height(c));
    let lw = label_w(c);
    let _ = writeln!(out, "<g class=\"card\" id=\"card-{}\" transform=\"translate({x},{y})\">", esc(&c.id));
    let _ = writeln!(
        out,
        "<rect class=\"frame\" width=\"{w}\" height=\"{h}\" rx=\"8\" fill=\"#f7f5ef\" stroke=\"#333\" stroke-width=\"1.5\"/>"
    );
    let _ = writeln!(out, "<rect width=\"{w}\" height=\"34\" rx=\"8\" fill=\"#2f3e46\"/>");
    let _ = writeln!(
        out,
        "<text class=\"name\" x=\"12\" y=\"23\" font-size=\"17\" font-weight=\"bold\" fill=\"white\">{}</text>",
        esc(&c.name)
    );
    let tv_mark = if c.tv_assumed { "*" } else { "" };
    let _ = writeln!(
        out,
        "<text class=\"tv\" x=\"{:.0}\" y=\"23\" font-size=\"15\" fill=\"white\" text-anchor=\"end\">TV {}{tv_mark}</text>",
        w - 12.0,
        esc(&c.tv)
    );
    let _ = writeln!(
        out,
        "<text class=\"kind\" x=\"12\" y=\"52\" font-size=\"12\">{} · move class {}</text>",
        esc(&c.kind),
        esc(&c.move_class)
    );
    // The damage track: a header of columns, then a row per value.
    let mut ty = 76.0;
    let row = |out: &mut String, ty: f64, label: &str, cells: &[Cell], class: &str| {
        let _ = write!(
            out,
            "<g class=\"{class}\"><text x=\"12\" y=\"{:.0}\" font-size=\"12\" font-weight=\"bold\">{}</text>",
            ty - 5.0,
            esc(label)
        );
        for (i, cell) in cells.iter().enumerate() {
            let cx = lw + CELL_W * i as f64;
            if cell.assumed {
                let _ = write!(
                    out,
                    "<rect class=\"assumed\" x=\"{cx:.0}\" y=\"{:.0}\" width=\"{CELL_W}\" height=\"{ROW_H}\" fill=\"#e9e2c8\" stroke=\"#b59f3b\" stroke-dasharray=\"3 2\"/>",
                    ty - ROW_H + 2.0
                );
            }
            let (style, mark) = if cell.assumed { (" font-style=\"italic\"", "*") } else { ("", "") };
            let _ = write!(
                out,
                "<text x=\"{:.0}\" y=\"{:.0}\" font-size=\"12\" text-anchor=\"middle\"{style}>{}{mark}</text>",
                cx + CELL_W / 2.0,
                ty - 5.0,
                esc(&cell.text)
            );
        }
        out.push_str("</g>\n");
    };
    let header: Vec<Cell> = (0..=c.damage_tracks).map(|i| Cell { text: i.to_string(), assumed: false }).collect();
    let _ = writeln!(
        out,
        "<rect x=\"{lw:.0}\" y=\"{:.0}\" width=\"{:.0}\" height=\"{ROW_H}\" fill=\"#d8d2c0\"/>",
        ty - ROW_H + 2.0,
        CELL_W * header.len() as f64
    );
    row(out, ty, "damage track", &header, "columns");
    for (label, id, cells) in &c.rows {
        ty += ROW_H;
        // The id names the row's class: only the characters an id may have (a pack's key is not
        // markup).
        let class: String = id.chars().filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
        row(out, ty, label, cells, &format!("row row-{class}"));
    }
    for wl in &c.weapons {
        if let Some(rav) = &wl.rav {
            ty += ROW_H;
            row(out, ty, &rav_label(c, wl), rav, "row rav");
        }
    }
    ty += 26.0;
    let _ = writeln!(out, "<text x=\"12\" y=\"{ty:.0}\" font-size=\"12\" font-weight=\"bold\">Weapons</text>");
    for wl in &c.weapons {
        ty += 20.0;
        let _ = writeln!(
            out,
            "<text class=\"weapon\" x=\"20\" y=\"{ty:.0}\" font-size=\"12\">{}</text>",
            esc(&weapon_text(wl))
        );
    }
    ty += 24.0;
    let _ = writeln!(
        out,
        "<text class=\"sas\" x=\"12\" y=\"{ty:.0}\" font-size=\"12\"><tspan font-weight=\"bold\">Special attributes:</tspan> {}</text>",
        esc(&sa_line(c))
    );
    if has_assumed(c) {
        ty += 18.0;
        let _ = writeln!(
            out,
            "<text class=\"legend\" x=\"12\" y=\"{ty:.0}\" font-size=\"10\" font-style=\"italic\" fill=\"#7a6a22\">{}</text>",
            esc(&legend(c))
        );
    }
    out.push_str("</g>\n");
}

/// Cards stacked one above the other on one page.
pub fn svg(cards: &[CardData]) -> String {
    let w = cards.iter().map(width).fold(560.0, f64::max) + 20.0;
    let h: f64 = cards.iter().map(|c| height(c) + 14.0).sum::<f64>() + 6.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"DejaVu Sans, Arial, sans-serif\">\n<title>{}</title>\n",
        esc(&cards.iter().map(|c| c.name.as_str()).collect::<Vec<_>>().join(", "))
    );
    let mut y = 10.0;
    for c in cards {
        draw(c, 10.0, y, &mut s);
        y += height(c) + 14.0;
    }
    s.push_str("</svg>\n");
    s
}
