//! Which pack a command-line argument names, decided in one place for `cav validate`, `cav test`,
//! `cav watch` and `cav new … --pack`: an existing path (relative to the working directory) wins;
//! else the id of a pack — the pack the working directory is in, or a pack of the project's
//! `content/` or `mods/` (the project is `--root`/`CAV_ROOT`, else found from the working
//! directory upwards); else an error that lists the ids it knows, with the closest one.

use std::path::{Path, PathBuf};

/// The pack `dir` is in: `dir` itself or its nearest ancestor holding a `pack.yaml`.
pub fn enclosing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors().find(|d| d.join("pack.yaml").is_file()).map(Path::to_path_buf)
}

/// The packs an id can name, as (id, directory), nearest first: the pack the working directory
/// is in, then the packs of the project's `content/` and `mods/`. A pack whose manifest does not
/// read is named by its directory, so `cav validate ID` can still show what is wrong with it.
fn known(root: &Path, cwd: &Path) -> Vec<(String, PathBuf)> {
    let mut ignored = Vec::new();
    let mut dirs: Vec<PathBuf> = enclosing(cwd).into_iter().collect();
    for lib in [root.join("content"), root.join("mods")] {
        if lib.is_dir() {
            dirs.extend(cav_content::pack::discover(&lib, &mut ignored));
        }
    }
    let mut cache = cav_content::pack::Cache::default();
    let mut out: Vec<(String, PathBuf)> = Vec::new();
    for dir in dirs {
        let id = cav_content::pack::read_manifest(&dir, &mut cache, &mut ignored)
            .map(|p| p.id)
            .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()));
        if let Some(id) = id
            && !out.iter().any(|(known, _)| *known == id)
        {
            out.push((id, dir));
        }
    }
    out
}

/// The path `arg` names: itself when it exists (relative to the working directory `cwd`), else
/// the directory of the pack with that id.
pub fn resolve(arg: &Path, root: &Path, cwd: &Path) -> Result<PathBuf, String> {
    if arg.exists() {
        return Ok(arg.to_path_buf());
    }
    let known = known(root, cwd);
    let text = arg.to_string_lossy();
    if let Some((_, dir)) = known.iter().find(|(id, _)| *id == text) {
        return Ok(dir.clone());
    }
    let mut ids: Vec<&str> = known.iter().map(|(id, _)| id.as_str()).collect();
    ids.sort_unstable();
    let close =
        cav_content::diag::did_you_mean(&text, ids.iter().copied()).map(|h| format!("; {h}")).unwrap_or_default();
    let packs = if ids.is_empty() {
        format!("no pack is in {} or {}", root.join("content").display(), root.join("mods").display())
    } else {
        format!("the packs it knows: {}", ids.join(", "))
    };
    Err(format!(
        "{text}: no such file or directory, nor the id of a pack (a pack is named by its path, or by its id \
         from inside it or anywhere in the project {}); {packs}{close}",
        root.display()
    ))
}

/// [`resolve`] for each argument of a command, from the working directory.
pub fn resolve_all(args: Vec<PathBuf>, root: &Path) -> Result<Vec<PathBuf>, String> {
    if args.iter().all(|a| a.exists()) {
        return Ok(args);
    }
    let cwd = std::env::current_dir().map_err(|e| format!("no working directory: {e}"))?;
    args.iter().map(|a| resolve(a, root, &cwd)).collect()
}

/// The shortest argument that names the pack in `dir` from the working directory `cwd`, as a
/// hint prints it to be typed: its id when that resolves to it, else its path from `cwd`.
pub fn arg_for(dir: &Path, root: &Path, cwd: &Path) -> String {
    let same = |p: &Path| {
        let full = cwd.join(p);
        full == dir
            || std::fs::canonicalize(&full).ok().zip(std::fs::canonicalize(dir).ok()).is_some_and(|(a, b)| a == b)
    };
    let mut cache = cav_content::pack::Cache::default();
    let id = cav_content::pack::read_manifest(dir, &mut cache, &mut Vec::new()).map(|p| p.id);
    if let Some(id) = id
        && resolve(Path::new(&id), root, cwd).is_ok_and(|p| same(&p))
    {
        return quoted(&id);
    }
    let path = match dir.strip_prefix(cwd) {
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => crate::new::relative(cwd, dir),
    };
    quoted(&path.to_string_lossy())
}

/// `text` as a shell word: single-quoted when it holds anything but plain path characters.
fn quoted(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./+@".contains(c)) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::quoted;

    #[test]
    fn words_with_spaces_are_quoted() {
        assert_eq!(quoted("mods/ember-hounds"), "mods/ember-hounds");
        assert_eq!(quoted("my packs/x"), "'my packs/x'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
    }
}
