//! What a stranger reads before contributing is there and true: the license files the workspace
//! declares, the contributing guide and the changelog linked from the README, every crate's
//! metadata (a description, the workspace license, no invented URLs), and every pack's
//! `license:` an SPDX expression — which `cav validate` checks at its line.

use std::path::Path;
use std::process::Command;

use cav_tests::root;

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `[workspace] members` of the root Cargo.toml.
fn members() -> Vec<String> {
    let manifest = read(&root().join("Cargo.toml"));
    let line = manifest.lines().find(|l| l.starts_with("members = [")).expect("a members line");
    line.split('"').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn license_files_guide_and_changelog_exist_and_the_readme_links_them() {
    let root = root();
    let manifest = read(&root.join("Cargo.toml"));
    assert!(manifest.contains("license = \"MIT OR Apache-2.0\""), "the declared license");
    assert!(
        read(&root.join("LICENSE-APACHE"))
            .contains("Apache License\n                        Version 2.0, January 2004")
    );
    assert!(read(&root.join("LICENSE-MIT")).contains("Permission is hereby granted, free of charge"));
    let readme = read(&root.join("README.md"));
    for file in ["CONTRIBUTING.md", "CHANGELOG.md", "LICENSE-APACHE", "LICENSE-MIT"] {
        assert!(root.join(file).is_file(), "{file} exists");
        assert!(readme.contains(&format!("]({file})")), "the README links {file}");
    }
    let changelog = read(&root.join("CHANGELOG.md"));
    assert!(changelog.contains("keepachangelog.com") && changelog.contains("## [Unreleased]"));
    let guide = read(&root.join("CONTRIBUTING.md"));
    for check in ["scripts/test", "validate --deny warnings", "coverage --check", "docs --check"] {
        assert!(guide.contains(check), "CONTRIBUTING.md names `{check}`");
    }
    let authoring = read(&root.join("docs/content-authoring.md"));
    assert!(authoring.contains("## Versions and licenses of a pack"), "the pack version rule");
}

#[test]
fn every_crate_has_true_metadata() {
    let root = root();
    let members = members();
    assert!(members.len() >= 10, "{members:?}");
    let mut manifests = vec![("workspace".to_owned(), read(&root.join("Cargo.toml")))];
    manifests.extend(members.iter().map(|m| (m.clone(), read(&root.join(m).join("Cargo.toml")))));
    for (name, text) in &manifests {
        // No repository, homepage or documentation URL: none exists yet, and an invented one
        // sends people nowhere.
        for key in ["repository", "homepage", "documentation"] {
            assert!(
                !text
                    .lines()
                    .any(|l| l.trim_start().starts_with(&format!("{key} ")) || l.starts_with(&format!("{key}."))),
                "{name}: `{key}` names a place that does not exist"
            );
        }
        if name == "workspace" {
            continue;
        }
        let description = text
            .lines()
            .find_map(|l| l.strip_prefix("description = \""))
            .unwrap_or_else(|| panic!("{name}: no description"));
        assert!(description.len() > 30, "{name}: a description that says something: {description}");
        assert!(!description.contains("(later)"), "{name}: describes what exists: {description}");
        assert!(text.contains("license.workspace = true"), "{name}: the workspace's license");
    }
}

#[test]
fn every_bundled_and_example_pack_declares_an_spdx_license() {
    let root = root();
    let mut packs = 0;
    for dir in ["content", "mods"] {
        for pack in std::fs::read_dir(root.join(dir)).unwrap() {
            let manifest = pack.unwrap().path().join("pack.yaml");
            if !manifest.is_file() {
                continue;
            }
            packs += 1;
            let text = read(&manifest);
            let license = text
                .lines()
                .find_map(|l| l.strip_prefix("license: "))
                .unwrap_or_else(|| panic!("{}: no license", manifest.display()));
            let expr = spdx::Expression::parse(license)
                .unwrap_or_else(|e| panic!("{}: `{license}` is not SPDX: {e}", manifest.display()));
            assert!(expr.requirements().all(|r| r.req.license.id().is_some()), "{license}: SPDX ids");
            assert!(text.contains("license_note:"), "{}: says what the license does not cover", manifest.display());
        }
    }
    assert!(packs >= 6, "the bundled and example packs: {packs}");
}

/// A pack with `license` as given; `cav validate` of it: (exit code, everything printed).
fn validate_license(license: &str, license_file: Option<&str>) -> (i32, String) {
    let tmp = tempfile::tempdir().unwrap();
    let pack = tmp.path().join("licensed");
    std::fs::create_dir_all(&pack).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        format!("id: licensed\nname: Licensed\nversion: 0.1.0\nkind: extension\nlicense: {license}\n"),
    )
    .unwrap();
    if let Some(name) = license_file {
        std::fs::create_dir_all(pack.join("LICENSES")).unwrap();
        std::fs::write(pack.join("LICENSES").join(name), "The house license: share alike.\n").unwrap();
    }
    let out = Command::new(cav_tests::cav_bin())
        .env("CAV_ROOT", root())
        .env("NO_COLOR", "1")
        .arg("validate")
        .arg(&pack)
        .output()
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn validate_flags_a_bad_license_at_its_line() {
    let (code, text) = validate_license("Apache 2.0", None);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error[license]") && text.contains("pack.yaml:5:10"), "located: {text}");
    assert!(text.contains("did you mean `Apache-2.0`?"), "{text}");

    let (code, text) = validate_license("MIT AND", None);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("is not an SPDX license expression"), "{text}");

    // A LicenseRef needs its text in the pack.
    let (code, text) = validate_license("LicenseRef-house OR CC0-1.0", None);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("LICENSES/LicenseRef-house.txt is missing"), "{text}");
    let (code, text) = validate_license("LicenseRef-house OR CC0-1.0", Some("LicenseRef-house.txt"));
    assert_eq!(code, 0, "{text}");

    // Author text is shown escaped: no control character reaches the terminal.
    let (code, text) = validate_license("\"MIT \\e[31m\"", None);
    assert_eq!(code, 1, "{text}");
    assert!(!text.contains('\u{1b}'), "{text:?}");

    for good in ["CC0-1.0", "MIT OR Apache-2.0", "CC-BY-SA-4.0", "(MIT OR Apache-2.0) AND CC-BY-4.0"] {
        let (code, text) = validate_license(good, None);
        assert_eq!(code, 0, "{good}: {text}");
    }
}
