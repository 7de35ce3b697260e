//! The commands that read keys: `hash` and `estimate hll`. A key is the
//! bytes of its argument or stdin line (UTF-8 or not), hex-decoded with
//! `--hex`; a line longer than [`MAX_KEY_BYTES`] is refused.

use crate::error::{Error, Result};

/// The longest key a line of stdin may hold by default (`--max-key-bytes`;
/// a larger one is refused, not buffered: a 100 MB line would cost twice that
/// in memory).
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// Each line of stdin as a key, streamed: `f(line, key)` sees the line's
/// bytes (a key is the bytes of its line, UTF-8 or not, without `\n` or
/// `\r\n`) and the key (the same bytes, or hex-decoded with `--hex`). Only
/// the current line is held, so a stream of any length costs O(max) bytes.
pub(super) fn each_stdin_key(
    hex: bool,
    max: usize,
    mut f: impl FnMut(&[u8], &[u8]) -> Result<()>,
) -> Result<()> {
    use std::io::{BufRead, Read};
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    let mut number = 0usize;
    loop {
        line.clear();
        let n = Read::by_ref(&mut input)
            .take(max as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::Other(anyhow::anyhow!("reading keys from stdin: {e}")))?;
        if n == 0 {
            return Ok(());
        }
        number += 1;
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if line.len() > max {
            return Err(Error::Input(format!(
                "stdin line {number}: a key longer than {max} bytes (--max-key-bytes)"
            )));
        }
        if hex {
            let text = std::str::from_utf8(&line).map_err(|_| {
                Error::Input(format!(
                    "stdin line {number}: with --hex, a key is hex digits"
                ))
            })?;
            let key = crate::workload::file::parse_hex(text.as_bytes())
                .map_err(|e| Error::Input(format!("stdin line {number}: {e}")))?;
            f(&line, &key)?;
        } else {
            f(&line, &line)?;
        }
    }
}

/// A write to stdout that failed: the reader went away (end quietly, as
/// coreutils do), or the write did (one line, exit 1).
pub(super) fn stdout_failed(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    Error::Other(anyhow::anyhow!("writing to stdout: {e}"))
}

/// `sketchlab estimate hll`: `estimator<TAB>estimate` per line.
/// Where `estimate` reads its keys.
pub(super) enum Source<'a> {
    /// One key a line (hex-decoded with `hex`).
    Stdin { hex: bool },
    /// A key file and its format (lines, hex, u64le).
    File(&'a std::path::Path, &'a str),
}

impl Source<'_> {
    /// Calls `f` with each key, in order (a key file's duplicates kept).
    fn each(&self, max_key: usize, mut f: impl FnMut(&[u8])) -> Result<()> {
        match self {
            Source::Stdin { hex } => each_stdin_key(*hex, max_key, |_, k| {
                f(k);
                Ok(())
            }),
            Source::File(path, format) => {
                use crate::workload::file::{Format, KeyFile};
                let format = Format::from_name(format).ok_or_else(|| {
                    Error::Input(format!(
                        "--format = {format:?}: must be one of {}",
                        Format::NAMES.join(", ")
                    ))
                })?;
                let keys = KeyFile::load_records(&path.display().to_string(), format)?;
                keys.keys().for_each(f);
                Ok(())
            }
        }
    }
}

pub(super) fn estimate_hll(
    p: u32,
    estimator: &str,
    redis: bool,
    strategy: &str,
    seed: Option<u64>,
    source: Source<'_>,
    max_key: usize,
) -> Result<()> {
    use crate::hashing::{Seed, StrategyId};
    use crate::structures::hyperloglog::{HyperLogLog, redis::RedisHll};
    use crate::vocab::HllEstimator;
    let chosen: Vec<HllEstimator> = match estimator {
        "all" => HllEstimator::ALL.to_vec(),
        one => vec![HllEstimator::parse(one).ok_or_else(|| {
            Error::Input(format!(
                "--estimator = {estimator:?}: must be one of {}, all",
                HllEstimator::NAMES.join(", ")
            ))
        })?],
    };
    if redis {
        let mut h = RedisHll::new();
        source.each(max_key, |k| {
            h.add(k);
        })?;
        println!("redis\t{}", h.count());
        return Ok(());
    }
    let kind = StrategyId::from_name(strategy).ok_or_else(|| {
        Error::Input(format!(
            "--strategy = {strategy:?}: must be one of {}",
            StrategyId::names().join(", ")
        ))
    })?;
    let hasher = kind.build(Seed::fixed(seed.unwrap_or(kind.default_seed())));
    let mut h = HyperLogLog::new(p, hasher).map_err(|e| Error::Input(format!("--p: {e}")))?;
    source.each(max_key, |k| {
        h.insert(k);
    })?;
    for e in chosen {
        let v = h.estimate_by(e).unwrap_or(f64::NAN);
        println!("{}\t{}", e.as_str(), crate::export::markdown::sig(v, 8));
    }
    Ok(())
}

/// `sketchlab hash`: one line per key, `key<TAB>hex`.
pub(super) fn hash_command(
    strategy: &str,
    seed: Option<u64>,
    hex: bool,
    keys: &[String],
    max_key: usize,
) -> Result<()> {
    use crate::hashing::{KeyHasher, Seed, StrategyId};
    use std::io::Write;
    let kind = StrategyId::from_name(strategy).ok_or_else(|| {
        Error::Input(format!(
            "--strategy = {strategy:?}: must be one of {}",
            StrategyId::names().join(", ")
        ))
    })?;
    let h = kind.build(Seed::fixed(seed.unwrap_or(kind.default_seed())));
    let digits = (kind.width() / 4) as usize;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut write = |text: &[u8], bytes: &[u8]| -> Result<()> {
        let v = h.native(bytes);
        out.write_all(text).map_err(stdout_failed)?;
        writeln!(out, "\t{v:0digits$x}").map_err(stdout_failed)
    };
    // a key is the bytes of its argument or line; with --hex, those are hex
    // digits; stdin is streamed, a line at a time
    if keys.is_empty() {
        each_stdin_key(hex, max_key, &mut write)?;
    } else {
        // arguments are checked before any line is printed
        let decoded: Vec<Vec<u8>> = keys
            .iter()
            .map(|k| {
                if hex {
                    parse_hex(k)
                } else {
                    Ok(k.as_bytes().to_vec())
                }
            })
            .collect::<Result<_>>()?;
        for (k, bytes) in keys.iter().zip(&decoded) {
            write(k.as_bytes(), bytes)?;
        }
    }
    out.flush().map_err(stdout_failed)
}

/// `sketchlab hash --file F`: one line per record of a key file (duplicates
/// kept), the key as the file shows it (hex for hex and u64le files).
pub(super) fn hash_file(
    strategy: &str,
    seed: Option<u64>,
    file: &std::path::Path,
    format: &str,
) -> Result<()> {
    use crate::hashing::{KeyHasher, Seed, StrategyId};
    use crate::workload::file::{Format, KeyFile};
    use std::io::Write;
    let kind = StrategyId::from_name(strategy).ok_or_else(|| {
        Error::Input(format!(
            "--strategy = {strategy:?}: must be one of {}",
            StrategyId::names().join(", ")
        ))
    })?;
    let format = Format::from_name(format).ok_or_else(|| {
        Error::Input(format!(
            "--format = {format:?}: must be one of {}",
            Format::NAMES.join(", ")
        ))
    })?;
    let f = KeyFile::load_records(&file.display().to_string(), format)?;
    let h = kind.build(Seed::fixed(seed.unwrap_or(kind.default_seed())));
    let digits = (kind.width() / 4) as usize;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for key in f.keys() {
        if format == Format::Lines {
            out.write_all(key).map_err(stdout_failed)?;
        } else {
            key.iter()
                .try_for_each(|b| write!(out, "{b:02x}"))
                .map_err(stdout_failed)?;
        }
        writeln!(out, "\t{:0digits$x}", h.native(key)).map_err(stdout_failed)?;
    }
    out.flush().map_err(stdout_failed)
}

pub(super) fn parse_hex(s: &str) -> Result<Vec<u8>> {
    crate::workload::file::parse_hex(s.as_bytes()).map_err(|e| Error::Input(format!("--hex: {e}")))
}
