use super::*;

fn arm<'a>(rules: &'a Rules, content_hash: &'a str) -> Arm<'a> {
    Arm { rules, content_hash, rosters: None, bots: Bots::Rules }
}

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
    r.weapons.insert(
        "gun".into(),
        WeaponStats { shots: 4 * count, hits: 2 * count, penetrations: count, damage: count, ..Default::default() },
    );
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
    assert_eq!(
        abc.weapons["gun"],
        WeaponStats { shots: 48, hits: 24, penetrations: 12, damage: 12, ..Default::default() }
    );
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

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Ruleset `id` of the packs under `path` (relative to the project root), compiled.
fn ruleset(path: &str, id: &str) -> (cav_content::Ruleset, Rules) {
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![root().join(path)], library: vec![] });
    let rs = loaded.ruleset(id).unwrap_or_else(|| panic!("the ruleset {id}")).clone();
    let rules = cav_compile::compile_rules(&rs).expect("compiles");
    (rs, rules)
}

fn quickstart() -> (cav_content::Ruleset, Rules) {
    ruleset("content", "cav-quickstart")
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
        let r = pool.install(|| run(arm(&rules, &hash), "stand-and-fight", 5..45, &progress)).unwrap();
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
    // Every attack is in one band of its weapon; every game in each side's damage histogram.
    for (w, bands) in &r.bands {
        assert_eq!(bands.values().map(|b| b.shots).sum::<u64>(), r.weapons[w].shots, "{w}: {bands:?}");
    }
    assert!(r.bands["Medium MAC"].len() > 1, "the MAC fires at more than one band: {:?}", r.bands);
    for side in &r.sides {
        let h = &r.damage_games[side];
        assert_eq!(h.values().sum::<u64>(), 40);
        assert_eq!(h.iter().map(|(d, n)| u64::from(*d) * n).sum::<u64>(), r.damage[side]);
    }
    assert_eq!(r.model_damage.values().sum::<u64>(), r.damage.values().sum::<u64>());
    assert_eq!(r.model_damage.len(), 2, "one Dictator-B a side: {:?}", r.model_damage);
    // CAV lands no table rows: its result carries none of their counts (its JSON is as it was).
    for key in ["damage_model", "effects", "table_results"] {
        assert!(!one.contains(&format!("\"{key}\"")), "`{key}` in a CAV result");
    }
    let wizzo = r.modifiers["SA: Wizzo (primary roll)"];
    assert!(wizzo.rolls > 0 && wizzo.decided > 0 && wizzo.decided < wizzo.rolls, "{wizzo:?}");
    // Both sides moved, fired and used their Wizzo; the counts are in the JSON.
    for side in &r.sides {
        let u = &r.usage[side];
        assert!(u.actions["move"] > 0 && u.actions["fire"] > 0 && u.sa_uses("wizzo") > 0, "{side}: {u:?}");
    }
    assert!(one.contains("\"usage\""));
    // Two halves merged are the whole, action usage included.
    let half = |s: Range<u64>| run(arm(&rules, &hash), "stand-and-fight", s, &|| ()).unwrap();
    assert_eq!(SimResult::merge(half(25..45), &half(5..25)).unwrap(), r);
    let thirds: Vec<SimResult> = [5..18, 18..31, 31..45].into_iter().map(half).collect();
    let merged = thirds.iter().skip(1).try_fold(thirds[0].clone(), SimResult::merge).unwrap();
    assert_eq!(merged.usage, r.usage);
    assert!(merged.consistent().is_ok());
}

/// The action usage a sim counts is what the games' own logs show: the same seeds played with the
/// plain bot and a full log (so the counting controller changes no game) give the same winners
/// and lengths, as many accepted moves as the active model's own `moved` events, as many fire
/// actions as activations in which the active model attacked, as many defensive-fire reactions as
/// their events, and as many Wizzo uses as rolls its rows changed.
#[test]
fn usage_counts_match_the_logs() {
    let (rs, rules) = quickstart();
    let hash = content_hash(&rs).unwrap();
    let seeds = 1..9;
    let r = run(arm(&rules, &hash), "stand-and-fight", seeds.clone(), &|| ()).unwrap();
    let sc = rules.scenario("stand-and-fight").unwrap();
    let mut host = cav_script::LuaHost::new(&rules, cav_script::Limits::default()).unwrap();
    let mut counted: BTreeMap<(usize, &str), u64> = BTreeMap::new();
    let (mut turns, mut wins) = (0u64, BTreeMap::<usize, u64>::new());
    for seed in seeds {
        let mut log: Vec<Event> = Vec::new();
        let (game, end) =
            cav_rules::setup::run(&rules, sc, None, seed, &mut log, &mut host, |e| e.play(&mut Bot::default()));
        let sides: Vec<usize> = game.models.iter().map(|m| m.side).collect();
        drop(game);
        let end = end.unwrap();
        turns += u64::from(end.turns);
        if let Some(w) = end.winner {
            *wins.entry(w).or_default() += 1;
        }
        let side = |m: usize| sides[m];
        let mut active: Option<(usize, bool)> = None;
        for e in &log {
            match e {
                Event::Activation { model, .. } => active = Some((*model, false)),
                Event::ActivationEnd { .. } => active = None,
                Event::Moved { model, .. } if active.is_some_and(|(a, _)| a == *model) => {
                    *counted.entry((side(*model), "move")).or_default() += 1;
                }
                Event::Attack { model, .. } => {
                    if let Some((a, fired)) = &mut active
                        && *a == *model
                        && !*fired
                    {
                        *fired = true;
                        *counted.entry((side(*model), "fire")).or_default() += 1;
                    }
                }
                Event::DefensiveFire { model, .. } => {
                    *counted.entry((side(*model), "defensive-fire")).or_default() += 1
                }
                Event::Roll(roll) => {
                    let wizzo = roll.mods.iter().any(|m| m.value != 0 && m.source.starts_with("SA: Wizzo"));
                    *counted.entry((side(roll.model), "wizzo")).or_default() += u64::from(wizzo);
                }
                _ => {}
            }
        }
    }
    assert_eq!(r.turns_sum, turns, "the counting controller changes no game");
    for (k, side) in r.sides.iter().enumerate() {
        assert_eq!(r.wins[side], wins.get(&k).copied().unwrap_or(0), "{side} wins");
        let u = &r.usage[side];
        let n = |what: &str| counted.get(&(k, what)).copied().unwrap_or(0);
        assert!(n("move") > 0 && n("fire") > 0, "{side}: {counted:?}");
        // (A stand-up is a move too, and moves nothing.)
        assert_eq!(u.actions["move"], n("move"), "{side} moves: {u:?}");
        assert_eq!(u.actions["fire"], n("fire"), "{side} fire actions: {u:?}");
        assert_eq!(u.reactions.get("defensive-fire").copied().unwrap_or(0), n("defensive-fire"), "{side}");
        assert_eq!(u.sa_uses("wizzo"), n("wizzo"), "{side} Wizzo");
        assert!(u.decisions >= u.actions.values().sum::<u64>(), "{side}: {u:?}");
        assert_eq!(u.sas["wizzo"].carried, 8, "{side} fields its Dictator-B in every game");
    }
}

/// `--vs remove-sa:` of an SA the bots never exercise (Improved Armor does nothing in the
/// Quick-Start: no roll, hit or script names it) says so; of one they use (Wizzo), it does not.
#[test]
fn removing_an_sa_the_bots_never_used_is_not_exercised() {
    use change::{Change, b_paths, write_pack};
    let (rs, rules) = quickstart();
    let ha = content_hash(&rs).unwrap();
    let tmp = std::env::temp_dir().join(format!("cav-lab-usage-{}", std::process::id()));
    let vs = |spec: &str| {
        let p = Change::parse(spec).unwrap().patches(&rs, "stand-and-fight", None).unwrap();
        let pack = write_pack(&tmp.join(spec.replace(':', "-")), &rs, "b", &p.docs).unwrap();
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: b_paths(&rs, &[pack], &[]),
            library: vec![root().join("content"), root().join("mods")],
        });
        let rs_b = loaded.ruleset(&rs.id).unwrap().clone();
        let rules_b = cav_compile::compile_rules(&rs_b).unwrap();
        let hb = content_hash(&rs_b).unwrap();
        run_vs(arm(&rules, &ha), arm(&rules_b, &hb), spec, "stand-and-fight", 1..21, &|| ()).unwrap()
    };
    let unused = vs("remove-sa:improved-armor");
    assert_eq!(unused.removed_sa_uses(), Some(("improved-armor", 0)));
    assert!(unused.a.usage.values().all(|u| u.sas["improved-armor"].carried == 20));
    let used = vs("remove-sa:wizzo");
    let (sa, uses) = used.removed_sa_uses().unwrap();
    assert!(sa == "wizzo" && uses > 0, "{uses}");
    assert!(used.b.usage.values().all(|u| u.sa_uses("wizzo") == 0), "B has no Wizzo to use");
    let swap = vs("swap:dictator-b=gnat@black");
    assert_eq!(swap.removed_sa_uses(), None, "only a removed SA is asked about");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Usage that does not add up (an SA used in more games than were played, declined more often
/// than offered, a side the scenario does not have) is refused.
#[test]
fn usage_that_disagrees_is_refused() {
    let mut r = result(0, 4);
    r.damage_games.clear();
    assert_eq!(r.consistent(), Ok(()));
    r.usage
        .entry("red".into())
        .or_default()
        .sas
        .insert("x".into(), SaUsage { carried: 4, games: 2, uses: 5, ..Default::default() });
    assert_eq!(r.consistent(), Ok(()));
    let mut bad = r.clone();
    bad.usage.get_mut("red").unwrap().sas.get_mut("x").unwrap().games = 5;
    assert!(bad.consistent().unwrap_err().contains("used in 5 of 4 games"));
    let mut bad = r.clone();
    bad.usage.get_mut("red").unwrap().sas.get_mut("x").unwrap().declined = 1;
    assert!(bad.consistent().is_err());
    let mut bad = r.clone();
    bad.usage.insert("green".into(), Usage::default());
    assert!(bad.consistent().unwrap_err().contains("no side"));
    // Merged, the counts add.
    let mut b = result(4, 4);
    b.usage.entry("red".into()).or_default().actions.insert("move".into(), 3);
    let m = SimResult::merge(r, &b).unwrap();
    assert_eq!(m.usage["red"].actions["move"], 3);
    assert_eq!(m.usage["red"].sas["x"].uses, 5);
}

/// A modifier decides a roll when, without its value, the roll would have gone the other way;
/// never when the dice were a natural critical.
#[test]
fn a_modifier_decides_the_rolls_its_value_turns() {
    let roll = |margin: i32, success: bool, critical: Option<&'static str>, value: i32| {
        Event::Roll(cav_rules::event::Roll {
            model: 0,
            kind: "combat".into(),
            dice: "2d6".into(),
            natural: vec![3, 4],
            mods: vec![cav_rules::event::ModApplied { source: "SA: Test".into(), value, charge: None }],
            total: 7,
            target: Some(7 - margin),
            margin: Some(margin),
            success: Some(success),
            critical,
        })
    };
    let mut t = Tally::default();
    t.push(roll(0, true, None, 1)); // would have missed by 1: decided
    t.push(roll(2, true, None, 1)); // hits anyway
    t.push(roll(-1, false, None, -1)); // would have hit: decided
    t.push(roll(-3, false, None, -1)); // misses anyway
    t.push(roll(0, true, Some("success"), 5)); // a natural critical
    t.push(roll(0, true, None, 0)); // a modifier of 0 changes nothing
    assert_eq!(t.modifiers["SA: Test"], ModifierStats { rolls: 5, decided: 2, hits: 0 });
}

#[test]
fn unknown_scenario_is_refused() {
    let (_, rules) = quickstart();
    let err = run(arm(&rules, "x"), "no-such-scenario", 0..1, &|| ()).unwrap_err();
    assert!(err.contains("no scenario `no-such-scenario`"), "{err}");
}

/// The charts are well-formed XML with one bar per side (and draws), per game length and per
/// weapon; the win-rate bars carry their Wilson interval; names are escaped.
#[test]
fn charts_are_well_formed_svg_with_a_bar_per_row() {
    let mut r = result(1, 100);
    r.weapons.insert(
        "<Rail & Gun>".into(),
        WeaponStats { shots: 10, hits: 5, penetrations: 1, damage: 1, ..Default::default() },
    );
    r.turns.insert(5, 7);
    r.damage_games.insert("red".into(), [(0, 60), (4, 40)].into());
    r.damage_games.insert("black".into(), [(5, 100)].into());
    let band = |shots, hits| WeaponStats { shots, hits, ..Default::default() };
    r.bands.insert("<Rail & Gun>".into(), [("Short".to_owned(), band(6, 4)), ("Long".to_owned(), band(4, 1))].into());
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
            "damage.svg" => 3, // red 0 and 4, black 5
            "bands.svg" => 2,  // the rail gun at short and long
            other => panic!("unexpected chart {other}"),
        };
        assert_eq!(bars, expected, "{name}");
    }
    let wins = plot::win_rates(&r);
    assert!(wins.contains("50.0 % [40.4, 59.6]"), "red won 50 of 100: {wins}");
    assert!(plot::weapons(&r).contains("&lt;Rail &amp; Gun&gt;"));
    let bands = plot::bands(&r);
    assert!(bands.contains("&lt;Rail &amp; Gun&gt; · Short") && bands.contains("66.7 % of 6"), "{bands}");
    assert!(plot::damage(&r).contains("black — mean 5.00 damage per game"));
}

// --- Paired runs (`cav sim --vs`) ---

/// The paired interval, by hand: 10 games, B wins 3 that A lost and loses 1 that A won.
/// d = +1 three times, −1 once, 0 six times: Σd = 2, Σd² = 4, mean 0.2,
/// s² = (4 − 2²/10) / 9 = 0.4, s/√n = √0.04 = 0.2, half-width 1.959964 × 0.2 = 0.391993.
#[test]
fn paired_interval_matches_a_hand_computed_example() {
    let d = paired_diff(10, 2, 4);
    assert!(near(d.mean, 0.2));
    let (lo, hi) = d.interval.unwrap();
    assert!(near(lo, -0.191993) && near(hi, 0.591993), "{lo} {hi}");
    assert!(!d.excludes_zero());
    // Turns 1, 2, 0, −1, 3 longer under B: Σ = 5, Σ² = 15, mean 1, s² = (15 − 25/5) / 4 = 2.5,
    // s/√n = √0.5, half-width 1.385904.
    let d = paired_diff(5, 5, 15);
    let (lo, hi) = d.interval.unwrap();
    assert!(near(d.mean, 1.0) && near(lo, -0.385904) && near(hi, 2.385904), "{lo} {hi}");
    // Every game one turn longer: no spread, the interval is the point, and it leaves out 0.
    let d = paired_diff(4, 4, 4);
    assert_eq!(d.interval, Some((1.0, 1.0)));
    assert!(d.excludes_zero());
    // Nothing changed: [0, 0], which does not leave out 0.
    assert_eq!(paired_diff(7, 0, 0).interval, Some((0.0, 0.0)));
    assert!(!paired_diff(7, 0, 0).excludes_zero());
    assert_eq!(paired_diff(1, 1, 1).interval, None);
    assert_eq!(paired_diff(0, 0, 0).interval, None);
}

/// A paired result of 10 games built by hand: rows are A's outcome (red, black, draw), columns B's.
fn vs_result(first: u64) -> VsResult {
    let sides = ["red".to_owned(), "black".to_owned()];
    let mut a = result(first, 10);
    let mut b = result(first, 10);
    b.content_hash = "b-hash".into();
    let mut paired = Paired::empty(&sides);
    // A: red 5, black 4, draw 1. B: red 7, black 2, draw 1.
    paired.outcomes = vec![vec![4, 1, 0], vec![3, 1, 0], vec![0, 0, 1]];
    a.wins.insert("red".into(), 5);
    a.wins.insert("black".into(), 4);
    a.draws = 1;
    b.wins.insert("red".into(), 7);
    b.wins.insert("black".into(), 2);
    b.draws = 1;
    paired.games_changed = 6;
    paired.turns_diff_sum = 5;
    paired.turns_diff_sq_sum = 15;
    VsResult { change: "swap:x=y".into(), a, b, paired }
}

#[test]
fn outcome_differences_come_from_the_paired_table() {
    let r = vs_result(0);
    // Red: gained 3 (black → red), lost 1 (red → black): the hand example above.
    let red = r.outcome_diff(0);
    assert!(near(red.mean, 0.2) && red.interval.is_some_and(|(lo, _)| near(lo, -0.191993)));
    // Black: gained 1, lost 3.
    assert!(near(r.outcome_diff(1).mean, -0.2));
    // Draws: none changed.
    assert_eq!(r.outcome_diff(2).interval, Some((0.0, 0.0)));
    assert_eq!(r.outcomes_changed(), 4);
    let rows = r.rows();
    let names: Vec<&str> = rows.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["red wins", "black wins", "draws", "turns", "red damage", "black damage"]);
    assert!(near(rows[0].a, 0.5) && near(rows[0].b, 0.7));
    assert!(near(rows[3].diff.mean, 0.5), "turns: Σd = 5 over 10 games");
}

#[test]
fn paired_results_merge_exactly_and_refuse_other_changes_or_content() {
    let (x, y) = (vs_result(0), vs_result(10));
    let xy = VsResult::merge(x.clone(), &y).unwrap();
    let yx = VsResult::merge(y.clone(), &x).unwrap();
    assert_eq!(serde_json::to_string(&xy).unwrap(), serde_json::to_string(&yx).unwrap());
    assert_eq!(xy.a.games, 20);
    assert_eq!(xy.paired.outcomes, vec![vec![8, 2, 0], vec![6, 2, 0], vec![0, 0, 2]]);
    assert_eq!((xy.paired.games_changed, xy.paired.turns_diff_sum, xy.paired.turns_diff_sq_sum), (12, 10, 30));
    let back: VsResult = serde_json::from_str(&serde_json::to_string(&xy).unwrap()).unwrap();
    assert_eq!(back, xy);

    assert!(VsResult::merge(x.clone(), &x).unwrap_err().contains("overlap"));
    let mut other = y.clone();
    other.change = "swap:x=z".into();
    assert!(VsResult::merge(x.clone(), &other).unwrap_err().contains("different changes"));
    let mut other = y.clone();
    other.b.content_hash = "another-b".into();
    let err = VsResult::merge(x.clone(), &other).unwrap_err();
    assert!(err.starts_with("B (swap:x=y)") && err.contains("different content"), "{err}");
    let mut other = y;
    other.a.content_hash = "another-a".into();
    assert!(VsResult::merge(x, &other).unwrap_err().starts_with("A (as is)"));
}

#[test]
fn changes_parse_and_say_what_they_expect() {
    use change::Change;
    let cases = [
        ("swap:dictator-b=gnat", Change::Swap { model: "dictator-b".into(), with: "gnat".into(), side: None }),
        (
            "swap: dictator-b = gnat @ black",
            Change::Swap { model: "dictator-b".into(), with: "gnat".into(), side: Some("black".into()) },
        ),
        ("remove-sa:piercing", Change::RemoveSa { sa: "piercing".into(), model: None }),
        ("remove-sa:piercing@dictator-b", Change::RemoveSa { sa: "piercing".into(), model: Some("dictator-b".into()) }),
        ("option:table-size=small", Change::SetOption { name: "table-size".into(), value: "small".into() }),
        ("mod:../my-mod", Change::AddPacks { path: "../my-mod".into() }),
    ];
    for (text, want) in cases {
        let c = Change::parse(text).unwrap();
        assert_eq!(c, want, "{text}");
        assert_eq!(Change::parse(&c.spec()).unwrap(), c, "the canonical spelling parses back");
    }
    for bad in
        ["swap", "swap:dictator-b", "swap:=gnat", "swap:a=b@", "remove-sa:", "option:x", "option:=1", "mod:", "tweak:x"]
    {
        let err = Change::parse(bad).unwrap_err();
        assert!(err.contains("expected swap:MODEL=OTHER[@SIDE]"), "{bad}: {err}");
    }
}

/// The patches each change makes to the Quick-Start, and the changes that name nothing.
#[test]
fn changes_become_patches_or_say_what_they_miss() {
    use change::Change;
    let (rs, _) = quickstart();
    let patches = |s: &str| Change::parse(s).unwrap().patches(&rs, "stand-and-fight", None);
    let p = patches("swap:Dictator-B=gnat@black").unwrap();
    assert_eq!(p.docs.len(), 1);
    assert_eq!(p.docs[0]["target"], serde_json::json!({"kind": "scenario", "id": "stand-and-fight"}));
    assert_eq!(p.docs[0]["set"]["forces"], serde_json::json!({"black": [{"model": "gnat"}]}), "only black's list");
    let both = patches("swap:dictator-b=gnat").unwrap();
    assert_eq!(both.docs[0]["set"]["forces"].as_object().unwrap().len(), 2);

    let p = patches("remove-sa:piercing@dictator-b").unwrap();
    assert_eq!(p.docs[0]["remove"], serde_json::json!(["/weapons/0/special_attributes/0"]));
    // Everywhere: every model and weapon that has it, each list emptied from its end.
    let p = patches("remove-sa:advanced-targeting-computer").unwrap();
    assert!(p.docs.iter().any(|d| d["target"]["id"] == "dictator-b"));
    for d in &p.docs {
        // Within one list the last item goes first, so the earlier pointers still hold.
        let ptrs: Vec<&str> = d["remove"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        for w in ptrs.windows(2) {
            let (a, b) = (w[0].rsplit_once('/').unwrap(), w[1].rsplit_once('/').unwrap());
            if a.0 == b.0 {
                assert!(a.1.parse::<usize>().unwrap() > b.1.parse::<usize>().unwrap(), "{ptrs:?}");
            }
        }
    }
    assert_eq!(
        change::removal_order(vec!["/s/3".into(), "/w/0/s/1".into(), "/s/10".into(), "/w/0/s/2".into()]),
        ["/w/0/s/2", "/w/0/s/1", "/s/10", "/s/3"]
    );
    let p = patches("option:ranged-critical=no-critical").unwrap();
    let opts = p.docs[0]["set"]["options"].as_array().unwrap();
    let rc = opts.iter().find(|o| o["id"] == "ranged-critical").unwrap();
    assert_eq!(rc["default"], "no-critical");
    assert!(p.notes.is_empty());
    // An engine option the Quick-Start does not declare is declared, with the engine's values.
    let p = patches("option:table-size=small").unwrap();
    let opts = p.docs[0]["set"]["options"].as_array().unwrap();
    let ts = opts.iter().find(|o| o["id"] == "table-size").unwrap();
    assert_eq!((ts["default"].as_str(), ts["choices"].as_array().unwrap().len()), (Some("small"), 2));
    // A reading the engine does not read: allowed, with a note.
    let p = patches("option:qs-dictator-dc-alignment=columns-2-9").unwrap();
    assert!(p.notes[0].contains("does not read"), "{:?}", p.notes);

    for (bad, says) in [
        ("swap:dictator-b=gnatt", "no model `gnatt` in cav-quickstart (did you mean `gnat`?)"),
        ("swap:dictator-b=gnat@blue", "no side `blue`: expected one of red, black"),
        ("swap:warden=gnat", "fields no `warden`: expected a model it fields (dictator-b)"),
        ("swap:dictator-b=dictator-b", "for itself changes nothing"),
        ("remove-sa:no-such-sa", "no special attribute `no-such-sa`"),
        ("remove-sa:piercing@warden", "model `warden` has no special attribute `piercing`"),
        ("remove-sa:aoe@dictator-b", "on its weapon light-rockets-10 itself"),
        ("option:no-such-option=1", "no option `no-such-option` in cav-quickstart or the engine"),
        ("option:ranged-critical=sometimes", "has no value `sometimes`: expected one of critical, no-critical"),
        ("option:ranged-critical=critical", "is already `critical`"),
        ("option:table-size=standard", "already plays `standard`, the engine's default"),
        ("option:table-size=huge", "engine option `table-size` has no value `huge`"),
    ] {
        let err = patches(bad).unwrap_err();
        assert!(err.contains(says), "{bad}: {err}");
    }
    // A special attribute no model, mount or weapon carries (every bundled one is carried by
    // some model, so a pack of the test adds one), and one that only models outside the
    // scenario carry.
    let tmp = std::env::temp_dir().join(format!("cav-lab-unused-sa-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join("unused")).unwrap();
    std::fs::write(
        tmp.join("unused/pack.yaml"),
        "id: unused-sa\nname: Unused SA\nversion: 1.0.0\nkind: extension\ndepends: [\"cav-full >= 1.0\"]\n",
    )
    .unwrap();
    let hard = std::fs::read_to_string(root().join("content/cav-full/special-attributes/hard.yaml")).unwrap();
    std::fs::write(tmp.join("unused/sa.yaml"), hard.replace("id: hard\n", "id: never-carried\n")).unwrap();
    let loaded = cav_content::load(&cav_content::LoadOptions {
        paths: vec![root().join("content"), tmp.join("unused")],
        library: vec![root().join("content")],
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let rs2 = loaded.ruleset("cav-quickstart").unwrap();
    let err = Change::parse("remove-sa:never-carried").unwrap().patches(rs2, "stand-and-fight", None).unwrap_err();
    assert!(err.contains("no model card, weapon mount or weapon in cav-quickstart has the special attribute"), "{err}");
    let p = patches("remove-sa:orbital-flight").unwrap();
    assert!(
        p.notes[0]
            .contains("no model scenario `stand-and-fight` fields carries `orbital-flight` (it fields dictator-b)"),
        "{:?}",
        p.notes
    );
    // Where the players bring rosters, the note looks at the rosters' models instead.
    let carrier = p.docs.iter().find(|d| d["target"]["kind"] == "model").expect("a model carries it");
    let carrier = carrier["target"]["id"].as_str().unwrap().to_owned();
    let on_rosters = |models: &[String]| {
        Change::parse("remove-sa:orbital-flight").unwrap().patches(&rs, "stand-and-fight", Some(models)).unwrap()
    };
    assert_eq!(on_rosters(&[carrier, "dictator-b".into()]).notes, Vec::<String>::new());
    let p = on_rosters(&["dictator-b".into()]);
    assert!(
        p.notes[0].contains("no model the rosters field carries `orbital-flight` (it fields dictator-b)"),
        "{:?}",
        p.notes
    );
}

/// B as `cav sim --vs` builds it: the generated pack loaded with the ruleset's own packs, through
/// the loader and the compiler. A change of nothing the engine plays compiles to the same rules;
/// a real one does not, and B's content hash is its own.
#[test]
fn the_generated_pack_loads_and_compiles_as_content() {
    use change::{Change, b_paths, write_pack};
    let (rs, rules) = quickstart();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tmp = std::env::temp_dir().join(format!("cav-lab-test-{}", std::process::id()));
    let load_b = |name: &str, patches: &[serde_json::Value]| {
        let dir = tmp.join(name);
        let pack = write_pack(&dir, &rs, name, patches).unwrap();
        let loaded = cav_content::load(&cav_content::LoadOptions {
            paths: b_paths(&rs, &[pack], &[]),
            library: vec![root.join("content"), root.join("mods")],
        });
        let errors: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.severity == cav_content::Severity::Error)
            .map(|d| d.message.clone())
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let rs_b = loaded.ruleset(&rs.id).unwrap().clone();
        let rules_b = cav_compile::compile_rules(&rs_b).unwrap();
        (rs_b, rules_b)
    };
    // Only a summary: other content, the same rules.
    let summary = serde_json::json!({"kind": "patch", "target": {"kind": "model", "id": "dictator-b"},
        "set": {"summary": "Reworded."}});
    let (rs_b, rules_b) = load_b("summary", &[summary]);
    assert!(same_rules(&rules, &rules_b), "a summary is not played");
    assert_ne!(content_hash(&rs_b).unwrap(), content_hash(&rs).unwrap());
    assert!(rs_b.pack(change::PACK_ID).is_some(), "the generated pack joins the ruleset");
    // Nothing at all: the same content, hash for hash (the pack's own documents are patches only).
    let (rs_b, rules_b) = load_b("nothing", &[]);
    assert!(same_rules(&rules, &rules_b));
    assert_eq!(content_hash(&rs_b).unwrap(), content_hash(&rs).unwrap());
    // An engine option: compiled in.
    let p = Change::parse("option:table-size=small").unwrap().patches(&rs, "stand-and-fight", None).unwrap();
    let (_, rules_b) = load_b("table", &p.docs);
    assert!(!same_rules(&rules, &rules_b));
    assert!(rules_b.engine_options.small_table && !rules.engine_options.small_table);
    // A swap: black fields a Gnat.
    let p = Change::parse("swap:dictator-b=gnat@black").unwrap().patches(&rs, "stand-and-fight", None).unwrap();
    let (rs_b, rules_b) = load_b("swap", &p.docs);
    assert!(!same_rules(&rules, &rules_b));
    let _ = std::fs::remove_dir_all(&tmp);

    // Played paired: black's win rate falls, red's rises, each interval clear of 0; the same
    // seeds played twice on one thread or four give the same JSON.
    let (ha, hb) = (content_hash(&rs).unwrap(), content_hash(&rs_b).unwrap());
    let arm_a = arm(&rules, &ha);
    let arm_b = arm(&rules_b, &hb);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| run_vs(arm_a, arm_b, "swap:dictator-b=gnat@black", "stand-and-fight", 1..101, &|| ())).unwrap()
    };
    let r = on(1);
    assert_eq!(serde_json::to_string(&r).unwrap(), serde_json::to_string(&on(4)).unwrap());
    assert_eq!(r.a.content_hash, ha);
    assert_eq!(r.b.content_hash, hb);
    assert_eq!(r.paired.outcomes.iter().flatten().sum::<u64>(), 100);
    let (red, black) = (r.outcome_diff(0), r.outcome_diff(1));
    assert!(red.interval.unwrap().0 > 0.0, "red gains against a Gnat: {red:?}");
    assert!(black.interval.unwrap().1 < 0.0, "black loses with a Gnat: {black:?}");
    // A's half is exactly the plain run of the same seeds.
    assert_eq!(r.a, run(arm(&rules, &ha), "stand-and-fight", 1..101, &|| ()).unwrap());
    // Halves merge into the whole.
    let half =
        |s: Range<u64>| run_vs(arm_a, arm_b, "swap:dictator-b=gnat@black", "stand-and-fight", s, &|| ()).unwrap();
    assert_eq!(VsResult::merge(half(51..101), &half(1..51)).unwrap(), r);
}

/// The differences chart: well-formed, one row per compared quantity, intervals that leave out 0
/// drawn in red.
#[test]
fn differences_chart_has_a_row_per_quantity() {
    let r = vs_result(0);
    let svg = plot::differences(&r);
    let mut reader = quick_xml::Reader::from_str(&svg);
    loop {
        match reader.read_event() {
            Ok(quick_xml::events::Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed: {e}\n{svg}"),
        }
    }
    assert_eq!(svg.matches(r#"<g class="diff""#).count(), 6, "{svg}");
    assert!(svg.contains("swap:x=y"), "the chart states the change");
    assert!(svg.contains("+20.00 pp [-19.20, +59.20]"), "red's difference with its interval: {svg}");
    let names: Vec<String> = plot::charts_vs(&r).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names[0], "differences.svg");
    assert!(names.contains(&"a-win-rates.svg".to_owned()) && names.contains(&"b-weapons.svg".to_owned()));
}

/// Sums that would pass 2^64 − 1 are refused, never wrapped round to small numbers.
#[test]
fn merge_refuses_sums_that_would_wrap() {
    let mut a = result(0, 10);
    a.turns_sq_sum = u64::MAX - 5;
    let err = SimResult::merge(a, &result(10, 10)).unwrap_err();
    assert!(err.contains("passes"), "{err}");
    let mut a = result(0, 10);
    a.weapons.get_mut("gun").unwrap().damage = u64::MAX;
    assert!(SimResult::merge(a, &result(10, 10)).unwrap_err().contains("passes"));
}

/// A result whose counts disagree (edited by hand, forged, cut short) is refused before it is
/// merged: the issue's two shards of 2^64 − 1 games, and `games: 0` with 10^18 wins.
#[test]
fn a_result_whose_counts_disagree_is_refused() {
    let mut r = result(0, 10);
    for side in ["red", "black"] {
        r.damage_games.insert(side.into(), BTreeMap::from([(5, 10)]));
    }
    assert_eq!(r.consistent(), Ok(()));
    let refused = |f: &dyn Fn(&mut SimResult), must: &str| {
        let mut bad = r.clone();
        f(&mut bad);
        let err = bad.consistent().unwrap_err();
        assert!(err.contains(must), "{err} (expected {must:?})");
    };
    refused(&|b| b.games = u64::MAX, "but the seed ranges count 10");
    refused(
        &|b| {
            b.games = 0;
            b.seeds.clear();
            b.wins.insert("red".into(), 10u64.pow(18));
        },
        "the wins and draws count",
    );
    refused(&|b| b.seeds = vec![SeedRange { first: u64::MAX - 2, count: 10 }], "run past the largest seed");
    refused(&|b| b.turns.insert(4, 1).map_or((), |_| ()), "the game lengths count 11");
    refused(&|b| b.weapons.get_mut("gun").unwrap().hits = 100, "hits are shots");
    refused(
        &|b| b.modifiers.insert("aim".into(), ModifierStats { rolls: 1, decided: 2, hits: 0 }).map_or((), |_| ()),
        "decided 2 of 1",
    );
}

fn hex_vehicles() -> (cav_content::Ruleset, Rules) {
    ruleset("mods/hex-vehicles", "hex-vehicles")
}

/// Under a damage model by tables (`procedures.attack.damage_table`: the hex-vehicles pack) a hit
/// deals no damage points, so the damage figures are 0: what its hits do is counted as the rows
/// they land on enemy models (results) and those that change the model (effects), per weapon,
/// band, side and model, and every row landed by name; the result says which table hits read.
#[test]
fn a_damage_model_by_tables_counts_the_rows_its_hits_land() {
    let (rs, rules) = hex_vehicles();
    let hash = content_hash(&rs).unwrap();
    let row = |table: &str, name: &str| {
        let t = rules.lookup_tables.iter().find(|t| t.name == table).unwrap();
        t.rows.iter().find(|r| r.name.starts_with(name)).unwrap()
    };
    assert!(!row_acts(row("Damage effects", "No effect")), "a row of no effect is no effect");
    assert!(!row_acts(row("Light damage", "Roll twice")), "a row that only rolls again is no effect itself");
    assert!(!row_acts(row("Light damage", "Fire control")), "a row that only rolls on is no effect itself");
    assert!(row_acts(row("Damage effects", "Light damage")), "armor −1");
    assert!(row_acts(row("Damage effects", "Overkill")), "destroyed");
    assert!(row_acts(row("Light damage", "Movement")), "1 MP fewer");
    for scenario in ["river-crossing", "night-crossing"] {
        let r = run(arm(&rules, &hash), scenario, 1..13, &|| ()).unwrap();
        assert_eq!(r.consistent(), Ok(()), "{scenario}");
        assert_eq!(r.damage_model.as_deref(), Some("Damage effects"), "{scenario}");
        // The pack's rows deal no damage points: damage alone would say these games did nothing.
        assert_eq!(r.damage.values().sum::<u64>(), 0, "{scenario}: {:?}", r.damage);
        let results: u64 = r.weapons.values().map(|w| w.table_results).sum();
        let effects: u64 = r.weapons.values().map(|w| w.effects).sum();
        assert!(effects > 0, "{scenario}: the hits change their targets: {:?}", r.weapons);
        assert!(effects < results, "{scenario}: some rows do nothing (no effect, a roll on): {:?}", r.weapons);
        for (w, s) in r.weapons.iter().filter(|(_, s)| s.hits > 0) {
            assert!(s.table_results >= s.hits.min(1), "{scenario}: `{w}` hit and landed no row: {s:?}");
        }
        assert!(r.effects.values().all(|&e| e > 0), "{scenario}: both sides change models: {:?}", r.effects);
        assert_eq!(r.effects.values().sum::<u64>(), effects, "{scenario}");
        assert_eq!(r.model_effects.values().sum::<u64>(), effects, "{scenario}");
        let landed: u64 = r.table_results.values().sum();
        assert_eq!(landed, results + r.table_results_unattributed, "{scenario}: {:?}", r.table_results);
        assert!(r.table_results["Damage effects · No effect"] > 0, "{scenario}: {:?}", r.table_results);
        // Every attack is in one band of its weapon: its rows too.
        for (w, bands) in &r.bands {
            let s = r.weapons[w];
            assert_eq!(bands.values().map(|b| b.table_results).sum::<u64>(), s.table_results, "{scenario}: {w}");
            assert_eq!(bands.values().map(|b| b.effects).sum::<u64>(), s.effects, "{scenario}: {w}");
        }
        // The counts merge exactly and go through JSON.
        let half = |s: Range<u64>| run(arm(&rules, &hash), scenario, s, &|| ()).unwrap();
        assert_eq!(SimResult::merge(half(7..13), &half(1..7)).unwrap(), r, "{scenario}");
        let back: SimResult = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r, "{scenario}");
    }
}

/// A table row counts under the attack that landed it on an enemy model (its weapon, band, side
/// and model), closed by the attack's damage points or the activation's end; a row outside an
/// attack, or on the attacker's own side, is unattributed, never counted under a weapon.
#[test]
fn table_rows_count_under_the_attack_that_landed_them_on_an_enemy() {
    let attack = |model: usize, target: usize| Event::Attack {
        model,
        target,
        weapon: "gun".into(),
        mode: "direct",
        distance: 3.0,
        band: Some("Short".into()),
    };
    let row = |model: usize| Event::TableResult { model, table: "t".into(), key: 1, result: "r".into() };
    let points =
        |model: usize, target: usize| Event::DamagePoints { model, target, rolls: 1, hits: 1, dealing: 1, damage: 0 };
    let mut t = Tally::default();
    for e in [
        row(2), // before any attack: unattributed
        attack(0, 2),
        row(2),
        row(2),
        points(0, 2), // model 0's attack landed two rows on model 2 (an enemy)
        row(2),       // after it: unattributed
        attack(0, 1),
        row(1), // on model 1, model 0's own side: unattributed
        points(0, 1),
        attack(3, 0),
        row(0), // closed by the activation's end: model 3's
        Event::ActivationEnd { model: 3 },
    ] {
        t.push(e);
    }
    let sides = ["red".to_owned(), "black".to_owned()];
    let mut r = SimResult::empty("duel", "x", "abc", &sides);
    let names: Vec<String> = ["red a", "red b", "black c", "black d"].map(String::from).to_vec();
    t.settle(&mut r, |m| [0, 0, 1, 1].get(m).copied(), &names);
    assert_eq!(t.weapons["gun"].table_results, 3);
    assert_eq!(t.weapons["gun"].effects, 3, "without the rules every row counts as an effect");
    assert_eq!(t.bands["gun"]["Short"].table_results, 3);
    assert_eq!(r.table_results_unattributed, 3);
    assert_eq!(r.table_results["t · r"], 6);
    assert_eq!(r.effects, BTreeMap::from([("red".to_owned(), 2), ("black".to_owned(), 1)]));
    assert_eq!(r.model_effects, BTreeMap::from([("red a".to_owned(), 2), ("black d".to_owned(), 1)]));
}

/// Effects are table results, and every table result a weapon's or unattributed: a result that
/// says otherwise is refused, as is a merge of results of different damage tables.
#[test]
fn table_counts_that_disagree_are_refused() {
    let mut r = result(0, 10);
    for side in ["red", "black"] {
        r.damage_games.insert(side.into(), BTreeMap::from([(5, 10)]));
    }
    r.damage_model = Some("Damage effects".into());
    let gun = r.weapons.get_mut("gun").unwrap();
    (gun.table_results, gun.effects) = (5, 3);
    r.table_results.insert("Damage effects · Light".into(), 6);
    r.table_results_unattributed = 1;
    r.effects.insert("red".into(), 3);
    r.model_effects.insert("red a".into(), 3);
    assert_eq!(r.consistent(), Ok(()));
    let refused = |f: &dyn Fn(&mut SimResult), must: &str| {
        let mut bad = r.clone();
        f(&mut bad);
        let err = bad.consistent().unwrap_err();
        assert!(err.contains(must), "{err} (expected {must:?})");
    };
    refused(&|b| b.weapons.get_mut("gun").unwrap().effects = 6, "effects are table results");
    refused(&|b| b.table_results_unattributed = 0, "6 table results landed");
    refused(&|b| b.effects.clear(), "the sides count 0");
    refused(&|b| b.model_effects.clear(), "the models count 0");
    let mut other = result(10, 1);
    other.damage_model = Some("Hits".into());
    assert!(SimResult::merge(r.clone(), &other).unwrap_err().contains("different damage tables"));
    other.damage_model = None;
    assert!(SimResult::merge(r, &other).unwrap_err().contains("the other none"));
}

/// A shot whose hit roll could not succeed is counted as hopeless, under its weapon and band: the
/// Quick-Start's 2d6 (a natural 12 adds 1d6) at −20 against 8 cannot reach it, at 0 can; only the
/// attack's first roll with a target, by the attacker, is its hit roll.
#[test]
fn shots_whose_hit_roll_could_not_succeed_are_hopeless() {
    use cav_rules::event::{ModApplied, Roll};
    let (_, rules) = quickstart();
    let attack = |model: usize| Event::Attack {
        model,
        target: 1,
        weapon: "gun".into(),
        mode: "direct",
        distance: 3.0,
        band: Some("Short".into()),
    };
    let roll = |model: usize, mods: i32, target: Option<i32>| {
        Event::Roll(Roll {
            model,
            kind: "combat".into(),
            dice: "2d6".into(),
            natural: vec![3, 3],
            mods: vec![ModApplied { source: "test".into(), value: mods, charge: None }],
            total: 6 + mods,
            target,
            margin: None,
            success: Some(false),
            critical: None,
        })
    };
    let mut t = Tally { rules: Some(&rules), ..Tally::default() };
    for e in [
        attack(0),
        roll(1, -20, Some(8)), // another model's roll: not the attack's
        roll(0, -20, None),    // no target: not its hit roll
        roll(0, -20, Some(8)), // hopeless
        roll(0, -20, Some(8)), // its second roll: not its hit roll
        attack(0),
        roll(0, 0, Some(8)), // 2d6 reaches 8
        attack(0),
        roll(0, -9, Some(8)), // a natural 12 and its 1d6 bonus reach 9
        attack(0),
        roll(0, -11, Some(8)), // 12 + 6 − 11 = 7: hopeless
    ] {
        t.push(e);
    }
    assert_eq!(t.weapons["gun"].shots, 4);
    assert_eq!(t.weapons["gun"].hopeless, 2);
    assert_eq!(t.bands["gun"]["Short"].hopeless, 2);
}

/// The searching bot (`--bot SIDE=search`): the same seeds give byte-identical JSON on one
/// thread and on three, and as shards merged; the result names the side it played and the
/// rollouts it spent; its side fires and none of its shots is hopeless; a result of other bots
/// does not merge with it.
#[test]
fn the_searching_bot_plays_the_same_games_anywhere_and_wastes_no_shot() {
    let (rs, rules) = quickstart();
    let hash = content_hash(&rs).unwrap();
    let red = ["red".to_owned()];
    let searching = Arm { bots: Bots::SearchFor(&red), ..arm(&rules, &hash) };
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let r = pool.install(|| run(searching, "stand-and-fight", 1..9, &|| ())).unwrap();
        serde_json::to_string_pretty(&r).unwrap()
    };
    let one = on(1);
    assert_eq!(one, on(3));
    let r: SimResult = serde_json::from_str(&one).unwrap();
    let half = |s: Range<u64>| run(searching, "stand-and-fight", s, &|| ()).unwrap();
    assert_eq!(SimResult::merge(half(5..9), &half(1..5)).unwrap(), r);
    assert_eq!(r.search_bot, red);
    assert!(r.rollouts > r.usage["red"].decisions, "{} rollouts", r.rollouts);
    let u = &r.usage["red"];
    assert!(u.actions["fire"] > 0 && u.shots > 0 && u.hopeless == 0, "{u:?}");
    // The search says, per action the ruleset has, when it could declare it and why not: every
    // decision either accepts an action or gives the engine's reasons; a side it did not play
    // has no such account.
    let fire = &u.searched["fire"];
    assert!(fire.available > 0 && fire.weighed > 0 && fire.weighed <= fire.available, "{fire:?}");
    assert!(u.searched["move"].available <= u.decisions, "{u:?}");
    let mount = &u.searched["mount"];
    assert_eq!(mount.available, 0, "{mount:?}");
    assert!(mount.main_refusals(3).iter().any(|(why, n)| why.contains("transport") && *n > 0), "{mount:?}");
    assert!(r.usage.iter().all(|(side, u)| side == "red" || u.searched.is_empty()), "{:?}", r.usage);
    // Every shot is counted under its side, as under its weapon.
    let side_shots: u64 = r.usage.values().map(|u| u.shots).sum();
    assert_eq!(side_shots, r.weapons.values().map(|w| w.shots).sum::<u64>());
    let rules_bot = run(arm(&rules, &hash), "stand-and-fight", 9..10, &|| ()).unwrap();
    assert!(rules_bot.search_bot.is_empty() && rules_bot.rollouts == 0);
    let refused = SimResult::merge(r, &rules_bot).unwrap_err();
    assert!(refused.contains("different bots"), "{refused}");
    let unknown = Arm { bots: Bots::SearchFor(&["blue".to_owned()]), ..arm(&rules, &hash) };
    let err = run(unknown, "stand-and-fight", 1..2, &|| ()).unwrap_err();
    assert!(err.contains("no side `blue`") && err.contains("red, black"), "{err}");
}

/// The searching bot knows no game: it plays the packs of other games (Sythopian Wars'
/// draw-deck squads, Infinity's pooled orders and reactions, the hex game's damage tables) to
/// their end on both sides, declaring actions the rules accept.
#[test]
fn the_searching_bot_plays_other_games_to_the_end() {
    for (path, id, scenario) in [
        ("mods/sythopian-wars", "sythopian-wars", "ruins-brawl"),
        ("mods/infinity-firefight", "infinity-firefight", "street-firefight"),
        ("mods/hex-vehicles", "hex-vehicles", "river-crossing"),
    ] {
        let (rs, rules) = ruleset(path, id);
        let hash = content_hash(&rs).unwrap();
        let r = run(Arm { bots: Bots::Search, ..arm(&rules, &hash) }, scenario, 1..3, &|| ())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(r.games, 2, "{id}");
        assert_eq!(r.search_bot, r.sides, "{id}");
        assert!(r.rollouts > 0, "{id}");
        for side in &r.sides {
            let declared: u64 = r.usage[side].actions.values().sum();
            assert!(declared > 0, "{id}: {side} declared nothing: {:?}", r.usage[side]);
        }
    }
}
