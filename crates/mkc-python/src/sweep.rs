//! The experiment runner for `mkc.sweep`: a config run locally (what `mkc run` does),
//! or taken apart into the runner's own jobs ([`mkc_experiments::runner::list_jobs`],
//! [`mkc_experiments::runner::job_records`]) that the Python side runs on a Dask
//! cluster, appends to the records file and renders from it.
//!
//! Every function takes the config file, the profile and the data directory, and
//! loads the plan as `mkc run` does ([`load_plan`]). The functions a worker calls
//! ([`prepare`], [`run_job`]) check that the config's hash is the one the sweep began
//! with, and keep the plan and the last prepared datasets of the process in memory, so
//! that a worker builds a dataset's kernels once for all its jobs there.

use crate::errors::IntoPyResult;
use mkc_core::{Error, Result};
use mkc_experiments::dataset::Prepared;
use mkc_experiments::registry::RegistrySource;
use mkc_experiments::reproduce::load_plan;
use mkc_experiments::resume::RecordIndex;
use mkc_experiments::runner::{
    dataset_keys, dataset_recipes, job_records, list_jobs_with, prepare_dataset_with, run_plan,
    RunOptions,
};
use mkc_experiments::table::{render, RenderOptions};
use mkc_experiments::Plan;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// A loaded config: the plan, the hash of its text and the data source.
struct Loaded {
    plan: Plan,
    hash: String,
    source: RegistrySource,
}

fn load(config: &Path, profile: &str, data_dir: Option<&Path>) -> Result<Loaded> {
    let source = RegistrySource::new(data_dir)?;
    let (plan, hash) = load_plan(config, profile, &source)?;
    Ok(Loaded { plan, hash, source })
}

/// What identifies a loaded config and a prepared dataset in a worker's memory: the
/// config file, the profile, the data directory and the hash of the config text when
/// the sweep began.
pub type Key = (PathBuf, String, Option<PathBuf>, String);

/// Datasets a worker process keeps prepared (the most recent ones).
const KEEP: usize = 2;

/// A prepared dataset in a worker's memory: the sweep's key, the dataset, and the recipe
/// of its kernels (None: the row's own; else a column's `row_recipes` entry).
type DataKey = (Key, String, Option<String>);

/// The plans and prepared datasets of this process, most recent last.
struct Cache {
    plans: Vec<(Key, Arc<Loaded>)>,
    data: Vec<(DataKey, Arc<Prepared>)>,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache {
    plans: Vec::new(),
    data: Vec::new(),
});

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    // a panic elsewhere cannot leave the cache half-updated: recover it
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Keep `v` with at most `KEEP` entries, the newest last.
fn remember<K, V>(v: &mut Vec<(K, V)>, key: K, value: V) {
    v.push((key, value));
    if v.len() > KEEP {
        v.remove(0);
    }
}

/// The plan of `key` (loaded once per process) after checking the config's hash.
fn loaded(key: &Key) -> Result<Arc<Loaded>> {
    let found = cache()
        .plans
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, l)| l.clone());
    let l = match found {
        Some(l) => l,
        None => {
            let l = Arc::new(load(&key.0, &key.1, key.2.as_deref())?);
            remember(&mut cache().plans, key.clone(), l.clone());
            l
        }
    };
    if l.hash != key.3 {
        return Err(Error::input(
            format!("config {}", key.0.display()),
            format!(
                "changed since the sweep began (hash {} here, {} when it began); run the sweep again",
                l.hash, key.3
            ),
        ));
    }
    Ok(l)
}

/// Dataset `name` of the plan with the kernels of `recipe`, prepared once per process
/// (the last [`KEEP`] kept).
fn prepared(key: &Key, l: &Loaded, name: &str, recipe: Option<&str>) -> Result<Arc<Prepared>> {
    let dk = (key.clone(), name.to_string(), recipe.map(str::to_string));
    let found = cache()
        .data
        .iter()
        .find(|(k, _)| *k == dk)
        .map(|(_, p)| p.clone());
    if let Some(p) = found {
        return Ok(p);
    }
    let p = Arc::new(prepare_dataset_with(&l.plan, &l.source, name, recipe)?);
    remember(&mut cache().data, dk, p.clone());
    Ok(p)
}

/// The plan of a config: `name`, `title`, `profile`, `config_hash`, `datasets` (keys in
/// the runner's order), `units` (the (dataset, recipe) pairs whose kernels the runner
/// builds, in its order: recipe None for the row's own, else the name of a column's
/// `row_recipes` entry) and `data_dir` (the data directory it resolves to).
#[pyfunction]
#[pyo3(signature = (config, profile, data_dir=None))]
pub fn plan<'py>(
    py: Python<'py>,
    config: PathBuf,
    profile: &str,
    data_dir: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let l = load(&config, profile, data_dir.as_deref()).py()?;
    let d = PyDict::new(py);
    d.set_item("name", &l.plan.name)?;
    d.set_item("title", &l.plan.title)?;
    d.set_item("profile", &l.plan.profile)?;
    d.set_item("config_hash", &l.hash)?;
    let keys = dataset_keys(&l.plan);
    let units: Vec<(String, Option<String>)> = keys
        .iter()
        .flat_map(|k| {
            dataset_recipes(&l.plan, k)
                .into_iter()
                .map(move |r| (k.clone(), r))
        })
        .collect();
    d.set_item("datasets", keys)?;
    d.set_item("units", units)?;
    d.set_item("data_dir", l.source.dir.root.display().to_string())?;
    Ok(d)
}

/// On a worker: prepare dataset `name` with the kernels of `recipe` (one of the plan's
/// `units`; None: the row's own), kept for the jobs that follow, and return its number
/// of kernels, or None with the reason when it cannot be prepared (missing data: its
/// rows say so in the tables). `key`: (config file, profile, data directory, the config
/// hash the sweep began with).
#[pyfunction]
#[pyo3(signature = (key, name, recipe=None))]
pub fn prepare(
    py: Python<'_>,
    key: Key,
    name: &str,
    recipe: Option<String>,
) -> PyResult<(Option<usize>, Option<String>)> {
    py.detach(|| {
        let l = loaded(&key)?;
        Ok(match prepared(&key, &l, name, recipe.as_deref()) {
            Ok(p) => (Some(p.kernels.len()), None),
            Err(e) => (None, Some(e.to_string())),
        })
    })
    .py()
}

/// The jobs of dataset `name` on the `n_kernels` kernels of `recipe` (None: the row's
/// own) as JSON (a list of objects with `dataset`, `index`, `method`, `params`,
/// `kernel`, `runs`, `recorded`); `records`: the records file whose complete jobs are
/// marked `recorded`.
#[pyfunction]
#[pyo3(signature = (config, profile, name, n_kernels, data_dir=None, records=None, recipe=None))]
pub fn jobs(
    config: PathBuf,
    profile: &str,
    name: &str,
    n_kernels: usize,
    data_dir: Option<PathBuf>,
    records: Option<PathBuf>,
    recipe: Option<String>,
) -> PyResult<String> {
    let l = load(&config, profile, data_dir.as_deref()).py()?;
    check_unit(&l.plan, name, recipe.as_deref()).py()?;
    let index = records.map(|p| RecordIndex::read(&p)).transpose().py()?;
    let list = list_jobs_with(
        &l.plan,
        (name, recipe.as_deref()),
        n_kernels,
        index.as_ref(),
    );
    serde_json::to_string(&list)
        .map_err(|e| Error::input("jobs", e.to_string()))
        .py()
}

/// A recipe must be one that a column runs dataset `name` on (one of the plan's `units`):
/// the runner lists no job for any other, which would read as a recipe without jobs. An
/// unknown dataset keeps its documented empty job list.
fn check_unit(plan: &Plan, name: &str, recipe: Option<&str>) -> Result<()> {
    let Some(recipe) = recipe else {
        return Ok(());
    };
    if !dataset_keys(plan).iter().any(|k| k == name) {
        return Ok(());
    }
    let recipes = dataset_recipes(plan, name);
    if recipes.iter().any(|r| r.as_deref() == Some(recipe)) {
        return Ok(());
    }
    let known: Vec<&str> = recipes.iter().flatten().map(String::as_str).collect();
    Err(Error::input(
        format!("plan `{}`, dataset `{name}`", plan.name),
        format!(
            "no column runs it on recipe `{recipe}` (other recipes: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ),
    ))
}

/// On a worker: run job `index` of dataset `name` on the kernels of `recipe` (None: the
/// row's own) and return its run records as JSON lines (each ending with a newline),
/// the lines the local runner appends for it. `key` as for [`prepare`].
#[pyfunction]
#[pyo3(signature = (key, name, index, recipe=None))]
pub fn run_job(
    py: Python<'_>,
    key: Key,
    name: &str,
    index: usize,
    recipe: Option<String>,
) -> PyResult<String> {
    py.detach(|| -> Result<String> {
        let l = loaded(&key)?;
        let data = prepared(&key, &l, name, recipe.as_deref())?;
        let mut out = String::new();
        for r in job_records(&l.plan, &data, index, &key.3)? {
            let line =
                serde_json::to_string(&r).map_err(|e| Error::input("run record", e.to_string()))?;
            out.push_str(&line);
            out.push('\n');
        }
        Ok(out)
    })
    .py()
}

/// Run the config with the local runner (what `mkc run` does) and return the dict
/// `markdown`, `recorded_runs` (runs taken from `records` instead of being run) and
/// `seconds`. `records`: the file run records are appended to; `resume`: take the jobs
/// on record there; `recorded_only`: run nothing, render what is on record (a dataset
/// with jobs not on record says so in its rows).
#[pyfunction]
#[pyo3(signature = (config, profile, data_dir=None, records=None, resume=false,
    recorded_only=false, timings=false, progress=false))]
#[allow(clippy::too_many_arguments)]
pub fn run_local<'py>(
    py: Python<'py>,
    config: PathBuf,
    profile: &str,
    data_dir: Option<PathBuf>,
    records: Option<PathBuf>,
    resume: bool,
    recorded_only: bool,
    timings: bool,
    progress: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (markdown, runs, seconds) = py
        .detach(|| -> Result<_> {
            let l = load(&config, profile, data_dir.as_deref())?;
            let index = match (&records, resume || recorded_only) {
                (Some(p), true) => Some(RecordIndex::read(p)?),
                (None, true) => {
                    return Err(Error::input("sweep", "resume needs a records file"));
                }
                _ => None,
            };
            let report = run_plan(
                &l.plan,
                &RunOptions {
                    source: &l.source,
                    records: records.clone(),
                    progress,
                    config_hash: l.hash.clone(),
                    resume: index.as_ref(),
                    recorded_only,
                },
            )?;
            let md = render(&report, RenderOptions { timings });
            Ok((md, report.recorded_runs, report.seconds))
        })
        .py()?;
    let d = PyDict::new(py);
    d.set_item("markdown", markdown)?;
    d.set_item("recorded_runs", runs)?;
    d.set_item("seconds", seconds)?;
    Ok(d)
}
