use super::*;

fn result(first: u64, count: u64) -> SimResult {
    let sides = ["red".to_owned(), "black".to_owned()];
    let mut r = SimResult::empty("duel", "cav-quickstart", "abc", &sides);
    r.seeds = vec![SeedRange { first, count }];
    r.games = count;
    r.wins.insert("red".into(), count / 2);
    r.draws = count - count / 2;
    r.turns_sum = 3 * count;
    r.turns_sq_sum = 9 * count;
    r.turns.insert(3, count);
    r.damage.insert("black".into(), 5 * count);
    r.weapons
        .insert("gun".into(), WeaponStats { shots: 4 * count, hits: 2 * count, penetrations: count, damage: count });
    r.states.insert("shaken".into(), first + 1);
    r
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 5e-5
}

#[test]
fn wilson_matches_known_intervals() {
    let (lo, hi) = wilson(50, 100);
    assert!(near(lo, 0.4038) && near(hi, 0.5962), "{lo} {hi}");
    let (lo, hi) = wilson(0, 10);
    assert!(near(lo, 0.0) && near(hi, 0.2775), "{lo} {hi}");
    let (lo, hi) = wilson(81, 263);
    assert!(near(lo, 0.2553) && near(hi, 0.3662), "{lo} {hi}");
    let (lo, hi) = wilson(10, 10);
    assert!(near(lo, 0.7225) && near(hi, 1.0), "{lo} {hi}");
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

#[test]
fn merge_with_empty_is_identity() {
    let a = result(10, 6);
    let empty = SimResult::empty("duel", "cav-quickstart", "abc", &a.sides);
    assert_eq!(SimResult::merge(a.clone(), &empty).unwrap(), a);
    assert_eq!(SimResult::merge(empty, &a).unwrap(), a);
}

#[test]
fn merge_adds_and_joins_adjacent_seeds_in_any_order() {
    let (a, b, c) = (result(0, 4), result(4, 6), result(20, 2));
    let abc = SimResult::merge(SimResult::merge(a.clone(), &b).unwrap(), &c).unwrap();
    let cba = SimResult::merge(SimResult::merge(c.clone(), &b).unwrap(), &a).unwrap();
    assert_eq!(abc, cba);
    assert_eq!(
        serde_json::to_string(&abc).unwrap(),
        serde_json::to_string(&cba).unwrap(),
        "equal results have equal JSON"
    );
    assert_eq!(abc.seeds, vec![SeedRange { first: 0, count: 10 }, SeedRange { first: 20, count: 2 }]);
    assert_eq!(abc.games, 12);
    assert_eq!(abc.wins["red"], 2 + 3 + 1);
    assert_eq!(abc.draws, 2 + 3 + 1);
    assert_eq!(abc.turns_sum, 36);
    assert_eq!(abc.turns[&3], 12);
    assert_eq!(abc.weapons["gun"], WeaponStats { shots: 48, hits: 24, penetrations: 12, damage: 12 });
    assert_eq!(abc.states["shaken"], 1 + 5 + 21);
    let back: SimResult = serde_json::from_str(&serde_json::to_string(&abc).unwrap()).unwrap();
    assert_eq!(back, abc);
}

#[test]
fn merge_refuses_overlaps_and_other_content() {
    let a = result(0, 10);
    let err = SimResult::merge(a.clone(), &a).unwrap_err();
    assert!(err.contains("overlap"), "{err}");
    assert!(SimResult::merge(a.clone(), &result(9, 3)).unwrap_err().contains("overlap"));
    let mut other = result(10, 1);
    other.content_hash = "def".into();
    assert!(SimResult::merge(a.clone(), &other).unwrap_err().contains("different content"));
    let mut other = result(10, 1);
    other.scenario = "brawl".into();
    assert!(SimResult::merge(a.clone(), &other).unwrap_err().contains("different scenarios"));
    let mut other = result(10, 1);
    other.ruleset = "cav-full".into();
    assert!(SimResult::merge(a.clone(), &other).unwrap_err().contains("different rulesets"));
    let mut other = result(10, 1);
    other.sides.reverse();
    assert!(SimResult::merge(a, &other).unwrap_err().contains("different sides"));
}

#[test]
fn turn_statistics_come_from_the_sums() {
    let mut r = result(0, 4);
    // Turns 2, 4, 4, 6: mean 4, sample deviation sqrt(8/3).
    r.turns_sum = 16;
    r.turns_sq_sum = 4 + 16 + 16 + 36;
    assert!(near(r.mean_turns(), 4.0));
    assert!(near(r.sd_turns(), (8.0f64 / 3.0).sqrt()));
}

fn quickstart() -> (cav_content::Ruleset, Rules) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-quickstart").expect("the Quick-Start ruleset").clone();
    let rules = cav_compile::compile_rules(&rs).expect("compiles");
    (rs, rules)
}

/// The same seeds give byte-identical JSON on one thread and on four, and every game is a win
/// or a draw.
#[test]
fn result_does_not_depend_on_the_thread_count() {
    let (rs, rules) = quickstart();
    let hash = content_hash(&rs).unwrap();
    assert_eq!(hash, content_hash(&rs).unwrap());
    let played = std::sync::atomic::AtomicU64::new(0);
    let progress = || {
        played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let r = pool.install(|| run(&rules, &hash, "stand-and-fight", 5..45, &progress)).unwrap();
        serde_json::to_string_pretty(&r).unwrap()
    };
    let (one, four) = (on(1), on(4));
    assert_eq!(one, four);
    assert_eq!(played.load(std::sync::atomic::Ordering::Relaxed), 80);
    let r: SimResult = serde_json::from_str(&one).unwrap();
    assert_eq!(r.games, 40);
    assert_eq!(r.seeds, vec![SeedRange { first: 5, count: 40 }]);
    assert_eq!(r.wins.values().sum::<u64>() + r.draws, 40);
    assert_eq!(r.turns.values().sum::<u64>(), 40);
    assert!(r.weapons.values().any(|w| w.shots > 0 && w.hits > 0), "the bots fire and hit: {:?}", r.weapons);
    assert_eq!(r.weapons.values().map(|w| w.damage).sum::<u64>(), r.damage.values().sum::<u64>());
    // Two halves merged are the whole.
    let half = |s: Range<u64>| run(&rules, &hash, "stand-and-fight", s, &|| ()).unwrap();
    assert_eq!(SimResult::merge(half(25..45), &half(5..25)).unwrap(), r);
}

#[test]
fn unknown_scenario_is_refused() {
    let (_, rules) = quickstart();
    let err = run(&rules, "x", "no-such-scenario", 0..1, &|| ()).unwrap_err();
    assert!(err.contains("no scenario `no-such-scenario`"), "{err}");
}

/// The charts are well-formed XML with one bar per side (and draws), per game length and per
/// weapon; the win-rate bars carry their Wilson interval; names are escaped.
#[test]
fn charts_are_well_formed_svg_with_a_bar_per_row() {
    let mut r = result(1, 100);
    r.weapons.insert("<Rail & Gun>".into(), WeaponStats { shots: 10, hits: 5, penetrations: 1, damage: 1 });
    r.turns.insert(5, 7);
    for (name, svg) in plot::charts(&r) {
        let mut reader = quick_xml::Reader::from_str(&svg);
        let mut depth = 0i32;
        loop {
            match reader.read_event() {
                Ok(quick_xml::events::Event::Start(_)) => depth += 1,
                Ok(quick_xml::events::Event::End(_)) => depth -= 1,
                Ok(quick_xml::events::Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("{name} is not well-formed at {}: {e}", reader.buffer_position()),
            }
        }
        assert_eq!(depth, 0, "{name}: unbalanced elements");
        assert!(svg.contains(r#"<svg xmlns="http://www.w3.org/2000/svg""#), "{name}");
        let bars = svg.matches(r#"<g class="bar""#).count();
        let expected = match name {
            "win-rates.svg" => 3, // red, black, draws
            "turns.svg" => 2,     // 3 turns and 5 turns
            "weapons.svg" => 2,
            other => panic!("unexpected chart {other}"),
        };
        assert_eq!(bars, expected, "{name}");
    }
    let wins = plot::win_rates(&r);
    assert!(wins.contains("50.0 % [40.4, 59.6]"), "red won 50 of 100: {wins}");
    assert!(plot::weapons(&r).contains("&lt;Rail &amp; Gun&gt;"));
}
