//! Running a [`Plan`]: dataset by dataset (kernels built once and shared by every table
//! and column), all (column, grid point, kernel) jobs of a dataset in parallel with
//! rayon, restarts inside each job in parallel too. Results are collected in index order
//! and each run's seed is `derive(base_seed, restart)`, so the outcome does not depend
//! on the number of threads. With a [`RecordIndex`] (`resume`), jobs whose runs are all
//! on record are taken from the records instead of run again.

use crate::config::{Plan, PlanColumn};
use crate::dataset::{prepare, DataSource, Prepared, Unavailable};
use crate::methods::{self, Input, KernelUse, Outcome};
use crate::metric::Scores;
use crate::progress::Progress;
use crate::record::{RunRecord, MKC_VERSION};
use crate::resume::RecordIndex;
use crate::summary::{summarise, Cell, Group};
use mkc_core::seed::derive;
use mkc_core::Result;
use rayon::prelude::*;
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

/// Recorded outcomes of one job: scores per restart, or the error of a failed run.
type Recorded = Vec<std::result::Result<crate::metric::Scores, String>>;

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

/// A distinct (method, grid, restarts) run of one dataset; columns that ask for the
/// same runs (e.g. "best kernel" and "average over kernels" of one method) share it.
struct Spec<'p> {
    col: &'p PlanColumn,
    /// (table index, column index) of every column using these runs.
    users: Vec<(usize, usize)>,
}

/// One unit of parallel work: a grid point of a spec on one kernel (or all kernels).
struct Job<'p> {
    spec: usize,
    col: &'p PlanColumn,
    point: usize,
    kernel: Option<usize>,
}

struct JobResult {
    outcomes: Vec<Result<Outcome>>,
    seconds: f64,
}

/// Scored runs of one spec.
struct SpecRuns {
    jobs: Vec<usize>,
    groups: Vec<Group>,
    first_error: Option<String>,
}

fn seeds_of(plan: &Plan, restarts: usize) -> Vec<(u64, usize, u64)> {
    plan.seeds
        .iter()
        .flat_map(|&s| (0..restarts).map(move |r| (s, r, derive(s, r as u64))))
        .collect()
}

/// The parameters of grid point `point` of `col` on dataset row `key` (row parameters
/// of the table applied).
fn point_params<'c>(col: &'c PlanColumn, key: &str, point: usize) -> &'c crate::params::ParamSet {
    col.row_points
        .get(key)
        .map_or(&col.points[point], |v| &v[point])
}

fn run_job(plan: &Plan, job: &Job<'_>, data: &Prepared) -> JobResult {
    let t0 = Instant::now();
    let Some(method) = job.col.method.as_deref().and_then(methods::find) else {
        return JobResult {
            outcomes: vec![],
            seconds: 0.0,
        };
    };
    let (kernels, names) = match job.kernel {
        Some(p) => (&data.kernels[p..p + 1], &data.kernel_names[p..p + 1]),
        None => (&data.kernels[..], &data.kernel_names[..]),
    };
    let input = Input {
        kernels,
        kernel_names: names,
        features: data.features.as_ref().map(|x| x.as_ref()),
        n_clusters: data.n_clusters,
        n: data.n,
    };
    let seeds: Vec<u64> = seeds_of(plan, job.col.restarts)
        .iter()
        .map(|s| s.2)
        .collect();
    let outcomes = method.run_restarts(&input, point_params(job.col, &data.key, job.point), &seeds);
    JobResult {
        outcomes,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

fn describe_choice(
    col: &PlanColumn,
    jobs: &[&Job<'_>],
    groups: &[usize],
    data: &Prepared,
) -> String {
    let mut parts = Vec::new();
    for &g in groups {
        let job = jobs[g];
        let mut s = if col.grid_keys.is_empty() {
            String::new()
        } else {
            col.points[job.point].describe(&col.grid_keys)
        };
        if let Some(p) = job.kernel {
            let k = format!("kernel {} `{}`", p + 1, data.kernel_names[p]);
            s = if s.is_empty() { k } else { format!("{s}; {k}") };
        }
        if !s.is_empty() {
            parts.push(s);
        }
    }
    if groups.len() > 1 {
        format!("average over {} kernels", groups.len())
    } else {
        parts.join(" | ")
    }
}

/// Run every table of `plan`.
pub fn run_plan(plan: &Plan, opts: &RunOptions<'_>) -> Result<Report> {
    let t_start = Instant::now();
    let (mut recorded_runs, mut recorded_seconds) = (0usize, 0.0f64);
    let mut tables: Vec<TableReport> = plan
        .tables
        .iter()
        .map(|t| TableReport {
            id: t.id.clone(),
            rows: Vec::new(),
        })
        .collect();
    // Datasets in order of first use.
    let mut order: Vec<&String> = Vec::new();
    for t in &plan.tables {
        for r in &t.rows {
            if !order.contains(&r) {
                order.push(r);
            }
        }
    }
    // The bar counts jobs; each dataset adds its jobs once its kernels are known.
    let progress = Progress::new(opts.progress);
    let mut row_slots: Vec<Vec<Option<RowReport>>> = plan
        .tables
        .iter()
        .map(|t| vec![None; t.rows.len()])
        .collect();
    for key in order {
        let cfg = &plan.datasets[key];
        let recipe = cfg.recipe.as_ref().and_then(|r| plan.recipes.get(r));
        progress.message(key);
        let prepared = prepare(opts.source, key, cfg, recipe).map_err(Unavailable::from_error);
        let data = match prepared {
            Ok(d) => d,
            Err(u) => {
                for (ti, t) in plan.tables.iter().enumerate() {
                    if let Some(ri) = t.rows.iter().position(|r| r == key) {
                        row_slots[ti][ri] = Some(RowReport {
                            key: key.clone(),
                            result: Err(u.clone()),
                            kernel_names: vec![],
                            n: 0,
                        });
                    }
                }
                continue;
            }
        };
        let m = data.kernels.len();
        let mut specs: Vec<Spec<'_>> = Vec::new();
        for (ti, t) in plan.tables.iter().enumerate() {
            if !t.rows.contains(key) {
                continue;
            }
            for (ci, col) in t.columns.iter().enumerate() {
                if col.method.is_none() {
                    continue;
                }
                match specs.iter_mut().find(|s| {
                    s.col.method == col.method
                        && s.col.points == col.points
                        && s.col.row_points.get(key) == col.row_points.get(key)
                        && s.col.restarts == col.restarts
                }) {
                    Some(s) => s.users.push((ti, ci)),
                    None => specs.push(Spec {
                        col,
                        users: vec![(ti, ci)],
                    }),
                }
            }
        }
        let mut jobs = Vec::new();
        for (si, spec) in specs.iter().enumerate() {
            let Some(method) = spec.col.method.as_deref().and_then(methods::find) else {
                continue;
            };
            for point in 0..spec.col.points.len() {
                match method.kernels() {
                    // Features-only data (no kernel): one job with no kernel.
                    KernelUse::Single if m == 0 => jobs.push(Job {
                        spec: si,
                        col: spec.col,
                        point,
                        kernel: None,
                    }),
                    KernelUse::Single => {
                        for p in 0..m {
                            jobs.push(Job {
                                spec: si,
                                col: spec.col,
                                point,
                                kernel: Some(p),
                            });
                        }
                    }
                    KernelUse::Combined => jobs.push(Job {
                        spec: si,
                        col: spec.col,
                        point,
                        kernel: None,
                    }),
                }
            }
        }
        let recorded: Vec<Option<Recorded>> = jobs
            .iter()
            .map(|j| {
                let index = opts.resume?;
                let method = j.col.method.as_deref()?;
                let seeds = seeds_of(plan, j.col.restarts);
                index.lookup(
                    &plan.profile,
                    key,
                    method,
                    point_params(j.col, key, j.point),
                    j.kernel,
                    &seeds,
                )
            })
            .collect();
        let pending = recorded.iter().filter(|r| r.is_none()).count();
        if opts.recorded_only && pending > 0 {
            let why = Unavailable::Failed(format!(
                "no records yet for {pending} of {} jobs (the full run has not reached this dataset; \
                 rerun with --resume to complete it)",
                jobs.len()
            ));
            for (ti, t) in plan.tables.iter().enumerate() {
                if let Some(ri) = t.rows.iter().position(|r| r == key) {
                    row_slots[ti][ri] = Some(RowReport {
                        key: key.clone(),
                        result: Err(why.clone()),
                        kernel_names: data.kernel_names.clone(),
                        n: data.n,
                    });
                }
            }
            continue;
        }
        progress.add(pending as u64);
        let results: Vec<Option<JobResult>> = jobs
            .par_iter()
            .zip(&recorded)
            .map(|(j, rec)| {
                if rec.is_some() {
                    return None;
                }
                let r = run_job(plan, j, &data);
                progress.inc(1);
                Some(r)
            })
            .collect();
        // Records and scores, sequentially in job order.
        for s in recorded.iter().flatten().flatten().flatten() {
            recorded_runs += 1;
            recorded_seconds += s.time;
        }
        let mut records = Vec::new();
        let mut spec_runs = Vec::with_capacity(specs.len());
        for (si, spec) in specs.iter().enumerate() {
            let col = spec.col;
            let tables_of = |f: &dyn Fn(usize, usize) -> String| -> String {
                spec.users
                    .iter()
                    .map(|&(ti, ci)| f(ti, ci))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let table_ids = tables_of(&|ti, _| plan.tables[ti].id.clone());
            let column_ids = tables_of(&|ti, ci| plan.tables[ti].columns[ci].id.clone());
            let idx: Vec<usize> = (0..jobs.len()).filter(|&j| jobs[j].spec == si).collect();
            let seeds = seeds_of(plan, col.restarts);
            let mut groups = Vec::new();
            let mut first_error = None;
            for &j in &idx {
                let job = &jobs[j];
                if let Some(rec) = &recorded[j] {
                    let mut runs = Vec::new();
                    for r in rec {
                        match r {
                            Ok(s) => runs.push(*s),
                            Err(e) => {
                                first_error.get_or_insert_with(|| e.clone());
                            }
                        }
                    }
                    if runs.len() != rec.len() {
                        runs.clear();
                    }
                    groups.push(Group {
                        point: job.point,
                        kernel: job.kernel,
                        runs,
                    });
                    continue;
                }
                let Some(res) = &results[j] else {
                    continue;
                };
                let share = res.seconds / res.outcomes.len().max(1) as f64;
                let mut runs = Vec::new();
                for (r, out) in res.outcomes.iter().enumerate() {
                    let (base_seed, restart, seed) = seeds.get(r).copied().unwrap_or((0, r, 0));
                    let mut rec = RunRecord {
                        config_hash: opts.config_hash.clone(),
                        config: plan.name.clone(),
                        profile: plan.profile.clone(),
                        table: table_ids.clone(),
                        column: column_ids.clone(),
                        dataset: key.clone(),
                        method: col.method.clone().unwrap_or_default(),
                        params: point_params(col, key, job.point).clone(),
                        kernel: job.kernel.map(|p| (p, data.kernel_names[p].clone())),
                        base_seed,
                        restart,
                        seed,
                        n: data.n,
                        n_clusters: data.n_clusters,
                        metrics: None,
                        weights: None,
                        objective: vec![],
                        iterations: 0,
                        diagnostics: vec![],
                        wall_time_s: share,
                        error: None,
                        mkc_version: MKC_VERSION,
                    };
                    let scored = out.as_ref().map_err(|e| e.to_string()).and_then(|o| {
                        let secs = if o.seconds > 0.0 { o.seconds } else { share };
                        Scores::compute(&data.truth, &o.labels, secs)
                            .map(|s| (o, s, secs))
                            .map_err(|e| e.to_string())
                    });
                    match scored {
                        Ok((o, s, secs)) => {
                            rec.metrics = Some(s);
                            rec.weights = o.weights.clone();
                            rec.objective = o.objective.clone();
                            rec.iterations = o.iterations;
                            rec.diagnostics = o.diagnostics.clone();
                            rec.wall_time_s = secs;
                            runs.push(s);
                        }
                        Err(e) => {
                            first_error.get_or_insert_with(|| e.clone());
                            rec.error = Some(e);
                        }
                    }
                    records.push(rec);
                }
                // A group counts only when all its runs succeeded.
                if runs.len() != res.outcomes.len() {
                    runs.clear();
                }
                groups.push(Group {
                    point: job.point,
                    kernel: job.kernel,
                    runs,
                });
            }
            spec_runs.push(SpecRuns {
                jobs: idx,
                groups,
                first_error,
            });
        }
        // Cells, per table and column.
        for (ti, t) in plan.tables.iter().enumerate() {
            let Some(ri) = t.rows.iter().position(|r| r == key) else {
                continue;
            };
            let mut cols = Vec::new();
            for (ci, col) in t.columns.iter().enumerate() {
                let Some(si) = specs.iter().position(|s| s.users.contains(&(ti, ci))) else {
                    cols.push(ColumnReport {
                        id: col.id.clone(),
                        cell: None,
                        chosen: None,
                        error: None,
                        example: None,
                    });
                    continue;
                };
                let sr = &spec_runs[si];
                let cell = summarise(
                    &sr.groups,
                    col.summary,
                    col.select,
                    col.per_metric,
                    &t.metrics,
                );
                let job_refs: Vec<&Job<'_>> = sr.jobs.iter().map(|&j| &jobs[j]).collect();
                let (chosen, example) = match &cell {
                    Some(c) => match c
                        .chosen
                        .get(&col.select)
                        .or_else(|| c.chosen.values().next())
                    {
                        Some(ch) => {
                            let g = ch.groups[0];
                            let ex = results[sr.jobs[g]]
                                .as_ref()
                                .and_then(|r| r.outcomes.first())
                                .and_then(|o| o.as_ref().ok())
                                .cloned();
                            (Some(describe_choice(col, &job_refs, &ch.groups, &data)), ex)
                        }
                        None => (None, None),
                    },
                    None => (None, None),
                };
                cols.push(ColumnReport {
                    id: col.id.clone(),
                    cell,
                    chosen,
                    error: sr.first_error.clone(),
                    example,
                });
            }
            row_slots[ti][ri] = Some(RowReport {
                key: key.clone(),
                result: Ok(cols),
                kernel_names: data.kernel_names.clone(),
                n: data.n,
            });
        }
        if let Some(path) = &opts.records {
            crate::record::append(path, &records)?;
        }
    }
    progress.finish();
    for (ti, slots) in row_slots.into_iter().enumerate() {
        tables[ti].rows = slots.into_iter().flatten().collect();
    }
    Ok(Report {
        plan: plan.clone(),
        tables,
        seconds: t_start.elapsed().as_secs_f64(),
        recorded_runs,
        recorded_seconds,
    })
}
