//! Running a [`Plan`]: dataset by dataset, and within a dataset recipe by recipe (the
//! row's own, then each recipe that columns name in `row_recipes`): each (dataset,
//! recipe) kernel set is built once, shared by every table and column that runs on it,
//! and dropped before the next is built, so one recipe's kernels of a dataset are in
//! memory at a time. All (column, grid point, kernel) jobs of a kernel set run in
//! parallel with rayon, restarts inside each job in parallel too. Results are collected in index order
//! and each run's seed is `derive(base_seed, restart)`, so the outcome does not depend
//! on the number of threads. Each job's run records are appended when the job ends (so
//! their order in the file follows the threads; their content does not), and with a
//! [`RecordIndex`] (`resume`), jobs whose runs are all on record are taken from the
//! records instead of run again: a run killed inside a dataset loses only its unfinished jobs.
//! Work that jobs of a grid share (MVKKM's global kernel k-means start across p, LG-MMC's
//! features and IterSVR's k-means starts across C, RMKC's initial splits across the
//! 1-norm and no norm, LKAM's localised kernels and ONKC's start across λ, the APG step
//! sizes of SCSK and SCMK across α and β; [`Method::shared_key`]) is computed once before a
//! unit's jobs run (module `shared`); the outcomes are those of jobs that compute it
//! themselves.
//!
//! The work of a dataset is split into specs and jobs (module `jobs`), scored into groups
//! and run records (module `collect`) and summarised into the cells of its rows (module `cells`).
//! The same jobs one at a time, to run them elsewhere: [`list_jobs`] and [`job_records`]
//! (on other recipes: [`dataset_recipes`], [`prepare_dataset_with`], [`list_jobs_with`]).

mod cells;
mod collect;
mod jobs;
mod one_job;
mod shared;

pub use one_job::{
    dataset_keys, dataset_recipes, job_records, list_jobs, list_jobs_with, prepare_dataset,
    prepare_dataset_with, JobInfo,
};

use crate::config::Plan;
use crate::dataset::{DataSource, Prepared, Unavailable};
#[cfg(doc)]
use crate::methods::Method;
use crate::methods::Outcome;
use crate::progress::Progress;
use crate::resume::RecordIndex;
use crate::summary::Cell;
use collect::DatasetRuns;
use mkc_core::Result;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// How to run a plan.
pub struct RunOptions<'a> {
    /// Where datasets come from.
    pub source: &'a dyn DataSource,
    /// JSON-lines file the run records are appended to (none: not written).
    pub records: Option<PathBuf>,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Hash of the config text, written into the records.
    pub config_hash: String,
    /// Take jobs whose runs are all on record from here instead of running them (their
    /// records are not written again).
    pub resume: Option<&'a RecordIndex>,
    /// With `resume`: run nothing; a dataset with any job not on record is reported as
    /// not run ("no records yet"), so that a partial reproduction can be rendered.
    pub recorded_only: bool,
}

/// The result of one column on one dataset.
#[derive(Debug, Clone)]
pub struct ColumnReport {
    /// Column id.
    pub id: String,
    /// The summarised cell (None for paper-only columns or when every run failed).
    pub cell: Option<Cell>,
    /// Describes the chosen grid point / kernel for the notes ("C=1; kernel 3 gauss(σ=0.3·range)").
    pub chosen: Option<String>,
    /// The first error of a failed run, if any.
    pub error: Option<String>,
    /// The first run of the chosen group (for figures).
    pub example: Option<Outcome>,
}

impl ColumnReport {
    /// The report of column `id` with nothing in it.
    fn empty(id: &str) -> Self {
        ColumnReport {
            id: id.to_string(),
            cell: None,
            chosen: None,
            error: None,
            example: None,
        }
    }
}

/// One dataset row of a table.
#[derive(Debug, Clone)]
pub struct RowReport {
    /// Dataset key.
    pub key: String,
    /// Columns in order, or why the row could not run.
    pub result: std::result::Result<Vec<ColumnReport>, Unavailable>,
    /// Kernel names of the dataset (for weight figures).
    pub kernel_names: Vec<String>,
    /// Number of samples.
    pub n: usize,
}

/// One table.
#[derive(Debug, Clone)]
pub struct TableReport {
    /// Table id.
    pub id: String,
    /// Rows in order.
    pub rows: Vec<RowReport>,
}

/// Everything a run of a plan produced.
#[derive(Debug, Clone)]
pub struct Report {
    /// The plan that ran.
    pub plan: Plan,
    /// Tables in order.
    pub tables: Vec<TableReport>,
    /// Wall-clock seconds of the whole plan.
    pub seconds: f64,
    /// Runs taken from the run records (`resume`) instead of being run.
    pub recorded_runs: usize,
    /// The sum of the recorded runs' own wall-clock times (when they ran, in parallel).
    pub recorded_seconds: f64,
}

/// The rows of every table as they are filled in, dataset by dataset, and the runs
/// taken from the records.
struct Rows<'p> {
    plan: &'p Plan,
    /// Per table, per row: the report once its dataset is done.
    slots: Vec<Vec<Option<RowReport>>>,
    recorded_runs: usize,
    recorded_seconds: f64,
}

impl<'p> Rows<'p> {
    fn new(plan: &'p Plan) -> Self {
        Rows {
            plan,
            slots: plan
                .tables
                .iter()
                .map(|t| vec![None; t.rows.len()])
                .collect(),
            recorded_runs: 0,
            recorded_seconds: 0.0,
        }
    }

    /// Every row of dataset `key` could not run, for the same reason.
    fn unavailable(&mut self, key: &str, why: Unavailable, data: Option<&Prepared>) {
        for (ti, t) in self.plan.tables.iter().enumerate() {
            if let Some(ri) = t.rows.iter().position(|r| r == key) {
                self.slots[ti][ri] = Some(RowReport {
                    key: key.to_string(),
                    result: Err(why.clone()),
                    kernel_names: data.map(|d| d.kernel_names.clone()).unwrap_or_default(),
                    n: data.map_or(0, |d| d.n),
                });
            }
        }
    }

    /// The rows of dataset `key` (size and kernel names of the row) from the reports of
    /// its columns; a column without one (paper values only, or not run on this row)
    /// shows its id alone.
    fn fill(
        &mut self,
        key: &str,
        (n, kernel_names): (usize, Vec<String>),
        mut reports: BTreeMap<(usize, usize), ColumnReport>,
    ) {
        for (ti, t) in self.plan.tables.iter().enumerate() {
            let Some(ri) = t.rows.iter().position(|r| r == key) else {
                continue;
            };
            let cols = t.columns.iter().enumerate();
            let cols = cols.map(|(ci, c)| {
                reports
                    .remove(&(ti, ci))
                    .unwrap_or_else(|| ColumnReport::empty(&c.id))
            });
            self.slots[ti][ri] = Some(RowReport {
                key: key.to_string(),
                result: Ok(cols.collect()),
                kernel_names: kernel_names.clone(),
                n,
            });
        }
    }

    fn into_tables(self) -> Vec<TableReport> {
        self.plan
            .tables
            .iter()
            .zip(self.slots)
            .map(|(t, slots)| TableReport {
                id: t.id.clone(),
                rows: slots.into_iter().flatten().collect(),
            })
            .collect()
    }
}

/// A column's report on one row, keyed by (table index, column index).
type CellReport = ((usize, usize), ColumnReport);

/// Run (or take from the records) every job of one unit of a dataset (the specs on one
/// recipe, whose kernels `data` holds) and append its run records: the reports of the
/// unit's columns, or `None` when `recorded_only` finds jobs not on record (the row then
/// says so).
fn run_unit(
    plan: &Plan,
    opts: &RunOptions<'_>,
    (specs, data): (Vec<jobs::Spec<'_>>, &Prepared),
    progress: &Progress,
    rows: &mut Rows<'_>,
) -> Result<Option<Vec<CellReport>>> {
    let jobs = jobs::jobs(&specs, data.kernels.len());
    let recorded = jobs::lookup(plan, opts.resume, &data.key, &jobs);
    let pending = recorded.iter().filter(|r| r.is_none()).count();
    if opts.recorded_only && pending > 0 {
        let why = Unavailable::Failed(format!(
            "no records yet for {pending} of {} jobs (the full run has not reached this dataset; \
             rerun with --resume to complete it)",
            jobs.len()
        ));
        rows.unavailable(&data.key, why, Some(data));
        return Ok(None);
    }
    progress.add(pending as u64);
    for (s, _) in recorded.iter().flatten().flatten().flatten() {
        rows.recorded_runs += 1;
        rows.recorded_seconds += s.time;
    }
    let mut runs = DatasetRuns {
        plan,
        data,
        specs,
        jobs,
        recorded,
        results: Vec::new(),
    };
    // Each job's records are appended as soon as it ends (one writer at a time), so that
    // a run killed inside a long dataset keeps its finished jobs for `--resume`.
    let writer = std::sync::Mutex::new(Ok(()));
    let shared = shared::prepare(plan, &runs.jobs, &runs.recorded, data);
    runs.results = (0..runs.jobs.len())
        .into_par_iter()
        .map(|j| {
            if runs.recorded[j].is_some() {
                return None;
            }
            let r = jobs::run_job(plan, &runs.jobs[j], data, shared[j].as_ref());
            if let Some(path) = &opts.records {
                let records = runs.job_records(j, &r, &opts.config_hash);
                let mut status = writer.lock().unwrap_or_else(|e| e.into_inner());
                if status.is_ok() {
                    *status = crate::record::append(path, &records);
                }
            }
            progress.inc(1);
            Some(r)
        })
        .collect();
    let (spec_runs, _) = runs.collect(&opts.config_hash);
    writer.into_inner().unwrap_or_else(|e| e.into_inner())?;
    Ok(Some(runs.column_reports(&spec_runs)))
}

/// Run (or take from the records) every job of dataset `key` and fill its rows, recipe
/// by recipe (module `jobs`' units): a unit's kernels are built, its jobs run and its
/// cells summarised, and the kernels are dropped before the next unit's are built, so
/// one recipe's kernels of the dataset are in memory at a time.
fn run_dataset(
    plan: &Plan,
    opts: &RunOptions<'_>,
    key: &str,
    progress: &Progress,
    rows: &mut Rows<'_>,
) -> Result<()> {
    let mut reports = BTreeMap::new();
    // n and kernel names of the row: those of its first unit (its own recipe when used)
    let mut shape = None;
    for (ui, unit) in jobs::units(plan, &key.to_string()).into_iter().enumerate() {
        let t_prepare = Instant::now();
        let data = match prepare_dataset_with(plan, opts.source, key, unit.recipe) {
            Ok(data) => data,
            Err(e) if ui == 0 => {
                rows.unavailable(key, Unavailable::from_error(e), None);
                return Ok(());
            }
            Err(e) => {
                let why = format!("recipe `{}`: {e}", unit.recipe.unwrap_or_default());
                for &(ti, ci) in unit.specs.iter().flat_map(|s| &s.users) {
                    let mut r = ColumnReport::empty(&plan.tables[ti].columns[ci].id);
                    r.error = Some(why.clone());
                    reports.insert((ti, ci), r);
                }
                continue;
            }
        };
        if !opts.recorded_only {
            // Rendering from the records builds no job: its kernel time is not a run's.
            let s = t_prepare.elapsed().as_secs_f64();
            crate::timings::append_kernels(opts.records.as_deref(), &plan.profile, &data, s)?;
        }
        shape.get_or_insert_with(|| (data.n, data.kernel_names.clone()));
        match run_unit(plan, opts, (unit.specs, &data), progress, rows)? {
            Some(r) => reports.extend(r),
            None => return Ok(()),
        }
    }
    let (n, kernel_names) = shape.unwrap_or_default();
    rows.fill(key, (n, kernel_names), reports);
    Ok(())
}

/// Run every table of `plan`.
pub fn run_plan(plan: &Plan, opts: &RunOptions<'_>) -> Result<Report> {
    let t_start = Instant::now();
    let mut rows = Rows::new(plan);
    // The bar counts jobs; each dataset adds its jobs once its kernels are known.
    let progress = Progress::new(opts.progress);
    for key in dataset_keys(plan) {
        progress.message(&key);
        run_dataset(plan, opts, &key, &progress, &mut rows)?;
    }
    progress.finish();
    let (recorded_runs, recorded_seconds) = (rows.recorded_runs, rows.recorded_seconds);
    Ok(Report {
        plan: plan.clone(),
        tables: rows.into_tables(),
        seconds: t_start.elapsed().as_secs_f64(),
        recorded_runs,
        recorded_seconds,
    })
}
