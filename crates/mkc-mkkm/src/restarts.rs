//! The contract's fit shared by the methods of the family (and by SimpleMKKM and
//! Avg-KKM in `mkc-simplemkkm`): a deterministic part
//! (preprocessing, then the kernel weights and the relaxed partition matrix H) done once,
//! then the seeded last step — k-means on the row-normalised H ([`crate::labels`]) —
//! once per seed. This is how the authors' code scores every method of Table 2 (one
//! optimisation, k-means repeated per run), and why [`mkc_core::Clusterer::fit_restarts`]
//! is overridden: `r` restarts cost one optimisation and `r` k-means.

use faer::{Mat, MatRef};
use mkc_core::{check_n_clusters, Clustering, Diagnostics, Error, KernelSet, Result, Timings};
use rayon::prelude::*;
use std::time::{Duration, Instant};

use crate::labels::{labels_from_h_with, LabelOptions};
use crate::preprocess::with_what;

/// The deterministic part of a fit: H (n x k) and everything of the result but the
/// labels.
pub struct Relaxed<D> {
    /// The relaxed partition matrix H (n x k) the labels are computed from.
    pub h: Mat<f64>,
    /// The result without labels (none yet, zero clusters): the kernel weights with their
    /// constraint, the objective trace, iterations, whether the stopping rule held, the
    /// timings of the shared phases ([`shared_timings`]) and the method's diagnostics.
    pub fit: Clustering<D>,
}

/// Timings of the shared phases: `"preprocess"` and the method's own phase.
pub fn shared_timings(preprocess: Duration, phase: &'static str, time: Duration) -> Timings {
    let mut t = Timings::default();
    t.add("preprocess", preprocess.as_secs_f64());
    t.add(phase, time.as_secs_f64());
    t
}

/// One run per seed, in seed order: `relax` once on the set's kernels (after the checks
/// of `n_clusters` and of the kernels, naming `method`), then k-means on the
/// row-normalised H with each seed. Each run's timings get a `"kmeans"` phase and a wall
/// time of its own k-means plus an equal share of the shared part. When the shared part
/// fails, every seed gets its error.
pub fn seeded<D: Diagnostics>(
    method: &str,
    data: &KernelSet<'_>,
    n_clusters: usize,
    seeds: &[u64],
    labels: &LabelOptions,
    relax: impl FnOnce(&[MatRef<'_, f64>]) -> Result<Relaxed<D>>,
) -> Vec<Result<Clustering<D>>> {
    let t0 = Instant::now();
    let shared = check_n_clusters(data, n_clusters, 1)
        .and_then(|()| data.require_kernels(method))
        .and_then(relax);
    let relaxed = match shared {
        Ok(r) => r,
        Err(e) => return same_error_for_each(e, seeds.len(), method),
    };
    let share = t0.elapsed().as_secs_f64() / seeds.len().max(1) as f64;
    seeds
        .par_iter()
        .map(|&seed| {
            let t = Instant::now();
            let l = labels_from_h_with(relaxed.h.as_ref(), n_clusters, labels, seed)?;
            let mut run = relaxed.fit.relabelled(l, n_clusters);
            let own = t.elapsed().as_secs_f64();
            run.timings.add("kmeans", own);
            run.timings.set_wall(share + own);
            Ok(run)
        })
        .collect()
}

/// The single run of [`seeded`] with one seed.
pub fn single<D>(mut runs: Vec<Result<Clustering<D>>>, method: &str) -> Result<Clustering<D>> {
    runs.pop()
        .unwrap_or_else(|| Err(Error::numerical(method, "no run was made")))
}

/// `e` for the first of `count` runs and the same error (same variant and fields; I/O
/// and other non-copyable errors as [`Error::InvalidInput`] with the message) for the
/// others: the shared part failed once, for all of them.
fn same_error_for_each<D>(e: Error, count: usize, method: &str) -> Vec<Result<Clustering<D>>> {
    let mut out: Vec<Result<Clustering<D>>> =
        (1..count).map(|_| Err(same_error(&e, method))).collect();
    if count > 0 {
        out.insert(0, Err(e));
    }
    out
}

fn same_error(e: &Error, method: &str) -> Error {
    if let Some(same) = with_what(e, str::to_owned) {
        return same;
    }
    match e {
        Error::InvalidParam {
            name,
            value,
            reason,
        } => Error::InvalidParam {
            name: name.clone(),
            value: value.clone(),
            reason: reason.clone(),
        },
        Error::Numerical { what, reason } => Error::numerical(what.clone(), reason.clone()),
        other => Error::input(method, other.to_string()),
    }
}

/// `impl Clusterer` for a checked method of this crate: `fit` is `fit_restarts` with one
/// seed; `fit_restarts` prepares the set's kernels (validated when the set was built),
/// calls the method's `run(&Prepared, n_clusters)` once (a [`KernelFit`](crate::KernelFit))
/// and its `relaxed` with the weights' constraint (default the simplex), then
/// [`seeded`]. `$name` is the registry name, `$method` the name in errors.
#[macro_export]
macro_rules! clusterer_by_relaxation {
    ($ty:ty, $diag:ty, $name:literal, $method:literal) => {
        $crate::clusterer_by_relaxation!(
            $ty,
            $diag,
            $name,
            $method,
            mkc_core::WeightConstraint::Simplex
        );
    };
    ($ty:ty, $diag:ty, $name:literal, $method:literal, $constraint:expr) => {
        impl mkc_core::Clusterer for $ty {
            type Diagnostics = $diag;
            fn name(&self) -> &'static str {
                $name
            }
            fn validate_params(&self) -> mkc_core::Result<()> {
                Ok(())
            }
            fn fit(
                &self,
                data: &mkc_core::KernelSet<'_>,
                n_clusters: usize,
                seed: u64,
            ) -> mkc_core::Result<mkc_core::Clustering<$diag>> {
                let runs = self.fit_restarts(data, n_clusters, &[seed]);
                $crate::restarts::single(runs, $method)
            }
            /// The weights and H are computed once; only the k-means on H runs per seed.
            fn fit_restarts(
                &self,
                data: &mkc_core::KernelSet<'_>,
                n_clusters: usize,
                seeds: &[u64],
            ) -> Vec<mkc_core::Result<mkc_core::Clustering<$diag>>> {
                let p = &self.params;
                $crate::restarts::seeded($method, data, n_clusters, seeds, &p.labels, |ks| {
                    let prepared = $crate::preprocess::Prepared::trusted(ks, &p.preprocessing)?;
                    Ok(self.run(&prepared, n_clusters)?.relaxed($constraint))
                })
            }
        }
    };
}

/// The engine entry points of a checked method: `params()`, `fit_kernels` (validates and
/// preprocesses the kernels, then `run`) and `run(&Prepared, n_clusters)`, which calls
/// the method's `optimise(&views, n_clusters)` and stamps the optimisation and
/// preprocessing times on the fit's diagnostics; and `fit_kernels` on the unchecked
/// parameters (checked first, as `Clusterer::fit` does), unless the first token is
/// `@checked` (for a second method on the same parameters, as KAMM-R on SimpleMKKM's).
/// Doc lines given after `;` are added to the checked `fit_kernels`'s. Written
/// `engine_entry! { /// doc  pub struct X(XParams) => XFit }`, it also declares the
/// checked type `X { params: XParams }` (`Clone, Debug, PartialEq`) with that doc.
#[macro_export]
macro_rules! engine_entry {
    (@checked $(#[$m:meta])* pub struct $ty:ident($params:ty) => $fit:ty $(; $(#[$doc:meta])*)?) => {
        $crate::engine_entry!(@struct $(#[$m])* $ty($params));
        $crate::engine_entry!(@checked $ty, $params => $fit $(; $(#[$doc])*)?);
    };
    ($(#[$m:meta])* pub struct $ty:ident($params:ty) => $fit:ty $(; $(#[$doc:meta])*)?) => {
        $crate::engine_entry!(@struct $(#[$m])* $ty($params));
        $crate::engine_entry!($ty, $params => $fit $(; $(#[$doc])*)?);
    };
    (@struct $(#[$m:meta])* $ty:ident($params:ty)) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $ty {
            pub(crate) params: $params,
        }
    };
    (@checked $ty:ty, $params:ty => $fit:ty $(; $(#[$doc:meta])*)?) => {
        impl $ty {
            /// The parameters.
            pub fn params(&self) -> &$params {
                &self.params
            }
            #[doc = concat!(
                "[`", stringify!($ty), "`] on the base kernels (validated and preprocessed ",
                "here) for `n_clusters` clusters: the weights, the relaxed partition matrix H, ",
                "the objective trace and what else the method computes, without the final ",
                "k-means. The deterministic part of `Clusterer::fit`, public for callers who ",
                "want H or the traces."
            )]
            $($(#[$doc])*)?
            pub fn fit_kernels(
                &self,
                kernels: &[faer::MatRef<'_, f64>],
                n_clusters: usize,
            ) -> mkc_core::Result<$fit> {
                let prepared =
                    $crate::preprocess::Prepared::new(kernels, &self.params.preprocessing)?;
                self.run(&prepared, n_clusters)
            }
            /// `optimise` on the prepared kernels, timed.
            fn run(
                &self,
                prepared: &$crate::preprocess::Prepared<'_>,
                n_clusters: usize,
            ) -> mkc_core::Result<$fit> {
                let t0 = std::time::Instant::now();
                let mut fit = self.optimise(&prepared.views(), n_clusters)?;
                fit.diagnostics.timed(t0, prepared);
                Ok(fit)
            }
        }
    };
    ($ty:ty, $params:ty => $fit:ty $(; $(#[$doc:meta])*)?) => {
        $crate::engine_entry!(@checked $ty, $params => $fit $(; $(#[$doc])*)?);
        impl $params {
            #[doc = concat!(
                "Check the parameters, then [`", stringify!($ty), "::fit_kernels`]: the ",
                "deterministic part of `Clusterer::fit` (weights, H, traces) without the ",
                "final k-means."
            )]
            pub fn fit_kernels(
                &self,
                kernels: &[faer::MatRef<'_, f64>],
                n_clusters: usize,
            ) -> mkc_core::Result<$fit> {
                mkc_core::ParamGuard::check(self)?.fit_kernels(kernels, n_clusters)
            }
        }
    };
}
