//! Writing only where sketchlab was told to. Every folder it writes into
//! is made by [`dir_within`], which refuses a link (or anything that is not
//! a folder) at the output folder and at every component below it; every
//! file is written by [`super::write_atomic`], which refuses a link, a hard
//! link (a second name for a file elsewhere) or a special file (a FIFO, a
//! device) at its name and at its folder, and writes through a temporary
//! created exclusively under an unpredictable name in the same folder
//! (`tempfile`), renamed over the name at the end. A refusal is bad input:
//! exit 2, naming the path, nothing written.

use crate::error::Error;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

/// What is at `path`, without following a link there.
fn what(path: &Path) -> Option<std::fs::Metadata> {
    std::fs::symlink_metadata(path).ok()
}

/// Refuses a link or a non-folder at `dir` (nothing there is fine).
pub fn check_dir(dir: &Path) -> Result<(), Error> {
    match what(dir) {
        Some(m) if m.file_type().is_symlink() => Err(Error::file(
            dir,
            "is a symbolic link: sketchlab writes only into real folders (use the folder it points to, or another --out)",
        )),
        Some(m) if !m.is_dir() => Err(Error::file(dir, "is not a folder")),
        _ => Ok(()),
    }
}

/// Refuses what a file write must not replace at `path`: a link, a second
/// name of a file (link count above 1), or anything but a regular file
/// (nothing there is fine).
pub fn check_file(path: &Path) -> Result<(), Error> {
    match what(path) {
        Some(m) if m.file_type().is_symlink() => Err(Error::file(
            path,
            "is a symbolic link: sketchlab does not write through links (remove it)",
        )),
        Some(m) if !m.is_file() => Err(Error::file(
            path,
            "is not a regular file (a folder, a FIFO, a device?): sketchlab replaces only regular files",
        )),
        Some(m) if m.nlink() > 1 => Err(Error::file(
            path,
            format!(
                "has {} names (a hard link): writing it would change a file elsewhere (remove this name)",
                m.nlink()
            ),
        )),
        _ => Ok(()),
    }
}

/// `root/rel` as a folder, made where missing: `root` itself (its missing
/// parents made too) and every component of `rel` must be a real folder,
/// not a link; `rel` must be plain names (no `..`, no root). Returns the
/// path.
pub fn dir_within(root: &Path, rel: &Path) -> Result<PathBuf, Error> {
    check_dir(root)?;
    if what(root).is_none() {
        std::fs::create_dir_all(root).map_err(|e| io(root, "cannot create", e))?;
        check_dir(root)?;
    }
    let mut at = root.to_path_buf();
    for c in rel.components() {
        let Component::Normal(name) = c else {
            return Err(Error::file(
                &root.join(rel),
                "names a folder outside the output folder (`..` or an absolute path)",
            ));
        };
        at.push(name);
        check_dir(&at)?;
        if what(&at).is_none() {
            match std::fs::create_dir(&at) {
                Ok(()) => {}
                // made meanwhile by another writer: checked again below
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(io(&at, "cannot create", e)),
            }
            check_dir(&at)?;
        }
    }
    Ok(at)
}

/// A name read from a file (a study in run.json or a manifest) as a plain
/// folder name: one component, not hidden, not one of the folders a run
/// keeps beside its studies.
pub fn plain_name(name: &str) -> Result<&str, String> {
    const RESERVED: [&str; 3] = ["quick", "baselines", "design"];
    let one = Path::new(name).components().count() == 1
        && matches!(
            Path::new(name).components().next(),
            Some(Component::Normal(_))
        );
    if name.is_empty() || !one || name.starts_with('.') || name.contains(['/', '\\', '\0']) {
        return Err(format!("{name:?} is not a plain folder name"));
    }
    if RESERVED.contains(&name) {
        return Err(format!(
            "{name:?} is the name of a folder a run keeps beside its studies"
        ));
    }
    Ok(name)
}

/// Opens `path` to write it in place (a lock, a journal): a link at the
/// name is not followed (O_NOFOLLOW), and what was opened must be a regular
/// file with one name; anything else is refused (exit 2) naming it.
pub fn open_in_place(path: &Path, opts: &mut std::fs::OpenOptions) -> Result<std::fs::File, Error> {
    use std::os::unix::fs::OpenOptionsExt;
    check_file(path)?;
    // O_NONBLOCK: a FIFO swapped in after the check does not block the open
    let f = opts
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => Error::file(
                path,
                "is a symbolic link: sketchlab does not write through links (remove it)",
            ),
            _ => io(path, "cannot open", e),
        })?;
    let m = f.metadata().map_err(|e| io(path, "cannot read", e))?;
    if !m.is_file() || m.nlink() > 1 {
        return Err(Error::file(
            path,
            "is not a regular file with one name (a hard link, a FIFO?): remove it",
        ));
    }
    Ok(f)
}

fn io(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::Other(anyhow::anyhow!("{}: {what}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_and_special_files_are_refused() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("out");
        let elsewhere = d.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        std::fs::create_dir(&out).unwrap();
        std::os::unix::fs::symlink(&elsewhere, out.join("study")).unwrap();
        assert!(matches!(
            dir_within(&out, Path::new("study")),
            Err(Error::Input(_))
        ));
        assert!(dir_within(&out, Path::new("../x")).is_err());
        assert!(dir_within(&out, Path::new("fresh/sub")).is_ok());
        assert!(out.join("fresh/sub").is_dir());
        // a link as the output folder itself
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        assert!(dir_within(&link, Path::new("a")).is_err());
        assert!(!elsewhere.join("a").exists());
        // a hard link, a FIFO, a folder at a file's name
        let f = elsewhere.join("f");
        std::fs::write(&f, "x").unwrap();
        std::fs::hard_link(&f, out.join("h")).unwrap();
        assert!(check_file(&out.join("h")).is_err());
        let fifo = out.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(check_file(&fifo).is_err());
        assert!(check_file(&out.join("fresh")).is_err());
        assert!(check_file(&out.join("new")).is_ok());
        assert!(plain_name("bloom_fpr").is_ok());
        for bad in ["../x", "a/b", "quick", ".hidden", "", "/abs", "baselines"] {
            assert!(plain_name(bad).is_err(), "{bad}");
        }
    }
}
