//! Files named on the command line to be read (an event log, a result of `cav sim`), opened so
//! that a FIFO, a device or an oversized file cannot hang or swamp the command.

use std::path::Path;

/// A file named on the command line (a log, a sim result), opened for reading: without blocking
/// (a FIFO or a device named instead would hang the open), then held to being a regular file of
/// at most `max` bytes (`what` it should be, for the message).
pub fn open_input(path: &Path, max: u64, what: &str) -> Result<std::fs::File, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(format!("{} is not a file", path.display()));
    }
    if meta.len() > max {
        return Err(format!("{} is {} bytes, more than {what} may be ({max})", path.display(), meta.len()));
    }
    Ok(file)
}
