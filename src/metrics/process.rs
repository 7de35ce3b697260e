//! The process's own memory as the kernel reports it (Linux `/proc`), for
//! manifests and for `plan`'s check against the machine.

/// A `kB` field of `/proc/self/status` (e.g. `VmHWM`, the peak resident set), in bytes.
fn status_kb(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_kb(&text, field)
}

fn parse_kb(text: &str, field: &str) -> Option<u64> {
    text.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
}

/// Peak resident set size of this process so far (None off Linux).
pub fn peak_rss_bytes() -> Option<u64> {
    status_kb("VmHWM")
}

/// Current resident set size of this process.
pub fn rss_bytes() -> Option<u64> {
    status_kb("VmRSS")
}

/// The machine's memory (`MemTotal`), or the cgroup limit when one is lower.
pub fn total_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let total = parse_kb(&meminfo, "MemTotal")?;
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    Some(cgroup.map_or(total, |limit| total.min(limit)))
}

/// Memory the machine can give a new allocation now (`MemAvailable`), and
/// the cgroup limit when one is lower.
pub fn available_bytes() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let avail = parse_kb(&meminfo, "MemAvailable")?;
    let cgroup = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok());
    let used = std::fs::read_to_string("/sys/fs/cgroup/memory.current")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(0);
    let avail = match cgroup {
        Some(limit) => avail.min(limit.saturating_sub(used)),
        None => avail,
    };
    // `ulimit -v`: what this process's address space may still grow by
    Some(match address_space_left() {
        Some(left) => avail.min(left),
        None => avail,
    })
}

/// The address space this process may still map under its `RLIMIT_AS`
/// (`ulimit -v`), or None when unlimited.
pub fn address_space_left() -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0
        || lim.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let mapped = status_kb("VmSize").unwrap_or(0);
    Some(lim.rlim_cur.saturating_sub(mapped))
}

/// The one-minute load average (`/proc/loadavg`; None off Linux).
pub fn load_average() -> Option<f64> {
    std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The cores this process may run on (1 when unknown).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_kb_fields() {
        let t = "Name:\tx\nVmHWM:\t  2048 kB\nVmRSS:\t1024 kB\n";
        assert_eq!(parse_kb(t, "VmHWM"), Some(2048 * 1024));
        assert_eq!(parse_kb(t, "VmRSS"), Some(1024 * 1024));
        assert_eq!(parse_kb(t, "VmSwap"), None);
        if cfg!(target_os = "linux") {
            // the current RSS first: the peak read after it can only be
            // larger, whatever other test threads allocate in between
            let now = rss_bytes().unwrap();
            let peak = peak_rss_bytes().unwrap();
            assert!(peak >= now && peak > 0);
            assert!(available_bytes().unwrap() > 0);
        }
    }
}
