//! `cav cache info|clear`: the result cache (`cav-cache`) seen and emptied.

use std::process::ExitCode;

use crate::CacheAction;

pub fn run(action: CacheAction) -> Result<ExitCode, String> {
    let dir = cav_cache::default_dir()?;
    let store = cav_cache::Store::new(dir.clone(), crate::result_cache::build());
    let shown = cav_content::diag::shown(&dir.display().to_string());
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let entries = |n: usize| format!("{n} entr{}", if n == 1 { "y" } else { "ies" });
    match action {
        CacheAction::Info => {
            let info = store.info();
            println!("cache: {shown}");
            println!(
                "{}, {:.1} MiB (bounded at {} entries, {:.0} MiB)",
                entries(info.entries),
                mib(info.bytes),
                cav_format::limits::CACHE_MAX_ENTRIES,
                mib(cav_format::limits::CACHE_MAX_BYTES)
            );
        }
        CacheAction::Clear => {
            let removed = store.clear().map_err(|e| format!("cannot clear {shown}: {e}"))?;
            println!("removed {} ({:.1} MiB) from {shown}", entries(removed.entries), mib(removed.bytes));
        }
    }
    Ok(ExitCode::SUCCESS)
}
