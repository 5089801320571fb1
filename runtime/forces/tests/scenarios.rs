//! Every full-rules scenario plays to a result from bot-built rosters, seed after seed, and the
//! same seed gives the same event log (001 L1589-2501).

use std::path::Path;

use cav_rules::{Engine, Event, SeededDice, bot::Bot, hooks::NoHooks, setup::roster_game};

/// Seeds per scenario: 1 to 100 (`SCENARIO_SEEDS` changes it).
fn seeds() -> u64 {
    std::env::var("SCENARIO_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(100)
}

#[test]
fn every_scenario_plays_to_a_result_and_repeats_itself() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    assert_eq!(rules.scenarios.len(), 10);
    let mut decided = 0;
    for (sc, s) in rules.scenarios.clone().iter().enumerate() {
        for seed in 1..=seeds() {
            let forces: Vec<_> = (0..s.sides.len() as u64)
                .map(|side| {
                    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: seed * 10 + side };
                    let f = cav_forces::build(rs, &req).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.id));
                    cav_forces::roster_force(rs, &f, &mut rules).unwrap()
                })
                .collect();
            let play = || {
                let mut dice = SeededDice::new(seed);
                let mut log: Vec<Event> = Vec::new();
                let game = roster_game(&rules, sc, &forces, &mut dice, &mut log, Some(seed));
                let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
                let end = engine.play(&mut Bot::default()).unwrap_or_else(|e| panic!("{} seed {seed}: {e}", s.id));
                (end, serde_json::to_string(&log).unwrap())
            };
            let (end, a) = play();
            let (_, b) = play();
            assert_eq!(a, b, "{} seed {seed}: the same seed gives the same log", s.id);
            assert!(a.contains("\"game_end\""), "{} seed {seed} ends", s.id);
            decided += u32::from(end.winner.is_some());
        }
    }
    assert!(decided > 0);
}

/// A roster plays with its pool as the starting TVP, the pool it left unspent as its force group
/// bonus, and its strike pools for the game; what the strike pools still hold at the end joins the
/// bonus in the scores (001 L1830-1845).
#[test]
fn a_roster_brings_its_pool_and_its_force_group_bonus() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: 7 };
    let mut f = cav_forces::build(rs, &req).unwrap();
    f.strike_pools.insert(cav_format::StrikePackage::Space, 40);
    // A pool 123 above what the roster spends (strike pools included).
    f.tvp = cav_forces::costs(rs, &f).total() + 123;
    let force = cav_forces::roster_force(rs, &f, &mut rules).unwrap();
    assert_eq!(force.pool, Some(f.tvp));
    assert_eq!(force.bonus, 123);
    assert_eq!(force.strike_pools.get(&cav_format::StrikePackage::Space), Some(&40));
    // The roster has no FIST model: nothing is called, and the 40 TV join the surviving TVP.
    let sc = rules.scenario("this-is-war").unwrap();
    let mut dice = cav_rules::SeededDice::new(1);
    let game =
        cav_rules::setup::roster_game(&rules, sc, &[force.clone(), force], &mut dice, &mut cav_rules::NoLog, None);
    let (start, surviving) = game.scores()[0];
    assert_eq!(start, f.tvp);
    assert_eq!(
        surviving,
        game.models.iter().enumerate().filter(|(_, m)| m.side == 0).map(|(i, _)| game.surviving_tv(i)).sum::<u32>()
            + 123
            + 40
    );
}

/// The assets a roster buys that act from a side's hand (SIGINT, recon drones, resupply drops)
/// go to its side in `cav play`; terrain-piece assets are not among them.
#[test]
fn a_roster_holds_the_assets_it_bought_off_the_table() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: 7 };
    let mut f = cav_forces::build(rs, &req).unwrap();
    f.assets = vec![asset("sigint", 2), asset("trench", 1), asset("recon-drone", 1)];
    let force = cav_forces::roster_force(rs, &f, &mut rules).unwrap();
    let held: Vec<(&str, u32)> = force.held.iter().map(|&(a, n)| (rules.assets[a].id.as_str(), n)).collect();
    assert_eq!(held, [("sigint", 2), ("recon-drone", 1)]);
    let sc = rules.scenario("this-is-war").unwrap();
    let mut dice = cav_rules::SeededDice::new(1);
    let game =
        cav_rules::setup::roster_game(&rules, sc, &[force.clone(), force], &mut dice, &mut cav_rules::NoLog, None);
    assert_eq!(game.features.held_assets.held[1].len(), 2);
}

/// The bundled full rules and the bot's 1000-TV open roster (seed 7), changed by `edit`, as the
/// engine deploys it.
fn open_roster(edit: impl FnOnce(&mut cav_format::Force)) -> (cav_rules::Rules, cav_rules::setup::RosterForce) {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-full").expect("full rules");
    let mut rules = cav_compile::compile_rules(rs).expect("compiles");
    let req = cav_forces::BuildRequest { faction: "open".into(), tvp: 1000, seed: 7 };
    let mut f = cav_forces::build(rs, &req).unwrap();
    edit(&mut f);
    let force = cav_forces::roster_force(rs, &f, &mut rules).unwrap();
    (rules, force)
}

/// This Is War with `force` on side 0 and the same force without its pieces and emplacements on
/// side 1, and how many terrain pieces the scenario lays by itself.
fn this_is_war<'r>(
    rules: &'r cav_rules::Rules,
    force: &cav_rules::setup::RosterForce,
    log: &mut Vec<Event>,
) -> (cav_rules::Game<'r>, usize) {
    let sc = rules.scenario("this-is-war").unwrap();
    let bare = {
        let mut dice = cav_rules::SeededDice::new(1);
        cav_rules::setup::scenario_game(rules, sc, &mut dice, &mut cav_rules::NoLog, None).board.areas.len()
    };
    let none = cav_rules::setup::RosterForce { pieces: Vec::new(), emplacements: Vec::new(), ..force.clone() };
    let mut dice = cav_rules::SeededDice::new(1);
    (roster_game(rules, sc, &[force.clone(), none], &mut dice, log, None), bare)
}

/// A squad of `count` infantry models `model`.
fn infantry(model: &str, count: u32) -> cav_format::ForceSquad {
    let models = vec![cav_format::ForceModel { model: model.into(), count, upgrades: Vec::new() }];
    cav_format::ForceSquad { squad_type: "infantry".into(), name: None, models }
}

fn asset(id: &str, count: u32) -> cav_format::ForceAsset {
    cav_format::ForceAsset { asset: id.into(), count, variant: None, emplacement: None }
}

/// The pieces a roster buys to set down before deployment — fortifications and minefields — are
/// on the table when the game starts (001 L10522-10526, L10713-10717): each on the board, none
/// reaching into the opposing deployment zone, the minefields sparing their own side.
#[test]
fn a_roster_sets_down_its_pieces_before_deployment() {
    let vehicle = Some(cav_format::Id::from("vehicle-revetment"));
    let (rules, force) = open_roster(|f| {
        f.assets = vec![
            asset("trench", 2),
            asset("bunker", 1),
            asset("anti-personnel-anti-tank-minefield", 2),
            asset("sigint", 1),
            cav_format::ForceAsset { variant: vehicle, ..asset("revetment", 1) },
        ]
    });
    let pieces: Vec<(&str, u32)> = force.pieces.iter().map(|&(a, _, n)| (rules.assets[a].id.as_str(), n)).collect();
    assert_eq!(pieces, [("trench", 2), ("bunker", 1), ("anti-personnel-anti-tank-minefield", 2), ("revetment", 1)]);
    let mut log: Vec<Event> = Vec::new();
    let (game, bare) = this_is_war(&rules, &force, &mut log);
    // Four fortification pieces joined the scenario's terrain (the revetment as the variant
    // bought), and two minefields of side 0.
    let laid: Vec<_> = game.board.areas[bare..].iter().map(|a| rules.terrains[a.terrain].id.as_str()).collect();
    // (A trench may wait with an ambushing infantry model of the bot's roster instead.)
    let held = game.features.deployment.ambush_pieces[0].len();
    assert!(game.features.deployment.ambush_pieces[0].iter().all(|&(a, _)| rules.assets[a].id == "trench"));
    let trenches = laid.iter().filter(|&&t| t == "trench").count();
    assert_eq!(trenches + held, 2);
    assert_eq!(laid[trenches..], ["bunker", "vehicle-revetment"]);
    assert_eq!(game.features.minefields.fields.len(), 2);
    assert!(game.features.minefields.fields.iter().all(|m| m.side == Some(0) && m.charges == Some(6)));
    let s = &rules.scenarios[rules.scenario("this-is-war").unwrap()];
    let [bw, bh] = game.board.size;
    let (_, enemy) = &s.sides[1];
    let polys =
        game.board.areas[bare..].iter().map(|a| &a.poly).chain(game.features.minefields.fields.iter().map(|m| &m.area));
    for poly in polys {
        for p in &poly.points {
            assert!(p.x >= -1e-9 && p.y >= -1e-9 && p.x <= bw + 1e-9 && p.y <= bh + 1e-9, "{p:?} is on the board");
            let inside = p.x > enemy.x && p.x < enemy.x + enemy.width && p.y > enemy.y && p.y < enemy.y + enemy.height;
            assert!(!inside, "{p:?} reaches into the opposing zone {enemy:?}");
        }
    }
    // The log says where each went, before any model deploys.
    let placed =
        log.iter().position(|e| matches!(e, Event::TerrainPlaced { terrain, .. } if terrain == "bunker")).unwrap();
    let mined = log
        .iter()
        .position(|e| matches!(e, Event::AssetUsed { detail, .. } if detail.starts_with("a minefield laid")))
        .unwrap();
    let deployed = log.iter().position(|e| matches!(e, Event::Deployed { .. })).unwrap();
    assert!(placed < deployed && mined < deployed);
}

/// The bot holds a trench back with an ambushing infantry model (001 L6537-6557): one of two
/// trenches waits for the breacher team to be placed, the other goes down before deployment.
#[test]
fn a_roster_holds_a_piece_back_with_its_ambusher() {
    let (rules, force) = open_roster(|f| {
        f.squads.push(infantry("breacher-team", 1));
        f.assets = vec![asset("trench", 2)];
    });
    let (game, bare) = this_is_war(&rules, &force, &mut Vec::new());
    // One trench per ambushing infantry model (the bot's roster may bring another), the rest
    // down before deployment.
    let trench = rules.assets.iter().position(|a| a.id == "trench").unwrap();
    let ambushers = game
        .models
        .iter()
        .enumerate()
        .filter(|&(i, m)| {
            m.side == 0 && m.ambush && rules.type_name(rules.cards[game.models[i].card].model_type) == "infantry"
        })
        .count();
    assert!(ambushers >= 1);
    let held = ambushers.min(2);
    assert_eq!(game.features.deployment.ambush_pieces[0], vec![(trench, None); held]);
    assert_eq!(game.board.areas.len(), bare + 2 - held);
}

/// Infantry deploy into the bunkers their side set down, one model to a section (001
/// L10538-10540).
#[test]
fn infantry_deploy_into_their_sides_bunkers() {
    let (rules, force) = open_roster(|f| {
        f.squads.push(infantry("line-rifles", 3));
        f.assets = vec![asset("bunker", 2)];
    });
    let (game, _) = this_is_war(&rules, &force, &mut Vec::new());
    let bunkers: Vec<_> = game.board.areas.iter().filter(|a| rules.terrains[a.terrain].id == "bunker").collect();
    assert_eq!(bunkers.len(), 2);
    for b in bunkers {
        let inside: Vec<usize> = (0..game.models.len())
            .filter(|&m| game.models[m].on_table() && b.poly.contains(game.models[m].pos))
            .collect();
        assert_eq!(inside.len(), 1, "one model in each section");
        let card = &rules.cards[game.models[inside[0]].card];
        assert!(rules.has_trait(card.model_type, cav_format::ModelTrait::Infantry), "{}", card.id);
        assert_eq!(game.models[inside[0]].side, 0);
    }
}

/// A roster that buys more pieces than a scenario may hold terrain features sets down the
/// first of them only, and the log says so (hostile input: the set-up must not stall).
#[test]
fn a_roster_with_thousands_of_pieces_sets_down_a_bounded_number() {
    let (rules, mut force) = open_roster(|_| {});
    let trench = rules.assets.iter().position(|a| a.id == "trench").unwrap();
    force.pieces = vec![(trench, None, 5000), (trench, None, 5000)];
    let mut log = Vec::new();
    let (game, bare) = this_is_war(&rules, &force, &mut log);
    let limit = cav_format::limits::MAX_TERRAIN_FEATURES;
    assert!(game.board.areas.len() <= bare + limit);
    assert!(log.iter().any(|e| matches!(e, Event::AssetUsed { detail, .. } if detail.contains("only the first"))));
}

/// A roster's weapon emplacement is set down before deployment, outside the opposing zone, with
/// its bunker (two sections here) laid under it (001 L10522-10526, L10544-10564).
#[test]
fn a_roster_sets_down_its_weapon_emplacements_before_deployment() {
    let emplacement = cav_format::ForceEmplacement { model: "test-full-mac-emplacement".into(), sections: 2 };
    let (rules, force) = open_roster(|f| {
        f.assets =
            vec![cav_format::ForceAsset { emplacement: Some(emplacement), ..asset("bunker-weapon-emplacement", 1) }]
    });
    let card = rules.card("test-full-mac-emplacement").unwrap();
    assert_eq!(force.emplacements, [(card, 2)]);
    let mut log: Vec<Event> = Vec::new();
    let (game, bare) = this_is_war(&rules, &force, &mut log);
    let placed: Vec<usize> = (0..game.models.len()).filter(|&m| game.models[m].card == card).collect();
    assert_eq!(placed.len(), 1, "one emplacement, on side 0 only");
    let m = placed[0];
    assert_eq!(game.models[m].side, 0);
    let bunker = &game.board.areas[bare..].iter().find(|a| rules.terrains[a.terrain].id == "bunker").expect("a bunker");
    assert!(bunker.poly.contains(game.models[m].pos), "the bunker lies under its weapon");
    // Two 2" sections: 4" long, 2" deep.
    let side = |i: usize| bunker.poly.points[i].dist(bunker.poly.points[(i + 1) % 4]);
    assert!((side(0) - 4.0).abs() < 1e-9 && (side(1) - 2.0).abs() < 1e-9, "{:?}", bunker.poly.points);
    let s = &rules.scenarios[rules.scenario("this-is-war").unwrap()];
    let (_, enemy) = &s.sides[1];
    for p in &bunker.poly.points {
        let inside = p.x > enemy.x && p.x < enemy.x + enemy.width && p.y > enemy.y && p.y < enemy.y + enemy.height;
        assert!(!inside, "{p:?} reaches into the opposing zone {enemy:?}");
    }
    let first = log.iter().position(|e| matches!(e, Event::Deployed { .. })).unwrap();
    assert!(matches!(log[first], Event::Deployed { model, .. } if model == m), "it is down before any model deploys");
}
