//! The memory hierarchy of the machine a run is on: its cache sizes (from
//! `/sys`, where Linux publishes them) and what one load costs at a given
//! working-set size, dependent (latency: each address comes from the load
//! before) or independent (the cost per load when the core overlaps them).

use rand::RngExt;
use std::hint::black_box;
use std::time::Instant;

/// Data-cache sizes in bytes (0 where the machine does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caches {
    pub l1d: u64,
    pub l2: u64,
    pub l3: u64,
}

impl Caches {
    /// The smallest level a working set of `bytes` fits in: "L1", "L2", "L3"
    /// or "DRAM" ("?" when the sizes are unknown).
    pub fn level(&self, bytes: u64) -> &'static str {
        if self.l1d == 0 && self.l2 == 0 && self.l3 == 0 {
            return "?";
        }
        if bytes <= self.l1d {
            "L1"
        } else if bytes <= self.l2 {
            "L2"
        } else if bytes <= self.l3 {
            "L3"
        } else {
            "DRAM"
        }
    }
}

/// "48K", "1024K", "32M", "65536" → bytes.
pub fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1u64 << 10),
        'M' | 'm' => (&s[..s.len() - 1], 1 << 20),
        'G' | 'g' => (&s[..s.len() - 1], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(mult)
}

/// The caches of cpu0 from `/sys/devices/system/cpu/cpu0/cache/index*`
/// (data and unified caches only); zeros where the directory is missing.
pub fn caches() -> Caches {
    caches_from(std::path::Path::new("/sys/devices/system/cpu/cpu0/cache"))
}

fn caches_from(dir: &std::path::Path) -> Caches {
    let mut c = Caches::default();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return c;
    };
    for e in entries.flatten() {
        let p = e.path();
        if !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("index"))
        {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(p.join(f)).unwrap_or_default();
        if read("type").trim() == "Instruction" {
            continue;
        }
        let Some(size) = parse_size(&read("size")) else {
            continue;
        };
        match read("level").trim() {
            "1" => c.l1d = size,
            "2" => c.l2 = size,
            "3" => c.l3 = size,
            _ => {}
        }
    }
    c
}

/// One 64-byte line; word 0 holds the index of the next line of the cycle.
#[repr(align(64))]
#[derive(Clone, Copy)]
struct Line([u64; 8]);

/// A working set of `bytes` (whole lines, at least two) linked into one
/// random cycle, and random line indices for independent loads.
pub struct LoadProbe {
    lines: Vec<Line>,
    indices: Vec<u32>,
}

impl LoadProbe {
    /// `loads` random line indices are drawn for [`Self::independent_ns`].
    pub fn new(bytes: u64, loads: usize, rng: &mut impl rand::Rng) -> Self {
        let n = (bytes / 64).clamp(2, u32::MAX as u64) as usize;
        // Sattolo's shuffle: one cycle through every line, in random order
        let mut order: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            let j = rng.random_range(0..i);
            order.swap(i, j);
        }
        let mut lines = vec![Line([0; 8]); n];
        for (i, &next) in order.iter().enumerate() {
            lines[i].0[0] = next as u64;
        }
        let indices = (0..loads).map(|_| rng.random_range(0..n as u32)).collect();
        LoadProbe { lines, indices }
    }

    pub fn bytes(&self) -> u64 {
        self.lines.len() as u64 * 64
    }

    /// ns per load when each address is the value of the previous load.
    pub fn latency_ns(&self, steps: usize) -> f64 {
        let mut i = 0usize;
        // warm: one lap or `steps`, whichever is shorter
        for _ in 0..self.lines.len().min(steps) {
            i = self.lines[i].0[0] as usize;
        }
        let t = Instant::now();
        for _ in 0..steps {
            i = black_box(self.lines[i].0[0]) as usize;
        }
        let ns = t.elapsed().as_nanos() as f64 / steps as f64;
        black_box(i);
        ns
    }

    /// ns per load of the random lines drawn at construction, which do not
    /// depend on each other (the core overlaps their misses).
    pub fn independent_ns(&self) -> f64 {
        let t = Instant::now();
        let mut acc = 0u64;
        for &j in &self.indices {
            acc = acc.wrapping_add(self.lines[j as usize].0[0]);
        }
        black_box(acc);
        t.elapsed().as_nanos() as f64 / self.indices.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("32768K\n"), Some(32 << 20));
        assert_eq!(parse_size("2M"), Some(2 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("K"), None);
        assert_eq!(parse_size(""), None);
    }

    #[test]
    fn levels_follow_the_sizes() {
        let c = Caches {
            l1d: 48 << 10,
            l2: 1 << 20,
            l3: 32 << 20,
        };
        assert_eq!(c.level(1000), "L1");
        assert_eq!(c.level(48 << 10), "L1");
        assert_eq!(c.level((48 << 10) + 1), "L2");
        assert_eq!(c.level(10 << 20), "L3");
        assert_eq!(c.level(100 << 20), "DRAM");
        assert_eq!(Caches::default().level(1), "?");
    }

    #[test]
    fn sys_layout_is_read() {
        let d = std::env::temp_dir().join(format!("sketchlab-caches-{}", std::process::id()));
        for (i, level, ty, size) in [
            (0, "1", "Data", "32K"),
            (1, "1", "Instruction", "64K"),
            (2, "2", "Unified", "512K"),
            (3, "3", "Unified", "16384K"),
        ] {
            let p = d.join(format!("index{i}"));
            std::fs::create_dir_all(&p).unwrap();
            std::fs::write(p.join("level"), format!("{level}\n")).unwrap();
            std::fs::write(p.join("type"), format!("{ty}\n")).unwrap();
            std::fs::write(p.join("size"), format!("{size}\n")).unwrap();
        }
        let c = caches_from(&d);
        std::fs::remove_dir_all(&d).unwrap();
        assert_eq!(
            c,
            Caches {
                l1d: 32 << 10,
                l2: 512 << 10,
                l3: 16 << 20
            }
        );
        assert_eq!(caches_from(&d), Caches::default());
    }

    #[test]
    fn the_chase_visits_every_line_once_per_lap() {
        let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(1);
        let p = LoadProbe::new(64 * 1000, 10, &mut rng);
        assert_eq!(p.bytes(), 64_000);
        let mut seen = vec![false; 1000];
        let mut i = 0usize;
        for _ in 0..1000 {
            assert!(!seen[i], "line {i} visited twice in one lap");
            seen[i] = true;
            i = p.lines[i].0[0] as usize;
        }
        assert_eq!(i, 0);
        assert!(seen.iter().all(|&s| s));
        assert!(p.latency_ns(100) > 0.0 && p.independent_ns() > 0.0);
    }
}
