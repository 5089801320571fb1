//! The force-building worked examples of the full rulebook (001), each with the book's numbers:
//! squad sizes with Bulky models counting double, the specialization bonus and reserve, and the
//! force group bonus a roster brings to the end of a game. The rosters use the invented models of
//! `tests/fixtures/example-fixtures` (and `roster-fixtures`, which it builds on) on top of the
//! bundled full rules.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use cav_content::{LoadOptions, Loaded, Severity};
use cav_format::{DocKind, Document, Force};

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).canonicalize().unwrap()
}

fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures")).to_path_buf()
}

fn loaded() -> Loaded {
    let loaded = cav_content::load(&LoadOptions {
        paths: vec![fixtures().join("example-fixtures")],
        library: vec![root().join("content"), fixtures()],
    });
    assert_eq!(loaded.error_count(), 0, "{:?}", loaded.diagnostics.iter().map(|d| &d.message).collect::<Vec<_>>());
    loaded
}

/// One load for every test; `f` gets the full ruleset and the roster read from `yaml`.
fn with_roster<T>(yaml: &str, f: impl FnOnce(&cav_content::Ruleset, &Force) -> T) -> T {
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    let mut loaded = LOADED.get_or_init(|| Mutex::new(loaded())).lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("roster.yaml");
    std::fs::write(&file, yaml).unwrap();
    let (docs, errs) = cav_content::read_loose(&mut loaded, &file, DocKind::Force);
    assert!(errs.is_empty(), "{:?}", errs.iter().map(|d| &d.message).collect::<Vec<_>>());
    let Document::Force(force) = &docs[0].doc else { panic!("not a force") };
    let force = force.clone();
    let rs = loaded.ruleset("cav-full").expect("full ruleset");
    f(rs, &force)
}

/// The check's errors for a roster, as messages.
fn errors(yaml: &str) -> Vec<String> {
    with_roster(yaml, |rs, force| {
        cav_forces::check(rs, force, &|_| None, None)
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| d.message)
            .collect()
    })
}

/// Exactly one error, containing `text`.
fn one_error(yaml: &str, text: &str) {
    let e = errors(yaml);
    assert_eq!(e.len(), 1, "expected one error, got {e:#?}");
    assert!(e[0].contains(text), "`{}` does not say `{text}`", e[0]);
}

fn head(tvp: u32) -> String {
    format!("kind: force\nid: t\nname: T\nfaction: fixture-major\ntvp: {tvp}\n")
}

/// A roster of one squad of `kind` holding `models` (`(model, count)`).
fn one_squad(kind: &str, models: &[(&str, u32)]) -> String {
    let mut y = format!("{}squads:\n  - type: {kind}\n    models:\n", head(2500));
    for (m, n) in models {
        y.push_str(&format!("      - {{model: {m}, count: {n}}}\n"));
    }
    y
}

#[test]
fn an_infantry_squad_holds_ten_light_or_heavy_models_or_five_powered_001_l1062_l1066() {
    assert_eq!(errors(&one_squad("infantry", &[("m-inf-light", 10)])), Vec::<String>::new());
    assert_eq!(errors(&one_squad("infantry", &[("m-inf-heavy", 10)])), Vec::<String>::new());
    one_error(&one_squad("infantry", &[("m-inf-light", 11)]), "has 6 to 10 models; this one counts 11");
    one_error(&one_squad("infantry", &[("m-inf-heavy", 11)]), "has 6 to 10 models; this one counts 11");
    // Powered infantry are Bulky: each counts as two.
    assert_eq!(errors(&one_squad("infantry", &[("m-inf-powered", 5)])), Vec::<String>::new());
    one_error(&one_squad("infantry", &[("m-inf-powered", 6)]), "has 6 to 10 models; this one counts 12");
}

#[test]
fn a_mechanized_squad_holds_eight_light_or_heavy_models_or_four_powered_001_l1107_l1110() {
    // Transport 3 carries three light or heavy models, or one Bulky powered model: the squads
    // bring just the transports they need (001 L1127-1139).
    let light = |n| one_squad("mechanized-infantry", &[("m-inf-light", n), ("m-veh-transport", 3)]);
    assert_eq!(errors(&light(8)), Vec::<String>::new());
    one_error(&light(9), "has 4 to 8 models; this one counts 9");
    let heavy = |n| one_squad("mechanized-infantry", &[("m-inf-heavy", n), ("m-veh-transport", 3)]);
    assert_eq!(errors(&heavy(8)), Vec::<String>::new());
    one_error(&heavy(9), "has 4 to 8 models; this one counts 9");
    let powered = |n| one_squad("mechanized-infantry", &[("m-inf-powered", n), ("m-veh-transport", n)]);
    assert_eq!(errors(&powered(4)), Vec::<String>::new());
    one_error(&powered(5), "has 4 to 8 models; this one counts 10");
}

#[test]
fn a_mortar_squad_holds_six_light_models_or_three_powered_001_l1163_l1166() {
    assert_eq!(errors(&one_squad("mortar", &[("m-ex-mortar-light", 6)])), Vec::<String>::new());
    one_error(
        &one_squad("mortar", &[("m-ex-mortar-light", 7)]),
        "the Mortar Squad has 4 to 6 models; this one counts 7",
    );
    assert_eq!(errors(&one_squad("mortar", &[("m-ex-mortar-powered", 3)])), Vec::<String>::new());
    one_error(
        &one_squad("mortar", &[("m-ex-mortar-powered", 4)]),
        "the Mortar Squad has 4 to 6 models; this one counts 8",
    );
    // Its transports, like a mechanized squad's, are all of one model type (001 L1171-1179):
    // two Transport 3 models for six light bases, a vehicle and an aircraft.
    let two = one_squad("mortar", &[("m-ex-mortar-light", 6), ("m-veh-transport", 2)]);
    assert_eq!(errors(&two), Vec::<String>::new());
    let mixed = one_squad("mortar", &[("m-ex-mortar-light", 6), ("m-veh-transport", 1), ("m-vtol-transport", 1)]);
    one_error(&mixed, "every transport of the Mortar Squad has the same model type");
}

#[test]
fn a_2500_pool_gives_500_for_specializations_and_leaves_2250_for_models_001_l1203_l1209() {
    // 2,250 TV of models (four 450-TV CAVs and a 450-TV FIST CAV) and a strike pool of 500: the
    // 250 bonus (10 % of 2,500) and 250 reserved from the pool (another 10 %).
    let roster = |cav: &str, strike: u32| {
        format!(
            "{}strike_pools: {{artillery: {strike}}}\nsquads:\n  - type: attack\n    models:\n      - {{model: {cav}, count: 1}}\n      - {{model: m-ex-cav-450, count: 3}}\n      - {{model: m-ex-fist-450}}\n",
            head(2500)
        )
    };
    let full = roster("m-ex-cav-450", 500);
    assert_eq!(errors(&full), Vec::<String>::new());
    with_roster(&full, |rs, force| {
        let c = cav_forces::costs(rs, force);
        assert_eq!(c.models, 2250);
        assert_eq!(c.specializations(), 500);
        assert_eq!(c.total(), 2750, "the pool of 2,500 and its bonus of 250, all spent");
    });
    // One point more of specializations is over the 500, however little the models cost (here
    // 1,900, so the pool itself is not exceeded).
    one_error(&roster("m-cav-attack", 501), "the bonus of 250 and at most 250 reserved from the pool allow 500");
    // With all 250 reserved, models may cost 2,250 and no more: 2,300 is over.
    one_error(
        &roster("m-ex-cav-500", 500),
        "models cost 2300 + 250 reserved for specializations = 2550 TV, over the pool of 2500",
    );
    // Without the reserve, the same models fit the pool.
    assert_eq!(errors(&roster("m-ex-cav-500", 250)), Vec::<String>::new());
}

#[test]
fn the_force_group_bonus_is_what_the_pool_left_unspent_001_l1843_l1853() {
    let loaded = loaded();
    let rs = loaded.ruleset("cav-full").unwrap();
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    // Force group B: 4,950 TV of models from a pool of 5,000, nothing else: a bonus of 50.
    let b = format!(
        "{}squads:\n  - type: attack\n    models:\n      - {{model: m-ex-cav-500, count: 6}}\n  - type: attack\n    models:\n      - {{model: m-ex-cav-500, count: 3}}\n      - {{model: m-ex-cav-450}}\n",
        head(5000)
    );
    assert_eq!(errors(&b), Vec::<String>::new());
    with_roster(&b, |rs, force| {
        assert_eq!(cav_forces::costs(rs, force).total(), 4950);
        let side = cav_forces::roster_force(rs, force, &mut rules).unwrap();
        assert_eq!(side.pool, Some(5000));
        assert_eq!(side.bonus, 50);
    });
    // Force group A: 4,890 TV, of which 200 in the strike pool. The 110 it left unspent and the
    // strike points it did not call in make its bonus: the book's A called in 100 of the 200
    // during the battle, so 110 + 100 = 210 join its surviving TVP.
    let a = format!(
        "{}strike_pools: {{artillery: 200}}\nsquads:\n  - type: attack\n    models:\n      - {{model: m-ex-cav-500, count: 5}}\n      - {{model: m-ex-fist-450}}\n  - type: attack\n    models:\n      - {{model: m-ex-cav-500, count: 3}}\n      - {{model: m-cav-attack, count: 2}}\n      - {{model: m-small-cav}}\n",
        head(5000)
    );
    assert_eq!(errors(&a), Vec::<String>::new());
    with_roster(&a, |rs, force| {
        let c = cav_forces::costs(rs, force);
        assert_eq!((c.models, c.strike_pool, c.total()), (4690, 200, 4890));
        let side = cav_forces::roster_force(rs, force, &mut rules).unwrap();
        assert_eq!(side.bonus, 110);
        let sc = rules.scenario("this-is-war").unwrap();
        let mut dice = cav_rules::SeededDice::new(1);
        let mut game =
            cav_rules::setup::roster_game(&rules, sc, &[side.clone(), side], &mut dice, &mut cav_rules::NoLog, None);
        let pool = game.features.strikes.pools[0].get_mut(&cav_format::StrikePackage::Artillery).unwrap();
        *pool -= 100; // called in during the battle
        let surviving: u32 =
            (0..game.models.len()).filter(|&i| game.models[i].side == 0).map(|i| game.surviving_tv(i)).sum();
        assert_eq!(game.scores()[0].1, surviving + 210);
    });
}

/// An upgrade costs its price per damage track (001 L8735-8749): on a nine-track model, the
/// book's Turbo-Charged at 10 TV is 90; its own stat block price of 15 TV (001 L10431, the price
/// the content uses) makes it 135.
#[test]
fn an_upgrade_costs_its_price_per_damage_track_001_l8741_l8745() {
    let roster = format!(
        "{}squads:\n  - type: attack\n    models:\n      - {{model: m-ex-cav-9dt, count: 1, upgrades: [turbo-charged]}}\n      - {{model: m-ex-cav-450, count: 3}}\n",
        head(2500)
    );
    with_roster(&roster, |rs, force| assert_eq!(cav_forces::costs(rs, force).upgrades, 9 * 15));
}

/// One purchase of Amped Weapons serves every weapon of the chosen type: both Medium MACs of a
/// nine-track model for 15 × 9 = 135 (001 L8751-8755).
#[test]
fn one_upgrade_serves_every_weapon_of_its_type_001_l8753_l8755() {
    let roster = format!(
        "{}squads:\n  - type: attack\n    models:\n      - {{model: m-ex-cav-9dt, count: 1, upgrades: [{{upgrade: amped-weapons, weapon: medium-mac, choice: piercing}}]}}\n      - {{model: m-ex-cav-450, count: 3}}\n",
        head(2500)
    );
    assert_eq!(errors(&roster), Vec::<String>::new());
    with_roster(&roster, |rs, force| assert_eq!(cav_forces::costs(rs, force).upgrades, 135));
}

/// The Officer's rank sets the carrier it needs: a Major needs at least 8 damage tracks (001
/// L10211-10212), so a four-track CAV is refused and a nine-track one takes it, for 20 TV per
/// damage track, and the force group's C3 pool grows by the Major's 4 (001 L10187-10202).
#[test]
fn an_officer_major_needs_a_model_of_eight_damage_tracks_001_l10211() {
    let squad = |model: &str| {
        format!(
            "{}squads:\n  - type: attack\n    models:\n      - {{model: {model}, count: 1, upgrades: [{{upgrade: officer, variant: major}}]}}\n      - {{model: m-ex-cav-450, count: 3}}\n",
            head(2500)
        )
    };
    assert_eq!(
        errors(&squad("m-ex-cav-450")),
        vec!["Officer (Major) needs a model of 8+ damage tracks; `m-ex-cav-450` has 4 (001 L10165)".to_owned()]
    );
    let roster = squad("m-ex-cav-9dt");
    assert_eq!(errors(&roster), Vec::<String>::new());
    with_roster(&roster, |rs, force| {
        assert_eq!(cav_forces::costs(rs, force).upgrades, 9 * 20);
        let lieutenant = force_with_rank(force, None);
        assert_eq!(cav_forces::c3_points(rs, force), cav_forces::c3_points(rs, &lieutenant) + 2);
    });
}

/// `force` with its officer bought at `rank` instead.
fn force_with_rank(force: &Force, rank: Option<&str>) -> Force {
    let mut f = force.clone();
    for m in f.squads.iter_mut().flat_map(|s| s.models.iter_mut()) {
        for u in &mut m.upgrades {
            if let cav_format::ForceUpgrade::For(x) = u {
                x.variant = rank.map(|r| cav_format::Id(r.to_owned()));
            }
        }
    }
    f
}

/// SIGINT cards, recon drones and resupply drops: at most one per squad of the force group — three
/// squads buy up to three (001 L10862-10864, L10896-10898, L10968-10970).
#[test]
fn a_force_buys_one_drone_drop_or_sigint_card_per_squad_001_l10862_l10896_l10968() {
    let squads = "  - type: attack\n    models:\n      - {model: m-ex-cav-450, count: 4}\n".repeat(3);
    for asset in ["recon-drone", "resupply-drop", "sigint"] {
        let roster = |n: u32| format!("{}assets:\n  - {{asset: {asset}, count: {n}}}\nsquads:\n{squads}", head(7000));
        assert_eq!(errors(&roster(3)), Vec::<String>::new(), "{asset}");
        one_error(&roster(4), "at most 1 per squad, and the force fields 3 squads, so 3; it buys 4");
    }
}
