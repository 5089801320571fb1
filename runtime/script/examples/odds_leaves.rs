//! The exact odds of one Quick-Start attack (`cav odds dictator-b medium-mac dictator-b --band
//! medium --shots 1`, as `runtime/cli/benches/odds.rs` times it), enumerated N times: for counting
//! the host's instructions per enumeration under callgrind.
//! `cargo run --release -p cav-script --example odds_leaves -- 20`

use std::path::Path;
use std::time::{Duration, Instant};

use cav_rules::odds::{Attack, AttackSpec, exact};
use cav_script::{Limits, LuaHost};

/// The allocator of the `cav` binary (runtime/cli/src/main.rs), so the figures are `cav sim`'s.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root.join("content")],
        library: vec![root.join("content"), root.join("mods")],
    });
    let mut rules =
        cav_compile::compile_rules(loaded.ruleset("cav-quickstart").expect("quickstart")).expect("compiles");
    let card = rules.card("dictator-b").expect("the Dictator-B");
    cav_rules::odds::with_shots(&mut rules, card, &[0], 1).expect("one shot");
    let spec = AttackSpec {
        attacker: "dictator-b#1-shot".into(),
        target: "dictator-b".into(),
        weapons: vec![0],
        range: 18.0,
        ..AttackSpec::default()
    };
    // A generous wall-clock cap per call, as in `scripted_duels`: callgrind runs fifty times slower.
    let mut host = LuaHost::new(&rules, Limits { time: Duration::from_secs(60), ..Limits::default() }).expect("load");
    let attack = Attack::new(&rules, &spec, &mut host).expect("sets up");
    let start = Instant::now();
    let mut leaves = 0;
    for _ in 0..n {
        leaves = exact(&attack, &mut host, &mut cav_rules::odds::Budget::default()).expect("enumerates").leaves;
    }
    println!("{leaves} leaves; {:.3} ms an enumeration", start.elapsed().as_secs_f64() * 1e3 / f64::from(n));
}
