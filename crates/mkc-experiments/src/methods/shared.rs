//! Work that the jobs of a grid share ([`Method::shared_key`](super::Method::shared_key)):
//! its value as the runner hands it out, and the helpers the adapters use to make it per
//! seed and to run from it.

use super::{Input, Outcome};
use mkc_core::{Clustering, Diagnostics, Error, KernelSet, Result};
use rayon::prelude::*;
use std::sync::Arc;

/// The value of work that jobs share ([`Method::shared_work`](super::Method::shared_work)),
/// downcast by the method that made it.
pub type SharedValue = Arc<dyn std::any::Any + Send + Sync>;

/// Shared work as one job receives it
/// ([`Method::run_restarts_shared`](super::Method::run_restarts_shared)).
#[derive(Clone)]
pub struct SharedWork {
    /// What [`Method::shared_work`](super::Method::shared_work) returned.
    pub value: SharedValue,
    /// Seconds of computing it charged to this job: an equal share among the jobs that
    /// use it.
    pub share: f64,
}

/// Charge every run its part of the shared work's seconds (`share` among the runs), in its
/// wall time and in its phase `phase`.
pub(crate) fn charge(runs: &mut [Result<Outcome>], share: f64, phase: &str) {
    let part = share / runs.len().max(1) as f64;
    for out in runs.iter_mut().flatten() {
        out.seconds += part;
        match out.phases.iter_mut().find(|(name, _)| name == phase) {
            Some((_, s)) => *s += part,
            None => out.phases.push((phase.to_string(), part)),
        }
    }
}

/// Work made once per seed, `work(set, seed)` for every seed in parallel, kept in seed
/// order (a `Vec<T>` as [`runs_per_seed`] takes it).
pub(crate) fn per_seed<T: Send + Sync + 'static>(
    input: &Input<'_>,
    seeds: &[u64],
    work: impl Fn(&KernelSet<'_>, u64) -> Result<T> + Sync,
) -> Result<SharedValue> {
    let set = input.kernel_set()?;
    let values = seeds
        .par_iter()
        .map(|&s| work(&set, s))
        .collect::<Result<Vec<T>>>()?;
    Ok(Arc::new(values))
}

/// The runs of a job from work made per seed ([`per_seed`]): `runs(set, seeds, work)`
/// gives one fit per seed, in seed order (each with its own wall time, as
/// `fit_restarts` gives it; [`each_seed`] fits them one by one in parallel), charged their
/// share of the work in `phase`. `None` when the shared value is not one `T` per seed (the
/// caller then runs without it); when the input is not a valid kernel set, every seed gets
/// that error (on `name`).
pub(crate) fn runs_per_seed<T: Sync + 'static, D: Diagnostics>(
    name: &str,
    input: &Input<'_>,
    seeds: &[u64],
    shared: &SharedWork,
    phase: &str,
    runs: impl FnOnce(&KernelSet<'_>, &[u64], &[T]) -> Vec<Result<Clustering<D>>>,
) -> Option<Vec<Result<Outcome>>> {
    let work = shared
        .value
        .downcast_ref::<Vec<T>>()
        .filter(|w| w.len() == seeds.len())?;
    let mut runs: Vec<Result<Outcome>> = match input.kernel_set() {
        Ok(set) => runs(&set, seeds, work)
            .into_iter()
            .map(|r| r.map(|c| Outcome::from(c.erase())))
            .collect(),
        Err(e) => seeds
            .iter()
            .map(|_| Err(Error::input(name, e.to_string())))
            .collect(),
    };
    charge(&mut runs, shared.share, phase);
    Some(runs)
}

/// `fit(set, seed, its work)` for every seed, in parallel and in seed order.
pub(crate) fn each_seed<T: Sync, D: Diagnostics>(
    set: &KernelSet<'_>,
    seeds: &[u64],
    work: &[T],
    fit: impl Fn(&KernelSet<'_>, u64, &T) -> Result<Clustering<D>> + Sync,
) -> Vec<Result<Clustering<D>>> {
    seeds
        .par_iter()
        .zip(work)
        .map(|(&seed, w)| fit(set, seed, w))
        .collect()
}
