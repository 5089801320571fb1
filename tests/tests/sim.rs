//! End-to-end: `cav sim` (the balance lab) on the Quick-Start duel: shards run as separate
//! processes merge into exactly the unsharded result, overlapping or foreign results are refused,
//! usage errors exit 2. `cav sim --vs`: a change that must matter moves the paired difference
//! the expected way with an interval clear of 0, one the scenario never reads is reported as no
//! difference, paired shards merge byte for byte, bad changes exit 2 saying what was expected.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use cav_tests::root;

fn cav() -> Command {
    let mut c = cav_tests::cav_in(&root());
    c.current_dir(root());
    c
}

fn ok(out: &Output, what: &str) {
    cav_tests::succeeded(out, what);
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn four_shards_merge_into_the_whole_run_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let whole = tmp.path().join("a.json");
    let out = cav()
        .args(["sim", "stand-and-fight", "--games", "200", "--format", "json", "--out"])
        .arg(&whole)
        .output()
        .unwrap();
    ok(&out, "the whole run");
    assert!(out.stdout.is_empty(), "--out writes the file, not standard output");

    // The four shards as four separate processes, at the same time.
    let shards: Vec<_> = (1..=4).map(|i| tmp.path().join(format!("s{i}.json"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cav()
                .args(["sim", "stand-and-fight", "--games", "200", "--format", "json", "--shard"])
                .arg(format!("{}/4", i + 1))
                .arg("--out")
                .arg(p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        ok(&c.wait_with_output().unwrap(), &format!("shard {}/4", i + 1));
    }
    let games: Vec<u64> = shards
        .iter()
        .map(|p| serde_json::from_slice::<serde_json::Value>(&read(p)).unwrap()["games"].as_u64().unwrap())
        .collect();
    assert_eq!(games, vec![50, 50, 50, 50]);

    let merged = tmp.path().join("m.json");
    // Out of order on purpose: merging does not care.
    let out = cav()
        .args(["sim", "merge"])
        .args([&shards[2], &shards[0], &shards[3], &shards[1]])
        .arg("--out")
        .arg(&merged)
        .output()
        .unwrap();
    ok(&out, "merge");
    assert_eq!(
        String::from_utf8(read(&merged)).unwrap(),
        String::from_utf8(read(&whole)).unwrap(),
        "the merged shards are the whole run, byte for byte"
    );

    let r: serde_json::Value = serde_json::from_slice(&read(&whole)).unwrap();
    assert_eq!(r["games"], 200);
    assert_eq!(r["seeds"], serde_json::json!([{"first": 1, "count": 200}]));
    let wins: u64 = r["wins"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(wins + r["draws"].as_u64().unwrap(), 200, "every game is a win or a draw: {r}");
    let turns: u64 = r["turns"].as_object().unwrap().values().map(|v| v.as_u64().unwrap()).sum();
    assert_eq!(turns, 200);
    assert!(r["weapons"]["Medium MAC"]["shots"].as_u64().unwrap() > 0, "{r}");
    // The result holds to its published schema.
    let path = root().join("schemas/reports/sim.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(&r).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    // A shard merged with itself: its seeds would count twice.
    let out = cav().args(["sim", "merge"]).args([&shards[0], &shards[0]]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("overlap") && err.contains("seeds 1..51"), "{err}");
    // A shard of other content (another hash).
    let foreign = tmp.path().join("foreign.json");
    let mut f: serde_json::Value = serde_json::from_slice(&read(&shards[1])).unwrap();
    f["content_hash"] = "0000".into();
    std::fs::write(&foreign, serde_json::to_vec_pretty(&f).unwrap()).unwrap();
    let out = cav().args(["sim", "merge"]).args([&shards[0], &foreign]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("different content"));

    // The human table of a merged result, and its charts.
    let charts = tmp.path().join("charts");
    let out = cav().args(["sim", "merge", "--format", "human", "--plot"]).arg(&charts).arg(&whole).output().unwrap();
    ok(&out, "merge --format human --plot");
    for chart in ["win-rates.svg", "turns.svg", "weapons.svg"] {
        let svg = std::fs::read_to_string(charts.join(chart)).unwrap();
        assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"), "{chart}");
        assert!(svg.contains(r#"<g class="bar""#), "{chart} has no bars");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("200 games") && text.contains("95 % interval") && text.contains("Medium MAC"), "{text}");
}

/// A game of the batch is the game `cav play` plays from the same seed.
#[test]
fn a_simulated_game_replays_with_cav_play() {
    for seed in ["3", "8"] {
        let out = cav()
            .args(["sim", "stand-and-fight", "--games", "1", "--format", "json", "--seed", seed])
            .output()
            .unwrap();
        ok(&out, "one game");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let winner = r["wins"].as_object().unwrap().iter().find(|(_, n)| n.as_u64() == Some(1)).map(|(s, _)| s.clone());
        let turns = r["turns"].as_object().unwrap().keys().next().unwrap().clone();
        let out = cav().args(["play", "stand-and-fight", "--quiet", "--seed", seed]).output().unwrap();
        ok(&out, "cav play");
        let text = String::from_utf8_lossy(&out.stdout);
        let want = format!("winner: {}", winner.as_deref().unwrap_or("none (draw)"));
        assert!(text.contains(&want), "seed {seed}: sim says {want}, play says:\n{text}");
        assert!(text.contains(&format!("turns: {turns}\n")), "seed {seed}: sim says {turns} turns:\n{text}");
    }
}

/// A full-rules scenario whose players bring rosters: a roster file for one side, the bot's for
/// the other (built once, from the first seed); two shards merge into the whole run byte for byte,
/// and a shard that fielded another roster is refused as other content.
#[test]
fn roster_scenarios_simulate_and_their_shards_merge() {
    let tmp = tempfile::tempdir().unwrap();
    let sim = |extra: &[&str], out: &Path| {
        let o = cav()
            .args(["sim", "no-man-s-land", "--ruleset", "full", "--games", "4", "--format", "json"])
            .args(["--force", "mods/iron-wolves/forces/wolf-pack.yaml", "--faction", "iron-wolves"])
            .args(extra)
            .arg("--out")
            .arg(out)
            .output()
            .unwrap();
        ok(&o, &format!("{extra:?}"));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    let whole = tmp.path().join("whole.json");
    let told = sim(&[], &whole);
    assert!(told.contains("side-a fields `wolf-pack`"), "what each side fields is told: {told}");
    let (s1, s2) = (tmp.path().join("s1.json"), tmp.path().join("s2.json"));
    sim(&["--shard", "1/2"], &s1);
    sim(&["--shard", "2/2"], &s2);
    let merged = cav().args(["sim", "merge"]).arg(&s2).arg(&s1).output().unwrap();
    ok(&merged, "merge");
    assert_eq!(String::from_utf8_lossy(&merged.stdout), String::from_utf8_lossy(&read(&whole)));
    let r: serde_json::Value = serde_json::from_slice(&read(&whole)).unwrap();
    assert_eq!(r["games"], 4);
    assert!(r["bands"].as_object().is_some_and(|b| !b.is_empty()), "hit rates per band: {r}");
    // Another roster for side b: other content, so the merge refuses it.
    let other = tmp.path().join("other.json");
    sim(&["--shard", "2/2", "--tv", "1500"], &other);
    let refused = cav().args(["sim", "merge"]).arg(&s1).arg(&other).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("different content"));
}

#[test]
fn usage_errors_exit_2() {
    let cases: [(&[&str], &str); 5] = [
        (&["sim", "stand-and-fight", "--games", "10", "--shard", "5/4"], "--shard `5/4`"),
        (&["sim", "stand-and-fight", "--games", "10", "--shard", "two"], "expected I/N"),
        (&["sim", "stand-and-figth", "--games", "10"], "no scenario `stand-and-figth`"),
        (&["sim", "stand-and-fight", "--games", "10", "--force", "x.yaml"], "fixes its forces"),
        (&["sim", "stand-and-fight"], "--games"),
    ];
    for (args, says) in cases {
        let out = cav().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// The rows of `cav sim --format csv`: (run, quantity, name) → (value, low, high).
type CsvRows = BTreeMap<(String, String, String), (f64, Option<f64>, Option<f64>)>;

fn csv_rows(text: &str) -> CsvRows {
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("run,quantity,name,games,value,low,high"), "{text}");
    lines
        .map(|l| {
            let f = csv_fields(l);
            assert_eq!(f.len(), 7, "{l}");
            let num = |s: &str| (!s.is_empty()).then(|| s.parse::<f64>().unwrap());
            ((f[0].clone(), f[1].clone(), f[2].clone()), (num(&f[4]).unwrap(), num(&f[5]), num(&f[6])))
        })
        .collect()
}

/// The fields of one CSV line (RFC 4180: a quoted field may hold commas and doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let (mut fields, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    fields.push(cur);
    fields
}

/// A `B-A` row: the mean difference and its paired interval.
fn diff(rows: &CsvRows, quantity: &str, name: &str) -> (f64, f64, f64) {
    let (v, lo, hi) = rows[&("B-A".to_owned(), quantity.to_owned(), name.to_owned())];
    (v, lo.unwrap(), hi.unwrap())
}

/// Black fielding a Gnat (an extra-small CAV) instead of a Dictator-B must lose far more often,
/// and the paired interval must say so; the table states the change; --plot draws the differences.
#[test]
fn vs_a_much_weaker_model_loses_and_the_paired_interval_says_so() {
    let vs = ["sim", "stand-and-fight", "--games", "100", "--vs", "swap:dictator-b=gnat@black"];
    let out = cav().args(vs).args(["--format", "csv"]).output().unwrap();
    ok(&out, "--vs --format csv");
    let rows = csv_rows(&String::from_utf8_lossy(&out.stdout));
    let (black, lo, hi) = diff(&rows, "win_rate", "black");
    assert!(black < -0.2 && hi < 0.0 && lo <= black, "black's win rate B − A: {black} [{lo}, {hi}]");
    let (red, lo, _) = diff(&rows, "win_rate", "red");
    assert!(red > 0.2 && lo > 0.0, "red's win rate B − A: {red} [{lo}, …]");
    let (dmg, _, hi) = diff(&rows, "damage_per_game", "black");
    assert!(hi < 0.0, "a Gnat deals less damage: {dmg}");
    // A's and B's own rows are there too, B's with the Gnat's weapon.
    assert!(rows.contains_key(&("A".into(), "win_rate".into(), "black".into())));
    assert!(rows.keys().any(|(run, q, w)| run == "B" && q == "hit_rate" && w.contains("Autocannon")), "{rows:?}");

    let tmp = tempfile::tempdir().unwrap();
    let out = cav().args(vs).arg("--plot").arg(tmp.path()).output().unwrap();
    ok(&out, "--vs human --plot");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("B: --vs swap:dictator-b=gnat@black (content "), "{text}");
    assert!(text.contains("B − A, paired by seed (swap:dictator-b=gnat@black)"), "{text}");
    let black_row = text.lines().find(|l| l.trim_start().starts_with("black wins")).unwrap();
    assert!(black_row.contains(" pp") && black_row.ends_with('*'), "{black_row}");
    let svg = std::fs::read_to_string(tmp.path().join("differences.svg")).unwrap();
    assert_eq!(svg.matches(r#"<g class="diff""#).count(), 6, "3 rates, turns, 2 damages");
    for chart in ["a-win-rates.svg", "b-win-rates.svg", "b-weapons.svg"] {
        assert!(tmp.path().join(chart).is_file(), "{chart}");
    }
}

/// Without its Advanced Targeting Computer the Dictator-B hits less, so the duel lasts longer:
/// the paired interval of the mean length is above 0, B's MAC hit rate below A's.
#[test]
fn vs_removing_a_weapon_critical_sa_lengthens_the_games() {
    let out = cav()
        .args(["sim", "stand-and-fight", "--games", "200", "--format", "csv"])
        .args(["--vs", "remove-sa:advanced-targeting-computer"])
        .output()
        .unwrap();
    ok(&out, "remove-sa");
    let rows = csv_rows(&String::from_utf8_lossy(&out.stdout));
    let (turns, lo, hi) = diff(&rows, "mean_turns", "");
    assert!(lo > 0.0, "games get longer: {turns} [{lo}, {hi}]");
    let hit = |run: &str| rows[&(run.to_owned(), "hit_rate".to_owned(), "Medium MAC".to_owned())].0;
    assert!(hit("B") < hit("A"), "the MAC hits less without the computer: {} vs {}", hit("B"), hit("A"));
}

/// Improved Armor does nothing in the Quick-Start (no roll, hit or script names it): removing it
/// is reported as not exercised by the bots, not as "no difference"; Wizzo, which they use, is not.
#[test]
fn vs_removing_an_sa_the_bots_never_used_says_it_was_not_exercised() {
    let out =
        cav().args(["sim", "stand-and-fight", "--games", "20", "--vs", "remove-sa:improved-armor"]).output().unwrap();
    ok(&out, "remove-sa:improved-armor");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "improved-armor: not exercised by the bots in A (20 games) — the difference says nothing about it"
        ),
        "{text}"
    );
    assert!(!text.contains("no difference:"), "{text}");
    assert!(text.contains("action · per game") && text.contains("never used"), "{text}");
    let out = cav().args(["sim", "stand-and-fight", "--games", "20", "--vs", "remove-sa:wizzo"]).output().unwrap();
    ok(&out, "remove-sa:wizzo");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("not exercised") && text.contains("wizzo: used "), "{text}");
}

/// The Quick-Start has no victory-levels table, so how a victory ratio is rounded cannot matter:
/// B plays every seed exactly as A, and the report says so instead of showing a noisy difference.
#[test]
fn vs_an_option_the_scenario_never_reads_is_reported_as_no_difference() {
    let vs = ["sim", "stand-and-fight", "--games", "60", "--vs", "option:victory-ratio-rounding=truncate"];
    let out = cav().args(vs).output().unwrap();
    ok(&out, "no-op option, human");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("no difference: B played all 60 games to the same result as A"), "{text}");
    let out = cav().args(vs).args(["--format", "json"]).output().unwrap();
    ok(&out, "no-op option, json");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["change"], "option:victory-ratio-rounding=truncate");
    assert_eq!(r["paired"]["games_changed"], 0, "{r}");
    let outcomes = r["paired"]["outcomes"].as_array().unwrap();
    for (i, row) in outcomes.iter().enumerate() {
        for (j, n) in row.as_array().unwrap().iter().enumerate() {
            assert!(i == j || n == 0, "outcome {i} under A became {j} under B: {r}");
        }
    }
    assert_ne!(r["a"]["content_hash"], r["b"]["content_hash"], "B is other content");
    let (mut a, mut b) = (r["a"].clone(), r["b"].clone());
    a["content_hash"] = "".into();
    b["content_hash"] = "".into();
    assert_eq!(a, b, "B's statistics are A's");
}

/// `--vs` shards run as separate processes merge into the unsharded paired run byte for byte; the
/// result holds to its schema; merge refuses another B, another change, or a plain result.
#[test]
fn vs_shards_merge_into_the_whole_run_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let vs = ["sim", "stand-and-fight", "--games", "90", "--format", "json", "--vs", "remove-sa:reinforced"];
    let whole = tmp.path().join("whole.json");
    ok(&cav().args(vs).arg("--out").arg(&whole).output().unwrap(), "whole");
    let shards: Vec<_> = (1..=3).map(|i| tmp.path().join(format!("s{i}.json"))).collect();
    let children: Vec<_> = shards
        .iter()
        .enumerate()
        .map(|(i, p)| {
            cav()
                .args(vs)
                .arg("--shard")
                .arg(format!("{}/3", i + 1))
                .arg("--out")
                .arg(p)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (i, c) in children.into_iter().enumerate() {
        ok(&c.wait_with_output().unwrap(), &format!("shard {}/3", i + 1));
    }
    let merged = tmp.path().join("merged.json");
    let out =
        cav().args(["sim", "merge"]).args([&shards[1], &shards[2], &shards[0]]).arg("--out").arg(&merged).output();
    ok(&out.unwrap(), "merge");
    assert_eq!(
        String::from_utf8(read(&merged)).unwrap(),
        String::from_utf8(read(&whole)).unwrap(),
        "the merged paired shards are the whole paired run, byte for byte"
    );

    let r: serde_json::Value = serde_json::from_slice(&read(&whole)).unwrap();
    assert_eq!(r["a"]["games"], 90);
    assert_eq!(r["b"]["seeds"], serde_json::json!([{"first": 1, "count": 90}]));
    let pairs: u64 = r["paired"]["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap())
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(pairs, 90);
    let path = root().join("schemas/reports/sim-vs.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(&r).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");

    let refused = |name: &str, edit: &dyn Fn(&mut serde_json::Value), says: &str| {
        let f = tmp.path().join(name);
        let mut v: serde_json::Value = serde_json::from_slice(&read(&shards[1])).unwrap();
        edit(&mut v);
        std::fs::write(&f, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
        let out = cav().args(["sim", "merge"]).arg(&shards[0]).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{name}: {err}");
    };
    refused(
        "other-b.json",
        &|v| v["b"]["content_hash"] = "0000".into(),
        "B (remove-sa:reinforced): the results are of different content",
    );
    refused("other-change.json", &|v| v["change"] = "remove-sa:hard".into(), "different changes");
    refused("plain.json", &|v| *v = v["a"].clone(), "a paired result (`--vs`) and a plain one do not merge");

    let out = cav().args(["sim", "merge", "--format", "human"]).arg(&merged).output().unwrap();
    ok(&out, "merge --format human");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("90 paired games") && text.contains("B: --vs remove-sa:reinforced"), "{text}");
}

/// A change that names nothing, asks for what already is, or leaves the rules as they are: exit
/// 2, saying what was expected.
#[test]
fn vs_bad_changes_exit_2_with_what_was_expected() {
    let tmp = tempfile::tempdir().unwrap();
    // A working copy of an installed mod whose only change (a weapon's TV) the engine never plays.
    let copy = tmp.path().join("iron-wolves");
    std::fs::create_dir_all(copy.join("patches")).unwrap();
    for entry in walk(&root().join("mods/iron-wolves")) {
        let rel = entry.strip_prefix(root().join("mods/iron-wolves")).unwrap();
        std::fs::create_dir_all(copy.join(rel).parent().unwrap()).unwrap();
        std::fs::copy(&entry, copy.join(rel)).unwrap();
    }
    let patch = copy.join("patches/light-autocannon-tv.yaml");
    let text = std::fs::read_to_string(&patch).unwrap();
    assert!(text.contains("tv: 44"));
    std::fs::write(&patch, text.replace("tv: 44", "tv: 40")).unwrap();
    let copy = format!("mod:{}", copy.display());

    let cases: [(&str, &str); 13] = [
        (
            "swap:dictator-b",
            "a swap is MODEL=OTHER[@SIDE]; expected swap:MODEL=OTHER[@SIDE], remove-sa:SA[@MODEL], option:NAME=VALUE or mod:PATH",
        ),
        ("nerf:dictator-b", "unknown kind of change `nerf`"),
        ("swap:dictator-b=gnatt@black", "no model `gnatt` in cav-quickstart (did you mean `gnat`?)"),
        ("swap:dictator-b=gnat@blue", "no side `blue`: expected one of red, black"),
        ("swap:warden=gnat", "fields no `warden`: expected a model it fields (dictator-b)"),
        ("remove-sa:piercng", "no special attribute `piercng` in cav-quickstart (did you mean `piercing`?)"),
        ("remove-sa:piercing@warden", "model `warden` has no special attribute `piercing` on its card or mounts"),
        (
            "option:ranged-critcal=no-critical",
            "no option `ranged-critcal` in cav-quickstart or the engine (did you mean `ranged-critical`?)",
        ),
        (
            "option:ranged-critical=never",
            "option `ranged-critical` of cav-quickstart has no value `never`: expected one of critical, no-critical",
        ),
        ("option:ranged-critical=critical", "is already `critical`: expected another of its values (no-critical)"),
        ("mod:mods/iron-wolves", "pack `iron-wolves` is already loaded in cav-quickstart as it is"),
        ("mod:no/such/dir", "no such file or directory"),
        (&copy, "leaves the compiled rules as they are"),
    ];
    for (change, says) in cases {
        let out = cav().args(["sim", "stand-and-fight", "--games", "5", "--vs", change]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{change}: {err}");
        assert!(err.contains(says), "{change}: {err}");
        assert!(out.stdout.is_empty(), "{change}: no result");
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

/// `mod:PATH`: a pack outside the library joins B; the result names it by id and version.
#[test]
fn vs_a_mod_pack_is_loaded_for_b() {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("heavier");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: heavier-dictator\nname: Heavier Dictator\nversion: 0.1.0\nkind: extension\ndepends: [\"cav-quickstart >= 1.0\"]\n",
    )
    .unwrap();
    std::fs::write(
        pack.join("armor.yaml"),
        "kind: patch\ntarget: {kind: model, id: dictator-b}\nset:\n  damage_track:\n    av: [9, 9, 8, 8, 7, 7, 7, 6, 6, 5]\n",
    )
    .unwrap();
    let out = cav()
        .args(["sim", "stand-and-fight", "--games", "150", "--format", "json", "--vs"])
        .arg(format!("mod:{}", pack.display()))
        .output()
        .unwrap();
    ok(&out, "mod:PATH");
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["change"], "mod:heavier-dictator 0.1.0", "by id and version, not by path");
    let (a, b) = (r["a"]["turns_sum"].as_u64().unwrap(), r["b"]["turns_sum"].as_u64().unwrap());
    assert!(b > a + 150, "two more points of armour make the duel last longer: {a} → {b} turns");
}

/// A relative `--root` pins the same content as an absolute one (the script roots are not
/// joined twice).
#[test]
fn a_relative_root_hashes_the_same_content() {
    let hash = |c: &mut Command| -> String {
        let out = c.args(["sim", "stand-and-fight", "--games", "2", "--format", "json"]).output().unwrap();
        ok(&out, "sim");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["content_hash"].as_str().unwrap().to_owned()
    };
    // Run from an empty directory, the project reached by `../..`: the project's own parent may
    // hold packs of its own, which `cav` run there would load as the author's packs.
    let project = root();
    let here = tempfile::tempdir().unwrap();
    let here_path = here.path().canonicalize().unwrap();
    let ups = here_path.components().count() - 1; // every component but the root
    let relative_root: std::path::PathBuf = std::iter::repeat_n(std::path::Path::new(".."), ups)
        .collect::<std::path::PathBuf>()
        .join(project.strip_prefix("/").unwrap());
    assert!(relative_root.is_relative());
    let mut relative = Command::new(cav_tests::cav_bin());
    relative.current_dir(&here_path).arg("--root").arg(&relative_root);
    assert_eq!(hash(&mut relative), hash(&mut cav()));
}

/// `--bot`: a game the searching bot played for one side is logged with that side in its header
/// and replays event for event (the same bots); the sim's table names the sides it played and
/// counts each side's hopeless shots; a side the scenario does not have, or a bot that does not
/// exist, is a usage error (exit 2) naming what is expected.
#[test]
fn the_searching_bot_is_chosen_per_side_and_replays() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("game.jsonl");
    let out = cav()
        .args(["play", "stand-and-fight", "--seed", "3", "--quiet", "--bot", "red=search", "--log"])
        .arg(&log)
        .output()
        .unwrap();
    ok(&out, "cav play --bot red=search");
    let text = String::from_utf8(read(&log)).unwrap();
    assert!(text.lines().next().unwrap().contains("\"search_bot\":[\"red\"]"), "{}", text.lines().next().unwrap());
    let out = cav().arg("replay").arg(&log).output().unwrap();
    ok(&out, "cav replay");
    assert!(String::from_utf8_lossy(&out.stdout).contains("identical"), "{}", String::from_utf8_lossy(&out.stdout));
    // The same game without the searching bot is another game.
    let rules_log = tmp.path().join("rules.jsonl");
    let out =
        cav().args(["play", "stand-and-fight", "--seed", "3", "--quiet", "--log"]).arg(&rules_log).output().unwrap();
    ok(&out, "cav play");
    assert_ne!(read(&rules_log), read(&log));

    let out = cav().args(["sim", "stand-and-fight", "--games", "3", "--bot", "black=search"]).output().unwrap();
    ok(&out, "cav sim --bot black=search");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("searching bot: black (") && table.contains("(hopeless shots)"), "{table}");
    // Every action the ruleset has, as the search met it, and why the unused ones never were.
    assert!(table.contains("searching bot · per game (available / played out / used)"), "{table}");
    assert!(table.contains("reaction · per game (taken of asked)"), "{table}");
    let why = table.lines().find(|l| l.trim_start().starts_with("black mount:")).expect("mount's reason");
    assert!(why.contains("never accepted: \"") && why.contains("transport"), "{why}");

    for (args, says) in [
        (&["play", "stand-and-fight", "--bot", "blue=search"][..], "no side `blue`"),
        (&["sim", "stand-and-fight", "--games", "1", "--bot", "blue=search"], "no side `blue`"),
        (&["sim", "stand-and-fight", "--games", "1", "--bot", "clever"], "expected `rules`, `search` or `SIDE=search`"),
    ] {
        let out = cav().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(says),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
