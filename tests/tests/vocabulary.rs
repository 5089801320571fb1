//! Nothing a pack says is silently ignored: the vocabulary issue's acceptance scenario. Four
//! breakages at once in a copy of the bundled content — a renamed condition id, a deleted
//! procedure number, a misspelt Luau handler, a Luau syntax error — are all reported by
//! `cav validate` (exit 1), each at file:line:column with a hint, and `cav watch` reports the same
//! on save and keeps the last good rules.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

fn cav() -> Command {
    Command::new(cav_tests::cav_bin())
}

fn copy_project() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&root().join(d), &tmp.path().join(d)).unwrap();
    }
    tmp
}

/// One edit: replace the first `from` in `file` by `to`; returns the 1-based line it is on.
fn edit(file: &Path, from: &str, to: &str) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let at = text.find(from).unwrap_or_else(|| panic!("{from:?} not in {}", file.display()));
    std::fs::write(file, text.replacen(from, to, 1)).unwrap();
    text[..at].matches('\n').count() + 1
}

/// Where each breakage is: (file, line).
struct Broken {
    condition: (PathBuf, usize),
    procedure: (PathBuf, usize),
    handler: (PathBuf, usize),
    syntax: (PathBuf, usize),
}

fn break_four(root: &Path) -> Broken {
    let table = root.join("content/cav-quickstart/tables/modifiers.yaml");
    let condition = edit(&table, "condition: light-cover", "condition: light-cvoer");
    let ruleset = root.join("content/cav-quickstart/ruleset.yaml");
    // The key is reported on the first line of the mapping it is missing from.
    let text = std::fs::read_to_string(&ruleset).unwrap();
    let repair = text.lines().position(|l| l.starts_with("  repair:")).unwrap() + 2;
    edit(&ruleset, "    lingering_damage: 1 ", "    # lingering_damage deleted ");
    let strike = root.join("content/cav-quickstart/scripts/strike.luau");
    let handler = edit(&strike, "function strike.attack_declare(", "function strike.attack_declarx(");
    let smart = root.join("content/cav-quickstart/scripts/smart.luau");
    let text = std::fs::read_to_string(&smart).unwrap();
    let lines = text.lines().count();
    std::fs::write(&smart, format!("{text}end end\n")).unwrap();
    Broken {
        condition: (table, condition),
        procedure: (ruleset, repair),
        handler: (strike, handler),
        syntax: (smart, lines + 1),
    }
}

#[test]
fn validate_reports_all_four_with_locations_and_hints() {
    let tmp = copy_project();
    let b = break_four(tmp.path());
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags: Vec<&serde_json::Value> =
        report["diagnostics"].as_array().unwrap().iter().filter(|d| d["severity"] == "error").collect();
    let find = |code: &str, file: &Path| {
        let file = file.strip_prefix(tmp.path()).unwrap().display().to_string();
        *diags
            .iter()
            .find(|d| d["code"] == code && d["file"].as_str().unwrap().ends_with(&file))
            .unwrap_or_else(|| panic!("no {code} in {file}: {diags:#?}"))
    };
    let at = |d: &serde_json::Value, (file, line): &(PathBuf, usize), hint: &str| {
        assert_eq!(d["line"], *line as u64, "{d:#}");
        assert!(d["column"].as_u64().unwrap() >= 1, "{d:#}");
        assert!(d["hint"].as_str().unwrap_or_default().contains(hint), "hint {hint:?} in {d:#}");
        assert!(d["pack"].is_string(), "{d:#}");
        let _ = file;
    };
    at(find("schema", &b.condition.0), &b.condition, "did you mean `light-cover`?");
    at(find("missing-field", &b.procedure.0), &b.procedure, "add `lingering_damage:`");
    at(find("script-handler", &b.handler.0), &b.handler, "did you mean `attack_declare`?");
    at(find("script-syntax", &b.syntax.0), &b.syntax, "");
    // The misspelt handler also leaves the declared `attack_declare` hook without a handler.
    assert!(diags.iter().any(|d| d["code"] == "script-hooks"), "{diags:#?}");
    assert_eq!(report["errors"], 5, "the four breakages (the handler counts twice) and nothing else: {diags:#?}");
}

#[test]
fn warnings_say_what_does_not_happen_and_deny_turns_them_into_failures() {
    let out = cav().env("CAV_ROOT", root()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let warnings = report["diagnostics"].as_array().unwrap();
    assert!(!warnings.is_empty());
    for w in warnings {
        assert_eq!(w["severity"], "warning");
        let m = w["message"].as_str().unwrap();
        assert!(
            m.contains("recognised but not implemented")
                || m.contains("does not read")
                || m.contains("not tested")
                || m.contains("is not played yet")
                || m.contains("is played in part"),
            "a warning must say plainly what the engine does not do: {m}"
        );
        assert!(w["line"].is_u64(), "every warning is located: {w:#}");
    }
    let denied = cav().env("CAV_ROOT", root()).args(["validate", "--deny", "warnings"]).output().unwrap();
    assert_eq!(denied.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&denied.stdout).contains("warnings denied"));
}

#[test]
fn an_unknown_family_member_an_unknown_test_action_and_an_unplayed_word() {
    let tmp = copy_project();
    let table = tmp.path().join("content/cav-quickstart/tables/modifiers.yaml");
    let line = edit(&table, "condition: defender-knockdown", "condition: defender-knockdwn");
    let sa = tmp.path().join("content/cav-quickstart/special-attributes/quickstart-sas.yaml");
    edit(&sa, "when: [band-long, primary-roll]", "when: [band-long, primary-roll, crit-weapon-systems-damaged]");
    let tests = tmp.path().join("content/cav-quickstart/tests/combat.yaml");
    let step = edit(&tests, "do: fire,", "do: fier,");
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    let unknown = diags.iter().find(|d| d["code"] == "unknown-condition").expect("unknown-condition");
    assert_eq!(unknown["line"], line as u64);
    assert_eq!(unknown["hint"], "did you mean `defender-knockdown`?");
    assert!(unknown["message"].as_str().unwrap().contains("model state `knockdwn` does not exist"));
    let action = diags.iter().find(|d| d["code"] == "unknown-action").expect("unknown-action");
    assert_eq!((action["line"].as_u64(), action["hint"].as_str()), (Some(step as u64), Some("did you mean `fire`?")));
    assert!(
        diags.iter().any(|d| d["severity"] == "warning"
            && d["message"]
                .as_str()
                .unwrap()
                .starts_with("condition `crit-weapon-systems-damaged` is recognised but not implemented")
            && d["file"].as_str().unwrap().ends_with("quickstart-sas.yaml")),
        "{diags:#?}"
    );
}

/// A weapon's special attribute given under conditions (`when:`): each is a vocabulary word,
/// and one that tests the attacker's special attributes (which would test itself, without end)
/// is refused where it is written.
#[test]
fn a_special_attributes_when_is_checked_and_cannot_test_itself() {
    let tmp = copy_project();
    let rac = tmp.path().join("content/cav-full/weapons/light-rotary-autocannon.yaml");
    let line = edit(&rac, "when: [defender-in-flight]", "when: [sa-improved-range]");
    let heavy = tmp.path().join("content/cav-full/weapons/heavy-rotary-autocannon.yaml");
    let typo = edit(&heavy, "when: [defender-in-flight]", "when: [defender-in-flite]");
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let diags = report["diagnostics"].as_array().unwrap();
    let at = |file: &str, line: usize| {
        diags
            .iter()
            .find(|d| d["code"] == "unknown-condition" && d["file"].as_str().unwrap().ends_with(file))
            .filter(|d| d["line"] == line as u64)
            .unwrap_or_else(|| panic!("no unknown-condition at {file}:{line}: {diags:#?}"))
    };
    let itself = at("light-rotary-autocannon.yaml", line);
    assert!(itself["message"].as_str().unwrap().contains("would test itself"), "{itself:#}");
    at("heavy-rotary-autocannon.yaml", typo);

    // On a model's own special attribute (not a weapon's) `when:` would be ignored: a warning.
    let tmp = copy_project();
    let fixture = tmp.path().join("content/cav-full/tests/fixtures-sa-scripts.yaml");
    let line = edit(
        &fixture,
        "special_attributes: [hard, rugged]",
        "special_attributes: [hard, {sa: rugged, when: [always]}]",
    );
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let w = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| {
            d["severity"] == "warning" && d["message"].as_str().unwrap().starts_with("`when:` is not tested here")
        })
        .unwrap_or_else(|| panic!("no warning for a model's `when:`: {report:#}"));
    assert_eq!(w["line"], line as u64);
}

#[test]
fn watch_reports_the_same_on_save_and_keeps_the_last_good_rules() {
    let tmp = copy_project();
    let opts = cav_watch::WatchOptions::for_root(tmp.path(), "quickstart", cav_watch::After::Nothing);
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::spawn(move || cav_watch::watch(&opts, &mut cav_watch::LineSink::new(tx), flag).unwrap());
    let deadline = Instant::now() + Duration::from_secs(30);
    while !rx.recv_timeout(Duration::from_millis(100)).is_ok_and(|(_, l)| l.starts_with("watching")) {
        assert!(Instant::now() < deadline, "the watcher did not start");
    }
    break_four(tmp.path());
    // The four saves may land in one reload or several; the last one reports all four.
    let codes = ["error[schema]", "error[missing-field]", "error[script-handler]", "error[script-syntax]"];
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut report = Vec::new();
    while Instant::now() < deadline {
        let Ok((_, line)) = rx.recv_timeout(Duration::from_millis(100)) else { continue };
        if line.starts_with("reloaded") {
            panic!("a broken save was swapped in: {line}");
        }
        if line.starts_with("kept last good") {
            assert!(line.starts_with("kept last good rules live ("), "{line}");
            if codes.iter().all(|c| report.iter().any(|l: &String| l.contains(c))) {
                break;
            }
            report.clear();
            continue;
        }
        report.push(line);
    }
    stop.store(true, Ordering::Relaxed);
    thread.join().unwrap();
    let text = report.join("\n");
    for code in codes {
        assert!(text.contains(code), "{code} missing from the watch output:\n{text}");
    }
    assert!(text.contains("did you mean `light-cover`?"), "{text}");
}

/// Special attributes that grant each other (a hostile or careless pack) end: each is followed
/// once, so validation, coverage and play finish and the model has both.
#[test]
fn special_attributes_granting_each_other_end() {
    let tmp = copy_project();
    let sas = tmp.path().join("content/cav-full/special-attributes");
    edit(&sas.join("rugged.yaml"), "hooks: [repair]\n", "grants: [reduced-turn]\nhooks: [repair]\n");
    edit(&sas.join("reduced-turn.yaml"), "hooks: [movement]\n", "grants: [rugged]\nhooks: [movement]\n");
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let out = cav().env("CAV_ROOT", tmp.path()).args(["test", "--filter", "rugged"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let out = cav().env("CAV_ROOT", tmp.path()).args(["coverage", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code().map(|c| c <= 1), Some(true), "{}", String::from_utf8_lossy(&out.stderr));
}

/// What a card carries must fit it (the modder's-second-hour issue): a CAV-only special attribute
/// and a CAV/vehicle/aircraft weapon on infantry, a weapon's special attribute among a model's, a
/// model's special attribute on a weapon mount and in a weapon's own list, and a faction that does
/// not exist are each an error at its line, where before they validated and played.
#[test]
fn a_card_carries_only_what_fits_it() {
    let tmp = copy_project();
    let pack = tmp.path().join("mods/misfits");
    std::fs::create_dir_all(pack.join("models")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: misfits\nname: Misfits\nversion: 0.1.0\nkind: extension\ndescription: d\nlicense: CC0-1.0\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    let model = "kind: model\nid: misfit-rifles\nname: Misfit Rifles\nfaction: Iron Wolfs\nmodel_type: infantry\n\
                 chassis: light\ntask: attack\nmove_class: foot\ntv: 70\ndamage_track:\n  damage_tracks: 1\n  mv: [5, 5]\n  av: [2, 2]\n\
                 weapons:\n  - weapon: medium-mac\n    special_attributes: [hard]\n\
                 special_attributes:\n  - soft\n  - {sa: reinforced, rating: 1}\n  - {sa: blaster, rating: 1}\nsummary: s\n";
    std::fs::write(pack.join("models/misfit-rifles.yaml"), model).unwrap();
    let weapon = "kind: weapon\nid: misfit-gun\nname: Misfit Gun\nclass: Coil Gun\nfire: direct\nrange: 12\nrav: \"4/2\"\n\
                  special_attributes: [hard]\nhard_points: 2\ntv: 80\nsummary: s\n";
    std::fs::create_dir_all(pack.join("weapons")).unwrap();
    std::fs::write(pack.join("weapons/misfit-gun.yaml"), weapon).unwrap();
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours: Vec<(String, String, u64, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["file"].as_str().unwrap_or("").contains("misfits") && d["severity"] == "error")
        .map(|d| {
            let file = d["file"].as_str().unwrap().rsplit('/').next().unwrap().to_owned();
            (
                d["code"].as_str().unwrap().to_owned(),
                file,
                d["line"].as_u64().unwrap(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let has = |code: &str, file: &str, line: u64, words: &str| {
        assert!(
            ours.iter().any(|(c, f, l, m)| c == code && f == file && *l == line && m.contains(words)),
            "no {code} at {file}:{line} saying {words:?} in {ours:#?}"
        );
    };
    has("dangling-ref", "misfit-rifles.yaml", 4, "faction `Iron Wolfs` does not exist");
    has(
        "restriction",
        "misfit-rifles.yaml",
        15,
        "weapon `medium-mac` is restricted to cav, quad_cav, vehicle, aircraft models",
    );
    has("applies-to", "misfit-rifles.yaml", 16, "`hard` is a special attribute of models");
    has("restriction", "misfit-rifles.yaml", 16, "special attribute `hard` is restricted to");
    has(
        "restriction",
        "misfit-rifles.yaml",
        19,
        "special attribute `reinforced` is restricted to aircraft, cav, quad_cav, vehicle models",
    );
    has("applies-to", "misfit-rifles.yaml", 20, "`blaster` is a special attribute of weapons");
    has("applies-to", "misfit-gun.yaml", 8, "`hard` is a special attribute of models");
    // Soft fits infantry (000 L188): no error on line 18.
    assert!(!ours.iter().any(|(_, f, l, _)| f == "misfit-rifles.yaml" && *l == 18), "{ours:#?}");
    let faction = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["message"].as_str().unwrap_or("").contains("Iron Wolfs"))
        .unwrap();
    assert_eq!(faction["hint"], "did you mean `Iron Wolves`?", "{faction:#}");
}

/// `cav validate` type-checks every script with Luau's own checker (the `cav-typecheck` program
/// beside `cav`) against the hook definitions made for each ruleset: an unknown `ctx` field, a
/// state id the ruleset does not have and a YAML modifier name where a script names a quantity
/// are errors at their line and column, with a did-you-mean or the script's word.
#[test]
fn scripts_are_type_checked_before_play() {
    let tmp = copy_project();
    let script = tmp.path().join("content/cav-full/scripts/test_burn_and_hack.luau");
    let state = edit(&script, "ctx.apply_state(target, \"hacked\")", "ctx.apply_state(target, \"hackd\")");
    // `on_hit` accepts no modifier; `combat_tp` modifies only the roll.
    let effect = edit(&script, "ctx.apply_state(target, \"burning\")", "ctx.add_modifier(\"roll\", \"x\", 1)");
    let chameleon = tmp.path().join("content/cav-full/scripts/chameleon.luau");
    let quantity =
        edit(&chameleon, "ctx.add_modifier(\"roll\", \"beyond 36", "ctx.add_modifier(\"combat_roll\", \"beyond 36");
    let field = edit(&script, "local target = ctx.target", "local target = ctx.tagret");
    let out = cav().env("CAV_ROOT", tmp.path()).args(["validate", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let typed: Vec<&serde_json::Value> =
        report["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "script-type").collect();
    let at_in = |file: &str, line: usize| {
        *typed
            .iter()
            .find(|d| d["line"] == line as u64 && d["file"].as_str().unwrap().ends_with(file))
            .unwrap_or_else(|| panic!("no script-type error at {file}:{line}: {typed:#?}"))
    };
    let at = |line: usize| at_in("test_burn_and_hack.luau", line);
    assert!(at(state)["message"].as_str().unwrap().ends_with("`hackd` is not a model state id"), "{:#}", at(state));
    assert_eq!(at(state)["hint"], "did you mean `hacked`?");
    assert_eq!(at(state)["column"], 27, "the column of the string");
    assert!(
        at(effect)["message"].as_str().unwrap().ends_with("`ctx.add_modifier` is not accepted at hook point `on_hit`")
    );
    assert!(at(effect)["hint"].as_str().unwrap().starts_with("`on_hit` accepts ctx.deal_damage"), "{:#}", at(effect));
    let quantity = at_in("chameleon.luau", quantity);
    assert!(quantity["message"].as_str().unwrap().ends_with("`combat_roll` is not a quantity this hook point changes"));
    assert!(quantity["hint"].as_str().unwrap().starts_with("scripts name the quantity the moment changes: `roll`"));
    assert!(at(field)["message"].as_str().unwrap().contains("Key 'tagret' not found"), "{:#}", at(field));
    assert_eq!(at(field)["hint"], "did you mean `target`?");
    assert!(typed.iter().all(|d| d["severity"] == "error"));
}

/// Without the checker program, `cav validate` says the scripts are not type-checked (a warning,
/// so `--deny warnings` fails) rather than passing them silently.
#[test]
fn without_the_type_checker_validate_says_so() {
    let out = cav()
        .env("CAV_ROOT", root())
        .env("CAV_TYPECHECK", "/nonexistent/cav-typecheck")
        .args(["validate", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let said = report["diagnostics"].as_array().unwrap().iter().find(|d| d["code"] == "script-type");
    let said = said.expect("a script-type warning");
    assert_eq!(said["severity"], "warning");
    assert!(said["message"].as_str().unwrap().starts_with("scripts are not type-checked: cannot run"), "{said:#}");
}
