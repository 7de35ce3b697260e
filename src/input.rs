//! The one reading layer (#40): every file sketchlab reads is opened here,
//! so a new command cannot forget what reading a file needs.
//!
//! * **Regular files only.** The path is checked before it is opened (opening
//!   a FIFO for reading blocks until a writer comes), opened non-blocking in
//!   case it was swapped in between, and checked again on the open handle: a
//!   FIFO, a device (`/dev/zero` never ends), a socket or a directory is
//!   refused with one line, at once.
//! * **A size known before allocating.** Every read has a bound: small files
//!   (a manifest, a run record, a spec, a lock) [`SMALL`]; tables (results,
//!   summaries, claims, journals, key files) the table bound, 1 GiB unless
//!   `--max-input-bytes` raises it ([`set_table_bound`]). A file over its
//!   bound is refused naming its size, before anything is read; a gzipped
//!   file is decompressed through the same bound, so a small gzip bomb is
//!   refused at the bound, not when memory runs out.
//!
//! Errors are `std::io::Error`s: `InvalidInput` for a file refused here (the
//! callers report it as bad input, exit 2), the OS's own kinds otherwise.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The bound of a small file: a manifest, a run record, a spec, a lock.
pub const SMALL: u64 = 16 << 20;

/// The largest `--max-input-bytes` accepted: 1 TiB (more than any machine
/// this runs on holds; a bound must never wrap).
pub const MAX_TABLE_BOUND: u64 = 1 << 40;

/// The default bound of a table (`--max-input-bytes`).
pub const DEFAULT_TABLE_BOUND: u64 = 1 << 30;

static TABLE_BOUND: AtomicU64 = AtomicU64::new(DEFAULT_TABLE_BOUND);

/// Sets the bound of every table read (from `--max-input-bytes`).
pub fn set_table_bound(bytes: u64) {
    TABLE_BOUND.store(bytes, Ordering::Relaxed);
}

/// The bound of a table read: results, summaries, claims, journals, key
/// files, decompressed.
pub fn table_bound() -> u64 {
    TABLE_BOUND.load(Ordering::Relaxed)
}

/// Why [`command_output`] failed.
#[derive(Debug)]
pub enum CommandError {
    /// Its output passed the bound (it was stopped).
    TooLarge(u64),
    /// It could not run, or exited non-zero (with its stderr, or the reason).
    Failed(String),
}

/// A command's standard output, read through `bound` (a longer output
/// stops the command and is refused, never buffered whole); its standard
/// error (up to 64 KiB) is the message when it fails.
pub fn command_output(
    cmd: &mut std::process::Command,
    bound: u64,
) -> Result<Vec<u8>, CommandError> {
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| CommandError::Failed(format!("cannot run: {e}")))?;
    let mut out = Vec::new();
    let read = child
        .stdout
        .take()
        .expect("piped")
        .take(bound.saturating_add(1))
        .read_to_end(&mut out);
    if read.is_err() || out.len() as u64 > bound {
        let _ = child.kill();
        let _ = child.wait();
        return Err(CommandError::TooLarge(bound));
    }
    let mut err = String::new();
    if let Some(e) = child.stderr.take() {
        let _ = e.take(64 << 10).read_to_string(&mut err);
    }
    let status = child
        .wait()
        .map_err(|e| CommandError::Failed(format!("cannot run: {e}")))?;
    if !status.success() {
        return Err(CommandError::Failed(err.trim().to_string()));
    }
    Ok(out)
}

fn refused(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, message)
}

/// Whether an error is a refusal of this layer (bad input, exit 2).
pub fn is_refusal(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::InvalidInput
}

/// What a file that is not regular is, in words.
fn what(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "another kind of file"
    }
}

/// `1.4 GB (1400000000 bytes)`.
pub fn size_words(bytes: u64) -> String {
    let (v, unit) = match bytes {
        b if b >= 1 << 30 => (b as f64 / (1u64 << 30) as f64, "GiB"),
        b if b >= 1 << 20 => (b as f64 / (1u64 << 20) as f64, "MiB"),
        b if b >= 1 << 10 => (b as f64 / 1024.0, "KiB"),
        b => return format!("{b} bytes"),
    };
    format!("{v:.1} {unit} ({bytes} bytes)")
}

fn over(bytes: u64, bound: u64, decompressed: bool) -> std::io::Error {
    // only a table's bound is the flag's
    let raise = if bound == table_bound() {
        " (raise it with --max-input-bytes)"
    } else {
        ""
    };
    refused(format!(
        "{}{} is over the read bound of {}{raise}",
        if decompressed {
            "decompressed, it "
        } else {
            ""
        },
        if decompressed {
            format!("passes {}", size_words(bytes))
        } else {
            size_words(bytes)
        },
        size_words(bound)
    ))
}

/// Opens a regular file for reading without blocking, and its length.
pub fn open(path: &Path) -> std::io::Result<(std::fs::File, u64)> {
    use std::os::unix::fs::OpenOptionsExt;
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(refused(format!(
            "not a regular file ({}): only a regular file is read",
            what(meta.file_type())
        )));
    }
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(refused(format!(
            "not a regular file ({}): only a regular file is read",
            what(meta.file_type())
        )));
    }
    Ok((f, meta.len()))
}

/// A regular file's bytes, refused past `bound` before anything is read.
pub fn read(path: &Path, bound: u64) -> std::io::Result<Vec<u8>> {
    let (f, len) = open(path)?;
    if len > bound {
        return Err(over(len, bound, false));
    }
    let mut out = Vec::with_capacity(len as usize);
    // the file may grow after the check: never past the bound
    f.take(bound.saturating_add(1)).read_to_end(&mut out)?;
    if out.len() as u64 > bound {
        return Err(over(out.len() as u64, bound, false));
    }
    Ok(out)
}

/// A regular file as UTF-8 text, bounded as [`read`].
pub fn read_string(path: &Path, bound: u64) -> std::io::Result<String> {
    String::from_utf8(read(path, bound)?)
        .map_err(|e| refused(format!("not valid UTF-8 text ({})", e.utf8_error())))
}

/// A file's bytes, decompressed when its name ends in `.xz` or `.gz`,
/// bounded (file and decompressed bytes) by `bound`.
pub fn read_packed(path: &Path, bound: u64) -> std::io::Result<Vec<u8>> {
    let bytes = read(path, bound)?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("gz") => gunzip(&bytes, bound),
        Some("xz") => unxz(&bytes, bound),
        _ => Ok(bytes),
    }
}

/// `bytes` decompressed when they start as gzip or xz do (their magic
/// numbers), else as they are; decompressed bytes bounded by `bound`.
pub fn unpack_by_magic(bytes: Vec<u8>, bound: u64) -> std::io::Result<Vec<u8>> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        gunzip(&bytes, bound)
    } else if bytes.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
        unxz(&bytes, bound)
    } else {
        Ok(bytes)
    }
}

/// Decompresses xz (every stream) into at most `bound` bytes.
pub fn unxz(bytes: &[u8], bound: u64) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    liblzma::read::XzDecoder::new_multi_decoder(bytes)
        .take(bound.saturating_add(1))
        .read_to_end(&mut out)?;
    if out.len() as u64 > bound {
        return Err(over(out.len() as u64, bound, true));
    }
    Ok(out)
}

/// Decompresses gzip (every member) into at most `bound` bytes.
pub fn gunzip(bytes: &[u8], bound: u64) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(bytes)
        .take(bound.saturating_add(1))
        .read_to_end(&mut out)?;
    if out.len() as u64 > bound {
        return Err(over(out.len() as u64, bound, true));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO, a directory and a device are refused at once (a FIFO read
    /// would block until a writer came), each named; a regular file reads.
    #[test]
    fn only_regular_files_are_read_and_nothing_blocks() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()));
        let start = std::time::Instant::now();
        for (p, word) in [
            (fifo.as_path(), "a FIFO"),
            (d.path(), "a directory"),
            (Path::new("/dev/zero"), "a device"),
        ] {
            let e = read(p, SMALL).unwrap_err();
            assert!(is_refusal(&e) && e.to_string().contains(word), "{e}");
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let f = d.path().join("f");
        std::fs::write(&f, b"abc").unwrap();
        assert_eq!(read(&f, 3).unwrap(), b"abc");
        let e = read(&f, 2).unwrap_err();
        assert!(
            is_refusal(&e) && e.to_string() == "3 bytes is over the read bound of 2 bytes",
            "{e}"
        );
        let e = read(&f, 0).unwrap_err().to_string();
        assert!(e.contains("bound of 0 bytes"), "{e}");
    }

    /// A gzip bomb (1 MiB of zeros in about 1 KiB) stops at the bound.
    #[test]
    fn a_gzip_bomb_stops_at_the_bound() {
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        z.write_all(&vec![0u8; 1 << 20]).unwrap();
        let bomb = z.finish().unwrap();
        assert!(bomb.len() < 2048);
        let e = gunzip(&bomb, 1 << 16).unwrap_err();
        assert!(
            is_refusal(&e) && e.to_string().contains("decompressed"),
            "{e}"
        );
        assert_eq!(gunzip(&bomb, 1 << 20).unwrap().len(), 1 << 20);
        // and an xz one (1 MiB of zeros in about 200 bytes)
        let mut z = liblzma::write::XzEncoder::new(Vec::new(), 6);
        z.write_all(&vec![0u8; 1 << 20]).unwrap();
        let bomb = z.finish().unwrap();
        assert!(bomb.len() < 2048);
        let e = unxz(&bomb, 1 << 16).unwrap_err();
        assert!(
            is_refusal(&e) && e.to_string().contains("decompressed"),
            "{e}"
        );
        assert_eq!(unxz(&bomb, 1 << 20).unwrap().len(), 1 << 20);
    }
}
