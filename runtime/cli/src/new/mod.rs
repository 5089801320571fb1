//! `cav new`: scaffolding. Writes valid, commented files with the editor modeline into the right
//! folder of a pack, refuses to overwrite anything, then validates the pack so the author starts
//! from something that loads. A new pack depends on the full rules, so it joins both rulesets, and
//! its generated test names no ruleset, so it runs under both.

mod templates;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;

pub use templates::relative;
use templates::{Target, files};

use crate::project::load;
use crate::{EXIT_INVALID, editor, pack_arg};

/// What `cav new` can write.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum What {
    /// A new mod: pack.yaml, a README and the folders.
    Pack,
    /// An invented model (a CAV data card) in PACK/models/, armed with the pack's first weapon.
    Model,
    /// An invented weapon in PACK/weapons/.
    Weapon,
    /// A special attribute in PACK/special-attributes/ (with `--script`, its Luau module in
    /// PACK/scripts/ too).
    Sa,
    /// A scenario in PACK/scenarios/: two of the pack's first model facing each other.
    Scenario,
    /// A scenario test in PACK/tests/ with the pack's first model, run under every ruleset the
    /// pack joins.
    Test,
}

/// `cav new`: the files written into the pack (or the new pack), the pack validated, the editor
/// schemas its modelines point at refreshed, and the next steps said.
pub fn run(
    root: &Path,
    what: What,
    id: String,
    pack: Option<PathBuf>,
    dir: Option<PathBuf>,
    script: bool,
    extends: Option<String>,
) -> Result<ExitCode, String> {
    let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    let pack = pack_dir(what, &id, pack, dir, &cwd, &root)?;
    if what != What::Pack && !pack.join("pack.yaml").is_file() {
        return Err(format!("{} is not a pack (no pack.yaml); start one with `cav new pack ID`", pack.display()));
    }
    if script && what != What::Sa {
        return Err("--script is for `cav new sa`".to_owned());
    }
    // Modelines point at editor schemas that complete ids: the project's own inside it
    // (refreshed below with the new ids), else the pack's `.schemas/`.
    let inside = pack.starts_with(&root);
    let schemas = if inside { root.join("schemas").join(editor::DIR) } else { pack.join(".schemas") };
    let files = files(what, &id, &Target { pack: &pack, schemas: &schemas, script, extends: extends.as_deref() })?;
    // Paths as typed from here (`../weapons/x.yaml` from a folder of the pack).
    let from_here = |p: &Path| match p.strip_prefix(&cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_owned(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => relative(&cwd, p).display().to_string(),
    };
    for path in write(&files, &pack)? {
        println!("wrote {}", from_here(&path));
    }
    let mut loaded = load(vec![pack.clone()], &root);
    cav_compile::validate(&mut loaded);
    let pack_id = loaded.packs.iter().find(|p| same_dir(&p.dir, &pack)).map(|p| p.id.clone());
    eprint!("{}", cav_content::diag::render_human(&loaded.diagnostics, &loaded.sources));
    // The schemas the modelines point at are written whether or not the pack validates
    // (without the rulesets it builds on, an installed `cav` with no content still gives
    // the editor its keys).
    let catalog = if inside { editor::catalog(&load(vec![], &root)) } else { editor::catalog(&loaded) };
    write_changed(editor::files(&schemas, &catalog))?;
    if loaded.error_count() > 0 {
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    let shown = match (&pack_id, from_here(&pack)) {
        (Some(id), path) if *id != path => format!("{id} ({path})"),
        (_, path) => path,
    };
    let joins: Vec<&str> = loaded
        .rulesets
        .iter()
        .filter(|r| r.packs.iter().any(|p| Some(&p.id) == pack_id.as_ref()))
        .map(|r| r.id.as_str())
        .collect();
    next_steps(what, &pack, &root, &cwd, &shown, &joins);
    Ok(ExitCode::SUCCESS)
}

/// The pack to write into: for `pack`, the new pack's directory (in `dir`, else the project's
/// mods/ inside a project checkout, else here); else the one `--pack` names, or the pack the
/// working directory is in.
fn pack_dir(
    what: What,
    id: &str,
    pack: Option<PathBuf>,
    dir: Option<PathBuf>,
    cwd: &Path,
    root: &Path,
) -> Result<PathBuf, String> {
    Ok(match (what, pack) {
        (What::Pack, _) => {
            // Inside a project checkout a mod belongs in its mods/; elsewhere, here.
            let dir = dir.unwrap_or_else(|| if cwd.starts_with(root) { root.join("mods") } else { cwd.to_path_buf() });
            cwd.join(dir).join(id)
        }
        (_, Some(p)) => cwd.join(pack_arg::resolve(&p, root, cwd)?),
        // Inside a pack (or any folder of one) the pack is the one it is in.
        (_, None) => pack_arg::enclosing(cwd).ok_or_else(|| {
            format!(
                "which pack? {} is not inside a pack (no pack.yaml here or above): run `cav new` in the \
                 pack's folder, or give --pack with the pack's path or id",
                cwd.display()
            )
        })?,
    })
}

/// The files whose text differs from what is on disk, written (their folders made).
fn write_changed(files: Vec<(PathBuf, String)>) -> Result<(), String> {
    for (path, text) in files {
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// Says the pack validates, which rulesets it joins, and the commands to run next, each as it
/// works when typed from here.
fn next_steps(what: What, pack: &Path, root: &Path, cwd: &Path, shown: &str, joins: &[&str]) {
    // Each next step is a command that works as printed from here.
    let arg = pack_arg::arg_for(pack, root, cwd);
    let pack_opt = if pack_arg::enclosing(cwd).is_some_and(|p| same_dir(&p, pack)) {
        String::new()
    } else {
        format!(" --pack {arg}")
    };
    println!("ok: {shown} validates (it joins {}); next:", joins.join(", "));
    let steps: Vec<(String, &str)> = match what {
        What::Pack => vec![
            (format!("cav new weapon ID{pack_opt}"), "a weapon"),
            (format!("cav new model ID{pack_opt}"), "a data card, armed with the pack's first weapon"),
            (format!("cav new sa ID --script{pack_opt}"), "a scripted special attribute"),
            (format!("cav validate {arg}"), "check the pack"),
        ],
        What::Test => vec![
            (format!("cav validate {arg}"), "check the pack after editing"),
            (format!("cav test {arg}"), "run its tests under every ruleset it joins"),
        ],
        _ => vec![(format!("cav validate {arg}"), "check the pack after editing")],
    };
    let width = steps.iter().map(|(c, _)| c.len()).max().unwrap_or(0) + 2;
    for (command, what) in &steps {
        println!("  {:<width$} {what}", format!("`{command}`"), width = width + 2);
    }
    if what == What::Pack && !pack_opt.is_empty() {
        println!("  (inside the pack's folder, or any folder of it, no --pack is needed)");
    }
}

/// Whether two paths name the same directory (however they were spelled).
fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).ok().is_some_and(|a| std::fs::canonicalize(b).is_ok_and(|b| a == b))
}

/// Write the files, refusing to overwrite any that exists.
fn write(files: &[(PathBuf, String)], pack: &Path) -> Result<Vec<PathBuf>, String> {
    // Anything at a path — a file, a folder, a link, even a dangling one — is left alone.
    for (path, _) in files {
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(format!("{} already exists; nothing was written", path.display()));
        }
    }
    std::fs::create_dir_all(pack).map_err(|e| format!("cannot create {}: {e}", pack.display()))?;
    let real_pack = pack.canonicalize().map_err(|e| format!("cannot read {}: {e}", pack.display()))?;
    let mut written = Vec::new();
    for (path, text) in files {
        let dir = path.parent().unwrap_or(pack);
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        // A folder of the pack that is a link leading out of it (a downloaded pack may hold
        // one) is not written through.
        if cav_content::pack::resolve_inside(&real_pack, dir).is_none() {
            return Err(format!("{} leads outside the pack (a link); nothing more was written", dir.display()));
        }
        // Created, never opened: a link put there since the check above is not followed.
        let mut file = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new().write(true).create_new(true).custom_flags(libc::O_NOFOLLOW).open(path)
        }
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        std::io::Write::write_all(&mut file, text.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path.clone());
    }
    Ok(written)
}
