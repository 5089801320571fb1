//! Workspace-level tests live in `tests/tests/`; this crate holds what they share: where the
//! project is, and the freshly built `cav` binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The project root (the workspace).
pub fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

/// The `cav` binary, built first (a no-op when `cargo test --workspace` already built it), run
/// with `CAV_ROOT` set to `project`.
pub fn cav_in(project: &Path) -> Command {
    let status =
        Command::new(env!("CARGO")).args(["build", "-q", "-p", "cav-cli"]).current_dir(root()).status().unwrap();
    assert!(status.success());
    let mut c = Command::new(root().join("target/debug/cav"));
    c.env("CAV_ROOT", project);
    c
}
