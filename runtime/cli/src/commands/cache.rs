//! `cav cache info|clear`: the result cache (`cav-cache`) seen and emptied.

use std::process::ExitCode;

use crate::CacheAction;

pub fn run(action: CacheAction) -> Result<ExitCode, String> {
    let dir = cav_cache::default_dir()?;
    let build = crate::result_cache::build();
    // Results, and the type checker's answers beside them.
    let stores = [cav_cache::Store::new(dir.clone(), build), crate::result_cache::answers(&dir, build)];
    let shown = cav_content::diag::shown(&dir.display().to_string());
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let entries = |n: usize| format!("{n} entr{}", if n == 1 { "y" } else { "ies" });
    match action {
        CacheAction::Info => {
            let [results, answers] = stores.each_ref().map(cav_cache::Store::info);
            println!("cache: {shown}");
            println!("results: {}, {:.1} MiB", entries(results.entries), mib(results.bytes));
            println!("type checker's answers: {}, {:.1} MiB", entries(answers.entries), mib(answers.bytes));
            println!(
                "(each bounded at {} entries, {:.0} MiB: the entries used longest ago go first)",
                cav_format::limits::CACHE_MAX_ENTRIES,
                mib(cav_format::limits::CACHE_MAX_BYTES)
            );
        }
        CacheAction::Clear => {
            let mut removed = cav_cache::Info::default();
            for store in &stores {
                let r = store.clear().map_err(|e| format!("cannot clear {shown}: {e}"))?;
                removed = cav_cache::Info { entries: removed.entries + r.entries, bytes: removed.bytes + r.bytes };
            }
            println!("removed {} ({:.1} MiB) from {shown}", entries(removed.entries), mib(removed.bytes));
        }
    }
    Ok(ExitCode::SUCCESS)
}
