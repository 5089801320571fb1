//! A pack is named the same way from any directory: by its path, or by its id from anywhere in
//! the project (or inside the pack); `cav new` inside a pack needs no `--pack`; the commands `cav
//! new pack` prints and writes into the pack's README work as printed; every modeline `cav new`
//! writes leads to a schema, inside a checkout and outside one; `cav validate PACK` counts the
//! pack's own documents. Each runs the built `cav` in temporary directories.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cav_tests::{cav_bin, root};

/// A project checkout in a temporary directory: the bundled rulesets and extensions, one mod,
/// and the `schemas/` folder that marks a project root.
fn project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &tmp.path().join("content")).unwrap();
    cav_watch::copy_tree(&root().join("mods/iron-wolves"), &tmp.path().join("mods/iron-wolves")).unwrap();
    std::fs::create_dir_all(tmp.path().join("schemas")).unwrap();
    tmp
}

/// `cav` run in `dir` with no `CAV_ROOT`: the project is found from `dir` upwards, as a modder's
/// shell would.
fn cav_at(dir: &Path) -> Command {
    let mut c = Command::new(cav_bin());
    c.env_remove("CAV_ROOT").current_dir(dir);
    c
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn ok(c: &mut Command, what: &str) -> String {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{what}: exit {:?}\n{}", out.status.code(), text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Run `cav watch ARGS` until it says what it watches (or exits), then stop it: its first lines.
fn watch_says(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut child = cav_at(dir)
        .arg("watch")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut said = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline {
        match rx.recv_timeout(std::time::Duration::from_millis(200)) {
            Ok(line) => {
                said.push_str(&line);
                said.push('\n');
                if line.starts_with("watching ") {
                    break;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if child.try_wait().unwrap().is_some() {
                    break;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let code = match child.try_wait().unwrap() {
        Some(status) => status.code(),
        None => {
            child.kill().unwrap();
            child.wait().unwrap();
            None
        }
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (code, said + &err)
}

/// `validate`, `test`, `watch` and `new --pack` take a pack's id from the project root, from a
/// folder deep inside another pack, from inside a ruleset pack, and from outside the project with
/// `--root`; an existing path of the same name wins; an unknown name is refused (exit 2) by all
/// four with the ids known and the closest one.
#[test]
fn a_pack_is_found_by_id_from_any_directory_of_the_project() {
    let p = project();
    let outside = tempfile::tempdir().unwrap();
    let proj = p.path().to_str().unwrap().to_owned();
    let places = [
        p.path().to_path_buf(),
        p.path().join("mods/iron-wolves/models"),
        p.path().join("content/cav-full"),
        p.path().join("content/cav-quickstart/models"),
    ];
    for (n, dir) in places.iter().enumerate() {
        let valid = ok(cav_at(dir).args(["validate", "iron-wolves"]), &format!("validate from {}", dir.display()));
        assert!(
            valid.starts_with("ok: ") && valid.contains(" in iron-wolves 1.0.0 (and "),
            "{}: {valid}",
            dir.display()
        );
        let tested = ok(cav_at(dir).args(["test", "iron-wolves"]), &format!("test from {}", dir.display()));
        assert!(tested.contains("test ") && tested.ends_with(" passed, 0 failed\n"), "{}: {tested}", dir.display());
        let id = format!("rifle-{n}");
        ok(cav_at(dir).args(["new", "weapon", &id, "--pack", "iron-wolves"]), "new --pack by id");
        assert!(p.path().join(format!("mods/iron-wolves/weapons/{id}.yaml")).is_file(), "{}", dir.display());
    }
    let (code, said) = watch_says(&places[1], &["iron-wolves"]);
    assert_eq!(code, None, "watch runs on: {said}");
    assert!(said.lines().any(|l| l.starts_with("watching ") && l.contains("mods/iron-wolves")), "{said}");
    // Outside the project, the project is --root's.
    let valid = ok(cav_at(outside.path()).args(["--root", &proj, "validate", "iron-wolves"]), "validate with --root");
    assert!(valid.contains(" in iron-wolves 1.0.0 (and "), "{valid}");

    // A path wins over an id: a folder named `iron-wolves` here holding another pack.
    let shadow = outside.path().join("iron-wolves");
    std::fs::create_dir_all(&shadow).unwrap();
    std::fs::write(shadow.join("pack.yaml"), "id: shadow\nname: Shadow\nversion: 0.3.0\nkind: extension\n").unwrap();
    let valid = ok(cav_at(outside.path()).args(["--root", &proj, "validate", "iron-wolves"]), "the path wins");
    assert!(valid.contains("shadow 0.3.0") && !valid.contains("iron-wolves 1.0.0"), "{valid}");

    // A name that is neither: exit 2 from every command, naming the packs and the closest.
    let dir = &places[1];
    for args in [
        &["validate", "iron-wolfs"][..],
        &["test", "iron-wolfs"],
        &["new", "model", "x", "--pack", "iron-wolfs"],
        &["watch", "iron-wolfs"],
    ] {
        let out = cav_at(dir).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("iron-wolfs: no such file or directory, nor the id of a pack"), "{args:?}: {err}");
        assert!(err.contains("cav-full, cav-invented, cav-quickstart, iron-wolves"), "{args:?}: {err}");
        assert!(err.contains("did you mean `iron-wolves`?"), "{args:?}: {err}");
    }
}

/// In a pack's folder, or any folder below it, `cav new` writes into that pack without
/// `--pack`; outside every pack it says what to do (exit 2).
#[test]
fn cav_new_inside_a_pack_needs_no_pack_option() {
    let p = project();
    let wolves = p.path().join("mods/iron-wolves");
    ok(cav_at(&wolves.join("models")).args(["new", "weapon", "howl-gun"]), "new weapon in models/");
    assert!(wolves.join("weapons/howl-gun.yaml").is_file());
    ok(cav_at(&wolves).args(["new", "test", "howl-test"]), "new test in the pack's folder");
    assert!(wolves.join("tests/howl-test.yaml").is_file());
    ok(cav_at(&wolves.join("tests")).args(["new", "model", "howler"]), "new model in tests/");
    assert!(wolves.join("models/howler.yaml").is_file());
    // The same outside a project checkout, with an installed `cav` pointed at the rules.
    let outside = tempfile::tempdir().unwrap();
    let cav_out = |dir: &Path, args: &[&str]| ok(cav_tests::cav_in(&root()).args(args).current_dir(dir), "outside");
    cav_out(outside.path(), &["new", "pack", "far-mod"]);
    let far = outside.path().join("far-mod");
    cav_out(&far.join("scripts"), &["new", "model", "far-walker"]);
    assert!(far.join("models/far-walker.yaml").is_file());

    let out = cav_at(p.path()).args(["new", "weapon", "lost"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("is not inside a pack (no pack.yaml here or above)"), "{}", text(&out));
}

/// The `cav …` commands between backquotes in `text`, with every `ID` made a fresh id.
fn commands(text: &str, fresh: &mut impl FnMut() -> String) -> Vec<Vec<String>> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| c.starts_with("cav "))
        .map(|c| c.split_whitespace().skip(1).map(|w| if w == "ID" { fresh() } else { w.to_owned() }).collect())
        .collect()
}

/// Every YAML file of `pack` starts with a modeline that leads to a file.
fn modelines_resolve(pack: &Path) {
    let mut seen = 0;
    for e in walk(pack) {
        if e.extension().is_none_or(|x| x != "yaml") || e.starts_with(pack.join(".schemas")) {
            continue;
        }
        let text = std::fs::read_to_string(&e).unwrap();
        let first = text.lines().next().unwrap_or_default();
        let schema = first
            .strip_prefix("# yaml-language-server: $schema=")
            .unwrap_or_else(|| panic!("{}: no modeline: {first}", e.display()));
        assert!(e.parent().unwrap().join(schema).is_file(), "{}: modeline {schema} leads nowhere", e.display());
        seen += 1;
    }
    assert!(seen > 0, "{}: no YAML files", pack.display());
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
        if e.is_dir() {
            out.extend(walk(&e));
        } else {
            out.push(e);
        }
    }
    out
}

/// After `cav new pack`: run every command it printed, from where it was run, and every command of
/// the README it wrote, from the pack's folder and from a folder inside it; all succeed, and
/// every file has a modeline that resolves. Outside a checkout (`cav` pointed at the rules by
/// CAV_ROOT) and inside one (the project found from a folder deep inside it).
#[test]
fn the_commands_cav_new_pack_prints_and_writes_work_as_printed() {
    let mut n = 0;
    let mut fresh = || {
        n += 1;
        format!("thing-{n}")
    };
    let outside = tempfile::tempdir().unwrap();
    let p = project();
    let cases: [(&Path, PathBuf, bool); 2] = [
        (outside.path(), outside.path().join("ember-hounds"), true),
        (&p.path().join("content/cav-full/weapons"), p.path().join("mods/ember-hounds"), false),
    ];
    for (from, pack, with_root) in cases {
        let run = |dir: &Path, args: &[String]| {
            let mut c = cav_at(dir);
            if with_root {
                c.env("CAV_ROOT", root());
            }
            ok(c.args(args), &format!("`cav {}` in {}", args.join(" "), dir.display()))
        };
        let said = run(from, &["new".into(), "pack".into(), "ember-hounds".into()]);
        assert!(pack.join("pack.yaml").is_file(), "{said}");
        let printed = commands(&said, &mut fresh);
        assert!(printed.len() >= 4, "{said}");
        for args in &printed {
            let out = run(from, args);
            assert!(!out.contains("error"), "{args:?}: {out}");
        }
        let readme = std::fs::read_to_string(pack.join("README.md")).unwrap();
        for dir in [pack.clone(), pack.join("scripts")] {
            let written = commands(&readme, &mut fresh);
            assert!(written.iter().any(|c| c[..2] == ["new", "scenario"]), "{readme}");
            for args in &written {
                run(&dir, args);
            }
        }
        modelines_resolve(&pack);
        // The pack's own documents are counted apart from those of the rules it builds on.
        let valid = run(from, &["validate".into(), "ember-hounds".into()]);
        let own = walk(&pack)
            .iter()
            .filter(|f| f.extension().is_some_and(|x| x == "yaml") && !f.starts_with(pack.join(".schemas")))
            .count()
            - 1;
        assert!(
            valid.starts_with(&format!("ok: {own} documents in ember-hounds 0.1.0 (and ")),
            "{own} documents of its own: {valid}"
        );
        assert!(valid.contains(" of the packs it builds on) are valid"), "{valid}");
    }
}

/// Outside a checkout, with an installed `cav` that finds no rules at all, `cav new pack` still
/// fills the pack's `.schemas/` so the modelines of every file it and `cav new` write resolve.
#[test]
fn outside_a_checkout_the_modelines_resolve_without_any_rules() {
    let empty = tempfile::tempdir().unwrap();
    let here = tempfile::tempdir().unwrap();
    let run = |dir: &Path, args: &[&str]| cav_tests::cav_in(empty.path()).args(args).current_dir(dir).output().unwrap();
    // The pack cannot validate without the rules it depends on (exit 1, saying so)…
    let made = run(here.path(), &["new", "pack", "lone"]);
    assert_eq!(made.status.code(), Some(1), "{}", text(&made));
    assert!(text(&made).contains("depends on `cav-full`, which was not found"), "{}", text(&made));
    let pack = here.path().join("lone");
    // …but its files were written, and so were the schemas they point at.
    assert!(pack.join(".schemas/pack.schema.json").is_file());
    for args in
        [&["new", "weapon", "lone-gun"][..], &["new", "model", "lone-walker"], &["new", "sa", "lone-sa", "--script"]]
    {
        run(&pack, args);
    }
    run(&pack, &["new", "model", "lone-variant", "--extends", "lone-walker"]);
    modelines_resolve(&pack);
}

/// A mod whose document refers to a model only `cav-invented` defines is told to depend on
/// `cav-invented`, though that pack (an extension nothing asked for) is not loaded with the mod.
#[test]
fn the_missing_dependency_hint_names_cav_invented() {
    let here = tempfile::tempdir().unwrap();
    let fan = here.path().join("fan");
    std::fs::create_dir_all(fan.join("models")).unwrap();
    std::fs::write(fan.join("pack.yaml"), "id: fan\nname: Fan\nversion: 0.1.0\nkind: extension\ndepends: [cav-full]\n")
        .unwrap();
    std::fs::write(fan.join("models/mine.yaml"), "kind: model\nid: mine\nextends: ballista\nname: Mine\n").unwrap();
    let out = cav_tests::cav_in(&root()).args(["validate", "fan"]).current_dir(here.path()).output().unwrap();
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("`extends: ballista`: no model `ballista`"), "{said}");
    assert!(said.contains("help: pack `cav-invented` defines it ("), "{said}");
    assert!(said.contains("not loaded in this run): make `fan` depend on `cav-invented`"), "{said}");
}

/// A pack folder's name reaches the list of known packs of an unknown-pack error: a control
/// sequence in it is shown escaped, never sent to the terminal.
#[test]
fn a_hostile_folder_name_in_the_known_packs_is_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("mods").join("bad\u{1b}]0;pwn\u{7}x");
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("pack.yaml"), "id: [\n").unwrap();
    let out = cav_tests::cav_in(tmp.path()).args(["validate", "nosuch"]).current_dir(tmp.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains('\u{1b}') && !err.contains('\u{7}'), "{err:?}");
    assert!(err.contains(r"bad\u{1b}]0;pwn\u{7}x"), "{err}");
}
