//! User-facing errors. Bad input (a spec, an argument) exits with code 2 and
//! names the file, the field, the value and what is allowed; anything else
//! exits with code 1.

use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    /// The user asked for something invalid; nothing was written.
    #[error("{0}")]
    Input(String),
    /// Ctrl-C: the run stopped after its running trials; the message says how to resume.
    #[error("{0}")]
    Interrupted(String),
    /// Everything else (I/O, a failed trial).
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) => 2,
            Error::Interrupted(_) => 130,
            Error::Other(_) => 1,
        }
    }

    /// `FILE: FIELD = VALUE: ALLOWED`.
    pub fn field(path: &Path, field: &str, value: &str, allowed: &str) -> Self {
        Error::Input(format!("{}: {field} = {value}: {allowed}", path.display()))
    }

    /// `FILE: MESSAGE`.
    pub fn file(path: &Path, message: impl std::fmt::Display) -> Self {
        Error::Input(format!("{}: {message}", path.display()))
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
