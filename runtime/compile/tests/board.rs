//! A ruleset's board (`board:`): continuous inches by default; a hex board says which way its
//! hexes lie and is recognised (with a warning that it is not played yet); a hex word on a
//! continuous board is an error at it.

mod common;

fn patch(board: &str) -> String {
    format!("kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A board.\nset:\n  board: {board}\n")
}

#[test]
fn a_hex_board_is_recognised_and_said_played_in_part() {
    // (A stand-alone game: warnings about library packs such as the bundled CAV are not shown.)
    let (diags, rules) = common::edited_pack("sythopian-wars", "rules/ruleset.yaml", |text| {
        text.replacen("\ndice:", "\nboard: {topology: hex, orientation: pointy, hex_size: 1.5}\ndice:", 1)
    });
    let rules = rules.expect("compiles");
    let hexes = rules.hexes.expect("a hex board");
    assert_eq!((hexes.orientation, hexes.across_flats), (cav_format::HexOrientation::Pointy, 1.5));
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/board/topology")
        && d.severity == cav_content::Severity::Warning
        && d.message.contains("played in part")));
    assert!(common::full_rules().hexes.is_none(), "CAV's board is continuous");
}

#[test]
fn board_mistakes_are_errors_at_their_place() {
    let diags =
        common::extension_diagnostics("bad-board", &[("patch.yaml", &patch("{orientation: flat, hex_size: 2}"))]);
    let at = |p: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.message.contains("continuous"));
    assert!(at("/board/orientation") && at("/board/hex_size"), "{diags:#?}");
    let diags = common::extension_diagnostics("no-orientation", &[("patch.yaml", &patch("{topology: hex}"))]);
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/board") && d.message.contains("which way")),
        "{diags:#?}"
    );
    let diags = common::extension_diagnostics(
        "tiny",
        &[("patch.yaml", &patch("{topology: hex, orientation: flat, hex_size: 0}"))],
    );
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/board/hex_size")),
        "the schema bounds the size: {diags:#?}"
    );
}

/// On a hex board ranges and distances are counted in hexes (in hex sizes): three hexes apart is
/// range 3 and two hexes between; neighbours are in contact.
#[test]
fn ranges_on_a_hex_board_count_hexes() {
    use cav_rules::compile::{Hex, HexGeometry};
    let (_, rules) = common::edited_pack("sythopian-wars", "rules/ruleset.yaml", |text| {
        text.replacen("\ndice:", "\nboard: {topology: hex, orientation: flat, hex_size: 2}\ndice:", 1)
    });
    let rules = rules.expect("compiles");
    let g = rules.hexes.unwrap();
    let card = rules.card("raider").unwrap();
    let board = cav_rules::game::Board { size: [48.0, 48.0], areas: Vec::new() };
    let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
    let at = |h: Hex| {
        let c = g.centre(h);
        cav_rules::geom::P::new(c.x + 20.0, c.y + 20.0)
    };
    // (The board's origin is the hex (0, 0)'s centre; models stand well inside it.)
    let origin = g.hex_at(cav_rules::geom::P::new(20.0, 20.0));
    let a = game.add_model(card, 0, at(Hex::ZERO), 0.0);
    let b = game.add_model(card, 1, at(Hex::new(3, 0)), 0.0);
    let c = game.add_model(card, 1, at(Hex::new(0, 1)), 0.0);
    assert_eq!(game.hex_of(a).map(|h| h - origin), Some(Hex::ZERO));
    assert_eq!(HexGeometry::hexes(game.hex_of(a).unwrap(), game.hex_of(b).unwrap()), 3);
    assert_eq!((game.range(a, b), game.distance(a, b)), (6.0, 4.0));
    assert_eq!((game.range(a, c), game.distance(a, c)), (2.0, 0.0));
}

/// Words of hex boards on a continuous board are errors at them: a fraction of MV, a cost for
/// going down, obscurement per hexes, a scenario's `hexes` and a model placed by `hex`.
#[test]
fn hex_words_on_a_continuous_board_are_errors() {
    let terrain = "kind: terrain\nid: half-road\nname: Half road\ncover: none\ncosts: {foot: 1/2, walker: 1}\n\
                   descent_cost: {walker: 1}\nobscurement: {points: 1, per_hexes: 2}\nsummary: Invented.\n";
    let diags = common::extension_diagnostics("hexish", &[("terrain.yaml", terrain)]);
    for at in ["/costs/foot", "/descent_cost", "/obscurement/per_hexes"] {
        assert!(
            diags.iter().any(|d| d.pointer.as_deref() == Some(at) && d.message.contains("continuous")),
            "{at}: {diags:#?}"
        );
    }
    let (diags, _) = common::edited_pack("sythopian-wars", "scenarios/ruins-brawl.yaml", |text| {
        text.replace("{terrain: rubble, at: [16, 24], radius: 4}", "{terrain: rubble, hexes: [[3, 4]]}").replace(
            "{model: marksman, at: [32, 3], unit: Marksman Team}",
            "{model: marksman, hex: [3, 3], unit: Marksman Team}",
        )
    });
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/terrain/0/hexes")), "{diags:#?}");
    assert!(
        diags
            .iter()
            .any(|d| d.pointer.as_deref() == Some("/forces/confederation/5") && d.message.contains("hex board")),
        "{diags:#?}"
    );
}

/// A terrain cost may be a fraction on a hex board: MV is cut into the least common multiple of
/// the denominators (halves and thirds: sixths), and whole costs scale with it.
#[test]
fn fractions_cut_mv_into_parts() {
    let (diags, rules) = common::edited_pack("hex-vehicles", "rules/terrain.yaml", |text| {
        text.replace(
            "costs: {infantry: 4, wheel: 6, track: 4, walker: 6, gev: 1}",
            "costs: {infantry: 4, wheel: 6, track: 4, walker: 6, gev: 1/3}",
        )
    });
    let rules = rules.unwrap_or_else(|| panic!("compiles: {diags:#?}"));
    assert_eq!(rules.mv_parts, 6);
    let t = |id: &str| &rules.terrains[rules.terrain(id).unwrap()];
    let gev = rules.move_classes.iter().position(|m| m == "gev").unwrap();
    assert_eq!(t("swamp").costs[gev], cav_rules::compile::Cost::PerInch(2), "a third is two sixths");
    assert_eq!(t("road").costs[gev], cav_rules::compile::Cost::PerInch(3), "a half is three sixths");
    assert_eq!(t("mud").costs[gev], cav_rules::compile::Cost::PerInch(6), "a whole point is six");
}

/// Obscurement blocks a line of sight where the ruleset says at what total: two hexes of dense
/// forest (2 each) hide a target at 4, not at 5.
#[test]
fn obscurement_blocks_at_the_rulesets_total() {
    use cav_rules::geom::P;
    for (at, seen) in [(4, false), (5, true)] {
        let (diags, rules) = common::edited_pack("hex-vehicles", "rules/ruleset.yaml", |text| {
            text.replacen("  sight:\n", &format!("  sight:\n    obscured_at: {at}\n"), 1)
        });
        let rules = rules.unwrap_or_else(|| panic!("compiles: {diags:#?}"));
        let g = rules.hexes.unwrap();
        let forest = rules.terrain("dense-forest").unwrap();
        let mut board = cav_rules::game::Board { size: [10.0, 10.0], areas: Vec::new() };
        for h in [[2, 1], [2, 2]] {
            let (poly, center, radius) = g.piece(g.from_offset(h));
            board.areas.push(cav_rules::game::Area { terrain: forest, poly, center, radius, lasts: None });
        }
        let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
        let hex = |h| {
            let c = g.centre(g.from_offset(h));
            P::new(c.x, c.y)
        };
        let a = game.add_model(rules.card("bulwark").unwrap(), 0, hex([2, 0]), 0.0);
        let b = game.add_model(rules.card("prowler").unwrap(), 1, hex([2, 3]), 180.0);
        assert_eq!(game.obscurement(a, b), 4);
        assert_eq!(game.sight(a, b, false).0, seen, "obscured_at {at}");
    }
}

/// Defense arcs rise outwards and close at 180°; steps of a modifier rise and do not scale; a
/// terrain value and an action's needed value must be declared.
#[test]
fn arcs_steps_and_values_are_checked() {
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/ruleset.yaml", |text| {
        text.replace("{id: rear-flank, name: Rear flank, up_to: 150}", "{id: rear-flank, name: Rear flank, up_to: 60}")
            .replace("{id: rear, name: Rear, up_to: 180}", "{id: rear, name: Rear, up_to: 170}")
    });
    let at = |p: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.code == "defense-arcs");
    assert!(at("/procedures/sight/defense_arcs/1/up_to") && at("/procedures/sight/defense_arcs/2/up_to"), "{diags:#?}");
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/modifiers.yaml", |text| {
        text.replace("      - {at_most: 50, value: 1}     # half combat speed\n", "")
            .replacen(
                "      - {at_most: 0, value: 2}      # stationary\n",
                "      - {value: 2}\n      - {at_most: 50, value: 1}\n",
                1,
            )
            .replace("    condition: defender-moved\n", "    condition: defender-moved\n    scale: per_count\n")
    });
    let at = |p: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.code == "steps");
    assert!(at("/modifiers/9/steps") && at("/modifiers/10/scale"), "{diags:#?}");
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/terrain.yaml", |text| {
        text.replace("values: {hull-down: 4}", "values: {hul-down: 4}")
    });
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/values/hul-down")
            && d.hint.as_deref().is_some_and(|h| h.contains("hull-down"))),
        "a misspelt value is an error with its did-you-mean: {diags:#?}"
    );
    // A modifier may only read a declared value.
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/modifiers.yaml", |text| {
        text.replace("condition: defender-terrain-hull-down", "condition: defender-terrain-hulldown")
    });
    assert!(diags.iter().any(|d| d.message.contains("defender-terrain-hulldown")), "{diags:#?}");
}

/// A hex off the board, however far, is an error at its place (no panic, no huge line).
#[test]
fn hexes_off_the_board_are_errors() {
    let (diags, _) = common::edited_pack("hex-vehicles", "scenarios/river-crossing.yaml", |text| {
        text.replace(
            "{model: prowler, hex: [8, 1], facing: 0}",
            "{model: prowler, hex: [2147483647, -2147483648], facing: 0}",
        )
        .replace("{terrain: mud, hexes: [[8, 6], [8, 7]]}", "{terrain: mud, hexes: [[8, 6], [-1, 7], [40, 0]]}")
    });
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/forces/north/0") && d.message.contains("not on the")),
        "{diags:#?}"
    );
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/terrain/2/hexes") && d.message.contains("2 of its hexes")),
        "{diags:#?}"
    );
}

/// On a hex board blocking terrain is traced along the hex line, as obscurement is: where the
/// line runs along a hexside, a block on one side leaves the other, and the target is seen
/// (traced in inches, the line would touch the blocking hex); blocks on both sides hide it; the
/// attacker's own hex never does.
#[test]
fn blocking_terrain_is_traced_along_the_hex_line() {
    use cav_rules::compile::HexGeometry;
    use cav_rules::geom::P;
    let (diags, rules) = common::edited_pack("hex-vehicles", "rules/terrain.yaml", |text| {
        text.replacen(
            "id: dense-forest\nname: Dense forest\ncover: none",
            "id: dense-forest\nname: Dense forest\ncover: blocking\nelevation: 2",
            1,
        )
    });
    let rules = rules.unwrap_or_else(|| panic!("compiles: {diags:#?}"));
    let g = rules.hexes.unwrap();
    let forest = rules.terrain("dense-forest").unwrap();
    // (Taller than the models: terrain blocks a line by its height.) Two hexes whose line runs
    // along hexsides (a spine), so the line has two sides.
    let (from, to) = (g.from_offset([2, 4]), g.from_offset([4, 4]));
    let (one, other) = HexGeometry::lines(from, to);
    let other = other.expect("a line along a hexside");
    let side =
        |a: &[cav_rules::compile::Hex], b: &[cav_rules::compile::Hex]| *a.iter().find(|h| !b.contains(h)).unwrap();
    let (left, right) = (side(&one, &other), side(&other, &one));
    let seen = |blocked: &[cav_rules::compile::Hex]| {
        let mut board = cav_rules::game::Board { size: [10.0, 10.0], areas: Vec::new() };
        for &h in blocked {
            let (poly, center, radius) = g.piece(h);
            board.areas.push(cav_rules::game::Area { terrain: forest, poly, center, radius, lasts: None });
        }
        let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
        let at = |h| {
            let c = g.centre(h);
            P::new(c.x, c.y)
        };
        let a = game.add_model(rules.card("bulwark").unwrap(), 0, at(from), 90.0);
        let b = game.add_model(rules.card("prowler").unwrap(), 1, at(to), 270.0);
        game.sight(a, b, false).0
    };
    assert!(seen(&[]));
    assert!(seen(&[left]), "the other side of the hexside is clear");
    assert!(seen(&[right]), "the other side of the hexside is clear");
    assert!(!seen(&[left, right]), "both sides blocked");
    assert!(seen(&[from]), "the attacker's own hex");
    assert!(!seen(&[to]), "the target's hex");
}

/// A terrain's costs by size and its obscurement of small targets name a declared attribute, and
/// the size steps rise.
#[test]
fn size_costs_and_small_targets_are_checked() {
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/terrain.yaml", |text| {
        text.replacen("    - {at_most: 4, as: sparse-forest}\n", "    - {at_most: 1, as: sparse-forest}\n", 1)
            .replacen("small_targets: {attribute: size,", "small_targets: {attribute: bulk,", 1)
            .replacen(
                "size_costs:                # 003 L43-51: forests by vehicle size\n  attribute: size",
                "size_costs:\n  attribute: heft",
                1,
            )
    });
    let at = |p: &str, says: &str| diags.iter().any(|d| d.pointer.as_deref() == Some(p) && d.message.contains(says));
    assert!(at("/size_costs/steps/1/at_most", "do not rise"), "{diags:#?}");
    assert!(at("/obscurement/small_targets/attribute", "bulk"), "{diags:#?}");
    assert!(at("/size_costs/attribute", "heft"), "{diags:#?}");
}

/// A scenario or a scenario test plays only scenario rules (`applies_to: scenario`): a rule of
/// the whole game or a model's special attribute named there is an error at it.
#[test]
fn only_scenario_rules_are_a_scenarios_rules() {
    let (diags, _) = common::edited_pack("hex-vehicles", "tests/movement.yaml", |text| {
        text.replace("rules: [heavy-wind]", "rules: [skidding]")
    });
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/rules/0") && d.code == "scenario-rule"), "{diags:#?}");
    let (diags, _) = common::edited_pack("hex-vehicles", "scenarios/night-crossing.yaml", |text| {
        text.replace("rules: [night]", "rules: [night, walker-knockdown]")
    });
    assert!(diags.iter().any(|d| d.pointer.as_deref() == Some("/rules/1") && d.code == "scenario-rule"), "{diags:#?}");
}

/// The board's index of pieces by hex finds what testing every piece finds: hex pieces, a round
/// piece over several hexes, one too big to index, and a piece laid after the index was built.
#[test]
fn the_index_of_pieces_by_hex_finds_every_piece() {
    use cav_rules::game::{Area, Board};
    use cav_rules::geom::{P, Polygon};
    let rules = common::pack_rules("hex-vehicles");
    let g = rules.hexes.unwrap();
    let mud = rules.terrain("mud").unwrap();
    let mut board = Board { size: [30.0, 30.0], areas: Vec::new() };
    for at in [[2, 3], [2, 4], [7, 7]] {
        let (poly, center, radius) = g.piece(g.from_offset(at));
        board.areas.push(Area { terrain: mud, poly, center, radius, lasts: None });
    }
    for (center, radius) in [(P::new(12.0, 12.0), 3.0), (P::new(15.0, 15.0), 60.0)] {
        board.areas.push(Area {
            terrain: mud,
            poly: Polygon::regular(center, radius, 24),
            center,
            radius,
            lasts: None,
        });
    }
    let mut game = cav_rules::Game::new(&rules, board, vec!["a".into()]);
    let linear = |game: &cav_rules::Game, h| -> Vec<P> {
        let c = g.centre(h);
        game.board.areas.iter().filter(|a| a.poly.contains(c)).map(|a| a.center).collect()
    };
    let check = |game: &cav_rules::Game| {
        for col in 0..36 {
            for row in 0..31 {
                let h = g.from_offset([col, row]);
                let indexed: Vec<P> = game.pieces_in(h).map(|a| a.center).collect();
                assert_eq!(indexed, linear(game, h), "hex [{col}, {row}]");
            }
        }
    };
    check(&game);
    let (poly, center, radius) = g.piece(g.from_offset([20, 20]));
    game.board.areas.push(Area { terrain: mud, poly, center, radius, lasts: None });
    check(&game);
    assert_eq!(game.pieces_in(g.from_offset([20, 20])).count(), 2, "the laid hex and the big round piece");
}

/// On a continuous board obscurement may be counted per inches of the line inside a piece: a fog
/// bank 6" across counts 2 at a point per 3", makes the cover the full rules' woods stacking
/// gives 2 points (heavy), and blocks the line at the ruleset's total; per inches on a hex board
/// is an error.
#[test]
fn obscurement_per_inches_on_a_continuous_board() {
    use cav_rules::game::{Area, Board};
    use cav_rules::geom::{P, Polygon};
    let fog = "kind: terrain\nid: fog-bank\nname: Fog bank\ncover: none\ncosts: {foot: 1, walker: 1}\n\
               obscurement: {points: 1, per_inches: 3}\nsummary: Invented.\n";
    for (at, seen) in [(2, false), (3, true)] {
        let sight = format!(
            "kind: patch\ntarget: {{kind: ruleset, id: cav-full}}\nsummary: A threshold.\nset:\n  procedures:\n    sight:\n      obscured_at: {at}\n"
        );
        let rules = common::extension_rules("foggy", &[("fog.yaml", fog), ("sight.yaml", &sight)]);
        let t = rules.terrain("fog-bank").unwrap();
        let square = Polygon { points: vec![P::new(10., 0.), P::new(16., 0.), P::new(16., 20.), P::new(10., 20.)] };
        let board = Board {
            size: [48.0, 48.0],
            areas: vec![Area { terrain: t, poly: square, center: P::new(13., 10.), radius: 10.5, lasts: None }],
        };
        let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
        let card = rules.card("test-full-assault-cav").unwrap();
        let a = game.add_model(card, 0, P::new(4., 10.), 90.0);
        let b = game.add_model(card, 1, P::new(22., 10.), 270.0);
        assert_eq!(game.obscurement(a, b), 2, "6\" of fog at a point per 3\"");
        assert_eq!(game.sight(a, b, false), (seen, cav_format::Cover::Heavy), "obscured_at {at}");
        // Beside the fog, nothing.
        game.models[b].pos = P::new(4., 30.);
        assert_eq!(game.obscurement(a, b), 0);
    }
    let (diags, _) = common::edited_pack("hex-vehicles", "rules/terrain.yaml", |text| {
        text.replace("obscurement: {points: 1, per_hexes: 2}", "obscurement: {points: 1, per_inches: 2}")
    });
    assert!(
        diags.iter().any(|d| d.pointer.as_deref() == Some("/obscurement/per_inches") && d.message.contains("hex")),
        "{diags:#?}"
    );
}

/// On a hex board a mission-killed model withdraws off the board (the bot's retreat): its path
/// may end in the first hex beyond the edge, and it has left the board; an able model stays on
/// it.
#[test]
fn a_withdrawing_model_leaves_a_hex_board() {
    use cav_rules::geom::P;
    use cav_rules::hooks::NoHooks;
    use cav_rules::{Engine, SeededDice};
    let rules = common::pack_rules("hex-vehicles");
    let g = rules.hexes.unwrap();
    let at = |col, row| {
        let c = g.centre(g.from_offset([col, row]));
        P::new(c.x, c.y)
    };
    let play = |withdrawing: bool| {
        let board = cav_rules::game::Board { size: [40.0, 80.0], areas: Vec::new() };
        let mut game = cav_rules::Game::new(&rules, board, vec!["a".into(), "b".into()]);
        let car = game.add_model(rules.card("prowler").unwrap(), 0, at(4, 1), 180.0);
        // (An enemy withdrawing too, from the middle of the board: it shoots at nothing and
        // is still on the board when the turn ends.)
        let foe = game.add_model(rules.card("bulwark").unwrap(), 1, at(23, 40), 0.0);
        game.models[foe].mission_kill = true;
        game.models[car].mission_kill = withdrawing;
        let (mut dice, mut log) = (SeededDice::new(1), Vec::new());
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        engine.start().unwrap();
        engine.play_turn(&mut cav_rules::bot::Bot::default()).unwrap();
        let m = &engine.game.models[car];
        (m.left_board, m.pos)
    };
    let (left, pos) = play(true);
    assert!(left && pos.y < 0.0, "withdrew past the near edge: {pos:?}");
    let (left, pos) = play(false);
    assert!(!left && pos.y >= 0.0, "an able model stays on the board: {pos:?}");
}

/// What every move and shot asks of the board (`Game::ground`) follows the board as it changes:
/// a hill laid after the first question raises the ground under it.
#[test]
fn the_ground_follows_terrain_laid_in_play() {
    use cav_rules::game::{Area, Board};
    use cav_rules::geom::{P, Polygon};
    let rules = common::full_rules();
    let hill = (0..rules.terrains.len())
        .find(|&t| rules.terrains[t].raises_ground && rules.terrains[t].elevation > 0)
        .expect("the full rules have hills");
    let mut game = cav_rules::Game::new(&rules, Board { size: [48.0, 48.0], areas: Vec::new() }, vec!["a".into()]);
    let p = P::new(10.0, 10.0);
    assert_eq!(game.ground(p), 0);
    game.board.areas.push(Area {
        terrain: hill,
        poly: Polygon::regular(p, 3.0, 12),
        center: p,
        radius: 3.0,
        lasts: None,
    });
    assert_eq!(game.ground(p), rules.terrains[hill].elevation);
}

/// What a move crosses is judged along the hexes it passed, not the straight line from where it
/// began to where it ended: going round a friend in its way, a model crosses the enemy minefield
/// beside the straight line and is attacked by it. (The full rules on a board of 6" hexes.)
#[test]
fn a_move_round_a_model_on_hexes_crosses_the_minefield_beside_it() {
    use cav_rules::compile::HexGeometry;
    use cav_rules::event::Event;
    use cav_rules::geom::P;
    use cav_rules::hooks::NoHooks;
    use cav_rules::{Engine, SeededDice};
    let mut rules = common::full_rules();
    let g = HexGeometry { orientation: cav_format::HexOrientation::Flat, across_flats: 6.0 };
    rules.hexes = Some(g);
    let asset = (0..rules.assets.len())
        .find(|&a| rules.assets[a].id == "anti-personnel-anti-tank-minefield")
        .expect("a minefield against models on the ground");
    let at = |col, row| {
        let c = g.centre(g.from_offset([col, row]));
        P::new(c.x, c.y)
    };
    let warg = rules.card("warg").unwrap();
    let mut game = cav_rules::Game::new(
        &rules,
        cav_rules::game::Board { size: [72.0, 72.0], areas: Vec::new() },
        vec!["a".into(), "b".into()],
    );
    let mover = game.add_model(warg, 0, at(4, 2), 0.0);
    game.add_model(warg, 0, at(4, 4), 0.0);
    game.add_model(warg, 1, at(10, 10), 180.0);
    // Side b's mines in every hex of the columns either side of the mover's.
    for col in [3, 5] {
        for row in 0..9 {
            let (poly, _, _) = g.piece(g.from_offset([col, row]));
            game.lay_minefield(asset, Some(1), 1, poly, None).unwrap();
        }
    }
    let (mut dice, mut log) = (SeededDice::new(1), Vec::new());
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    engine.start().unwrap();
    engine.activate(mover, &mut MoveTo(at(4, 6))).unwrap();
    let end = engine.game.models[mover].pos;
    drop(engine);
    assert!((end.x - at(4, 6).x).abs() < 1e-6, "ended in the mover's own column, the straight line clear: {end:?}");
    assert!(
        log.iter().any(|e| matches!(e, Event::Attack { target, mode: "mines", .. } if *target == mover)),
        "the mines beside the straight line attacked: {log:?}"
    );
}

/// Moves each activated model to one point (its whole activation's move), then passes.
struct MoveTo(cav_rules::geom::P);

impl cav_rules::Controller for MoveTo {
    fn decide(&mut self, g: &cav_rules::Game, _model: usize, _ap: u32) -> cav_rules::Action {
        // (Both Move actions as one move: MV enough to go round.)
        if g.used.is_empty() {
            cav_rules::Action { moves: 2, ..cav_rules::Action::move_to(self.0) }
        } else {
            cav_rules::Action::pass()
        }
    }
}

/// A model leaves a hex board only towards a point off it: a model whose hex's centre lies just
/// past the edge moves back onto the board like any other, and one that may leave, sent to a
/// point on the board whose hex's centre is past the edge, stays on it.
#[test]
fn a_hex_move_leaves_the_board_only_towards_a_point_off_it() {
    use cav_rules::geom::P;
    use cav_rules::hooks::NoHooks;
    use cav_rules::{Engine, SeededDice};
    let rules = common::pack_rules("hex-vehicles");
    let g = rules.hexes.unwrap();
    let board = || cav_rules::game::Board { size: [10.0, 10.0], areas: Vec::new() };
    let run = |start: P, to: P, withdrawing: bool| {
        let mut game = cav_rules::Game::new(&rules, board(), vec!["a".into(), "b".into()]);
        let car = game.add_model(rules.card("prowler").unwrap(), 0, start, 270.0);
        game.add_model(rules.card("bulwark").unwrap(), 1, P::new(2.0, 9.0), 0.0);
        game.models[car].mission_kill = withdrawing;
        let (mut dice, mut log) = (SeededDice::new(1), Vec::new());
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        engine.start().unwrap();
        engine.activate(car, &mut MoveTo(to)).unwrap();
        let m = &engine.game.models[car];
        (m.left_board, m.pos)
    };
    // (The hex of a point at the right edge has its centre past it.)
    let edge = P::new(10.0, 5.0);
    assert!(!g.on_board(g.hex_at(edge), [10.0, 10.0]), "the test needs a hex whose centre is off the board");
    let (left, pos) = run(edge, P::new(5.0, 5.0), false);
    assert!(!left && pos.x < 10.0, "moved back onto the board: {pos:?}");
    let (left, pos) = run(P::new(6.0, 5.0), P::new(9.99, 5.0), true);
    assert!(!left && pos.x <= 10.0, "a point on the board keeps a withdrawing model on it: {pos:?}");
}
