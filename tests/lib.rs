//! Workspace-level tests live in `tests/tests/`; this crate holds what they share: where the
//! project is, and the freshly built `cav` binary.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The project root (the workspace).
pub fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/..")).canonicalize().unwrap()
}

/// The `cav` binary, built first (a no-op when `cargo test --workspace` already built it). Cargo
/// says where it put it, so a `CARGO_TARGET_DIR` or a shared target directory is no matter.
pub fn cav_bin() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let out = Command::new(env!("CARGO"))
            .args(["build", "-q", "-p", "cav-cli", "--message-format=json"])
            .current_dir(root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "cav")
            .find_map(|m| m["executable"].as_str().map(PathBuf::from))
            .expect("cargo names the cav executable it built")
    })
    .clone()
}

/// The `cav` binary, run with `CAV_ROOT` set to `project`.
pub fn cav_in(project: &Path) -> Command {
    let mut c = Command::new(cav_bin());
    c.env("CAV_ROOT", project);
    c
}

/// Assert that a command succeeded, showing its exit code and output when it did not; its
/// standard output.
pub fn succeeded(out: &std::process::Output, what: &str) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout.clone()
}

/// Assert that `xmllint` (set up by scripts/test) reads `path` as well-formed XML.
pub fn xmllint(path: &Path) {
    let lint = Command::new("xmllint").arg("--noout").arg(path).output().expect("xmllint (scripts/test sets it up)");
    assert!(lint.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&lint.stderr));
}

/// The output of `cmd` (stdout and stderr captured), failing the test if it still runs after
/// `secs` seconds (it is killed): for inputs that must be refused at once, never waited on.
pub fn output_within(cmd: &mut Command, secs: u64, what: &str) -> std::process::Output {
    let mut child = cmd.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} still runs after {secs} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}
