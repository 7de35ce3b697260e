//! CRC32 forgery: CRC32 is affine over GF(2) in its input bits, so for any
//! message, four appended bytes can be solved for that give any chosen
//! CRC32 (32 equations, 32 unknowns, Gaussian elimination). No search.

/// zlib's CRC32 (crc32fast).
pub fn crc32(data: &[u8]) -> u32 {
    crc32fast::hash(data)
}

/// `prefix` followed by four bytes chosen so that the whole has CRC32 `target`.
pub fn forge(prefix: &[u8], target: u32) -> Vec<u8> {
    let with = |x: u32| {
        let mut m = prefix.to_vec();
        m.extend_from_slice(&x.to_le_bytes());
        crc32(&m)
    };
    // crc(prefix || x) = b ^ A·x with column i of A = crc(prefix || e_i) ^ b
    let b = with(0);
    let cols: Vec<u32> = (0..32).map(|i| with(1 << i) ^ b).collect();
    let want = target ^ b;
    // solve A x = want: rows are output bits, unknowns are the 32 input bits
    let mut rows: Vec<(u32, bool)> = (0..32)
        .map(|r| {
            let coeffs = (0..32).fold(0u32, |acc, i| acc | (((cols[i] >> r) & 1) << i));
            (coeffs, (want >> r) & 1 == 1)
        })
        .collect();
    let mut pivot_row = 0;
    let mut pivots = Vec::new();
    for col in 0..32 {
        let Some(p) = (pivot_row..32).find(|&r| rows[r].0 >> col & 1 == 1) else {
            continue;
        };
        rows.swap(pivot_row, p);
        for r in 0..32 {
            if r != pivot_row && rows[r].0 >> col & 1 == 1 {
                let (c, v) = rows[pivot_row];
                rows[r].0 ^= c;
                rows[r].1 ^= v;
            }
        }
        pivots.push(col);
        pivot_row += 1;
    }
    assert_eq!(
        pivots.len(),
        32,
        "CRC32 of four appended bytes is a bijection"
    );
    let x = pivots
        .iter()
        .enumerate()
        .fold(0u32, |acc, (r, &col)| acc | ((rows[r].1 as u32) << col));
    let mut m = prefix.to_vec();
    m.extend_from_slice(&x.to_le_bytes());
    m
}

/// Random inputs after which two share a CRC32 with probability 1/2, the
/// birthday bound sqrt(2 ln 2 * 2^32) ~ 77,163 (the document's figure).
pub fn birthday_median() -> f64 {
    (2.0 * std::f64::consts::LN_2 * 2f64.powi(32)).sqrt()
}

/// The expected number of random inputs until the first shared CRC32,
/// sqrt(pi/2 * 2^32) + 2/3 ~ 82,137 (Knuth's Q(n) + 1).
pub fn birthday_mean() -> f64 {
    (std::f64::consts::FRAC_PI_2 * 2f64.powi(32)).sqrt() + 2.0 / 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forged_inputs_have_the_chosen_crc() {
        let original = b"the original file's contents, byte for byte\n";
        let target = crc32(original);
        for prefix in [
            &b""[..],
            b"x",
            b"an attacker's different text",
            &[0u8; 1000],
        ] {
            let f = forge(prefix, target);
            assert_eq!(crc32(&f), target);
            assert_eq!(&f[..prefix.len()], prefix);
        }
        assert_eq!(crc32(&forge(b"abc", 0xdead_beef)), 0xdead_beef);
        assert_eq!(birthday_median().round(), 77_163.0);
        assert!((birthday_mean() - 82_137.0).abs() < 1.0);
    }
}
