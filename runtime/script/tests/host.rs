//! The host with real rules: a failing or misbehaving handler gives an error naming the script
//! file:line, the item and the hook — never a crash — and scripts cannot change what they see.

use std::path::{Path, PathBuf};

use cav_format::HookPoint;
use cav_rules::event::ModApplied;
use cav_rules::hooks::{Effect, HookCtx, Hooks};
use cav_rules::{NoLog, Rules, SeededDice, setup::scenario_game};
use cav_script::{Limits, LuaHost};

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

/// Rules whose Strike SA runs `source` instead of the pack's script.
fn with_strike_script(source: &str) -> (Rules, tempfile::TempDir) {
    let mut rules = rules();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("strike.luau"), source).unwrap();
    let strike = rules.sas.iter_mut().find(|s| s.id == "strike").unwrap();
    strike.script = Some(("strike".into(), vec![PathBuf::from(dir.path())]));
    (rules, dir)
}

/// Call the attack_declare hook of red's Medium MACs (which carry Strike) against blue.
fn declare(rules: &Rules) -> Result<(Vec<ModApplied>, Option<String>), String> {
    call_at(rules, HookPoint::AttackDeclare)
}

/// Call the hooks at `point` of red's Medium MACs (which carry Strike) against blue.
fn call_at(rules: &Rules, point: HookPoint) -> Result<(Vec<ModApplied>, Option<String>), String> {
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(rules, Limits::default())?;
    let mut ctx = HookCtx::new(point, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx)?;
    let mut mods = Vec::new();
    let mut forbid = None;
    for q in ctx.effects {
        match q.effect {
            Effect::Modifier { label, value, .. } => mods.push(ModApplied { source: label, value, charge: None }),
            Effect::Forbid { reason } => forbid = Some(reason),
            other => panic!("unexpected effect {other:?}"),
        }
    }
    Ok((mods, forbid))
}

#[test]
fn the_pack_script_allows_cavs_as_targets() {
    let (mods, forbid) = declare(&rules()).unwrap();
    assert!(mods.is_empty());
    assert_eq!(forbid, None);
}

#[test]
fn a_handler_error_names_file_line_item_and_hook() {
    let (rules, _d) =
        with_strike_script("local m = {}\nfunction m.attack_declare(ctx)\n  error('boom')\nend\nreturn m\n");
    let err = declare(&rules).unwrap_err();
    assert!(err.starts_with("Strike (attack_declare): "), "{err}");
    assert!(err.contains("strike.luau:3"), "{err}");
    assert!(err.contains("boom"), "{err}");
}

#[test]
fn a_handler_returning_a_value_is_an_error() {
    let (rules, _d) = with_strike_script("return { attack_declare = function(ctx) return 5 end }");
    let err = declare(&rules).unwrap_err();
    assert!(err.contains("a handler returns nothing, but it returned a"), "{err}");
}

#[test]
fn scripts_cannot_change_what_they_see() {
    for (what, body) in [
        ("the model", "ctx.target.damage = 0"),
        ("the context", "ctx.point = 'x'"),
        ("a library", "string.upper = nil"),
        ("its own module table", "local me = require('strike') me.attack_declare = nil"),
    ] {
        let (rules, _d) = with_strike_script(&format!("return {{ attack_declare = function(ctx) {body} end }}"));
        let err = declare(&rules).unwrap_err();
        assert!(err.contains("readonly") || err.contains("read-only"), "{what}: {err}");
    }
}

#[test]
fn a_runaway_handler_is_stopped() {
    let (rules, _d) = with_strike_script("return { attack_declare = function(ctx) while true do end end }");
    let start = std::time::Instant::now();
    let err = declare(&rules).unwrap_err();
    assert!(err.contains("budget") || err.contains("time"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

#[test]
fn a_module_that_is_not_a_table_is_refused_at_load() {
    let (rules, _d) = with_strike_script("return 42");
    let err = declare(&rules).unwrap_err();
    assert!(err.contains("not a table of handlers"), "{err}");
}

#[test]
fn modifiers_come_back_in_the_rules_convention() {
    let (rules, _d) =
        with_strike_script("return { combat_tp = function(ctx) ctx.add_modifier('roll', 'test', 2) end }");
    let (mods, _) = call_at(&rules, HookPoint::CombatTp).unwrap();
    assert_eq!(mods, vec![ModApplied { source: "test".into(), value: 2, charge: None }]); // roll convention: +2 helps
}

/// A Quick-Start duel (seed 3, bots) with the scripts in the Lua host; the event log.
fn duel_log(rules: &Rules) -> Vec<cav_rules::Event> {
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut dice = SeededDice::new(3);
    let mut log = Vec::new();
    let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
    let mut host = LuaHost::new(rules, Limits::default()).unwrap();
    let mut engine = cav_rules::Engine { game, dice: &mut dice, log: &mut log, hooks: &mut host };
    engine.play(&mut cav_rules::bot::Bot::default()).unwrap();
    log
}

#[test]
fn print_in_a_handler_goes_to_the_event_log() {
    let (rules, _d) = with_strike_script("return { attack_declare = function(ctx) print('declared', ctx.point) end }");
    let log = duel_log(&rules);
    assert!(
        log.iter()
            .any(|e| matches!(e, cav_rules::Event::ScriptPrint { text, .. } if text == "declared\tattack_declare")),
        "no script print in the log"
    );
}

/// A handler reads what a player at the table can see: both cards' values in their current
/// column, the band, the ruleset and its options, whose special attribute it is.
#[test]
fn a_handler_reads_cards_band_ruleset_and_options() {
    let (rules, _d) = with_strike_script(
        "return { attack_declare = function(ctx)\n  print(ctx.role, ctx.self.model, ctx.model.tv, ctx.model.dc, ctx.model.ccv_hard, \
         ctx.target.exp, ctx.target.column, ctx.ruleset, ctx.options['shock-trigger'], ctx.weapon.mount, ctx.turn)\nend }",
    );
    let first = duel_log(&rules)
        .iter()
        .find_map(|e| match e {
            cav_rules::Event::ScriptPrint { text, .. } => Some(text.clone()),
            _ => None,
        })
        .expect("the handler printed");
    let fields: Vec<&str> = first.split('\t').collect();
    assert_eq!(&fields[..5], ["weapon", "dictator-b", "800", "4", "5"], "{first}");
    assert_eq!(fields[5], "nil", "the Quick-Start card has no experience value: {first}");
    assert_eq!(&fields[6..], ["0", "cav-quickstart", "targeted", "0", "1"], "{first}");
}
