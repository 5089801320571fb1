//! The views a `ctx` holds: each read of `ctx.model`, `ctx.target` and `ctx.self` gives the same
//! object within a moment, and a `ctx` kept past its moment still shows that moment — also a view
//! first read only later. Views of one model compare equal (`==`) across moments, though each
//! shows its own moment.

use std::path::{Path, PathBuf};

use cav_format::HookPoint;
use cav_rules::hooks::{HookCtx, Hooks};
use cav_rules::{NoLog, SeededDice, setup::scenario_game};
use cav_script::{Limits, LuaHost};

#[test]
fn a_kept_ctx_shows_its_moment_and_its_views_keep_their_identity() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let mut rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("strike.luau"),
        "local kept\n\
         return { attack_declare = function(ctx)\n\
         \x20 if kept == nil then\n\
         \x20   kept = ctx\n\
         \x20   print(ctx.self == ctx.model, ctx.target == ctx.target, ctx.model ~= ctx.target, ctx.target.damage, ctx.weapon.mount)\n\
         \x20   return\n\
         \x20 end\n\
         \x20 local k = kept\n\
         \x20 print(k.self == k.model, k.target == ctx.target, k.model == ctx.model, k.target.damage, k.model.damage, ctx.target.damage, ctx.model.damage, k.weapon.name == ctx.weapon.name, k.role, k.point)\n\
         end }",
    )
    .unwrap();
    let strike = rules.sas.iter_mut().find(|s| s.id == "strike").unwrap();
    strike.script = Some(("strike".into(), vec![PathBuf::from(dir.path())]));
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut game = scenario_game(&rules, sc, &mut SeededDice::new(1), &mut NoLog, None);
    let mut host = LuaHost::new(&rules, Limits::default()).unwrap();
    let mut ctx = HookCtx::new(HookPoint::AttackDeclare, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx).unwrap();
    assert_eq!(host.take_prints(), ["true\ttrue\ttrue\t0\t0"]);
    // The board moves on: the kept ctx does not.
    game.models[0].damage += 1;
    game.models[1].damage += 2;
    let mut ctx = HookCtx::new(HookPoint::AttackDeclare, 1).target(0).weapon(0);
    host.call(&game, &mut cav_rules::ForcedDice::default(), &mut ctx).unwrap();
    assert_eq!(host.take_prints(), ["true\ttrue\ttrue\t0\t0\t1\t2\ttrue\tweapon\tattack_declare"]);
}
