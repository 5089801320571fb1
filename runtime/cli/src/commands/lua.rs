//! `cav lua`: Luau code run in exactly the sandbox special-attribute scripts get.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::EXIT_INVALID;
use crate::project::{load_options, load_with};
use crate::result_cache;

/// `cav lua`: the script's prints, then the values it returns; exit 1 when it fails.
/// The packs' script roots (where `require` looks) are those an earlier run found in the same
/// content (`result_cache::kept`).
pub fn run(root: &Path, file: Option<PathBuf>, no_cache: bool) -> Result<ExitCode, String> {
    let (source, name) = match &file {
        // Checked as scripts are: a regular file, its size before it is read.
        Some(f) => (cav_script::sandbox::read_script(f).map_err(|e| e.to_string())?, f.display().to_string()),
        None => {
            // At most one byte past the script size limit: the sandbox then refuses it by size.
            let mut s = String::new();
            let limit = cav_script::sandbox::MAX_SCRIPT_BYTES as u64 + 1;
            std::io::Read::read_to_string(&mut std::io::Read::take(std::io::stdin(), limit), &mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            (s, "stdin".to_owned())
        }
    };
    let opts = load_options(vec![], root);
    let roots: Vec<PathBuf> = result_cache::kept(no_cache, "script-roots", &opts, &[], || {
        let loaded = load_with(&opts);
        let roots = loaded.rulesets.iter().flat_map(|r| r.packs.iter().flat_map(|p| p.script_roots.clone()));
        Ok((roots.collect(), false))
    })?;
    let sandbox = cav_script::Sandbox::new(cav_script::Limits::default(), roots).map_err(|e| e.to_string())?;
    let result = sandbox.run(&source, &name);
    for line in sandbox.take_prints() {
        println!("{line}");
    }
    match result {
        Ok(values) => {
            if !values.is_empty() {
                println!("{}", values.join("\t"));
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(EXIT_INVALID))
        }
    }
}
