//! The crate's one error type. Bad input (a spec, an argument, a file
//! sketchlab reads) exits with code 2 and names the file, the field, the
//! value and what is allowed; a peer or the system failing (I/O, a
//! redis-server, CPython) exits with code 1; a bug (a broken invariant of
//! sketchlab's own) exits with code 70 and says so. Library code returns
//! this type (or `anyhow` inside a trial, which becomes `Other`), never a
//! bare `String`.

use std::path::Path;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    /// The user asked for something invalid; nothing was written.
    #[error("{0}")]
    Input(String),
    /// Bad input at a named field, said as what the field allows, before
    /// the caller that knows the file and the value names them
    /// ([`Error::in_file`]): what a kind's cross-parameter check returns.
    #[error("{field}: {allowed}")]
    Invalid {
        field: &'static str,
        allowed: String,
    },
    /// Ctrl-C: the run stopped after its running trials; the message says how to resume.
    #[error("{0}")]
    Interrupted(String),
    /// A broken invariant of sketchlab's own (exit 70: report it).
    #[error("bug: {0}")]
    Bug(String),
    /// Everything else (I/O, a peer, a failed trial).
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// A bug as an `anyhow` error (inside a trial or a writer): it keeps its
/// kind through the chain, so the process still exits 70 for it.
pub fn bug(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::from(Error::Bug(message.into()))
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Input(_) | Error::Invalid { .. } => 2,
            Error::Interrupted(_) => 130,
            Error::Bug(_) => 70,
            // a bug raised inside a trial, under its context
            Error::Other(e)
                if e.chain()
                    .any(|c| matches!(c.downcast_ref::<Error>(), Some(Error::Bug(_)))) =>
            {
                70
            }
            // bad input found inside a writer (a link at an output's name)
            Error::Other(e)
                if e.chain().any(|c| {
                    matches!(
                        c.downcast_ref::<Error>(),
                        Some(Error::Input(_) | Error::Invalid { .. })
                    )
                }) =>
            {
                2
            }
            Error::Other(_) => 1,
        }
    }

    /// Bad input, said in `message`.
    pub fn input(message: impl Into<String>) -> Self {
        Error::Input(message.into())
    }

    /// A peer or the system failing, said in `message`.
    pub fn other(message: impl std::fmt::Display) -> Self {
        Error::Other(anyhow::anyhow!("{message}"))
    }

    /// Bad input at `field`: `allowed` says what the field allows.
    pub fn invalid(field: &'static str, allowed: impl Into<String>) -> Self {
        Error::Invalid {
            field,
            allowed: allowed.into(),
        }
    }

    /// What this error says of the input (its message, without a field an
    /// [`Error::Invalid`] names): the phrase a caller puts after
    /// `FILE: FIELD = VALUE:`.
    pub fn allowed(&self) -> String {
        match self {
            Error::Invalid { allowed, .. } => allowed.clone(),
            e => e.to_string(),
        }
    }

    /// An [`Error::Invalid`] placed in its file: `FILE: PREFIX.FIELD =
    /// VALUE: ALLOWED`, the value read by `value_of(field)`; any other
    /// error is returned as it is.
    pub fn in_file(self, path: &Path, prefix: &str, value_of: impl Fn(&str) -> String) -> Self {
        match self {
            Error::Invalid { field, allowed } => Error::field(
                path,
                &format!("{prefix}{field}"),
                &value_of(field),
                &allowed,
            ),
            e => e,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad input exits 2, a failing peer or system 1, a bug 70, also when
    /// raised inside a trial under a context.
    #[test]
    fn each_kind_of_failure_has_its_exit_code() {
        assert_eq!(Error::input("x").exit_code(), 2);
        assert_eq!(
            Error::other("redis-server: connection refused").exit_code(),
            1
        );
        assert_eq!(Error::Bug("x".into()).exit_code(), 70);
        let deep = bug("a Same field differs").context("trial 3 of bloom_fpr");
        let e = Error::from(deep);
        assert_eq!(e.exit_code(), 70);
        assert!(
            format!("{e:#}").contains("bug: a Same field differs"),
            "{e:#}"
        );
    }
}
