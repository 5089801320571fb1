//! Checks of the packs' Luau scripts at validate time, so a broken script is reported with its
//! file:line before `cav play` or `cav test` trips over it.
//!
//! For every module a document names with `script:` (once per module file): it must compile
//! (`script-syntax`); its top level, run in the real sandbox with the limits of play, must finish
//! and return a table (`script-load`, `script-handler`); every key of that table must be a hook
//! point holding a function, or `as_target`: a table of such handlers for hook points with a
//! target (`script-handler`); and the handlers must be exactly the document's
//! `hooks:` (`script-hooks`). `script:` on a kind the engine does not run scripts of is a warning
//! (`script-not-run`), and so is a handler of a hook point the engine does not call yet
//! (`not-implemented`, at the handler's line). A module that cannot be found is the loader's
//! `script-missing`. Every module that compiles is also type-checked by Luau's own checker
//! (`Luau.Analysis` through the `luau-analyze` crate: strict mode, the new solver) against the hook
//! definitions made for the ruleset, whose state and terrain ids are exactly the ruleset's
//! (`script-type`, at the line and column the checker gives); `--!nocheck` opts a module out. In
//! the same process, a function that keeps state in its module (assigns a module-level local or
//! a global, or changes a table held in one) is a warning (`script-module-state`, `module_state`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cav_content::Ruleset;
use cav_content::diag::{Diagnostic, FileId, Loc, Pos, Sources, did_you_mean};
use cav_format::vocab::Status;
use cav_format::{DocKind, HookPoint};
use mlua::Value;

use crate::host::{AS_TARGET, AURA};
use crate::sandbox::{Limits, Sandbox, find_module, load_module, read_script};

/// Kinds whose scripts the engine runs (`LuaHost::new` reads every entry of `Rules::sas`: special
/// attributes, and the `upgrade:` and `weapon:` entries compiled for upgrades and weapons).
const RUN_KINDS: &[DocKind] = &[DocKind::SpecialAttribute, DocKind::Upgrade, DocKind::Weapon];

/// One module file and the documents that name it.
struct Module<'a> {
    name: String,
    path: PathBuf,
    /// Pack whose script roots hold the file.
    pack: String,
    users: Vec<&'a User>,
}

/// Everything the script check reads of a ruleset. The check is given these, never the ruleset,
/// so that a reload whose inputs are equal, and whose files under these script roots are
/// unchanged, may take its findings again (`crate::checked`): a save that changes a model's
/// numbers does not run the scripts again.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Inputs {
    /// The documents that name a `script:`, in entry order.
    users: Vec<User>,
    /// The script roots of each pack of the ruleset, by pack id.
    pub(crate) roots: Vec<(String, Vec<PathBuf>)>,
    names: Names,
}

impl Inputs {
    pub(crate) fn of(rs: &Ruleset) -> Inputs {
        let users = rs
            .entries()
            .filter(|e| e.doc.is_some())
            .filter_map(|e| {
                let script = e.value.get("script").and_then(|s| s.as_str())?;
                let hooks = e.value.get("hooks").and_then(|h| h.as_array());
                Some(User {
                    kind: e.kind,
                    id: e.id.clone(),
                    pack: e.pack.clone(),
                    script_pack: e.script_pack.clone(),
                    script: script.to_owned(),
                    hooks: hooks
                        .map(|a| a.iter().filter_map(|v| v.as_str()).map(str::to_owned).collect())
                        .unwrap_or_default(),
                    prov: e.prov.clone(),
                })
            })
            .collect();
        let roots = rs.packs.iter().map(|p| (p.id.clone(), p.script_roots.clone())).collect();
        Inputs { users, roots, names: Names::of(rs) }
    }

    fn script_roots(&self, pack: &str) -> Option<&[PathBuf]> {
        self.roots.iter().find(|(id, _)| id == pack).map(|(_, r)| r.as_slice())
    }
}

/// A document that names a `script:`: what the check says of it and where.
#[derive(Debug, Clone)]
struct User {
    kind: DocKind,
    id: String,
    pack: String,
    /// Pack whose script roots hold the module.
    script_pack: String,
    script: String,
    /// Its `hooks:`.
    hooks: Vec<String>,
    prov: Arc<cav_content::yaml::Provenance>,
}

impl PartialEq for User {
    fn eq(&self, o: &User) -> bool {
        (self.kind, &self.id, &self.pack, &self.script_pack, &self.script, &self.hooks)
            == (o.kind, &o.id, &o.pack, &o.script_pack, &o.script, &o.hooks)
            && (Arc::ptr_eq(&self.prov, &o.prov) || self.prov == o.prov)
    }
}

/// The ruleset's ids the hook definitions and the did-you-means name.
#[derive(Debug, Clone, PartialEq)]
struct Names {
    states: Vec<String>,
    terrain: Vec<String>,
    attributes: Vec<String>,
    roll_kinds: Vec<String>,
    contests: Vec<String>,
    model_types: Vec<String>,
}

impl Names {
    fn of(rs: &Ruleset) -> Names {
        let ids = |kind: DocKind| rs.of_kind(kind).map(|e| e.id.clone()).collect::<Vec<_>>();
        let ruleset = rs.of_kind(DocKind::Ruleset).find_map(|e| match e.doc.as_deref() {
            Some(cav_format::Document::Ruleset(r)) => Some(r),
            _ => None,
        });
        let declared = |f: fn(&cav_format::Ruleset) -> Vec<String>| ruleset.map(f).unwrap_or_default();
        Names {
            states: ids(DocKind::ModelState),
            terrain: ids(DocKind::Terrain),
            attributes: declared(|r| r.attributes.iter().map(|a| a.id.0.clone()).collect()),
            roll_kinds: declared(|r| r.roll_kinds.iter().map(|k| k.id.0.clone()).collect()),
            contests: declared(|r| r.contests.iter().map(|c| c.id.0.clone()).collect()),
            model_types: declared(|r| r.model_types.keys().map(|t| t.0.clone()).collect()),
        }
    }
}

/// Check the scripts of every document of `rs` that names one. Script files are added to
/// `sources` (once: a file already there with the same text is reused) so diagnostics point into
/// them. Pure apart from reading the script files; scripts run only inside the sandbox.
pub fn check_scripts(rs: &Ruleset, sources: &mut Sources) -> Vec<Diagnostic> {
    check_inputs(&Inputs::of(rs), sources, &mut Vec::new())
}

/// [`check_scripts`] of what it reads of a ruleset, also telling which files it asked `sources`
/// for, in order (see `crate::checked`).
pub(crate) fn check_inputs(inputs: &Inputs, sources: &mut Sources, read: &mut Vec<FileId>) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut modules: Vec<Module> = Vec::new();
    for e in &inputs.users {
        let name = e.script.as_str();
        if !RUN_KINDS.contains(&e.kind) {
            diags.push(
                Diagnostic::warning(
                    "script-not-run",
                    format!(
                        "`script:` on {} is recognised but not run yet: the engine runs scripts of special attributes, upgrades and weapons only",
                        doc_name(e)
                    ),
                )
                .at(e.prov.locate("/script"))
                .pack(e.pack.clone())
                .pointer("/script")
                .expected("`script:` on a special attribute, an upgrade or a weapon"),
            );
        }
        // A module that cannot be found is reported by the loader (`script-missing`).
        let Some(roots) = inputs.script_roots(&e.script_pack) else { continue };
        let Some(path) = find_module(roots, name) else { continue };
        // `pack/../../scripts/x.luau` → `scripts/x.luau`: one module per file, shown plainly.
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        match modules.iter_mut().find(|m| m.path == path) {
            Some(m) => m.users.push(e),
            None => modules.push(Module { name: name.to_owned(), path, pack: e.script_pack.clone(), users: vec![e] }),
        }
    }
    if modules.is_empty() {
        return diags;
    }
    // One sandbox for the ruleset, as `LuaHost` loads every module into one.
    let mut roots: Vec<PathBuf> = Vec::new();
    for m in &modules {
        for r in inputs.script_roots(&m.pack).unwrap_or_default() {
            if !roots.contains(r) {
                roots.push(r.clone());
            }
        }
    }
    let sandbox = match Sandbox::new(Limits::default(), roots) {
        Ok(s) => s,
        Err(e) => {
            diags.push(Diagnostic::error("script-load", format!("cannot start the script sandbox: {e}")));
            return diags;
        }
    };
    // Each module read and compiled; those that compile are type-checked by the other process
    // while this one runs them in the sandbox (the type check waits on `cav-typecheck`).
    let mut types = TypeChecker { names: inputs.names.clone(), queue: Vec::new() };
    let compiled: Vec<Option<Compiled>> =
        modules.iter().map(|m| compile_module(&sandbox, m, sources, read, &mut diags)).collect();
    for (i, c) in compiled.iter().enumerate() {
        if let Some(c) = c {
            types.queue(i, c.users.clone(), c.file, c.text.clone());
        }
    }
    let request = types.request(&modules);
    std::thread::scope(|scope| {
        let answer = request.map(|r| {
            let defs = r.defs.clone();
            (scope.spawn(move || typecheck(&r)), defs)
        });
        for (m, c) in modules.iter().zip(&compiled) {
            if let Some(c) = c {
                check_module(&sandbox, m, c, &mut diags);
            }
        }
        if let Some((answer, defs)) = answer {
            let answer = answer.join().unwrap_or_else(|_| Err("the type check stopped".to_owned()));
            types.answered(answer, &defs, &modules, &mut diags);
        }
    });
    diags
}

/// Luau's type checker for one ruleset: the modules that compiled, checked together by the
/// `cav-typecheck` process against the hook definitions made for the ruleset.
struct TypeChecker {
    names: Names,
    /// (module, documents using it, file, text) of every module to check.
    queue: Vec<(usize, String, FileId, Arc<str>)>,
}

/// A safety net only: the checker's own limits (type-inference iteration caps) end every check
/// long before. A module that reaches it gets a warning, never a verdict that depends on load.
const TYPE_CHECK_TIMEOUT_MS: u64 = 20_000;

/// `cav-typecheck` (the `CAV_TYPECHECK` variable, else beside the running program or one folder
/// up: a test binary runs from `target/*/deps/`).
pub fn typecheck_program() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CAV_TYPECHECK") {
        return Some(PathBuf::from(p));
    }
    let exe = std::env::current_exe().ok()?;
    let name = format!("cav-typecheck{}", std::env::consts::EXE_SUFFIX);
    exe.ancestors().skip(1).take(2).map(|d| d.join(&name)).find(|p| p.is_file())
}

impl TypeChecker {
    /// The ruleset's ids a did-you-mean looks among, by what they name.
    fn ids(&self) -> [(&'static str, &[String]); 5] {
        [
            ("model state", &self.names.states),
            ("terrain type", &self.names.terrain),
            ("attribute", &self.names.attributes),
            ("roll kind", &self.names.roll_kinds),
            ("contest", &self.names.contests),
        ]
    }

    fn queue(&mut self, module: usize, users: String, file: FileId, text: Arc<str>) {
        if !text.lines().take_while(|l| l.starts_with("--")).any(|l| l.trim() == "--!nocheck") {
            self.queue.push((module, users, file, text));
        }
    }

    /// The request that checks the queued modules; `None` when none is queued.
    fn request(&self, modules: &[Module]) -> Option<Request> {
        if self.queue.is_empty() {
            return None;
        }
        let (defs, defs_id) = definitions_for(&self.names);
        let modules = self.queue.iter().map(|(i, _, _, text)| (modules[*i].name.clone(), text.clone())).collect();
        Some(Request { defs, defs_id, modules })
    }

    /// The checker's answers to [`TypeChecker::request`], one per queued module: their type
    /// errors become diagnostics. A checker that cannot run is a warning saying so, once.
    fn answered(
        self,
        answer: Result<Vec<serde_json::Value>, String>,
        defs: &str,
        modules: &[Module],
        diags: &mut Vec<Diagnostic>,
    ) {
        let answers = match answer {
            Ok(a) => a,
            Err(e) => return not_checked(diags, &e),
        };
        for ((i, users, file, _), a) in self.queue.iter().zip(answers) {
            let m = &modules[*i];
            if a["timed_out"].as_bool() == Some(true) {
                diags.push(
                    Diagnostic::warning(
                        "script-type",
                        format!("the type check of script `{}` did not finish: its types are not checked", m.name),
                    )
                    .transient()
                    .in_file(*file)
                    .pack(m.pack.clone()),
                );
            }
            // A handler's context made its point's (`per_point`) and passed on where a
            // `CavContext` is wanted (a helper function, the handler tables' own types) is the
            // check's doing, not the script's: those functions are checked as written.
            // The checker sees one file at a time: what a module `require`s is unknown to it (its
            // exports are taken as any type, checked where they are used no further).
            let artifact = |d: &&serde_json::Value| {
                let m = d["message"].as_str().unwrap_or_default();
                (m.contains("CavContext") && m.contains("CavCtx_")) || m.starts_with("Unknown require")
            };
            for f in a["module_state"].as_array().into_iter().flatten() {
                let (line, col) = (f["line"].as_u64().unwrap_or(1) as u32, f["col"].as_u64().unwrap_or(1) as u32);
                let name = f["name"].as_str().unwrap_or_default();
                let what = match f["kept"].as_str() {
                    Some("local") => format!("assigns `{name}`, a local of the module's top level"),
                    Some("global") => format!("assigns the global `{name}`"),
                    _ => format!("changes the table in `{name}`, a module-level local or global"),
                };
                let end = col + name.chars().count() as u32;
                diags.push(
                    Diagnostic::warning(
                        "script-module-state",
                        format!("script `{}` of {users} keeps state in its module: a function {what}", m.name),
                    )
                    .at(Some(Loc { file: *file, start: Pos { line, col }, end: Pos { line, col: end } }))
                    .pack(m.pack.clone())
                    .expected("state kept in the game: `ctx.set_flag` / `ctx.flag`")
                    .hint(Some(
                        concat!(
                            "a module's variables last one game and `cav odds` starts each die sequence from fresh ",
                            "modules, so what they count is lost there: keep it in a flag (docs/modding-lua.md, ",
                            "\"What a script remembers\"); a module only `require`d is not checked yet"
                        )
                        .to_owned(),
                    )),
                );
            }
            for d in a["errors"].as_array().into_iter().flatten().filter(|d| !artifact(d)) {
                let at = |k: &str| d[k].as_u64().unwrap_or(0) as u32 + 1;
                let loc = Loc {
                    file: *file,
                    start: Pos { line: at("line"), col: at("col") },
                    end: Pos { line: at("end_line"), col: at("end_col") },
                };
                let (message, hint) = explain_type_error(d["message"].as_str().unwrap_or_default(), defs, &self.ids());
                diags.push(
                    Diagnostic::error("script-type", format!("script `{}` of {users}: {message}", m.name))
                        .at(Some(loc))
                        .pack(m.pack.clone())
                        .expected("a script that type-checks against the hook definitions (schemas/cav-hooks.d.luau; `--!nocheck` opts a module out)")
                        .hint(hint),
                );
            }
        }
    }
}

/// The hook definitions made for a ruleset's ids, and their digest (how a kept checker knows
/// them). Made once per set of ids: a reload asks again for every ruleset.
fn definitions_for(names: &Names) -> (Arc<str>, String) {
    type Made = Vec<(Names, Arc<str>, String)>;
    static MADE: std::sync::Mutex<Made> = std::sync::Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, defs, id)) = made.iter().find(|(n, _, _)| n == names) {
        return (defs.clone(), id.clone());
    }
    let defs: Arc<str> = Arc::from(crate::host::definitions_with(Some(crate::host::RulesetIds {
        states: &names.states,
        terrain: &names.terrain,
        attributes: &names.attributes,
        roll_kinds: &names.roll_kinds,
        contests: &names.contests,
        model_types: &names.model_types,
    })));
    let id = blake3::hash(defs.as_bytes()).to_hex().to_string();
    // A handful of rulesets at a time; a long session of edits to their ids makes more.
    if made.len() >= 16 {
        made.remove(0);
    }
    made.push((names.clone(), defs.clone(), id.clone()));
    (defs, id)
}

/// What `cav-typecheck` is asked: the modules (name, text as written) against the definitions.
struct Request {
    defs: Arc<str>,
    defs_id: String,
    modules: Vec<(String, Arc<str>)>,
}

impl Request {
    /// The request's JSON for the modules at `which`: the definitions named by their digest, and
    /// given in full when `with_defs` (a checker that has not seen them).
    fn json(&self, with_defs: bool, which: &[usize]) -> String {
        let mut r = serde_json::json!({
            "definitions_id": self.defs_id,
            "timeout_ms": TYPE_CHECK_TIMEOUT_MS,
            "modules": which.iter().map(|&i| {
                let (name, text) = &self.modules[i];
                serde_json::json!({"name": name, "source": per_point(text)})
            }).collect::<Vec<_>>(),
        });
        if with_defs {
            r["definitions"] = serde_json::Value::from(&*self.defs);
        }
        r.to_string()
    }
}

/// The answers of a checker's reply, one per module asked (`n`), or the error it replied.
fn module_answers(reply: serde_json::Value, n: usize) -> Result<Vec<serde_json::Value>, String> {
    if let Some(e) = reply.get("error").and_then(|e| e.as_str()) {
        return Err(e.to_owned());
    }
    match reply.get("modules").and_then(|m| m.as_array()) {
        Some(a) if a.len() == n => Ok(a.clone()),
        Some(_) => Err("the type checker answered for another number of modules".to_owned()),
        None => Err("an answer without `modules`".to_owned()),
    }
}

fn not_checked(diags: &mut Vec<Diagnostic>, why: &str) {
    diags.push(
        Diagnostic::warning("script-type", format!("scripts are not type-checked: {why}"))
            .expected(
                "`cav-typecheck` beside `cav` (`cargo build --release` builds both; `cargo install --path runtime/cli` installs both)",
            )
            .transient(),
    );
}

/// Whether requests go to one `cav-typecheck --serve` kept running ([`keep_type_checker_running`]).
static SERVE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static SERVER: std::sync::Mutex<Option<Server>> = std::sync::Mutex::new(None);
/// Set when the checker found does not serve: each check then starts one of its own.
static UNSERVED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Keep one `cav-typecheck` running for the checks of this process (`cav watch` checks again on
/// every save: a kept checker has its definitions loaded and its answers for the modules that
/// did not change). Its answers are those of a checker started for each check (a test holds
/// them equal); whatever goes wrong with it, the check starts one of its own instead.
pub fn keep_type_checker_running(on: bool) {
    SERVE.store(on, std::sync::atomic::Ordering::Relaxed);
    if !on {
        *SERVER.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// A `cav-typecheck --serve`: a request per line in, an answer per line out, through threads of
/// their own (a write to a checker that died must not end `cav`, a read must be able to time out).
/// It is asked only for the modules whose answer it has not given: a save changes one module.
struct Server {
    child: std::process::Child,
    requests: std::sync::mpsc::Sender<String>,
    answers: std::sync::mpsc::Receiver<String>,
    /// Its answers (at most [`KEPT_ANSWERS`]).
    known: Answers,
    /// The definitions it was sent, by digest (it keeps some of them: it says when it does not
    /// know one any more, and is sent it again).
    sent: Vec<String>,
}

/// At most this many answers are kept (a long session saves many versions of its modules).
const KEPT_ANSWERS: usize = 1024;

impl Server {
    fn start() -> Result<Server, String> {
        use std::io::{BufRead, Write};
        use std::process::{Command, Stdio};
        let program = typecheck_program().ok_or("`cav-typecheck` was not found beside `cav`")?;
        let mut child = Command::new(&program)
            .arg("--serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
        let (mut stdin, stdout) = (child.stdin.take().ok_or("no stdin")?, child.stdout.take().ok_or("no stdout")?);
        let (requests, to_write) = std::sync::mpsc::channel::<String>();
        std::thread::spawn(move || {
            block_sigpipe();
            for r in to_write {
                if stdin
                    .write_all(r.as_bytes())
                    .and_then(|_| stdin.write_all(b"\n"))
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    break;
                }
            }
        });
        let (tx, answers) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let server = Server {
            child,
            requests,
            answers,
            known: Answers { map: Default::default(), cap: KEPT_ANSWERS },
            sent: Vec::new(),
        };
        // A checker that does not say it serves (another build's) is not asked again.
        let ready = server.answers.recv_timeout(std::time::Duration::from_secs(10)).ok();
        if ready.as_deref() != Some(r#"{"serving":true}"#) {
            UNSERVED.store(true, std::sync::atomic::Ordering::Relaxed);
            return Err("the type checker does not serve".to_owned());
        }
        Ok(server)
    }

    fn ask(&mut self, request: String) -> Option<serde_json::Value> {
        self.requests.send(request).ok()?;
        let line = self.answers.recv_timeout(std::time::Duration::from_secs(60)).ok()?;
        serde_json::from_str(&line).ok()
    }

    /// The answers to `r`, those it gave before reused; `None` when the checker fails.
    fn check(&mut self, r: &Request) -> Option<Result<Vec<serde_json::Value>, String>> {
        let mut answers = self.known.take(r);
        let missing: Vec<usize> = (0..answers.len()).filter(|&i| answers[i].is_none()).collect();
        if !missing.is_empty() {
            let sent = self.sent.contains(&r.defs_id);
            let mut reply = self.ask(r.json(!sent, &missing))?;
            // Not known by their id (or a checker that wants them sent): sent in full.
            if sent && reply.get("error").is_some() {
                reply = self.ask(r.json(true, &missing))?;
            }
            let fresh = match module_answers(reply, missing.len()) {
                Ok(a) => a,
                Err(e) => return Some(Err(e)),
            };
            if !self.sent.contains(&r.defs_id) {
                if self.sent.len() >= 64 {
                    self.sent.clear();
                }
                self.sent.push(r.defs_id.clone());
            }
            for (i, a) in missing.into_iter().zip(fresh) {
                self.known.keep(r, i, &a);
                answers[i] = Some(a);
            }
        }
        Some(Ok(answers.into_iter().flatten().collect()))
    }
}

/// The kept checker's answers, by definitions' digest, module name and the digest of its text
/// as written (the check of a module depends on nothing else; a long session would otherwise
/// hold every version of its modules); emptied when it would grow past `cap`.
struct Answers {
    map: std::collections::HashMap<(String, String, blake3::Hash), serde_json::Value>,
    cap: usize,
}

impl Answers {
    /// The answers known for the modules of `r`, in order (`None`: to be asked).
    fn take(&self, r: &Request) -> Vec<Option<serde_json::Value>> {
        (r.modules.iter())
            .map(|(name, text)| {
                self.map.get(&(r.defs_id.clone(), name.clone(), blake3::hash(text.as_bytes()))).cloned()
            })
            .collect()
    }

    /// Keep answer `a` to module `i` of `r`; a check cut short by its time limit says nothing
    /// about the next one.
    fn keep(&mut self, r: &Request, i: usize, a: &serde_json::Value) {
        if a["timed_out"].as_bool() == Some(true) {
            return;
        }
        if self.map.len() >= self.cap {
            self.map.clear();
        }
        let (name, text) = &r.modules[i];
        self.map.insert((r.defs_id.clone(), name.clone(), blake3::hash(text.as_bytes())), a.clone());
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A write's SIGPIPE goes to the thread that wrote: `cav` restores the signal's default (a
/// closed stdout ends it quietly), so a thread writing to a checker that may have exited blocks
/// it and sees the closed pipe as an error instead (one left pending dies with the thread).
fn block_sigpipe() {
    #[cfg(unix)]
    // SAFETY: changes only this thread's signal mask, with a set built by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// One request to `cav-typecheck`, its answers: those kept by an earlier run ([`STORE`]), else
/// from the kept checker where there is one, else (or when it fails: its failure is then told as
/// this one's) from a checker of its own.
fn typecheck(request: &Request) -> Result<Vec<serde_json::Value>, String> {
    let Some(store) = STORE.get() else { return ask_checker(request) };
    let keys: Vec<cav_cache::Key> = (request.modules.iter())
        .map(|(name, text)| {
            let mut k = cav_cache::KeyBuilder::new("typecheck", store.build());
            k.field("definitions", request.defs_id.as_bytes()).field("module", name.as_bytes());
            k.field("text", text.as_bytes()).finish()
        })
        .collect();
    let mut answers: Vec<Option<serde_json::Value>> = (keys.iter())
        .map(|k| {
            let bytes = store.get(k)?;
            let a = serde_json::from_slice::<serde_json::Value>(&bytes).ok().filter(serde_json::Value::is_object);
            if a.is_none() {
                store.discard(k, "not a type checker's answer");
            }
            a
        })
        .collect();
    let missing: Vec<usize> = (0..answers.len()).filter(|&i| answers[i].is_none()).collect();
    if !missing.is_empty() {
        let asked = Request {
            defs: request.defs.clone(),
            defs_id: request.defs_id.clone(),
            modules: missing.iter().map(|&i| request.modules[i].clone()).collect(),
        };
        let mut keep = Vec::new();
        for (i, a) in missing.into_iter().zip(ask_checker(&asked)?) {
            // A check cut short by its time limit says nothing about the next one.
            if a["timed_out"].as_bool() != Some(true) {
                keep.push((keys[i], a.to_string().into_bytes()));
            }
            answers[i] = Some(a);
        }
        store.put_many(&keep);
    }
    Ok(answers.into_iter().flatten().collect())
}

/// Where answers are kept between runs: `cav`'s result cache, when the command uses it
/// ([`keep_answers_in`]). An answer depends only on the build (which stamps the checker), the
/// definitions, the module's name and its text: a run whose scripts did not change starts no
/// checker at all.
static STORE: std::sync::OnceLock<std::sync::Arc<cav_cache::Store>> = std::sync::OnceLock::new();

/// Keep the type checker's answers in `store` for later runs (the first store given is kept).
pub fn keep_answers_in(store: std::sync::Arc<cav_cache::Store>) {
    let _ = STORE.set(store);
}

/// The answers to `request` from a checker: the kept one where there is one, else one started
/// for it.
fn ask_checker(request: &Request) -> Result<Vec<serde_json::Value>, String> {
    use std::sync::atomic::Ordering::Relaxed;
    // The kept checker serves one check at a time: a check made while it is busy (another watch
    // session of the same process) starts a checker of its own rather than wait its turn.
    let kept = match SERVER.try_lock() {
        Ok(guard) => Some(guard),
        Err(std::sync::TryLockError::Poisoned(e)) => Some(e.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    if let Some(mut server) = kept.filter(|_| SERVE.load(Relaxed) && !UNSERVED.load(Relaxed)) {
        if server.is_none() {
            *server = Server::start().ok();
        }
        match server.as_mut().and_then(|s| s.check(request)) {
            Some(answers) => return answers,
            // Dropped (ended): the next check starts another.
            None => *server = None,
        }
    }
    let all: Vec<usize> = (0..request.modules.len()).collect();
    module_answers(typecheck_once(request.json(true, &all))?, all.len())
}

/// One request to a `cav-typecheck` started for it, its answer. Ended after a minute (a safety
/// net: the checks inside have their own limits).
fn typecheck_once(body: String) -> Result<serde_json::Value, String> {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let program = typecheck_program().ok_or("`cav-typecheck` was not found beside `cav`")?;
    let mut child = Command::new(&program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let writer = std::thread::spawn(move || {
        // A checker that exits before reading its request must not take `cav` with it.
        block_sigpipe();
        stdin.write_all(body.as_bytes())
    });
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut out = String::new();
        let r = stdout.read_to_string(&mut out).map(|_| out);
        let _ = tx.send(r);
    });
    let out = match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(r) => r.map_err(|e| e.to_string()),
        Err(_) => {
            let _ = child.kill();
            Err("the type checker did not answer within a minute".to_owned())
        }
    };
    let _ = writer.join();
    let status = child.wait().map_err(|e| e.to_string())?;
    let out = out?;
    if !status.success() {
        return Err(format!("the type checker stopped ({status})"));
    }
    serde_json::from_str(&out).map_err(|e| format!("the type checker's answer is not JSON: {e}"))
}

/// The module as it is type-checked: each handler's `CavContext` annotation made its hook point's
/// own context (`function m.movement(ctx: CavContext)` → `CavCtx_movement`, and so for
/// `movement = function(ctx: CavContext)`), which offers only the effects and quantities the point
/// accepts. Lines stay where they are, so the checker's lines are the file's.
fn per_point(text: &str) -> String {
    const WORD: &str = "CavContext";
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let mut rest = line;
        while let Some(at) = rest.find(WORD) {
            let (before, after) = rest.split_at(at);
            out.push_str(before);
            let point = handler_point(&out[out.rfind('\n').map_or(0, |i| i + 1)..]);
            match point {
                Some(p) => out.push_str(&crate::host::point_context(p)),
                None => out.push_str(WORD),
            }
            rest = &after[WORD.len()..];
        }
        out.push_str(rest);
    }
    out
}

/// The hook point of the handler whose parameter list `line` (up to a `CavContext`) opens:
/// `function m.movement(ctx: ` or `movement = function(ctx: `.
fn handler_point(line: &str) -> Option<HookPoint> {
    let head = line.trim_end().strip_suffix(':')?.trim_end();
    let head =
        head.trim_end_matches(|c: char| c.is_alphanumeric() || c == '_').trim_end().strip_suffix('(')?.trim_end();
    let name = match head.strip_suffix("function") {
        // `movement = function(ctx: …` (a handler in a table constructor or assigned).
        Some(h) => h.trim_end().strip_suffix('=')?.trim_end(),
        None => head,
    };
    let id = name.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
    HookPoint::ALL.iter().copied().find(|p| p.id() == id && p.status().implemented())
}

/// YAML's `combat_roll`, `hard_rav` where a script names a quantity: the script's word is the part
/// naming what changes, when it is one of `quantities`.
fn yaml_alias(literal: &str, quantities: &[&str]) -> Option<String> {
    let q = literal.split('_').find(|part| quantities.contains(part))?;
    Some(format!(
        "scripts name the quantity the moment changes: `{q}` (YAML's `{literal}` is that quantity of one roll or value)"
    ))
}

/// The fields of `export type NAME = { ... }` in the definitions.
fn type_fields<'d>(defs: &'d str, name: &str) -> Vec<&'d str> {
    let Some(start) = defs.find(&format!("export type {name} = {{\n")) else { return Vec::new() };
    defs[start..]
        .lines()
        .skip(1)
        .take_while(|l| *l != "}")
        .filter_map(|l| l.strip_prefix('\t')?.split_once(':').map(|(k, _)| k))
        .filter(|k| k.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect()
}

/// The checker's message, with a did-you-mean where it refused a string that is not a state,
/// terrain or quantity id (its own message lists the whole union, which says little).
fn explain_type_error(message: &str, defs: &str, ids: &[(&str, &[String])]) -> (String, Option<String>) {
    // The checker breaks long messages over lines.
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    let message = message.as_str();
    // "Key 'tagret' not found in table 'CavContext'": the fields the definitions give that type.
    if let Some((key, table)) = message
        .strip_prefix("Key '")
        .and_then(|r| r.split_once("' not found in table '"))
        .and_then(|(k, r)| Some((k, r.strip_suffix('\'')?)))
    {
        // An effect the handler's hook point does not accept (its context type lacks it).
        if let Some(point) = table.strip_prefix("CavCtx_").and_then(|p| HookPoint::ALL.iter().find(|x| x.id() == p))
            && cav_format::HookEffect::ALL.iter().any(|e| e.id() == key)
        {
            let accepts: Vec<String> = point.accepts().iter().map(|e| format!("ctx.{e}")).collect();
            let hint = if accepts.is_empty() {
                format!("`{point}` accepts no effect: its handlers only look")
            } else {
                format!("`{point}` accepts {}", accepts.join(", "))
            };
            return (format!("`ctx.{key}` is not accepted at hook point `{point}`"), Some(hint));
        }
        let fields = type_fields(defs, table);
        return (message.to_owned(), did_you_mean(key, fields.iter().copied()));
    }
    // "Expected this to be '"a" | "b"', but got '"x"'"
    let Some(literal) = message.rsplit_once("but got '\"").and_then(|(_, r)| r.strip_suffix("\"'")) else {
        return (message.to_owned(), None);
    };
    let quantities: Vec<&str> = cav_format::Quantity::ALL.iter().map(|q| q.id()).collect();
    // Quantities of one hook point: its context's `add_modifier` takes only those.
    let expected_ids: Vec<&str> =
        message.split("but got").next().unwrap_or_default().split('"').skip(1).step_by(2).collect();
    if !expected_ids.is_empty()
        && expected_ids.len() < quantities.len()
        && expected_ids.iter().all(|q| quantities.contains(q))
    {
        let changes: Vec<String> = expected_ids.iter().map(|q| format!("`{q}`")).collect();
        let hint = yaml_alias(literal, &expected_ids)
            .unwrap_or_else(|| format!("its modifiers change {}", changes.join(", ")));
        return (format!("`{literal}` is not a quantity this hook point changes"), Some(hint));
    }
    let mut lists: Vec<(&str, Vec<&str>)> =
        ids.iter().map(|(what, ids)| (*what, ids.iter().map(String::as_str).collect())).collect();
    lists.push(("quantity", quantities.clone()));
    // Which list the refused type was: the one whose ids the expected union names.
    let expected = message.split("but got").next().unwrap_or_default();
    let Some((what, ids)) =
        lists.iter().find(|(_, ids)| !ids.is_empty() && ids.iter().all(|id| expected.contains(&format!("\"{id}\""))))
    else {
        return (message.to_owned(), None);
    };
    let hint = if *what == "quantity" {
        yaml_alias(literal, &quantities).or_else(|| did_you_mean(literal, ids.iter().copied()))
    } else {
        did_you_mean(literal, ids.iter().copied())
    };
    let hint = hint.or_else(|| Some(format!("{what}s: {}", ids.join(", "))));
    (format!("`{literal}` is not a {what} id"), hint)
}

/// `special attribute `strike``.
fn doc_name(e: &User) -> String {
    format!("{} `{}`", e.kind.tag().replace('_', " "), e.id)
}

/// The checks of one module; `Some` (its users, file and text) when it compiles, for the type
/// check that follows.
/// A module read and compiled: what [`check_module`] runs and the type checker checks.
struct Compiled {
    /// The documents using it, named.
    users: String,
    file: FileId,
    text: Arc<str>,
}

/// Read module `m` (into `sources`, its id noted in `read`) and compile it (not run); `None`,
/// with a diagnostic, when it cannot be read or does not compile.
fn compile_module(
    sandbox: &Sandbox,
    m: &Module,
    sources: &mut Sources,
    read: &mut Vec<FileId>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Compiled> {
    let users = m.users.iter().map(|e| doc_name(e)).collect::<Vec<_>>().join(", ");
    let text = match read_script(&m.path) {
        Ok(t) => t,
        Err(err) => {
            diags.push(
                Diagnostic::error(
                    "script-load",
                    format!("cannot read script `{}` of {users}: {}", m.name, error_text(&err)),
                )
                .path(&m.path)
                .pack(m.pack.clone())
                .expected(format!(
                    "a readable UTF-8 Luau source file of at most {} bytes",
                    crate::sandbox::MAX_SCRIPT_BYTES
                )),
            );
            return None;
        }
    };
    let text: Arc<str> = Arc::from(text);
    let file = add_source(sources, &m.path, text.clone());
    read.push(file);
    let chunk = m.path.display().to_string();
    let compiled = crate::bytecode::chunk(&sandbox.lua, &text, format!("@{chunk}")).into_function();
    if let Err(err) = compiled {
        let error = error_text(&err);
        let (line, msg) = split_location(&error, &chunk);
        let loc = line.map(|l| line_loc(file, &text, l));
        diags.push(
            Diagnostic::error("script-syntax", format!("script `{}` of {users} does not compile: {msg}", m.name))
                .at(loc)
                .in_file(file)
                .pack(m.pack.clone())
                .expected("valid Luau source"),
        );
        return None;
    }
    Some(Compiled { users, file, text })
}

/// Check a compiled module: it loads in the sandbox, and its handlers are those its documents
/// declare.
fn check_module(sandbox: &Sandbox, m: &Module, c: &Compiled, diags: &mut Vec<Diagnostic>) {
    let Compiled { users, file, text } = c;
    let (file, text) = (*file, text.as_ref());
    let chunk = m.path.display().to_string();
    let located = |msg: &str| {
        let (line, rest) = split_location(msg, &chunk);
        let loc = line.map(|l| line_loc(file, text, l));
        (loc, rest.to_owned())
    };
    // 2. Its top level runs in the sandbox, under the limits of play, and returns the handlers:
    // as a game would first run it, on fresh per-game state (budgets, `require`d modules).
    sandbox.new_game();
    sandbox.arm();
    let value = load_module(sandbox, &m.path);
    sandbox.disarm();
    let value = match value {
        Ok(v) => v,
        Err(err) => {
            let _ = sandbox.lua.gc_collect();
            let (loc, msg) = located(&error_text(&err));
            let hint = (msg.contains("budget") || msg.contains("out of time") || msg.contains("memory")).then(|| {
                "a script's top level runs at load and as each game first uses it, within the sandbox's step, \
                 time and memory limits: look for a loop that never ends"
                    .to_owned()
            });
            let mut d =
                Diagnostic::error("script-load", format!("script `{}` of {users} fails while loading: {msg}", m.name))
                    .at(loc)
                    .in_file(file)
                    .pack(m.pack.clone())
                    .expected("a module whose top level defines its handlers and returns them")
                    .hint(hint);
            // The sandbox's time limit is a safety net measured by the clock: a machine under load
            // may trip it where another does not (the step and memory budgets are counted).
            d.transient = msg.contains("script ran out of time");
            diags.push(d);
            return;
        }
    };
    let Value::Table(table) = value else {
        diags.push(
            Diagnostic::error(
                "script-handler",
                format!("script `{}` of {users} returns {}, not a table of handlers", m.name, lua_type(&value)),
            )
            .at(Some(return_loc(file, text)))
            .pack(m.pack.clone())
            .expected("a table of handlers keyed by hook point, e.g. `return M`"),
        );
        return;
    };

    // Every key is a hook point holding a function, or `as_target` / `aura`: a table of handlers
    // of hook points that have a target, run when the model is that target / any other model.
    let mut handlers: Vec<(String, Loc)> = Vec::new();
    check_handlers(m, file, text, &table, None, &mut handlers, diags);
    handlers.sort_by_key(|(k, l)| (l.start, k.clone()));

    // 3. The handlers are exactly each document's `hooks:`.
    for e in &m.users {
        let declared: Vec<&str> = e.hooks.iter().map(String::as_str).collect();
        let declared_set: BTreeSet<&str> = declared.iter().copied().collect();
        for (name, loc) in &handlers {
            if !declared_set.contains(name.as_str()) {
                diags.push(
                    Diagnostic::error(
                        "script-hooks",
                        format!(
                            "handler `{name}` of script `{}` is not declared in `hooks:` of {}",
                            m.name,
                            doc_name(e)
                        ),
                    )
                    .at(Some(*loc))
                    .pack(e.pack.clone())
                    .expected("every handler listed in the document's `hooks:`")
                    .hint(Some(format!("add `{name}` to `hooks:` of {}", doc_name(e)))),
                );
            }
        }
        for (i, hook) in declared.iter().enumerate() {
            if !handlers.iter().any(|(n, _)| n == hook) {
                let ptr = format!("/hooks/{i}");
                diags.push(
                    Diagnostic::error(
                        "script-hooks",
                        format!("{} declares hook `{hook}`, but its script does not handle it", doc_name(e)),
                    )
                    .at(e.prov.locate(&ptr))
                    .pack(e.pack.clone())
                    .pointer(ptr)
                    .expected(format!("a hook point the script `{}` handles", m.name))
                    .hint(Some(format!("the script `{}` has no `{hook}` handler", m.name))),
                );
            }
        }
    }
}

/// The keys of a module's handler table (`nested`: of its `as_target` or `aura` table): each a
/// hook point (one with a target, when nested) holding a function. Found handlers go to `handlers`.
fn check_handlers(
    m: &Module,
    file: FileId,
    text: &str,
    table: &mlua::Table,
    nested: Option<&'static str>,
    handlers: &mut Vec<(String, Loc)>,
    diags: &mut Vec<Diagnostic>,
) {
    let as_target = nested.is_some();
    let names: Vec<&str> = HookPoint::ALL.iter().filter(|p| !as_target || p.has_target()).map(|p| p.id()).collect();
    let mut pairs: Vec<(Value, Value)> = table.pairs::<Value, Value>().filter_map(Result::ok).collect();
    pairs.sort_by_cached_key(|(k, _)| k.to_string().unwrap_or_default());
    for (key, value) in pairs {
        let Value::String(s) = &key else {
            let shown = key.to_string().unwrap_or_else(|_| lua_type(&key).to_owned());
            diags.push(
                Diagnostic::error(
                    "script-handler",
                    format!("script `{}` returns a table with the {} key `{shown}`", m.name, lua_type(&key)),
                )
                .at(Some(return_loc(file, text)))
                .pack(m.pack.clone())
                .expected("handlers keyed by hook point name"),
            );
            continue;
        };
        let key = s.to_string_lossy();
        let loc = key_loc(file, text, &key);
        if let Some(table_key) = [AS_TARGET, AURA].into_iter().find(|k| *k == key).filter(|_| !as_target) {
            match &value {
                Value::Table(t) => check_handlers(m, file, text, t, Some(table_key), handlers, diags),
                other => diags.push(
                    Diagnostic::error(
                        "script-handler",
                        format!(
                            "`{table_key}` of script `{}` is a {}, not a table of handlers",
                            m.name,
                            lua_type(other)
                        ),
                    )
                    .at(Some(loc))
                    .pack(m.pack.clone())
                    .expected(format!("`M.{table_key} = {{ combat_tp = function(ctx) … end }}`")),
                ),
            }
            continue;
        }
        if !names.contains(&key.as_str()) {
            let what = if as_target {
                format!(
                    "script `{}` has a handler `{}.{key}`, which is not a hook point with a target",
                    m.name,
                    nested.unwrap_or(AS_TARGET)
                )
            } else {
                format!("script `{}` has a handler `{key}`, which is not a hook point", m.name)
            };
            let target_note = if as_target {
                ""
            } else {
                " (and `as_target`: handlers run when the model is the target; `aura`: for every other model)"
            };
            let hint = did_you_mean(&key, names.iter().copied())
                .unwrap_or_else(|| format!("hook points: {}{target_note}", names.join(", ")));
            diags.push(
                Diagnostic::error("script-handler", what)
                    .at(Some(loc))
                    .pack(m.pack.clone())
                    .expected(if as_target {
                        "the name of a hook point with a target"
                    } else {
                        "the name of a hook point"
                    })
                    .hint(Some(hint)),
            );
            continue;
        }
        if !matches!(value, Value::Function(_)) {
            diags.push(
                Diagnostic::error(
                    "script-handler",
                    format!("handler `{key}` of script `{}` is a {}, not a function", m.name, lua_type(&value)),
                )
                .at(Some(loc))
                .pack(m.pack.clone())
                .expected(format!("`function M.{key}(ctx)`")),
            );
        }
        if let Some(Status::Recognised(why)) = HookPoint::from_id(&key).map(HookPoint::status) {
            diags.push(
                Diagnostic::warning(
                    "not-implemented",
                    format!("hook point `{key}` is recognised but not implemented ({why}): this handler never runs"),
                )
                .at(Some(loc))
                .pack(m.pack.clone())
                .expected("a handler of a hook point the engine calls")
                .hint(Some("docs/vocabulary.md lists which hook points are called".to_owned())),
            );
        }
        if !handlers.iter().any(|(n, _)| *n == key) {
            handlers.push((key, loc));
        }
    }
}

/// A value's type as Lua's `type()` names it (mlua tells integers apart).
fn lua_type(v: &Value) -> &'static str {
    match v {
        Value::Integer(_) => "number",
        other => other.type_name(),
    }
}

/// Add a script file to `sources`, reusing the entry of an earlier call for the same file and
/// text (so diagnostics of several rulesets about one file deduplicate).
pub(crate) fn add_source(sources: &mut Sources, path: &Path, text: Arc<str>) -> FileId {
    (0..sources.len() as u32)
        .map(FileId)
        .find(|&id| {
            let f = sources.get(id);
            // The length first: comparing paths goes component by component, and every file
            // of the load is tried for every module.
            f.text.len() == text.len() && f.path == path && *f.text == *text
        })
        .unwrap_or_else(|| sources.add(path, text))
}

/// The message of an mlua error without its kind prefix and traceback.
fn error_text(err: &mlua::Error) -> String {
    let full = match err {
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::RuntimeError(m) => m.clone(),
        mlua::Error::CallbackError { cause, .. } => return error_text(cause),
        mlua::Error::WithContext { cause, .. } => return error_text(cause),
        other => other.to_string(),
    };
    full.lines().next().unwrap_or_default().to_owned()
}

/// Split `chunk:LINE: message` (Luau's format; no column) into the line and the message.
/// Messages about another file (a required module) or without a position are kept whole.
fn split_location<'m>(msg: &'m str, chunk: &str) -> (Option<u32>, &'m str) {
    let rest = msg.strip_prefix(chunk).and_then(|r| r.strip_prefix(':'));
    let Some(rest) = rest else { return (None, msg) };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    match (rest[..digits].parse::<u32>(), rest[digits..].strip_prefix(':')) {
        (Ok(line), Some(tail)) => (Some(line), tail.trim_start()),
        _ => (None, msg),
    }
}

/// Position of byte `offset` of `text`: 1-based line and character column.
fn pos_at(text: &str, offset: usize) -> Pos {
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Pos { line, col: text[line_start..offset].chars().count() as u32 + 1 }
}

/// The non-blank part of line `line` (1-based); past the end, the end of the text.
fn line_loc(file: FileId, text: &str, line: u32) -> Loc {
    let Some(l) = text.split('\n').nth(line.saturating_sub(1) as usize) else {
        let end = pos_at(text, text.len());
        return Loc { file, start: end, end };
    };
    let indent = l.chars().take_while(|c| c.is_whitespace()).count() as u32;
    let len = l.trim().chars().count() as u32;
    Loc { file, start: Pos { line, col: indent + 1 }, end: Pos { line, col: indent + 1 + len } }
}

fn span(file: FileId, text: &str, offset: usize, len: usize) -> Loc {
    Loc { file, start: pos_at(text, offset), end: pos_at(text, offset + len) }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where handler `name` is written: the first `name =`, `function M.name` or `["name"]` outside
/// a comment line; else the first whole-word `name`; else line 1.
fn key_loc(file: FileId, text: &str, name: &str) -> Loc {
    let mut first_word = None;
    // Where the name is written outside comments (a line's code ends at its first `--`). A name
    // without `-` or a line break cannot run into a comment or across lines, so one search of
    // the whole text finds what a search of each line's code finds.
    let matches: Vec<usize> = if name.is_empty() || name.contains(['\n', '-']) {
        let mut line_start = 0;
        let mut found = Vec::new();
        for line in text.split_inclusive('\n') {
            let code = line.split("--").next().unwrap_or_default();
            found.extend(code.match_indices(name).map(|(i, _)| line_start + i));
            line_start += line.len();
        }
        found
    } else {
        let in_code = |i: &usize| !text[text[..*i].rfind('\n').map_or(0, |n| n + 1)..*i].contains("--");
        text.match_indices(name).map(|(i, _)| i).filter(in_code).collect()
    };
    for i in matches {
        let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
        let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n + 1);
        let code_end = text[line_start..line_end].find("--").map_or(line_end, |n| line_start + n);
        let (before, after) = (&text[line_start..i], &text[i + name.len()..code_end]);
        if before.chars().next_back().is_some_and(is_ident) || after.chars().next().is_some_and(is_ident) {
            continue;
        }
        let after = after.trim_start_matches(['"', '\'', ']']).trim_start();
        let assigned = after.starts_with('=') && !after.starts_with("==");
        let method = (before.ends_with('.') || before.ends_with(':')) && before.contains("function");
        if assigned || method {
            return span(file, text, i, name.len());
        }
        first_word.get_or_insert(i);
    }
    match first_word {
        Some(o) => span(file, text, o, name.len()),
        None => line_loc(file, text, 1),
    }
}

/// The module's last `return` line (where its table is handed back); else line 1.
fn return_loc(file: FileId, text: &str) -> Loc {
    let line = text.split('\n').enumerate().filter(|(_, l)| l.trim_start().starts_with("return")).last();
    line_loc(file, text, line.map_or(1, |(i, _)| i as u32 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept answers are given back for the module they answered, and emptying the full store
    /// (which a long session does) loses only what was kept, never an answer being given.
    #[test]
    fn kept_answers_are_those_of_their_module() {
        let request = |texts: &[&str]| Request {
            defs: Arc::from("defs"),
            defs_id: "d".to_owned(),
            modules: texts.iter().enumerate().map(|(i, t)| (format!("m{i}"), Arc::from(*t))).collect(),
        };
        let answer = |t: &str| serde_json::json!({"errors": [t], "timed_out": false});
        let mut known = Answers { map: Default::default(), cap: 2 };
        let r = request(&["a", "b"]);
        assert_eq!(known.take(&r), [None, None]);
        known.keep(&r, 0, &answer("a"));
        known.keep(&r, 1, &answer("b"));
        assert_eq!(known.take(&r), [Some(answer("a")), Some(answer("b"))]);
        // A third answer empties the store first.
        let r2 = request(&["a", "b", "c"]);
        known.keep(&r2, 2, &answer("c"));
        assert_eq!(known.take(&r2), [None, None, Some(answer("c"))]);
        // A clock-cut check is not kept; another text of the same module is not answered.
        known.keep(&r, 0, &serde_json::json!({"errors": [], "timed_out": true}));
        assert_eq!(known.take(&request(&["a2"])), [None]);
        assert_eq!(known.take(&r)[0], None);
    }

    #[test]
    fn key_positions() {
        let f = FileId(0);
        let text = "-- damage_calc = 1\nlocal M = {}\nM.combat_tpx = nil\nfunction M.damage_calc(ctx)\nend\nlocal t = { on_hit = 1, [\"drift\"] = 2 }\nreturn M\n";
        assert_eq!(key_loc(f, text, "damage_calc").start, Pos { line: 4, col: 12 });
        assert_eq!(key_loc(f, text, "combat_tpx").start, Pos { line: 3, col: 3 });
        assert_eq!(key_loc(f, text, "on_hit").start, Pos { line: 6, col: 13 });
        assert_eq!(key_loc(f, text, "drift").start, Pos { line: 6, col: 27 });
        assert_eq!(key_loc(f, text, "nowhere").start, Pos { line: 1, col: 1 });
        assert_eq!(return_loc(f, text).start.line, 7);
        // After code, a comment hides the name; names with `-` are looked for line by line.
        let text = "local a = 1 -- on_hit = 2\non_hit = 3\nM['odd-key'] = 1 -- 'odd-key' =\n";
        assert_eq!(key_loc(f, text, "on_hit").start, Pos { line: 2, col: 1 });
        assert_eq!(key_loc(f, text, "odd-key").start, Pos { line: 3, col: 4 });
    }

    #[test]
    fn luau_error_positions() {
        assert_eq!(split_location("/p/a.luau:3: Expected 'end'", "/p/a.luau"), (Some(3), "Expected 'end'"));
        assert_eq!(split_location("/p/b.luau:3: boom", "/p/a.luau"), (None, "/p/b.luau:3: boom"));
        assert_eq!(split_location("not enough memory", "/p/a.luau"), (None, "not enough memory"));
    }
}
