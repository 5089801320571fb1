//! Time a cached reload of the bundled content (what `cav watch` does after a save, minus the
//! watcher's quiet period). `cargo run --release -p cav-watch --example reload_cost`
use std::path::Path;
use std::time::Instant;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let opts = cav_content::LoadOptions {
        paths: vec![root.join("content"), root.join("mods")],
        library: vec![root.join("content"), root.join("mods")],
    };
    let mut cache = cav_content::pack::Cache::default();
    let t = Instant::now();
    let _ = cav_content::load_cached(&opts, &mut cache);
    println!("cold load {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    for _ in 0..5 {
        let t = Instant::now();
        let loaded = cav_content::load_cached(&opts, &mut cache);
        let t1 = t.elapsed();
        let rules = cav_compile::compile_rules(loaded.ruleset("cav-quickstart").unwrap()).unwrap();
        let t2 = t.elapsed();
        let _host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
        let t3 = t.elapsed();
        // What `cav watch` also does per reload: compile and check every loaded ruleset.
        let mut loaded = loaded;
        let v = std::time::Instant::now();
        let _ = cav_compile::validate(&mut loaded);
        let tv = v.elapsed();
        // What the quick path of a script save does instead: check one ruleset's scripts (beside
        // a new `LuaHost`, on the other core).
        let c = std::time::Instant::now();
        let _ = cav_script::check_scripts(loaded.ruleset("cav-quickstart").unwrap(), &mut loaded.sources.clone());
        println!(
            "cached load {:.1} ms, + compile {:.1} ms, + scripts {:.1} ms; validate (every ruleset) {:.1} ms; \
             check_scripts (quickstart) {:.1} ms",
            t1.as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            (t3 - t2).as_secs_f64() * 1e3,
            tv.as_secs_f64() * 1e3,
            c.elapsed().as_secs_f64() * 1e3
        );
    }
}
