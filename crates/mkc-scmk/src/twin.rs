//! What SCSK and SCMK share through the method API: one fit (the loop, then k-means on
//! P), the [`Clustering`] it becomes, and restarts that run the deterministic loop once.

use std::time::Instant;

use faer::MatRef;
use mkc_core::{
    check_n_clusters, Clustering, KernelSet, KernelWeights, Result, Timings, WeightConstraint,
};
use rayon::prelude::*;

use crate::alternate::{alternate, finish};
use crate::fit::{TwinDiagnostics, TwinFit};
use crate::params::Settings;
use crate::step_sizes::StepSizes;

/// One run on validated kernels: the loop, then k-means on P with `seed`.
pub(crate) fn run(
    s: &Settings,
    kernels: &[MatRef<'_, f64>],
    learn_weights: bool,
    n_clusters: usize,
    seed: u64,
) -> Result<(TwinFit, Timings)> {
    let t0 = Instant::now();
    let mut timings = Timings::default();
    let lp = alternate(s, kernels, learn_weights, n_clusters, None, &mut timings)?;
    let fit = finish(lp, s, n_clusters, seed, &mut timings)?;
    timings.set_wall(t0.elapsed().as_secs_f64());
    Ok((fit, timings))
}

/// The contract's result: labels, the objective trace of eq. (7) / (18), iterations,
/// the stopping rule, timings and [`TwinDiagnostics`]; SCMK's weights on
/// [`WeightConstraint::SqrtSimplex`] (eq. 22).
pub(crate) fn clustering(
    fit: TwinFit,
    timings: Timings,
    n_clusters: usize,
    learn_weights: bool,
) -> Clustering<TwinDiagnostics> {
    let out = Clustering::new(fit.labels, n_clusters, TwinDiagnostics::of(&fit.info))
        .with_iterations(fit.info.iterations, fit.info.converged)
        .with_objective(fit.info.objective)
        .with_timings(timings);
    if learn_weights {
        out.with_weights(KernelWeights::new(
            fit.weights,
            WeightConstraint::SqrtSimplex,
        ))
    } else {
        out
    }
}

/// One fit per seed: the loop (which does not depend on the seed) runs once, then
/// k-means on P per seed. Each run's timings hold an equal share of the loop's phases
/// plus its own k-means, and its wall time an equal share of the loop plus its own part.
/// With `steps` (those of `kernels` under `s`) the loop does not compute them.
pub(crate) fn restarts(
    s: &Settings,
    kernels: &[MatRef<'_, f64>],
    learn_weights: bool,
    n_clusters: usize,
    seeds: &[u64],
    steps: Option<&StepSizes>,
) -> Vec<Result<Clustering<TwinDiagnostics>>> {
    let single = |seed: u64| {
        run(s, kernels, learn_weights, n_clusters, seed)
            .map(|(fit, t)| clustering(fit, t, n_clusters, learn_weights))
    };
    if seeds.is_empty() {
        return Vec::new();
    }
    let t0 = Instant::now();
    let mut shared = Timings::default();
    let lp = match alternate(s, kernels, learn_weights, n_clusters, steps, &mut shared) {
        Ok(lp) => lp,
        // The loop fails the same way for every seed: each other run says so itself.
        Err(e) => {
            return std::iter::once(Err(e))
                .chain(seeds[1..].iter().map(|&seed| single(seed)))
                .collect()
        }
    };
    let m = seeds.len() as f64;
    let share = t0.elapsed().as_secs_f64() / m;
    seeds
        .par_iter()
        .map(|&seed| {
            let t = Instant::now();
            let mut timings = Timings::default();
            for &(phase, secs) in shared.phases() {
                timings.add(phase, secs / m);
            }
            let fit = finish(lp.clone(), s, n_clusters, seed, &mut timings)?;
            timings.set_wall(share + t.elapsed().as_secs_f64());
            Ok(clustering(fit, timings, n_clusters, learn_weights))
        })
        .collect()
}

/// `f` on the kernels the method reads from the set: every kernel for SCMK
/// (`learn_weights`), the one kernel (or the mean of several) for SCSK.
fn with_kernels<T>(
    data: &KernelSet<'_>,
    learn_weights: bool,
    f: impl FnOnce(&[MatRef<'_, f64>]) -> T,
) -> Result<T> {
    if learn_weights {
        Ok(f(data.require_kernels("scmk")?))
    } else {
        let k = data.one_kernel("scsk")?;
        Ok(f(&[k.as_mat()]))
    }
}

/// The contract's `fit` of SCMK (`learn_weights`) or SCSK on a kernel set.
pub(crate) fn fit_set(
    s: &Settings,
    data: &KernelSet<'_>,
    learn_weights: bool,
    n_clusters: usize,
    seed: u64,
) -> Result<Clustering<TwinDiagnostics>> {
    check_n_clusters(data, n_clusters, 1)?;
    let (fit, timings) = with_kernels(data, learn_weights, |ks| {
        run(s, ks, learn_weights, n_clusters, seed)
    })??;
    Ok(clustering(fit, timings, n_clusters, learn_weights))
}

/// The contract's `fit_restarts` of SCMK or SCSK on a kernel set ([`restarts`]).
pub(crate) fn restarts_set(
    s: &Settings,
    data: &KernelSet<'_>,
    learn_weights: bool,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Clustering<TwinDiagnostics>>> {
    let runs = check_n_clusters(data, n_clusters, 1).and_then(|_| {
        with_kernels(data, learn_weights, |ks| {
            restarts(s, ks, learn_weights, n_clusters, seeds, None)
        })
    });
    match runs {
        Ok(runs) => runs,
        // Bad data: every seed fails the same way.
        Err(_) => seeds
            .iter()
            .map(|&seed| fit_set(s, data, learn_weights, n_clusters, seed))
            .collect(),
    }
}

/// The step sizes of a fit of SCMK (`learn_weights`) or SCSK on a kernel set
/// ([`StepSizes`]).
pub(crate) fn step_sizes_set(
    s: &Settings,
    data: &KernelSet<'_>,
    learn_weights: bool,
) -> Result<StepSizes> {
    with_kernels(data, learn_weights, |ks| StepSizes::compute(s, ks))?
}

/// [`restarts_set`] from step sizes `steps` made for the same kernels and settings: the
/// same runs bit for bit, their "init" phase without the step sizes' seconds. Step sizes
/// of other kernels (n, number) or another eigensolver seed or kind of Z solver: a typed
/// error for every seed.
pub(crate) fn restarts_with_set(
    s: &Settings,
    data: &KernelSet<'_>,
    learn_weights: bool,
    n_clusters: usize,
    seeds: &[u64],
    steps: &StepSizes,
) -> Vec<Result<Clustering<TwinDiagnostics>>> {
    if seeds.is_empty() {
        return Vec::new();
    }
    let runs = check_n_clusters(data, n_clusters, 1).and_then(|_| {
        with_kernels(data, learn_weights, |ks| -> Result<_> {
            steps.check(s, ks)?;
            Ok(restarts(
                s,
                ks,
                learn_weights,
                n_clusters,
                seeds,
                Some(steps),
            ))
        })?
    });
    match runs {
        Ok(runs) => runs,
        // Bad data or step sizes: every seed fails the same way, each saying so itself.
        Err(e) => std::iter::once(Err(e))
            .chain(seeds[1..].iter().flat_map(|&seed| {
                restarts_with_set(s, data, learn_weights, n_clusters, &[seed], steps)
            }))
            .collect(),
    }
}

/// `impl Clusterer` for the checked SCMK / SCSK type `$ty` (registry name `$name`;
/// `$learn`: SCMK, which learns the kernel weights), then for its builder `$params`
/// through `clusterer_via_check!`. `$fit_doc` documents `fit`.
macro_rules! twin_clusterer {
    ($ty:ty, $params:ty, $name:literal, $learn:expr, $fit_doc:expr) => {
        impl mkc_core::Clusterer for $ty {
            type Diagnostics = $crate::TwinDiagnostics;
            fn name(&self) -> &'static str {
                $name
            }
            fn validate_params(&self) -> mkc_core::Result<()> {
                Ok(())
            }
            #[doc = $fit_doc]
            fn fit(
                &self,
                data: &mkc_core::KernelSet<'_>,
                n_clusters: usize,
                seed: u64,
            ) -> mkc_core::Result<mkc_core::Clustering<$crate::TwinDiagnostics>> {
                $crate::twin::fit_set(&self.s, data, $learn, n_clusters, seed)
            }
            /// The kernel (SCSK: or the mean of the set's kernels) is formed and the
            /// alternating loop run once; each seed redoes only the k-means on P.
            fn fit_restarts(
                &self,
                data: &mkc_core::KernelSet<'_>,
                n_clusters: usize,
                seeds: &[u64],
            ) -> Vec<mkc_core::Result<mkc_core::Clustering<$crate::TwinDiagnostics>>> {
                $crate::twin::restarts_set(&self.s, data, $learn, n_clusters, seeds)
            }
        }

        mkc_core::clusterer_via_check!($params, $name);
    };
}
pub(crate) use twin_clusterer;
