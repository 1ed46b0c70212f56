//! The work of one dataset: specs (distinct runs that columns share), jobs (a spec's grid
//! point on one kernel or on all), their lookup in the run records and their runs.

use crate::config::{Plan, PlanColumn};
use crate::dataset::Prepared;
use crate::methods::{self, Input, KernelUse, Outcome, SharedWork};
use crate::params::ParamSet;
use crate::resume::RecordIndex;
use mkc_core::seed::derive;
use mkc_core::Result;
use std::time::Instant;

/// Recorded outcomes of one job: scores and outcome per restart (no labels), or the
/// error of a failed run.
pub(super) type Recorded = crate::resume::RecordedOutcomes;

/// A distinct (method, grid, restarts, recipe) run of one dataset; columns that ask for
/// the same runs (e.g. "best kernel" and "average over kernels" of one method) share it.
pub(super) struct Spec<'p> {
    pub col: &'p PlanColumn,
    /// (table index, column index) of every column using these runs.
    pub users: Vec<(usize, usize)>,
    /// The recipe of its kernels when it is not the row's own (`row_recipes`).
    pub recipe: Option<&'p str>,
}

/// The specs of one dataset that run on the kernels of one recipe (`None`: the row's
/// own), built, run and dropped together.
pub(super) struct Unit<'p> {
    pub recipe: Option<&'p str>,
    pub specs: Vec<Spec<'p>>,
}

/// One unit of parallel work: a grid point of a spec on one kernel (or all kernels).
pub(super) struct Job<'p> {
    pub spec: usize,
    pub col: &'p PlanColumn,
    pub point: usize,
    pub kernel: Option<usize>,
}

/// The runs of one job, in seed order, and the job's wall-clock seconds.
pub(super) struct JobResult {
    pub outcomes: Vec<Result<Outcome>>,
    pub seconds: f64,
}

/// (base seed, restart, derived seed) of every run of a column with `restarts`.
pub(super) fn seeds_of(plan: &Plan, restarts: usize) -> Vec<(u64, usize, u64)> {
    plan.seeds
        .iter()
        .flat_map(|&s| (0..restarts).map(move |r| (s, r, derive(s, r as u64))))
        .collect()
}

/// The parameters of grid point `point` of `col` on dataset row `key` (row parameters
/// of the table applied).
pub(super) fn point_params<'c>(col: &'c PlanColumn, key: &str, point: usize) -> &'c ParamSet {
    col.row_points
        .get(key)
        .map_or(&col.points[point], |v| &v[point])
}

/// The specs of dataset `key`: one per distinct run of the columns with a method.
pub(super) fn specs<'p>(plan: &'p Plan, key: &String) -> Vec<Spec<'p>> {
    let mut specs: Vec<Spec<'p>> = Vec::new();
    for (ti, t) in plan.tables.iter().enumerate() {
        if !t.rows.contains(key) {
            continue;
        }
        for (ci, col) in t.columns.iter().enumerate() {
            if !col.runs_on(key) {
                continue;
            }
            let recipe = col.recipe_on(key);
            match specs.iter_mut().find(|s| {
                s.col.method == col.method
                    && s.col.points == col.points
                    && s.col.row_points.get(key) == col.row_points.get(key)
                    && s.col.restarts == col.restarts
                    && s.recipe == recipe
            }) {
                Some(s) => s.users.push((ti, ci)),
                None => specs.push(Spec {
                    col,
                    users: vec![(ti, ci)],
                    recipe,
                }),
            }
        }
    }
    specs
}

/// The specs of dataset `key` by recipe: the row's own first (also when no spec uses
/// it but none uses another either: a row of paper values only still shows its size),
/// then the others in the order the columns name them. Running the units one after the
/// other keeps one recipe's kernels in memory at a time.
pub(super) fn units<'p>(plan: &'p Plan, key: &String) -> Vec<Unit<'p>> {
    let mut units: Vec<Unit<'p>> = vec![Unit {
        recipe: None,
        specs: Vec::new(),
    }];
    for spec in specs(plan, key) {
        match units.iter_mut().find(|u| u.recipe == spec.recipe) {
            Some(u) => u.specs.push(spec),
            None => units.push(Unit {
                recipe: spec.recipe,
                specs: vec![spec],
            }),
        }
    }
    if units[0].specs.is_empty() && units.len() > 1 {
        units.remove(0);
    }
    units
}

/// The jobs of `specs` on a dataset with `m` kernels: single-kernel methods get one
/// job per kernel (or one without a kernel on features-only data), the others one.
pub(super) fn jobs<'p>(specs: &[Spec<'p>], m: usize) -> Vec<Job<'p>> {
    let mut jobs = Vec::new();
    for (si, spec) in specs.iter().enumerate() {
        let Some(method) = spec.col.method.as_deref().and_then(methods::find) else {
            continue;
        };
        let kernels: Vec<Option<usize>> = match method.kernels() {
            KernelUse::Single if m > 0 => (0..m).map(Some).collect(),
            _ => vec![None],
        };
        for point in 0..spec.col.points.len() {
            jobs.extend(kernels.iter().map(|&kernel| Job {
                spec: si,
                col: spec.col,
                point,
                kernel,
            }));
        }
    }
    jobs
}

/// The recorded outcomes of every job whose runs are all on record.
pub(super) fn lookup(
    plan: &Plan,
    index: Option<&RecordIndex>,
    key: &str,
    jobs: &[Job<'_>],
) -> Vec<Option<Recorded>> {
    jobs.iter()
        .map(|j| {
            let index = index?;
            let method = j.col.method.as_deref()?;
            index.lookup(
                &plan.profile,
                key,
                method,
                point_params(j.col, key, j.point),
                (j.kernel, j.col.recipe_on(key)),
                &seeds_of(plan, j.col.restarts),
            )
        })
        .collect()
}

/// The seeds of the runs of `job`, in restart order.
pub(super) fn job_seeds(plan: &Plan, job: &Job<'_>) -> Vec<u64> {
    seeds_of(plan, job.col.restarts)
        .iter()
        .map(|s| s.2)
        .collect()
}

/// What the method of `job` sees of `data`: every kernel, or the job's one.
pub(super) fn input_of<'d>(job: &Job<'_>, data: &'d Prepared) -> Input<'d> {
    let (kernels, names) = match job.kernel {
        Some(p) => (&data.kernels[p..p + 1], &data.kernel_names[p..p + 1]),
        None => (&data.kernels[..], &data.kernel_names[..]),
    };
    Input {
        kernels,
        kernel_names: names,
        features: data.features_of(job.kernel),
        n_clusters: data.n_clusters,
        n: data.n,
    }
}

/// Run every restart of one job, with the work it shares with other jobs when given
/// (module `shared`; the outcomes are the same, its seconds include the job's share).
pub(super) fn run_job(
    plan: &Plan,
    job: &Job<'_>,
    data: &Prepared,
    shared: Option<&SharedWork>,
) -> JobResult {
    let t0 = Instant::now();
    let Some(method) = job.col.method.as_deref().and_then(methods::find) else {
        return JobResult {
            outcomes: vec![],
            seconds: 0.0,
        };
    };
    let input = input_of(job, data);
    let seeds = job_seeds(plan, job);
    let params = point_params(job.col, &data.key, job.point);
    let outcomes = match shared {
        Some(work) => method.run_restarts_shared(&input, params, &seeds, work),
        None => method.run_restarts(&input, params, &seeds),
    };
    let share = shared.map_or(0.0, |w| w.share);
    JobResult {
        outcomes,
        seconds: t0.elapsed().as_secs_f64() + share,
    }
}
