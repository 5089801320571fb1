//! `cav_content::module_state` on the deepest nesting of each kind Luau compiles (its parser's
//! recursion limit): walked without overflowing in an optimised build. An unoptimised build needs
//! more stack than the check's thread has, which is why `cav validate` runs it in the
//! `cav-typecheck` process (a crash there stops the script checks and says so): this test runs
//! only where it means what the users run.

#[test]
#[cfg_attr(debug_assertions, ignore = "the optimised build's stack use is what is bounded")]
fn the_deepest_nesting_luau_compiles_does_not_overflow() {
    let lua = mlua::Lua::new();
    let deepest = |make: &dyn Fn(usize) -> String| {
        let (mut lo, mut hi) = (1, 20_000);
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if lua.load(make(mid)).into_function().is_ok() { lo = mid } else { hi = mid }
        }
        make(lo)
    };
    let parens = |n: usize| format!("local x = {}1{}\nreturn {{}}\n", "(".repeat(n), ")".repeat(n));
    let tables = |n: usize| format!("local x = {}{}\nreturn {{}}\n", "{".repeat(n), "}".repeat(n));
    let blocks = |n: usize| format!("{}{}return {{}}\n", "do ".repeat(n), "end ".repeat(n));
    let functions =
        |n: usize| format!("local f = {}{}\nreturn {{}}\n", "function() return ".repeat(n), "1 end".repeat(n));
    let unary = |n: usize| format!("local x = {}1\nreturn {{}}\n", "- ".repeat(n));
    for make in [&parens as &dyn Fn(usize) -> String, &tables, &blocks, &functions, &unary] {
        let src = deepest(make);
        assert!(src.len() > 40, "Luau compiles some nesting of each kind");
        assert_eq!(cav_content::module_state::module_state(&src), vec![], "{}", &src[..40]);
    }
}
