//! The packs of other games in mods/ (Sythopian Wars, Infinity) stand alone: each validates with
//! no diagnostic, and installing them changes nothing the bundled content reports.

use std::path::{Path, PathBuf};

const OTHER_GAMES: [&str; 2] = ["sythopian-wars", "infinity-firefight"];

fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).to_path_buf()
}

/// Every diagnostic of loading content/ and mods/ (with or without the other games' packs), as
/// text, and the rulesets that compiled.
fn validate(with_other_games: bool) -> (Vec<String>, Vec<String>) {
    let root = root();
    let mut paths = vec![root.join("content")];
    let mut mods: Vec<PathBuf> = std::fs::read_dir(root.join("mods")).unwrap().map(|e| e.unwrap().path()).collect();
    mods.sort();
    for m in mods {
        let name = m.file_name().unwrap().to_string_lossy().into_owned();
        if with_other_games || !OTHER_GAMES.contains(&name.as_str()) {
            paths.push(m);
        }
    }
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths, library: vec![root.join("content"), root.join("mods")] });
    let compiled = cav_compile::validate(&mut loaded);
    let diags = loaded
        .diagnostics
        .iter()
        .map(|d| format!("{:?} {} {:?} {:?} {}", d.severity, d.code, d.pack, d.pointer, d.message))
        .collect();
    let ok = loaded.rulesets.iter().zip(&compiled).filter(|(_, c)| c.is_some()).map(|(r, _)| r.id.clone()).collect();
    (diags, ok)
}

#[test]
fn the_packs_of_other_games_change_nothing_the_bundled_content_reports() {
    let (with, compiled) = validate(true);
    let (without, _) = validate(false);
    let theirs: Vec<&String> =
        with.iter().filter(|d| OTHER_GAMES.iter().any(|g| d.contains(&format!("Some(\"{g}\")")))).collect();
    assert!(theirs.is_empty(), "the other games' packs validate cleanly: {theirs:#?}");
    assert_eq!(with, without);
    for g in OTHER_GAMES {
        assert!(compiled.iter().any(|r| r == g), "{g} compiles: {compiled:?}");
    }
}
