//! Generator lines: how a keys file holds a trial's complete key set when it
//! is too large to list. `@generate kind=K seed=S keys=N xxh3=D params={…}`
//! names the kind, the trial seed and parameters that produced the keys, how
//! many there are and a digest of them; `sketchlab keys expand` calls the
//! kind's [`Kind::keys`](super::kinds::Kind::keys) again and checks the count
//! and digest, so a replay gets exactly the keys the trial used (or an error
//! saying the code that made them has changed).

use super::kinds::{self, Kind};
use super::params::{Params, Seeds};
use crate::table::Value;

pub const PREFIX: &str = "@generate ";

/// xxh3-64 over the keys, each as its length (u64 LE) then its bytes.
pub fn digest(keys: &[Vec<u8>]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for k in keys {
        h.update(&(k.len() as u64).to_le_bytes());
        h.update(k);
    }
    h.digest()
}

/// The line that regenerates `keys`.
pub fn generator_line(kind: &str, seed: u64, keys: &[Vec<u8>], params: &Params) -> String {
    let inline: Vec<String> = params
        .0
        .iter()
        .map(|(n, v)| format!("{n} = {}", v.toml_repr()))
        .collect();
    format!(
        "{PREFIX}kind={kind} seed={seed:016x} keys={} xxh3={:016x} params={{ {} }}",
        keys.len(),
        digest(keys),
        inline.join(", ")
    )
}

/// The keys a generator line stands for, checked against its count and digest.
pub fn expand_line(line: &str) -> crate::error::Result<Vec<Vec<u8>>> {
    use crate::error::Error;
    let bad = |why: &str| Error::input(format!("generator line: {why}: {line}"));
    let rest = line
        .strip_prefix(PREFIX)
        .ok_or_else(|| bad("no @generate"))?;
    let (head, params) = rest
        .split_once(" params=")
        .ok_or_else(|| bad("no params"))?;
    let field = |name: &str| {
        head.split(' ')
            .find_map(|f| f.strip_prefix(&format!("{name}=")))
            .ok_or_else(|| bad(&format!("no {name}")))
    };
    let kind: &dyn Kind = kinds::find(field("kind")?).ok_or_else(|| bad("unknown kind"))?;
    let hex = |name: &str| {
        u64::from_str_radix(field(name)?, 16).map_err(|_| bad(&format!("{name} is not hex")))
    };
    let (seed, want) = (hex("seed")?, hex("xxh3")?);
    let count: usize = field("keys")?
        .parse()
        .map_err(|_| bad("keys is not a count"))?;
    let table: toml::Table = toml::from_str(&format!("p = {params}"))
        .map_err(|e| bad(&format!("params: {}", e.message())))?;
    let given = table["p"].as_table().ok_or_else(|| bad("params"))?;
    let mut values = Vec::new();
    for d in kind.params() {
        let item = given
            .get(d.name)
            .ok_or_else(|| bad(&format!("parameter {} missing", d.name)))?;
        let v = Value::from_toml(item).ok_or_else(|| bad(d.name))?;
        let v = d
            .validate(&v)
            .map_err(|why| bad(&format!("{} {why}", d.name)))?;
        values.push((d.name, v));
    }
    // what regenerating holds, bounded before anything is allocated: the
    // trial's own peak estimate (`plan`'s), and the listed keys at 48 bytes
    // each at least (a line may claim few keys with parameters for many)
    let params = Params(values);
    let peak = kind.footprint(&params).map_or(0.0, |f| f.peak_bytes);
    let need = peak.max(count as f64 * 48.0);
    let bound = crate::input::table_bound();
    if need > bound as f64 {
        return Err(bad(&format!(
            "regenerating these keys would hold about {} (the trial's planned peak), over the bound of {} (raise it with --max-input-bytes)",
            crate::input::size_words(need as u64),
            crate::input::size_words(bound)
        )));
    }
    let keys = kind
        .keys(&params, Seeds(seed))
        .map_err(|e| bad(&format!("{e:#}")))?
        .ok_or_else(|| bad("the kind writes no keys"))?;
    if keys.len() != count || digest(&keys) != want {
        return Err(Error::input(format!(
            "generator line: this build regenerates {} keys with digest {:016x}, the file says {count} with {want:016x}: the code that crafted them changed since the file was written (run the study again with this build)",
            keys.len(),
            digest(&keys)
        )));
    }
    Ok(keys)
}

/// Every key of a keys file (or of one trial, `# trial ID` as hex), as hex
/// lines: listed keys as they are, generator lines expanded.
pub fn expand_file(text: &str, trial: Option<u64>) -> crate::error::Result<Vec<String>> {
    use crate::error::Error;
    let mut out = Vec::new();
    let mut current: Option<u64> = None;
    let mut found = trial.is_none();
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("# trial ") {
            let id = rest.split(' ').next().unwrap_or("");
            current = u64::from_str_radix(id, 16).ok();
            found |= trial.is_some() && current == trial;
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if trial.is_some() && current != trial {
            continue;
        }
        if line.starts_with(PREFIX) {
            let keys =
                expand_line(line).map_err(|e| Error::input(format!("line {}: {e}", i + 1)))?;
            out.extend(keys.iter().map(|k| crate::attack::hex(k)));
        } else {
            out.push(line.to_string());
        }
    }
    if !found {
        return Err(Error::input(format!(
            "no trial {:016x} in the file (its `# trial ID` lines name them)",
            trial.unwrap_or(0)
        )));
    }
    Ok(out)
}
