//! Where a reproduction's time goes, from its run records alone (nothing is run).
//!
//! Every run record ([`crate::record`]) carries the run's own wall time and, for methods
//! that time them, its phases (`"svm"`, `"eigensolve"`, `"kmeans"`, …, named by each
//! method). [`ConfigTimings::from_records`] keeps the last record of every run (the
//! identity [`crate::resume`] uses: profile, dataset, method, parameters, kernel, base
//! seed and restart) and sums them per profile, per table, per method and per phase,
//! per dataset, and per job (all restarts of one grid point on one kernel);
//! [`markdown`] renders the sums as the `results/timings.md` that
//! `cargo xtask reproduce --timings` writes.
//!
//! What the sums mean:
//! - **run-seconds** add up the runs' own wall times. Jobs and restarts run in parallel,
//!   so a plan's wall time on two cores is roughly half its run-seconds when the
//!   machine is otherwise idle (and the records may come from a loaded machine).
//! - A run shared by columns of several tables (its record's `table` lists them, e.g.
//!   `table1,table3`) counts an equal share towards each distinct table.
//! - `other` is a run's wall time minus its timed phases (scoring is not in either).
//!   Restarts that share work (weights learned once, then k-means per seed) record the
//!   shared phases in full in every restart but only an equal share of them in its wall
//!   time; when a run's phases exceed its wall time they are scaled down to it, so that
//!   phase sums add up to the run-seconds.
//! - Kernel construction happens once per dataset, outside every run. The runner
//!   appends its time to `results/runs/<config>.kernels.jsonl` ([`append_kernels`]);
//!   records written before that file existed have no kernel times.

mod markdown;
#[cfg(test)]
mod tests;

pub use markdown::markdown;

use crate::dataset::Prepared;
use crate::record::{read_lines, RunRecord};
use mkc_core::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The time the runner took to load one dataset and build its kernels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelRecord {
    /// Profile (`quick` / `full`).
    pub profile: String,
    /// Dataset key.
    pub dataset: String,
    /// Number of samples.
    pub n: usize,
    /// Number of kernels built.
    pub kernels: usize,
    /// Wall-clock seconds of loading and kernel construction.
    pub seconds: f64,
}

/// The kernel-time file beside a run-records file (`rmkc.jsonl` → `rmkc.kernels.jsonl`).
pub fn kernels_path(records: &Path) -> PathBuf {
    let stem = records
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("runs");
    records.with_file_name(format!("{stem}.kernels.jsonl"))
}

/// Append the time dataset `data` took to prepare to the kernel-time file beside
/// `records` (nothing when no records are written).
pub fn append_kernels(
    records: Option<&Path>,
    profile: &str,
    data: &Prepared,
    seconds: f64,
) -> Result<()> {
    let Some(records) = records else {
        return Ok(());
    };
    let path = kernels_path(records);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let rec = KernelRecord {
        profile: profile.to_string(),
        dataset: data.kernels_key(),
        n: data.n,
        kernels: data.kernels.len(),
        seconds,
    };
    let line =
        serde_json::to_string(&rec).map_err(|e| Error::input("kernel record", e.to_string()))?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| Error::io(&path, e))?;
    writeln!(f, "{line}").map_err(|e| Error::io(&path, e))
}

/// Seconds and run count, with seconds per phase.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sums {
    /// Runs (fractional when a run is shared by several tables).
    pub runs: f64,
    /// Summed wall time of the runs.
    pub seconds: f64,
    /// Summed seconds per phase name; `other` is wall time outside the timed phases.
    pub phases: BTreeMap<String, f64>,
    /// Failed runs.
    pub failed: f64,
}

impl Sums {
    /// Add `share` of run `r`.
    fn add(&mut self, r: &RunRecord, share: f64) {
        self.runs += share;
        self.seconds += share * r.wall_time_s;
        if r.error.is_some() {
            self.failed += share;
        }
        let phases = || r.phases.iter().filter(|(_, s)| s.is_finite());
        let timed: f64 = phases().map(|(_, s)| s).sum();
        // Restarts that share work carry the shared phases in full but only an equal
        // share of them in their wall time: scale such phases down to the wall time.
        let scale = if timed > r.wall_time_s && timed > 0.0 {
            r.wall_time_s / timed
        } else {
            1.0
        };
        for (name, s) in phases() {
            *self.phases.entry(name.clone()).or_default() += share * s * scale;
        }
        let other = (r.wall_time_s - timed * scale).max(0.0);
        *self.phases.entry("other".into()).or_default() += share * other;
    }
}

/// The sums of one table of one profile.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableTimings {
    /// All runs of the table.
    pub total: Sums,
    /// By method.
    pub methods: BTreeMap<String, Sums>,
    /// Run-seconds by dataset.
    pub datasets: BTreeMap<String, f64>,
}

/// One job: all restarts of one method at one grid point (and kernel) on one dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct JobTimings {
    /// The record's table label (`table1,table3` when shared).
    pub tables: String,
    /// Dataset key.
    pub dataset: String,
    /// Method name.
    pub method: String,
    /// `name=value, …` of the parameters.
    pub params: String,
    /// Kernel name of a single-kernel method's job.
    pub kernel: Option<String>,
    /// The sums over its runs.
    pub sums: Sums,
}

/// The sums of one profile of one config.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProfileTimings {
    /// Every run of the profile.
    pub total: Sums,
    /// By table id.
    pub tables: BTreeMap<String, TableTimings>,
    /// Jobs, slowest first.
    pub jobs: Vec<JobTimings>,
    /// Kernel construction by dataset (the last record of each), seconds.
    pub kernels: BTreeMap<String, f64>,
    /// Config hashes of the runs with their counts.
    pub hashes: BTreeMap<String, usize>,
}

/// The time breakdown of one config's records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConfigTimings {
    /// Config name.
    pub name: String,
    /// Record lines read.
    pub lines: usize,
    /// Distinct runs kept (the last record of each).
    pub runs: usize,
    /// By profile (`full`, `quick`, `cli`).
    pub profiles: BTreeMap<String, ProfileTimings>,
}

/// The identity of a run (as [`crate::resume`] has it) and of its job.
fn run_key(r: &RunRecord) -> (String, String) {
    let params = serde_json::to_string(&r.params).unwrap_or_default();
    let job = format!(
        "{}|{}|{}|{}|{:?}|{:?}",
        r.profile,
        r.dataset,
        r.method,
        params,
        r.kernel.as_ref().map(|k| k.0),
        r.recipe
    );
    (format!("{job}|{}|{}", r.base_seed, r.restart), job)
}

/// The distinct tables of a record's table label, in order.
fn tables_of(label: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for t in label.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

impl ConfigTimings {
    /// Sum `records` (in file order: a later record of the same run replaces an earlier
    /// one) and `kernels` (the last record per profile and dataset counts). `lines` is
    /// the number of record lines read, for the report.
    pub fn from_records(
        name: &str,
        records: &[RunRecord],
        lines: usize,
        kernels: &[KernelRecord],
    ) -> Self {
        let mut last: HashMap<String, usize> = HashMap::new();
        for (i, r) in records.iter().enumerate() {
            last.insert(run_key(r).0, i);
        }
        let mut kept: Vec<usize> = last.into_values().collect();
        kept.sort_unstable();
        let mut out = ConfigTimings {
            name: name.to_string(),
            lines,
            runs: kept.len(),
            ..Default::default()
        };
        let mut jobs: BTreeMap<(String, String), JobTimings> = BTreeMap::new();
        for &i in &kept {
            let r = &records[i];
            let prof = out.profiles.entry(r.profile.clone()).or_default();
            *prof.hashes.entry(r.config_hash.clone()).or_default() += 1;
            prof.total.add(r, 1.0);
            let tables = tables_of(&r.table);
            let share = 1.0 / tables.len().max(1) as f64;
            for t in tables {
                let tt = prof.tables.entry(t.to_string()).or_default();
                tt.total.add(r, share);
                tt.methods
                    .entry(r.method.clone())
                    .or_default()
                    .add(r, share);
                *tt.datasets.entry(r.dataset.clone()).or_default() += share * r.wall_time_s;
            }
            let job = jobs
                .entry((r.profile.clone(), run_key(r).1))
                .or_insert_with(|| JobTimings {
                    tables: r.table.clone(),
                    dataset: r.dataset.clone(),
                    method: r.method.clone(),
                    params: r.params.describe(&[]),
                    kernel: r.kernel.as_ref().map(|k| k.1.clone()),
                    sums: Sums::default(),
                });
            job.sums.add(r, 1.0);
        }
        for ((profile, _), job) in jobs {
            out.profiles.entry(profile).or_default().jobs.push(job);
        }
        for p in out.profiles.values_mut() {
            p.jobs
                .sort_by(|a, b| b.sums.seconds.total_cmp(&a.sums.seconds));
        }
        for k in kernels {
            if let Some(p) = out.profiles.get_mut(&k.profile) {
                p.kernels.insert(k.dataset.clone(), k.seconds);
            }
        }
        out
    }

    /// Read `<runs>/<name>.jsonl` and `<runs>/<name>.kernels.jsonl` and sum them.
    pub fn read(runs: &Path, name: &str) -> Result<Self> {
        let path = runs.join(format!("{name}.jsonl"));
        let (records, lines) = read_lines::<RunRecord>(&path)?;
        let (kernels, _) = read_lines::<KernelRecord>(&kernels_path(&path))?;
        Ok(Self::from_records(name, &records, lines, &kernels))
    }
}
