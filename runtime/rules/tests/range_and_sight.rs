//! Range measurement and models on the line of sight are properties of each ruleset's data
//! (`procedures.sight`): the full rules measure centre to centre and let no model obstruct
//! (001 L3918, L3940-3942, L4527-4534); the Quick-Start measures edge to edge and lets CAVs block
//! (000 L671, L689-699). The full rules carry no model cards of their own, so these use the
//! bundled mod's Fenrir (a CAV) under the full rules.

use std::path::Path;

use cav_format::{Cover, RangeMeasure};
use cav_rules::game::{Board, Shot};
use cav_rules::geom::P;
use cav_rules::{Game, Rules};

fn rules(id: &str) -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content"), root.join("mods")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0);
    cav_compile::compile_rules(loaded.ruleset(id).unwrap()).unwrap()
}

/// Models of one card in a line along +y, the first facing the others.
fn line_up<'r>(rules: &'r Rules, card: &str, ys: &[f64]) -> Game<'r> {
    let card = rules.card(card).unwrap();
    let mut g = Game::new(rules, Board { size: [48.0, 48.0], areas: vec![] }, vec!["red".into(), "blue".into()]);
    for (i, y) in ys.iter().enumerate() {
        g.add_model(card, usize::from(i + 1 == ys.len()), P::new(10.0, *y), 0.0);
    }
    g
}

#[test]
fn the_full_rules_measure_range_centre_to_centre() {
    let full = rules("cav-full");
    assert_eq!(full.proc.sight.range_measured, RangeMeasure::CentreToCentre);
    let g = line_up(&full, "fenrir", &[5.0, 17.5]);
    let radius = g.card(0).base_radius;
    assert!(radius > 0.0);
    assert!((g.range(0, 1) - 12.5).abs() < 1e-9, "centre to centre: {}", g.range(0, 1));
    // Base contact is still about the gap between the bases.
    assert!((g.distance(0, 1) - (12.5 - 2.0 * radius)).abs() < 1e-9);
    // The Medium MAC (RNG 12): 12.5" between centres is the medium band, whatever the gap is.
    match g.shot(0, 0, 1, false) {
        Shot::Direct { band, distance } => {
            assert_eq!(full.bands[band].name, full.bands[1].name);
            assert!((distance - 12.5).abs() < 1e-9);
        }
        other => panic!("the MAC should fire: {other:?}"),
    }
}

#[test]
fn the_quick_start_measures_range_edge_to_edge_and_the_data_decides() {
    let mut qs = rules("cav-quickstart");
    assert_eq!(qs.proc.sight.range_measured, RangeMeasure::EdgeToEdge);
    {
        let g = line_up(&qs, "dictator-b", &[5.0, 17.5]);
        let gap = 12.5 - 2.0 * g.card(0).base_radius;
        assert!((g.range(0, 1) - gap).abs() < 1e-9);
        assert!(matches!(g.shot(0, 0, 1, false), Shot::Direct { band: 0, .. }), "11\" apart: short band");
    }
    qs.proc.sight.range_measured = RangeMeasure::CentreToCentre;
    let g = line_up(&qs, "dictator-b", &[5.0, 17.5]);
    assert!((g.range(0, 1) - 12.5).abs() < 1e-9);
    assert!(matches!(g.shot(0, 0, 1, false), Shot::Direct { band: 1, .. }), "12.5\" centre to centre: medium");
}

#[test]
fn in_the_full_rules_no_model_obstructs_a_line_of_sight() {
    let full = rules("cav-full");
    assert!(full.proc.sight.model_cover.is_empty());
    let mut g = line_up(&full, "fenrir", &[5.0, 11.0, 17.0]);
    assert_eq!(g.sight(0, 2, false), (true, Cover::None), "a standing CAV between them");
    g.models[1].prone = true;
    assert_eq!(g.sight(0, 2, false), (true, Cover::None), "a prone CAV between them");
}

#[test]
fn in_the_quick_start_a_standing_cav_blocks_and_a_prone_one_next_to_the_target_is_light_cover() {
    let qs = rules("cav-quickstart");
    let mut g = line_up(&qs, "dictator-b", &[5.0, 11.0, 17.0]);
    assert_eq!(g.sight(0, 2, false), (false, Cover::Blocking));
    // Guided missiles and rockets ignore intervening cover (000 L685).
    assert_eq!(g.sight(0, 2, true), (true, Cover::None));
    g.models[1].prone = true;
    assert_eq!(g.sight(0, 2, false), (true, Cover::None), "prone and next to neither: lower than both");
    g.models[1].pos = P::new(10.0, 15.0);
    assert_eq!(g.sight(0, 2, false), (true, Cover::Light), "prone within 1\" of the target");
    g.models[1].destroyed = true;
    assert_eq!(g.sight(0, 2, false), (true, Cover::None), "a destroyed model is no longer a model on the line");
}
