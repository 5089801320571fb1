//! End-to-end: the pictures. `cav card` draws data cards as SVG — well-formed, every column and
//! row of the damage track, weapons and special attributes, assumed values marked; `cav map`
//! draws a game's board mid-game — terrain, models, lines of sight with cover. The card and the
//! map the README shows are regenerated from the content (stale = a failing test).

use std::process::{Command, Output};

use cav_tests::{root, xmllint};

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn the_dictator_b_card_has_its_track_weapons_and_assumed_values() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "dictator-b", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(body.matches("<g class=\"card\"").count(), 1);
    for want in [
        "Dictator-B",
        "Rach Extra-Large CAV (Attack)",
        "TV 800*",
        "RAV Medium MAC",
        "2× Medium MAC (L/R) RNG 12\"",
        "Advanced Targeting Computer 1",
    ] {
        assert!(body.contains(&want.replace('"', "&quot;")), "missing {want}");
    }
    // Ten columns (0–9): a header cell per column and a cell per column in each of MV, AV, DC, CCV.
    for row in ["row-mv", "row-av", "row-dc", "row-ccv"] {
        let at = body.find(&format!("class=\"row {row}\"")).unwrap_or_else(|| panic!("no {row}"));
        let g = &body[at..at + body[at..].find("</g>").unwrap()];
        assert_eq!(g.matches("text-anchor=\"middle\"").count(), 10, "{row}");
    }
    // The Quick-Start card lost its MV row and AV columns 4-9 (assumed in the pack): 10 + 6 + 2 (DC 8, 9).
    assert_eq!(body.matches("class=\"assumed\"").count(), 18);
    assert!(body.contains("* assumed"));
}

#[test]
fn a_pack_sheet_has_a_card_per_model_and_unknown_ids_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("sheet.svg");
    let out = cav().args(["card", "--pack", "iron-wolves", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let models = cav().args(["list", "model", "--ruleset", "quickstart"]).output().unwrap();
    let n = String::from_utf8_lossy(&models.stdout).lines().filter(|l| l.contains("iron-wolves")).count();
    assert!(n > 0);
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("<g class=\"card\"").count(), n);
    let out = cav().args(["card", "dictator-q", "--svg"]).arg(&svg).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no model `dictator-q`"), "{}", text(&out));
}

/// The README's card is the content's: regenerate it with
/// `cargo run -q -- card dictator-b --svg docs/images/dictator-b-card.svg`.
#[test]
fn the_readme_card_is_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "dictator-b", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let committed = root().join("docs/images/dictator-b-card.svg");
    let fresh = std::fs::read_to_string(&svg).unwrap();
    let old = std::fs::read_to_string(&committed).unwrap_or_default();
    assert!(
        old == fresh,
        "{} is stale: run `cargo run -q -- card dictator-b --svg docs/images/dictator-b-card.svg`",
        committed.display()
    );
    assert!(std::fs::read_to_string(root().join("README.md")).unwrap().contains("docs/images/dictator-b-card.svg"));
}

#[test]
fn a_mid_game_map_has_the_board_terrain_models_and_sight() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav().args(["map", "stand-and-fight", "--seed", "1", "--turn", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert!(body.contains("Stand and Fight! — seed 1, start of turn 3"));
    // Seed 1 lays nine pieces of terrain (the `terrain_placed` events of `cav play --seed 1`
    // before its first turn; a wreck later is one too).
    let log = tmp.path().join("game.jsonl");
    let played = cav().args(["play", "--seed", "1", "--quiet", "--log"]).arg(&log).output().unwrap();
    assert!(played.status.success(), "{}", text(&played));
    let laid = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .take_while(|l| !l.contains("\"turn_start\""))
        .filter(|l| l.contains("\"terrain_placed\""))
        .count();
    assert_eq!(body.matches("<g class=\"terrain\"").count(), laid);
    assert_eq!(body.matches("<g class=\"model\"").count(), 2, "both Dictator-Bs, in play at turn 3");
    assert_eq!(body.matches("<g class=\"sight\"").count(), 1, "one pair of enemies");
    assert_eq!(body.matches("<g class=\"band\"").count(), 4, "the Quick-Start's four bands");
    let out = cav().args(["map", "stand-and-fight", "--rings", "green", "--svg"]).arg(&svg).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// The README's map: `cargo run -q -- map stand-and-fight --seed 1 --turn 3 --svg docs/images/stand-and-fight-map.svg`.
#[test]
fn the_readme_map_is_fresh() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav().args(["map", "stand-and-fight", "--seed", "1", "--turn", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let committed = root().join("docs/images/stand-and-fight-map.svg");
    assert!(
        std::fs::read_to_string(&committed).unwrap_or_default() == std::fs::read_to_string(&svg).unwrap(),
        "{} is stale: run `cargo run -q -- map stand-and-fight --seed 1 --turn 3 --svg docs/images/stand-and-fight-map.svg`",
        committed.display()
    );
    assert!(std::fs::read_to_string(root().join("README.md")).unwrap().contains("docs/images/stand-and-fight-map.svg"));
}

#[test]
fn play_draws_the_board_as_the_game_ended_with_its_wreck() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("end.svg");
    let out = cav().args(["play", "--seed", "3", "--quiet", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    // Seed 3: black wins, red is destroyed (the summary says so).
    assert!(text(&out).contains("red Dictator-B: destroyed"), "{}", text(&out));
    assert!(body.contains("<g class=\"model destroyed\" data-name=\"red Dictator-B\""));
    assert!(body.contains("<g class=\"model\" data-name=\"black Dictator-B\""));
    assert_eq!(body.matches("<g class=\"sight\"").count(), 0, "no enemies left to see");
}

/// Seed 61: in turn 4 a missed strike point drifts (the `drift` event of `cav play --seed 61`).
#[test]
fn the_map_shows_the_last_turns_drift() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out =
        cav().args(["map", "stand-and-fight", "--seed", "61", "--turn", "5", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(body.matches("<g class=\"drift\"").count(), 1);
    let out =
        cav().args(["map", "stand-and-fight", "--seed", "61", "--turn", "4", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(std::fs::read_to_string(&svg).unwrap().matches("<g class=\"drift\"").count(), 0, "turn 3 had none");
}

// ---------------------------------------------------------------------------------------------
// Pictures at full-rules scale, measured in headless Chromium: every text's box as the browser
// lays it out, so labels that overlap, cover a model or run past the picture's edge are counted,
// not only well-formed SVG.

fn chromium() -> std::path::PathBuf {
    for name in ["chromium", "chromium-browser"] {
        if let Ok(out) = Command::new("sh").arg("-c").arg(format!("command -v {name}")).output()
            && out.status.success()
        {
            return std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        }
    }
    panic!("headless Chromium is not installed: `scripts/test` installs the distribution's `chromium` package");
}

/// Measures the SVG inlined above it: each text's box relative to the picture (in its own
/// units: the picture is drawn at its width, so 1 px = 1 unit), then every pair of text boxes that
/// overlap by more than half a pixel each way, every text over a model's base, every text that
/// runs past the picture's edges. Writes one finding a line into `#report`.
const MEASURE: &str = r#"
const svg = document.querySelector('svg');
const o = svg.getBoundingClientRect();
const W = svg.viewBox.baseVal.width, H = svg.viewBox.baseVal.height, k = o.width / W;
const box = e => { const r = e.getBoundingClientRect();
  return {x0: (r.left - o.left) / k, y0: (r.top - o.top) / k, x1: (r.right - o.left) / k, y1: (r.bottom - o.top) / k}; };
const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '')
  .map(t => ({t: t.textContent, b: box(t)}));
const bases = [...svg.querySelectorAll('g.model > circle')].map(c => ({t: c.parentNode.getAttribute('data-name'), b: box(c)}));
const over = (a, b) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0.5 && Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > 0.5;
const f = b => `[${b.x0.toFixed(1)},${b.y0.toFixed(1)} ${b.x1.toFixed(1)},${b.y1.toFixed(1)}]`;
const out = [`size ${W} ${H} ${o.width}`];
for (const t of texts) out.push(`text ${t.t}`);
for (let i = 0; i < texts.length; i++)
  for (let j = i + 1; j < texts.length; j++)
    if (over(texts[i].b, texts[j].b)) out.push(`overlap ${texts[i].t} ${f(texts[i].b)} | ${texts[j].t} ${f(texts[j].b)}`);
for (const t of texts) for (const m of bases) if (over(t.b, m.b)) out.push(`base ${t.t} ${f(t.b)} | ${m.t}`);
for (const t of texts)
  if (t.b.x0 < -0.5 || t.b.y0 < -0.5 || t.b.x1 > W + 0.5 || t.b.y1 > H + 0.5) out.push(`cut ${t.t} ${f(t.b)} in ${W}x${H}`);
document.getElementById('report').textContent = out.join('\n');
"#;

/// What Chromium measured of a picture.
#[derive(Debug)]
struct Measured {
    /// The texts, each as its `textContent` (a label's lines joined).
    texts: Vec<String>,
    /// Pairs of texts whose boxes overlap.
    overlaps: Vec<String>,
    /// Texts over a model's base.
    on_bases: Vec<String>,
    /// Texts past the picture's edges.
    cut: Vec<String>,
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// `svg` inlined in a page with `MEASURE`, opened in headless Chromium; the report read back
/// from the DOM it dumps.
fn measure(svg: &std::path::Path) -> Measured {
    let body = std::fs::read_to_string(svg).unwrap();
    let page = svg.with_extension("measure.html");
    std::fs::write(
        &page,
        format!(
            "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>body{{margin:0}}</style></head><body>{body}\
             <pre id=\"report\">not measured</pre><script>{MEASURE}</script></body></html>"
        ),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(chromium())
        .args(["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1400,1000"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "chromium: {}", text(&out));
    let dom = String::from_utf8_lossy(&out.stdout);
    let at = dom.find("<pre id=\"report\">").expect("the report") + "<pre id=\"report\">".len();
    let report = unescape(&dom[at..at + dom[at..].find("</pre>").unwrap()]);
    assert!(report.starts_with("size "), "the measuring script did not run: {report}");
    let of = |kind: &str| -> Vec<String> {
        report.lines().filter_map(|l| l.strip_prefix(kind).map(str::to_owned)).collect()
    };
    Measured { texts: of("text "), overlaps: of("overlap "), on_bases: of("base "), cut: of("cut ") }
}

/// Nothing to complain of: no text over another or over a model, none cut at the edges.
fn assert_legible(m: &Measured, what: &str) {
    assert!(
        m.overlaps.is_empty() && m.on_bases.is_empty() && m.cut.is_empty(),
        "{what}: {} overlapping pairs of texts, {} texts over a model, {} cut at the edge:\n{}",
        m.overlaps.len(),
        m.on_bases.len(),
        m.cut.len(),
        [&m.overlaps[..], &m.on_bases[..], &m.cut[..]].concat().join("\n")
    );
}

/// A legal 13-model Iron Wolves roster: a lance of six CAVs and a platoon of seven rifle squads.
/// Both sides field it: a game of 26 models.
const THIRTEEN: &str = "kind: force\nid: pack-of-thirteen\nname: Pack of Thirteen\nfaction: iron-wolves\ntvp: 3000\n\
squads:\n  - type: attack\n    name: Fang Lance\n    models:\n      - {model: fenrir, count: 2}\n      \
- {model: warg, count: 3}\n      - {model: warg-lancer}\n  - type: infantry\n    name: Howlers\n    models:\n      \
- {model: wolfpack-rifle-squad, count: 7}\n";

/// `cav play`/`cav map` arguments for the 26-model full-rules game of `roster`.
fn full_game(roster: &std::path::Path) -> Vec<String> {
    let r = roster.display().to_string();
    ["no-man-s-land", "--ruleset", "full", "--seed", "1", "--faction", "iron-wolves", "--force", &r, "--force", &r]
        .map(str::to_owned)
        .to_vec()
}

/// Every model drawn is named on the board or in the key, and the picture holds `models` models.
fn every_model_named(body: &str, models: usize) {
    let names: Vec<&str> = body
        .match_indices("<g class=\"model")
        .map(|(at, _)| {
            let rest = &body[at..];
            let from = rest.find("data-name=\"").unwrap() + "data-name=\"".len();
            &rest[from..from + rest[from..].find('"').unwrap()]
        })
        .collect();
    assert_eq!(names.len(), models, "models drawn");
    for name in names {
        assert!(body.contains(&format!(">{name} (")), "{name} is neither labelled nor in the key");
    }
}

/// The board of a 26-model full-rules game — as it ended (`cav play --svg`) and mid-game
/// (`cav map`) — in Chromium: no text over another or over a model, nothing cut at the edges,
/// every model named on the board or in the key, squads standing together boxed.
#[test]
fn a_26_model_full_rules_board_is_legible_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let roster = tmp.path().join("thirteen.yaml");
    std::fs::write(&roster, THIRTEEN).unwrap();
    let end = tmp.path().join("end.svg");
    let out = cav().arg("play").args(full_game(&roster)).args(["--quiet", "--svg"]).arg(&end).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let mid = tmp.path().join("mid.svg");
    let out = cav().arg("map").args(full_game(&roster)).args(["--turn", "2", "--svg"]).arg(&mid).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    for svg in [&end, &mid] {
        xmllint(svg);
        let body = std::fs::read_to_string(svg).unwrap();
        every_model_named(&body, 26);
        assert!(body.contains("<g class=\"squad\""), "{}: squad mates standing together are boxed", svg.display());
        let m = measure(svg);
        assert!(m.texts.len() > 26, "{}: {} texts", svg.display(), m.texts.len());
        assert_legible(&m, &svg.display().to_string());
    }
    // A copy to look at.
    let shots = root().join("target/test-artifacts");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::copy(&mid, shots.join("full-rules-map.svg")).unwrap();
}

/// The Quick-Start map's legend wraps to the board's width: nothing is cut at the right.
#[test]
fn the_quickstart_map_and_its_legend_fit_the_picture() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav().args(["map", "stand-and-fight", "--seed", "1", "--turn", "3", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let m = measure(&svg);
    assert!(m.texts.iter().any(|t| t.contains("dotted rings")), "{:?}", m.texts);
    assert_legible(&m, "stand-and-fight");
}

/// `--rings` takes a model's name, number (as the log counts models) or card id, or a side;
/// nothing matching is an error (exit 2) that lists what it may name.
#[test]
fn map_rings_take_a_model_number_or_card_id_and_a_miss_lists_the_models() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let rings = |which: &str| {
        let out = cav().args(["map", "stand-and-fight", "--rings", which, "--svg"]).arg(&svg).output().unwrap();
        (out.status.code(), text(&out), std::fs::read_to_string(&svg).unwrap_or_default())
    };
    // Stand and Fight! lists black's Dictator-B first.
    for (which, whose) in [
        ("1", "red Dictator-B"),
        ("0", "black Dictator-B"),
        ("red Dictator-B", "red Dictator-B"),
        ("dictator-b", "black Dictator-B"),
        ("red", "red Dictator-B"),
    ] {
        let (code, said, body) = rings(which);
        assert_eq!(code, Some(0), "{which}: {said}");
        assert!(body.contains(&format!("range band of {whose}&#39;s ")), "{which}: rings of {whose}");
    }
    let (code, said, _) = rings("green");
    assert_eq!(code, Some(2), "{said}");
    for want in
        ["no model `green`", "0 `black Dictator-B` (dictator-b)", "1 `red Dictator-B` (dictator-b)", "(red, black)"]
    {
        assert!(said.contains(want), "missing {want}: {said}");
    }
}

/// An outcome of several criticals runs past 100 characters: the chart wraps it and widens to
/// hold it, so Chromium finds every outcome whole and nothing cut or overlapping.
#[test]
fn the_odds_chart_holds_long_outcomes_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("odds.svg");
    let out = cav()
        .args(["odds", "test-ex-nine-track-cav", "medium-mac", "test-full-chassis-cav", "--range", "10"])
        .args(["--ruleset", "full", "--format", "json", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outcomes: Vec<String> =
        r["outcomes"].as_array().unwrap().iter().map(|o| o["outcome"].as_str().unwrap().to_owned()).collect();
    let longest = outcomes.iter().map(|o| o.chars().count()).max().unwrap();
    assert!(longest > 100, "an outcome long enough to wrap: {longest} characters");
    let m = measure(&svg);
    for o in &outcomes {
        assert!(m.texts.contains(o), "{o} is not one text of the chart");
    }
    assert_legible(&m, "odds chart");
}

/// An infantry model's card names its special attributes as the book does and shows no empty
/// mount; in Chromium its texts neither overlap nor run past the page.
#[test]
fn an_infantry_card_names_its_special_attributes_and_has_no_empty_mount() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "line-rifles", "fenrir", "--ruleset", "full", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    assert!(!body.contains("()"), "an empty mount");
    let m = measure(&svg);
    for want in [
        "1× Assault Rifle RNG 2\" — Full-Auto",
        "1× Machine Gun (Squad Automatic Weapon) RNG 3\" — Full-Auto",
        "Special attributes: Soft",
        "RAV Machine Gun (Squad Automatic Weapon)",
        "1× Medium MAC (R) RNG 12\" — Ammo, Blaster 2, Minimum Range 8",
        "Special attributes: Hard, Reinforced 1, Ammo Bin [1], Relentless",
    ] {
        assert!(m.texts.iter().any(|t| t == want), "missing {want}: {:?}", m.texts);
    }
    assert!(!m.texts.iter().any(|t| t.contains("full-auto") || t.contains("ammo-bin")), "an id on the card");
    assert_legible(&m, "cards");
}

/// A hex board's map draws its hexes (those whose centres lie on the board) and says their size.
#[test]
fn a_hex_board_map_draws_its_hexes() {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("mods/sythopian-wars"), &tmp.path().join("mods/sythopian-wars")).unwrap();
    std::fs::create_dir_all(tmp.path().join("content")).unwrap();
    let ruleset = tmp.path().join("mods/sythopian-wars/rules/ruleset.yaml");
    let yaml = std::fs::read_to_string(&ruleset).unwrap();
    let yaml = yaml.replacen("\ndice:", "\nboard: {topology: hex, orientation: flat, hex_size: 2}\ndice:", 1);
    std::fs::write(&ruleset, yaml).unwrap();
    let svg = tmp.path().join("map.svg");
    let mut c = cav_tests::cav_in(tmp.path());
    let out = c.args(["map", "ruins-brawl", "--ruleset", "sythopian-wars", "--svg"]).arg(&svg).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    // A 48" board of 2" hexes: about 24 columns of 27 or 28 hexes.
    let hexes = body.matches("class=\"hex\"").count();
    assert!((600..=720).contains(&hexes), "{hexes} hexes");
    assert!(body.contains("1 hex = 2&quot;") && !body.contains("1 square"));
}

/// The hex vehicle pack's map: its terrain fills whole hexes (one piece per hex, each type
/// named once), ranges are told in hexes with the obscurement along the line, and the small
/// board is drawn as large as a 48" table.
#[test]
fn a_hex_pack_map_names_its_terrain_once_and_counts_hexes() {
    let tmp = tempfile::tempdir().unwrap();
    let svg = tmp.path().join("map.svg");
    let out = cav_tests::cav_in(&root())
        .args(["map", "river-crossing", "--ruleset", "hex-vehicles", "--svg"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    xmllint(&svg);
    let body = std::fs::read_to_string(&svg).unwrap();
    // 18 hexes of calm water, each drawn as a hexagon of its own, the type labelled once.
    assert_eq!(body.matches("data-terrain=\"calm-water\"").count(), 18);
    assert_eq!(body.matches(">Calm water<").count(), 1, "one label per terrain type");
    assert!(body.contains("hexes clear") && body.contains("obscured 2"), "ranges in hexes, obscurement told");
    assert!(!body.contains("\" clear"), "no range in inches");
    let width: f64 = body.split("width=\"").nth(1).and_then(|w| w.split('"').next()).unwrap().parse().unwrap();
    assert!(width >= 576.0, "drawn at least as large as a 48\" table: {width}");
}
