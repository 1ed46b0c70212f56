//! JSON run records: one line per run appended to `results/runs/<config>.jsonl`
//! (git-ignored), and the same record for `mkc cluster --report`.
//!
//! Fields added after the first records were written (`converged`, `phases`) have serde
//! defaults, so older lines still load (and [`crate::resume`] still reuses them). A
//! non-finite number is written as `null` (JSON has no NaN) and read back as NaN.

use crate::methods::Outcome;
use crate::metric::Scores;
use crate::params::ParamSet;
use mkc_core::{Error, Result};
use serde::{Deserialize, Deserializer, Serialize};
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// The mkc version written into every record.
pub const MKC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// sha256 of the config text (first 16 hex digits); empty for CLI runs without config.
    pub config_hash: String,
    /// Config name.
    pub config: String,
    /// Profile (`quick` / `full` / `cli`).
    pub profile: String,
    /// Table id(s), comma-separated when columns of several tables share the runs.
    pub table: String,
    /// Column id(s), comma-separated when several columns share the runs.
    pub column: String,
    /// Dataset key.
    pub dataset: String,
    /// Method name.
    pub method: String,
    /// All parameters.
    pub params: ParamSet,
    /// Kernel index and name for single-kernel methods.
    pub kernel: Option<(usize, String)>,
    /// The recipe the kernels were built with when it is not the dataset row's own (a
    /// column's `row_recipes`); absent from the line otherwise, so records of runs on the
    /// row's own recipe read and write as before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recipe: Option<String>,
    /// Base seed.
    pub base_seed: u64,
    /// Restart index.
    pub restart: usize,
    /// The run's seed (`derive(base_seed, restart)`).
    pub seed: u64,
    /// Number of samples.
    pub n: usize,
    /// Number of clusters.
    pub n_clusters: usize,
    /// Scores (None when the truth is unknown or the run failed).
    pub metrics: Option<Scores>,
    /// Learned kernel weights.
    #[serde(deserialize_with = "nullable_floats")]
    pub weights: Option<Vec<f64>>,
    /// Objective per iteration.
    #[serde(deserialize_with = "nullable_floats")]
    pub objective: Vec<f64>,
    /// Iterations.
    pub iterations: usize,
    /// Whether the method's stopping rule was met (`false` in records older than the
    /// field, and for failed runs).
    #[serde(default)]
    pub converged: bool,
    /// Diagnostics.
    #[serde(deserialize_with = "nullable_floats")]
    pub diagnostics: Vec<(String, f64)>,
    /// Wall-clock seconds.
    pub wall_time_s: f64,
    /// Wall-clock seconds by phase of the method (e.g. `("svm", 1.2)`); empty in records
    /// older than the field and for methods that time no phases.
    #[serde(default, deserialize_with = "nullable_floats")]
    pub phases: Vec<(String, f64)>,
    /// Error text of a failed run.
    pub error: Option<String>,
    /// mkc version.
    pub mkc_version: String,
}

/// Numbers that may be `null` (a non-finite value when written) read back as NaN.
fn nullable_floats<'de, D, T>(d: D) -> std::result::Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromFloats,
{
    T::from_floats(Deserialize::deserialize(d)?)
}

/// Float lists with `null` entries (see [`nullable_floats`]).
trait FromFloats: Sized {
    type Raw: for<'de> Deserialize<'de>;
    fn from_floats<E>(raw: Self::Raw) -> std::result::Result<Self, E>;
}

fn nan_for_null(v: Vec<Option<f64>>) -> Vec<f64> {
    v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect()
}

impl FromFloats for Vec<f64> {
    type Raw = Vec<Option<f64>>;
    fn from_floats<E>(raw: Self::Raw) -> std::result::Result<Self, E> {
        Ok(nan_for_null(raw))
    }
}

impl FromFloats for Vec<(String, f64)> {
    type Raw = Vec<(String, Option<f64>)>;
    fn from_floats<E>(raw: Self::Raw) -> std::result::Result<Self, E> {
        Ok(raw
            .into_iter()
            .map(|(k, v)| (k, v.unwrap_or(f64::NAN)))
            .collect())
    }
}

impl FromFloats for Option<Vec<f64>> {
    type Raw = Option<Vec<Option<f64>>>;
    fn from_floats<E>(raw: Self::Raw) -> std::result::Result<Self, E> {
        Ok(raw.map(nan_for_null))
    }
}

impl Default for RunRecord {
    /// An empty record of this mkc version.
    fn default() -> Self {
        RunRecord {
            config_hash: String::new(),
            config: String::new(),
            profile: String::new(),
            table: String::new(),
            column: String::new(),
            dataset: String::new(),
            method: String::new(),
            params: ParamSet::default(),
            kernel: None,
            recipe: None,
            base_seed: 0,
            restart: 0,
            seed: 0,
            n: 0,
            n_clusters: 0,
            metrics: None,
            weights: None,
            objective: vec![],
            iterations: 0,
            converged: false,
            diagnostics: vec![],
            wall_time_s: 0.0,
            phases: vec![],
            error: None,
            mkc_version: MKC_VERSION.to_string(),
        }
    }
}

impl RunRecord {
    /// Copy what a run produced (weights, objective trace, iterations, convergence,
    /// diagnostics, phase timings).
    pub fn set_outcome(&mut self, o: &Outcome) {
        self.weights = o.weights.clone();
        self.objective = o.objective.clone();
        self.iterations = o.iterations;
        self.converged = o.converged;
        self.diagnostics = o.diagnostics.clone();
        self.phases = o.phases.clone();
    }
}

/// First 16 hex digits of sha256(text).
pub fn config_hash(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    d.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// Append records as JSON lines to `path` (directories are created).
pub fn append(path: &Path, records: &[RunRecord]) -> Result<()> {
    if records.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let mut buf = String::new();
    for r in records {
        let line =
            serde_json::to_string(r).map_err(|e| Error::input("run record", e.to_string()))?;
        buf.push_str(&line);
        buf.push('\n');
    }
    f.write_all(buf.as_bytes()).map_err(|e| Error::io(path, e))
}

/// The lines of a JSON-lines file that parse as `T` and the number of lines read; a
/// missing file has none. Unparsable lines (a killed run's half line) are skipped.
pub fn read_lines<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<(Vec<T>, usize)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((vec![], 0)),
        Err(e) => return Err(Error::io(path, e)),
    };
    let lines = text.lines().count();
    let parsed = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Ok((parsed, lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_with_non_finite_numbers() {
        let mut r = RunRecord {
            method: "kkm".into(),
            objective: vec![3.0, f64::NAN, 1.0],
            weights: Some(vec![0.5, f64::INFINITY]),
            diagnostics: vec![("gap".into(), f64::NAN)],
            converged: true,
            phases: vec![("svm".into(), 0.25)],
            ..RunRecord::default()
        };
        let line = serde_json::to_string(&r).unwrap();
        let back: RunRecord = serde_json::from_str(&line).unwrap();
        assert!(back.objective[1].is_nan() && back.weights.as_ref().unwrap()[1].is_nan());
        assert!(back.diagnostics[0].1.is_nan());
        // NaN != NaN: compare the rest with the non-finite entries replaced.
        r.objective[1] = 0.0;
        r.weights = Some(vec![0.5, 0.0]);
        r.diagnostics[0].1 = 0.0;
        let mut back = back;
        back.objective[1] = 0.0;
        back.weights = Some(vec![0.5, 0.0]);
        back.diagnostics[0].1 = 0.0;
        assert_eq!(back, r);
    }

    #[test]
    fn a_record_without_the_newer_fields_loads_with_their_defaults() {
        let mut v = serde_json::to_value(RunRecord {
            converged: true,
            phases: vec![("eig".into(), 1.0)],
            ..RunRecord::default()
        })
        .unwrap();
        let obj = v.as_object_mut().unwrap();
        obj.remove("converged");
        obj.remove("phases");
        let old: RunRecord = serde_json::from_value(v).unwrap();
        assert!(!old.converged && old.phases.is_empty());
        assert_eq!(old.mkc_version, MKC_VERSION);
    }
}
