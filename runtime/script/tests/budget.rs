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

/// Arguments a hostile script may pass to any library function: numbers the C side reads from
/// strings (Luau coerces `"2147483646"` where an integer is expected), the extremes of an `int`,
/// NaN and infinities, and the largest strings, tables and buffers the memory cap allows.
const HOSTILE_ARGUMENTS: &[&str] = &[
    "{}, '1', '2147483646', 2, {}",
    "{}, 1, 2147483646, 2, {}",
    "'', '2147483646', '2147483646', '2147483646'",
    "'x', '2147483646', '-2147483647'",
    "'x', '-2147483648', '2147483647', '2147483647'",
    "string.rep('a', 1000000), '1', '2147483646', '2147483646'",
    "string.rep('a', 1000000), '-1', '-2147483646'",
    "string.rep('%a-', 1000), string.rep('a', 100000)",
    "table.create(100000, 'a'), ',', '1', '2147483646'",
    "table.create(100000, 1), '2147483646', 1",
    "table.create(100000, 1), 1, '100000', '2147483646'",
    "buffer.create(1000000), '0', 0, '2147483646'",
    "buffer.create(1000000), 0, buffer.create(1000000), 0, '1000000'",
    "0/0, math.huge, -math.huge, 0/0",
    "'1e308', '1e308', '1e308', '1e308'",
    "math.huge, 'i16', '2147483646'",
    "string.rep('x', 60000), string.rep('x', 60000), string.rep('x', 60000)",
    "function() return true end, table.create(100000, 1), '2147483646'",
    "coroutine.create(function() while true do coroutine.yield() end end), '2147483646'",
];

/// The audit of the sandbox's standard library: every function each library exposes (found by
/// walking the globals, so a function added by a Luau upgrade is audited too), called with every
/// hostile argument list, ends quickly — with a value, by its budget or with an argument error —
/// and leaves the sandbox working. A C loop over a coerced bound (`table.move` with string
/// bounds ran 36 s) takes seconds here and fails the bound below, far above any normal call.
#[test]
fn every_library_function_with_hostile_arguments_ends() {
    let sb = Sandbox::new(Limits::default(), vec![]).unwrap();
    let listing = sb
        .run(
            "local names = {}
            for k, v in _G do
                if type(v) == 'function' then table.insert(names, k)
                elseif type(v) == 'table' then
                    for f, g in v do if type(g) == 'function' then table.insert(names, k .. '.' .. f) end end
                end
            end
            table.sort(names)
            return table.concat(names, ' ')",
            "list.luau",
        )
        .unwrap();
    let names: Vec<&str> = listing[0].split(' ').collect();
    // The walk found the libraries the sandbox opens (else the audit would test nothing).
    for must in
        ["table.move", "string.rep", "buffer.fill", "utf8.offset", "bit32.extract", "coroutine.wrap", "math.floor"]
    {
        assert!(names.contains(&must), "{must} not among {names:?}");
    }
    let mut slowest = (Duration::ZERO, String::new());
    for name in &names {
        for args in HOSTILE_ARGUMENTS {
            let chunk = format!("local f = {name}\nreturn (pcall(f, {args}))");
            let start = Instant::now();
            let _ = sb.run(&chunk, "audit.luau");
            let took = start.elapsed();
            assert!(took < Duration::from_secs(2), "{name}({args}) took {took:?}");
            if took > slowest.0 {
                slowest = (took, format!("{name}({args})"));
            }
            assert_eq!(sb.run("return 1 + 1", "after").unwrap(), vec!["2"], "{name}({args}) broke the sandbox");
        }
    }
    eprintln!(
        "{} functions × {} argument lists; slowest {:?}: {}",
        names.len(),
        HOSTILE_ARGUMENTS.len(),
        slowest.0,
        slowest.1
    );
}
