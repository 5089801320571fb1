//! The replay viewer in a real browser: `cav replay game.jsonl --html FILE` is opened in headless
//! Chromium (the distribution's package; `scripts/test` installs it where missing) at chosen
//! events (`#N`), and the page the browser built — the DOM after its script ran — must show the
//! models where the log puts them and the roll with the log's dice, modifiers and numbers. A
//! screenshot is kept in `target/test-artifacts/replay.png`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cav_tests::root;
use serde_json::Value;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser"] {
        if let Ok(out) = Command::new("sh").arg("-c").arg(format!("command -v {name}")).output()
            && out.status.success()
        {
            return PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        }
    }
    panic!("headless Chromium is not installed: `scripts/test` installs the distribution's `chromium` package");
}

fn browser(page: &Path, event: usize, extra: &[&str]) -> Output {
    let profile = tempfile::tempdir().unwrap();
    Command::new(chromium())
        .args(["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1200,800"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(extra)
        .arg(format!("file://{}#{event}", page.display()))
        .output()
        .unwrap()
}

/// The DOM Chromium built for the page at `#event`.
fn dom(page: &Path, event: usize) -> String {
    let out = browser(page, event, &["--dump-dom"]);
    assert!(out.status.success(), "chromium: {}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `cav replay LOG --html PAGE`, and the log's records that are events (as the viewer numbers
/// them).
fn replay_page(log: &Path, page: &Path) -> Vec<Value> {
    let out = cav().arg("replay").arg(log).arg("--html").arg(page).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"].is_string())
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[test]
fn a_replayed_game_steps_through_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    let page = tmp.path().join("replay.html");
    let out = cav().args(["play", "--seed", "1", "--quiet", "--log"]).arg(&log).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = cav().arg("replay").arg(&log).arg("--html").arg(&page).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<link"), "no network");
    // The events as the viewer numbers them: the log's records that are events.
    let events: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"].is_string())
        .collect();
    // Where each model stands after event n, by the log.
    let positions = |n: usize| {
        let mut at = std::collections::BTreeMap::new();
        for e in &events[..=n] {
            match e["event"].as_str().unwrap() {
                "deployed" => {
                    at.insert(e["model"].as_u64().unwrap(), (e["name"].as_str().unwrap().to_owned(), e["at"].clone()));
                }
                "moved" => {
                    let m = at.get_mut(&e["model"].as_u64().unwrap()).unwrap();
                    m.1 = e["to"].clone();
                }
                _ => {}
            }
        }
        at
    };
    let hit = events.iter().position(|e| e["event"] == "hit" && e["penetrated"] == true).expect("a penetrating hit");
    let roll = (0..hit).rev().find(|&i| events[i]["event"] == "roll" && events[i]["kind"] == "combat").unwrap();
    for n in [roll, hit] {
        let d = dom(&page, n);
        assert!(d.contains(&format!("id=\"event-index\">{n}<")), "event {n}");
        for (name, at) in positions(n).values() {
            let want = format!("data-name=\"{}\" data-x=\"{}\" data-y=\"{}\"", esc(name), at["x"], at["y"]);
            assert!(d.contains(&want.replace(".0\"", "\"")), "event {n}: {want}");
        }
        // The roll panel shows the combat roll before the hit, with its dice, sources and numbers.
        let r = &events[roll];
        assert!(d.contains(&format!("id=\"roll-total\">{}<", r["total"])), "event {n}: total {}", r["total"]);
        assert!(d.contains(&format!("id=\"roll-target\">{}<", r["target"])), "event {n}");
        for face in r["natural"].as_array().unwrap() {
            assert!(d.contains(&format!("<span class=\"die\">{face}</span>")), "event {n}: die {face}");
        }
        for m in r["mods"].as_array().unwrap() {
            assert!(d.contains(&esc(m["source"].as_str().unwrap())), "event {n}: {m}");
        }
    }
    // The last event: the loser is destroyed, and the damage panel says how much each took.
    let last = events.len() - 1;
    let d = dom(&page, last);
    let destroyed = events.iter().filter(|e| e["event"] == "destroyed").count();
    assert!(destroyed > 0);
    assert_eq!(d.matches("data-destroyed=\"true\"").count(), destroyed);
    assert!(d.contains("of 9 damage"), "the Dictator-B's nine damage tracks");
    // A screenshot of a mid-game moment, kept for people to look at.
    let shots = root().join("target/test-artifacts");
    std::fs::create_dir_all(&shots).unwrap();
    let png = shots.join("replay.png");
    let _ = std::fs::remove_file(&png);
    let out = browser(&page, hit, &[&format!("--screenshot={}", png.display())]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(std::fs::metadata(&png).map(|m| m.len() > 10_000).unwrap_or(false), "a screenshot at {}", png.display());
}

/// Markup a hostile log tries to put into the page: each piece would mark `<body>` if it ran.
const PAYLOAD: &str = "\"'><img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">\
    <svg onload=\"document.body.setAttribute('data-pwned','svg')\"></svg>\
    <!--<script>document.body.setAttribute('data-pwned','script')</script>";

/// Every value of every event replaced by `PAYLOAD` (numbers too, where the page draws numbers),
/// except the event's type; with `strings_only`, only the strings (so models keep their indices
/// and the names reach the board, the damage panel and the timeline).
fn poisoned(v: &Value, strings_only: bool) -> Value {
    match v {
        Value::String(_) => Value::String(PAYLOAD.into()),
        Value::Number(_) | Value::Bool(_) if !strings_only => Value::String(PAYLOAD.into()),
        Value::Array(a) => Value::Array(a.iter().map(|x| poisoned(x, strings_only)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), if k == "event" { x.clone() } else { poisoned(x, strings_only) }))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A log whose every field carries markup and script is shown as text: Chromium builds no
/// element from it and runs none of it, at the first event, a roll, a hit and the last.
#[test]
fn a_hostile_log_never_becomes_markup_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    let out = cav().args(["play", "--seed", "1", "--quiet", "--log"]).arg(&log).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let lines: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let hit = lines.iter().position(|e| e["event"] == "hit").expect("a hit") - 1;
    for strings_only in [true, false] {
        let bad = tmp.path().join(format!("bad-{strings_only}.jsonl"));
        let text_of: Vec<String> = lines
            .iter()
            .map(|e| if e["event"].is_string() { poisoned(e, strings_only) } else { e.clone() }.to_string())
            .collect();
        std::fs::write(&bad, text_of.join("\n") + "\n").unwrap();
        let page = tmp.path().join(format!("bad-{strings_only}.html"));
        let out = cav().arg("replay").arg(&bad).arg("--html").arg(&page).output().unwrap();
        assert!(page.exists(), "{}", text(&out));
        let html = std::fs::read_to_string(&page).unwrap();
        assert!(
            html.contains("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-")
        );
        assert_eq!(html.matches("<script").count(), 2, "the page's own two script elements only");
        let last = lines.iter().filter(|e| e["event"].is_string()).count() - 1;
        for n in [0, hit / 2, hit, last] {
            let d = dom(&page, n);
            assert!(
                d.contains(&format!("id=\"event-index\">{n}<")),
                "strings only {strings_only}, event {n}: the page ran"
            );
            assert!(!d.contains("data-pwned=\""), "strings only {strings_only}, event {n}: the log's script ran\n{d}");
            assert!(!d.contains("<img") && d.matches("<svg").count() == 1, "event {n}: the log made elements\n{d}");
            assert!(d.contains("&lt;img src=x onerror="), "event {n}: the log's text is shown as text\n{d}");
        }
    }
}

/// A legal 13-model Iron Wolves roster (`tests/tests/pictures.rs` fields it on both sides).
const THIRTEEN: &str = "kind: force\nid: pack-of-thirteen\nname: Pack of Thirteen\nfaction: iron-wolves\ntvp: 3000\n\
squads:\n  - type: attack\n    name: Fang Lance\n    models:\n      - {model: fenrir, count: 2}\n      \
- {model: warg, count: 3}\n      - {model: warg-lancer}\n  - type: infantry\n    name: Howlers\n    models:\n      \
- {model: wolfpack-rifle-squad, count: 7}\n";

/// The text `#event-text` shows in the page Chromium built.
fn event_text(dom: &str) -> &str {
    let at = dom.find("id=\"event-text\">").expect("the event panel") + "id=\"event-text\">".len();
    &dom[at..at + dom[at..].find("</div>").unwrap()]
}

/// A 26-model full-rules replay: the event panel says which special attribute's script did what
/// (not "script effect"), which state ended (not "state ended"), and where a model moved to the
/// tenth of an inch.
#[test]
fn the_viewer_names_the_sa_the_effect_and_the_state_of_a_full_rules_game() {
    let tmp = tempfile::tempdir().unwrap();
    let roster = tmp.path().join("thirteen.yaml");
    std::fs::write(&roster, THIRTEEN).unwrap();
    let (log, page) = (tmp.path().join("game.jsonl"), tmp.path().join("replay.html"));
    let out = cav()
        .args(["play", "no-man-s-land", "--ruleset", "full", "--seed", "1", "--faction", "iron-wolves", "--force"])
        .arg(&roster)
        .arg("--force")
        .arg(&roster)
        .arg("--quiet")
        .arg("--log")
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let events = replay_page(&log, &page);
    let first = |kind: &str| events.iter().position(|e| e["event"] == kind).unwrap_or_else(|| panic!("no {kind}"));
    let effect = first("script_effect");
    let d = dom(&page, effect);
    let (source, what) = (events[effect]["source"].as_str().unwrap(), events[effect]["effect"].as_str().unwrap());
    assert!(event_text(&d).contains(&format!("{}: {}", esc(source), esc(what))), "{}", event_text(&d));
    let ended = first("state_ended");
    let d = dom(&page, ended);
    let state = events[ended]["state"].as_str().unwrap();
    assert!(event_text(&d).contains(&format!("is no longer {}", esc(state))), "{}", event_text(&d));
    let moved = first("moved");
    let d = dom(&page, moved);
    let shown = event_text(&d);
    let at = shown.find("moves to (").expect("a move") + "moves to (".len();
    let xy = &shown[at..at + shown[at..].find(')').unwrap()];
    for c in xy.split(", ") {
        assert!(c.split_once('.').is_some_and(|(_, tenths)| tenths.len() == 1), "to the tenth: {shown}");
    }
}

/// A hex board's game draws its hexes, each terrain piece as a hex, and tells the damage
/// tables' results: `mods/hex-vehicles`' River Crossing.
#[test]
fn a_hex_boards_replay_draws_hexes_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    let page = tmp.path().join("replay.html");
    let out = cav()
        .args(["play", "--ruleset", "hex-vehicles", "--seed", "3", "--quiet", "--log"])
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let events = replay_page(&log, &page);
    assert_eq!((events[0]["hexes"].as_str(), events[0]["hex_size"].as_f64()), (Some("flat"), Some(1.0)));
    let pieces = events.iter().filter(|e| e["event"] == "terrain_placed").count();
    let table = events.iter().position(|e| e["event"] == "table_result").expect("a hit read the damage table");
    let d = dom(&page, table);
    // 19 columns on the 16" × 14" board: the even ones of 15 rows, the odd ones (half a hex
    // further along) of 14.
    assert_eq!(d.matches("class=\"hex\"").count(), 10 * 15 + 9 * 14, "the hexes whose centres lie on the board");
    let drawn: Vec<&str> = d.split("<g class=\"terrain\"").skip(1).collect();
    assert_eq!(drawn.len(), pieces);
    for piece in drawn {
        let inside = piece.split_once('>').map_or("", |(_, rest)| rest);
        assert!(inside.starts_with("<polygon points="), "a terrain piece drawn as a hex: {piece:.120}");
    }
    let e = &events[table];
    let said = format!("{} ({}): {}", e["table"].as_str().unwrap(), e["key"], e["result"].as_str().unwrap());
    assert!(event_text(&d).contains(&esc(&said)), "{}", event_text(&d));
}
