//! One run owns an output directory: an exclusive advisory lock on
//! `OUT/.sketchlab.lock` (the operating system's file lock, `flock` on Unix,
//! through std's `File::try_lock`), holding the holder's pid, host and start
//! time for the refusal message. The OS releases the lock when the process
//! ends, however it ends, so a lock left by a `kill -9` is simply taken over
//! by the next run (its file still names the dead holder until then). The
//! file is never removed: removing it would let a second process lock a new
//! file while a third still holds the old one.

use crate::error::{Error, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The lock file's name inside an output directory.
pub const FILE: &str = ".sketchlab.lock";

/// An output directory held by this process until dropped.
#[derive(Debug)]
pub struct OutLock {
    _file: File,
}

/// This machine's name, for the holder line (`/proc/sys/kernel/hostname`,
/// else `$HOSTNAME`, else "unknown").
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

impl OutLock {
    /// Locks `out`, creating it if it does not exist (`create`); a directory
    /// another live sketchlab holds is refused with exit 2, naming the holder.
    pub fn acquire(out: &Path, create: bool) -> Result<OutLock> {
        if create {
            crate::export::contain::dir_within(out, Path::new(""))?;
        }
        crate::export::contain::check_dir(out)?;
        let path = out.join(FILE);
        // a link, a hard link, a FIFO (opening one to write would block until
        // a reader came) or a folder at the lock's name is refused
        let mut file = crate::export::contain::open_in_place(
            &path,
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false),
        )?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                // the holder writes its line just after taking the lock: until
                // then the file is empty or names an earlier, dead holder
                let mut holder = String::new();
                for _ in 0..100 {
                    holder.clear();
                    let _ = file.seek(SeekFrom::Start(0));
                    let _ = (&file).take(4096).read_to_string(&mut holder);
                    if live(&holder) {
                        break;
                    }
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                return Err(Error::Input(format!(
                    "{} is in use by {}; wait, or use another --out",
                    out.display(),
                    describe(&holder)
                )));
            }
            Err(TryLockError::Error(e)) => return Err(io(&path, "cannot lock", e)),
        }
        // ours now: name this process as the holder (a dead holder's line is
        // overwritten here)
        let line = format!(
            "pid {} host {} since {}\n",
            std::process::id(),
            host(),
            crate::export::utc(std::time::SystemTime::now())
        );
        let write = |f: &mut File| -> std::io::Result<()> {
            f.set_len(0)?;
            f.seek(SeekFrom::Start(0))?;
            f.write_all(line.as_bytes())?;
            f.sync_data()
        };
        write(&mut file).map_err(|e| io(&path, "cannot write", e))?;
        Ok(OutLock { _file: file })
    }
}

/// An I/O failure on the lock (a full disk, a read-only directory): exit 1,
/// naming the file, as every other write failure.
fn io(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::Other(anyhow::anyhow!("{}: {what}: {e}", path.display()))
}

/// "sketchlab pid 4242 on host h since 2026-12-04T01:57:00Z" from the lock
/// file's line (or "another sketchlab" when it holds none yet).
/// Whether a holder line names a process that may hold the lock: complete,
/// and (on this host) a pid that is running.
fn live(holder: &str) -> bool {
    let words: Vec<&str> = holder.split_whitespace().collect();
    match words[..] {
        ["pid", pid, "host", h, "since", _] => {
            h != host()
                || Path::new("/proc").join(pid).exists()
                || !Path::new("/proc/self").exists()
        }
        _ => false,
    }
}

fn describe(holder: &str) -> String {
    let words: Vec<&str> = holder.split_whitespace().collect();
    match words[..] {
        ["pid", pid, "host", host, "since", since] => {
            format!("sketchlab pid {pid} on host {host} since {since}")
        }
        _ => "another sketchlab process".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_directory_is_refused_naming_the_holder() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let first = OutLock::acquire(&out, true).unwrap();
        // a second open file description in this process conflicts too (flock)
        let e = OutLock::acquire(&out, true).unwrap_err().to_string();
        assert!(
            e.contains("is in use by sketchlab pid")
                && e.contains(&std::process::id().to_string())
                && e.ends_with("wait, or use another --out"),
            "{e}"
        );
        assert!(matches!(OutLock::acquire(&out, true), Err(Error::Input(_))));
        drop(first);
        // released: the next run takes it, and the file names the new holder
        let _again = OutLock::acquire(&out, true).unwrap();
        let line = std::fs::read_to_string(out.join(FILE)).unwrap();
        assert!(line.starts_with(&format!("pid {} host ", std::process::id())));
    }

    #[test]
    fn an_unlocked_file_naming_a_dead_holder_is_taken_over() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join(FILE),
            "pid 999999999 host gone since 2020-01-01T00:00:00Z\n",
        )
        .unwrap();
        let _l = OutLock::acquire(d.path(), false).unwrap();
        let line = std::fs::read_to_string(d.path().join(FILE)).unwrap();
        assert!(!line.contains("999999999"), "{line}");
        assert_eq!(describe("garbage"), "another sketchlab process");
    }

    #[test]
    fn a_directory_that_does_not_exist_is_not_created_unless_asked() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("missing");
        assert!(OutLock::acquire(&out, false).is_err());
        assert!(!out.exists());
    }
}
