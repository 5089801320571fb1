//! The persistent cache (`cav-cache`) as the commands use it: where it is, the build it belongs
//! to, the key of a `cav validate` run, and a run's output as an entry.

use std::path::PathBuf;

use cav_cache::{Key, KeyBuilder, Store, Uncacheable};
use cav_content::LoadOptions;

/// The cache of this build, unless `--no-cache` or `CAV_NO_CACHE` turns it off, no cache
/// directory is known, or it lies inside a folder content is read from (a pack could then carry
/// entries: said, and not used).
pub fn open(no_cache: bool, content: &[PathBuf]) -> Option<Store> {
    if no_cache || std::env::var_os("CAV_NO_CACHE").is_some_and(|v| !v.is_empty() && v != "0") {
        return None;
    }
    let dir = match cav_cache::default_dir() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("cav: cache: {}: results are not cached", cav_content::diag::shown(&why));
            return None;
        }
    };
    // A type checker named without a folder is found on PATH when it runs: which program that is
    // cannot be stamped here, so its results are not kept.
    if cav_script::check::typecheck_program().is_some_and(|c| c.components().count() == 1 && !c.is_absolute()) {
        return None;
    }
    let store = Store::new(dir, build());
    if let Some(root) = content.iter().find(|r| store.inside(r)) {
        eprintln!(
            "cav: cache: {} is inside {}, where content is read from: not used (set CAV_CACHE_DIR elsewhere)",
            cav_content::diag::shown(&store.dir().display().to_string()),
            cav_content::diag::shown(&root.display().to_string())
        );
        return None;
    }
    Some(store)
}

/// This build of `cav`: its version, the program and the type checker it runs (a rebuilt or
/// moved one is another build; their results may differ).
pub fn build() -> [u8; 32] {
    let exe = std::env::current_exe().ok();
    let checker = cav_script::check::typecheck_program();
    cav_cache::build_id(&[
        env!("CARGO_PKG_VERSION").as_bytes(),
        &cav_cache::program_stamp(exe.as_deref()),
        &cav_cache::program_stamp(checker.as_deref()),
    ])
}

/// Say once, on stderr, what went wrong with the cache during the run.
pub fn say_notes(store: Option<&Store>) {
    for n in store.map(Store::notes).unwrap_or_default() {
        eprintln!("cav: cache: {}", cav_content::diag::shown(&n));
    }
}

/// The key of a `cav validate` run: the command's options, the working directory (paths are
/// shown relative to it) and every file of every folder the load may read — each requested
/// pack or root (a single file: its pack) and each library root — with its exact bytes.
pub fn validate_key(store: &Store, opts: &LoadOptions, what: &[(&str, &[u8])]) -> Result<Key, Uncacheable> {
    let mut k = KeyBuilder::new("validate", store.build());
    for (name, value) in what {
        k.field(name, value);
    }
    let cwd = std::env::current_dir().map_err(|e| Uncacheable(format!("no working directory: {e}")))?;
    k.path("cwd", &cwd);
    let mut trees: Vec<PathBuf> = Vec::new();
    for p in &opts.paths {
        k.path("path", p);
        if p.is_file() {
            trees.extend(cav_content::enclosing_pack(p));
        } else {
            trees.push(p.clone());
        }
    }
    for l in &opts.library {
        k.path("library", l);
        trees.push(l.clone());
    }
    // Each folder once; one inside another is hashed with it.
    let real: Vec<PathBuf> = trees.iter().map(|t| t.canonicalize().unwrap_or_else(|_| t.clone())).collect();
    for (i, t) in trees.iter().enumerate() {
        let covered = real
            .iter()
            .enumerate()
            .any(|(j, r)| (j < i && *r == real[i]) || (*r != real[i] && real[i].starts_with(r) && trees[j].is_dir()));
        if !covered {
            k.tree(t)?;
        }
    }
    Ok(k.finish())
}

/// A command's whole output: exit code, standard output, standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn print(&self) {
        use std::io::Write;
        let _ = std::io::stderr().write_all(self.stderr.as_bytes());
        let _ = std::io::stdout().write_all(self.stdout.as_bytes());
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.code];
        for s in [&self.stdout, &self.stderr] {
            out.extend((s.len() as u64).to_le_bytes());
            out.extend(s.as_bytes());
        }
        out
    }

    /// An entry's output, only if it is what `encode` writes and holds no control character but
    /// line ends, carriage returns and tabs (which quoted source lines keep): even an entry
    /// planted in the cache directory cannot send the terminal an escape sequence.
    pub fn decode(bytes: &[u8]) -> Option<Output> {
        let (&code, mut rest) = bytes.split_first()?;
        let mut text = || -> Option<String> {
            let len = usize::try_from(u64::from_le_bytes(rest.get(..8)?.try_into().ok()?)).ok()?;
            let s = std::str::from_utf8(rest.get(8..8usize.checked_add(len)?)?).ok()?.to_owned();
            rest = &rest[8 + len..];
            Some(s).filter(|s| !s.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t')))
        };
        let (stdout, stderr) = (text()?, text()?);
        rest.is_empty().then_some(Output { code, stdout, stderr })
    }
}

/// The folders content is read from (for [`open`]).
pub fn content_roots(opts: &LoadOptions) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = opts.library.clone();
    for p in &opts.paths {
        roots.push(if p.is_file() { cav_content::enclosing_pack(p).unwrap_or_else(|| p.clone()) } else { p.clone() });
    }
    roots
}
