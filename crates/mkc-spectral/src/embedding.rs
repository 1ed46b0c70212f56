//! What AASC and MVSpec share: a deterministic spectral embedding (with its kernel weights
//! and objective trace), then seeded k-means on its rows. Only the final k-means depends on
//! the seed, so restarts compute the embedding once ([`restarts`]).

use std::time::Instant;

use faer::{Mat, MatRef};
use mkc_core::{
    check_n_clusters, mkc_ensure, Clustering, KernelSet, KernelWeights, ParamGuard, Result, Timings,
};
use mkc_gumkl::Composite;
use mkc_kmeans::{normalize_rows_and_cluster, KMeans, KMeansParams};
use rayon::prelude::*;

/// The final k-means on the rows of the embedding.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FinalKMeans {
    /// k-means replicates (k-means++ seeding); the lowest inertia wins.
    pub n_init: usize,
    /// Lloyd iterations per replicate.
    pub max_iter: usize,
    /// Scale every row of the embedding to unit length first (Ng, Jordan & Weiss).
    pub normalize_rows: bool,
}

impl FinalKMeans {
    /// The authors' final k-means: `n_init` replicates of at most 1000 Lloyd iterations
    /// on the row-normalised embedding.
    pub(crate) const fn authors(n_init: usize) -> Self {
        FinalKMeans {
            n_init,
            max_iter: 1000,
            normalize_rows: true,
        }
    }

    /// The checked k-means; errors name `n_init` or `kmeans_max_iter`.
    pub(crate) fn check(&self) -> Result<KMeans> {
        mkc_ensure!(self.n_init >= 1, param "n_init", self.n_init, "must be at least 1");
        mkc_ensure!(self.max_iter >= 1, param "kmeans_max_iter", self.max_iter, "must be at least 1");
        KMeansParams::new()
            .n_init(self.n_init)
            .max_iter(self.max_iter)
            .check()
    }
}

/// The kernels, the composite kernel and the weights a method starts from.
pub(crate) type Start<'s, 'a> = (&'s [MatRef<'a, f64>], Composite, Vec<f64>);

/// The start both methods share: the set's kernels (an error names `method` when there
/// are none), `c` checked as a number of clusters (at least `min`), an empty composite
/// kernel and the uniform weights `1/m`.
pub(crate) fn uniform_start<'s, 'a>(
    data: &'s KernelSet<'a>,
    method: &str,
    c: usize,
    min: usize,
) -> Result<Start<'s, 'a>> {
    let kernels = data.require_kernels(method)?;
    check_n_clusters(data, c, min)?;
    let m = kernels.len();
    Ok((
        kernels,
        Composite::new(data.n(), m),
        vec![1.0 / m as f64; m],
    ))
}

/// Diagnostics that record the inertia of the final k-means.
pub(crate) trait WithInertia {
    fn set_inertia(&mut self, inertia: f64);
}

/// The seed-free part of a fit: everything but the final k-means.
#[derive(Debug, Clone)]
pub(crate) struct Embedded<D> {
    /// n x c embedding (not yet row-normalised).
    pub vectors: Mat<f64>,
    pub weights: KernelWeights,
    pub objective: Vec<f64>,
    pub iterations: usize,
    pub converged: bool,
    pub timings: Timings,
    pub diagnostics: D,
}

impl<D: Clone + WithInertia> Embedded<D> {
    /// The fit for one seed: k-means on the (row-normalised) embedding.
    pub(crate) fn label(
        &self,
        kmeans: &KMeans,
        normalize_rows: bool,
        n_clusters: usize,
        seed: u64,
    ) -> Result<Clustering<D>> {
        let mut timings = self.timings.clone();
        let fit = timings.time("kmeans", || {
            if normalize_rows {
                let mut y = self.vectors.clone();
                normalize_rows_and_cluster(&mut y, kmeans, n_clusters, seed)
            } else {
                kmeans.fit_features(self.vectors.as_ref(), n_clusters, seed)
            }
        })?;
        let mut diagnostics = self.diagnostics.clone();
        diagnostics.set_inertia(fit.inertia);
        Ok(Clustering::new(fit.labels, n_clusters, diagnostics)
            .with_weights(self.weights.clone())
            .with_objective(self.objective.clone())
            .with_iterations(self.iterations, self.converged)
            .with_timings(timings))
    }
}

/// One fit: the embedding, then k-means with `seed`; the wall time is the whole run.
pub(crate) fn single<D: Clone + WithInertia>(
    embed: impl FnOnce() -> Result<Embedded<D>>,
    final_kmeans: &FinalKMeans,
    n_clusters: usize,
    seed: u64,
) -> Result<Clustering<D>> {
    let t0 = Instant::now();
    let kmeans = final_kmeans.check()?;
    let mut fit = embed()?.label(&kmeans, final_kmeans.normalize_rows, n_clusters, seed)?;
    fit.timings.set_wall(t0.elapsed().as_secs_f64());
    Ok(fit)
}

/// Restarts sharing one embedding: k-means per seed (in parallel, results in seed order and
/// independent of the thread count); each run's wall time is its own k-means plus an equal
/// share of the embedding. When the embedding fails, every seed gets the error of its own
/// attempt.
pub(crate) fn restarts<D: Clone + Send + Sync + WithInertia>(
    embed: impl Fn() -> Result<Embedded<D>>,
    final_kmeans: &FinalKMeans,
    n_clusters: usize,
    seeds: &[u64],
) -> Vec<Result<Clustering<D>>> {
    if seeds.is_empty() {
        return Vec::new();
    }
    let t0 = Instant::now();
    let shared = final_kmeans.check().and_then(|km| Ok((km, embed()?)));
    let (kmeans, embedded) = match shared {
        Ok(s) => s,
        Err(e) => {
            return std::iter::once(Err(e))
                .chain(
                    seeds[1..]
                        .iter()
                        .map(|&s| single(&embed, final_kmeans, n_clusters, s)),
                )
                .collect()
        }
    };
    let share = t0.elapsed().as_secs_f64() / seeds.len() as f64;
    seeds
        .par_iter()
        .map(|&seed| {
            let t = Instant::now();
            let mut fit = embedded.label(&kmeans, final_kmeans.normalize_rows, n_clusters, seed)?;
            fit.timings.set_wall(t.elapsed().as_secs_f64() + share);
            Ok(fit)
        })
        .collect()
}

/// `impl Clusterer` for a checked embedding method (with `embed(data, n_clusters)` and its
/// parameters in `p`, whose `kmeans` is the final k-means): `fit` embeds and runs k-means
/// with the seed, `fit_restarts` embeds once and runs k-means per seed; and the contract
/// for the unchecked parameters (`clusterer_via_check!`). The doc comment is `fit`'s.
macro_rules! clusterer_by_embedding {
    ($ty:ty, $params:ty => $name:literal, $diag:ty; $(#[$doc:meta])*) => {
        mkc_core::clusterer! {
            $ty, $name, $diag;
            $(#[$doc])*
            fn fit(&self, data, n_clusters, seed) {
                $crate::embedding::single(
                    || self.embed(data, n_clusters), &self.p.kmeans, n_clusters, seed,
                )
            }
            /// The embedding once, then k-means per seed.
            fn fit_restarts(&self, data, n_clusters, seeds) {
                $crate::embedding::restarts(
                    || self.embed(data, n_clusters), &self.p.kmeans, n_clusters, seeds,
                )
            }
        }
        mkc_core::clusterer_via_check!($params, $name);
    };
}
pub(crate) use clusterer_by_embedding;
