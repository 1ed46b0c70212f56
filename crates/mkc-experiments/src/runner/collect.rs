//! Turning the runs of one dataset into scored groups (per spec) and run records,
//! sequentially in job order so that the result does not depend on the thread count.

use super::jobs::{point_params, seeds_of, Job, JobResult, Recorded, Spec};
use crate::config::{Plan, PlanColumn};
use crate::dataset::Prepared;
use crate::methods::Outcome;
use crate::metric::Scores;
use crate::record::RunRecord;
use crate::summary::Group;
use mkc_core::Result;

/// Scored runs of one spec.
pub(super) struct SpecRuns {
    /// Indices of the spec's jobs.
    pub jobs: Vec<usize>,
    /// One group per job, in job order.
    pub groups: Vec<Group>,
    /// The first error of a failed run.
    pub first_error: Option<String>,
}

/// Everything known about the runs of one dataset.
pub(super) struct DatasetRuns<'p> {
    pub plan: &'p Plan,
    pub data: &'p Prepared,
    pub specs: Vec<Spec<'p>>,
    pub jobs: Vec<Job<'p>>,
    /// Per job: its outcomes taken from the run records (resume).
    pub recorded: Vec<Option<Recorded>>,
    /// Per job: its runs, when it ran.
    pub results: Vec<Option<JobResult>>,
}

/// A group counts only when all its runs succeeded.
fn group(job: &Job<'_>, mut runs: Vec<Scores>, expected: usize) -> Group {
    if runs.len() != expected {
        runs.clear();
    }
    Group {
        point: job.point,
        kernel: job.kernel,
        runs,
    }
}

/// The group of a job taken from the records.
fn recorded_group(job: &Job<'_>, rec: &Recorded, first_error: &mut Option<String>) -> Group {
    let mut runs = Vec::new();
    for r in rec {
        match r {
            Ok((s, _)) => runs.push(*s),
            Err(e) => {
                first_error.get_or_insert_with(|| e.clone());
            }
        }
    }
    group(job, runs, rec.len())
}

/// One outcome with its scores and seconds (the run's own, else its share of the job).
fn score<'o>(
    data: &Prepared,
    out: &'o Result<Outcome>,
    share: f64,
) -> std::result::Result<(&'o Outcome, Scores, f64), String> {
    let o = out.as_ref().map_err(|e| e.to_string())?;
    let secs = if o.seconds > 0.0 { o.seconds } else { share };
    Scores::compute(&data.truth, &o.labels, secs)
        .map(|s| (o, s, secs))
        .map_err(|e| e.to_string())
}

impl DatasetRuns<'_> {
    /// Groups of every spec, and the records of the runs made now (not of those taken
    /// from the records).
    pub fn collect(&self, config_hash: &str) -> (Vec<SpecRuns>, Vec<RunRecord>) {
        let mut records = Vec::new();
        let runs = (0..self.specs.len())
            .map(|si| self.spec_runs(si, config_hash, &mut records))
            .collect();
        (runs, records)
    }

    /// The records of job `j`'s runs just made (`res`), written as soon as the job ends so
    /// that a killed run keeps every finished job (the same records [`Self::collect`]
    /// returns for it).
    pub fn job_records(&self, j: usize, res: &JobResult, config_hash: &str) -> Vec<RunRecord> {
        let job = &self.jobs[j];
        let template = self.template(job.spec, config_hash);
        self.fresh_runs(self.specs[job.spec].col, job, res, &template, &mut None)
    }

    /// The fields every record of spec `si` shares.
    fn template(&self, si: usize, config_hash: &str) -> RunRecord {
        let spec = &self.specs[si];
        let ids = |f: &dyn Fn(usize, usize) -> String| -> String {
            spec.users
                .iter()
                .map(|&(ti, ci)| f(ti, ci))
                .collect::<Vec<_>>()
                .join(",")
        };
        RunRecord {
            config_hash: config_hash.to_string(),
            config: self.plan.name.clone(),
            profile: self.plan.profile.clone(),
            table: ids(&|ti, _| self.plan.tables[ti].id.clone()),
            column: ids(&|ti, ci| self.plan.tables[ti].columns[ci].id.clone()),
            dataset: self.data.key.clone(),
            method: spec.col.method.clone().unwrap_or_default(),
            recipe: spec.recipe.map(str::to_string),
            n: self.data.n,
            n_clusters: self.data.n_clusters,
            ..RunRecord::default()
        }
    }

    fn spec_runs(&self, si: usize, config_hash: &str, records: &mut Vec<RunRecord>) -> SpecRuns {
        let spec = &self.specs[si];
        let template = self.template(si, config_hash);
        let jobs: Vec<usize> = (0..self.jobs.len())
            .filter(|&j| self.jobs[j].spec == si)
            .collect();
        let mut groups = Vec::new();
        let mut first_error = None;
        for &j in &jobs {
            let job = &self.jobs[j];
            if let Some(rec) = &self.recorded[j] {
                groups.push(recorded_group(job, rec, &mut first_error));
            } else if let Some(res) = &self.results[j] {
                let runs = self.fresh_runs(spec.col, job, res, &template, &mut first_error);
                let scores = runs.iter().filter_map(|r| r.metrics).collect();
                groups.push(group(job, scores, res.outcomes.len()));
                records.extend(runs);
            }
        }
        SpecRuns {
            jobs,
            groups,
            first_error,
        }
    }

    /// The records of a job's runs made now, scored.
    fn fresh_runs(
        &self,
        col: &PlanColumn,
        job: &Job<'_>,
        res: &JobResult,
        template: &RunRecord,
        first_error: &mut Option<String>,
    ) -> Vec<RunRecord> {
        let seeds = seeds_of(self.plan, col.restarts);
        let share = res.seconds / res.outcomes.len().max(1) as f64;
        let key = &self.data.key;
        let mut records = Vec::with_capacity(res.outcomes.len());
        for (r, out) in res.outcomes.iter().enumerate() {
            let (base_seed, restart, seed) = seeds.get(r).copied().unwrap_or((0, r, 0));
            let mut rec = RunRecord {
                params: point_params(col, key, job.point).clone(),
                kernel: job.kernel.map(|p| (p, self.data.kernel_names[p].clone())),
                base_seed,
                restart,
                seed,
                wall_time_s: share,
                ..template.clone()
            };
            match score(self.data, out, share) {
                Ok((o, s, secs)) => {
                    rec.metrics = Some(s);
                    rec.set_outcome(o);
                    rec.wall_time_s = secs;
                }
                Err(e) => {
                    first_error.get_or_insert_with(|| e.clone());
                    rec.error = Some(e);
                }
            }
            records.push(rec);
        }
        records
    }
}
