//! An attack by the ruleset's roll kinds (`procedures.attack`): a game whose shots are not CAV's
//! 2d6 against a band states its hit roll, the target's opposing roll and the damage roll as data,
//! and the engine, the bots and the log read them — no script forcing a verdict.

mod common;

use cav_rules::geom::P;
use cav_rules::hooks::NoHooks;
use cav_rules::{Action, Controller, Engine, Event, ForcedDice, Game, Rules};

/// A stand-alone pack of an invented skirmish game: `ruleset` is the ruleset document's tail
/// (after its common head), `models` the model and weapon documents.
fn game_pack(ruleset: &str, models: &[(&str, &str)]) -> Rules {
    game_pack_with(ruleset, models, &[]).1
}

/// `game_pack` with `extra` files (path in the pack, text); its warnings too.
fn game_pack_with(ruleset: &str, models: &[(&str, &str)], extra: &[(&str, &str)]) -> (Vec<String>, Rules) {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("skirmish");
    std::fs::create_dir_all(pack.join("rules")).unwrap();
    std::fs::create_dir_all(pack.join("scripts")).unwrap();
    let head = "kind: ruleset\nid: skirmish\nname: Skirmish\nsummary: Invented.\n\
                turn_order: {scheme: alternating, pool: {name: command point, per_unit: 1}}\naction_points: 1\n\
                dice: {standard: 1d6}\nturn_limit: 6\nmodel_types: {infantry: {height: 1, base_size: 1}}\n\
                tables: {range_bands: bands}\n";
    let mut files = vec![
        (
            "pack.yaml".to_owned(),
            "id: skirmish\nname: Skirmish\nversion: 0.1.0\nkind: ruleset\ngame: skirmish\nlicense: CC0-1.0\nscripts: [scripts]\n"
                .to_owned(),
        ),
        ("rules/ruleset.yaml".to_owned(), format!("{head}{ruleset}")),
        (
            "rules/bands.yaml".to_owned(),
            "kind: range_bands\nid: bands\nname: Bands\nbands: [{id: in-range, name: In range, multiplier: 1}]\n"
                .to_owned(),
        ),
        (
            "rules/faction.yaml".to_owned(),
            "kind: faction\nid: open\nname: Open\nclass: independent\nsummary: Invented.\n".to_owned(),
        ),
        ("rules/foot.yaml".to_owned(), "kind: move_class\nid: foot\nname: Foot\nsummary: Invented.\n".to_owned()),
        (
            "rules/actions.yaml".to_owned(),
            "kind: action_type\nid: move\nname: Move\ncategory: repeatable\ncost: 1\nsummary: Invented.\n---\n\
             kind: action_type\nid: combat\nname: Shoot\ncategory: non_repeatable\ncost: 1\nsummary: Invented.\n"
                .to_owned(),
        ),
    ];
    for (name, text) in models {
        files.push((format!("rules/{name}.yaml"), (*text).to_owned()));
    }
    for (path, text) in &files {
        std::fs::write(pack.join(path), text).unwrap();
    }
    for (path, text) in extra {
        let file = pack.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![pack], library: vec![] });
    let compiled = cav_compile::validate(&mut loaded);
    let errors: Vec<_> = loaded.diagnostics.iter().filter(|d| d.severity == cav_content::Severity::Error).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let warnings = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == cav_content::Severity::Warning)
        .map(|d| d.message.clone())
        .collect();
    (warnings, compiled.into_iter().flatten().next().expect("the skirmish game compiles"))
}

/// A trooper card: `attributes` its attribute values, carrying `weapon`.
fn trooper(id: &str, attributes: &str, weapon: &str) -> String {
    format!(
        "kind: model\nid: {id}\nname: {id}\nfaction: Open\nmodel_type: infantry\nmove_class: foot\n\
         damage_track: {{damage_tracks: 3, mv: 4}}\nattributes: {attributes}\n\
         weapons: [{{weapon: {weapon}, quantity: 1, mount: [F]}}]\nsummary: Invented.\n"
    )
}

/// `shooter` fires its weapon once at `target` 10" away, the dice forced to `faces`; the log.
fn one_shot(rules: &Rules, shooter: &str, target: &str, faces: &[u32]) -> (Vec<Event>, u32) {
    let mut game = Game::new(
        rules,
        cav_rules::game::Board { size: [24.0, 24.0], areas: Vec::new() },
        vec!["red".into(), "blue".into()],
    );
    let me = game.add_model(rules.card(shooter).unwrap(), 0, P::new(12.0, 2.0), 0.0);
    let them = game.add_model(rules.card(target).unwrap(), 1, P::new(12.0, 12.0), 180.0);
    let mut dice = ForcedDice::new(faces.iter().copied());
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    struct Once(Option<Action>);
    impl Controller for Once {
        fn decide(&mut self, _: &Game, _: usize, _: u32) -> Action {
            self.0.take().unwrap_or_else(Action::pass)
        }
    }
    engine.activate(me, &mut Once(Some(Action::fire(them, vec![0])))).unwrap();
    let damage = engine.game.models[them].damage;
    assert_eq!(dice.remaining(), 0, "every forced die was rolled: {log:#?}");
    (log, damage)
}

/// The rolls of the log: (model, kind, natural faces, success).
fn rolls(log: &[Event]) -> Vec<(usize, String, Vec<u32>, Option<bool>)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Roll(r) => Some((r.model, r.kind.to_string(), r.natural.clone(), r.success)),
            _ => None,
        })
        .collect()
}

/// Sythopian Wars' shooting (002 L208, L278-282): per RoF die a target lock, a d6 at most the
/// shooter's Resolve (a natural 1 a direct hit, a natural 6 always a miss); each lock rolls for
/// damage, at least the target's Resolve less the weapon's Force, never below 2 — and beyond a 6,
/// a 6 and then another (Act of Ziron, 002 L32).
const SYTHOPIAN: &str = "\
attributes:
  - {id: resolve, name: Resolve, min: 0, max: 10, summary: Invented.}
  - {id: mv, name: Move, per_column: true, role: move, summary: Invented.}
weapon_attributes:
  - {id: rof, name: RoF, default: 1, min: 0, max: 10, summary: Invented.}
  - {id: force, name: Force, default: 0, min: -5, max: 10, summary: Invented.}
roll_kinds:
  - {id: target-lock, dice: 1d6, succeeds: at_most, natural: [{at_most: 1, result: critical}, {at_least: 6, result: failure}], summary: Invented.}
  - {id: damage, dice: 1d6, succeeds: at_least, beyond_reach: max_then_roll_again, summary: Invented.}
procedures:
  attack:
    rolls: [{of: weapon, attribute: rof}]
    hit: {roll: target-lock, target: [{of: attacker, attribute: resolve}]}
    damage:
      roll: damage
      target: [{of: target, attribute: resolve}, {of: weapon, attribute: force, times: -1}]
      min: 2
";

fn sythopian() -> Rules {
    game_pack(
        SYTHOPIAN,
        &[
            ("line", &trooper("line", "{resolve: 4}", "rifle")),
            ("elite", &trooper("elite", "{resolve: 6}", "rifle")),
            ("gunner", &trooper("gunner", "{resolve: 4}", "cannon")),
            ("hulk", &trooper("hulk", "{resolve: 8}", "rifle")),
            (
                "rifle",
                "kind: weapon\nid: rifle\nname: Rifle\nfire: direct\nrange: 24\nattributes: {rof: 3, force: 1}\nsummary: Invented.\n",
            ),
            (
                "cannon",
                "kind: weapon\nid: cannon\nname: Cannon\nfire: direct\nrange: 24\nattributes: {rof: 2, force: 5}\nsummary: Invented.\n",
            ),
        ],
    )
}

#[test]
fn a_target_lock_rolls_under_the_shooters_resolve_and_each_lock_rolls_for_damage() {
    let rules = sythopian();
    // Three locks at Resolve 4: 1 (a direct hit), 5 (over), 3; damage at 4 − 1 = 3+: 2 fails, 6 deals.
    let (log, damage) = one_shot(&rules, "line", "line", &[1, 5, 3, 2, 6]);
    let r = rolls(&log);
    let kinds: Vec<(&str, Option<bool>)> = r.iter().map(|(_, k, _, s)| (k.as_str(), *s)).collect();
    assert_eq!(
        kinds,
        [
            ("target-lock", Some(true)),
            ("target-lock", Some(false)),
            ("target-lock", Some(true)),
            ("damage", Some(false)),
            ("damage", Some(true))
        ],
        "{log:#?}"
    );
    assert!(
        matches!(&log.iter().find(|e| matches!(e, Event::Roll(_))), Some(Event::Roll(x)) if x.critical == Some("success"))
    );
    assert!(log.iter().any(|e| matches!(e, Event::DamagePoints { hits: 2, dealing: 1, damage: 1, .. })), "{log:#?}");
    assert_eq!(damage, 1);
    // A natural 6 misses even at Resolve 6; a 5 locks.
    let (log, _) = one_shot(&rules, "elite", "line", &[6, 5, 6, 3]);
    let locks: Vec<Option<bool>> = rolls(&log).iter().filter(|x| x.1 == "target-lock").map(|x| x.3).collect();
    assert_eq!(locks, [Some(false), Some(true), Some(false)]);
}

#[test]
fn force_never_brings_the_damage_roll_below_its_least_and_beyond_a_six_needs_two() {
    let rules = sythopian();
    // Force 5 against Resolve 4 would need −1: the least is 2, so a 1 fails and a 2 deals.
    let (log, damage) = one_shot(&rules, "gunner", "line", &[2, 3, 1, 2]);
    let dmg: Vec<(Option<i32>, Option<bool>)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Roll(r) if r.kind == "damage" => Some((r.target, r.success)),
            _ => None,
        })
        .collect();
    assert_eq!(dmg, [(Some(2), Some(false)), (Some(2), Some(true))], "{log:#?}");
    assert_eq!(damage, 1);
    // Resolve 8 − Force 1 needs 7: one lock (2; the 6s miss), then a 6 and a 6 deals; a 6 and a
    // 5 does not.
    let (log, damage) = one_shot(&rules, "line", "hulk", &[2, 6, 6, 6, 6]);
    assert_eq!(damage, 1, "{log:#?}");
    let (_, damage) = one_shot(&rules, "line", "hulk", &[2, 6, 6, 6, 5]);
    assert_eq!(damage, 0);
}

/// Infinity's face-to-face roll (004 L606-614): the target's one Dodge roll (d20 at most PH 10)
/// against every die of the burst (d20 at most BS 14: BS 11 with the +3 of the range, written
/// into the card here): failures are discarded, the higher success cancels the lower. The
/// dodger's 9 cancels the shooter's 3 and 5; 17 fails; 12 beats it — one hit, and one ARM roll,
/// made by the target: d20 + ARM must beat the weapon's Damage, and a failure is a wound.
const INFINITY: &str = "\
attributes:
  - {id: bs, name: BS, summary: Invented.}
  - {id: mv, name: Move, per_column: true, role: move, summary: Invented.}
  - {id: ph, name: PH, summary: Invented.}
  - {id: arm, name: ARM, default: 0, summary: Invented.}
weapon_attributes:
  - {id: burst, name: Burst, default: 1, summary: Invented.}
  - {id: damage, name: Damage, summary: Invented.}
roll_kinds:
  - {id: d20, dice: 1d20, succeeds: at_most, critical_on_target: true, summary: Invented.}
  - {id: armor, dice: 1d20, succeeds: at_least, summary: Invented.}
contests:
  - {id: face-to-face, roll: d20, compare: best_success, ties: both_cancel, critical_wins: true, summary: Invented.}
procedures:
  attack:
    rolls: [{of: weapon, attribute: burst}]
    hit: {roll: d20, target: [{of: attacker, attribute: bs}]}
    opposed:
      contest: face-to-face
      answers:
        - {id: dodge, name: Dodge, target: [{of: target, attribute: ph}]}
        - {id: shoot, name: Shoot back, shoots: true}
    reaction_rolls: [{value: 1}]
    damage:
      roll: armor
      by: target
      deals_on: failure
      target: [{of: weapon, attribute: damage}, {of: target, attribute: arm, times: -1}, {value: 1}]
";

/// The `INFINITY` game with two troopers of these attributes (ids `a`, `b`) and a Combi Rifle of
/// this burst (damage 13).
fn infinity_duel(a: (&str, &str), b: (&str, &str), burst: u32) -> Rules {
    let rifle = format!(
        "kind: weapon\nid: rifle\nname: Combi Rifle\nfire: direct\nrange: 24\nattributes: {{burst: {burst}, damage: 13}}\nsummary: Invented.\n"
    );
    game_pack(INFINITY, &[(a.0, &trooper(a.0, a.1, "rifle")), (b.0, &trooper(b.0, b.1, "rifle")), ("rifle", &rifle)])
}

#[test]
fn one_dodge_against_every_die_of_a_burst_and_a_save_by_the_target() {
    let rules = infinity_duel(("shooter", "{bs: 14, ph: 10}"), ("dodger", "{bs: 11, ph: 10, arm: 1}"), 4);
    // Burst 3, 5, 17, 12; the dodge 9; the ARM roll 12 + 1 does not beat Damage 13: a wound.
    let (log, damage) = one_shot(&rules, "shooter", "dodger", &[3, 5, 17, 12, 9, 12]);
    assert!(log.iter().any(|e| matches!(e, Event::Opposed { standing: 1, theirs_standing: 0, .. })), "{log:#?}");
    let armor: Vec<(usize, Option<i32>, Option<bool>)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Roll(r) if r.kind == "armor" => Some((r.model, r.target, r.success)),
            _ => None,
        })
        .collect();
    assert_eq!(armor, [(1, Some(13), Some(false))], "the target rolls once, needing 13");
    assert_eq!(damage, 1);
    // A dodge of 10 at PH 10 is a critical, which beats every success that is not: no hit, no
    // ARM roll.
    let (log, damage) = one_shot(&rules, "shooter", "dodger", &[3, 5, 17, 12, 10]);
    assert!(log.iter().any(|e| matches!(e, Event::Opposed { standing: 0, theirs_standing: 1, .. })));
    assert_eq!(damage, 0);
    // A saved ARM roll (13 + 1 = 14 beats 13) deals nothing.
    let (_, damage) = one_shot(&rules, "shooter", "dodger", &[3, 5, 17, 12, 9, 13]);
    assert_eq!(damage, 0);
}

/// Bots read the attack's roll kinds: they fire, and a game between them ends with damage dealt.
#[test]
fn bots_fire_under_a_rolled_attack() {
    let rules = sythopian();
    let mut game = Game::new(
        &rules,
        cav_rules::game::Board { size: [36.0, 36.0], areas: Vec::new() },
        vec!["red".into(), "blue".into()],
    );
    let line = rules.card("line").unwrap();
    game.add_model(line, 0, P::new(18.0, 2.0), 0.0);
    game.add_model(line, 1, P::new(18.0, 34.0), 180.0);
    let mut dice = cav_rules::SeededDice::new(3);
    let mut log = Vec::new();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
    let mut bot = cav_rules::bot::Bot::default();
    for _ in 0..6 {
        if engine.play_turn(&mut bot).unwrap().is_some() {
            break;
        }
    }
    let dealt: u32 = engine.game.damage_dealt.iter().sum();
    assert!(log.iter().any(|e| matches!(e, Event::Roll(r) if r.kind == "target-lock")), "the bots fired");
    assert!(dealt > 0, "and dealt damage");
}

/// The exact odds of a rolled attack walk each damage roll as the ranges of faces that judge
/// alike (`Dice::roll_in_ranges`): the same odds as walking every face.
#[test]
fn exact_odds_by_ranges_equal_the_odds_by_faces() {
    use cav_rules::odds::{Attack, AttackSpec, Budget, exact, exact_by_faces, exact_replaying};
    let rules = sythopian();
    let spec = AttackSpec {
        attacker: "line".into(),
        target: "hulk".into(),
        weapons: vec![0],
        range: 10.0,
        attacker_states: vec![],
        target_states: vec![],
        attacker_damage: 0,
        target_damage: 0,
        cover: None,
        answer: None,
    };
    let attack = Attack::new(&rules, &spec, &mut NoHooks).unwrap();
    let short = exact(&attack, &mut NoHooks, &mut Budget::default()).unwrap();
    let long = exact_by_faces(&attack, &mut NoHooks, &mut Budget::default()).unwrap();
    assert_eq!(short.outcomes, long.outcomes);
    assert!(short.leaves < long.leaves, "{} < {}", short.leaves, long.leaves);
    let whole = exact_replaying(&attack, &mut NoHooks, &mut Budget::default()).unwrap();
    assert_eq!((short.outcomes.clone(), short.resumed, whole.resumed), (whole.outcomes, short.leaves - 1, 0));
    // Three locks at Resolve 4 (faces 1-4 of 6); damage against Resolve 8 − Force 1 needs 7: a 6
    // and a 6, 1/36 a lock.
    let p_one = 4.0 / 6.0 / 36.0;
    let none = (1.0f64 - p_one).powi(3);
    let undamaged: f64 =
        short.outcomes.iter().filter(|(o, _)| o.damage == 0 && o.no_attack.is_none()).map(|(_, c)| c.value()).sum();
    assert!((undamaged - none).abs() < 1e-12, "{undamaged} vs {none}");
}

/// What `procedures.attack` names must exist, and a term is an attribute or a value: each error
/// at its place, all of them, and no error of what an attack makes unneeded (a damage table).
/// The errors (pointer, message) of a one-trooper skirmish pack under ruleset body `ruleset`,
/// its trooper carrying `attributes`.
fn errors_of(ruleset: &str, attributes: &str) -> Vec<(String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("skirmish");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: skirmish\nname: Skirmish\nversion: 0.1.0\nkind: ruleset\ngame: skirmish\nlicense: CC0-1.0\n",
    )
    .unwrap();
    let head = "kind: ruleset\nid: skirmish\nname: Skirmish\nsummary: Invented.\n\
                turn_order: {scheme: alternating, pool: {name: command point, per_unit: 1}}\naction_points: 1\n\
                dice: {standard: 1d6}\nturn_limit: 6\nmodel_types: {infantry: {height: 1, base_size: 1}}\n\
                tables: {range_bands: bands}\n";
    std::fs::write(pack.join("ruleset.yaml"), format!("{head}{ruleset}")).unwrap();
    std::fs::write(
        pack.join("bands.yaml"),
        "kind: range_bands\nid: bands\nname: Bands\nbands: [{id: in-range, name: In range, multiplier: 1}]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("rifle.yaml"),
        "kind: weapon\nid: rifle\nname: Rifle\nfire: direct\nrange: 24\nsummary: Invented.\n",
    )
    .unwrap();
    std::fs::write(pack.join("foot.yaml"), "kind: move_class\nid: foot\nname: Foot\nsummary: Invented.\n").unwrap();
    std::fs::write(
        pack.join("open.yaml"),
        "kind: faction\nid: open\nname: Open\nclass: independent\nsummary: Invented.\n",
    )
    .unwrap();
    std::fs::write(pack.join("line.yaml"), trooper("line", attributes, "rifle")).unwrap();
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![pack], library: vec![] });
    cav_compile::validate(&mut loaded);
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == cav_content::Severity::Error)
        .map(|d| (d.pointer.clone().unwrap_or_default(), d.message.clone()))
        .collect()
}

#[test]
fn an_attack_naming_what_the_ruleset_lacks_is_an_error_at_each_place() {
    let broken = SYTHOPIAN
        .replace(
            "rolls: [{of: weapon, attribute: rof}]",
            "rolls: [{of: weapon, attribute: rofx}, {value: 1, of: weapon, attribute: rof}]",
        )
        .replace("roll: damage\n", "roll: damagex\n")
        .replace("min: 2", "min: 3\n      max: 2");
    let errors = errors_of(&broken, "{resolve: 4}");
    let at = |p: &str| errors.iter().any(|(ptr, _)| ptr == p);
    assert!(at("/procedures/attack/rolls/0/attribute"), "{errors:#?}");
    assert!(at("/procedures/attack/rolls/1"), "{errors:#?}");
    assert!(at("/procedures/attack/damage/roll"), "{errors:#?}");
    assert!(at("/procedures/attack/damage/min"), "{errors:#?}");
    assert_eq!(errors.len(), 4, "nothing else, no missing damage table: {errors:#?}");
}

/// The RAV (`role: rav`) depends on the target and is read by the damage against armour: a term
/// naming it is an error at the term.
#[test]
fn a_term_cannot_read_the_rav() {
    let with_rav = SYTHOPIAN
        .replace(
            "weapon_attributes:\n",
            "weapon_attributes:\n  - {id: rav, name: RAV, role: rav, summary: Invented.}\n",
        )
        .replace("rolls: [{of: weapon, attribute: rof}]", "rolls: [{of: weapon, attribute: rav}]");
    let errors = errors_of(&with_rav, "{resolve: 4}");
    assert!(
        errors.iter().any(|(p, m)| p == "/procedures/attack/rolls/0/attribute" && m.contains("is the RAV")),
        "{errors:#?}"
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
}

/// A pack's attributes may sum to any rate of fire: one shot rolls at most `MAX_ATTACK_ROLLS`.
#[test]
fn a_rate_of_fire_is_capped_whatever_a_pack_says() {
    let ruleset =
        SYTHOPIAN.replace("max: 10, summary: Invented.}\n  - {id: force", "summary: Invented.}\n  - {id: force");
    let rules = game_pack(
        &ruleset,
        &[
            ("line", &trooper("line", "{resolve: 4}", "hose")),
            (
                "hose",
                "kind: weapon\nid: hose\nname: Hose\nfire: direct\nrange: 24\nattributes: {rof: 2000000000}\nsummary: Invented.\n",
            ),
        ],
    );
    // Every lock misses (6s): exactly the cap of rolls is made.
    let cap = cav_format::limits::MAX_ATTACK_ROLLS as usize;
    let (log, _) = one_shot(&rules, "line", "line", &vec![6; cap]);
    assert_eq!(rolls(&log).len(), cap);
}

/// A handler of a moment the attack by roll kinds never reaches (the damage table) is a warning
/// that says so, not a rule that quietly does not apply.
#[test]
fn a_handler_the_rolled_attack_never_reaches_is_a_warning() {
    let sa = "kind: special_attribute\nid: plating\nname: Plating\napplies_to: model\nparameter: none\n\
              hooks: [damage_table]\nscript: plating\nsummary: Invented.\n";
    let script = "--!strict\nlocal m = {}\nm.as_target = {}\nfunction m.as_target.damage_table(ctx: CavContext)\n\
                  \tctx.add_modifier(\"damage\", \"plating\", -1)\nend\nreturn m\n";
    let (warnings, _) = game_pack_with(
        SYTHOPIAN,
        &[
            ("line", &trooper("line", "{resolve: 4}", "rifle")),
            ("rifle", "kind: weapon\nid: rifle\nname: Rifle\nfire: direct\nrange: 24\nsummary: Invented.\n"),
        ],
        &[("rules/plating.yaml", sa), ("scripts/plating.luau", script)],
    );
    assert!(warnings.iter().any(|w| w.contains("`plating`") && w.contains("never runs")), "{warnings:#?}");
}

/// An answer is a roll or a shot back, named once; its window must exist and cost nothing.
#[test]
fn a_target_s_answers_are_checked_where_they_are_written() {
    let broken = INFINITY
        .replace(
            "- {id: shoot, name: Shoot back, shoots: true}",
            "- {id: dodge, name: Again, target: [{value: 3}], shoots: true}\n        - {id: idle, name: Idle}",
        )
        .replace("contest: face-to-face\n      answers:", "contest: face-to-face\n      window: watch\n      answers:");
    let with_window = format!(
        "{broken}reaction_windows:\n  - {{id: watch, name: Watch, opens: any_action, who: in_sight, actions: [combat], resolves: before, cost: owed_ap}}\n"
    );
    let errors = errors_of(&with_window, "{bs: 11, ph: 10}");
    let at = |p: &str| errors.iter().filter(|(ptr, _)| ptr == p).count();
    assert_eq!(at("/procedures/attack/opposed/answers/1/id"), 1, "named twice: {errors:#?}");
    assert_eq!(at("/procedures/attack/opposed/answers/1"), 1, "a roll and a shot: {errors:#?}");
    assert_eq!(at("/procedures/attack/opposed/answers/2"), 1, "neither: {errors:#?}");
    assert_eq!(at("/procedures/attack/opposed/window"), 1, "a window with a cost: {errors:#?}");
    let answers = errors.iter().filter(|(p, _)| p.starts_with("/procedures/attack/opposed")).count();
    assert_eq!(answers, 4, "nothing else of the answers: {errors:#?}");
    let unknown = INFINITY.replace(
        "contest: face-to-face\n      answers:",
        "contest: face-to-face\n      window: nowhere\n      answers:",
    );
    let errors = errors_of(&unknown, "{bs: 11, ph: 10}");
    assert!(
        errors.iter().any(|(p, m)| p == "/procedures/attack/opposed/window" && m.contains("nowhere")),
        "{errors:#?}"
    );
    // The acting model answers reactions only with a roll that opposes: a shot back is not one.
    let shots_only =
        INFINITY.replace("        - {id: dodge, name: Dodge, target: [{of: target, attribute: ph}]}\n", "").replace(
            "contest: face-to-face\n      answers:",
            "contest: face-to-face\n      acting_answer_cost: 1\n      answers:",
        );
    let errors = errors_of(&shots_only, "{bs: 11, ph: 10}");
    let at: Vec<_> = errors.iter().filter(|(p, _)| p.starts_with("/procedures/attack/opposed")).collect();
    assert_eq!(at.len(), 1, "{errors:#?}");
    assert_eq!(at[0].0, "/procedures/attack/opposed/acting_answer_cost");
    assert!(at[0].1.contains("only opposes"), "{errors:#?}");
}

/// Infinity's BS attack back, face to face (004 L798): bots answer attacks, shooting back where
/// that is likelier than a Dodge, and a shot back's standing hits land on the attacker.
#[test]
fn bots_answer_attacks_and_a_shot_back_hurts_the_attacker() {
    let rules = infinity_duel(("a", "{bs: 14, ph: 6}"), ("b", "{bs: 14, ph: 6, arm: 1}"), 3);
    let (mut shots_back, mut hurt_attackers) = (0, 0);
    for seed in 1..=10 {
        let mut game = Game::new(
            &rules,
            cav_rules::game::Board { size: [24.0, 24.0], areas: Vec::new() },
            vec!["red".into(), "blue".into()],
        );
        game.add_model(rules.card("a").unwrap(), 0, P::new(12.0, 2.0), 0.0);
        game.add_model(rules.card("b").unwrap(), 1, P::new(12.0, 14.0), 180.0);
        let mut dice = cav_rules::SeededDice::new(seed);
        let mut log = Vec::new();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut NoHooks };
        let mut bot = cav_rules::bot::Bot::default();
        for _ in 0..6 {
            if engine.play_turn(&mut bot).unwrap().is_some() {
                break;
            }
        }
        let mut attacker_of = None;
        for e in &log {
            match e {
                Event::Attack { model, target, .. } if attacker_of.is_none() => attacker_of = Some((*model, *target)),
                Event::Answered { model, target, weapon: Some(_), .. } => {
                    shots_back += 1;
                    attacker_of = Some((*target, *model));
                }
                Event::DamagePoints { model, target, damage, .. }
                    if *damage > 0 && attacker_of.is_some_and(|(a, t)| *model == t && *target == a) =>
                {
                    hurt_attackers += 1
                }
                Event::DamagePoints { .. } => {}
                _ => {}
            }
            if matches!(e, Event::Activation { .. }) {
                attacker_of = None;
            }
        }
    }
    assert!(shots_back > 0, "BS 14 against PH 6: the bots shoot back");
    assert!(hurt_attackers > 0, "and some shot back wounds its attacker");
}

/// `cav odds` weighs the target's answer asked for: a Dodge never hurts the attacker, a shot back
/// sometimes does (exactly as often as its one die beats the whole burst and the save fails);
/// an answer the ruleset lacks is refused by name.
#[test]
fn exact_odds_weigh_the_answer_asked_for() {
    use cav_rules::odds::{Attack, AttackSpec, Budget, exact, exact_replaying};
    let rules = infinity_duel(("shooter", "{bs: 11, ph: 10, arm: 1}"), ("dodger", "{bs: 11, ph: 10, arm: 1}"), 3);
    let spec = |answer: Option<&str>| AttackSpec {
        attacker: "shooter".into(),
        target: "dodger".into(),
        weapons: vec![0],
        range: 10.0,
        answer: answer.map(str::to_owned),
        ..AttackSpec::default()
    };
    let odds = |answer: Option<&str>| {
        let attack = Attack::new(&rules, &spec(answer), &mut NoHooks).unwrap();
        let odds = exact(&attack, &mut NoHooks, &mut Budget::default()).unwrap();
        // Resumed after the declaration (the answer chosen there), as every sequence played whole.
        let whole = exact_replaying(&attack, &mut NoHooks, &mut Budget::default()).unwrap();
        assert_eq!((odds.outcomes.clone(), odds.resumed), (whole.outcomes, odds.leaves - 1), "{answer:?}");
        odds
    };
    let hurt = |o: &cav_rules::odds::AttackOdds| o.chance(|x| x.attacker_damage > 0).value();
    let hit = |o: &cav_rules::odds::AttackOdds| o.chance(|x| x.hits > 0).value();
    let (dodge, shoot, none) = (odds(Some("dodge")), odds(Some("shoot")), odds(Some("")));
    assert_eq!(hurt(&dodge), 0.0, "a Dodge never hurts the attacker");
    assert!(hurt(&shoot) > 0.0, "a shot back may");
    assert_eq!(hurt(&none), 0.0);
    assert_eq!(hit(&odds(None)), hit(&dodge), "the first answer is the default");
    assert!(hit(&none) > hit(&dodge), "unanswered, the burst hits more often");
    let Err(e) = Attack::new(&rules, &spec(Some("parry")), &mut NoHooks) else { panic!("an unknown answer") };
    assert!(e.contains("no answer `parry`") && e.contains("dodge, shoot"), "{e}");
}

/// An answer that turns must be a roll (a shot back stands as hits, not as a roll); `cav odds`,
/// whose two models face each other, refuses an answer given only to an unseen attacker.
#[test]
fn a_turning_answer_is_a_roll_and_odds_refuse_an_unseen_only_answer() {
    let errors = common::edited_pack_errors("infinity-firefight", "rules/ruleset.yaml", |s| {
        s.replace(
            "{id: bs-attack, name: BS attack, shoots: true,",
            "{id: bs-attack, name: BS attack, shoots: true, turns: true,",
        )
    });
    assert!(errors.iter().any(|(p, _)| p == "/procedures/attack/opposed/answers/2/turns"), "{errors:#?}");
    let rules = common::pack_rules("infinity-firefight");
    let spec = cav_rules::odds::AttackSpec {
        attacker: "fusilier".into(),
        target: "line-trooper".into(),
        weapons: vec![0],
        range: 6.0,
        answer: Some("change-facing".into()),
        ..cav_rules::odds::AttackSpec::default()
    };
    let Err(e) = cav_rules::odds::Attack::new(&rules, &spec, &mut NoHooks) else {
        panic!("change-facing at a seen attacker")
    };
    assert!(e.contains("only to an attacker the target does not see"), "{e}");
}
