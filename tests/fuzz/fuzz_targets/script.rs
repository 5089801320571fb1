//! Any text as a special attribute's Luau module, in exactly the sandbox play uses: compiled,
//! instantiated for its handler table (twice: two games), then every handler called. Every call must end (a value or a
//! located error) within the sandbox's limits, and the sandbox must stay usable.
#![no_main]

use cav_script::{Limits, Sandbox};
use libfuzzer_sys::fuzz_target;
use mlua::Value;

fuzz_target!(|data: &[u8]| {
    // Play's limits, but a shorter wall-clock net (play's is seconds, a safety net behind the step
    // budget): an input slow in ways no step counts must stay inside libFuzzer's -timeout.
    let limits = Limits { time: std::time::Duration::from_millis(250), ..Limits::default() };
    let Ok(sandbox) = Sandbox::new(limits, vec![]) else { return };
    sandbox.arm();
    // Text only, as every path of the host loads scripts (bytecode is never accepted).
    let chunk = sandbox.lua.load(data).set_name("fuzz").set_mode(mlua::chunk::ChunkMode::Text);
    let Ok(chunk) = chunk.into_function() else { return };
    // Two games, as the host plays them: each runs a fresh instance of the module in an
    // environment of its own, then its handlers.
    for _ in 0..2 {
        sandbox.new_game();
        sandbox.arm();
        let Ok(module) = cav_script::sandbox::instantiate(&sandbox.lua, &chunk, &sandbox.module_env) else { return };
        if let Value::Table(t) = module {
            for (_, f) in t.pairs::<Value, Value>().flatten() {
                if let Value::Function(f) = f {
                    sandbox.arm();
                    let _ = f.call::<Value>(());
                }
            }
        }
    }
    // Still usable afterwards, in the next game (whose start collects what the handlers left).
    sandbox.new_game();
    sandbox.arm();
    assert_eq!(sandbox.lua.load("return 1 + 1").eval::<i64>().ok(), Some(2));
});
