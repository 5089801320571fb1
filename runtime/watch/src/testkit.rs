//! Helpers for tests and benchmarks of watch mode: copying a content tree to edit, and reading
//! the watcher's output line by line as it comes.

use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

/// Copy a directory tree (to watch or edit a copy of the content).
pub fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for e in std::fs::read_dir(from)? {
        let e = e?;
        let t = to.join(e.file_name());
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &t)?;
        } else {
            std::fs::copy(e.path(), t)?;
        }
    }
    Ok(())
}

/// A `Write` that hands each complete line to a channel: for tests and benchmarks that read the
/// watcher's output as it comes.
pub struct LineSink {
    pending: String,
    tx: mpsc::Sender<(Instant, String)>,
}

impl LineSink {
    pub fn new(tx: mpsc::Sender<(Instant, String)>) -> Self {
        LineSink { pending: String::new(), tx }
    }
}

impl Write for LineSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.push_str(&String::from_utf8_lossy(buf));
        while let Some(i) = self.pending.find('\n') {
            let line: String = self.pending.drain(..=i).collect();
            let _ = self.tx.send((Instant::now(), line.trim_end().to_owned()));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
