//! Each hook point accepts only the effects the vocabulary gives it (`HookPoint::accepts`): an
//! effect asked for anywhere else stops the game with a hook error naming the special attribute,
//! the hook point and the script's file:line, instead of being silently dropped.

use std::path::{Path, PathBuf};

use cav_format::{HookPoint, Quantity};
use cav_rules::game::{Action, Controller, EngineError, Game};
use cav_rules::hooks::{Effect, HookCtx, Hooks};
use cav_rules::{Engine, Event, NoLog, Rules, SeededDice, bot::Bot, setup::scenario_game};
use cav_script::{Limits, LuaHost};

fn rules() -> Rules {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap()
}

/// Rules whose special attribute `sa` runs `source` (written to `<sa>.luau` in a temp dir).
fn with_script(sa: &str, source: &str) -> (Rules, tempfile::TempDir) {
    let mut rules = rules();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(format!("{sa}.luau")), source).unwrap();
    let entry = rules.sas.iter_mut().find(|s| s.id == sa).unwrap();
    entry.script = Some((sa.into(), vec![PathBuf::from(dir.path())]));
    (rules, dir)
}

/// A Quick-Start duel (two Dictator-Bs, which carry Wizzo) with the scripts in the Lua host.
fn play(rules: &Rules) -> (Result<(), EngineError>, Vec<Event>) {
    play_with(rules, &mut Bot::default())
}

/// Locks on to the nearest enemy once, then passes.
#[derive(Default)]
struct LockThenPass(bool);

impl Controller for LockThenPass {
    fn decide(&mut self, game: &Game, model: usize, _: u32) -> Action {
        if std::mem::replace(&mut self.0, true) {
            return Action::pass();
        }
        Action::target_lock(if model == 0 { 1 } else { 0 }.min(game.models.len() - 1))
    }
}

fn play_with(rules: &Rules, ctrl: &mut dyn Controller) -> (Result<(), EngineError>, Vec<Event>) {
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut dice = SeededDice::new(7);
    let mut log = Vec::new();
    let game = scenario_game(rules, sc, &mut dice, &mut NoLog, None);
    let mut host = LuaHost::new(rules, Limits::default()).unwrap();
    let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut host };
    let end = engine.play(ctrl).map(|_| ());
    (end, log)
}

fn hook_error(end: Result<(), EngineError>) -> String {
    match end {
        Err(EngineError::Hook { message }) => message,
        other => panic!("expected a hook error, got {other:?}"),
    }
}

#[test]
fn add_modifier_at_a_look_only_point_stops_the_game() {
    let (rules, dir) = with_script(
        "wizzo",
        "local m = {}\nfunction m.target_lock(ctx)\n  ctx.add_modifier('roll', 'too early', 1)\nend\nreturn m\n",
    );
    let err = hook_error(play_with(&rules, &mut LockThenPass::default()).0);
    let file = dir.path().join("wizzo.luau");
    assert!(err.starts_with("Wizzo (target_lock): "), "{err}");
    let expected = format!(
        "{}:3: `ctx.add_modifier` is not accepted at `target_lock` (it accepts `ctx.forbid`, `ctx.apply_state`, `ctx.set_flag`); see docs/vocabulary.md",
        file.display()
    );
    assert!(err.contains(&expected), "{err}\nexpected it to contain\n{expected}");
}

#[test]
fn add_modifier_at_combat_tp_shows_up_in_the_roll() {
    let (rules, _dir) =
        with_script("wizzo", "return { combat_tp = function(ctx) ctx.add_modifier('roll', 'wizzo script', -1) end }");
    let (end, log) = play(&rules);
    end.unwrap();
    let applied = log.iter().any(
        |e| matches!(e, Event::Roll(r) if r.kind == "combat" && r.mods.iter().any(|m| m.source == "Wizzo: wizzo script")),
    );
    assert!(applied, "no combat roll carries the scripted modifier");
}

#[test]
fn forbid_at_activation_is_refused() {
    let (rules, dir) =
        with_script("wizzo", "return {\n  activation = function(ctx)\n    ctx.forbid('no')\n  end,\n}\n");
    let err = hook_error(play(&rules).0);
    assert!(err.starts_with("Wizzo (activation): "), "{err}");
    let expected = format!(
        "{}:3: `ctx.forbid` is not accepted at `activation` (it accepts `ctx.add_modifier`, `ctx.deal_damage`, `ctx.apply_state`, `ctx.clear_state`, `ctx.spend_ammo`, `ctx.restore_ammo`, `ctx.refill_ammo_bins`, `ctx.place_terrain`, `ctx.set_flag`); see docs/vocabulary.md",
        dir.path().join("wizzo.luau").display()
    );
    assert!(err.contains(&expected), "{err}\nexpected it to contain\n{expected}");
}

#[test]
fn set_value_at_attack_targets_is_accepted() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { attack_targets = function(ctx) ctx.set_value(ctx.value - 1) ctx.add_modifier('rav', 'traded', 1) end }",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::AttackTargets, 1).target(0).weapon(0).value(3.0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx).unwrap();
    let effects: Vec<Effect> = ctx.effects.into_iter().map(|q| q.effect).collect();
    assert_eq!(
        effects,
        vec![Effect::SetValue(2.0), Effect::Modifier { quantity: Quantity::Rav, label: "traded".into(), value: 1 }]
    );
}

#[test]
fn set_value_where_the_point_does_not_accept_it_is_refused() {
    let (rules, _dir) = with_script("wizzo", "return { combat_tp = function(ctx) ctx.set_value(1) end }");
    let err = hook_error(play(&rules).0);
    assert!(err.contains("`ctx.set_value` is not accepted at `combat_tp`"), "{err}");
    assert!(err.contains("wizzo.luau:1: "), "{err}");
}

/// Effects are queued: a handler that asks for damage and then fails leaves the game untouched —
/// the game stops with the special attribute, the hook point and the file:line, and no effect of
/// that moment reaches the engine.
#[test]
fn a_failing_handler_applies_nothing() {
    let (rules, dir) = with_script(
        "wizzo",
        "local m = {}\nfunction m.combat_dice(ctx)\n  ctx.deal_damage(ctx.target, 5)\n  error('boom')\nend\nreturn m\n",
    );
    let (end, log) = play(&rules);
    let err = hook_error(end);
    assert!(err.starts_with("Wizzo (combat_dice): "), "{err}");
    assert!(err.contains(&format!("{}:4", dir.path().join("wizzo.luau").display())), "{err}");
    assert!(err.contains("boom"), "{err}");
    assert!(!log.iter().any(|e| matches!(e, Event::ScriptEffect { .. })), "an effect of the failed moment was applied");
    assert!(!log.iter().any(|e| matches!(e, Event::DamageApplied { points: 5, .. })));
}

/// Each effect checks its arguments where the script calls it.
#[test]
fn effect_arguments_are_checked_at_the_callers_line() {
    let cases = [
        (
            "ctx.add_modifier('rav', 'x', 1)",
            "`ctx.add_modifier`: `rav` is not a quantity `combat_dice` accepts (it accepts: roll)",
        ),
        ("ctx.add_modifier('roll', 'x')", "`ctx.add_modifier`: the value must be a number, not a nil"),
        ("ctx.apply_state(ctx.model, 'dizzy')", "`ctx.apply_state`: no state `dizzy` in this ruleset (its states: "),
        (
            "ctx.deal_damage('blue', 1)",
            "`ctx.deal_damage` needs a model (ctx.model, ctx.target or ctx.self), not a string",
        ),
        ("ctx.deal_damage(ctx.target, -1)", "`ctx.deal_damage` value -1 is not a whole number from 0 to 1000"),
        ("ctx.spend_ammo(ctx.model, 9)", "`ctx.spend_ammo`: the model has no weapon mount 9 (mounts 0 to 2)"),
    ];
    for (call, must) in cases {
        let (rules, dir) =
            with_script("wizzo", &format!("local m = {{}}\nfunction m.combat_dice(ctx)\n  {call}\nend\nreturn m\n"));
        let err = hook_error(play(&rules).0);
        let at = format!("{}:3: ", dir.path().join("wizzo.luau").display());
        assert!(err.contains(&format!("{at}{must}")), "{call}: {err}\nexpected {at}{must}");
    }
}

/// Damage, states and ammo asked for by a script land in the game, each logged with its source.
#[test]
fn damage_states_and_ammo_reach_the_game() {
    let (rules, _dir) = with_script(
        "wizzo",
        "local m = {}\nfunction m.combat_dice(ctx)\n  ctx.apply_state(ctx.target, 'suppressed')\n  \
         ctx.spend_ammo(ctx.model, 1)\n  ctx.deal_damage(ctx.target, 1)\nend\nreturn m\n",
    );
    let (end, log) = play(&rules);
    end.unwrap();
    let effects: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::ScriptEffect { source, effect, .. } if source == "Wizzo" => Some(*effect),
            _ => None,
        })
        .take(3)
        .collect();
    assert_eq!(effects, ["apply_state", "spend_ammo", "deal_damage"]);
    assert!(log.iter().any(|e| matches!(e, Event::StateGained { state, .. } if state == "Suppressed")));
}

/// `ctx.models()` lists every model in play with its position, and `ctx.range(a, b)` measures
/// between two of them as the ruleset does — what aura-like special attributes (APA, ECM) need.
#[test]
fn a_handler_sees_the_board_through_ctx_models_and_ctx_range() {
    let (rules, _dir) = with_script(
        "wizzo",
        "local m = {}\nfunction m.activation(ctx)\n  local all = ctx.models()\n  local other = all[1]\n  if other.name == ctx.model.name then other = all[2] end\n  print(string.format('%d models; %s at %.1f,%.1f; range %.2f', #all, other.name, other.x, other.y, ctx.range(ctx.model, other)))\nend\nreturn m\n",
    );
    let (end, log) = play(&rules);
    end.unwrap();
    let printed: Vec<&str> = log
        .iter()
        .filter_map(|e| match e {
            Event::ScriptPrint { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!printed.is_empty());
    let first = printed[0];
    assert!(first.starts_with("2 models; "), "{first}");
    let range: f64 = first.rsplit("range ").next().unwrap().parse().unwrap();
    assert!(range > 0.0 && range < 100.0, "{first}");
}

/// `ctx.roll_dice` throws the game's dice (the forced faces here), judges them against the target
/// point, and hands the roll back to the engine to log; a handler that rolls without end is
/// stopped at the per-call limit instead of filling memory.
#[test]
fn roll_dice_uses_the_game_dice_and_is_bounded() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { combat_tp = function(ctx)\n  local r = ctx.roll_dice('chaff', 9)\n  if r.success and r.natural_total == 10 then ctx.add_modifier('roll', 'rolled', 1) end\nend }",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::new([4, 6]), &mut ctx).unwrap();
    assert_eq!(ctx.rolls.len(), 1);
    let r = &ctx.rolls[0];
    assert_eq!(
        (r.kind.as_ref(), r.natural.as_slice(), r.total, r.target, r.success),
        ("chaff", &[4, 6][..], 10, Some(9), Some(true))
    );
    assert_eq!(ctx.effects.len(), 1, "the handler saw the roll's result");

    let (rules, _dir) =
        with_script("wizzo", "return { combat_tp = function(ctx) while true do ctx.roll_dice('again', 7) end end }");
    let err = hook_error(play(&rules).0);
    assert!(err.contains("`ctx.roll_dice`: more than 64 rolls in one call"), "{err}");
}

/// The board functions reach the game only while a handler of a moment runs: one kept from an
/// earlier moment serves the moment that runs when it is called again, and one called when no
/// handler runs is refused with a clear message, never a dangling borrow of a past game.
#[test]
fn board_functions_reach_the_game_only_while_a_handler_runs() {
    let (rules, _dir) = with_script(
        "wizzo",
        "local kept\nlocal m = {}\nfunction m.keep(f) kept = f end\nfunction m.kept() return kept end\n\
         function m.combat_tp(ctx)\n  local w = require('wizzo')\n  if w.kept() == nil then w.keep(ctx.models) end\n  \
         print(#w.kept()())\nend\nreturn m",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    for _ in 0..2 {
        let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
        host.call(&game, &mut SeededDice::new(2), &mut ctx).unwrap();
    }
    assert_eq!(host.take_prints(), ["2", "2"], "a kept ctx.models serves the moment that runs");
    let err = host.sandbox.run("return require('wizzo').kept()()", "probe.luau").unwrap_err().to_string();
    assert!(err.contains("`ctx.models` reaches the board only while a handler runs"), "{err}");
}

/// `ctx.place_terrain` lays a piece of one of the ruleset's terrain types; an unknown type is a
/// script error at the caller's line, and a board that would hold more than
/// `limits::SCRIPT_PLACED_TERRAIN` laid pieces stops the game instead of growing without end.
#[test]
fn place_terrain_is_checked_and_bounded() {
    let (rules, _dir) =
        with_script("wizzo", "return { activation = function(ctx)\n  ctx.place_terrain('lava', 10, 10, 2, 1)\nend }");
    let err = hook_error(play(&rules).0);
    assert!(err.contains("wizzo.luau:2:") && err.contains("no terrain `lava` in this ruleset"), "{err}");

    let (rules, _dir) = with_script(
        "wizzo",
        "return { activation = function(ctx)\n  ctx.place_terrain('light-woods', 10, 10, 2.5, 0)\nend }",
    );
    let err = hook_error(play(&rules).0);
    assert!(err.contains("0 activations is not a whole number from 1"), "{err}");

    let (rules, _dir) = with_script(
        "wizzo",
        "return { activation = function(ctx)\n  for i = 1, 40 do ctx.place_terrain('light-woods', i, 10, 1, 50) end\nend }",
    );
    let (end, log) = play(&rules);
    let laid = log.iter().filter(|e| matches!(e, Event::TerrainLaid { .. })).count();
    assert_eq!(laid, 64, "both Dictator-Bs lay pieces until the table holds the most it may");
    let err = hook_error(end);
    assert!(err.contains("64 laid terrain pieces already lie on the table"), "{err}");
}

/// `ctx.models(state)` lists only the models in that state; a state the ruleset does not have is
/// a script error, not an empty list that would hide a typo.
#[test]
fn models_filtered_by_state() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { activation = function(ctx)\n  print(#ctx.models(), #ctx.models('knockdown'))\nend }",
    );
    let (end, log) = play(&rules);
    end.unwrap();
    let first = log.iter().find_map(|e| match e {
        Event::ScriptPrint { text, .. } => Some(text.clone()),
        _ => None,
    });
    assert_eq!(first.as_deref(), Some("2\t0"));
    let (rules, _dir) = with_script("wizzo", "return { activation = function(ctx)\n  ctx.models('knockdwn')\nend }");
    let err = hook_error(play(&rules).0);
    assert!(err.contains("wizzo.luau:2:") && err.contains("`ctx.models(state)`: no such state"), "{err}");
}

/// `ctx.set_flag` keeps a value in the game under the special attribute, for its scope: each
/// activation of the duel reads what the earlier ones left (as it stood when the moment began),
/// a model's own flag stays on that model, and an activation's flag is gone when the next
/// activation starts.
#[test]
fn flags_live_in_the_game_for_their_scope() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { activation = function(ctx)\n\
           local n = ctx.flag('game', 'activations')\n\
           local mine = ctx.flag(ctx.self, 'mine')\n\
           print(tostring(n) .. ' ' .. tostring(mine) .. ' ' .. tostring(ctx.flag('activation', 'a')))\n\
           ctx.set_flag('game', 'activations', (if type(n) == 'number' then n else 0) + 1)\n\
           ctx.set_flag(ctx.self, 'mine', ctx.self.name)\n\
           ctx.set_flag('activation', 'a', true)\n\
         end }",
    );
    let (end, log) = play(&rules);
    end.unwrap();
    let prints: Vec<String> = log
        .iter()
        .filter_map(|e| match e {
            Event::ScriptPrint { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(prints.len() >= 4, "{prints:?}");
    assert_eq!(prints[0], "nil nil nil");
    // The second activation is the other Dictator-B's: the game count is shared, its own flag is not.
    assert_eq!(prints[1], "1 nil nil");
    for (i, p) in prints.iter().enumerate().skip(2) {
        let (count, rest) = p.split_once(' ').unwrap();
        assert_eq!(count, i.to_string(), "{prints:?}");
        assert!(rest.ends_with(" nil") && rest.contains("Dictator-B"), "{prints:?}");
    }
    let set = log.iter().filter(|e| matches!(e, Event::ScriptEffect { effect: "set_flag", .. })).count();
    assert_eq!(set, prints.len() * 3, "every set_flag is in the event log");
}

/// What a flag holds is checked at the caller's line: a boolean, a finite number or a string of at
/// most `SCRIPT_LABEL_BYTES` (nil forgets it), in a scope the engine knows.
#[test]
fn flag_arguments_are_checked() {
    for (call, says) in [
        ("ctx.set_flag('forever', 'k', 1)", "no scope `forever`"),
        ("ctx.set_flag({}, 'k', 1)", "the scope is game, turn, activation, unit or a model, not a table"),
        ("ctx.set_flag('game', 'k', {})", "not a table"),
        ("ctx.set_flag('game', 'k', 0/0)", "not an infinite or NaN number"),
        ("ctx.set_flag('game', 'k', math.huge)", "not an infinite or NaN number"),
        ("ctx.set_flag('game', string.rep('k', 201), 1)", "key of 201 bytes is longer than 200 bytes"),
        ("ctx.set_flag('game', 'k', string.rep('v', 201))", "value of 201 bytes is longer than 200 bytes"),
        ("ctx.flag('game', 3)", "`ctx.flag`: the key must be a string, not a number"),
    ] {
        let (rules, _dir) = with_script("wizzo", &format!("return {{ activation = function(ctx)\n  {call}\nend }}"));
        let err = hook_error(play(&rules).0);
        assert!(err.contains("wizzo.luau:2:") && err.contains(says), "{call}: {err}");
    }
}

/// A model view says which unit (squad) the model serves in, by its number in the game; nil for a
/// model that activates alone.
#[test]
fn a_model_view_names_its_unit() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { activation = function(ctx)\n  for _, m in ctx.models() do print(m.unit) end\nend }",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    game.add_squad("Iron Lance".into(), "lance".into(), vec![1]);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::Activation, 0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx).unwrap();
    assert_eq!(host.take_prints(), ["nil", "1"]);
}

/// `"unit"` keeps a flag on the unit of the model whose handler runs: shared by the models of one
/// squad, and each model's own where it activates alone.
#[test]
fn a_unit_flag_is_shared_by_the_units_models() {
    let script = "return { activation = function(ctx)\n\
                    local n = ctx.flag('unit', 'n')\n  print(n)\n\
                    ctx.set_flag('unit', 'n', (if type(n) == 'number' then n else 0) + 1)\nend }";
    let (rules, _dir) = with_script("wizzo", script);
    let prints = |squad: bool| -> Vec<String> {
        let sc = rules.scenario("stand-and-fight").unwrap();
        let mut dice = SeededDice::new(7);
        let mut game = scenario_game(&rules, sc, &mut dice, &mut NoLog, None);
        if squad {
            game.add_squad("Both".into(), "lance".into(), vec![0, 1]);
        }
        let mut log = Vec::new();
        let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
        let mut engine = Engine { game, dice: &mut dice, log: &mut log, hooks: &mut host };
        engine.play(&mut Bot::default()).unwrap();
        log.iter()
            .filter_map(|e| match e {
                Event::ScriptPrint { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect()
    };
    let shared = prints(true);
    assert!(shared.len() >= 4, "{shared:?}");
    assert_eq!(shared[..4], ["nil", "1", "2", "3"], "one count for the squad's two models");
    let alone = prints(false);
    assert_eq!(alone[..4], ["nil", "nil", "1", "1"], "each model a unit of one");
}

/// Rules with a roll-under kind (002 L208: a 1 is a direct hit, a 6 always misses) and a d20
/// face-to-face contest (004 L548-554), as a ruleset's `roll_kinds:` and `contests:` give them.
fn with_roll_kinds(source: &str) -> (Rules, tempfile::TempDir) {
    use cav_format::{BeyondReach, ContestCompare, ContestTies, NaturalResult, NaturalVerdict, RollDirection};
    use cav_rules::compile::{ContestRule, RollRule};
    let (mut rules, dir) = with_script("wizzo", source);
    let kind = |id: &str, dice: &str, natural: Vec<NaturalResult>, critical_on_target: bool| {
        let dice = cav_rules::DiceExpr::parse(dice).unwrap();
        RollRule {
            id: id.into(),
            dice,
            succeeds: RollDirection::AtMost,
            natural,
            critical_on_target,
            critical: None,
            beyond_reach: BeyondReach::Impossible,
            odds: Default::default(),
            bonus_odds: Default::default(),
        }
    };
    let row = |at_least, at_most, result| NaturalResult { at_least, at_most, equal: None, result };
    rules.roll_kinds.push(kind(
        "target-lock",
        "1d6",
        vec![row(None, Some(1), NaturalVerdict::Critical), row(Some(6), None, NaturalVerdict::Failure)],
        false,
    ));
    rules.roll_kinds.push(kind("d20", "1d20", vec![], true));
    rules.contests.push(ContestRule {
        id: "face-to-face".into(),
        // (After the ruleset's own kinds.)
        roll: rules.roll_kinds.len() - 1,
        compare: ContestCompare::BestSuccess,
        ties: ContestTies::BothCancel,
        critical_wins: true,
    });
    (rules, dir)
}

/// `ctx.make_roll` rolls a kind the ruleset declares and judges it as the kind says (a modifier to a
/// roll-under test moves its target); `ctx.contest` holds one roll against many: the Dodge of
/// 004 L604-612 rolls 9 against PH, the four shooters (BS 11 + 3) roll 3, 5, 17 and 12, and
/// only the 12 stands. Every roll is logged as its model's.
#[test]
fn roll_kinds_and_contests_reach_scripts() {
    let (rules, _dir) = with_roll_kinds(
        "return { combat_tp = function(ctx)
  local lock = ctx.make_roll('target-lock', 4, -1)
  print(lock.success, lock.target, lock.margin, lock.critical)
  local one = ctx.make_roll('target-lock', 0)
  print(one.success, one.critical)
  local c = ctx.contest('face-to-face', ctx.target, {target = 13}, {target = 11, modifier = 3, rolls = 4})
  print(c.won, c.standing, c.theirs_standing, c.theirs[4].stands, c.theirs[3].success, c.mine[1].stands)
end }",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
    let mut dice = cav_rules::ForcedDice::new([4, 1, 9, 3, 5, 17, 12]);
    host.call(&game, &mut dice, &mut ctx).unwrap();
    assert_eq!(dice.remaining(), 0);
    assert_eq!(host.take_prints(), ["false\t3\t-1\tnil", "true\tsuccess", "false\t0\t1\ttrue\tfalse\tfalse"]);
    let logged: Vec<(usize, &str, i32, Option<bool>)> =
        ctx.rolls.iter().map(|r| (r.model, r.kind.as_ref(), r.total, r.success)).collect();
    assert_eq!(
        logged,
        [
            (1, "target-lock", 4, Some(false)),
            (1, "target-lock", 1, Some(true)),
            (1, "d20", 9, Some(true)),
            (0, "d20", 3, Some(true)),
            (0, "d20", 5, Some(true)),
            (0, "d20", 17, Some(false)),
            (0, "d20", 12, Some(true)),
        ]
    );

    let (rules, _dir) = with_roll_kinds("return { combat_tp = function(ctx) ctx.make_roll('bs-roll', 11) end }");
    let err = hook_error(play(&rules).0);
    assert!(
        err.contains("`ctx.make_roll`: the ruleset has no roll kind `bs-roll` (it declares target-point-roll, ten-plus-roll, target-lock, d20)"),
        "{err}"
    );
    let (rules, _dir) = with_roll_kinds(
        "return { combat_tp = function(ctx) ctx.contest('face-to-face', ctx.target, {rolls = 0}) end }",
    );
    let err = hook_error(play(&rules).0);
    assert!(err.contains("`ctx.contest`: a side makes at least one roll"), "{err}");
    let (rules, _dir) = with_roll_kinds(
        "return { combat_tp = function(ctx) ctx.contest('face-to-face', ctx.target, {rolls = 40}, {rolls = 40}) end }",
    );
    let err = hook_error(play(&rules).0);
    assert!(err.contains("`ctx.contest`: more than 64 rolls in one call"), "{err}");
}

/// A model view carries the attributes the ruleset declares (`model.attributes.resolve`), read
/// from the model's card; an id the ruleset does not declare reads nil.
#[test]
fn model_views_carry_the_rulesets_attributes() {
    let (mut rules, _dir) = with_script(
        "wizzo",
        "return { combat_tp = function(ctx)\n  local a = ctx.target.attributes\n  print(a.resolve, a.hp, a.nerve)\n  \
         local r = ctx.make_roll('lock', a.resolve)\n  print(r.success)\nend }",
    );
    rules.attributes = vec!["resolve".into(), "hp".into()];
    for card in &mut rules.cards {
        card.attributes = [4, 2].repeat(card.columns);
    }
    let dice = cav_rules::DiceExpr::parse("1d6").unwrap();
    rules.roll_kinds.push(cav_rules::compile::RollRule {
        id: "lock".into(),
        dice,
        succeeds: cav_format::RollDirection::AtMost,
        natural: vec![],
        critical_on_target: false,
        critical: None,
        beyond_reach: cav_format::BeyondReach::Impossible,
        odds: Default::default(),
        bonus_odds: Default::default(),
    });
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::new([4]), &mut ctx).unwrap();
    assert_eq!(host.take_prints(), ["4\t2\tnil", "true"]);
}

/// A rule of the whole game (`applies_to: game`) runs at every moment of its hook points with no
/// model carrying it: last, as `ctx.role` `game`, `ctx.self` the moment's model; its effects
/// land as any handler's (here Act of Ziron's kind of ruleset-wide rule: −1 to every combat roll
/// beyond 20").
#[test]
fn a_rule_of_the_whole_game_runs_at_every_moment() {
    let (mut rules, _dir) = with_script(
        "wizzo",
        "return { combat_tp = function(ctx)\n  print(ctx.role, ctx.self == ctx.model)\n  \
         if ctx.distance and ctx.distance > 20 then ctx.add_modifier('roll', 'long range', -1) end\nend }",
    );
    let wizzo = rules.sas.iter().position(|s| s.id == "wizzo").unwrap() as u16;
    rules.sas[wizzo as usize].game_wide = true;
    for card in &mut rules.cards {
        card.sas.retain(|(sa, _)| *sa != wizzo);
    }
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    assert!(host.wants_at(&game, HookPoint::CombatTp, 1, Some(0), Some(0)));
    assert!(!host.wants_at(&game, HookPoint::Activation, 1, None, None));
    let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
    host.call(&game, &mut SeededDice::new(2), &mut ctx).unwrap();
    assert_eq!(host.take_prints(), ["game\ttrue"]);
    let far = game.distance(1, 0) > 20.0;
    assert_eq!(ctx.effects.len(), usize::from(far));

    // In play: every combat roll of both sides meets it.
    let (end, log) = play(&rules);
    end.unwrap();
    let rolls = log.iter().filter(|e| matches!(e, Event::Roll(r) if r.kind == "combat")).count();
    let printed = log.iter().filter(|e| matches!(e, Event::ScriptPrint { text, .. } if text == "game\ttrue")).count();
    assert!(rolls > 0 && printed >= rolls, "{printed} prints for {rolls} combat rolls");
}

/// A module's tables and globals are frozen once it has loaded: a handler that counts in a
/// table of its module, or in a global, stops the game with an error at its line saying where
/// a script's memory lives — never a count carried quietly from one moment (or game) to the next.
#[test]
fn module_tables_and_globals_are_frozen_after_load() {
    for (source, line) in [
        ("local m = {seen = {}}\nfunction m.combat_tp(ctx)\n  m.seen[ctx.model.name] = true\nend\nreturn m\n", 3),
        ("local m = {}\nfunction m.combat_tp(ctx)\n  shots = (shots or 0) + 1\nend\nreturn m\n", 3),
        // Thousands of tables (past the short list the freezer starts with) are frozen too.
        (
            "local m = {t = {}}\nfunction m.combat_tp(ctx)\n  m.t[4000].x = 1\nend\nfor i = 1, 5000 do m.t[i] = {} end\nreturn m\n",
            3,
        ),
    ] {
        let (rules, dir) = with_script("wizzo", source);
        let err = hook_error(play(&rules).0);
        let file = dir.path().join("wizzo.luau");
        assert!(err.contains(&format!("{}:{line}:", file.display())), "{err}");
        assert!(err.contains("a module's tables and globals are frozen once it has loaded"), "{err}");
        assert!(err.contains("ctx.set_flag"), "{err}");
    }
    // Reading them, and tables made inside a handler, stay free.
    let (rules, _dir) = with_script(
        "wizzo",
        "local m = {bonus = {1}}\nfunction m.combat_tp(ctx)\n  local t = {}\n  t.x = m.bonus[1]\n  \
         ctx.add_modifier('roll', 'steady', t.x)\nend\nreturn m\n",
    );
    play(&rules).0.unwrap();
}

/// A weapon's attributes reach scripts by the ruleset's ids; the RAV (`role: rav`) as the one
/// against `ctx.target` in the firing model's column: the Dictator-B's Medium MAC (6/2 in
/// column 0, 000 L222) shows 6 against a hard Dictator-B and 2 against the same card made soft.
/// The model's weapon list, without a target, has no RAV.
#[test]
fn a_weapons_rav_reaches_scripts_against_its_target() {
    let source = "return { combat_tp = function(ctx)
  print(ctx.weapon.name, ctx.weapon.attributes.rav, ctx.model.weapons[1].attributes.rav)
end }";
    let run = |soft: bool| {
        let (mut rules, _dir) = with_script("wizzo", source);
        if soft {
            let card = rules.card("dictator-b").unwrap();
            (rules.cards[card].hard, rules.cards[card].soft) = (false, true);
        }
        let sc = rules.scenario("stand-and-fight").unwrap();
        let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
        let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
        let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
        host.call(&game, &mut cav_rules::ForcedDice::new([]), &mut ctx).unwrap();
        host.take_prints()
    };
    assert_eq!(run(false), ["Medium MAC\t6\tnil"]);
    assert_eq!(run(true), ["Medium MAC\t2\tnil"]);
}

/// The board queries: `ctx.terrain` (a model's place or a point) lists the pieces there with
/// their cover and layer, `ctx.ground` the level, `ctx.sight` the line of sight and cover,
/// `ctx.within` the models in range nearest first; bad arguments are script errors at the
/// caller's line, never a crash.
#[test]
fn a_handler_asks_the_board_for_terrain_ground_sight_and_models_within() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { combat_tp = function(ctx)\n  local t = ctx.terrain(ctx.target)\n  local s = ctx.sight(ctx.model, ctx.target)\n  \
         print(#t, t[1] and t[1].id or '-', t[1] and t[1].layer or '-', ctx.ground(ctx.target), ctx.ground(30, 30), s.seen, s.cover, s.obscurement, #ctx.within(ctx.model, 1000), #ctx.within(ctx.model, 0.1))\nend }",
    );
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let woods = rules.terrain("light-woods").unwrap();
    let at = game.models[0].pos;
    game.board.areas.push(cav_rules::game::Area {
        terrain: woods,
        poly: cav_rules::geom::Polygon::regular(at, 3.0, 24),
        center: at,
        radius: 3.0,
        lasts: None,
    });
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
    host.call(&game, &mut SeededDice::new(2), &mut ctx).unwrap();
    let (seen, cover) = game.sight(1, 0, false);
    let want = format!(
        "1\tlight-woods\tbase\t0\t0\t{seen}\t{}\t0\t1\t0",
        match cover {
            cav_format::Cover::Light => "light",
            cav_format::Cover::Heavy => "heavy",
            cav_format::Cover::None => "none",
            cav_format::Cover::Blocking => "blocking",
        }
    );
    assert_eq!(host.take_prints(), [want]);
    for (call, why) in [
        ("ctx.terrain('here')", "`ctx.terrain` takes a model or two numbers"),
        ("ctx.ground(0/0, 1)", "`ctx.ground` takes a model or two finite numbers"),
        ("ctx.within(ctx.model, 1/0)", "`ctx.within`: a distance is a finite number"),
    ] {
        let (rules, _dir) = with_script("wizzo", &format!("return {{ combat_tp = function(ctx)\n  {call}\nend }}"));
        let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
        let mut ctx = HookCtx::new(HookPoint::CombatTp, 1).target(0).weapon(0);
        let err = host.call(&game, &mut SeededDice::new(2), &mut ctx).unwrap_err().to_string();
        assert!(err.contains(why) && err.contains("wizzo.luau:2:"), "{call}: {err}");
    }
}

/// `ctx.move_model` moves a model straight towards a point with no MV spent, keeping its facing,
/// stopping before another model's base and at the table's edge, and at most
/// `limits::SCRIPT_FORCED_MOVE` inches; `ctx.turn_model` turns it; both only where the hook point
/// takes them, and a non-finite point is refused at the caller's line.
#[test]
fn move_model_and_turn_model_are_forced_moves() {
    let (rules, _dir) = with_script(
        "wizzo",
        "return { end_phase = function(ctx)\n  ctx.move_model(ctx.self, ctx.self.x + 1000, ctx.self.y)\n  ctx.turn_model(ctx.self, 450)\nend }",
    );
    let (end, log) = play(&rules);
    end.unwrap();
    let forced: Vec<(f64, f64, f64)> = log
        .iter()
        .filter_map(|e| match e {
            Event::Moved { from, to, mv_spent: 0, facing, .. } => Some((to.x - from.x, to.y - from.y, *facing)),
            _ => None,
        })
        .collect();
    let pushes: Vec<_> = forced.iter().filter(|(dx, _, _)| *dx > 1e-9).collect();
    let turns: Vec<_> = forced.iter().filter(|(dx, dy, _)| *dx == 0.0 && *dy == 0.0).collect();
    assert!(!pushes.is_empty() && !turns.is_empty(), "{forced:?}");
    for (dx, dy, _) in &pushes {
        assert!(*dx <= cav_format::limits::SCRIPT_FORCED_MOVE + 1e-9 && dy.abs() < 1e-9, "straight, bounded: {dx}");
    }
    assert!(turns.iter().all(|(_, _, f)| *f == 90.0), "450° is a quarter turn: {turns:?}");

    let (rules, _dir) =
        with_script("wizzo", "return { activation = function(ctx)\n  ctx.move_model(ctx.self, 1, 1)\nend }");
    let err = hook_error(play(&rules).0);
    assert!(err.contains("move_model") && err.contains("activation"), "not taken at activation: {err}");
    let (rules, _dir) =
        with_script("wizzo", "return { end_phase = function(ctx)\n  ctx.move_model(ctx.self, 0/0, 1)\nend }");
    let sc = rules.scenario("stand-and-fight").unwrap();
    let game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::EndPhase, 0);
    let err = host.call(&game, &mut SeededDice::new(2), &mut ctx).unwrap_err().to_string();
    assert!(err.contains("nowhere near a table") && err.contains("wizzo.luau:2:"), "{err}");
}
