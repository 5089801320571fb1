//! Hostile YAML: files built to crash (deep nesting), exhaust memory (nodes × depth, long keys)
//! or flood the output (errors by the hundred thousand) are refused or summarised with a located
//! diagnostic, quickly.

use std::time::{Duration, Instant};

use cav_content::{LoadOptions, Loaded, Severity, load};
use cav_format::limits::{MAX_DEPTH, MAX_DIAGNOSTICS, MAX_FILE_BYTES, MAX_NODES};

fn load_doc(text: &str) -> (Loaded, Duration) {
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(pack.join("pack.yaml"), "id: p\nname: P\nversion: 1.0.0\nkind: ruleset\n").unwrap();
    std::fs::write(pack.join("doc.yaml"), text).unwrap();
    let t = Instant::now();
    let loaded = load(&LoadOptions { paths: vec![dir.path().to_owned()], library: vec![] });
    (loaded, t.elapsed())
}

/// The one `yaml-limit` error, at a line of doc.yaml in `line`.
fn assert_limit(loaded: &Loaded, line: std::ops::RangeInclusive<u32>, message: &str) {
    let d = loaded.diagnostics.iter().find(|d| d.code == "yaml-limit").expect("a yaml-limit diagnostic");
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains(message), "{}", d.message);
    let loc = d.loc.expect("located");

    assert!(line.contains(&loc.start.line), "line {} not in {line:?}", loc.start.line);
    assert!(loaded.sources.get(loc.file).display.ends_with("doc.yaml"));
}

#[test]
fn limits_match_the_loader() {
    assert_eq!(MAX_FILE_BYTES, cav_content::pack::MAX_FILE_BYTES);
}

#[test]
fn deep_block_sequences_on_one_line() {
    let (loaded, t) = load_doc(&format!("{}x\n", "- ".repeat(10_000)));
    assert_limit(&loaded, 1..=1, "deeper");
    assert!(t < Duration::from_secs(10), "{t:?}");
}

#[test]
fn deep_block_mappings_by_indentation() {
    let text: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    let (loaded, _) = load_doc(&text);
    assert_limit(&loaded, MAX_DEPTH as u32 + 1..=MAX_DEPTH as u32 + 1, "deeper");
}

#[test]
fn deep_flow_and_mixed_nesting() {
    // 120 levels: under saphyr's own flow limit (255), over ours.
    let (loaded, _) = load_doc(&format!("a: {}1{}\n", "[{b: ".repeat(60), "}]".repeat(60)));
    assert_limit(&loaded, 1..=1, "deeper");
}

#[test]
fn nesting_at_the_limit_loads() {
    // MAX_DEPTH levels are fine (the document is then just a schema error).
    let (loaded, _) = load_doc(&format!("{}x\n", "- ".repeat(MAX_DEPTH)));
    assert!(loaded.diagnostics.iter().all(|d| d.code != "yaml-limit"), "{:?}", loaded.diagnostics);
}

#[test]
fn aliases_count_as_what_they_expand_to() {
    // Each anchor nests the previous one 30 levels deeper: depth grows by alias, not by text.
    let mut text = format!("a0: &a0 {}1{}\n", "[".repeat(30), "]".repeat(30));
    for i in 1..5 {
        text += &format!("a{i}: &a{i} {}*a{}{}\n", "[".repeat(30), i - 1, "]".repeat(30));
    }
    let (loaded, _) = load_doc(&text);
    assert_limit(&loaded, 3..=3, "deeper");
}

#[test]
fn many_nodes_are_refused() {
    let text = format!("[{}]\n", vec!["1"; MAX_NODES + 10].join(","));
    let (loaded, t) = load_doc(&text);
    assert_limit(&loaded, 1..=1, "more than");
    assert!(t < Duration::from_secs(10), "{t:?}");
}

#[test]
fn deep_times_wide_is_refused_before_it_is_built() {
    let text = format!("{}[{}]\n", "- ".repeat(3000), vec!["1"; 1_000_000].join(","));
    let (loaded, t) = load_doc(&text);
    assert_limit(&loaded, 1..=1, "deeper");
    assert!(t < Duration::from_secs(10), "{t:?}");
}

#[test]
fn long_keys_times_many_values_are_refused() {
    // A 1,000-byte key (YAML's longest implicit key) over 20,000 values: 20 MB of pointers.
    let key = "k".repeat(1_000);
    let text = format!("{key}:\n{}", "  - 1\n".repeat(20_000));
    let (loaded, _) = load_doc(&text);
    // Refused at the value that crossed the limit: 16 MiB / ~1,000 bytes per pointer.
    let line = (cav_format::limits::MAX_POINTER_BYTES / 1_007) as u32;
    assert_limit(&loaded, line..=line + 100, "paths");
}

#[test]
fn diagnostic_floods_are_capped_when_rendered() {
    // 3,000 documents of an unknown kind: one error each.
    let text = "kind: nope\n---\n".repeat(3_000);
    let (loaded, _) = load_doc(&text);
    let errors = loaded.error_count();
    assert!(errors > MAX_DIAGNOSTICS, "{errors}");
    let human = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
    assert_eq!(human.matches("error[").count(), MAX_DIAGNOSTICS);
    let more = loaded.diagnostics.len() - MAX_DIAGNOSTICS;
    assert!(human.contains(&format!("… and {more} more")), "{}", &human[human.len().saturating_sub(300)..]);
    let json = cav_content::diag::to_json(&loaded.diagnostics, &loaded.sources);
    let items = json.as_array().unwrap();
    assert_eq!(items.len(), MAX_DIAGNOSTICS + 1);
    assert_eq!(items[MAX_DIAGNOSTICS]["code"], cav_content::diag::TRUNCATED);
    assert_eq!(items[MAX_DIAGNOSTICS]["more"], more);
    // Deterministic: the first ones shown are the first by position.
    assert_eq!(items[0]["line"], 1);
}

/// Many files each under the size limit do not add up past the load's budget (140 files of
/// 3.4 MB once reached 7.4 GB): the file that passes `MAX_LOAD_BYTES` and every one after it
/// get a located `too-large` error and are not kept, and files past the budget's batch are not
/// read at all. (Comment-only files: cheap to scan, so the test measures the budget, not parsing.)
#[test]
fn files_together_are_held_to_the_load_budget() {
    use cav_format::limits::MAX_LOAD_BYTES;
    let dir = tempfile::tempdir().unwrap();
    let pack = dir.path().join("p");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(pack.join("pack.yaml"), "id: p\nname: P\nversion: 1.0.0\nkind: ruleset\n").unwrap();
    let size = MAX_FILE_BYTES as usize - 100_000;
    let comment = format!("# {}\n", "x".repeat(size - 3));
    let files = 40;
    for i in 0..files {
        std::fs::write(pack.join(format!("f{i:02}.yaml")), &comment).unwrap();
    }
    let t = Instant::now();
    let mut cache = cav_content::pack::Cache::default();
    let loaded =
        cav_content::load_cached(&LoadOptions { paths: vec![dir.path().to_owned()], library: vec![] }, &mut cache);
    let read = cache.files_read.load(std::sync::atomic::Ordering::Relaxed);
    assert!(read <= 16, "{read} files read: those after the batch that passed the budget are not");
    let over: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "too-large")
        .map(|d| d.path.clone().expect("names the file"))
        .collect();
    // The manifest and the first files fit: the one that passes the budget is the first refused.
    let fit = (MAX_LOAD_BYTES as usize - 60) / size;
    assert_eq!(over.len(), files - fit, "{over:?}");
    assert!(over[0].ends_with(&format!("f{fit:02}.yaml")), "{over:?}");
    let d = loaded.diagnostics.iter().find(|d| d.code == "too-large").unwrap();
    assert!(d.message.contains("this file is not loaded") && d.pack.as_deref() == Some("p"), "{d:?}");
    eprintln!("{files} files of {size} bytes: {:?}", t.elapsed());
}
