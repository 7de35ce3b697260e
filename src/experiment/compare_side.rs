//! One side of `sketchlab compare`: an output folder, or a git revision's
//! committed report extracted into a temporary folder (every blob read
//! through the table bound).

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// One run's outputs: a directory, or a git revision's committed report
/// extracted into a temporary one.
pub struct Side {
    pub label: String,
    pub dir: PathBuf,
    _tmp: Option<tempfile::TempDir>,
}

impl Side {
    /// A path inside this side as the user knows it: `git:REV:…/file` for a
    /// revision's report (extracted into a temporary folder), else itself.
    pub(super) fn shown(&self, p: &Path) -> PathBuf {
        match (&self._tmp, p.strip_prefix(&self.dir)) {
            (Some(_), Ok(rel)) => PathBuf::from(format!("{}/{}", self.label, rel.display())),
            _ => p.to_path_buf(),
        }
    }

    /// A message with this side's temporary folder named as the user knows it.
    pub(super) fn shown_text(&self, msg: &str) -> String {
        match &self._tmp {
            Some(_) => msg.replace(&self.dir.display().to_string(), &self.label),
            None => msg.to_string(),
        }
    }
}

/// `DIR`, or `git:REV` (the reference report `reports/` at REV) or
/// `git:REV:PATH` (another committed output directory).
pub fn open_side(arg: &str) -> Result<Side> {
    let Some(rest) = arg.strip_prefix("git:") else {
        let dir = PathBuf::from(arg);
        if !dir.is_dir() {
            return Err(Error::Input(format!(
                "{arg}: not a directory (an output directory, or git:REV for a revision's reports/)"
            )));
        }
        return Ok(Side {
            label: arg.to_string(),
            dir,
            _tmp: None,
        });
    };
    let (rev, path) = rest.split_once(':').unwrap_or((rest, "reports"));
    // an argument beginning with '-' would reach git as an option
    if rev.is_empty() || rev.starts_with('-') || path.starts_with('-') {
        return Err(Error::Input(format!(
            "{arg}: a revision and a path may not be empty or begin with '-'"
        )));
    }
    // git's output read through the table bound: a blob larger than any
    // table sketchlab reads is refused, not buffered
    let git = |args: &[&str]| -> Result<Vec<u8>> {
        let mut cmd = std::process::Command::new("git");
        cmd.args(args);
        crate::input::command_output(&mut cmd, crate::input::table_bound()).map_err(|e| {
            Error::Input(format!(
                "{arg}: git {}: {}",
                args.join(" "),
                match e {
                    crate::input::CommandError::TooLarge(b) => {
                        format!(
                            "more than {} (--max-input-bytes)",
                            crate::input::size_words(b)
                        )
                    }
                    crate::input::CommandError::Failed(why) => why,
                }
            ))
        })
    };
    let listing = git(&["ls-tree", "-r", "--name-only", rev, "--", path])?;
    let tmp = tempfile::tempdir().map_err(|e| Error::Other(e.into()))?;
    let wanted = |name: &str| {
        let file = name.rsplit('/').next().unwrap_or("");
        matches!(
            file,
            "manifest.json"
                | "results.csv"
                | "results.csv.xz"
                | "results.csv.gz"
                | "claims.csv"
                | "spec.toml"
                | "run.json"
        )
    };
    for name in String::from_utf8_lossy(&listing)
        .lines()
        .filter(|n| wanted(n))
    {
        let rel = Path::new(name)
            .strip_prefix(path)
            .map_err(|_| Error::Input(format!("{arg}: {name} is outside {path}")))?;
        let bytes = git(&["show", &format!("{rev}:{name}")])?;
        let dir =
            crate::export::contain::dir_within(tmp.path(), rel.parent().unwrap_or(Path::new("")))?;
        crate::export::write_atomic(&dir.join(rel.file_name().unwrap_or_default()), &bytes)?;
    }
    Ok(Side {
        label: arg.to_string(),
        dir: tmp.path().to_path_buf(),
        _tmp: Some(tmp),
    })
}
