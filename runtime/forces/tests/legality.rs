//! Each force-building rule of 001 with a roster that breaks it: the check names the rule, at the
//! roster's line, and a roster that keeps every rule passes. The rosters use the invented models
//! of `tests/fixtures/roster-fixtures` on top of the bundled full rules.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use cav_content::{Diagnostic, LoadOptions, Loaded, Severity};
use cav_format::{DocKind, Document};

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).canonicalize().unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/roster-fixtures")).to_path_buf()
}

fn loaded() -> Loaded {
    let r = root();
    let loaded = cav_content::load(&LoadOptions {
        paths: vec![fixtures(), r.join("mods/iron-wolves")],
        library: vec![r.join("content"), r.join("mods"), fixtures().parent().unwrap().to_path_buf()],
    });
    assert_eq!(loaded.error_count(), 0, "{:?}", loaded.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    loaded
}

/// The check's diagnostics for a roster, rendered "line:col message".
fn check(yaml: &str) -> Vec<(usize, String, Severity)> {
    // One load for every test (rosters only add their file to its sources).
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(|| Mutex::new(loaded())).lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("roster.yaml");
    std::fs::write(&file, yaml).unwrap();
    let (docs, errs) = cav_content::read_loose(&mut loaded, &file, DocKind::Force);
    assert!(errs.is_empty(), "{:?}", errs.iter().map(|d| &d.message).collect::<Vec<_>>());
    let rs = loaded.ruleset("cav-full").expect("full ruleset");
    let Document::Force(force) = &docs[0].doc else { panic!() };
    let found: Vec<Diagnostic> = cav_forces::check(rs, force, &|p| docs[0].prov.locate(p), None);
    found
        .iter()
        .map(|d| {
            let line = d.loc.map(|l| l.start.line as usize).unwrap_or(0);
            (line, d.message.clone(), d.severity)
        })
        .collect()
}

fn errors(yaml: &str) -> Vec<(usize, String)> {
    check(yaml).into_iter().filter(|(_, _, s)| *s == Severity::Error).map(|(l, m, _)| (l, m)).collect()
}

/// Exactly one error, on `line`, whose message contains `text`.
fn one_error(yaml: &str, line: usize, text: &str) {
    let e = errors(yaml);
    assert_eq!(e.len(), 1, "expected one error, got {e:#?}");
    assert_eq!(e[0].0, line, "{e:#?}");
    assert!(e[0].1.contains(text), "`{}` does not say `{text}`", e[0].1);
}

const HEAD: &str = "kind: force\nid: t\nname: T\nfaction: fixture-major\ntvp: 2500\n";

fn attack_squad() -> &'static str {
    "  - type: attack\n    models:\n      - {model: m-cav-attack, count: 4}\n"
}

#[test]
fn a_legal_roster_passes_and_the_bundled_example_too() {
    let yaml = format!(
        "{HEAD}squads:\n{}  - type: flight\n    models:\n      - {{model: m-air-attack, count: 2}}\n  - type: infantry\n    models:\n      - {{model: m-inf-light, count: 10}}\n",
        attack_squad()
    );
    assert_eq!(check(&yaml), vec![]);
    let wolf = std::fs::read_to_string(root().join("mods/iron-wolves/forces/wolf-pack.yaml")).unwrap();
    assert_eq!(check(&wolf), vec![]);
}

#[test]
fn the_pool_bounds_models_and_specializations_001_l598_l1211() {
    // 26 × 100 = 2,600 TV of models in a 2,500 pool.
    let yaml = format!(
        "{HEAD}squads:\n{}",
        "  - type: attack\n    models:\n      - {model: m-cav-attack, count: 6}\n".repeat(5)
    );
    let e = errors(&yaml);
    assert!(
        e.iter().any(|(l, m)| *l == 5 && m.contains("models cost 3000 = 3000 TV, over the pool of 2500")),
        "{e:#?}"
    );
    // 2,400 of models; a 300 strike pool is 250 of bonus + 50 reserved: 2,450 fits.
    let fits = format!(
        "{HEAD}strike_pools: {{artillery: 300}}\nsquads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 5}}\n      - {{model: m-fist}}\n{}{}",
        "  - type: attack\n    models:\n      - {model: m-cav-attack, count: 6}\n".repeat(2),
        "  - type: specialist\n    models:\n      - {model: m-cav-attack, count: 2}\n      - {model: m-fist}\n"
    );
    assert_eq!(errors(&fits), vec![]);
    // 2,470 of models fit the pool alone, but not with the 50 the strike pool takes from it.
    let tight = format!(
        "{HEAD}strike_pools: {{artillery: 300}}\nsquads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 5}}\n      - {{model: m-fist}}\n{}{}",
        "  - type: attack\n    models:\n      - {model: m-cav-attack, count: 6}\n".repeat(3),
        "  - type: specialist\n    models:\n      - {model: m-small-cav, count: 2}\n"
    );
    one_error(
        &tight,
        5,
        "models cost 2470 + 50 reserved for specializations = 2520 TV, over the pool of 2500 (001 L598-628)",
    );
    // Specializations past bonus (250) + reserve (250).
    let over = format!(
        "{HEAD}strike_pools: {{artillery: 501}}\nsquads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: m-fist}}\n"
    );
    one_error(&over, 5, "bonus of 250 and at most 250 reserved from the pool allow 500 (001 L1189-1211)");
}

#[test]
fn squad_sizes_count_bulky_models_twice_001_l1056_l1061() {
    let six_powered =
        format!("{HEAD}squads:\n  - type: infantry\n    models:\n      - {{model: m-inf-powered, count: 6}}\n");
    one_error(
        &six_powered,
        9,
        "has 6 to 10 models; this one counts 12 (heavy models such as Bulky ones count as more than one)",
    );
    let five_powered =
        format!("{HEAD}squads:\n  - type: infantry\n    models:\n      - {{model: m-inf-powered, count: 5}}\n");
    assert_eq!(errors(&five_powered), vec![]);
    let three_cavs =
        format!("{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n");
    one_error(&three_cavs, 9, "the Attack Squad has 4 to 6 models; this one counts 3");
}

#[test]
fn model_types_and_tasks_follow_the_squad_type_001_l817_l1016() {
    let infantry_in_attack = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 4}}\n      - {{model: m-inf-light}}\n"
    );
    one_error(&infantry_in_attack, 10, "`m-inf-light` is of type infantry");
    let one_swap = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 4}}\n      - {{model: m-cav-fs}}\n"
    );
    assert_eq!(errors(&one_swap), vec![]);
    let two_swaps = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: m-cav-fs}}\n      - {{model: m-cav-recon}}\n"
    );
    one_error(
        &two_swaps,
        9,
        "may take 1 model(s) with the fire support or recon task in place of its own; this one has 2",
    );
    let transport_in_attack = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 4}}\n      - {{model: m-veh-transport}}\n"
    );
    one_error(&transport_in_attack, 10, "takes models with the attack task; `m-veh-transport` has the transport task");
}

#[test]
fn flights_share_a_task_transports_a_type_infantry_a_variety_001_l952_l1066() {
    let mixed_flight = format!(
        "{HEAD}squads:\n{}  - type: flight\n    models:\n      - {{model: m-air-attack}}\n      - {{model: m-air-recon}}\n",
        attack_squad()
    );
    one_error(&mixed_flight, 13, "every model of the Flight Squad has the same task");
    let mixed_transport = format!(
        "{HEAD}squads:\n{}  - type: transport\n    models:\n      - {{model: m-veh-transport, count: 3}}\n      - {{model: m-vtol-transport}}\n",
        attack_squad()
    );
    one_error(&mixed_transport, 13, "every model of the Transport Squad has the same model type");
    let light_and_heavy = format!(
        "{HEAD}squads:\n  - type: infantry\n    models:\n      - {{model: m-inf-light, count: 5}}\n      - {{model: m-inf-heavy, count: 3}}\n"
    );
    one_error(&light_and_heavy, 10, "is of one variety only");
}

#[test]
fn mechanized_squads_bring_only_the_transports_they_need_001_l1115_l1139() {
    // The book's example: Transport 3 carries three light infantry, so 8 need 3 transports …
    let three = format!(
        "{HEAD}squads:\n  - type: mechanized-infantry\n    models:\n      - {{model: m-inf-light, count: 8}}\n      - {{model: m-veh-transport, count: 3}}\n"
    );
    assert_eq!(errors(&three), vec![]);
    let four = three.replace("count: 3}", "count: 4}");
    one_error(&four, 9, "brings only the transports its 8 model(s) need; 4 transports carry 12");
    // … but only one powered (Bulky) model: 4 powered need 4.
    let powered = format!(
        "{HEAD}squads:\n  - type: mechanized-infantry\n    models:\n      - {{model: m-inf-powered, count: 4}}\n      - {{model: m-veh-transport, count: 4}}\n"
    );
    assert_eq!(errors(&powered), vec![]);
    let mixed = format!(
        "{HEAD}squads:\n  - type: mechanized-infantry\n    models:\n      - {{model: m-inf-light, count: 8}}\n      - {{model: m-veh-transport, count: 2}}\n      - {{model: m-vtol-transport}}\n"
    );
    one_error(&mixed, 11, "every transport of the Mechanized Infantry Squad has the same model type");
}

#[test]
fn secondary_squads_need_primary_ones_001_l676_l688() {
    let flight = "  - type: flight\n    models:\n      - {model: m-air-attack, count: 2}\n";
    // One secondary squad with no primary: allowed.
    assert_eq!(errors(&format!("{HEAD}squads:\n{flight}")), vec![]);
    // A second needs two primary squads.
    let one_primary = format!("{HEAD}squads:\n{}{flight}{flight}", attack_squad());
    one_error(
        &one_primary,
        13,
        "2 secondary squads with 1 primary: at most 1 + 1 ÷ 2 rounded down = 1 (option secondary-squad-limit: one-plus-half-primary) (001 L676-688)",
    );
    let two_primary = format!("{HEAD}squads:\n{}{}{flight}{flight}", attack_squad(), attack_squad());
    assert_eq!(errors(&two_primary), vec![]);
}

#[test]
fn one_specialist_squad_and_specialists_only_there_001_l845_l885() {
    let spec = "  - type: specialist\n    models:\n      - {model: m-specialist}\n";
    assert_eq!(errors(&format!("{HEAD}squads:\n{spec}")), vec![]);
    one_error(&format!("{HEAD}squads:\n{spec}{spec}"), 10, "at most 1 Specialist Squad; this one has 2");
    let astray = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: m-specialist}}\n"
    );
    one_error(&astray, 10, "`m-specialist` has specialist and may only serve in a specialist squad");
}

#[test]
fn a_faction_fields_its_own_open_and_allied_models_001_l644_l783() {
    let with = |model: &str| {
        format!(
            "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: {model}}}\n"
        )
    };
    assert_eq!(errors(&with("m-open-cav")), vec![]);
    assert_eq!(errors(&with("m-indie-cav")), vec![], "an allied independent model");
    one_error(&with("m-rival-cav"), 10, "belongs to Fixture Rival; a Fixture Major force fields its own models");
    // An open force fields anything but takes no doctrine.
    let open = with("m-rival-cav").replace("faction: fixture-major", "faction: open\ndoctrine: iron-resolve");
    one_error(&open, 5, "Open is an open faction and may not take a force doctrine");
    // A doctrine of a major faction is recognised but not played: a warning that says so.
    let doctrine = with("m-open-cav").replace("tvp: 2500", "doctrine: iron-resolve\ntvp: 2500");
    let all = check(&doctrine);
    assert!(all.iter().any(|(l, m, s)| *l == 5 && *s == Severity::Warning && m.contains("not played")), "{all:#?}");
}

#[test]
fn upgrades_fit_their_model_once_each_001_l1213_l1235() {
    let with = |ups: &str| {
        format!(
            "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: m-small-cav, upgrades: [{ups}]}}\n"
        )
    };
    assert_eq!(errors(&with("veteran-pilot")), vec![]);
    one_error(
        &with("veteran-pilot, veteran-pilot"),
        10,
        "a model takes each upgrade once; `m-small-cav` has Veteran Pilot twice",
    );
    one_error(&with("jump-pack"), 10, "Jump Pack fits infantry or powered_infantry only; `m-small-cav` is a cav");
    one_error(&with("officer"), 10, "Officer needs a model of 4+ damage tracks; `m-small-cav` has 2");
    one_error(&with("reactive-armor, ablative-emulsion"), 10, "already has a armor upgrade");
    one_error(&with("high-explosive"), 10, "carries none of the launchers High-Explosive is made for");
    // Amped Weapons grants Piercing or Shredder to one weapon type the model carries (001 L9477).
    one_error(&with("amped-weapons"), 10, "name the weapon (`weapon:`, none: the model carries no weapon)");
    one_error(
        &with("{upgrade: amped-weapons, weapon: medium-mac, choice: piercing}"),
        10,
        "Amped Weapons grants one of piercing or shredder to one weapon type of the model",
    );
    // Officer: once per force group.
    let two_officers = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 2, upgrades: [officer]}}\n      - {{model: m-cav-attack, count: 2}}\n"
    );
    one_error(&two_officers, 9, "Officer is allowed 1 time(s) per force group; this is number 2");
    // A rank the upgrade lists, and `times` only where the book lets a model buy it again.
    let officer = |rank: &str| {
        format!(
            "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 3}}\n      - {{model: m-cav-attack, upgrades: [{{upgrade: officer, variant: {rank}}}]}}\n"
        )
    };
    assert_eq!(errors(&officer("lieutenant")), vec![]);
    one_error(
        &officer("general"),
        10,
        "Officer has no variant `general`; it is bought as one of lieutenant, captain, major or colonel",
    );
    one_error(&with("{upgrade: veteran-pilot, variant: major}"), 10, "Veteran Pilot has no ranks or sizes to choose");
    one_error(&with("{upgrade: veteran-pilot, times: 2}"), 10, "Veteran Pilot is bought once per model; `times: 2`");
    assert_eq!(errors(&with("{upgrade: claymore-anti-personnel-mines, times: 3}")), vec![]);
}

#[test]
fn upgrades_cost_per_damage_track_001_l8735_l8757() {
    let mut loaded = loaded();
    let rs = loaded.ruleset("cav-full").unwrap().clone();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.yaml");
    // Veteran Pilot on a 4-DT model, four copies.
    std::fs::write(
        &file,
        format!("{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-attack, count: 4, upgrades: [veteran-pilot]}}\n"),
    )
    .unwrap();
    let (docs, _) = cav_content::read_loose(&mut loaded, &file, DocKind::Force);
    let Document::Force(f) = &docs[0].doc else { panic!() };
    let up = match rs.get(DocKind::Upgrade, "veteran-pilot").unwrap().doc.as_deref().unwrap() {
        Document::Upgrade(u) => u.cost.clone().unwrap(),
        _ => panic!(),
    };
    assert!(up.per_damage_track);
    let c = cav_forces::costs(&rs, f);
    assert_eq!(c.models, 400);
    assert_eq!(c.upgrades, up.tv * 4 * 4);
    assert_eq!(cav_forces::c3_points(&rs, f), 1, "one primary squad, one C3 point (001 L1288-1289)");
}

#[test]
fn strikes_need_a_caller_and_unknown_ids_are_named_001_l1259_l1277() {
    let yaml = format!("{HEAD}strike_pools: {{air: 100}}\nsquads:\n{}", attack_squad());
    one_error(&yaml, 6, "a strike pool is called in by a model with fist; the force has none");
    let typo = format!("{HEAD}squads:\n  - type: atack\n    models:\n      - {{model: m-cav-atack, count: 4}}\n");
    let e = errors(&typo);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e[0].1.contains("squad type `atack` does not exist") && e[0].0 == 7, "{e:#?}");
    assert!(e[1].1.contains("model `m-cav-atack` does not exist") && e[1].0 == 9, "{e:#?}");
}

#[test]
fn the_bot_builds_legal_forces_deterministically() {
    let loaded = loaded();
    let rs = loaded.ruleset("cav-full").unwrap();
    for (faction, tvp) in [("fixture-major", 1000), ("fixture-major", 2500), ("open", 4000), ("fixture-indie", 1500)] {
        for seed in 1..=8 {
            let req = cav_forces::BuildRequest { faction: faction.into(), tvp, seed };
            let f = cav_forces::build(rs, &req).unwrap_or_else(|e| panic!("{faction} {tvp} {seed}: {e}"));
            let found = cav_forces::check(rs, &f, &|_| None, None);
            assert!(found.iter().all(|d| d.severity != Severity::Error), "{faction} {tvp} seed {seed}: {found:#?}");
            assert_eq!(cav_forces::build(rs, &req).unwrap(), f, "same seed, same force");
            let c = cav_forces::costs(rs, &f);
            assert!(c.models <= tvp && c.specializations() <= tvp / 10, "{c:?}");
        }
    }
    let a = cav_forces::build(rs, &cav_forces::BuildRequest { faction: "fixture-major".into(), tvp: 2500, seed: 1 });
    let b = cav_forces::build(rs, &cav_forces::BuildRequest { faction: "fixture-major".into(), tvp: 2500, seed: 2 });
    assert_ne!(a.unwrap(), b.unwrap(), "seeds differ");
}

/// A model with Unique is fielded once at most in the whole force group: a second one, in the same
/// squad or another, is an error at the model that is one too many (001 L8666-8680).
#[test]
fn a_unique_model_is_fielded_once_001_l8666_l8680() {
    let one = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-unique}}\n      - {{model: m-cav-attack, count: 3}}\n"
    );
    assert_eq!(errors(&one), vec![]);
    let twice = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-unique, count: 2}}\n      - {{model: m-cav-attack, count: 2}}\n"
    );
    one_error(&twice, 9, "`m-cav-unique` is unique: a force group fields at most one");
    let apart = format!(
        "{HEAD}squads:\n  - type: attack\n    models:\n      - {{model: m-cav-unique}}\n      - {{model: m-cav-attack, count: 3}}\n  - type: attack\n    models:\n      - {{model: m-cav-unique}}\n      - {{model: m-cav-attack, count: 3}}\n"
    );
    one_error(&apart, 13, "a force group fields at most one");
}

/// An asset's variant is one it offers: the Revetment's vehicle revetment is, a moat is not, and
/// an asset with no variants takes none (001 L10904-10921).
#[test]
fn an_asset_variant_is_one_the_asset_offers_001_l10904_l10921() {
    let with = |asset: &str| format!("{HEAD}assets:\n  - {asset}\nsquads:\n{}", attack_squad());
    assert_eq!(errors(&with("{asset: revetment, variant: vehicle-revetment}")), vec![]);
    one_error(&with("{asset: revetment, variant: trench}"), 7, "Revetment has no variant `trench`");
    one_error(&with("{asset: trench, variant: vehicle-revetment}"), 7, "Trench has no variant `vehicle-revetment`");
}

/// A weapon emplacement names its weapon card, one made for it, and is priced per bunker section,
/// plus its roof turret and its weapon's TV (001 L10544-10552); no other asset names a weapon.
#[test]
fn a_weapon_emplacement_names_its_weapon_card_and_is_priced_by_its_parts_001_l10544_l10552() {
    let with = |asset: &str| format!("{HEAD}assets:\n  - {asset}\nsquads:\n{}", attack_squad());
    let bunker = "{asset: bunker-weapon-emplacement, emplacement: {model: test-full-mac-emplacement, sections: 2}}";
    assert_eq!(errors(&with(bunker)), vec![]);
    one_error(
        &with("{asset: bunker-weapon-emplacement}"),
        7,
        "Bunker: Weapon Emplacement is a weapon emplacement: name its weapon card",
    );
    one_error(
        &with("{asset: bunker-weapon-emplacement, emplacement: {model: m-cav-attack}}"),
        7,
        "is not a weapon card of Bunker: Weapon Emplacement",
    );
    one_error(
        &with("{asset: trench, emplacement: {model: test-full-mac-emplacement}}"),
        7,
        "Trench is not a weapon emplacement",
    );

    // Two sections at 25 TV, the roof turret's 25 (its MAC is mounted on `T`), the card's 200.
    let mut loaded = loaded();
    let rs = loaded.ruleset("cav-full").unwrap().clone();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.yaml");
    std::fs::write(&file, with(bunker)).unwrap();
    let (docs, _) = cav_content::read_loose(&mut loaded, &file, DocKind::Force);
    let Document::Force(f) = &docs[0].doc else { panic!() };
    assert_eq!(cav_forces::costs(&rs, f).assets, 2 * 25 + 25 + 200);
}

/// The bot fields the faction's own models first: every squad whose type one of them fits is made
/// of them, so a faction with models of its own (the Iron Wolves, an open mercenary company with a
/// CAV, a tank and a rifle squad) has them in every roster; before, 6 of 10 seeds had none. And
/// the invented `Test` faction's fixtures never join a bot's force, not even an open one.
#[test]
fn the_bot_fields_the_factions_own_models_first() {
    let loaded = loaded();
    let rs = loaded.ruleset("cav-full").unwrap();
    let r = cav_forces::Roster::new(rs);
    let faction_of = |id: &str| r.faction_of(r.model(id).unwrap()).map(|f| f.id.as_str().to_owned());
    for seed in 1..=10 {
        let req = cav_forces::BuildRequest { faction: "iron-wolves".into(), tvp: 1000, seed };
        let f = cav_forces::build(rs, &req).unwrap();
        let mut own = 0;
        for sq in &f.squads {
            let ty = r.squad_types().find(|t| t.id == sq.squad_type).unwrap();
            let own_fits = r.models().any(|m| {
                faction_of(m.id.as_str()).as_deref() == Some("iron-wolves")
                    && (ty.model_types.is_empty() || ty.model_types.contains(&m.model_type))
                    && (ty.tasks.is_empty() || m.task.is_some_and(|t| ty.tasks.contains(&t)))
            });
            let first = faction_of(sq.models[0].model.as_str());
            if own_fits {
                assert_eq!(first.as_deref(), Some("iron-wolves"), "seed {seed}: a {} squad of others", ty.id);
            }
            own += sq.models.iter().filter(|m| faction_of(m.model.as_str()).as_deref() == Some("iron-wolves")).count();
        }
        assert!(own > 0, "seed {seed}: no Iron Wolves model in {f:#?}");
    }
    for seed in 1..=10 {
        let f = cav_forces::build(rs, &cav_forces::BuildRequest { faction: "open".into(), tvp: 4000, seed }).unwrap();
        for m in f.squads.iter().flat_map(|s| &s.models) {
            assert_ne!(faction_of(m.model.as_str()).as_deref(), Some("test"), "seed {seed}: fixture {}", m.model);
        }
    }
}
