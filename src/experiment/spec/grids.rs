//! A spec's `[grid]` and `[quick]`: each parameter's values against the
//! kind's declarations, replicates, the settings `except` skips, the trial
//! cap, and each trial's checks.

use super::*;

/// The study's grids: `[grid]` and `[quick]` against the kind's
/// parameters, replicates, the trial cap, and each trial's own checks.
pub(super) struct Grids {
    pub(super) grid: Vec<(&'static str, Vec<Value>)>,
    pub(super) quick_grid: Vec<(&'static str, Vec<Value>)>,
    pub(super) replicates: u32,
    pub(super) quick_replicates: u32,
    /// The settings each grid skips ([grid], [quick]).
    pub(super) except: [Except; 2],
    /// What a key file set in place of a default, per grid ([grid], [quick]).
    pub(super) derived: [Option<String>; 2],
}

pub(super) fn grids(
    path: &Path,
    kind: &'static dyn Kind,
    raw_grid: toml::Table,
    raw_quick: Option<toml::Table>,
) -> Result<Grids> {
    let fe = |field: &str, value: &str, allowed: &str| Error::field(path, field, value, allowed);
    if raw_grid.is_empty() {
        return Err(fe("grid", "{}", "must set at least one parameter"));
    }
    let mut raw_grid = raw_grid;
    let replicates = take_replicates(path, "grid", &mut raw_grid)?.unwrap_or(1);
    let raw_except = raw_grid.remove(EXCEPT);
    let mut grid = validate_grid(path, kind, "grid", &raw_grid, None)?;
    let mut raw_quick = raw_quick;
    let raw_quick_except = raw_quick.as_mut().and_then(|q| q.remove(EXCEPT));
    let quick_replicates = match raw_quick.as_mut() {
        Some(q) => take_replicates(path, "quick", q)?.unwrap_or(replicates),
        None => replicates,
    };
    for (table, r) in [("grid", replicates), ("quick", quick_replicates)] {
        if r < kind.min_replicates() {
            return Err(fe(
                &format!("{table}.replicates"),
                &r.to_string(),
                &format!(
                    "kind {} needs replicates >= {} (its charts and claims read the summary)",
                    kind.name(),
                    kind.min_replicates()
                ),
            ));
        }
    }
    let mut quick_grid = match &raw_quick {
        Some(q) => validate_grid(path, kind, "quick", q, Some(&grid))?,
        None => grid.clone(),
    };
    let except = match &raw_except {
        Some(e) => take_except(path, kind, "grid", e, &grid)?,
        None => Except::default(),
    };
    // [quick] keeps [grid]'s `except` unless it sets its own (an entry whose
    // values the quick grid does not run skips nothing there)
    let quick_except = match &raw_quick_except {
        Some(e) => take_except(path, kind, "quick", e, &quick_grid)?,
        None => except.clone(),
    };
    let set = [
        raw_grid.contains_key(QUERIES),
        raw_grid.contains_key(QUERIES)
            || raw_quick.as_ref().is_some_and(|q| q.contains_key(QUERIES)),
    ];
    let mut derived = [None, None];
    for (i, (table, g, r, skip)) in [
        ("grid", &mut grid, replicates, &except),
        ("quick", &mut quick_grid, quick_replicates, &quick_except),
    ]
    .into_iter()
    .enumerate()
    {
        let n = crate::experiment::grid::count_checked(g, r);
        if n > crate::experiment::grid::MAX_TRIALS {
            return Err(fe(
                table,
                &if n == u64::MAX {
                    "more than 2^64 trials".to_string()
                } else {
                    format!("{n} trials")
                },
                &format!(
                    "a study may have at most {} trials (the product of the list lengths and replicates)",
                    crate::experiment::grid::MAX_TRIALS
                ),
            ));
        }
        // only once the trials are known to be few enough to walk
        derived[i] = queries_from_files(kind, g, set[i]);
        check_trials(path, kind, g, skip)?;
        if crate::experiment::grid::count(g, skip, 1) == 0 {
            return Err(fe(
                &format!("{table}.{EXCEPT}"),
                &match skip.0.len() {
                    1 => "1 entry".to_string(),
                    n => format!("{n} entries"),
                },
                "skips every setting of the grid: a study must run at least one",
            ));
        }
    }
    Ok(Grids {
        grid,
        quick_grid,
        replicates,
        quick_replicates,
        except: [except, quick_except],
        derived,
    })
}

/// What a grid key that names no parameter of `kind` is told.
fn unknown_parameter(kind: &dyn Kind) -> String {
    let names: Vec<&str> = kind.params().iter().map(|d| d.name).collect();
    format!(
        "unknown parameter for kind {}; expected one of {}",
        kind.name(),
        names.join(", ")
    )
}

/// The key of a grid's skipped settings.
const EXCEPT: &str = "except";

/// `except = [{ n = 10_000_000, keys = "url100" }, …]`: each entry names
/// one value of some of the grid's parameters; a setting holding all of an
/// entry's values is not run. Every name must be a parameter of the kind and
/// every value one the grid runs (an entry that could skip nothing is a
/// mistake, refused like a claim that selects nothing).
fn take_except(
    path: &Path,
    kind: &'static dyn Kind,
    table: &str,
    raw: &toml::Value,
    grid: &[(&'static str, Vec<Value>)],
) -> Result<Except> {
    let shape = "an array of tables, each naming one value of some of the grid's parameters: except = [{ n = 10_000_000, keys = \"url100\" }]";
    let field = format!("{table}.{EXCEPT}");
    let toml::Value::Array(entries) = raw else {
        return Err(Error::field(path, &field, &raw.to_string(), shape));
    };
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let field = format!("{field}[{i}]");
        let toml::Value::Table(t) = entry else {
            return Err(Error::field(path, &field, &entry.to_string(), shape));
        };
        if t.is_empty() {
            return Err(Error::field(path, &field, "{}", shape));
        }
        let mut skip = Vec::new();
        for (name, item) in t {
            let field = format!("{field}.{name}");
            let Some(def) = kind.params().iter().find(|d| d.name == name) else {
                return Err(Error::field(
                    path,
                    &field,
                    &item.to_string(),
                    &unknown_parameter(kind),
                ));
            };
            let v = checked(path, &field, def, item)?;
            let values = &grid
                .iter()
                .find(|(n, _)| *n == def.name)
                .expect("every parameter is in the grid")
                .1;
            if !values.contains(&v) {
                return Err(Error::field(
                    path,
                    &field,
                    &v.toml_repr(),
                    &format!(
                        "is not a value [{table}] runs ({}): the entry would skip nothing",
                        values
                            .iter()
                            .map(|x| x.toml_repr())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
            skip.push((def.name, v));
        }
        out.push(skip);
    }
    Ok(Except(out))
}

/// The parameter a key file's length can bound: the absent keys a trial queries.
const QUERIES: &str = "queries";

/// When the spec leaves `queries` at the kind's default and a trial draws
/// its keys from a file, `queries` becomes what the smallest such file
/// leaves after each trial's members (if fewer than the default), one value
/// for the whole grid so that every key source answers as many queries.
/// Returns the sentence the manifest records, `None` when nothing changed
/// (a file too short even for the members is refused by the trial checks).
fn queries_from_files(
    kind: &'static dyn Kind,
    grid: &mut [(&'static str, Vec<Value>)],
    set_by_spec: bool,
) -> Option<String> {
    use crate::experiment::params::{PType, key_file_of};
    if set_by_spec {
        return None;
    }
    let at = grid.iter().position(|(n, _)| *n == QUERIES)?;
    let [Value::Int(default)] = grid[at].1[..] else {
        return None;
    };
    let keys: Vec<&str> = kind
        .params()
        .iter()
        .filter(|d| matches!(d.ty, PType::Keys))
        .map(|d| d.name)
        .collect();
    let any_file = grid
        .iter()
        .any(|(n, vs)| keys.contains(n) && vs.iter().any(|v| key_file_of(v).is_some()));
    if !any_file {
        return None;
    }
    // the fewest queries any file-drawing trial can have, and its file
    let mut least: Option<(u64, &crate::workload::file::KeyFile, u64)> = None;
    let _ = crate::experiment::grid::try_each_combination::<()>(grid, |p| {
        let Some(file) = keys.iter().find_map(|k| key_file_of(p.get(k))) else {
            return Ok(());
        };
        let mut p = p.clone();
        if let Some(v) = p.0.iter_mut().find(|(n, _)| *n == QUERIES) {
            v.1 = Value::Int(0);
        }
        let Some(members) = kind.key_ids(&p) else {
            return Ok(());
        };
        let room = file.len().saturating_sub(members);
        if least.is_none_or(|(r, _, _)| room < r) {
            least = Some((room, file, members));
        }
        Ok(())
    });
    let (room, file, members) = least?;
    if room == 0 || room >= default as u64 {
        return None;
    }
    grid[at].1 = vec![Value::Int(room as i64)];
    Some(format!(
        "queries = {room}: the kind's default {default} lowered to what key file {} leaves for absent keys ({} distinct keys, {members} members in its largest trial); set queries in the spec to choose",
        file.path,
        file.len()
    ))
}

/// Removes and checks the runner's `replicates` axis from a grid table.
fn take_replicates(path: &Path, table: &str, raw: &mut toml::Table) -> Result<Option<u32>> {
    let Some(v) = raw.remove("replicates") else {
        return Ok(None);
    };
    match v {
        toml::Value::Integer(i) if (1..=100_000).contains(&i) => Ok(Some(i as u32)),
        other => Err(Error::field(
            path,
            &format!("{table}.replicates"),
            &other.to_string(),
            "must be an integer in 1..=100000 (independent trials per setting)",
        )),
    }
}

/// Validates a `[grid]` (or `[quick]`, overriding `base`) table against the kind.
fn validate_grid(
    path: &Path,
    kind: &'static dyn Kind,
    table: &str,
    raw: &toml::Table,
    base: Option<&[(&'static str, Vec<Value>)]>,
) -> Result<Vec<(&'static str, Vec<Value>)>> {
    let defs = kind.params();
    for key in raw.keys() {
        if !defs.iter().any(|d| d.name == key) {
            return Err(Error::file(
                path,
                format!("{table}.{key}: {}", unknown_parameter(kind)),
            ));
        }
    }
    let mut out = Vec::new();
    for def in defs {
        let values = match raw.get(def.name) {
            Some(toml::Value::Array(items)) => {
                if items.is_empty() {
                    return Err(Error::field(
                        path,
                        &format!("{table}.{}", def.name),
                        "[]",
                        "must not be empty",
                    ));
                }
                let mut vs = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    let field = format!("{table}.{}[{i}]", def.name);
                    let v = checked(path, &field, def, item)?;
                    // a value twice would be two trials with one identity and seed
                    if let Some(j) = vs.iter().position(|w| *w == v) {
                        return Err(Error::field(
                            path,
                            &field,
                            &v.toml_repr(),
                            &format!("is already {}[{j}]: list each value once", def.name),
                        ));
                    }
                    vs.push(v);
                }
                vs
            }
            Some(item) => vec![checked(path, &format!("{table}.{}", def.name), def, item)?],
            None => match base {
                Some(b) => b.iter().find(|(n, _)| *n == def.name).unwrap().1.clone(),
                None => match def.default_value() {
                    Some(v) => vec![v],
                    None => {
                        return Err(Error::field(
                            path,
                            &format!("{table}.{}", def.name),
                            "(missing)",
                            &format!("required: {}", def.help),
                        ));
                    }
                },
            },
        };
        out.push((def.name, values));
    }
    Ok(out)
}

pub(super) fn checked(
    path: &Path,
    field: &str,
    def: &crate::experiment::params::ParamDef,
    item: &toml::Value,
) -> Result<Value> {
    if let (crate::experiment::params::PType::Keys, toml::Value::Table(t)) = (def.ty, item) {
        let v = key_file_value(t)
            .map_err(|e| Error::field(path, field, &item.to_string(), &e.allowed()))?;
        return def
            .validate(&v)
            .map_err(|e| Error::field(path, field, &v.toml_repr(), &e.allowed()));
    }
    let v = Value::from_toml(item).ok_or_else(|| {
        Error::field(
            path,
            field,
            &item.to_string(),
            "must be a number, string or boolean",
        )
    })?;
    def.validate(&v)
        .map_err(|e| Error::field(path, field, &v.toml_repr(), &e.allowed()))
}

/// `{ file = "PATH", format = "lines" | "hex" | "u64le" }` (format
/// defaults to `lines`) as the key type's name, `file:<format>:<path>`.
fn key_file_value(t: &toml::Table) -> Result<Value> {
    use crate::workload::file::{Format, canonical};
    let formats = Format::NAMES.join("\" | \"");
    let shape = format!("a key file is {{ file = \"PATH\", format = \"{formats}\" }}");
    if let Some(k) = t.keys().find(|k| !matches!(k.as_str(), "file" | "format")) {
        return Err(Error::input(format!("{shape}: unknown field {k:?}")));
    }
    let Some(toml::Value::String(file)) = t.get("file") else {
        return Err(Error::input(format!(
            "{shape}: `file` (a path) is required"
        )));
    };
    if file.is_empty() {
        return Err(Error::input(format!("{shape}: `file` is empty")));
    }
    let format = match t.get("format") {
        None => Format::Lines,
        Some(toml::Value::String(f)) => Format::from_name(f)
            .ok_or_else(|| Error::input(format!("{shape}: format {f:?} is not one of those")))?,
        Some(other) => {
            return Err(Error::input(format!(
                "{shape}: format {other} is not a string"
            )));
        }
    };
    Ok(Value::Str(canonical(file, format)))
}

fn check_trials(
    path: &Path,
    kind: &'static dyn Kind,
    grid: &[(&'static str, Vec<Value>)],
    except: &Except,
) -> Result<()> {
    crate::experiment::grid::try_each_combination(grid, |params| {
        if except.skips(params) {
            return Ok(());
        }
        kind.validate(params)
            .map_err(|e| e.in_file(path, "grid.", |field| params.get(field).toml_repr()))
    })
}
