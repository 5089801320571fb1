//! Every class of bad input gets a located diagnostic and no panic. Each test writes a small tree
//! of packs to a temporary directory, loads it, and snapshots the one-line rendering of every
//! diagnostic (`file:line:col [code] (pack) pointer: message | expected … | hint`).

use std::path::Path;

use cav_content::{LoadOptions, Loaded, load};

/// A minimal valid base pack every test can build on.
const BASE: &[(&str, &str)] = &[
    ("base/pack.yaml", "id: base\nname: Base\nversion: 1.2.0\nkind: ruleset\n"),
    (
        "base/sa.yaml",
        "kind: special_attribute\nid: blaster\nname: Blaster\napplies_to: weapon\nparameter: rating\nsummary: s\nsource: t\n",
    ),
    ("base/move.yaml", "kind: move_class\nid: walker\nname: Walker\nsummary: two legs\n"),
    (
        "base/weapon.yaml",
        "kind: weapon\nid: medium-mac\nname: Medium MAC\nclass: MAC\nfire: direct\nrange: 12\nrav: 5/2\nspecial_attributes: [blaster]\nsummary: s\nsource: t\n",
    ),
    // The faction `MODEL` belongs to: a model's `faction:` must name one of the ruleset.
    ("base/faction.yaml", "kind: faction\nid: test\nname: Test\nclass: open\nsummary: s\n"),
];

const MODEL: &str = "kind: model\nid: dictator-b\nname: Dictator-B\nfaction: Test\nmodel_type: cav\ntask: attack\nmove_class: walker\ntv: 300\ndamage_track:\n  damage_tracks: 2\n  mv: [6, 5, 4]\n  av: 7\nweapons:\n  - weapon: medium-mac\n    quantity: 2\n    mount: [L, R]\n";

fn write(root: &Path, files: &[(&str, &[u8])]) {
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

fn load_tree(extra: &[(&str, &[u8])], with_base: bool) -> (tempfile::TempDir, Loaded) {
    let dir = tempfile::tempdir().unwrap();
    if with_base {
        let base: Vec<(&str, &[u8])> = BASE.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
        write(dir.path(), &base);
    }
    write(dir.path(), extra);
    let loaded = load(&LoadOptions { paths: vec![dir.path().to_owned()], library: vec![] });
    (dir, loaded)
}

fn render(dir: &Path, loaded: &Loaded) -> String {
    let root = dir.canonicalize().unwrap();
    let rel = |s: String| {
        s.replace(&format!("{}/", root.display()), "")
            .replace(&format!("{}/", dir.display()), "")
            .replace(&root.display().to_string(), ".")
    };
    let mut out = String::new();
    for d in &loaded.diagnostics {
        out.push_str(&rel(d.location(&loaded.sources)));
        out.push_str(&format!(" [{}]", d.code));
        if let Some(p) = &d.pack {
            out.push_str(&format!(" ({p})"));
        }
        if let Some(p) = &d.pointer {
            out.push_str(&format!(" {p}"));
        }
        out.push_str(&format!(": {}", rel(d.message.clone())));
        if let Some(e) = &d.expected {
            out.push_str(&format!(" | expected {e}"));
        }
        if let Some(h) = &d.hint {
            out.push_str(&format!(" | {h}"));
        }
        out.push('\n');
    }
    out
}

fn check(name: &str, extra: &[(&str, &[u8])]) -> Loaded {
    let (dir, loaded) = load_tree(extra, true);
    assert!(loaded.error_count() > 0, "{name}: expected errors, got none");
    insta::assert_snapshot!(name, render(dir.path(), &loaded));
    loaded
}

#[test]
fn valid_tree_has_no_diagnostics() {
    let (dir, loaded) = load_tree(&[("base/model.yaml", MODEL.as_bytes())], true);
    assert_eq!(render(dir.path(), &loaded), "");
    let rs = loaded.ruleset("base").expect("ruleset built");
    assert!(rs.get(cav_format::DocKind::Model, "dictator-b").and_then(|e| e.doc.as_deref()).is_some());
}

#[test]
fn yaml_syntax_error() {
    check("yaml_syntax", &[("base/bad.yaml", b"kind: weapon\nid: [oops\nname: x\n")]);
}

#[test]
fn wrong_type() {
    check("wrong_type", &[("base/model.yaml", MODEL.replace("tv: 300", "tv: lots").as_bytes())]);
}

#[test]
fn missing_required_field() {
    check("missing_field", &[("base/model.yaml", MODEL.replace("faction: Test\n", "").as_bytes())]);
}

#[test]
fn unknown_field_with_hint() {
    check("unknown_field", &[("base/model.yaml", MODEL.replace("tv: 300", "tv: 300\nfation: Wolves").as_bytes())]);
}

#[test]
fn duplicate_key_in_one_mapping() {
    check("duplicate_key", &[("base/model.yaml", MODEL.replace("tv: 300", "tv: 300\ntv: 310").as_bytes())]);
}

#[test]
fn duplicate_id_across_packs() {
    check(
        "duplicate_id",
        &[
            ("ext/pack.yaml", b"id: ext\nname: Ext\nversion: 0.1.0\nkind: extension\ndepends: [base]\n"),
            ("ext/w.yaml", BASE[3].1.as_bytes()),
        ],
    );
}

#[test]
fn dangling_reference_with_hint() {
    check("dangling_ref", &[("base/model.yaml", MODEL.replace("weapon: medium-mac", "weapon: medium-mc").as_bytes())]);
}

#[test]
fn missing_dependency() {
    check(
        "missing_dependency",
        &[("ext/pack.yaml", b"id: ext\nname: Ext\nversion: 0.1.0\nkind: extension\ndepends: [bsae]\n")],
    );
}

#[test]
fn version_mismatch() {
    check(
        "version_mismatch",
        &[("ext/pack.yaml", b"id: ext\nname: Ext\nversion: 0.1.0\nkind: extension\ndepends: [\"base >= 2.0\"]\n")],
    );
}

#[test]
fn dependency_cycle() {
    check(
        "dependency_cycle",
        &[
            ("a/pack.yaml", b"id: a\nname: A\nversion: 0.1.0\nkind: extension\ndepends: [base, b]\n"),
            ("b/pack.yaml", b"id: b\nname: B\nversion: 0.1.0\nkind: extension\ndepends: [a]\n"),
        ],
    );
}

#[test]
fn incompatible_packs_together() {
    check(
        "incompatible",
        &[
            ("a/pack.yaml", b"id: a\nname: A\nversion: 0.1.0\nkind: extension\ndepends: [base, \"! b\"]\n"),
            ("b/pack.yaml", b"id: b\nname: B\nversion: 0.1.0\nkind: extension\ndepends: [base]\n"),
        ],
    );
}

#[test]
fn empty_file() {
    check("empty_file", &[("base/empty.yaml", b""), ("base/comments.yaml", b"# nothing here\n")]);
}

#[test]
fn non_utf8_bytes() {
    check("non_utf8", &[("base/latin1.yaml", b"kind: move_class\nid: hover\nname: Caf\xe9\nsummary: x\n")]);
}

#[test]
fn file_over_size_limit() {
    let big = vec![b'#'; cav_content::pack::MAX_FILE_BYTES as usize + 1];
    check("too_large", &[("base/huge.yaml", &big)]);
}

#[cfg(unix)]
#[test]
fn symlink_loop() {
    let (dir, _) = load_tree(&[], true);
    std::os::unix::fs::symlink(dir.path().join("base"), dir.path().join("base/loop")).unwrap();
    let loaded = load(&LoadOptions { paths: vec![dir.path().to_owned()], library: vec![] });
    insta::assert_snapshot!("symlink_loop", render(dir.path(), &loaded));
    assert_eq!(loaded.error_count(), 1);
}

#[test]
fn pack_without_manifest() {
    check("no_manifest", &[("stray/unit.yaml", MODEL.as_bytes())]);
}

#[test]
fn unknown_kind_and_missing_kind() {
    check("unknown_kind", &[("base/a.yaml", b"kind: wepon\nid: x\n---\nid: y\nname: no kind\n")]);
}

#[test]
fn bad_enum_and_rav_values() {
    check(
        "bad_values",
        &[("base/w2.yaml", b"kind: weapon\nid: gun\nname: Gun\nclass: C\nfire: direkt\nrange: twelve\nrav: 5-2\nsummary: s\nsource: t\n")],
    );
}

#[test]
fn damage_track_column_count() {
    check("damage_track", &[("base/model.yaml", MODEL.replace("mv: [6, 5, 4]", "mv: [6, 5]").as_bytes())]);
}

#[test]
fn all_problems_reported_in_one_run() {
    let loaded = check(
        "one_run",
        &[
            ("base/model.yaml", MODEL.replace("tv: 300", "tv: \"300\"\ncolour: red").as_bytes()),
            ("base/broken.yaml", b"kind: move_class\nid: tracked\nname: [Tracked\n"),
        ],
    );
    assert_eq!(loaded.error_count(), 3);
}

#[test]
fn human_rendering_shows_source_line_and_caret() {
    let (dir, loaded) = load_tree(&[("base/model.yaml", MODEL.replace("tv: 300", "tv: lots").as_bytes())], true);
    let text = cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources);
    let text = text.replace(&format!("{}/", dir.path().display()), "");
    insta::assert_snapshot!("human", text);
}

#[test]
fn json_rendering_has_every_field() {
    let (_dir, loaded) =
        load_tree(&[("base/model.yaml", MODEL.replace("weapon: medium-mac", "weapon: medium-mc").as_bytes())], true);
    let json = cav_content::diag::to_json(&loaded.diagnostics, &loaded.sources);
    let d = &json[0];
    assert_eq!(d["code"], "dangling-ref");
    assert_eq!(d["line"], 14);
    assert_eq!(d["column"], 13);
    assert_eq!(d["pack"], "base");
    assert_eq!(d["pointer"], "/weapons/0/weapon");
    assert_eq!(d["hint"], "did you mean `medium-mac`?");
    assert!(d["file"].as_str().unwrap().ends_with("base/model.yaml"));
}

/// Load sets: an extension joins every ruleset whose packs satisfy its dependencies, and never
/// brings one ruleset into another. `variant` builds on `base` (as the Quick-Start builds on the
/// full rules): a mod on `base` joins both; a mod on `variant` joins `variant` only; a mod that
/// names no ruleset joins both; a mod on `base` that declares `variant` incompatible joins `base` only.
#[test]
fn extensions_join_every_ruleset_that_satisfies_them() {
    let (_dir, loaded) = load_tree(
        &[
            ("variant/pack.yaml", b"id: variant\nname: V\nversion: 1.0.0\nkind: ruleset\ndepends: [base]\n"),
            ("on-base/pack.yaml", b"id: on-base\nname: A\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            ("on-variant/pack.yaml", b"id: on-variant\nname: B\nversion: 1.0.0\nkind: extension\ndepends: [variant]\n"),
            ("free/pack.yaml", b"id: free\nname: C\nversion: 1.0.0\nkind: extension\n"),
            (
                "base-only/pack.yaml",
                b"id: base-only\nname: D\nversion: 1.0.0\nkind: extension\ndepends: [base, '! variant']\n",
            ),
        ],
        true,
    );
    assert!(loaded.diagnostics.iter().all(|d| d.code != "incompatible-packs"), "{:#?}", loaded.diagnostics);
    let members = |rs: &str| -> Vec<String> {
        let mut ids: Vec<String> = loaded.ruleset(rs).unwrap().packs.iter().map(|p| p.id.clone()).collect();
        ids.sort();
        ids
    };
    assert_eq!(members("base"), ["base", "base-only", "free", "on-base"]);
    assert_eq!(
        members("variant"),
        ["base", "free", "on-base", "on-variant", "variant"],
        "`! variant` keeps base-only out"
    );
}

/// Packs say which game they are for. `variant` builds on `base` (its game: `base`'s); `other` is
/// a ruleset of another game. A mod of `base`'s game joins `base` and `variant`, never `other`;
/// one of the other game joins `other` only; one that names no game and builds on no ruleset joins
/// none now that two games are installed, and a `pack-game` warning says so at its pack.yaml; one
/// that builds on `base` needs no `game:`.
#[test]
fn a_mod_joins_only_rulesets_of_its_game() {
    let (_dir, loaded) = load_tree(
        &[
            ("variant/pack.yaml", b"id: variant\nname: V\nversion: 1.0.0\nkind: ruleset\ndepends: [base]\n"),
            ("other/pack.yaml", b"id: other\nname: O\nversion: 1.0.0\nkind: ruleset\ngame: another-game\n"),
            ("ours/pack.yaml", b"id: ours\nname: A\nversion: 1.0.0\nkind: extension\ngame: base\n"),
            ("theirs/pack.yaml", b"id: theirs\nname: B\nversion: 1.0.0\nkind: extension\ngame: another-game\n"),
            ("free/pack.yaml", b"id: free\nname: C\nversion: 1.0.0\nkind: extension\n"),
            ("on-base/pack.yaml", b"id: on-base\nname: D\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            (
                "confused/pack.yaml",
                b"id: confused\nname: E\nversion: 1.0.0\nkind: extension\ngame: another-game\ndepends: [base]\n",
            ),
        ],
        true,
    );
    let members = |rs: &str| -> Vec<String> {
        let mut ids: Vec<String> = loaded.ruleset(rs).unwrap().packs.iter().map(|p| p.id.clone()).collect();
        ids.sort();
        ids
    };
    // A mod of one game built on a ruleset of another joins none, and that is an error.
    let confused: Vec<_> =
        loaded.diagnostics.iter().filter(|d| d.pack.as_deref() == Some("confused") && d.code == "pack-game").collect();
    assert_eq!(confused.len(), 1, "{:#?}", loaded.diagnostics);
    assert!(confused[0].message.contains("builds on ruleset `base`, of the game `base`"), "{}", confused[0].message);
    assert_eq!(members("base"), ["base", "on-base", "ours"]);
    assert_eq!(members("variant"), ["base", "on-base", "ours", "variant"]);
    assert_eq!(members("other"), ["other", "theirs"]);
    let warned: Vec<_> =
        loaded.diagnostics.iter().filter(|d| d.code == "pack-game" && d.pack.as_deref() != Some("confused")).collect();
    assert_eq!(warned.len(), 1, "{:#?}", loaded.diagnostics);
    assert_eq!(warned[0].pack.as_deref(), Some("free"));
    assert!(warned[0].message.contains("(another-game, base)"), "{}", warned[0].message);
    assert!(warned[0].loc.is_some(), "at its pack.yaml");
}

/// A reference to a document of a pack the referring pack does not build on names that pack
/// and the dependency to add.
#[test]
fn a_reference_out_of_reach_names_the_pack_that_has_it() {
    let (_dir, loaded) = load_tree(
        &[
            ("variant/pack.yaml", b"id: variant\nname: V\nversion: 1.0.0\nkind: ruleset\ndepends: [base]\n"),
            ("variant/model.yaml", MODEL.as_bytes()),
            ("fan/pack.yaml", b"id: fan\nname: F\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            ("fan/copy.yaml", b"kind: model\nid: copy\nextends: dictator-b\nname: Copy\n"),
        ],
        true,
    );
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == "dangling-ref" && d.pack.as_deref() == Some("fan"))
        .unwrap_or_else(|| panic!("{:#?}", loaded.diagnostics));
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.starts_with("pack `variant` defines it"), "{hint}");
    assert!(hint.ends_with("make `fan` depend on `variant`"), "{hint}");
    // Said once, and not again as the keys the copy would have inherited.
    let fan: Vec<_> = loaded.diagnostics.iter().filter(|d| d.pack.as_deref() == Some("fan")).collect();
    assert_eq!(fan.len(), 1, "{fan:#?}");
}

/// `switched_on` on a special attribute with no scripted Special action would do nothing: a
/// warning at the key says so.
#[test]
fn switched_on_without_a_special_action_is_a_warning() {
    let sa = "kind: special_attribute\nid: jammer\nname: Jammer\napplies_to: model\nparameter: none\nswitched_on: true\nsummary: s\nsource: t\n";
    let (dir, loaded) = load_tree(&[("base/jammer.yaml", sa.as_bytes())], true);
    let text = render(dir.path(), &loaded);
    assert_eq!(loaded.error_count(), 0, "{text}");
    assert!(
        text.contains("base/jammer.yaml:6:14 [switched-on] (base) /switched_on: `switched_on` on special attribute `jammer` does nothing"),
        "{text}"
    );
}

/// A card that prints a weapon's RAV must show the design bonus of its special attributes
/// (Piercing: +1 Hard) in its first column; when it does not, a warning names the sum expected.
#[test]
fn printed_rav_without_its_design_bonus_is_a_warning() {
    let sa = "kind: special_attribute\nid: piercing\nname: Piercing\napplies_to: weapon\nparameter: none\nmodifiers: [{target: hard_rav, value: 1}]\nsummary: s\nsource: t\n";
    let card = |rav: &str| {
        MODEL.replace(
            "    mount: [L, R]\n",
            &format!("    mount: [L, R]\n    special_attributes: [piercing]\n    rav: {rav}\n"),
        )
    };
    for (rav, warned) in [("5/2", true), ("6/2", false)] {
        let model = card(rav);
        let (dir, loaded) =
            load_tree(&[("base/piercing.yaml", sa.as_bytes()), ("base/model.yaml", model.as_bytes())], true);
        let text = render(dir.path(), &loaded);
        assert_eq!(loaded.error_count(), 0, "{text}");
        let said = text.contains(
            "base/model.yaml:18:10 [design-rav] (base) /weapons/0/rav: the card prints Hard RAV 5 for `medium-mac` in its first column, but the profile's 5 with Piercing makes 6",
        );
        assert_eq!(said, warned, "{rav}: {text}");
    }
}

/// An effect of an asset held off the table on a special attribute, or another effect on an
/// asset, would be ignored by the engine: an error at the target.
#[test]
fn held_asset_effects_belong_to_assets_only() {
    let sa = "kind: special_attribute\nid: spy\nname: Spy\napplies_to: model\nparameter: none\nmodifiers: [{target: draw_deck_card, value: 1}]\nsummary: s\nsource: t\n";
    let asset = "kind: asset\nid: drone\nname: Drone\ncost: {tv: 5}\nplacement: draw_deck\nmodifiers: [{target: combat_roll, value: 1}]\nsummary: s\nsource: t\n";
    let (dir, loaded) = load_tree(&[("base/spy.yaml", sa.as_bytes()), ("base/drone.yaml", asset.as_bytes())], true);
    let text = render(dir.path(), &loaded);
    assert_eq!(loaded.error_count(), 2, "{text}");
    assert!(
        text.contains("base/spy.yaml:6:22 [held-asset-effects] (base) /modifiers/0/target: `draw_deck_card` is an effect of an asset a side holds"),
        "{text}"
    );
    assert!(
        text.contains("base/drone.yaml:6:22 [held-asset-effects] (base) /modifiers/0/target: `combat_roll` is not an effect an asset has"),
        "{text}"
    );
}

/// A duplicate id names both places, file:line:col each: the diagnostic sits at one, its message
/// names the other. Two packs that do not build on each other are each told, each at its own
/// file and naming the other's.
#[test]
fn a_duplicate_id_names_both_files() {
    let twin = "kind: weapon\nid: twin\nname: Twin\nclass: MAC\nfire: direct\nrange: 12\nrav: 5/2\nsummary: s\n";
    let (dir, loaded) = load_tree(
        &[
            ("alpha/pack.yaml", b"id: alpha\nname: A\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            ("alpha/w.yaml", twin.as_bytes()),
            ("beta/pack.yaml", b"id: beta\nname: B\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            ("beta/weapons/w.yaml", format!("# a comment first\n{twin}").as_bytes()),
            // The same id twice in one file: both lines named.
            ("base/again.yaml", b"kind: move_class\nid: hover\nname: H\nsummary: s\n---\nkind: move_class\nid: hover\nname: H2\nsummary: s\n"),
        ],
        true,
    );
    let text = render(dir.path(), &loaded);
    assert!(
        text.contains("alpha/w.yaml:2:5 [duplicate-id] (alpha) /id: weapon `twin` is also defined by pack `beta` at beta/weapons/w.yaml:3:5, which does not depend on `alpha`"),
        "{text}"
    );
    assert!(
        text.contains("beta/weapons/w.yaml:3:5 [duplicate-id] (beta) /id: weapon `twin` is already defined (in pack `alpha`) at alpha/w.yaml:2:5, which pack `beta` does not depend on"),
        "{text}"
    );
    assert!(
        text.contains("base/again.yaml:7:5 [duplicate-id] (base) /id: move_class `hover` is already defined (in pack `base`) at base/again.yaml:2:5"),
        "{text}"
    );
}

/// A reference to a document that only a pack the run did not load defines (an extension of the
/// library nothing asked for, as `content/cav-invented` is when one mod is validated) still gets
/// the hint naming that pack and the dependency to add, as a reference into a loaded pack does.
#[test]
fn a_reference_into_an_unloaded_pack_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let base: Vec<(&str, &[u8])> = BASE.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    write(dir.path(), &base);
    write(
        dir.path(),
        &[
            ("extra/pack.yaml", b"id: extra\nname: X\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            ("extra/w.yaml", BASE[3].1.replace("medium-mac", "ember-gun").as_bytes()),
            ("fan/pack.yaml", b"id: fan\nname: F\nversion: 1.0.0\nkind: extension\ndepends: [base]\n"),
            (
                "fan/m.yaml",
                MODEL
                    .replace("id: dictator-b", "id: hound")
                    .replace("weapon: medium-mac", "weapon: ember-gun")
                    .as_bytes(),
            ),
        ],
    );
    let loaded = load(&LoadOptions { paths: vec![dir.path().join("fan")], library: vec![dir.path().to_owned()] });
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == "dangling-ref" && d.pack.as_deref() == Some("fan"))
        .unwrap_or_else(|| panic!("{:#?}", loaded.diagnostics));
    let hint = d.hint.as_deref().unwrap_or_default();
    assert!(hint.starts_with("pack `extra` defines it ("), "{hint}");
    assert!(hint.ends_with("not loaded in this run): make `fan` depend on `extra`"), "{hint}");
    // Reading the other pack for the hint loads nothing: the run is still fan and base.
    let packs: Vec<&str> = loaded.packs.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(packs, ["fan"]);
    assert!(loaded.rulesets.iter().all(|r| r.pack("extra").is_none()));
}
