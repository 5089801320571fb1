//! Any text as a special attribute's Luau module, in exactly the sandbox play uses: compiled,
//! run once for its handler table, then every handler called. Every call must end (a value or a
//! located error) within the sandbox's limits, and the sandbox must stay usable.
#![no_main]

use cav_script::{Limits, Sandbox};
use libfuzzer_sys::fuzz_target;
use mlua::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(sandbox) = Sandbox::new(Limits::default(), vec![]) else { return };
    sandbox.arm();
    // Text only, as every path of the host loads scripts (bytecode is never accepted).
    let chunk = sandbox.lua.load(data).set_name("fuzz").set_mode(mlua::chunk::ChunkMode::Text);
    let Ok(module) = chunk.eval::<Value>() else { return };
    if let Value::Table(t) = module {
        for (_, f) in t.pairs::<Value, Value>().flatten() {
            if let Value::Function(f) = f {
                sandbox.arm();
                let _ = f.call::<Value>(());
            }
        }
    }
    // Still usable afterwards.
    sandbox.arm();
    assert_eq!(sandbox.lua.load("return 1 + 1").eval::<i64>().ok(), Some(2));
});
