//! `cav watch` re-checks after a save only what the save can change: the loader takes a ruleset
//! none of whose inputs changed as the last load built it (`cav-content`'s `reuse`), and
//! `validate_parts_with` takes again its compile, forces, unplayed-entry and script findings
//! (`cav_compile::Memo`). On a sequence of edits of every kind, each reload through the memo
//! must give what a fresh load and check of the same files gives: the same diagnostics (rendered,
//! and as JSON) and the same compiled rules, with the type checker kept running (as `cav watch`
//! does) against one started for each check. And it must reuse: a test that passed because
//! nothing was ever reused would prove nothing.

use std::fmt::Write as _;
use std::path::Path;

use cav_content::diag::{render_human, to_json};
use cav_content::{LoadOptions, pack::Cache};

/// What a load and check give, with file ids written as paths.
fn snapshot(loaded: &mut cav_content::Loaded, rules: &[Option<std::sync::Arc<cav_rules::Rules>>]) -> String {
    let mut out = render_human(&loaded.diagnostics, &loaded.sources);
    out.push_str(&to_json(&loaded.diagnostics, &loaded.sources).to_string());
    for (rs, r) in loaded.rulesets.iter().zip(rules) {
        // Maps in the rules are ordered, so equal rules render alike.
        writeln!(out, "\nruleset {} {:?}\n{:?}", rs.id, rs.packs, r.as_deref()).unwrap();
    }
    out
}

fn fresh(opts: &LoadOptions) -> String {
    // A type checker started for each check, as `cav validate` runs it.
    cav_script::check::keep_type_checker_running(false);
    let mut loaded = cav_content::load(opts);
    let v = cav_compile::validate_parts(&mut loaded);
    snapshot(&mut loaded, &v.rules)
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} holds {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

struct Reload {
    text: String,
    rulesets: usize,
    /// Rulesets the loader took as the last load built them.
    built_again: usize,
    /// Rulesets whose compile findings, and whose script findings, were taken again.
    compiled_again: usize,
    scripts_again: usize,
    /// The cache numbered its files afresh after this load.
    renumbered: bool,
}

#[test]
fn memoized_reload_equals_fresh_check_on_a_sequence_of_edits() {
    edit_sequence(Cache::default(), false);
    // A cache that numbers its files afresh on every save that leaves a file version behind (a
    // long session does, now and then): what each layer kept names files by their old ids.
    edit_sequence(Cache::keeping_empty_slots(0), true);
}

/// The edits, each reload held to a fresh check; with `renumbering`, reuse is not asked for (a
/// cache that numbers its files afresh parses and checks everything again).
fn edit_sequence(mut cache: Cache, renumbering: bool) {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let dir = tempfile::tempdir().unwrap();
    for d in ["content", "mods"] {
        cav_watch::copy_tree(&repo.join(d), &dir.path().join(d)).unwrap();
    }
    let root = dir.path();
    let roots = vec![root.join("content"), root.join("mods")];
    let opts = LoadOptions { paths: roots.clone(), library: roots };
    let mut memo = cav_compile::Memo::default();
    let mut reload = || {
        // One type checker kept running and answering again what it answered, as `cav watch`
        // runs it.
        cav_script::check::keep_type_checker_running(true);
        let mut loaded = cav_content::load_cached(&opts, &mut cache);
        cache.sweep();
        let renumbered = cache.take_renumbered();
        let v = cav_compile::validate_parts_with(&mut loaded, &mut memo);
        let (compiled_again, scripts_again) = memo.reused();
        Reload {
            text: snapshot(&mut loaded, &v.rules),
            rulesets: loaded.rulesets.len(),
            built_again: cache.rulesets_reused(),
            compiled_again,
            scripts_again,
            renumbered,
        }
    };
    let same = |what: &str, r: &Reload| {
        let want = fresh(&opts);
        assert!(r.text == want, "{what}: the memoized reload differs from a fresh check");
    };

    let first = reload();
    same("first load", &first);
    assert_eq!((first.built_again, first.compiled_again, first.scripts_again), (0, 0, 0));
    let initial = first.text;

    let again = reload();
    same("nothing changed", &again);
    assert_eq!(again.built_again, again.rulesets, "an unchanged ruleset is not built again");
    assert_eq!(again.compiled_again, again.rulesets, "nor compiled again");
    assert_eq!(again.scripts_again, again.rulesets, "nor are its scripts checked again");

    // A Quick-Start card: the rulesets that do not hold it are taken again, and every
    // ruleset's scripts (a card changes nothing they read).
    let card = root.join("content/cav-quickstart/models/dictator-b.yaml");
    edit(&card, "\ntv: 800\n", "\ntv: 801\n");
    let r = reload();
    same("a card's value", &r);
    if !renumbering {
        assert!(
            0 < r.built_again && r.built_again < r.rulesets,
            "only the rulesets holding the card: {}",
            r.built_again
        );
        assert!(0 < r.compiled_again && r.compiled_again < r.rulesets);
        assert_eq!(r.scripts_again, r.rulesets, "a card changes no script input");
    }
    assert_eq!(r.renumbered, renumbering, "the files were numbered afresh, or not");

    // An unknown key in a parent many test models extend.
    let parent = root.join("content/cav-full/tests/fixtures.yaml");
    edit(&parent, "\ntv: 500\n", "\ntv: 501\nbogus_field: 1\n");
    same("a parent's value and an unknown key", &reload());

    // A script's text: its rulesets check their scripts again, the others do not.
    let script = root.join("content/cav-quickstart/scripts/smart.luau");
    edit(&script, "local area = ctx.value\n", "local area: string = ctx.value\n");
    let r = reload();
    same("a script with a type error", &r);
    assert!(r.text.contains("smart.luau"), "the type error is reported");
    if !renumbering {
        assert!(r.scripts_again < r.rulesets, "the rulesets playing the script check it again");
        assert_eq!(r.built_again, r.rulesets, "a script changes no document");
    }

    // A new file under a script root, even one no document names, and then a hook that names a
    // module which is not there.
    std::fs::write(root.join("mods/overcharge/scripts/extra.luau"), "return {}\n").unwrap();
    same("a new script file", &reload());
    // A module a document names goes, and comes back: no document changed, but the loader's
    // check of `script:` looks at the disk.
    let luau = root.join("mods/overcharge/scripts/overcharge.luau");
    let source = std::fs::read_to_string(&luau).unwrap();
    std::fs::remove_file(&luau).unwrap();
    let r = reload();
    same("a named module deleted", &r);
    assert!(r.text.contains("overcharge"), "the missing module is reported");
    std::fs::write(&luau, &source).unwrap();
    same("a named module back", &reload());
    let sa = root.join("mods/overcharge/special-attributes/overcharge.yaml");
    let text = std::fs::read_to_string(&sa).unwrap();
    let module = text.lines().find_map(|l| l.trim().strip_prefix("script:")).expect("overcharge names its script");
    edit(&sa, &format!("script:{module}"), " missing-module");
    same("a script that is not there", &reload());

    // A broken file, a changed manifest, a new pack.
    std::fs::write(root.join("mods/overcharge/models/broken.yaml"), "kind: model\nid: [unclosed\n").unwrap();
    same("a broken file", &reload());
    edit(&root.join("mods/overcharge/pack.yaml"), "version: 1.0.0", "version: 1.0.1");
    same("a manifest", &reload());
    let pack = root.join("mods/newcomer");
    std::fs::create_dir_all(pack.join("scripts")).unwrap();
    std::fs::write(
        pack.join("pack.yaml"),
        "id: newcomer\nname: Newcomer\nversion: 0.1.0\nkind: extension\ngame: cav-so\n\
         authors: [test]\nlicense: CC0-1.0\nscripts: [scripts]\n",
    )
    .unwrap();
    same("a new pack", &reload());

    // Everything back as it was: nothing stale may come back from the memo.
    std::fs::remove_dir_all(&pack).unwrap();
    std::fs::remove_file(root.join("mods/overcharge/models/broken.yaml")).unwrap();
    std::fs::remove_file(root.join("mods/overcharge/scripts/extra.luau")).unwrap();
    std::fs::write(&sa, &text).unwrap();
    edit(&root.join("mods/overcharge/pack.yaml"), "version: 1.0.1", "version: 1.0.0");
    edit(&script, "local area: string = ctx.value\n", "local area = ctx.value\n");
    edit(&parent, "\ntv: 501\nbogus_field: 1\n", "\ntv: 500\n");
    edit(&card, "\ntv: 801\n", "\ntv: 800\n");
    let back = reload();
    same("every edit undone", &back);
    assert!(back.text == initial, "undone, the check gives what it first gave");
}
