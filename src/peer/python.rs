//! A real CPython: `python3` on PATH, run as a child process with a script
//! on the command line and data on stdin. `PYTHONHASHSEED` is removed from
//! its environment so each process draws its own hash key, as a deployed
//! interpreter does.

use std::io::Write;
use std::process::{Command, Stdio};

/// Whether `python3` is on PATH.
pub fn installed() -> bool {
    Command::new("python3")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `python3 -c script` with `stdin` as its input; its stdout, or why not.
pub fn run(script: &str, stdin: &[u8]) -> Result<String, String> {
    let mut child = Command::new("python3")
        .args(["-c", script])
        .env_remove("PYTHONHASHSEED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting python3: {e}"))?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin)
        .map_err(|e| format!("writing to python3: {e}"))?;
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "python3 failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("python3 output: {e}"))
}
