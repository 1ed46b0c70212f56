//! k-means, kernel k-means, kernel k-medoids and the greedy medoid initialisation of
//! GUMKL — seeded, deterministic whatever the number of rayon threads, and parallel.
//!
//! - [`KMeansParams`] → [`KMeans`]: Lloyd's k-means on the rows of a feature matrix,
//!   greedy k-means++ seeding and `n_init` restarts in parallel (scikit-learn's
//!   defaults and stopping rule). Used on the rows of eigenvector matrices.
//! - [`KernelKMeansParams`] → [`KernelKMeans`]: (weighted) kernel k-means on a
//!   precomputed kernel. One kernel product per iteration, computed as sparse sums
//!   (n² multiply-adds instead of the n²k of a dense `K·H`; see `cluster_sums.rs`),
//!   one pass over the kernel per iteration for all restarts of a fit (each the same as
//!   alone); k-means++ in feature space or given initial labels; objective trace.
//! - [`greedy_medoids`] (GUMKL eq. 3) and [`KernelKMedoidsParams`] → [`KernelKMedoids`]
//!   (GUMKL eq. 2).
//! - [`GlobalKernelKMeansParams`] → [`GlobalKernelKMeans`]: global kernel k-means
//!   (Tzortzis & Likas 2009, the kernel form of Likas, Vlassis & Verbeek's global k-means),
//!   deterministic: clusters added one at a time, every point tried as the seed of the
//!   new one (or, in the fast variant, the point of largest bound).
//!
//! Empty clusters are handled as scikit-learn does: every cluster left empty by an
//! assignment step receives one of the points farthest from their current centre
//! (descending distance, ties to the lowest index, never emptying another cluster).
//! This never increases the objective: the moved point's cost drops to 0 and the
//! cluster it left is re-centred on its remaining members.
//!
//! Determinism: restart r draws from `mkc_core::seed::rng(derive(seed, r))`, results are
//! reduced in restart order with ties to the lowest index, and every parallel sum is
//! owned by one task that adds in a fixed order.
//!
//! ```
//! use faer::Mat;
//! use mkc_core::ParamGuard;
//! use mkc_kmeans::{greedy_medoids, KMeansParams, KernelKMeansParams, KernelKMedoidsParams};
//!
//! // Two well separated groups on a line.
//! let x = Mat::from_fn(6, 1, |i, _| if i < 3 { i as f64 } else { 10.0 + i as f64 });
//! let km = KMeansParams::new().n_init(4).check()?.fit_features(x.as_ref(), 2, 7)?;
//! assert_eq!(km.labels[0], km.labels[2]);
//! assert_ne!(km.labels[0], km.labels[3]);
//!
//! // The same with a linear kernel.
//! let k = Mat::from_fn(6, 6, |i, j| x[(i, 0)] * x[(j, 0)]);
//! let kkm = KernelKMeansParams::new().n_init(3).check()?.fit_kernel(k.as_ref(), 2, 7)?;
//! assert_eq!(kkm.labels[3], kkm.labels[5]);
//! assert_ne!(kkm.labels[0], kkm.labels[5]);
//! assert!((kkm.objective - km.inertia).abs() < 1e-9);
//!
//! // The same through the workspace's method API: every method of mkc fits a validated
//! // kernel set with (n_clusters, seed) and returns the same `Clustering` shape.
//! use mkc_kmeans::prelude::*;
//! let kernels = vec![k.clone()];
//! let data = KernelSet::new(&kernels)?;
//! let fit = KernelKMeansParams::new().n_init(3).fit(&data, 2, 7)?;
//! assert_eq!(fit.labels, kkm.labels);
//! assert_eq!(fit.final_objective(), Some(kkm.objective));
//!
//! let medoids = greedy_medoids(k.as_ref(), 2)?;
//! let kmed = KernelKMedoidsParams::new().check()?.fit_kernel(k.as_ref(), 2, 0)?;
//! assert_eq!(medoids.len(), 2);
//! assert_ne!(kmed.labels[0], kmed.labels[5]);
//!
//! // Global kernel k-means: deterministic (no seed), the two groups from any start.
//! let global = GlobalKernelKMeansParams::new().check()?.fit_kernel(k.as_ref(), 2)?;
//! assert_ne!(global.labels[0], global.labels[5]);
//! assert!((global.objective - kkm.objective).abs() < 1e-9);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

/// The entry points of a method of this crate that clusters with one kernel, all routed
/// through the checked type's private `fit_valid(k, n_clusters, seed)` (the kernel already
/// validated):
/// - the public method `ENTRY(k, n_clusters, seed)`, which validates `k`
///   ([`mkc_core::validate::kernel`], named `WHAT` in its errors) and then fits;
/// - [`mkc_core::Clusterer`] for the checked type: the set's kernel, or the equal-weight
///   mean of its kernels ([`mkc_core::KernelSet::one_kernel`], naming `METHOD`), fitted,
///   then made a [`mkc_core::Clustering`] with the labels and the diagnostics `DIAG`,
///   whose listed fields are the fit's fields of the same names; `traced` adds the
///   fit's `objective_trace`, `n_iter` and `converged`; optionally `fit_restarts` by the
///   given function of `mkc_core`;
/// - [`mkc_core::Clusterer`] for the builder ([`mkc_core::clusterer_via_check!`]).
macro_rules! kernel_method {
    (
        $checked:ident($params:ty) -> $fit:ty, $name:literal;
        $(#[$em:meta])*
        pub fn $entry:ident($what:literal);
        $(#[$fm:meta])*
        fn fit($method:literal) -> $diag:ident { $($field:ident),* $(,)? } $(, $traced:ident)?;
        $($(#[$rm:meta])* fn fit_restarts = $restarts:path;)?
    ) => {
        impl $checked {
            $(#[$em])*
            pub fn $entry(
                &self,
                k: faer::MatRef<'_, f64>,
                n_clusters: usize,
                seed: u64,
            ) -> mkc_core::Result<$fit> {
                mkc_core::validate::kernel($what, k)?;
                self.fit_valid(k, n_clusters, seed)
            }
        }

        mkc_core::clusterer! {
            $checked, $name, $diag;
            $(#[$fm])*
            fn fit(&self, data, n_clusters, seed) {
                let kernel = data.one_kernel($method)?;
                let fit = self.fit_valid(kernel.as_mat(), n_clusters, seed)?;
                let diag = $diag {
                    $($field: fit.$field,)*
                };
                let clustering = mkc_core::Clustering::new(fit.labels, n_clusters, diag);
                Ok(kernel_method!(@trace clustering, fit $(, $traced)?))
            }
            $(
                $(#[$rm])*
                fn fit_restarts(&self, data, n_clusters, seeds) {
                    $restarts(self, data, n_clusters, seeds)
                }
            )?
        }

        mkc_core::clusterer_via_check!($params, $name);
    };
    (@trace $c:ident, $fit:ident) => { $c };
    (@trace $c:ident, $fit:ident, traced) => {
        $c.with_objective($fit.objective_trace)
            .with_iterations($fit.n_iter, $fit.converged)
    };
}

mod cluster_sums;
mod expansion;
mod global;
mod kernel_kmeans;
mod kernel_view;
mod kmeans;
mod medoids;
mod seeding;
mod spectral;

pub use global::{
    GlobalKernelKMeans, GlobalKernelKMeansDiagnostics, GlobalKernelKMeansFit,
    GlobalKernelKMeansParams,
};
pub use kernel_kmeans::{
    fill_empty, KernelInit, KernelKMeans, KernelKMeansDiagnostics, KernelKMeansFit,
    KernelKMeansParams,
};
pub use kernel_view::KernelCols;
pub use kmeans::{KMeans, KMeansDiagnostics, KMeansFit, KMeansParams};
pub use medoids::{
    greedy_medoids, KMedoidsDiagnostics, KMedoidsFit, KernelKMedoids, KernelKMedoidsParams,
    MedoidInit,
};
pub use spectral::{
    normalize_rows_and_cluster, Spectral, SpectralDiagnostics, SpectralFit, SpectralParams,
};

/// The loop controls every method of the crate checks: `n_init` (restarts, when the
/// method has them) and `max_iter`, each at least 1, and the stopping tolerance `tol`
/// (when the method has one), at least 0.
pub(crate) fn check_loop(
    n_init: Option<usize>,
    max_iter: usize,
    tol: Option<f64>,
) -> mkc_core::Result<()> {
    for (name, v) in [("n_init", n_init), ("max_iter", Some(max_iter))] {
        if let Some(v) = v {
            mkc_core::mkc_ensure!(v >= 1, param name, v, "must be at least 1");
        }
    }
    tol.map_or(Ok(()), |t| mkc_core::validate::non_negative("tol", t))
}

/// A small deterministic generator for unit tests (Knuth's MMIX linear congruential
/// generator): every call returns the next state.
#[cfg(test)]
pub(crate) fn lcg(seed: u64) -> impl FnMut() -> u64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s
    }
}

/// The method API and this crate's methods: `use mkc_kmeans::prelude::*;`.
pub mod prelude {
    pub use crate::{
        GlobalKernelKMeansParams, KMeansParams, KernelKMeansParams, KernelKMedoidsParams,
        SpectralParams,
    };
    pub use mkc_core::prelude::*;
}
