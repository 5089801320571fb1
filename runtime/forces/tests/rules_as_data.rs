//! The force-building rules that read like code are data of the ruleset's `force_building:`: the
//! secondary-squad allowance (one formula per reading of option `secondary-squad-limit`, 001
//! L676-688) and the faction classes (whose models each fields, 001 L644-783). The bundled data
//! gives the book's numbers, a ruleset that leaves a class or a formula out is told where, and a
//! class a mod invents works like the book's.

use std::path::{Path, PathBuf};

use cav_content::{Diagnostic, LoadOptions, Loaded, Ruleset, Severity};
use cav_format::{Document, Force, ForceModel, ForceSquad, Id};

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).canonicalize().unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")).to_path_buf()
}

/// The full rules with the roster fixtures and, when given, a pack written from `files` (name,
/// text) into a temporary directory, which depends on both.
fn load(files: &[(&str, &str)]) -> (Loaded, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = vec![fixtures().join("roster-fixtures")];
    if !files.is_empty() {
        let pack = dir.path().join("probe");
        std::fs::create_dir(&pack).unwrap();
        std::fs::write(
            pack.join("pack.yaml"),
            "id: probe\nname: Probe\nversion: 1.0.0\nkind: extension\ndescription: A test pack.\nlicense: CC0-1.0\n\
             depends: [\"cav-full >= 1.0\", \"roster-fixtures >= 1.0\", \"! cav-quickstart\"]\n",
        )
        .unwrap();
        for (name, text) in files {
            std::fs::write(pack.join(name), text).unwrap();
        }
        paths.push(pack);
    }
    let r = root();
    let loaded = cav_content::load(&LoadOptions { paths, library: vec![r.join("content"), fixtures()] });
    assert_eq!(loaded.error_count(), 0, "{:?}", loaded.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    (loaded, dir)
}

fn full(loaded: &Loaded) -> &Ruleset {
    loaded.ruleset("cav-full").expect("full ruleset")
}

/// A roster of `faction` with `primary` attack squads, `secondary` flights and, in one more
/// attack squad, the models `extra` (none: no such squad).
fn roster(faction: &str, primary: usize, secondary: usize, extra: &[&str]) -> Force {
    let squad = |ty: &str, models: Vec<(&str, u32)>| ForceSquad {
        squad_type: Id(ty.into()),
        name: None,
        models: models
            .into_iter()
            .map(|(m, count)| ForceModel { model: Id(m.into()), count, upgrades: Vec::new() })
            .collect(),
    };
    let mut squads = Vec::new();
    squads.extend((0..primary).map(|_| squad("attack", vec![("m-cav-attack", 4)])));
    squads.extend((0..secondary).map(|_| squad("flight", vec![("m-air-attack", 2)])));
    if !extra.is_empty() {
        let mut models = vec![("m-cav-attack", 3)];
        models.extend(extra.iter().map(|m| (*m, 1)));
        squads.push(squad("attack", models));
    }
    Force {
        id: Id("t".into()),
        name: "T".into(),
        faction: Id(faction.into()),
        doctrine: None,
        tvp: 100_000,
        squads,
        assets: Vec::new(),
        strike_pools: Default::default(),
        summary: None,
        notes: Vec::new(),
    }
}

fn errors(rs: &Ruleset, force: &Force) -> Vec<String> {
    cav_forces::check(rs, force, &|_| None, None)
        .into_iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.message)
        .collect()
}

/// The full rules playing `reading` of option `secondary-squad-limit`.
fn with_reading(rs: &Ruleset, reading: &str) -> Ruleset {
    rs.with_docs(|_, doc| {
        if let Document::Ruleset(r) = doc {
            let o = r.options.iter_mut().find(|o| o.id.as_str() == "secondary-squad-limit").expect("option");
            o.default = Id(reading.into());
        }
    })
}

/// The most secondary squads a roster with `primary` primary ones may field under `rs`.
fn most_secondaries(rs: &Ruleset, primary: usize) -> usize {
    (0..12)
        .take_while(|&n| errors(rs, &roster("fixture-major", primary, n, &[])).iter().all(|m| !m.contains("secondary")))
        .last()
        .unwrap()
}

#[test]
fn both_readings_of_the_secondary_squad_limit_come_from_data_001_l676_l688() {
    let (loaded, _dir) = load(&[]);
    let rs = full(&loaded);
    // The default reading: one secondary squad free, each further one for two more primary ones.
    let half: Vec<usize> = (0..6).map(|p| most_secondaries(rs, p)).collect();
    assert_eq!(half, vec![1, 1, 2, 2, 3, 3]);
    // The other: fewer secondary squads than twice the primary ones, but one even with none.
    let under = with_reading(rs, "under-twice-primary");
    let twice: Vec<usize> = (0..6).map(|p| most_secondaries(&under, p)).collect();
    assert_eq!(twice, vec![1, 1, 3, 5, 7, 9]);
    // The diagnostic shows the chosen formula with the numbers put in.
    assert_eq!(
        errors(&under, &roster("fixture-major", 1, 3, &[])),
        vec![
            "3 secondary squads with 1 primary: at most the larger of 1 and 2 × 1 − 1 = 1 \
             (option secondary-squad-limit: under-twice-primary) (001 L676-688)"
        ]
    );
    // The numbers are the data's: another formula gives other limits.
    let generous = rs.with_docs(|_, doc| {
        if let Document::Ruleset(r) = doc {
            let f = r.force_building.as_mut().unwrap().secondary_squads.get_mut(&Id("one-plus-half-primary".into()));
            let f = f.unwrap();
            f.per_primaries = 1;
            f.plus = 2;
        }
    });
    assert_eq!((0..3).map(|p| most_secondaries(&generous, p)).collect::<Vec<_>>(), vec![2, 3, 4]);
    assert!(cav_forces::check_ruleset(rs).is_empty(), "{:?}", cav_forces::check_ruleset(rs));
}

/// The line of the first line of `file` (under the repository) that contains `text`.
fn line_of(file: &str, text: &str) -> u32 {
    let body = std::fs::read_to_string(root().join(file)).unwrap();
    body.lines().position(|l| l.contains(text)).unwrap() as u32 + 1
}

/// Where a diagnostic is: file name and line.
fn place(loaded: &Loaded, d: &Diagnostic) -> (String, u32) {
    let loc = d.loc.expect("located");
    let path = &loaded.sources.get(loc.file).path;
    (path.file_name().unwrap().to_string_lossy().into_owned(), loc.start.line)
}

#[test]
fn a_reading_with_no_formula_is_named_at_the_section() {
    let drop = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Drops the default reading's formula.\n\
                remove: [/force_building/secondary_squads/one-plus-half-primary]\n";
    let (loaded, _dir) = load(&[("patch.yaml", drop)]);
    let rs = full(&loaded);
    let found = cav_forces::check_ruleset(rs);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].severity, Severity::Error);
    assert_eq!(
        found[0].message,
        "no secondary-squad formula for `one-plus-half-primary` (option secondary-squad-limit, the reading this \
         ruleset plays)"
    );
    assert_eq!(
        place(&loaded, &found[0]),
        ("ruleset.yaml".into(), line_of("content/cav-full/rules/ruleset.yaml", "  secondary_squads:"))
    );
    // A roster with a secondary squad is told too, rather than held to no limit.
    let e = errors(rs, &roster("fixture-major", 1, 1, &[]));
    assert!(e.iter().any(|m| m.contains("no secondary-squad allowance for reading `one-plus-half-primary`")), "{e:#?}");
}

#[test]
fn a_formula_for_no_reading_is_named_with_a_suggestion() {
    let misspelt = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Misspells a reading.\n\
                    set:\n  force_building:\n    secondary_squads:\n      under-twice-primry: {times: 2}\n";
    let (loaded, _dir) = load(&[("patch.yaml", misspelt)]);
    let found = cav_forces::check_ruleset(full(&loaded));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0].message,
        "option secondary-squad-limit has no reading `under-twice-primry`, so its formula never applies"
    );
    assert_eq!(place(&loaded, &found[0]), ("patch.yaml".into(), 7));
    assert_eq!(found[0].hint.as_deref(), Some("did you mean `under-twice-primary`?"));
}

#[test]
fn an_undeclared_faction_class_is_named_at_its_line_with_a_suggestion() {
    let factions = "kind: faction\nid: lost\nname: Lost\nclass: majr\nsummary: A faction with a misspelt class.\n";
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: A class that fields one no class.\n\
                 set:\n  force_building:\n    faction_classes:\n      major:\n        fields_allied: [independant]\n";
    let (loaded, _dir) = load(&[("factions.yaml", factions), ("patch.yaml", patch)]);
    let found = cav_forces::check_ruleset(full(&loaded));
    assert_eq!(found.len(), 2, "{found:#?}");
    let faction = found.iter().find(|d| d.message == "faction class `majr` does not exist").expect("the faction's");
    assert_eq!(place(&loaded, faction), ("factions.yaml".into(), 4));
    assert_eq!(faction.hint.as_deref(), Some("did you mean `major`?"));
    let allied = found.iter().find(|d| d.message == "faction class `independant` does not exist").expect("the class's");
    assert_eq!(place(&loaded, allied), ("patch.yaml".into(), 8));
    assert_eq!(allied.hint.as_deref(), Some("did you mean `independent`?"));
}

#[test]
fn a_class_a_mod_declares_fields_what_its_data_says_001_l644_l783() {
    // Hired guns: their own models, open ones, and those of the major factions that hire them.
    let patch = "kind: patch\ntarget: {kind: ruleset, id: cav-full}\nsummary: Invents a class.\n\
                 set:\n  force_building:\n    faction_classes:\n      mercenary: {fields_allied: [major]}\n";
    let factions = "kind: faction\nid: hired-guns\nname: Hired Guns\nclass: mercenary\nallies: [fixture-major]\n\
                    summary: An invented company that serves the Fixture Major.\n";
    let (loaded, _dir) = load(&[("factions.yaml", factions), ("patch.yaml", patch)]);
    let rs = full(&loaded);
    assert!(cav_forces::check_ruleset(rs).is_empty(), "{:?}", cav_forces::check_ruleset(rs));
    // An allied major's models and open ones: legal.
    assert_eq!(errors(rs, &roster("hired-guns", 0, 0, &["m-open-cav"])), Vec::<String>::new());
    // An independent's (allied to the major, not to the company) and an unallied major's: not.
    let e = errors(rs, &roster("hired-guns", 0, 0, &["m-indie-cav", "m-rival-cav"]));
    assert_eq!(
        e,
        vec![
            "model `m-indie-cav` belongs to Fixture Independent; a Hired Guns force fields its own models, open ones \
             and those of allied major factions",
            "model `m-rival-cav` belongs to Fixture Rival; a Hired Guns force fields its own models, open ones and \
             those of allied major factions",
        ]
    );
    // The bot builds for the class too.
    let f =
        cav_forces::build(rs, &cav_forces::BuildRequest { faction: "hired-guns".into(), tvp: 2000, seed: 3 }).unwrap();
    assert!(errors(rs, &f).is_empty());
}
