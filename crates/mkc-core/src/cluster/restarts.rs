//! Restarts that share work, for [`Clusterer::fit_restarts`] overrides: deterministic
//! methods fit once ([`seed_free_restarts`]); single-kernel methods given several kernels
//! form their mean kernel once ([`one_kernel_restarts`]).

use super::{Clusterer, Clustering, KernelSet};
use crate::Result;
use rayon::prelude::*;
use std::time::Instant;

/// `method.fit` for every seed, in parallel and in seed order; each run's wall time is its
/// own plus `share` seconds of work done once for all of them (when the fit did not set
/// its own wall time, it is measured here). Results do not depend on the number of threads.
pub fn parallel_fits<C: Clusterer + ?Sized>(
    method: &C,
    data: &KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
    share: f64,
) -> Vec<Result<Clustering<C::Diagnostics>>> {
    seeds
        .par_iter()
        .map(|&s| {
            let t0 = Instant::now();
            let mut fit = method.fit(data, n_clusters, s)?;
            let own = match fit.timings.wall() {
                w if w > 0.0 => w,
                _ => t0.elapsed().as_secs_f64(),
            };
            fit.timings.set_wall(own + share);
            Ok(fit)
        })
        .collect()
}

/// [`Clusterer::fit_restarts`] for a deterministic method (one that ignores its seed, such
/// as global kernel k-means, GUMKL or MVKKM): one fit, copied for every seed instead of
/// the same work repeated per seed. Each copy's wall time is an equal share of the fit's.
/// When the fit fails, every seed gets the error of its own fit.
pub fn seed_free_restarts<C: Clusterer + ?Sized>(
    method: &C,
    data: &KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Clustering<C::Diagnostics>>> {
    let Some(&first) = seeds.first() else {
        return Vec::new();
    };
    let t0 = Instant::now();
    match method.fit(data, n_clusters, first) {
        Ok(mut fit) => {
            fit.timings
                .set_wall(t0.elapsed().as_secs_f64() / seeds.len() as f64);
            seeds.iter().map(|_| Ok(fit.clone())).collect()
        }
        Err(e) => std::iter::once(Err(e))
            .chain(seeds[1..].iter().map(|&s| method.fit(data, n_clusters, s)))
            .collect(),
    }
}

/// [`Clusterer::fit_restarts`] for a single-kernel method (one whose `fit` works on
/// [`KernelSet::one_kernel`]): given several kernels, their equal-weight mean is formed
/// once and every seed fits on it (features kept); each run's wall time includes an equal
/// share of forming it. When the mean cannot be formed (no kernels), every seed gets the
/// error of its own fit.
pub fn one_kernel_restarts<C: Clusterer + ?Sized>(
    method: &C,
    data: &KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Clustering<C::Diagnostics>>> {
    if data.len() <= 1 {
        return parallel_fits(method, data, n_clusters, seeds, 0.0);
    }
    let t0 = Instant::now();
    let Ok(mean) = data.mean_kernel(method.name()) else {
        return seeds
            .iter()
            .map(|&s| method.fit(data, n_clusters, s))
            .collect();
    };
    let one = data.with_single_kernel(mean.as_ref());
    let share = t0.elapsed().as_secs_f64() / seeds.len().max(1) as f64;
    parallel_fits(method, &one, n_clusters, seeds, share)
}
