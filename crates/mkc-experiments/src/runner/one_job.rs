//! The runner's jobs one at a time, for running them somewhere else (another process, a
//! Dask cluster through the Python package's `mkc.sweep`) while keeping the local
//! runner's records and tables.
//!
//! A plan's work is, dataset by dataset ([`dataset_keys`]), the list of jobs that
//! [`run_plan`](super::run_plan) runs in parallel: [`list_jobs`] gives it, in the same
//! order and with the same identity the run records use, and marks the jobs whose runs
//! are all on record. [`job_records`] runs one of them on the dataset
//! [`prepare_dataset`] built and returns exactly the records the local runner appends
//! for it (same seeds, scores, table and column ids). Appended to the plan's records
//! file, they make the jobs "recorded": `run_plan` with `resume` (and `recorded_only`)
//! then renders the same tables as a local run, and a local run resumed after a remote
//! one reuses every job on record.
//!
//! ```
//! use mkc_experiments::config::{parse_config, resolve};
//! use mkc_experiments::runner::{dataset_keys, list_jobs};
//!
//! let text = r#"
//! title = "demo"
//! seeds = [1, 2]
//! restarts = 1
//! [recipes.two]
//! kernels = [{ kind = "linear" }, { kind = "gaussian", sigma_median_ratio = [1.0] }]
//! [datasets.toy]
//! recipe = "two"
//! [tables.t1]
//! title = "T"
//! datasets = ["toy"]
//! columns = [
//!   { id = "kkm", label = "KKM", method = "kkm" },
//!   { id = "avg", label = "Avg", method = "avg-kkm" },
//! ]
//! "#;
//! let cfg = parse_config("demo.toml", text).unwrap();
//! let plan = resolve("demo.toml", &cfg, "full", &|n| n == "toy").unwrap();
//! assert_eq!(dataset_keys(&plan), ["toy"]);
//! // kkm is a single-kernel method: one job per kernel; avg-kkm: one job on both
//! let jobs = list_jobs(&plan, "toy", 2, None);
//! let what: Vec<_> = jobs.iter().map(|j| (j.method.as_str(), j.kernel)).collect();
//! assert_eq!(what, [("kkm", Some(0)), ("kkm", Some(1)), ("avg-kkm", None)]);
//! assert!(jobs.iter().all(|j| j.runs == 2 && !j.recorded));
//! ```

use super::collect::DatasetRuns;
use super::jobs::{self, point_params, seeds_of};
use crate::config::Plan;
use crate::dataset::{prepare, DataSource, Prepared};
use crate::params::ParamSet;
use crate::record::RunRecord;
use crate::resume::RecordIndex;
use mkc_core::{Error, Result};
use serde::Serialize;

/// One job of a dataset as a plain value: where it sits in the dataset's job list and
/// what it runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobInfo {
    /// Dataset key.
    pub dataset: String,
    /// Position in the dataset's job list (what [`job_records`] takes).
    pub index: usize,
    /// Method name.
    pub method: String,
    /// The grid point's full parameter set (row parameters applied).
    pub params: ParamSet,
    /// The kernel of a single-kernel method's job (None: all kernels, or features).
    pub kernel: Option<usize>,
    /// Runs of the job (base seeds × restarts).
    pub runs: usize,
    /// Every run is in the record index given to [`list_jobs`].
    pub recorded: bool,
}

/// The dataset keys of `plan` in the order the local runner takes them (first use).
pub fn dataset_keys(plan: &Plan) -> Vec<String> {
    let mut order: Vec<String> = Vec::new();
    for r in plan.tables.iter().flat_map(|t| &t.rows) {
        if !order.contains(r) {
            order.push(r.clone());
        }
    }
    order
}

/// Load dataset `key` of `plan` from `source` and build its kernels with its recipe, as
/// the local runner does. Errors: a key the plan does not have (`InvalidInput`), and
/// the dataset's own (`MissingData` for an absent file: the table's "data missing").
pub fn prepare_dataset(plan: &Plan, source: &dyn DataSource, key: &str) -> Result<Prepared> {
    let cfg = plan.datasets.get(key).ok_or_else(|| {
        Error::input(
            format!("plan `{}`", plan.name),
            format!("no dataset `{key}` in its tables"),
        )
    })?;
    let recipe = cfg.recipe.as_ref().and_then(|r| plan.recipes.get(r));
    prepare(source, key, cfg, recipe)
}

/// The jobs of dataset `key` on `n_kernels` kernels (the prepared dataset's
/// `kernels.len()`), in the local runner's order; with `resume`, the jobs whose runs
/// are all on record are marked `recorded`. A key the plan does not have has no jobs.
pub fn list_jobs(
    plan: &Plan,
    key: &str,
    n_kernels: usize,
    resume: Option<&RecordIndex>,
) -> Vec<JobInfo> {
    let key = key.to_string();
    let specs = jobs::specs(plan, &key);
    let list = jobs::jobs(&specs, n_kernels);
    let recorded = jobs::lookup(plan, resume, &key, &list);
    list.iter()
        .zip(recorded)
        .enumerate()
        .map(|(index, (j, rec))| JobInfo {
            dataset: key.clone(),
            index,
            method: j.col.method.clone().unwrap_or_default(),
            params: point_params(j.col, &key, j.point).clone(),
            kernel: j.kernel,
            runs: seeds_of(plan, j.col.restarts).len(),
            recorded: rec.is_some(),
        })
        .collect()
}

/// Run job `index` of the prepared dataset `data` (see [`list_jobs`]) and return its
/// run records: the ones the local runner appends for this job, with `config_hash` (the
/// hash [`crate::reproduce::load_plan`] gives) written into each. A failed run is a
/// record with its error, as in a local run. Error: an index past the job list.
pub fn job_records(
    plan: &Plan,
    data: &Prepared,
    index: usize,
    config_hash: &str,
) -> Result<Vec<RunRecord>> {
    let specs = jobs::specs(plan, &data.key);
    let list = jobs::jobs(&specs, data.kernels.len());
    if index >= list.len() {
        return Err(Error::param(
            "job",
            index,
            format!("dataset `{}` has {} jobs", data.key, list.len()),
        ));
    }
    let results = (0..list.len())
        .map(|j| (j == index).then(|| jobs::run_job(plan, &list[j], data)))
        .collect();
    let runs = DatasetRuns {
        plan,
        data,
        recorded: (0..list.len()).map(|_| None).collect(),
        specs,
        jobs: list,
        results,
    };
    Ok(runs.collect(config_hash).1)
}
