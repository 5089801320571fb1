//! Every call ends within its budget whatever the script does, even when the work happens inside
//! a library function written in C (where the interrupt never fires): each case ends in well under
//! a second — by its step budget (the same on every machine; callbacks of C functions cost
//! `SCRIPT_CALLBACK_STEPS` each), by the memory cap or by a refused argument, never by the
//! wall-clock safety net — with an error located in the script, and the sandbox works afterwards.

use std::time::{Duration, Instant};

use cav_script::{Limits, Sandbox};

/// (name, chunk, text the error must contain)
const CASES: &[(&str, &str, &str)] = &[
    ("sort with a C comparator", "table.sort(table.create(400000, 0), pcall)", "memory"),
    (
        "sort of a built table with a C comparator",
        "local t = {} for i = 1, 100000 do t[i] = i end\ntable.sort(t, pcall)",
        "steps",
    ),
    (
        "sort with a C __lt",
        "local mt = { __lt = pcall } local t = {} for i = 1, 50000 do t[i] = setmetatable({}, mt) end\ntable.sort(t)",
        "steps",
    ),
    (
        "sort with a Lua comparator",
        "local t = {} for i = 1, 100000 do t[i] = i end\ntable.sort(t, function(a, b) local x = 0 for j = 1, 50 do x += j end return a > b end)",
        "",
    ),
    (
        "plain find of a huge needle",
        "local hay = string.rep('a', 8 * 1024 * 1024)\nlocal needle = string.rep('a', 4 * 1024 * 1024) .. 'b'\nreturn string.find(hay, needle, 1, true)",
        "",
    ),
    ("pattern backtracking", "local s = string.rep('a', 5000)\nreturn string.find(s, '.-.-.-.-b')", "string.find"),
    ("gsub with a C function", "local s = string.rep('a', 1000000)\nreturn string.gsub(s, '.', pcall)", "steps"),
    ("foreachi", "local t = table.create(200000, 1)\nfor i = 1, 20 do table.foreachi(t, function() end) end", "steps"),
    ("table.move over a huge range", "table.move({}, 1, 2000000000, 2, {})", "table.move"),
    (
        "split with a long separator",
        "local s = string.rep('a', 1000000)\nreturn #string.split(s, string.rep('a', 500000) .. 'b')",
        "string.split",
    ),
];

#[test]
fn work_inside_library_functions_ends_within_the_budget() {
    let sb = Sandbox::new(Limits::default(), vec![]).unwrap();
    for (name, chunk, must) in CASES {
        let start = Instant::now();
        let result = sb.run(chunk, "case.luau");
        let took = start.elapsed();
        let err = match result {
            Ok(v) => panic!("{name}: ran to the end in {took:?}, returned {v:?}"),
            Err(e) => e.to_string(),
        };
        eprintln!("{name}: {took:?}: {err}");
        assert!(took < Duration::from_secs(1), "{name}: took {took:?}");
        assert!(err.contains(must), "{name}: {err:?} does not mention {must:?}");
        assert!(err.contains("case.luau:"), "{name}: {err:?} is not located in the script");
        assert_eq!(sb.run("return 1 + 1", "after").unwrap(), vec!["2"], "{name}: sandbox broken afterwards");
    }
}
