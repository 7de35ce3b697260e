//! The commands that read keys: `hash` and `estimate hll`. A key is the
//! bytes of its argument or stdin line (UTF-8 or not), hex-decoded with
//! `--hex`; a line longer than [`MAX_KEY_BYTES`] is refused.

use crate::error::{Error, Result};

/// The longest key a line of stdin may hold by default (`--max-key-bytes`;
/// a larger one is refused, not buffered: a 100 MB line would cost twice that
/// in memory).
pub const MAX_KEY_BYTES: usize = 1 << 20;

/// Lines of stdin as bytes (a key is the bytes of its line, UTF-8 or not),
/// without the line ending (`\n` or `\r\n`).
pub(super) fn stdin_lines(max: usize) -> Result<Vec<Vec<u8>>> {
    use std::io::{BufRead, Read};
    let mut out = Vec::new();
    let mut input = std::io::stdin().lock();
    loop {
        let mut line = Vec::new();
        let n = Read::by_ref(&mut input)
            .take(max as u64 + 2)
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::Other(anyhow::anyhow!("reading keys from stdin: {e}")))?;
        if n == 0 {
            return Ok(out);
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if line.len() > max {
            return Err(Error::Input(format!(
                "stdin line {}: a key longer than {max} bytes (--max-key-bytes)",
                out.len() + 1
            )));
        }
        out.push(line);
    }
}

/// Keys from stdin, one per line; hex-decoded with `--hex`.
pub(super) fn stdin_keys(hex: bool, max: usize) -> Result<Vec<Vec<u8>>> {
    let lines = stdin_lines(max)?;
    if !hex {
        return Ok(lines);
    }
    stdin_keys_of(&lines)
}

/// Hex-decoded stdin lines, each error naming its line.
fn stdin_keys_of(lines: &[Vec<u8>]) -> Result<Vec<Vec<u8>>> {
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let text = std::str::from_utf8(l).map_err(|_| {
                Error::Input(format!(
                    "stdin line {}: with --hex, a key is hex digits",
                    i + 1
                ))
            })?;
            parse_hex(text).map_err(|e| Error::Input(format!("stdin line {}: {e}", i + 1)))
        })
        .collect()
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
pub(super) fn estimate_hll(
    p: u32,
    estimator: &str,
    redis: bool,
    strategy: &str,
    seed: Option<u64>,
    hex: bool,
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
    let keys = stdin_keys(hex, max_key)?;
    if redis {
        let mut h = RedisHll::new();
        keys.iter().for_each(|k| {
            h.add(k);
        });
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
    keys.iter().for_each(|k| {
        h.insert(k);
    });
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
    // a key is the bytes of its argument or line; with --hex, those are hex digits
    let (shown, keys): (Vec<Vec<u8>>, Vec<Vec<u8>>) = if keys.is_empty() {
        let lines = stdin_lines(max_key)?;
        let keys = if hex {
            stdin_keys_of(&lines)?
        } else {
            lines.clone()
        };
        (lines, keys)
    } else {
        let shown: Vec<Vec<u8>> = keys.iter().map(|k| k.as_bytes().to_vec()).collect();
        let keys = if hex {
            keys.iter().map(|k| parse_hex(k)).collect::<Result<_>>()?
        } else {
            shown.clone()
        };
        (shown, keys)
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (text, bytes) in shown.iter().zip(&keys) {
        let v = h.native(bytes);
        out.write_all(text).map_err(stdout_failed)?;
        writeln!(out, "\t{v:0digits$x}").map_err(stdout_failed)?;
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
    let f = KeyFile::load_records(&file.display().to_string(), format).map_err(Error::Input)?;
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
