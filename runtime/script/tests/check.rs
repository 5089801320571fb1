//! `check_scripts` on a copy of the bundled content with broken scripts: each problem is found
//! at validate time, located at file:line, with its code and hint; the bundled content is clean.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cav_content::diag::{Diagnostic, Severity, Sources};
use cav_script::check_scripts;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn copy_tree(from: &Path, to: &Path) {
    cav_watch::copy_tree(from, to).unwrap();
}

/// A copy of `content/` and `scripts/` to break.
struct Copy {
    dir: tempfile::TempDir,
}

impl Copy {
    fn new() -> Copy {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(&repo().join("content"), &dir.path().join("content"));
        Copy { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Replace the one occurrence of `from` in file `rel`.
    fn edit(&self, rel: &str, from: &str, to: &str) {
        let p = self.path(rel);
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(text.matches(from).count(), 1, "{rel}: `{from}` must occur once");
        std::fs::write(&p, text.replace(from, to)).unwrap();
    }

    /// 1-based line of the one line of file `rel` containing `needle`.
    fn line_of(&self, rel: &str, needle: &str) -> u32 {
        line_of(&std::fs::read_to_string(self.path(rel)).unwrap(), needle)
    }

    /// Script diagnostics of the Quick-Start ruleset.
    fn check(&self) -> (Vec<Diagnostic>, Sources) {
        check_root(self.dir.path())
    }
}

fn line_of(text: &str, needle: &str) -> u32 {
    let lines: Vec<usize> = text.lines().enumerate().filter(|(_, l)| l.contains(needle)).map(|(i, _)| i + 1).collect();
    assert_eq!(lines.len(), 1, "`{needle}` must be on one line, found on {lines:?}");
    lines[0] as u32
}

/// `cav-typecheck`, built where `check_scripts` looks for it (beside this test's profile
/// directory), so these checks include Luau's type check as `cav validate` runs it.
fn typecheck_built() {
    static BUILT: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let mut cargo = std::process::Command::new(env!("CARGO"));
        cargo.args(["build", "-q", "-p", "cav-cli", "--bin", "cav-typecheck"]).current_dir(repo());
        if !cfg!(debug_assertions) {
            cargo.arg("--release");
        }
        let out = cargo.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    });
}

fn check_root(root: &Path) -> (Vec<Diagnostic>, Sources) {
    typecheck_built();
    let mut loaded =
        cav_content::load(&cav_content::LoadOptions { paths: vec![root.join("content")], library: vec![] });
    let rs = loaded.ruleset("cav-quickstart").expect("quickstart ruleset").clone();
    let diags = check_scripts(&rs, &mut loaded.sources);
    (diags, loaded.sources)
}

/// The file name and line of a diagnostic.
fn at(d: &Diagnostic, sources: &Sources) -> (String, u32) {
    let file = d.file.map(|f| sources.get(f).path.file_name().unwrap().to_string_lossy().into_owned());
    (file.unwrap_or_default(), d.loc.map_or(0, |l| l.start.line))
}

fn find<'a>(diags: &'a [Diagnostic], code: &str, message_part: &str) -> &'a Diagnostic {
    diags
        .iter()
        .find(|d| d.code == code && d.message.contains(message_part))
        .unwrap_or_else(|| panic!("no {code} diagnostic mentioning {message_part:?} in {diags:#?}"))
}

#[test]
fn the_bundled_scripts_are_clean() {
    let (diags, _) = check_root(&repo());
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn a_syntax_error_and_a_misspelt_handler_are_located_in_their_scripts() {
    let c = Copy::new();
    c.edit("content/cav-quickstart/scripts/smart.luau", "local area = ctx.value", "local area = = ctx.value");
    c.edit(
        "content/cav-quickstart/scripts/strike.luau",
        "function strike.attack_declare(",
        "function strike.damage_calcx(",
    );
    let (diags, sources) = c.check();

    let syntax = find(&diags, "script-syntax", "smart");
    assert_eq!(syntax.severity, Severity::Error);
    assert_eq!(
        at(syntax, &sources),
        ("smart.luau".into(), c.line_of("content/cav-quickstart/scripts/smart.luau", "= = ctx"))
    );
    assert!(syntax.message.starts_with("script `smart` of special attribute `smart` does not compile: "), "{syntax:?}");
    assert_eq!(syntax.pack.as_deref(), Some("cav-quickstart"));
    assert!(syntax.expected.is_some());
    // Rendered like a YAML diagnostic: the script line with a caret.
    let shown = cav_content::diag::render_human(std::slice::from_ref(syntax), &sources);
    assert!(shown.contains("local area = = ctx.value"), "{shown}");
    assert!(shown.contains("smart.luau:"), "{shown}");

    let handler = find(&diags, "script-handler", "damage_calcx");
    assert_eq!(handler.severity, Severity::Error);
    let line = c.line_of("content/cav-quickstart/scripts/strike.luau", "damage_calcx");
    assert_eq!(at(handler, &sources), ("strike.luau".into(), line));
    assert_eq!(handler.loc.unwrap().start.col, "function strike.".len() as u32 + 1);
    assert_eq!(handler.message, "script `strike` has a handler `damage_calcx`, which is not a hook point");
    assert_eq!(handler.hint.as_deref(), Some("did you mean `damage_calc`?"));

    // Its declared hook lost its handler: reported at the document's `hooks:`.
    let hooks = find(&diags, "script-hooks", "attack_declare");
    assert_eq!(
        at(hooks, &sources),
        (
            "quickstart-sas.yaml".into(),
            c.line_of("content/cav-quickstart/special-attributes/quickstart-sas.yaml", "hooks: [attack_declare]")
        )
    );
    assert_eq!(hooks.pointer.as_deref(), Some("/hooks/0"));
    assert_eq!(hooks.hint.as_deref(), Some("the script `strike` has no `attack_declare` handler"));
    assert_eq!(diags.len(), 3, "{diags:#?}");
}

#[test]
fn declared_hooks_and_handlers_must_match() {
    let c = Copy::new();
    let sas = "content/cav-quickstart/special-attributes/quickstart-sas.yaml";
    // An extra hook declared on the smart SA (its script has no handler for it).
    c.edit(
        sas,
        "  script: smart\n  hooks: [attack_targets]",
        "  script: smart\n  hooks: [attack_targets, damage_calc]",
    );
    // An extra handler in strike's script that its SA does not declare.
    c.edit(
        "content/cav-quickstart/scripts/strike.luau",
        "return strike",
        "function strike.combat_tp(ctx)\nend\n\nreturn strike",
    );
    let (diags, sources) = c.check();

    let declared = find(&diags, "script-hooks", "declares hook `damage_calc`");
    assert_eq!(declared.severity, Severity::Error);
    assert_eq!(at(declared, &sources), ("quickstart-sas.yaml".into(), c.line_of(sas, "[attack_targets, damage_calc]")));
    assert_eq!(declared.pointer.as_deref(), Some("/hooks/1"));
    assert_eq!(
        declared.message,
        "special attribute `smart` declares hook `damage_calc`, but its script does not handle it"
    );
    assert_eq!(declared.hint.as_deref(), Some("the script `smart` has no `damage_calc` handler"));

    let handler = find(&diags, "script-hooks", "handler `combat_tp`");
    assert_eq!(
        at(handler, &sources),
        ("strike.luau".into(), c.line_of("content/cav-quickstart/scripts/strike.luau", "combat_tp"))
    );
    assert_eq!(
        handler.message,
        "handler `combat_tp` of script `strike` is not declared in `hooks:` of special attribute `strike`"
    );
    assert_eq!(handler.hint.as_deref(), Some("add `combat_tp` to `hooks:` of special attribute `strike`"));
    assert_eq!(diags.len(), 2, "{diags:#?}");
}

/// Every hook point is called now (`build` was the last with none): a handler of it, declared
/// in `hooks:`, gets no warning. (A point the vocabulary marks not implemented would get one at
/// the handler's line: `check.rs`, `not-implemented`.)
#[test]
fn a_handler_of_build_is_called_and_not_warned_about() {
    let c = Copy::new();
    let sas = "content/cav-quickstart/special-attributes/quickstart-sas.yaml";
    c.edit(sas, "hooks: [attack_declare]", "hooks: [attack_declare, build]");
    c.edit(
        "content/cav-quickstart/scripts/strike.luau",
        "return strike",
        "function strike.build(ctx)\n\tprint(ctx.point)\nend\n\nreturn strike",
    );
    let (diags, _) = c.check();
    assert!(cav_format::HookPoint::ALL.iter().all(|p| p.status().implemented()));
    assert!(diags.is_empty(), "{diags:#?}");
}

#[test]
fn a_runaway_top_level_is_an_error_not_a_hang() {
    let c = Copy::new();
    std::fs::write(
        c.path("content/cav-quickstart/scripts/strike.luau"),
        "local strike = {}\n\nwhile true do end\n\nreturn strike\n",
    )
    .unwrap();
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![c.path("content")], library: vec![] });
    let rs = loaded.ruleset("cav-quickstart").unwrap().clone();
    let start = Instant::now();
    let diags = check_scripts(&rs, &mut loaded.sources);
    assert!(start.elapsed() < Duration::from_secs(1), "took {:?}", start.elapsed());
    let sources = loaded.sources;
    let load = find(&diags, "script-load", "strike");
    assert_eq!(load.severity, Severity::Error);
    assert_eq!(at(load, &sources), ("strike.luau".into(), 3));
    assert!(load.message.contains("budget") || load.message.contains("time"), "{load:?}");
    assert!(load.hint.as_deref().is_some_and(|h| h.contains("loop")), "{load:?}");
    // A top-level `error(...)` is a load error at its line; smart's script still checks clean.
    std::fs::write(
        c.path("content/cav-quickstart/scripts/strike.luau"),
        "local strike = {}\nerror('no')\nreturn strike\n",
    )
    .unwrap();
    let (diags, sources) = c.check();
    let load = find(&diags, "script-load", "no");
    assert_eq!(at(load, &sources), ("strike.luau".into(), 2));
    assert_eq!(load.message, "script `strike` of special attribute `strike` fails while loading: no");
    assert_eq!(diags.len(), 1, "{diags:#?}");
}

#[test]
fn a_module_that_is_not_a_table_of_functions_is_reported() {
    let c = Copy::new();
    std::fs::write(c.path("content/cav-quickstart/scripts/strike.luau"), "local strike = {}\n\nreturn 42\n").unwrap();
    std::fs::write(
        c.path("content/cav-quickstart/scripts/smart.luau"),
        "local smart = {}\nsmart.attack_targets = 3\nreturn smart\n",
    )
    .unwrap();
    let (diags, sources) = c.check();
    let not_table = find(&diags, "script-handler", "returns number");
    assert_eq!(at(not_table, &sources), ("strike.luau".into(), 3));
    let not_fn = find(&diags, "script-handler", "not a function");
    assert_eq!(at(not_fn, &sources), ("smart.luau".into(), 2));
    assert_eq!(not_fn.message, "handler `attack_targets` of script `smart` is a number, not a function");
}

#[test]
fn script_on_a_kind_the_engine_does_not_run_is_a_warning() {
    let c = Copy::new();
    let bunker = "content/cav-full/assets/bunker-weapon-emplacement.yaml";
    c.edit(
        bunker,
        "hooks: [game_setup, draw_deck, attack_declare]\n",
        "hooks: [game_setup, draw_deck, attack_declare]\nscript: bunker\n",
    );
    let (diags, sources) = c.check();
    let w = find(&diags, "script-not-run", "bunker-weapon-emplacement");
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(at(w, &sources), ("bunker-weapon-emplacement.yaml".into(), c.line_of(bunker, "script: bunker")));
    assert_eq!(w.pointer.as_deref(), Some("/script"));
    assert_eq!(
        w.message,
        "`script:` on asset `bunker-weapon-emplacement` is recognised but not run yet: the engine runs scripts of special attributes, upgrades and weapons only"
    );
}

#[test]
fn a_script_shared_by_rulesets_is_one_source_file() {
    let c = Copy::new();
    c.edit("content/cav-quickstart/scripts/smart.luau", "local area = ctx.value", "local area = = ctx.value");
    let mut loaded = cav_content::load(&cav_content::LoadOptions { paths: vec![c.path("content")], library: vec![] });
    let rs = loaded.ruleset("cav-quickstart").unwrap().clone();
    let first = check_scripts(&rs, &mut loaded.sources);
    let n = loaded.sources.len();
    let second = check_scripts(&rs, &mut loaded.sources);
    assert_eq!(loaded.sources.len(), n);
    assert_eq!(first, second);
}
