//! A real redis-server: started on a free loopback port with no persistence
//! (and stopped when dropped), or reached at a `redis://host:port` URL, and a
//! minimal RESP2 client for the commands the studies send (PING, PFADD,
//! PFCOUNT, DEL, INFO server).

use crate::error::Error;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A redis-server this process started; killed on drop.
pub struct Server {
    child: Child,
    pub port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a `redis-server` binary is on PATH.
pub fn server_installed() -> bool {
    Command::new("redis-server")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

impl Server {
    /// Starts `redis-server` on a free loopback port, no RDB or AOF, in a
    /// temporary directory; waits (≤ 10 s) until it accepts connections.
    pub fn start() -> Result<Server, Error> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map_err(|e| Error::other(format!("finding a free port: {e}")))?
            .port();
        let dir =
            tempfile::tempdir().map_err(|e| Error::other(format!("temporary directory: {e}")))?;
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Error::other(format!("starting redis-server: {e}")))?;
        let server = Server {
            child,
            port,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return Err(Error::other(format!(
                    "redis-server did not listen on port {port}"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(server)
    }

    pub fn connect(&self) -> Result<Conn, Error> {
        Conn::open(&format!("127.0.0.1:{}", self.port))
    }
}

static URL: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The server a study should use instead of starting its own (`--redis-url`);
/// set once by the command line, after it answered PING.
pub fn set_url(url: &str) -> Result<(), Error> {
    address(url)?;
    ping(url).map_err(|e| Error::other(format!("{url:?}: {e}")))?;
    let _ = URL.set(url.to_string());
    Ok(())
}

/// Whether a server answers PING at `url`.
pub fn ping(url: &str) -> Result<(), Error> {
    match Conn::open(&address(url)?)?.call(&[b"PING"])? {
        Reply::Status(s) if s == "PONG" => Ok(()),
        r => Err(Error::other(format!("not a Redis server (PING: {r:?})"))),
    }
}

/// Where a study's trial talks to Redis: the `--redis-url` server, or one it
/// starts (kept alive by the returned guard), or why neither is possible.
pub fn reach() -> Result<(Conn, Option<Server>), Error> {
    if let Some(url) = URL.get() {
        return Ok((Conn::open(&address(url)?)?, None));
    }
    if !server_installed() {
        return Err(Error::other(
            "no redis-server on PATH and no --redis-url given",
        ));
    }
    let s = Server::start()?;
    Ok((s.connect()?, Some(s)))
}

/// `redis://host:port` (or `host:port`) → `host:port`.
pub fn address(url: &str) -> Result<String, Error> {
    let rest = url.strip_prefix("redis://").unwrap_or(url);
    let rest = rest.trim_end_matches('/');
    match rest.rsplit_once(':') {
        // another scheme (http://…) or a path is not a Redis address
        Some((h, p)) if !h.is_empty() && !h.contains('/') && p.parse::<u16>().is_ok() => {
            Ok(rest.to_string())
        }
        _ => Err(Error::other(format!("{url:?}: expected redis://host:port"))),
    }
}

/// One reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Status(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
}

/// The longest reply line and the largest bulk reply taken from a server
/// (an HLL's value is 12 kB, INFO a few kB): a larger one is refused, not
/// allocated; and the longest a reply may take.
const MAX_LINE: u64 = 64 << 10;
const MAX_BULK: i64 = 64 << 20;
const REPLY_SECONDS: u64 = 30;

/// A connection speaking RESP2, one command and one reply at a time.
pub struct Conn {
    w: TcpStream,
    r: BufReader<TcpStream>,
}

impl Conn {
    pub fn open(addr: &str) -> Result<Conn, Error> {
        use std::net::ToSocketAddrs;
        let to = addr
            .to_socket_addrs()
            .map_err(|e| Error::other(format!("connecting to {addr}: {e}")))?
            .next()
            .ok_or_else(|| Error::other(format!("connecting to {addr}: no address")))?;
        let w = TcpStream::connect_timeout(&to, Duration::from_secs(REPLY_SECONDS))
            .map_err(|e| Error::other(format!("connecting to {addr}: {e}")))?;
        w.set_read_timeout(Some(Duration::from_secs(REPLY_SECONDS)))
            .map_err(Error::other)?;
        let r = BufReader::new(w.try_clone().map_err(Error::other)?);
        Ok(Conn { w, r })
    }

    pub fn call(&mut self, args: &[&[u8]]) -> Result<Reply, Error> {
        let mut msg = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            msg.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            msg.extend_from_slice(a);
            msg.extend_from_slice(b"\r\n");
        }
        self.w
            .write_all(&msg)
            .map_err(|e| Error::other(format!("redis: {e}")))?;
        let failed = |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                Error::other(format!("redis: no reply within {REPLY_SECONDS} s"))
            }
            _ => Error::other(format!("redis: {e}")),
        };
        let mut raw = Vec::new();
        (&mut self.r)
            .take(MAX_LINE)
            .read_until(b'\n', &mut raw)
            .map_err(failed)?;
        if !raw.ends_with(b"\n") {
            return Err(Error::other(if raw.len() as u64 >= MAX_LINE {
                format!("redis: a reply line longer than {MAX_LINE} bytes")
            } else {
                "redis: the server closed the connection mid-reply".into()
            }));
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim_end();
        let (tag, rest) = line.split_at(line.len().min(1));
        match tag {
            "+" => Ok(Reply::Status(rest.into())),
            "-" => Err(Error::other(format!("redis error: {rest}"))),
            ":" => rest
                .parse()
                .map(Reply::Int)
                .map_err(|_| Error::other(format!("redis: bad integer {line:?}"))),
            "$" => {
                let len: i64 = rest
                    .parse()
                    .map_err(|_| Error::other(format!("redis: bad length {line:?}")))?;
                if len < 0 {
                    return Ok(Reply::Bulk(None));
                }
                if len > MAX_BULK {
                    return Err(Error::other(format!(
                        "redis: a bulk reply of {len} bytes (more than the {MAX_BULK} taken)"
                    )));
                }
                let mut buf = vec![0u8; len as usize + 2];
                self.r.read_exact(&mut buf).map_err(failed)?;
                buf.truncate(len as usize);
                Ok(Reply::Bulk(Some(buf)))
            }
            _ => Err(Error::other(format!("redis: unexpected reply {line:?}"))),
        }
    }

    /// PFADD in batches of 1,000 elements.
    pub fn pfadd(&mut self, key: &str, elements: &[Vec<u8>]) -> Result<(), Error> {
        for chunk in elements.chunks(1000) {
            let mut args: Vec<&[u8]> = vec![b"PFADD", key.as_bytes()];
            args.extend(chunk.iter().map(|e| e.as_slice()));
            self.call(&args)?;
        }
        Ok(())
    }

    pub fn pfcount(&mut self, key: &str) -> Result<u64, Error> {
        match self.call(&[b"PFCOUNT", key.as_bytes()])? {
            Reply::Int(n) if n >= 0 => Ok(n as u64),
            r => Err(Error::other(format!("PFCOUNT: unexpected reply {r:?}"))),
        }
    }

    pub fn del(&mut self, key: &str) -> Result<(), Error> {
        self.call(&[b"DEL", key.as_bytes()]).map(|_| ())
    }

    /// The server's `redis_version` (from INFO server).
    pub fn version(&mut self) -> Result<String, Error> {
        match self.call(&[b"INFO", b"server"])? {
            Reply::Bulk(Some(b)) => String::from_utf8_lossy(&b)
                .lines()
                .find_map(|l| l.strip_prefix("redis_version:").map(str::to_string))
                .ok_or_else(|| Error::other("INFO server: no redis_version")),
            r => Err(Error::other(format!("INFO: unexpected reply {r:?}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        assert_eq!(address("redis://127.0.0.1:6379").unwrap(), "127.0.0.1:6379");
        assert_eq!(address("localhost:7000/").unwrap(), "localhost:7000");
        assert!(address("redis://nohost").is_err() && address(":1").is_err());
        assert!(address("http://127.0.0.1:6379").is_err());
    }

    /// A hostile server: a bulk length near 2^63, one of 4·10^9, a line
    /// that never ends, a connection closed mid-reply. Each is an error in
    /// one line (exit 1), allocating nothing of what it announces.
    #[test]
    fn a_hostile_server_is_an_error_not_an_allocation() {
        let endless = vec![b'x'; 200 << 10];
        let replies: Vec<Vec<u8>> = vec![
            b"$9223372036854775806\r\n".to_vec(),
            b"$4000000000\r\n".to_vec(),
            endless,
            b"$10\r\nabc".to_vec(),
        ];
        for reply in replies {
            let l = TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = l.local_addr().unwrap().to_string();
            let server = std::thread::spawn(move || {
                let (mut s, _) = l.accept().unwrap();
                let mut buf = [0u8; 256];
                let _ = s.read(&mut buf);
                let _ = s.write_all(&reply);
                // closed when dropped
            });
            let mut c = Conn::open(&addr).unwrap();
            let e = c.call(&[b"PING"]).unwrap_err();
            assert_eq!(e.exit_code(), 1, "{e}");
            assert_eq!(e.to_string().lines().count(), 1, "{e}");
            server.join().unwrap();
        }
    }
}
