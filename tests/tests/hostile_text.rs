//! Text a pack supplies cannot break the XML the tools write: a control character in a model's
//! name (XML 1.0 does not allow most of them) still gives a card SVG and a JUnit report that
//! parse (checked with xmllint, as a CI system or a browser would read them).

use cav_tests::root;

use cav_tests::xmllint;

#[test]
fn control_characters_in_names_keep_svg_and_junit_well_formed() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("ctl");
    std::fs::create_dir_all(pack.join("models")).unwrap();
    std::fs::create_dir_all(pack.join("tests")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: ctl\nname: Ctl\nversion: 0.1.0\nkind: extension\ndepends: [\"cav-quickstart >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("models/ctl.yaml"),
        "kind: model\nid: ctl-b\nextends: dictator-b\nname: \"Bell\\x07 \\x1b[31mRed\\x01 <b>&\"\n",
    )
    .unwrap();
    // A test that fails, so its name and failure reach the report.
    std::fs::write(
        pack.join("tests/ctl.yaml"),
        "kind: test\nid: ctl-fails\nname: \"Fails\\x02 on purpose <x>\"\nruleset: cav-quickstart\nsource: invented\n\
         models:\n  - {id: red, model: ctl-b, side: red, at: [10, 5]}\n  - {id: blue, model: dictator-b, side: blue, at: [40, 40], facing: 180}\n\
         dice: []\nsteps:\n  - {model: red, do: end}\nexpect:\n  models:\n    red: {damage: 3}\n",
    )
    .unwrap();
    let cav = || {
        let mut c = cav_tests::cav_in(&root());
        c.current_dir(tmp.path());
        c
    };
    let svg = tmp.path().join("card.svg");
    let out = cav().args(["card", "ctl-b", "--svg"]).arg(&svg).arg("--root").arg(root()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    xmllint(&svg);
    assert!(std::fs::read_to_string(&svg).unwrap().contains("Bell\u{FFFD}"), "the name is shown, the bell replaced");

    // `cav show` prints the name, its escape sequence and bell escaped.
    let out = cav().args(["show", "ctl-b", "--root"]).arg(root()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("Bell\\u{7}"), "{text}");
    assert!(!out.stdout.iter().any(|b| *b == 0x1b || *b == 0x07), "{text}");

    let junit = tmp.path().join("junit.xml");
    let out = cav().arg("test").arg(&pack).arg("--junit").arg(&junit).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "the test fails: {}", String::from_utf8_lossy(&out.stdout));
    xmllint(&junit);
}

/// What a diagnostic echoes from a pack is escaped: a value with a newline cannot start a line a
/// CI system reads as a command (`::error …`), an escape sequence cannot retitle the terminal, and
/// a raw control byte in a shown source line is not printed as is.
#[test]
fn diagnostics_escape_what_they_echo_from_a_pack() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("echo");
    std::fs::create_dir_all(pack.join("models")).unwrap();
    std::fs::write(pack.join("pack.yaml"), "id: echo\nname: E\nversion: 0.1.0\nkind: extension\n").unwrap();
    std::fs::write(
        pack.join("models/a.yaml"),
        "kind: model\nid: forged\nextends: \"x\\n::error file=a.yaml::forged \\e]0;pwned\\a\"\nname: N\n",
    )
    .unwrap();
    std::fs::write(pack.join("models/b.yaml"), b"kind: model\nid: raw\nname: \"R\x1b[2J\x07\"\n\x1b]0;title\x07: 1\n")
        .unwrap();
    let out = cav_tests::cav_in(&root()).arg("validate").arg(&pack).env("NO_COLOR", "1").output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("x\\n::error file=a.yaml::forged"), "the value is shown, escaped: {text}");
    assert!(!text.lines().any(|l| l.trim_start().starts_with("::")), "no line a CI system would obey: {text}");
    assert!(!text.contains(['\u{1b}', '\u{7}', '\u{0}']), "no control character reaches the terminal: {text:?}");
}

/// What a game's narrative shows from a pack is escaped too: a script that prints escape
/// sequences and remembers a flag with them in its key and value does not reach the terminal
/// with a control character, in `cav play` or in `cav test`'s narrative of a failing test.
#[test]
fn the_narrative_escapes_what_scripts_print_and_remember() {
    let project = tempfile::tempdir().unwrap();
    cav_watch::copy_tree(&root().join("content"), &project.path().join("content")).unwrap();
    let pack = project.path().join("mods/noisy");
    for dir in ["scripts", "special-attributes", "patches", "tests"] {
        std::fs::create_dir_all(pack.join(dir)).unwrap();
    }
    std::fs::write(
        pack.join("pack.yaml"),
        "id: noisy\nname: N\nversion: 0.1.0\nkind: extension\ngame: cav-so\ndepends: [\"cav-quickstart >= 1.0\"]\nscripts: [scripts]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("special-attributes/noisy.yaml"),
        "kind: special_attribute\nid: noisy\nname: Noisy\napplies_to: model\nparameter: none\nhooks: [activation]\nscript: noisy\nsummary: Prints escape codes.\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("scripts/noisy.luau"),
        "local m = {}\nfunction m.activation(ctx)\n  print('\\27[2J\\27]0;pwned\\7 loud')\n  ctx.set_flag('game', '\\27[31mkey', '\\27[0mvalue')\nend\nreturn m\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("patches/dictator.yaml"),
        "kind: patch\ntarget: {kind: model, id: dictator-b}\nset:\n  special_attributes: [noisy]\nsummary: Makes it noisy.\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("tests/fails.yaml"),
        "kind: test\nid: noisy-fails\nname: Fails on purpose\nruleset: cav-quickstart\n\
         models:\n  - {id: red, model: dictator-b, side: red, at: [10, 5]}\n  - {id: blue, model: dictator-b, side: blue, at: [40, 40], facing: 180}\n\
         dice: []\nsteps:\n  - {model: red, do: end}\nexpect:\n  models:\n    red: {damage: 3}\n",
    )
    .unwrap();
    let out = cav_tests::cav_in(project.path()).args(["play", "--seed", "1"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("\\u{1b}[2J") && text.contains("remembers game: \\u{1b}[31mkey"), "shown escaped: {text}");
    assert!(!text.contains(['\u{1b}', '\u{7}']), "no control character reaches the terminal: {text:?}");
    let out = cav_tests::cav_in(project.path()).args(["test", "--verbose"]).arg(&pack).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the test fails: {text}");
    assert!(text.contains("\\u{1b}[2J"), "its narrative is shown: {text}");
    assert!(!text.contains(['\u{1b}', '\u{7}']), "no control character reaches the terminal: {text:?}");
}
