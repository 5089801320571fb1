//! End-to-end: `cav play --log` pins its log to the content (a header line), and `cav replay`
//! plays the log again: identical on the same content; on edited content it names the documents
//! that changed and the first event that differs; a file that is not a whole log is refused.

use std::path::Path;
use std::process::{Command, Output};

use cav_tests::root;

fn cav(project: &Path) -> Command {
    cav_tests::cav_in(project)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn show(out: &Output) -> String {
    format!("exit {:?}\nstdout:\n{}\nstderr:\n{}", out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// `cav play --seed SEED --log FILE --quiet` (plus `extra`) in `project`.
fn play(project: &Path, seed: &str, log: &Path, extra: &[&str]) {
    let out =
        cav(project).args(["play", "--seed", seed, "--quiet"]).args(extra).arg("--log").arg(log).output().unwrap();
    assert!(out.status.success(), "{}", show(&out));
}

fn replay(project: &Path, log: &Path) -> Output {
    cav(project).arg("replay").arg(log).output().unwrap()
}

fn header(log: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(log).unwrap();
    serde_json::from_str(text.lines().next().unwrap()).unwrap()
}

/// A copy of the bundled content (content/ and mods/) to edit.
fn project_copy(dir: &Path) {
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&root().join(d), &dir.join(d)).unwrap();
    }
}

fn edit(file: &Path, from: &str, to: &str) {
    let t = std::fs::read_to_string(file).unwrap();
    assert!(t.contains(from), "{} holds `{from}`", file.display());
    std::fs::write(file, t.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_log_is_pinned_to_its_content_and_replays_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    play(&root(), "3", &log, &[]);
    let h = header(&log);
    assert_eq!(h["kind"], "header");
    assert_eq!(h["format"], 1);
    assert_eq!(
        (h["ruleset"].as_str(), h["scenario"].as_str(), h["seed"].as_u64()),
        (Some("cav-quickstart"), Some("stand-and-fight"), Some(3))
    );
    assert_eq!(h["content_hash"].as_str().map(str::len), Some(64));
    assert!(h["documents"]["cav-full"]["weapon/medium-mac"].is_string(), "{}", h["documents"]);
    assert!(h["scripts"]["cav-quickstart"]["scripts/smart.luau"].is_string(), "{}", h["scripts"]);
    let body = std::fs::read_to_string(&log).unwrap();
    assert!(!body.contains(&*root().to_string_lossy()) && !body.contains(&*tmp.path().to_string_lossy()), "no paths");
    let events = body.lines().count() - 1;
    assert_eq!(h["events"].as_u64(), Some(events as u64));
    assert!(body.lines().nth(1).unwrap().starts_with(r#"{"event":"game_start""#), "the events follow unchanged");

    let out = replay(&root(), &log);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let said = text(&out.stdout);
    assert!(said.contains("content unchanged"), "{said}");
    assert!(said.contains(&format!("replayed {events} events: identical")), "{said}");

    // A scenario with rosters (one from a file, one built by the bot) replays from the header's
    // rosters, whatever the flags were.
    let wolf = root().join("mods/iron-wolves/forces/wolf-pack.yaml");
    let log = tmp.path().join("rosters.jsonl");
    let args = ["no-man-s-land", "--ruleset", "full", "--faction", "iron-wolves", "--force"];
    play(&root(), "5", &log, &[&args[..], &[wolf.to_str().unwrap()]].concat());
    let h = header(&log);
    assert_eq!(h["forces"][0]["from"], "roster");
    assert_eq!(h["forces"][0]["force"]["id"], "wolf-pack");
    assert_eq!(h["forces"][1]["from"], "bot");
    let out = replay(&root(), &log);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(text(&out.stdout).contains(" events: identical"), "{}", show(&out));
}

#[test]
fn an_edited_weapon_is_named_with_the_first_event_it_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    project_copy(&project);
    let log = tmp.path().join("game.jsonl");
    play(&project, "3", &log, &[]);
    let weapons = project.join("content/cav-quickstart/weapons/quickstart-weapons.yaml");

    // A change that the game never reads: named, and the game still plays the same (exit 0).
    edit(&weapons, "deadly to hard targets", "lethal to hard targets");
    let out = replay(&project, &log);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let said = text(&out.stdout);
    assert!(said.contains("content changed since the log was written"), "{said}");
    assert!(said.contains("document changed: weapon/medium-mac (cav-full)"), "{said}");
    assert!(said.contains("events: identical (the game plays the same despite the changes)"), "{said}");

    // One number of the Medium MAC (its range, 12" → 6"): the replay names the document and the
    // first event that differs, exit 1.
    edit(&weapons, "\n  range: 12\n", "\n  range: 6\n");
    let out = replay(&project, &log);
    assert_eq!(out.status.code(), Some(1), "{}", show(&out));
    let said = text(&out.stdout);
    let changed: Vec<&str> = said.lines().filter(|l| l.contains("document changed:")).collect();
    assert_eq!(changed, ["  document changed: weapon/medium-mac (cav-full)"], "{said}");
    assert!(!said.contains("script "), "no script changed: {said}");
    // The first differing event, found independently: the edited content's own log.
    let again = tmp.path().join("again.jsonl");
    play(&project, "3", &again, &[]);
    let (old, new) = (std::fs::read_to_string(&log).unwrap(), std::fs::read_to_string(&again).unwrap());
    let first = old.lines().zip(new.lines()).skip(1).position(|(a, b)| a != b).expect("the range changes the game");
    assert!(said.contains(&format!("the replay diverges at event #{first} (line {} of the log)", first + 2)), "{said}");
    let was = said.lines().find_map(|l| l.strip_prefix("  was: ")).expect("a was: line");
    let now = said.lines().find_map(|l| l.strip_prefix("  now: ")).expect("a now: line");
    let event = |line: &str| serde_json::from_str::<serde_json::Value>(line).unwrap()["event"].clone();
    let (old_line, new_line) = (old.lines().nth(first + 1).unwrap(), new.lines().nth(first + 1).unwrap());
    assert!(was.starts_with(&format!(r#"{{"event":{}"#, event(old_line))), "{was} vs {old_line}");
    assert!(now.starts_with(&format!(r#"{{"event":{}"#, event(new_line))), "{now} vs {new_line}");
    assert!(!said.contains("identical"), "{said}");
}

#[test]
fn files_that_are_not_whole_logs_exit_2_with_a_message() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    play(&root(), "3", &log, &[]);
    let good = std::fs::read(&log).unwrap();
    let first_nl = good.iter().position(|&b| b == b'\n').unwrap();
    let last_lines: Vec<usize> = good.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i).collect();
    let mut garbage = Vec::new();
    let mut x: u32 = 7;
    for _ in 0..4096 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        garbage.push((x >> 16) as u8);
    }
    let text_of = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
    let other_format = text_of(&good).replacen(r#""format":1,"#, r#""format":2,"#, 1);
    let wrong_type = text_of(&good).replacen(r#""seed":3,"#, r#""seed":"three","#, 1);
    let mut bad_event = good[..=last_lines[9]].to_vec();
    bad_event.extend_from_slice(b"{\"event\": oops}\n");
    bad_event.extend_from_slice(&good[last_lines[10] + 1..]);
    let mut huge = b"{\"kind\":\"header\",\"x\":\"".to_vec();
    huge.resize(huge.len() + 17 * 1024 * 1024, b'a');
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("no header", good[first_nl + 1..].to_vec(), "has no header"),
        ("cut inside a line", good[..good.len() - 20].to_vec(), "truncated"),
        ("cut inside the header", good[..first_nl / 2].to_vec(), "truncated"),
        ("cut at a line's end", good[..=last_lines[last_lines.len() / 2]].to_vec(), "truncated"),
        ("garbage", garbage, "not an event log"),
        ("empty", Vec::new(), "empty"),
        ("another format", other_format.into_bytes(), "format 2"),
        ("a wrong type", wrong_type.into_bytes(), "malformed"),
        ("a broken event", bad_event, "line 11 of the log is not a JSON event"),
        ("a huge line", huge, "longer than"),
    ];
    for (what, bytes, says) in cases {
        let f = tmp.path().join("bad.jsonl");
        std::fs::write(&f, &bytes).unwrap();
        let out = replay(&root(), &f);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{what}: {}", show(&out));
        assert!(err.starts_with("error: ") && err.contains(says), "{what}: expected `{says}`: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
        assert!(out.stdout.is_empty(), "{what}: nothing is replayed: {}", text(&out.stdout));
    }
}

/// The replay viewer holds the whole log in its page: a log over its budget (16 MiB; a
/// full-rules game of 2,000 TV a side writes ~160 KB) is refused before the events pile up in
/// memory (a 250 MB log once took 7.5 GB), and no page is written.
#[test]
fn the_viewer_refuses_a_log_over_its_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    play(&root(), "3", &log, &[]);
    // The same events (the header counts them), 17 of them padded by a megabyte each.
    let text_of = std::fs::read_to_string(&log).unwrap();
    let pad = format!("{{\"pad\":\"{}\",", "a".repeat(1024 * 1024));
    let lines: Vec<String> = text_of
        .lines()
        .enumerate()
        .map(|(i, l)| if (1..=17).contains(&i) { l.replacen('{', &pad, 1) } else { l.to_owned() })
        .collect();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
    let page = tmp.path().join("replay.html");
    let out = cav(&root()).arg("replay").arg(&log).arg("--html").arg(&page).output().unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(err.contains("the replay viewer shows logs of at most 16 MiB"), "{err}");
    assert!(!page.exists(), "no page is written");
}

/// A header whose rosters field 9,900 models (one once hung the replay, fielded without a force
/// check) is refused before anything is played: a game holds at most `MAX_MODELS`.
#[test]
fn a_header_fielding_more_models_than_a_game_holds_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    play(&root(), "2", &log, &["--ruleset", "full", "--tv", "1000"]);
    let text_of = std::fs::read_to_string(&log).unwrap();
    let (first, rest) = text_of.split_once('\n').unwrap();
    let mut h: serde_json::Value = serde_json::from_str(first).unwrap();
    let squad = serde_json::json!({"type": "recon", "models": [{"model": "dart", "count": 99}]});
    h["forces"][0]["force"]["squads"] = serde_json::Value::Array(vec![squad; 100]);
    std::fs::write(&log, format!("{h}\n{rest}")).unwrap();
    let out = replay(&root(), &log);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{}", show(&out));
    assert!(err.contains("the log's header fields 99") && err.contains("more than a replay plays (1000)"), "{err}");
}
