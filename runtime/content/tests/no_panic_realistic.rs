//! Property tests at realistic sizes: the bundled packs (hundreds of files) with a few files
//! mutated, and files at the loader's limits. Loading reports diagnostics and never panics.

use std::path::{Path, PathBuf};

use cav_content::{LoadOptions, load};
use cav_format::limits::{MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES};
use proptest::prelude::*;

fn content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content")
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .map(|e| e.into_path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .collect();
    files.sort();
    files
}

fn copy_content() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for file in yaml_files(&content()) {
        let rel = file.strip_prefix(content()).unwrap();
        let to = tmp.path().join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(&file, &to).unwrap();
    }
    tmp
}

fn load_and_render(root: &Path) -> usize {
    let loaded = load(&LoadOptions { paths: vec![root.to_owned()], library: vec![] });
    let _ = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
    let _ = cav_content::diag::to_json(&loaded.diagnostics, &loaded.sources);
    loaded.documents
}

/// One edit of a file's text: overwrite bytes, delete a line, or repeat a line.
#[derive(Debug, Clone)]
enum Edit {
    Byte(usize, u8),
    DropLine(usize),
    RepeatLine(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Byte(at, b)),
        any::<usize>().prop_map(Edit::DropLine),
        (any::<usize>(), 1usize..200).prop_map(|(at, n)| Edit::RepeatLine(at, n)),
    ]
}

fn apply(text: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut bytes = text.to_vec();
    for e in edits {
        if bytes.is_empty() {
            break;
        }
        match *e {
            Edit::Byte(at, b) => {
                let i = at % bytes.len();
                bytes[i] = b;
            }
            Edit::DropLine(at) | Edit::RepeatLine(at, _) => {
                let mut lines: Vec<Vec<u8>> = bytes.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
                let i = at % lines.len();
                match *e {
                    Edit::DropLine(_) => {
                        lines.remove(i);
                    }
                    Edit::RepeatLine(_, n) => {
                        let line = lines[i].clone();
                        lines.splice(i..i, std::iter::repeat_n(line, n));
                    }
                    Edit::Byte(..) => {}
                }
                bytes = lines.join(&b'\n');
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    /// Both official packs, every file, with one to four files edited.
    #[test]
    fn mutated_bundled_packs(files in prop::collection::vec((any::<usize>(), prop::collection::vec(edit(), 1..8)), 1..4)) {
        let tmp = copy_content();
        let all = yaml_files(tmp.path());
        for (pick, edits) in &files {
            let file = &all[pick % all.len()];
            let text = std::fs::read(file).unwrap();
            std::fs::write(file, apply(&text, edits)).unwrap();
        }
        load_and_render(tmp.path());
    }
}

/// Files just under the loader's limits load (and a file over them is refused) without panic:
/// a content file of nearly `MAX_FILE_BYTES` of distinct model cards, one nested `MAX_DEPTH - 2`
/// deep and one of nearly `MAX_NODES` nodes.
#[test]
fn files_at_the_limits() {
    let tmp = copy_content();
    let mods = tmp.path().join("cav-quickstart/models");
    let card = std::fs::read_to_string(mods.join("dictator-b.yaml")).unwrap();
    let mut big = String::new();
    let mut n = 0;
    while big.len() + card.len() + 16 < MAX_FILE_BYTES as usize {
        big.push_str("---\n");
        big.push_str(&card.replace("id: dictator-b", &format!("id: copy-{n}")));
        n += 1;
    }
    std::fs::write(mods.join("many.yaml"), &big).unwrap();
    let depth = MAX_DEPTH - 2;
    let nested = format!("kind: model\nid: deep\nnotes: {}x{}\n", "[".repeat(depth), "]".repeat(depth));
    std::fs::write(mods.join("deep.yaml"), nested).unwrap();
    let items = MAX_NODES - 100;
    let wide = format!("kind: model\nid: wide\nnotes: [{}]\n", vec!["1"; items].join(","));
    std::fs::write(mods.join("wide.yaml"), wide).unwrap();
    let documents = load_and_render(tmp.path());
    assert!(documents > n, "the {n} cards of the big file were not loaded ({documents} documents)");
    // One byte over the size limit: refused, still no panic.
    big.push_str(&"#".repeat(MAX_FILE_BYTES as usize - big.len() + 1));
    std::fs::write(mods.join("many.yaml"), &big).unwrap();
    load_and_render(tmp.path());
}
