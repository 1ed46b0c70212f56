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
use crate::params::{ParamSet, ParamValue};
use crate::record::{read_lines, RunRecord, MKC_VERSION};
use mkc_core::Result;
use std::collections::{BTreeMap, HashMap};
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

/// The identity text of a job's parameters: canonical JSON (a `ParamSet` is ordered by
/// name) of the parameters whose values differ from the method's current defaults.
///
/// Leaving the defaults out keeps the records of a method usable when a parameter is
/// added to it later with the default that reproduces the earlier behaviour (IterSVR's
/// `kernel-type` and `max_epochs` for its feature-space path): the old records lack the
/// key, the new job has it at its default, and both drop it. A changed default, on the
/// other hand, makes the runs that relied on the old one run again: their records keep
/// the old value, which no longer equals the default. Numbers compare by value (an
/// integer `1` in a grid equals the default `1.0`). A method the registry does not know
/// keeps every parameter.
fn canonical(defaults: &mut Defaults, method: &str, params: &ParamSet) -> Option<String> {
    let specs = defaults
        .entry(method.to_string())
        .or_insert_with(|| default_values(method));
    let kept: BTreeMap<&String, &ParamValue> = params
        .0
        .iter()
        .filter(|(name, v)| specs.get(*name).is_none_or(|d| !same_value(d, v)))
        .collect();
    serde_json::to_string(&kept).ok()
}

/// The current defaults of a method's parameters, by name (required ones have none).
type Defaults = HashMap<String, BTreeMap<String, ParamValue>>;

fn default_values(method: &str) -> BTreeMap<String, ParamValue> {
    let Some(m) = crate::methods::find(method) else {
        return BTreeMap::new();
    };
    m.params()
        .iter()
        .filter(|s| !s.default.is_empty())
        .filter_map(|s| Some((s.name.to_string(), s.kind.parse(s.name, s.default).ok()?)))
        .collect()
}

/// Equal values, integers and reals compared by value.
fn same_value(a: &ParamValue, b: &ParamValue) -> bool {
    match (a, b) {
        (ParamValue::Int(i), ParamValue::Float(x)) | (ParamValue::Float(x), ParamValue::Int(i)) => {
            *i as f64 == *x
        }
        _ => a == b,
    }
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
        let mut defaults = Defaults::new();
        for r in records {
            if r.mkc_version != MKC_VERSION {
                continue;
            }
            let Some(params) = canonical(&mut defaults, &r.method, &r.params) else {
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
            params: canonical(&mut Defaults::new(), method, params)?,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn set(method: &str, given: &[(&str, ParamValue)]) -> ParamSet {
        let specs = crate::methods::find(method).unwrap().params();
        let given = given
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        ParamSet::from_specs(&specs, &given).unwrap()
    }

    #[test]
    fn identity_leaves_out_defaults_so_added_parameters_keep_old_records() {
        let mut d = Defaults::new();
        let full = set("itersvr", &[("C", ParamValue::Int(5))]);
        // An older record without the parameters added since (and without every other
        // default) has the same identity as today's job.
        let mut old = full.clone();
        old.0.retain(|k, _| k == "C");
        let a = canonical(&mut d, "itersvr", &full).unwrap();
        assert_eq!(a, canonical(&mut d, "itersvr", &old).unwrap());
        assert_eq!(a, r#"{"C":5}"#);
        // Integers equal reals of the same value: C = 1 is the default 1.0.
        let one = set("itersvr", &[("C", ParamValue::Int(1))]);
        assert_eq!(canonical(&mut d, "itersvr", &one).unwrap(), "{}");
    }

    #[test]
    fn identity_keeps_values_off_the_default_and_unknown_methods_keep_all() {
        let mut d = Defaults::new();
        let base = set("itersvr", &[]);
        let mut changed = base.clone();
        changed.0.insert("max_iter".into(), ParamValue::Int(7));
        let c = canonical(&mut d, "itersvr", &changed).unwrap();
        assert_eq!(c, r#"{"max_iter":7}"#);
        assert_ne!(c, canonical(&mut d, "itersvr", &base).unwrap());
        let kept = canonical(&mut d, "no-such-method", &base).unwrap();
        assert_eq!(kept, serde_json::to_string(&base).unwrap());
    }
}
