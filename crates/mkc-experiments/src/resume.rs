//! Resuming a reproduction from its run records.
//!
//! A full protocol can take longer than one sitting (RMKC's Tables 1–4: many hours on two
//! cores). The runner appends every dataset's records to `results/runs/<config>.jsonl`
//! as soon as the dataset is done, so an interrupted run loses at most the dataset in
//! progress. With [`RecordIndex`] the next run takes every job whose runs are all on
//! record instead of running it again.
//!
//! A job is identified by what determines its runs: profile, dataset key, method, the
//! full parameter set, the kernel index, the recipe when a column runs on another recipe
//! than the row's own (`row_recipes`; records of runs on the row's own recipe have no
//! `recipe`, as every record written before the field existed), and the seed of every
//! restart (base seed, restart index, derived seed). The config hash is *not* part of the identity, so
//! editing a table's notes or adding a dataset keeps the records usable; records of
//! another mkc version are ignored. The index trusts that the code and the data have not
//! changed in ways the identity does not see (a different recipe for the same dataset
//! key, a changed algorithm); regenerate from scratch (delete the records file) after
//! such changes.
//!
//! Besides the scores, the index keeps what each successful run produced (weights,
//! objective trace, iterations, diagnostics; not its labels, which records do not
//! hold), so that the tables and figures that show a run (learned weights, objective
//! traces) come out of the records as they come out of a fresh run.

use crate::methods::Outcome;
use crate::metric::Scores;
use crate::params::ParamSet;
use crate::record::{read_lines, RunRecord, MKC_VERSION};
use mkc_core::Result;
use std::collections::HashMap;
use std::path::Path;

/// The identity of one job (all its restarts) in the index.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct JobKey {
    profile: String,
    dataset: String,
    method: String,
    /// Canonical JSON of the parameter set (keys sorted).
    params: String,
    kernel: Option<usize>,
    /// The recipe when it is not the dataset row's own (`row_recipes`); `None` for runs
    /// on the row's own recipe, as in every record written before the field existed.
    recipe: Option<String>,
}

/// One recorded run: its seed and its scores with what it produced, or the error it
/// failed with.
#[derive(Debug, Clone)]
struct RecordedRun {
    seed: u64,
    outcome: std::result::Result<(Scores, Outcome), String>,
}

/// A run's outcome as its record keeps it (no labels).
fn outcome_of(r: &RunRecord) -> Outcome {
    Outcome {
        labels: Vec::new(),
        weights: r.weights.clone(),
        objective: r.objective.clone(),
        iterations: r.iterations,
        diagnostics: r.diagnostics.clone(),
        seconds: r.wall_time_s,
        converged: r.converged,
        phases: r.phases.clone(),
    }
}

/// The recorded outcomes of one job, in seed order (see [`RecordIndex::lookup`]).
pub type RecordedOutcomes = Vec<std::result::Result<(Scores, Outcome), String>>;

/// Recorded runs by job identity (see the module docs). Later records of the same run
/// replace earlier ones.
#[derive(Debug, Default)]
pub struct RecordIndex {
    runs: HashMap<JobKey, HashMap<(u64, usize), RecordedRun>>,
    /// Lines read.
    pub lines: usize,
}

/// The parameters as canonical JSON text (a `ParamSet` is ordered by name).
fn canonical(params: &ParamSet) -> Option<String> {
    serde_json::to_string(params).ok()
}

impl RecordIndex {
    /// Read a records file; a missing file gives an empty index. Lines that do not parse
    /// (e.g. the half-written last line of a killed run) are skipped.
    pub fn read(path: &Path) -> Result<Self> {
        let (records, lines) = read_lines::<RunRecord>(path)?;
        let mut idx = Self {
            lines,
            ..Self::default()
        };
        for r in records {
            if r.mkc_version != MKC_VERSION {
                continue;
            }
            let Some(params) = canonical(&r.params) else {
                continue;
            };
            let outcome = match (r.metrics, &r.error) {
                (_, Some(e)) => Err(e.clone()),
                (Some(s), None) => Ok((s, outcome_of(&r))),
                (None, None) => continue,
            };
            let key = JobKey {
                profile: r.profile,
                dataset: r.dataset,
                method: r.method,
                params,
                kernel: r.kernel.map(|k| k.0),
                recipe: r.recipe,
            };
            idx.runs.entry(key).or_default().insert(
                (r.base_seed, r.restart),
                RecordedRun {
                    seed: r.seed,
                    outcome,
                },
            );
        }
        Ok(idx)
    }

    /// The recorded runs of a job, in the order of `seeds` (base seed, restart, derived
    /// seed), when every one of them is on record with the same derived seed: the scores
    /// and what the run produced (its weights, objective trace, iterations, diagnostics,
    /// convergence, phases and wall time as `seconds`; `labels` empty, records do not
    /// keep them), or the error of a failed run. `kernel` is `(index, recipe)`: the
    /// recipe `None` for the dataset row's own, else the column's `row_recipes` entry.
    pub fn lookup(
        &self,
        profile: &str,
        dataset: &str,
        method: &str,
        params: &ParamSet,
        (kernel, recipe): (Option<usize>, Option<&str>),
        seeds: &[(u64, usize, u64)],
    ) -> Option<RecordedOutcomes> {
        let key = JobKey {
            profile: profile.to_string(),
            dataset: dataset.to_string(),
            method: method.to_string(),
            params: canonical(params)?,
            kernel,
            recipe: recipe.map(str::to_string),
        };
        let runs = self.runs.get(&key)?;
        seeds
            .iter()
            .map(|&(b, r, s)| {
                runs.get(&(b, r))
                    .filter(|run| run.seed == s)
                    .map(|run| run.outcome.clone())
            })
            .collect()
    }

    /// Number of distinct jobs on record.
    pub fn jobs(&self) -> usize {
        self.runs.len()
    }
}
