//! `cav docs`: the generated reference under `docs/reference/` documents every field of every
//! schema and every catalog entry of the bundled content, and the committed pages are fresh.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use cav_format::DocKind;
use cav_tests::root;
use serde_json::Value;

fn cav() -> Command {
    cav_tests::cav_in(&root())
}

/// Generate the reference into a fresh directory.
fn generate() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let out = cav().args(["docs", "--out"]).arg(tmp.path()).output().unwrap();
    assert!(out.status.success(), "cav docs failed: {}", String::from_utf8_lossy(&out.stderr));
    tmp
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every property name anywhere in a schema: the root's, its definitions', nested objects' and
/// the `if`/`then` branches'.
fn property_names(node: &Value, out: &mut BTreeSet<String>) {
    match node {
        Value::Object(o) => {
            for (k, v) in o {
                match k.as_str() {
                    "properties" => {
                        if let Value::Object(props) = v {
                            for (name, schema) in props {
                                out.insert(name.clone());
                                property_names(schema, out);
                            }
                        }
                    }
                    // Data, not schemas.
                    "enum" | "const" | "default" | "examples" | "enumDescriptions" => {}
                    _ => property_names(v, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| property_names(x, out)),
        _ => {}
    }
}

/// The rows of a page's "Fields" table: the field path (first code span of the first cell) and
/// the cells.
fn field_rows(page: &str) -> Vec<(String, Vec<String>)> {
    let fields = page.split("## Fields").nth(1).unwrap_or_default();
    let fields = fields.split("\n## ").next().unwrap_or_default();
    fields
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let path = l[3..].split('`').next().unwrap_or_default().to_owned();
            // Cells split on `|` not escaped as `\|`.
            let cells: Vec<String> =
                l.replace("\\|", "\u{1}").split('|').map(|c| c.trim().replace('\u{1}', "|")).collect();
            (path, cells)
        })
        .collect()
}

/// Requirement: every property name of every schema appears as a field of its kind's page, and
/// every value of its enumerations is listed.
#[test]
fn every_schema_property_is_documented_on_its_page() {
    let dir = generate();
    let mut checked = 0;
    for (file, schema) in cav_format::all_schemas() {
        let stem = file.trim_end_matches(".schema.json");
        let page = read(dir.path(), &format!("{stem}.md"));
        let documented: BTreeSet<String> = field_rows(&page)
            .iter()
            .flat_map(|(path, _)| path.split('.').map(|s| s.trim_end_matches("[]").to_owned()).collect::<Vec<_>>())
            .collect();
        let mut names = BTreeSet::new();
        property_names(&schema, &mut names);
        assert!(!names.is_empty(), "{file} has properties");
        for name in &names {
            assert!(documented.contains(name), "docs/reference/{stem}.md does not document field `{name}` of {file}");
            checked += 1;
        }
        // Every enumerated value is spelled on the page (in a row or under its type).
        let mut stack = vec![&schema];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(o) => {
                    for s in o.get("enum").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                        assert!(page.contains(&format!("`{s}`")), "{stem}.md does not list the value `{s}`");
                    }
                    stack.extend(o.iter().filter(|(k, _)| *k != "enumDescriptions").map(|(_, v)| v));
                }
                Value::Array(a) => stack.extend(a.iter()),
                _ => {}
            }
        }
    }
    assert!(checked > 500, "only {checked} property names found: the walk is broken");
    // The index links every page.
    let index = read(dir.path(), "README.md");
    for (file, _) in cav_format::all_schemas() {
        let stem = file.trim_end_matches(".schema.json");
        assert!(index.contains(&format!("]({stem}.md)")), "README.md does not link {stem}.md");
    }
    assert!(index.contains("](catalog.md)"));
}

/// Requirement: examples come from the bundled content where it sets the field.
#[test]
fn examples_are_taken_from_the_bundled_content() {
    let dir = generate();
    let rows = field_rows(&read(dir.path(), "weapon.md"));
    let header_example = 7; // | Field | Type | Required | Default | Allowed values | Description | Example |
    for field in ["id", "name", "class", "fire", "range", "rav", "summary", "source"] {
        let (_, cells) = rows.iter().find(|(p, _)| p == field).unwrap_or_else(|| panic!("no row for `{field}`"));
        assert!(!cells[header_example].is_empty(), "weapon.md: `{field}` has no example: {cells:?}");
    }
    // The `kind` row of each page names its tag.
    for &k in DocKind::ALL {
        let rows = field_rows(&read(dir.path(), &format!("{}.md", k.tag())));
        let (_, cells) = rows.iter().find(|(p, _)| p == "kind").expect("a kind row");
        assert_eq!(cells[5], format!("`{}`", k.tag()), "{}.md: allowed values of `kind`", k.tag());
    }
}

/// Requirement: every special attribute, weapon, upgrade, asset and strike of the loaded rulesets
/// (test fixtures aside) has its row in catalog.md, with its name and pack.
#[test]
fn every_catalog_entry_is_in_catalog_md() {
    let dir = generate();
    let catalog = read(dir.path(), "catalog.md");
    let library = vec![root().join("content"), root().join("mods")];
    let loaded = cav_content::load(&cav_content::LoadOptions { paths: library.clone(), library });
    let kinds = [DocKind::SpecialAttribute, DocKind::Weapon, DocKind::Upgrade, DocKind::Asset, DocKind::Strike];
    let mut ids = BTreeSet::new();
    for rs in &loaded.rulesets {
        for e in rs.entries().filter(|e| kinds.contains(&e.kind)) {
            if loaded.sources.get(e.file).path.components().any(|c| c.as_os_str() == "tests") {
                continue;
            }
            let row = format!("| `{}` | {} | {} |", e.id, e.name(), e.pack);
            assert!(catalog.contains(&row), "catalog.md has no row starting {row}");
            ids.insert((e.kind, e.id.clone()));
        }
    }
    assert!(ids.len() > 200, "only {} catalog entries loaded", ids.len());
}

/// Requirement: the committed reference is what `cav docs` generates today.
#[test]
fn the_committed_reference_is_fresh() {
    let out = cav().args(["docs", "--check"]).output().unwrap();
    assert!(
        out.status.success(),
        "docs/reference/ is stale: run `cav docs`\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--check` exits 1 and names a changed page and a page no longer generated; writing again
/// makes the changed one fresh.
#[test]
fn check_names_stale_pages() {
    let dir = generate();
    let weapon = dir.path().join("weapon.md");
    let text = std::fs::read_to_string(&weapon).unwrap();
    std::fs::write(&weapon, text.replace("| `fire` |", "| `fired` |")).unwrap();
    std::fs::write(dir.path().join("gone.md"), "old page\n").unwrap();
    let out = cav().args(["docs", "--check", "--out"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("weapon.md") && said.contains("gone.md"), "{said}");
    assert!(!said.contains("model.md"), "{said}");
    let out = cav().args(["docs", "--out"]).arg(dir.path()).output().unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&weapon).unwrap(), text);
}
