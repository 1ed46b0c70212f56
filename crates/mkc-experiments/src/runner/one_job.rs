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
//! one reuses every job on record. A job run on its own computes the work that the local
//! runner shares between the jobs of a grid (`Method::shared_key`) itself: the same
//! records, more time.
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
    /// The recipe of the job's kernels when it is not the row's own (`row_recipes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<String>,
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

/// The recipes the jobs of dataset `key` run on, in the local runner's order: `None`
/// for the row's own recipe (first, and absent when every column that runs on the row
/// uses another one), then each recipe of the columns' `row_recipes`. Each is one
/// [`prepare_dataset_with`] and one [`list_jobs_with`].
pub fn dataset_recipes(plan: &Plan, key: &str) -> Vec<Option<String>> {
    jobs::units(plan, &key.to_string())
        .iter()
        .map(|u| u.recipe.map(str::to_string))
        .collect()
}

/// Load dataset `key` of `plan` from `source` and build its kernels with its recipe, as
/// the local runner does. Errors: a key the plan does not have (`InvalidInput`), and
/// the dataset's own (`MissingData` for an absent file: the table's "data missing").
pub fn prepare_dataset(plan: &Plan, source: &dyn DataSource, key: &str) -> Result<Prepared> {
    prepare_dataset_with(plan, source, key, None)
}

/// [`prepare_dataset`] with the kernels of recipe `recipe` (one of
/// [`dataset_recipes`]; `None`: the row's own); the result remembers the recipe, so
/// that [`job_records`] runs the jobs of that recipe. Error: a recipe the plan does not
/// hold (`InvalidInput`), besides those of [`prepare_dataset`].
pub fn prepare_dataset_with(
    plan: &Plan,
    source: &dyn DataSource,
    key: &str,
    recipe: Option<&str>,
) -> Result<Prepared> {
    let cfg = plan.datasets.get(key).ok_or_else(|| {
        Error::input(
            format!("plan `{}`", plan.name),
            format!("no dataset `{key}` in its tables"),
        )
    })?;
    let Some(other) = recipe else {
        let own = cfg.recipe.as_ref().and_then(|r| plan.recipes.get(r));
        return prepare(source, key, cfg, own);
    };
    let rc = plan.recipes.get(other).ok_or_else(|| {
        Error::input(
            format!("plan `{}`", plan.name),
            format!("no recipe `{other}` in the plan"),
        )
    })?;
    let mut data = prepare(source, key, cfg, Some(rc))?;
    data.recipe = Some(other.to_string());
    Ok(data)
}

/// The jobs of dataset `key` on its own recipe with `n_kernels` kernels (the prepared
/// dataset's `kernels.len()`), in the local runner's order; with `resume`, the jobs
/// whose runs are all on record are marked `recorded`. A key the plan does not have has
/// no jobs. The jobs on other recipes (`row_recipes`): [`list_jobs_with`].
pub fn list_jobs(
    plan: &Plan,
    key: &str,
    n_kernels: usize,
    resume: Option<&RecordIndex>,
) -> Vec<JobInfo> {
    list_jobs_with(plan, (key, None), n_kernels, resume)
}

/// The jobs of dataset `key` on recipe `recipe` (one of [`dataset_recipes`]), as
/// [`list_jobs`] gives those on the row's own.
pub fn list_jobs_with(
    plan: &Plan,
    (key, recipe): (&str, Option<&str>),
    n_kernels: usize,
    resume: Option<&RecordIndex>,
) -> Vec<JobInfo> {
    let key = key.to_string();
    let specs = unit_specs(plan, &key, recipe);
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
            recipe: recipe.map(str::to_string),
            runs: seeds_of(plan, j.col.restarts).len(),
            recorded: rec.is_some(),
        })
        .collect()
}

/// The specs of dataset `key` that run on `recipe` (none when no column does).
fn unit_specs<'p>(plan: &'p Plan, key: &String, recipe: Option<&str>) -> Vec<jobs::Spec<'p>> {
    jobs::units(plan, key)
        .into_iter()
        .find(|u| u.recipe == recipe)
        .map(|u| u.specs)
        .unwrap_or_default()
}

/// Run job `index` of the prepared dataset `data` (see [`list_jobs`]; on the recipe it
/// was prepared with, see [`list_jobs_with`]) and return its
/// run records: the ones the local runner appends for this job, with `config_hash` (the
/// hash [`crate::reproduce::load_plan`] gives) written into each. A failed run is a
/// record with its error, as in a local run. Error: an index past the job list.
pub fn job_records(
    plan: &Plan,
    data: &Prepared,
    index: usize,
    config_hash: &str,
) -> Result<Vec<RunRecord>> {
    let specs = unit_specs(plan, &data.key, data.recipe.as_deref());
    let list = jobs::jobs(&specs, data.kernels.len());
    if index >= list.len() {
        return Err(Error::param(
            "job",
            index,
            format!("dataset `{}` has {} jobs", data.key, list.len()),
        ));
    }
    let results = (0..list.len())
        .map(|j| (j == index).then(|| jobs::run_job(plan, &list[j], data, None)))
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
