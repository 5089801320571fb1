//! The result cache through `cav validate`: cached and uncached runs say the same, byte for byte,
//! on the bundled content and on a hostile corpus; a damaged, foreign or planted entry gives the
//! uncached result and is written again; a cache inside content is refused.

use std::path::{Path, PathBuf};
use std::process::Command;

use cav_tests::{cav_bin, root};

/// Exit code, stdout, stderr.
type Run = (Option<i32>, String, String);

fn run(cache: &Path, project: &Path, args: &[&str]) -> Run {
    let out = Command::new(cav_bin())
        .env("CAV_ROOT", project)
        .env("CAV_CACHE_DIR", cache)
        .env_remove("CAV_NO_CACHE")
        .current_dir(project)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `args` run in the bundled project without the cache.
fn uncached(cache: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--no-cache"];
    all.extend_from_slice(args);
    run(cache, &root(), &all)
}

fn entries(cache: &Path) -> Vec<PathBuf> {
    walk(&cache.join(format!("v{}", cav_cache::FORMAT)))
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out.sort();
    out
}

/// Each command three times: without the cache, with an empty one, with the entry just written.
fn agree(project: &Path, commands: &[&[&str]]) {
    let cache = tempfile::tempdir().unwrap();
    for (i, args) in commands.iter().enumerate() {
        let mut uncached = vec!["--no-cache"];
        uncached.extend_from_slice(args);
        let plain = run(cache.path(), project, &uncached);
        assert_eq!(entries(cache.path()).len(), i, "--no-cache wrote an entry");
        let miss = run(cache.path(), project, args);
        assert_eq!(entries(cache.path()).len(), i + 1, "{args:?}: the run was not cached");
        let hit = run(cache.path(), project, args);
        assert_eq!(miss, plain, "{args:?}: the first cached run differs from the uncached one");
        assert_eq!(hit, plain, "{args:?}: the run answered from the cache differs");
    }
}

#[test]
fn cached_and_uncached_validate_agree_on_the_bundled_content() {
    let project = root();
    agree(
        &project,
        &[
            &["validate"],
            &["validate", "--format", "json"],
            &["validate", "mods/iron-wolves"],
            &["validate", "--deny", "warnings", "mods/iron-wolves"],
            &["validate", "content/cav-quickstart/scenarios/stand-and-fight.yaml"],
        ],
    );
}

/// A copy of the project with a mod of hostile files: broken YAML, words the engine does not
/// know, escape codes and markup in strings, invalid UTF-8, a byte-order mark, deep nesting,
/// huge numbers, the fuzz corpus's scripts.
fn hostile_project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&root().join(d), &tmp.path().join(d)).unwrap();
    }
    let m = tmp.path().join("mods/hostile");
    std::fs::create_dir_all(m.join("scripts")).unwrap();
    std::fs::write(
        m.join("pack.yaml"),
        "id: hostile\nname: Hostile\nversion: 1.0.0\nkind: extension\ndepends: [cav-full]\n",
    )
    .unwrap();
    let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
    let files: &[(&str, &[u8])] = &[
        ("broken.yaml", b"kind: model\nid: [unclosed\n"),
        ("unknown.yaml", b"kind: model\nid: u\nname: U\nfly_to_the_moon: true\n"),
        ("escapes.yaml", b"kind: model\nid: \"\\e[31mred\\e[0m\"\nname: \"<script>alert(1)</script>\"\n"),
        ("latin1.yaml", b"kind: model\nid: caf\xe9\n"),
        ("bom.yaml", b"\xef\xbb\xbfkind: weapon\nid: bom\n"),
        ("deep.yaml", deep.as_bytes()),
        ("numbers.yaml", b"kind: weapon\nid: n\nrange: 1e999\nrav: 99999999999999999999999/2\n"),
        ("empty.yaml", b""),
        ("aliases.yaml", b"a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b, *b]\n"),
    ];
    for (name, text) in files {
        std::fs::write(m.join(name), text).unwrap();
    }
    for f in std::fs::read_dir(root().join("tests/fuzz/seeds/script")).unwrap().flatten() {
        std::fs::copy(f.path(), m.join("scripts").join(f.file_name())).unwrap();
    }
    tmp
}

#[test]
fn cached_and_uncached_validate_agree_on_a_hostile_corpus() {
    let p = hostile_project();
    agree(p.path(), &[&["validate", "mods/hostile"], &["validate", "--format", "json", "mods/hostile"]]);
    let (code, _, stderr) = run(tempfile::tempdir().unwrap().path(), p.path(), &["validate", "mods/hostile"]);
    assert_eq!(code, Some(1), "the corpus is meant to fail: {stderr}");
}

#[test]
fn a_changed_file_is_checked_again() {
    let p = hostile_project();
    std::fs::remove_dir_all(p.path().join("mods/hostile")).unwrap();
    let cache = tempfile::tempdir().unwrap();
    let first = run(cache.path(), p.path(), &["validate", "mods/iron-wolves"]);
    assert_eq!(first.0, Some(0), "{}", first.2);
    let unit = walk(&p.path().join("mods/iron-wolves")).into_iter().find(|f| f.ends_with("pack.yaml")).unwrap();
    let text = std::fs::read_to_string(&unit).unwrap();
    std::fs::write(&unit, text.replace("version:", "version: [")).unwrap();
    let broken = run(cache.path(), p.path(), &["validate", "mods/iron-wolves"]);
    assert_eq!(broken.0, Some(1), "a changed manifest answered from the cache: {broken:?}");
    std::fs::write(&unit, text).unwrap();
    assert_eq!(run(cache.path(), p.path(), &["validate", "mods/iron-wolves"]), first);
}

/// A cache holding the one entry a run wrote: the run's output, the entry and its bytes.
struct Stored {
    cache: tempfile::TempDir,
    good: Run,
    entry: PathBuf,
    bytes: Vec<u8>,
}

fn stored(project: &Path, args: &[&str]) -> Stored {
    let cache = tempfile::tempdir().unwrap();
    let good = run(cache.path(), project, args);
    let [entry] = entries(cache.path()).try_into().unwrap();
    let bytes = std::fs::read(&entry).unwrap();
    Stored { cache, good, entry, bytes }
}

/// `bytes` with each byte at `at` flipped, then cut in half, then with a byte too many.
fn damaged(bytes: &[u8], at: &[usize]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = (at.iter())
        .map(|&i| {
            let mut b = bytes.to_vec();
            b[i] ^= 1;
            b
        })
        .collect();
    out.push(bytes[..bytes.len() / 2].to_vec());
    out.push([bytes, b"x"].concat());
    out
}

#[test]
fn a_damaged_entry_gives_the_uncached_result_and_is_written_again() {
    let (project, args) = (root(), ["validate", "mods/iron-wolves"]);
    let Stored { cache, good, entry, bytes } = stored(&project, &args);
    // A byte of the magic, the build, the key, the length, the hash, the payload.
    for bad in damaged(&bytes, &[0, 20, 50, 80, 100, bytes.len() - 1]) {
        std::fs::write(&entry, &bad).unwrap();
        let (code, stdout, stderr) = run(cache.path(), &project, &args);
        assert_eq!((code, &stdout), (good.0, &good.1));
        assert!(stderr.starts_with(&good.2), "{stderr}");
        assert!(stderr.contains("cav: cache: ignored"), "the damage is not said: {stderr}");
        assert_eq!(std::fs::read(&entry).unwrap(), bytes, "the entry is not written again");
    }
}

/// An entry whose hashes are right is read (the cache directory is the user's own, as trusted as
/// their shell's startup files), but never its control characters: one carrying an escape
/// sequence is refused and the run checked again.
#[test]
fn a_planted_entry_cannot_reach_the_terminal() {
    let (project, args) = (root(), ["validate", "mods/iron-wolves"]);
    let Stored { cache, good, entry, bytes } = stored(&project, &args);
    let plant_output = |stdout: &str| {
        let mut payload = vec![0u8];
        for s in [stdout, ""] {
            payload.extend((s.len() as u64).to_le_bytes());
            payload.extend(s.as_bytes());
        }
        plant(&entry, &bytes, &payload);
    };
    plant_output("planted\n");
    assert_eq!(run(cache.path(), &project, &args).1, "planted\n", "a whole entry is read");
    plant_output("\x1b]0;owned\x07\n");
    let (code, stdout, stderr) = run(cache.path(), &project, &args);
    assert_eq!((code, stdout), (good.0, good.1));
    assert!(!stderr.contains('\x1b') && stderr.contains("not the output of a run"), "{stderr:?}");
    assert_eq!(std::fs::read(&entry).unwrap(), bytes);
}

#[test]
fn a_cache_inside_content_is_not_used() {
    let p = hostile_project();
    let inside = p.path().join("mods/iron-wolves/.cache");
    let (code, _, stderr) = run(&inside, p.path(), &["validate", "mods/iron-wolves"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("where content is read from: not used"), "{stderr}");
    assert!(!inside.exists(), "an entry was written inside a pack");
}

#[test]
fn cache_info_and_clear() {
    let project = root();
    let cache = tempfile::tempdir().unwrap();
    run(cache.path(), &project, &["validate", "mods/iron-wolves"]);
    std::fs::write(cache.path().join("mine.txt"), "not ours").unwrap();
    let (code, info, _) = run(cache.path(), &project, &["cache", "info"]);
    assert_eq!(code, Some(0));
    assert!(info.contains("results: 1 entry,"), "{info}");
    let answers = walk(&cache.path().join(format!("typecheck/v{}", cav_cache::FORMAT))).len();
    assert!(answers > 0 && info.contains(&format!("type checker's answers: {answers} entries,")), "{info}");
    let (code, cleared, _) = run(cache.path(), &project, &["cache", "clear"]);
    assert_eq!(code, Some(0));
    assert!(cleared.starts_with(&format!("removed {} entries", answers + 1)), "{cleared}");
    assert!(entries(cache.path()).is_empty());
    assert!(walk(&cache.path().join("typecheck")).is_empty());
    assert!(cache.path().join("mine.txt").exists(), "clear removed a file that is not an entry");
}

/// A result that depends on the moment (here a type checker that cannot run) is not kept, and a
/// relative cache directory is refused with a word.
#[test]
fn a_result_of_the_moment_is_not_kept() {
    let project = root();
    let cache = tempfile::tempdir().unwrap();
    let out = Command::new(cav_bin())
        .env("CAV_ROOT", &project)
        .env("CAV_CACHE_DIR", cache.path())
        .env("CAV_TYPECHECK", "/bin/false")
        .env_remove("CAV_NO_CACHE")
        .current_dir(&project)
        .args(["validate", "mods/hook-gallery"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("scripts are not type-checked"), "{:?} {said}", out.status);
    assert!(entries(cache.path()).is_empty(), "a run whose type checker did not run was cached");
    let (code, _, stderr) = run(Path::new("relative/cache"), &project, &["validate", "mods/iron-wolves"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("is not an absolute path: results are not cached"), "{stderr}");
    assert!(!project.join("relative").exists());
}

/// Every bundled ruleset's compiled rules come back from the form `cav` keeps them in (JSON) as
/// they were: the same `Debug` form, the fingerprint `cav_lab::same_rules` compares. (`cav`
/// checks this for each entry before it writes it; this test says when a change to the rules'
/// types breaks it for the bundled content, where it would otherwise only go uncached.)
#[test]
fn compiled_rules_come_back_from_their_entry_as_they_were() {
    let root = root();
    let packs = vec![root.join("content"), root.join("mods")];
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: packs.clone(), library: packs });
    let compiled = cav_compile::validate(&mut loaded);
    assert_eq!(loaded.error_count(), 0, "the bundled content loads");
    assert!(compiled.len() >= 5, "every bundled ruleset");
    for rules in compiled {
        let rules = rules.expect("the bundled rulesets compile");
        let bytes = serde_json::to_vec(&rules).unwrap();
        let back: cav_rules::Rules = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(format!("{back:?}"), format!("{rules:?}"), "{}", rules.id);
    }
}

/// `cav play` with and without the cache: stdout, stderr, exit code, the event log and the board
/// byte for byte; the first run keeps the ruleset's rules, the second starts from them.
#[test]
fn cached_and_uncached_play_agree() {
    let project = root();
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let games: [&[&str]; 5] = [
        &["play"],
        &["play", "stand-and-fight", "--seed", "5", "--quiet"],
        &["play", "--ruleset", "hex-vehicles", "--seed", "2"],
        &["play", "--ruleset", "infinity-firefight"],
        &["play", "--ruleset", "sythopian-wars", "--seed", "3"],
    ];
    // One entry per ruleset asked for.
    let mut rulesets = std::collections::BTreeSet::new();
    for args in games {
        let files = |tag: &str| {
            let (log, svg) = (out.path().join(format!("{tag}.jsonl")), out.path().join(format!("{tag}.svg")));
            let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            a.extend(["--log".into(), log.display().to_string(), "--svg".into(), svg.display().to_string()]);
            (a, log, svg)
        };
        let mut runs = Vec::new();
        for tag in ["plain", "miss", "hit"] {
            let (mut a, log, svg) = files(tag);
            if tag == "plain" {
                a.insert(0, "--no-cache".into());
            }
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let r = run(cache.path(), &project, &a);
            assert_eq!(r.0, Some(0), "{args:?}: {}", r.2);
            runs.push((r, std::fs::read(log).unwrap(), std::fs::read(svg).unwrap()));
            if tag == "miss" {
                rulesets.insert(args.iter().position(|a| *a == "--ruleset").map_or("quickstart", |i| args[i + 1]));
                assert_eq!(entries(cache.path()).len(), rulesets.len(), "{args:?}: the rules were not kept");
            }
        }
        assert!(runs[0] == runs[1], "{args:?}: the first cached run differs from the uncached one");
        assert!(runs[0] == runs[2], "{args:?}: the run from kept rules differs");
    }
}

/// The entry of `cav play`'s compiled rules, and what the run printed.
fn kept_rules() -> (tempfile::TempDir, Run, PathBuf, Vec<u8>) {
    let cache = tempfile::tempdir().unwrap();
    let good = run(cache.path(), &root(), &["play", "--quiet"]);
    let [entry] = entries(cache.path()).try_into().unwrap();
    let bytes = std::fs::read(&entry).unwrap();
    (cache, good, entry, bytes)
}

/// `payload` in place of an entry's, with hashes that are right for it.
fn plant(entry: &Path, header: &[u8], payload: &[u8]) {
    let mut e = header[..76].to_vec();
    e.extend((payload.len() as u64).to_le_bytes());
    e.extend(blake3::hash(payload).as_bytes());
    e.extend(payload);
    std::fs::write(entry, e).unwrap();
}

#[test]
fn damaged_kept_rules_give_the_uncached_game_and_are_written_again() {
    let (cache, good, entry, bytes) = kept_rules();
    let project = root();
    for bad in damaged(&bytes, &[0, 50, 100, bytes.len() / 2, bytes.len() - 1]) {
        std::fs::write(&entry, &bad).unwrap();
        let (code, stdout, stderr) = run(cache.path(), &project, &["play", "--quiet"]);
        assert_eq!((code, &stdout), (good.0, &good.1));
        assert!(stderr.contains("cav: cache: ignored"), "the damage is not said: {stderr}");
        assert_eq!(std::fs::read(&entry).unwrap(), bytes, "the entry is not written again");
    }
    // Right hashes, but not rules: ignored, said, the game played from the content.
    plant(&entry, &bytes, b"{\"rules\": 1}");
    let (code, stdout, stderr) = run(cache.path(), &project, &["play", "--quiet"]);
    assert_eq!((code, &stdout), (good.0, &good.1));
    assert!(stderr.contains("not compiled rules"), "{stderr}");
    assert_eq!(std::fs::read(&entry).unwrap(), bytes);
}

/// A planted entry with right hashes is read (the directory is the user's own: docs/security.md),
/// so the game is played from it — but never one that would put a control character on the
/// terminal: that one is refused and the game played from the content.
#[test]
fn planted_rules_are_played_but_cannot_reach_the_terminal() {
    let (cache, good, entry, bytes) = kept_rules();
    let project = root();
    let payload = &bytes[cav_cache_header_len()..];
    let text = std::str::from_utf8(payload).unwrap();
    let card = "\"name\":\"Dictator-B";
    assert!(text.contains(card), "the Dictator-B's card is in the entry");
    plant(&entry, &bytes, text.replace(card, "\"name\":\"Planted-B").as_bytes());
    let (_, stdout, stderr) = run(cache.path(), &project, &["play", "--quiet"]);
    assert!(stdout.contains("black Planted-B"), "a whole entry is read: {stdout}{stderr}");
    for escape in ["\\u001b]0;owned\\u0007", "\u{9b}31m", "\\u009b31m", "\\b"] {
        plant(&entry, &bytes, text.replace(card, &format!("{card}{escape}")).as_bytes());
        let (code, stdout, stderr) = run(cache.path(), &project, &["play", "--quiet"]);
        assert_eq!((code, &stdout), (good.0, &good.1), "{escape}");
        assert!(!stderr.contains('\x1b') && stderr.contains("not compiled rules"), "{escape}: {stderr:?}");
        assert_eq!(std::fs::read(&entry).unwrap(), bytes);
    }
}

/// The length of an entry's header: magic, format, build, key, payload length, payload hash.
fn cav_cache_header_len() -> usize {
    8 + 4 + 32 + 32 + 8 + 32
}

/// `cav odds`, `cav dice --kind` and `cav sim` start from kept rules too, and say the same as
/// without them.
#[test]
fn odds_dice_and_sim_from_kept_rules_agree() {
    let project = root();
    let runs: [&[&str]; 3] = [
        &["sim", "stand-and-fight", "--games", "40", "--seed", "3", "--format", "json"],
        &["odds", "dictator-b", "medium-mac", "dictator-b", "--band", "short", "--format", "json"],
        &["dice", "--kind", "ten-plus-roll", "--ruleset", "full", "--modifier", "-1"],
    ];
    for args in runs {
        let cache = tempfile::tempdir().unwrap();
        let mut uncached = vec!["--no-cache"];
        uncached.extend_from_slice(args);
        let plain = run(cache.path(), &project, &uncached);
        assert_eq!(plain.0, Some(0), "{args:?}: {}", plain.2);
        let miss = run(cache.path(), &project, args);
        assert_eq!(entries(cache.path()).len(), 1, "{args:?}: the rules were not kept");
        let hit = run(cache.path(), &project, args);
        assert_eq!(miss, plain, "{args:?}");
        assert_eq!(hit, plain, "{args:?}: from kept rules");
    }
}

/// The type checker's answers are kept beside the results: after a change that leaves the
/// scripts as they were, a run starts no checker and says what a run without the cache says;
/// a changed script is checked again.
#[test]
fn kept_type_checker_answers_start_no_checker() {
    let p = hostile_project();
    std::fs::remove_dir_all(p.path().join("mods/hostile")).unwrap();
    let (cache, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // A checker that counts its runs, then is the real one.
    let (runs, checker) = (work.path().join("runs"), work.path().join("checker"));
    let real = cav_bin().with_file_name(format!("cav-typecheck{}", std::env::consts::EXE_SUFFIX));
    std::fs::write(
        &checker,
        format!("#!/bin/sh\necho run >> '{}'\nexec '{}' \"$@\"\n", runs.display(), real.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&checker, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let validate = |no_cache: bool| {
        let mut c = Command::new(cav_bin());
        c.env("CAV_ROOT", p.path()).env("CAV_CACHE_DIR", cache.path()).env("CAV_TYPECHECK", &checker);
        c.env_remove("CAV_NO_CACHE").current_dir(p.path());
        if no_cache {
            c.arg("--no-cache");
        }
        let out = c.args(["validate", "mods/iron-wolves"]).output().unwrap();
        let said = (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned());
        (said, std::fs::read_to_string(&runs).unwrap_or_default().lines().count())
    };
    let (first, started) = validate(false);
    assert_eq!(first.0, Some(0), "{first:?}");
    assert!(started > 0, "the first run checks the scripts");
    // A unit's name changed: checked again, but no script was.
    let unit = p.path().join("mods/iron-wolves/models/fenrir.yaml");
    let unit_text = std::fs::read_to_string(&unit).unwrap();
    std::fs::write(&unit, unit_text.replace("name: Fenrir", "name: Fenrir Mk II")).unwrap();
    let (edited, after) = validate(false);
    assert_eq!(after, started, "a run whose scripts did not change started a checker");
    let (uncached, _) = validate(true);
    assert_eq!(edited, uncached, "the kept answers say what the checker says");
    // A script changed: its module is asked again.
    let script = p.path().join("content/cav-full/scripts/chameleon.luau");
    let script_text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(&script, format!("{script_text}\n-- changed\n")).unwrap();
    let before = std::fs::read_to_string(&runs).unwrap().lines().count();
    let (_, now) = validate(false);
    assert!(now > before, "a changed script was not checked again");
    // Answers with right hashes but not answers: ignored, said, asked again.
    for entry in walk(&cache.path().join("typecheck")) {
        let bytes = std::fs::read(&entry).unwrap();
        plant(&entry, &bytes, b"[\"\\u001b]0;owned\\u0007\"]");
    }
    std::fs::write(&unit, unit_text.replace("name: Fenrir", "name: Fenrir Mk III")).unwrap();
    let out = Command::new(cav_bin())
        .env("CAV_ROOT", p.path())
        .env("CAV_CACHE_DIR", cache.path())
        .env("CAV_TYPECHECK", &checker)
        .current_dir(p.path())
        .args(["validate", "mods/iron-wolves"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a type checker's answer") && !stderr.contains('\x1b'), "{stderr}");
    let (uncached, _) = validate(true);
    assert_eq!(uncached.0, Some(0), "{uncached:?}");
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned()), uncached);
}

/// `cav replay` of a log and `cav map` start from kept rules too: the same report and picture.
#[test]
fn replay_and_map_from_kept_rules_agree() {
    let project = root();
    let (cache, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let log = out.path().join("game.jsonl");
    let log_arg = log.display().to_string();
    let wrote = run(cache.path(), &project, &["--no-cache", "play", "--seed", "4", "--quiet", "--log", &log_arg]);
    assert_eq!(wrote.0, Some(0), "{}", wrote.2);
    let mut said = Vec::new();
    for (i, no_cache) in [true, false, false].into_iter().enumerate() {
        let svg = out.path().join(format!("{i}.svg")).display().to_string();
        let flag: &[&str] = if no_cache { &["--no-cache"] } else { &[] };
        let replay = run(cache.path(), &project, &[flag, &["replay", &log_arg]].concat());
        let map =
            run(cache.path(), &project, &[flag, &["map", "stand-and-fight", "--turn", "2", "--svg", &svg]].concat());
        assert_eq!((replay.0, map.0), (Some(0), Some(0)), "{replay:?} {map:?}");
        assert!(replay.1.contains("identical"), "{}", replay.1);
        said.push((replay, std::fs::read(&svg).unwrap()));
    }
    // `replay` asks for the log's ruleset by its pack id, `map` by its short name: two entries.
    assert_eq!(entries(cache.path()).len(), 2);
    assert!(said[0] == said[1] && said[0] == said[2], "runs from kept rules differ");
}

/// `cav list`, `show`, `hooks`, `test`, `coverage` and `force` answer from the cache too, byte
/// for byte, exit code included; on the hostile corpus their refusal is kept and said the same
/// (its errors counted or told on stderr, exit 1).
#[test]
fn cached_and_uncached_answers_agree() {
    agree(
        &root(),
        &[
            &["hooks", "--format", "json"],
            &["list"],
            &["list", "model", "--ruleset", "quickstart", "--format", "json"],
            &["show", "dictator-b", "--explain"],
            &["show", "dictator-b", "--format", "json"],
            &["test", "--format", "json"],
            &["test", "content/cav-quickstart", "--filter", "damage", "--verbose"],
            &["coverage", "--format", "json"],
            &["force", "check", "mods/iron-wolves/forces/wolf-pack.yaml", "--format", "json"],
            &["force", "build", "--faction", "open", "--tv", "2500", "--seed", "7"],
            &["force", "pool", "--table", "cav", "--size", "medium", "--squads", "3"],
            &["force", "pool", "--table", "nope"],
            &["lua"],
        ],
    );
    let p = hostile_project();
    agree(p.path(), &[&["list"], &["hooks"], &["test"], &["coverage"]]);
    for command in ["list", "test"] {
        let (code, _, stderr) = run(tempfile::tempdir().unwrap().path(), p.path(), &[command]);
        assert_eq!(code, Some(1), "the corpus has errors: {stderr}");
    }
}

/// The files `cav card`, `cav docs`, `cav test --junit` and `cav force build --out` write are the
/// same from the cache as without it, and are written again from it (a file removed after the
/// first run comes back).
#[test]
fn files_written_from_the_cache_are_the_uncached_ones() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let at = |name: &str| out.path().join(name).display().to_string();
    let commands: [Vec<String>; 4] = [
        vec![
            "card".into(),
            "dictator-b".into(),
            "--pack".into(),
            "cav-quickstart".into(),
            "--svg".into(),
            at("cards.svg"),
        ],
        vec!["docs".into(), "--out".into(), at("reference")],
        vec!["test".into(), "content/cav-quickstart".into(), "--junit".into(), at("junit.xml")],
        vec![
            "force".into(),
            "build".into(),
            "--faction".into(),
            "open".into(),
            "--tv".into(),
            "1500".into(),
            "--out".into(),
            at("red.yaml"),
        ],
    ];
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = uncached(cache.path(), &args);
        assert_eq!(plain.0, Some(0), "{args:?}: {}", plain.2);
        let written = walk(out.path()).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect::<Vec<_>>();
        assert!(!written.is_empty());
        for round in ["miss", "hit"] {
            std::fs::remove_dir_all(out.path()).unwrap();
            std::fs::create_dir(out.path()).unwrap();
            let cached = run(cache.path(), &root(), &args);
            assert_eq!(cached, plain, "{args:?} ({round}): the output differs");
            let again =
                walk(out.path()).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect::<Vec<_>>();
            assert_eq!(again, written, "{args:?} ({round}): the files differ");
        }
        std::fs::remove_dir_all(out.path()).unwrap();
        std::fs::create_dir(out.path()).unwrap();
    }
    assert_eq!(entries(cache.path()).len(), commands.len(), "one entry per command");
}

/// An empty cache, and a folder holding `mine.yaml`: a copy of the Iron Wolves' roster (its text).
fn own_roster() -> (tempfile::TempDir, tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let wolf = std::fs::read_to_string(root().join("mods/iron-wolves/forces/wolf-pack.yaml")).unwrap();
    std::fs::write(dir.path().join("mine.yaml"), &wolf).unwrap();
    (tempfile::tempdir().unwrap(), dir, wolf)
}

/// `cav force check` keys its verdict by each roster's bytes: a roster edited, emptied or removed
/// after a run is checked again, never answered with the verdict of before.
#[test]
fn a_changed_roster_is_checked_again() {
    let (cache, dir, wolf) = own_roster();
    let roster = dir.path().join("mine.yaml");
    let path = roster.display().to_string();
    let args = ["force", "check", path.as_str()];
    let legal = run(cache.path(), &root(), &args);
    assert_eq!(legal.0, Some(0), "{}", legal.2);
    assert_eq!(run(cache.path(), &root(), &args), legal);
    // Over the pool: the verdict changes with the bytes.
    std::fs::write(&roster, wolf.replace("tvp: 2500", "tvp: 100")).unwrap();
    let over = run(cache.path(), &root(), &args);
    assert_eq!(over.0, Some(1), "{over:?}");
    assert_eq!(over, run(cache.path(), &root(), &["--no-cache", "force", "check", path.as_str()]));
    for change in ["empty", "gone"] {
        match change {
            "empty" => std::fs::write(&roster, "").unwrap(),
            _ => std::fs::remove_file(&roster).unwrap(),
        }
        let now = run(cache.path(), &root(), &args);
        assert_ne!(now, legal, "{change}");
        assert_ne!(now, over, "{change}");
        assert_eq!(now, run(cache.path(), &root(), &["--no-cache", "force", "check", path.as_str()]), "{change}");
    }
}

/// A planted `cav docs` entry cannot make it write outside `--out`: a page named with a folder or
/// `..` is refused before anything is written.
#[test]
fn a_planted_page_name_cannot_leave_the_folder_asked_for() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let reference = out.path().join("reference");
    let dir = reference.display().to_string();
    let args = ["docs", "--out", dir.as_str()];
    let good = run(cache.path(), &root(), &args);
    assert_eq!(good.0, Some(0), "{}", good.2);
    let [entry] = entries(cache.path()).try_into().unwrap();
    let bytes = std::fs::read(&entry).unwrap();
    for name in ["../escaped.md", "/tmp/escaped.md", "sub/page.md", ""] {
        let payload = serde_json::to_vec(&(String::new(), vec![(name, "planted\n")])).unwrap();
        plant(&entry, &bytes, &payload);
        let _ = std::fs::remove_dir_all(&reference);
        let (code, _, stderr) = run(cache.path(), &root(), &args);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains("is not a file name inside"), "{name}: {stderr}");
        assert_eq!(walk(out.path()), Vec::<PathBuf>::new(), "{name}: a file was written");
        assert!(!Path::new("/tmp/escaped.md").exists());
    }
}

/// A game whose scenario leaves forces to the players starts from the kept rules and the
/// rosters chosen then (the bot's for a seed, or `--force` files, or those a log recorded), and
/// says and plays the same, byte for byte, as without the cache: `cav play` (with its log), `cav
/// replay` of that log, `cav map`, `cav sim`.
#[test]
fn roster_games_from_kept_rosters_agree() {
    let cache = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let log = out.path().join("game.jsonl").display().to_string();
    let svg = out.path().join("map.svg").display().to_string();
    let wolf = "mods/iron-wolves/forces/wolf-pack.yaml";
    let commands: [&[&str]; 6] = [
        &["play", "--ruleset", "full", "--seed", "4", "--log", log.as_str()],
        &["replay", log.as_str()],
        &["play", "this-is-war", "--ruleset", "full", "--tv", "1000", "--seed", "5", "--quiet"],
        &["play", "hold-at-all-cost", "--ruleset", "full", "--force", wolf, "--seed", "6", "--quiet"],
        &["map", "this-is-war", "--ruleset", "full", "--seed", "3", "--turn", "2", "--svg", svg.as_str()],
        &[
            "sim",
            "this-is-war",
            "--ruleset",
            "full",
            "--force",
            wolf,
            "--force",
            wolf,
            "--games",
            "4",
            "--format",
            "json",
        ],
    ];
    for args in commands {
        let mut uncached = vec!["--no-cache"];
        uncached.extend_from_slice(args);
        let files = || walk(out.path()).into_iter().map(|p| std::fs::read(&p).unwrap()).collect::<Vec<_>>();
        let runs: Vec<(Run, Vec<Vec<u8>>)> = [&uncached[..], args, args]
            .iter()
            .map(|a| {
                let mut r = run(cache.path(), &root(), a);
                // The sim's speed is of the moment; the rest is the result.
                r.1 = r.1.lines().filter(|l| !l.contains("games_per_second")).collect::<Vec<_>>().join("\n");
                (r, files())
            })
            .collect();
        assert_eq!(runs[0].0.0, Some(0), "{args:?}: {}", runs[0].0.2);
        let told = runs[0].0.2.contains("fields `") || args[0] == "replay";
        assert!(told, "{args:?}: the rosters are told: {}", runs[0].0.2);
        assert!(runs[0] == runs[1], "{args:?}: the first cached run differs");
        assert!(runs[0] == runs[2], "{args:?}: the run from kept rosters differs");
    }
    // Rules (twice: `full` as asked, `cav-full` as the log names it), one entry per game's rosters.
    assert_eq!(entries(cache.path()).len(), 2 + commands.len());
    for seed in ["1", "2"] {
        let again =
            ["play", "this-is-war", "--ruleset", "full", "--force", wolf, "--force", wolf, "--quiet", "--seed", seed];
        assert_eq!(run(cache.path(), &root(), &again).0, Some(0));
    }
    // The sim's entry (the same two files, the same scenario) answers both seeds.
    assert_eq!(entries(cache.path()).len(), 2 + commands.len(), "files alone do not depend on the seed");
}

/// A roster file edited after a game is chosen again: the game is the uncached one, never the
/// rosters of before.
#[test]
fn a_changed_roster_file_is_fielded_again() {
    let (cache, dir, wolf) = own_roster();
    let roster = dir.path().join("mine.yaml");
    let path = roster.display().to_string();
    let args = ["play", "hold-at-all-cost", "--ruleset", "full", "--force", path.as_str(), "--seed", "2"];
    let mut uncached = vec!["--no-cache"];
    uncached.extend_from_slice(&args);
    let first = run(cache.path(), &root(), &args);
    assert_eq!(first.0, Some(0), "{}", first.2);
    assert_eq!(run(cache.path(), &root(), &args), first);
    let renamed = wolf.replace("id: wolf-pack", "id: renamed-pack");
    assert_ne!(renamed, wolf, "the roster's id is in the file");
    for (text, legal) in [(renamed.as_str(), true), ("kind: force\n", false)] {
        std::fs::write(&roster, text).unwrap();
        let now = run(cache.path(), &root(), &args);
        assert_eq!(now, run(cache.path(), &root(), &uncached));
        assert_eq!(now.0 == Some(0), legal, "{now:?}");
        assert_ne!(now, first);
    }
}

/// A roster named on the command line is hashed for the key without ever waiting on it or reading
/// it whole: a FIFO or `/dev/zero` makes the run uncached, and the command's own reading refuses
/// it at once (`cav force check`, `cav play --force`).
#[test]
fn a_fifo_or_a_device_named_as_a_roster_is_refused_not_waited_on() {
    let cache = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("roster.yaml");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let fifo = fifo.display().to_string();
    for roster in [fifo.as_str(), "/dev/zero"] {
        let commands: [&[&str]; 2] =
            [&["force", "check", roster], &["play", "this-is-war", "--ruleset", "full", "--force", roster, "--quiet"]];
        for args in commands {
            let mut cmd = Command::new(cav_bin());
            cmd.env("CAV_ROOT", root()).env("CAV_CACHE_DIR", cache.path()).env_remove("CAV_NO_CACHE");
            let out = cav_tests::output_within(cmd.current_dir(root()).args(args), 30, &format!("{args:?}"));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
        }
    }
}

/// `cav sim --vs`: a paired run starts from A's kept rules (and rosters) and B's kept rules,
/// with the same result and the same notes as a run without the cache, for each kind of change;
/// a `mod:` pack edited after the run is loaded again.
#[test]
fn paired_runs_from_kept_rules_agree() {
    let cache = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("iron-wolves");
    cav_watch::copy_tree(&root().join("mods/iron-wolves"), &copy).unwrap();
    let card = copy.join("models/fenrir.yaml");
    let text = std::fs::read_to_string(&card).unwrap();
    let faster = text.replace("mv:        [7,", "mv:        [9,");
    assert_ne!(faster, text, "the copy's fenrir moves faster");
    std::fs::write(&card, &faster).unwrap();
    let with_mod = format!("mod:{}", copy.display());
    let wolf = "mods/iron-wolves/forces/wolf-pack.yaml";
    let sim = |rest: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["sim", "--games", "4", "--format", "json"].map(String::from).to_vec();
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    };
    let commands = [
        sim(&["stand-and-fight", "--vs", "remove-sa:advanced-targeting-computer"]),
        sim(&["stand-and-fight", "--vs", "swap:dictator-b=warden@black"]),
        sim(&["stand-and-fight", "--vs", "option:ranged-critical=no-critical"]),
        // The bot's rosters, and a note of the change's (no fielded model carries `hard`).
        sim(&["this-is-war", "--ruleset", "full", "--tv", "1000", "--vs", "remove-sa:hard"]),
        sim(&["this-is-war", "--ruleset", "full", "--force", wolf, "--vs", with_mod.as_str()]),
    ];
    for args in &commands {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let plain = uncached(cache.path(), &args);
        assert_eq!(plain.0, Some(0), "{args:?}: {}", plain.2);
        let before = entries(cache.path()).len();
        let miss = run(cache.path(), &root(), &args);
        let kept = entries(cache.path()).len();
        assert!(kept > before, "{args:?}: nothing was kept");
        let hit = run(cache.path(), &root(), &args);
        assert_eq!(entries(cache.path()).len(), kept, "{args:?}: the run from the cache kept more");
        assert_eq!(miss, plain, "{args:?}: the first cached run differs from the uncached one");
        assert_eq!(hit, plain, "{args:?}: the run from kept rules differs");
    }
    let note = run(cache.path(), &root(), &commands[3].iter().map(String::as_str).collect::<Vec<_>>());
    assert!(note.2.contains("note: --vs remove-sa:hard:"), "the change's note is told again: {}", note.2);
    // The mod edited: B is made again from it, as without the cache.
    std::fs::write(&card, text.replace("mv:        [7,", "mv:        [8,")).unwrap();
    let args: Vec<&str> = commands[4].iter().map(String::as_str).collect();
    let now = run(cache.path(), &root(), &args);
    assert_eq!(now, uncached(cache.path(), &args));
    std::fs::write(&card, &faster).unwrap();
    assert_ne!(now.1, run(cache.path(), &root(), &args).1, "an edit of the mod changes B's result");
}

/// `cav sim --vs mod:PATH` with hostile paths: a FIFO, a device, a missing path are refused at
/// once (exit 2, saying what was expected), and a mod holding a FIFO named `.yaml` is reported
/// (exit 1), never waited on; neither keeps an entry for B, and a second run says the same.
#[test]
fn hostile_vs_mod_paths_are_refused_not_waited_on() {
    let cache = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let wolves = tmp.path().join("wolves");
    cav_watch::copy_tree(&root().join("mods/iron-wolves"), &wolves).unwrap();
    assert!(Command::new("mkfifo").arg(wolves.join("models/pipe.yaml")).status().expect("mkfifo").success());
    let cases = [
        (fifo.display().to_string(), 2, "no pack there"),
        ("/dev/zero".to_owned(), 2, "no pack there"),
        (tmp.path().join("missing").display().to_string(), 2, "no such file or directory"),
        (wolves.display().to_string(), 1, "not a regular file"),
    ];
    for (path, code, says) in cases {
        let vs = format!("mod:{path}");
        let args = ["sim", "stand-and-fight", "--games", "2", "--vs", vs.as_str()];
        let go = || {
            let mut cmd = Command::new(cav_bin());
            cmd.env("CAV_ROOT", root()).env("CAV_CACHE_DIR", cache.path()).env_remove("CAV_NO_CACHE");
            let out = cav_tests::output_within(cmd.current_dir(root()).args(args), 60, &format!("{args:?}"));
            (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
        };
        let first = go();
        assert_eq!(first.0, Some(code), "{args:?}: {}", first.1);
        assert!(first.1.contains(says), "{args:?}: {}", first.1);
        let kept = entries(cache.path()).len();
        assert_eq!(go(), first, "{args:?}: the second run says something else");
        assert_eq!(entries(cache.path()).len(), kept, "{args:?}: an entry was kept for a refused change");
    }
}
