//! JSON run records: one line per run appended to `results/runs/<config>.jsonl`
//! (git-ignored), and the same record for `mkc cluster --report`.

use crate::methods::Outcome;
use crate::metric::Scores;
use crate::params::ParamSet;
use mkc_core::{Error, Result};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::Path;

/// The mkc version written into every record.
pub const MKC_VERSION: &str = env!("CARGO_PKG_VERSION");

/// One run.
#[derive(Debug, Clone, Serialize)]
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
    pub weights: Option<Vec<f64>>,
    /// Objective per iteration.
    pub objective: Vec<f64>,
    /// Iterations.
    pub iterations: usize,
    /// Diagnostics.
    pub diagnostics: Vec<(String, f64)>,
    /// Wall-clock seconds.
    pub wall_time_s: f64,
    /// Error text of a failed run.
    pub error: Option<String>,
    /// mkc version.
    pub mkc_version: &'static str,
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
            base_seed: 0,
            restart: 0,
            seed: 0,
            n: 0,
            n_clusters: 0,
            metrics: None,
            weights: None,
            objective: vec![],
            iterations: 0,
            diagnostics: vec![],
            wall_time_s: 0.0,
            error: None,
            mkc_version: MKC_VERSION,
        }
    }
}

impl RunRecord {
    /// Copy what a run produced (weights, objective trace, iterations, diagnostics).
    pub fn set_outcome(&mut self, o: &Outcome) {
        self.weights = o.weights.clone();
        self.objective = o.objective.clone();
        self.iterations = o.iterations;
        self.diagnostics = o.diagnostics.clone();
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
