//! Restarts of a method that ignores its seed.

use mkc_core::{Clusterer, Clustering, KernelSet, Result};

/// [`Clusterer::fit_restarts`] for a deterministic method (one that ignores its seed, such as
/// global kernel k-means, GUMKL or MVKKM): one fit, copied for every seed instead of the
/// same work repeated per seed. Each copy's wall time is an equal share of the fit's
/// (the shared part of the contract's timing rule; nothing is run per seed). When the fit
/// fails, every seed gets the error of its own fit.
pub fn seed_free_restarts<C: Clusterer + ?Sized>(
    method: &C,
    data: &KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Clustering<C::Diagnostics>>> {
    let Some(&first) = seeds.first() else {
        return Vec::new();
    };
    let t0 = std::time::Instant::now();
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
