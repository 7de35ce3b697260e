//! A real CPython: `python3` on PATH, run as a child process with a script
//! on the command line and data on stdin. `PYTHONHASHSEED` is removed from
//! its environment so each process draws its own hash key, as a deployed
//! interpreter does.

use crate::error::Error;
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
pub fn run(script: &str, stdin: &[u8]) -> Result<String, Error> {
    let mut child = Command::new("python3")
        .args(["-c", script])
        .env_remove("PYTHONHASHSEED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error::other(format!("starting python3: {e}")))?;
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(stdin)
        .map_err(|e| Error::other(format!("writing to python3: {e}")))?;
    let out = child
        .wait_with_output()
        .map_err(|e| Error::other(format!("waiting for python3: {e}")))?;
    if !out.status.success() {
        return Err(Error::other(format!(
            "python3 failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    String::from_utf8(out.stdout).map_err(|e| Error::other(format!("python3 output: {e}")))
}

/// What a real CPython `set` of keys retains, measured inside the interpreter.
#[derive(Clone, Debug, PartialEq)]
pub struct SetMemory {
    /// Distinct keys in the set (must equal the keys sent).
    pub len: u64,
    /// Bytes `tracemalloc` saw allocated and still held after building the
    /// set: its hash table plus every key object (the keys' buffer excluded).
    /// For ints this exceeds the `sys.getsizeof` sum by up to 4 bytes a key:
    /// `int.from_bytes` allocates ceil(8·width/30) digits and does not shrink
    /// a value that needs fewer.
    pub traced_bytes: u64,
    /// `sys.getsizeof(set)`: the table alone.
    pub table_bytes: u64,
    /// The sum of `sys.getsizeof(key)`: the key objects alone.
    pub key_object_bytes: u64,
    /// The interpreter's version (`sys.version`'s first word).
    pub version: String,
}

/// How the interpreter wraps each key: `int` (little-endian integers), `str`
/// (ASCII text) or `bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PyKey {
    Int,
    Str,
    Bytes,
}

const SET_MEMORY: &str = r#"
import sys, tracemalloc
kind, width, n = sys.stdin.buffer.readline().split()
kind, width, n = kind.decode(), int(width), int(n)
data = sys.stdin.buffer.read()
assert len(data) == width * n, (len(data), width, n)
if kind == "int":
    make = lambda i: int.from_bytes(data[i * width:(i + 1) * width], "little")
elif kind == "str":
    make = lambda i: data[i * width:(i + 1) * width].decode("ascii")
else:
    make = lambda i: data[i * width:(i + 1) * width]
tracemalloc.start()
base = tracemalloc.get_traced_memory()[0]
s = set(make(i) for i in range(n))
traced = tracemalloc.get_traced_memory()[0] - base
tracemalloc.stop()
print(len(s), traced, sys.getsizeof(s), sum(sys.getsizeof(k) for k in s), sys.version.split()[0])
"#;

/// Builds a CPython `set` of `keys` (`keys.len() / width` keys of `width`
/// bytes each, wrapped as `kind`) in a real `python3` and measures it with
/// `tracemalloc` and `sys.getsizeof`.
pub fn set_memory(kind: PyKey, width: usize, keys: &[u8]) -> Result<SetMemory, Error> {
    if width == 0 || !keys.len().is_multiple_of(width) {
        return Err(Error::other(format!(
            "{} key bytes are not keys of {width} bytes",
            keys.len()
        )));
    }
    let n = keys.len() / width;
    let name = match kind {
        PyKey::Int => "int",
        PyKey::Str => "str",
        PyKey::Bytes => "bytes",
    };
    let mut input = format!("{name} {width} {n}\n").into_bytes();
    input.extend_from_slice(keys);
    let out = run(SET_MEMORY, &input)?;
    let f: Vec<&str> = out.split_whitespace().collect();
    let num = |i: usize| -> Result<u64, Error> {
        f.get(i)
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| Error::other(format!("unexpected python3 output: {out:?}")))
    };
    Ok(SetMemory {
        len: num(0)?,
        traced_bytes: num(1)?,
        table_bytes: num(2)?,
        key_object_bytes: num(3)?,
        version: f.get(4).unwrap_or(&"?").to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPython's object sizes are documented by its own `sys.getsizeof`; the
    /// set of 1,000 8-byte ints holds 1,000 int objects of 28-36 bytes and a
    /// table of 2^k 16-byte entries (skipped when python3 is absent, as
    /// everywhere outside CI; tests/studies/bloom.rs fails under CI without it).
    #[test]
    fn a_cpython_set_is_measured_from_inside_the_interpreter() {
        if !installed() {
            return;
        }
        let keys: Vec<u8> = (0..1000u64)
            .flat_map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 1).to_le_bytes())
            .collect();
        let m = set_memory(PyKey::Int, 8, &keys).unwrap();
        assert_eq!(m.len, 1000);
        assert!((28_000..=36_000).contains(&m.key_object_bytes), "{m:?}");
        assert!(
            m.table_bytes >= 16 * 1024 && m.table_bytes <= 16 * 4096 + 1024,
            "{m:?}"
        );
        // what tracemalloc saw is the table and the keys, plus at most one
        // 4-byte digit per int that `int.from_bytes` allocated and then
        // normalised away (`sys.getsizeof` reports the normalised size)
        let extra = m.traced_bytes as i64 - (m.table_bytes + m.key_object_bytes) as i64;
        assert!((-1024..=4 * 1000 + 1024).contains(&extra), "{m:?}");
        let urls: Vec<u8> = (0..100u64)
            .flat_map(|i| format!("{i:0>100}").into_bytes())
            .collect();
        let s = set_memory(PyKey::Str, 100, &urls).unwrap();
        assert_eq!(s.len, 100);
        // a compact ASCII str is 49 bytes of header plus its characters
        assert_eq!(s.key_object_bytes, 100 * (49 + 100));
        assert!(set_memory(PyKey::Bytes, 3, b"abcd").is_err());
    }
}
