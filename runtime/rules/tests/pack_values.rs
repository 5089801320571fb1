//! The rule values that moved from Rust into the ruleset packs are read from there: change the
//! compiled value and the game changes with it (the Quick-Start worked examples are the baseline).

use std::path::Path;

use cav_format::{DocKind, Document, ModelTrait, Test};
use cav_rules::compile::Traits;
use cav_rules::testing::{TestOutcome, run_test};
use cav_rules::{Event, Rules};

fn load() -> cav_content::Loaded {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content")],
        library: vec![root.join("content"), root.join("mods")],
    });
    assert_eq!(loaded.error_count(), 0);
    loaded
}

fn quickstart(loaded: &cav_content::Loaded) -> Rules {
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

fn test_doc(loaded: &cav_content::Loaded, id: &str) -> Test {
    match loaded.ruleset("cav-quickstart").unwrap().get(DocKind::Test, id).unwrap().doc.as_deref() {
        Some(Document::Test(t)) => t.clone(),
        _ => panic!("no test {id}"),
    }
}

fn activation_ap(out: &TestOutcome, model: usize) -> Vec<u32> {
    out.events
        .iter()
        .filter_map(|e| match e {
            Event::Activation { model: m, ap } if *m == model => Some(*ap),
            _ => None,
        })
        .collect()
}

fn roll_mods(out: &TestOutcome, model: usize, kind: &str) -> Vec<i32> {
    out.events
        .iter()
        .find_map(|e| match e {
            Event::Roll(r) if r.model == model && r.kind == kind => Some(r.mods.iter().map(|m| m.value).collect()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn defensive_fire_cost_and_bonuses_come_from_the_pack() {
    let loaded = load();
    let t = test_doc(&loaded, "qs-defensive-fire");
    let qs = quickstart(&loaded);
    let base = run_test(&qs, &t);
    assert!(base.passed(), "{:?}", base.failures);
    // Blue (model 1) shoots back; its own activation keeps both AP at the Quick-Start's cost 0,
    // and its defensive roll drops Wizzo's +1 (the Quick-Start drops every bonus).
    assert_eq!(activation_ap(&base, 1), vec![2]);
    let defensive = |out: &TestOutcome| {
        out.events.iter().skip_while(|e| !matches!(e, Event::DefensiveFire { .. })).find_map(|e| match e {
            Event::Roll(r) if r.model == 1 => Some(r.mods.iter().map(|m| m.value).collect::<Vec<_>>()),
            _ => None,
        })
    };
    assert!(defensive(&base).unwrap().iter().all(|v| *v <= 0));

    let mut costly = qs.clone();
    costly.action_costs.insert("defensive-fire".into(), 2);
    if let Some(d) = costly.proc.defensive_fire.as_mut() {
        d.drops_bonuses = false;
    }
    let out = run_test(&costly, &t);
    assert_eq!(activation_ap(&out, 1), vec![0], "the 2 AP are paid from blue's next activation");
    assert!(defensive(&out).unwrap().iter().any(|v| *v > 0), "the bonus stays when the pack keeps bonuses");
}

#[test]
fn open_ground_cost_comes_from_the_pack() {
    let loaded = load();
    let t = test_doc(&loaded, "qs-move-two-actions-open");
    let mut rules = quickstart(&loaded);
    assert!(run_test(&rules, &t).passed());
    rules.proc.movement.open_ground_cost = 2;
    let out = run_test(&rules, &t);
    let moved: f64 = out
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { model: 0, from, to, .. } => Some(from.dist(*to)),
            _ => None,
        })
        .sum();
    assert!((moved - 8.0).abs() < 0.51, "MV 8 twice at 2 MV per inch is 8\", moved {moved}");
}

#[test]
fn repair_restores_what_the_pack_says() {
    let loaded = load();
    let t = test_doc(&loaded, "qs-repair");
    let mut rules = quickstart(&loaded);
    let repair = rules.proc.repair.as_mut().expect("the Quick-Start has repair rules");
    repair.restores = 2;
    repair.lingering_damage = 0;
    let out = run_test(&rules, &t);
    assert!(out.events.iter().any(|e| matches!(e, Event::Repaired { points: 2, .. })), "{:?}", out.events);
}

#[test]
fn pilot_checks_follow_the_model_type_traits() {
    let loaded = load();
    let t = test_doc(&loaded, "qs-pilot-check-failure");
    let mut rules = quickstart(&loaded);
    let has_check =
        |out: &TestOutcome| out.events.iter().any(|e| matches!(e, Event::Roll(r) if r.kind == "pilot-check"));
    assert!(has_check(&run_test(&rules, &t)));
    let cav = rules.type_ix("cav").expect("the Quick-Start rules declare CAVs");
    rules.proc.model_types[cav.0 as usize].traits = Traits::of(&[ModelTrait::LeavesWreck]);
    assert!(!has_check(&run_test(&rules, &t)), "a CAV without the pilot-checks trait makes no pilot check");
}

#[test]
fn the_break_roll_reads_the_break_table() {
    let loaded = load();
    let t = test_doc(&loaded, "qs-break-from-close-combat");
    let mut rules = quickstart(&loaded);
    assert_eq!(roll_mods(&run_test(&rules, &t), 0, "break"), vec![3, -2]);
    rules.break_mods.iter_mut().for_each(|m| m.value *= 2);
    assert_eq!(roll_mods(&run_test(&rules, &t), 0, "break"), vec![3, -4]);
}

/// `cav validate` refuses a scenario test naming a model that does not exist; the runner still
/// refuses it with a clear error when handed one directly.
#[test]
fn the_runner_refuses_an_unknown_model() {
    let loaded = load();
    let mut t = test_doc(&loaded, "qs-bad-off-board");
    t.models[0].model = "dictator-c".into();
    t.expect.error = None;
    let out = run_test(&quickstart(&loaded), &t);
    assert!(!out.passed());
    assert!(out.failures.iter().any(|f| f.contains("unknown model `dictator-c`")), "{:?}", out.failures);
}

/// `back-arc` (added as one file and its vocabulary entry): a row with it applies only to a shot
/// from behind.
#[test]
fn back_arc_holds_only_from_behind() {
    let loaded = load();
    let mut t = test_doc(&loaded, "qs-defensive-fire");
    t.reactions.clear();
    t.expect = Default::default();
    let mut rules = quickstart(&loaded);
    let back = cav_rules::game::conditions::find("back-arc").expect("back-arc is a condition");
    rules.combat_mods.push(cav_rules::compile::Mod {
        name: "back arc".into(),
        value: 3,
        scale: cav_rules::compile::Scale::Once,
        max: None,
        max_per_weapon: false,
        cond: cav_rules::compile::Cond { id: back, arg: 0 },
        also: vec![],
        steps: Box::new([]),
        count: cav_rules::compile::Cond::NEVER,
    });
    // Blue faces red: red is in its front arc.
    assert!(!roll_mods(&run_test(&rules, &t), 0, "combat").contains(&3));
    t.models[1].facing = 0.0; // blue turns its back on red
    assert!(roll_mods(&run_test(&rules, &t), 0, "combat").contains(&3));
}

/// A ruleset's `features:` says what it plays beside the turn's core: the full rules list C3, and
/// the motivate test gets its action point; the same rules with C3 left out of the list play no
/// C3 point (the Quick-Start lists no C3).
#[test]
fn the_features_a_ruleset_lists_are_the_ones_it_plays() {
    let loaded = load();
    let full = cav_compile::compile_rules(loaded.ruleset("cav-full").unwrap()).unwrap();
    let t = match loaded
        .ruleset("cav-full")
        .unwrap()
        .get(DocKind::Test, "full-c3-motivate-gives-an-action-point")
        .unwrap()
        .doc
        .as_deref()
    {
        Some(Document::Test(t)) => t.clone(),
        _ => panic!("no motivate test"),
    };
    let c3_spent = |out: &TestOutcome| out.events.iter().filter(|e| matches!(e, Event::C3Spent { .. })).count();
    let listed = full.features.clone().expect("the full rules list their features");
    assert!(listed.contains(&cav_format::vocab::Feature::C3));
    let with_c3 = run_test(&full, &t);
    assert!(with_c3.passed(), "{:?}", with_c3.failures);
    assert_eq!(c3_spent(&with_c3), 1);

    let mut without = full.clone();
    without.features = Some(listed.into_iter().filter(|f| *f != cav_format::vocab::Feature::C3).collect());
    let out = run_test(&without, &t);
    assert_eq!(c3_spent(&out), 0, "no C3 point is spent where the ruleset does not list c3");
    assert!(!out.passed(), "the motivate test expects the extra action point");

    let qs = quickstart(&loaded).features.expect("the Quick-Start lists its features");
    assert!(!qs.contains(&cav_format::vocab::Feature::C3) && qs.contains(&cav_format::vocab::Feature::Deployment));
}
