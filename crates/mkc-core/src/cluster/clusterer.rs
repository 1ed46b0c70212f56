//! [`Clusterer`]: the contract every clustering method of the workspace implements, and
//! its object-safe form [`DynClusterer`].

use super::clustering::{Clustering, Diagnostics};
use super::kernel_set::KernelSet;
use crate::Result;

/// Erased diagnostics: `(name, value)` pairs (see [`Diagnostics::entries`]).
pub type DiagnosticList = Vec<(String, f64)>;

/// A clustering method: kernels (and optional features) in, [`Clustering`] out.
///
/// Implemented by every method of the workspace, paper method or baseline, on its
/// *unchecked* parameter struct (the builder a user writes): `fit` checks the parameters
/// (as linfa's `ParamGuard` blanket does) and then runs, so user code never handles the
/// checked form unless it wants to. The checked form implements it too, for callers that
/// fit many times with one parameter set.
///
/// The contract, the same for every method:
/// - **Input**: a [`KernelSet`] validated once when built, the number of clusters, and a
///   seed — the only source of randomness (deterministic methods ignore it). The number
///   of clusters is checked against the set (`1 ≤ k ≤ n`, or exactly 2 for the binary
///   maximum-margin and ratio methods) with an [`crate::Error::InvalidParam`] naming
///   `n_clusters`.
/// - **Kernels or features**: multiple kernel methods use every kernel of the set;
///   single-kernel methods given several kernels use their equal-weight mean
///   ([`KernelSet::one_kernel`]); feature-space methods (k-means, the linear paths of the
///   maximum-margin methods) read [`KernelSet::features`] and return
///   [`crate::Error::InvalidInput`] when the set has none. Each method's docs say which.
/// - **Output**: [`Clustering`] with labels in `0..n_clusters`, kernel weights on their
///   stated constraint set when the method learns them, a finite objective trace,
///   iterations, the converged flag, timings by phase and typed diagnostics.
/// - **Determinism**: the same seed gives the same labels whatever the number of threads.
///
/// ```
/// use faer::Mat;
/// use mkc_core::prelude::*;
///
/// /// Toy method: sample i goes to cluster i mod k.
/// struct RoundRobin;
/// impl Clusterer for RoundRobin {
///     type Diagnostics = ();
///     fn name(&self) -> &'static str { "round-robin" }
///     fn validate_params(&self) -> Result<()> { Ok(()) }
///     fn fit(&self, data: &KernelSet<'_>, k: usize, _seed: u64) -> Result<Clustering> {
///         check_n_clusters(data, k, 1)?;
///         Ok(Clustering::new((0..data.n()).map(|i| i % k).collect(), k, ()))
///     }
/// }
///
/// let ks = vec![Mat::<f64>::identity(5, 5)];
/// let data = KernelSet::new(&ks).unwrap();
/// let fit = RoundRobin.fit(&data, 2, 0).unwrap();
/// assert_eq!(fit.labels, vec![0, 1, 0, 1, 0]);
/// assert!(RoundRobin.fit(&data, 6, 0).is_err()); // k > n
/// // The same through the object-safe form, as the registries hold methods:
/// let m: &dyn DynClusterer = &RoundRobin;
/// assert_eq!(m.fit_dyn(&data, 2, 0).unwrap().labels, fit.labels);
/// ```
pub trait Clusterer: Send + Sync {
    /// The method's typed diagnostics (documented in its crate).
    type Diagnostics: Diagnostics;

    /// The method's registry name (`mkc cluster --method NAME`), e.g. `"simplemkkm"`.
    fn name(&self) -> &'static str;

    /// Check the parameters alone (no data): every out-of-range value is an
    /// [`crate::Error::InvalidParam`] naming the parameter. [`Clusterer::fit`] calls it
    /// too; call it directly to reject a configuration before any data is loaded.
    fn validate_params(&self) -> Result<()>;

    /// One run with one seed.
    fn fit(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<Clustering<Self::Diagnostics>>;

    /// One run per seed (restarts), in seed order. The default runs [`Clusterer::fit`] for
    /// each seed in parallel; methods whose restarts share deterministic work (a kernel
    /// weight optimisation followed by seeded k-means) override it to do that work once.
    /// Each result's timings include its share of the shared work. Results do not depend
    /// on the number of threads.
    fn fit_restarts(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
    ) -> Vec<Result<Clustering<Self::Diagnostics>>> {
        super::parallel_fits(self, data, n_clusters, seeds, 0.0)
    }
}

/// The object-safe form of [`Clusterer`], with diagnostics erased to `(name, value)` pairs:
/// what registries, the CLI, the experiments and the Python package hold. Every
/// `Clusterer` is one.
pub trait DynClusterer: Send + Sync {
    /// See [`Clusterer::name`].
    fn name(&self) -> &'static str;
    /// See [`Clusterer::validate_params`].
    fn validate_params_dyn(&self) -> Result<()>;
    /// See [`Clusterer::fit`]; sets the wall time when the method did not.
    fn fit_dyn(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<Clustering<DiagnosticList>>;
    /// See [`Clusterer::fit_restarts`].
    fn fit_restarts_dyn(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
    ) -> Vec<Result<Clustering<DiagnosticList>>>;
}

impl<T: Clusterer> DynClusterer for T {
    fn name(&self) -> &'static str {
        Clusterer::name(self)
    }
    fn validate_params_dyn(&self) -> Result<()> {
        self.validate_params()
    }
    fn fit_dyn(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seed: u64,
    ) -> Result<Clustering<DiagnosticList>> {
        let t0 = std::time::Instant::now();
        let mut fit = self.fit(data, n_clusters, seed)?;
        if fit.timings.wall() == 0.0 {
            fit.timings.set_wall(t0.elapsed().as_secs_f64());
        }
        Ok(fit.erase())
    }
    fn fit_restarts_dyn(
        &self,
        data: &KernelSet<'_>,
        n_clusters: usize,
        seeds: &[u64],
    ) -> Vec<Result<Clustering<DiagnosticList>>> {
        self.fit_restarts(data, n_clusters, seeds)
            .into_iter()
            .map(|r| r.map(Clustering::erase))
            .collect()
    }
}

/// Check `min ≤ n_clusters ≤ n` for the set (`min` is 1 or 2 for most methods).
pub fn check_n_clusters(data: &KernelSet<'_>, n_clusters: usize, min: usize) -> Result<()> {
    crate::validate::n_clusters(n_clusters, data.n(), min)
}

/// Check `n_clusters == 2` for binary methods (RMKC, iterSVR, the maximum-margin methods),
/// naming `method`.
pub fn check_binary(method: &str, data: &KernelSet<'_>, n_clusters: usize) -> Result<()> {
    if n_clusters != 2 {
        return Err(crate::Error::param(
            "n_clusters",
            n_clusters,
            format!("{method} is a two-cluster method"),
        ));
    }
    check_n_clusters(data, 2, 2)
}

/// Implement [`Clusterer`] for a checked method type: the name, the diagnostics type, and
/// `fit` (and optionally `fit_restarts`) with their bodies; `validate_params` is `Ok(())`
/// (the checked type is valid by construction). The signatures are the trait's:
///
/// ```
/// use mkc_core::{Clustering, KernelSet};
/// struct Halves;
/// mkc_core::clusterer! {
///     Halves, "halves", ();
///     /// Splits the samples into a first and a second half.
///     fn fit(&self, data, n_clusters, _seed) {
///         mkc_core::check_n_clusters(data, n_clusters, 2)?;
///         let n = data.n();
///         Ok(Clustering::new((0..n).map(|i| usize::from(2 * i >= n)).collect(), 2, ()))
///     }
/// }
/// let k = faer::Mat::<f64>::identity(4, 4);
/// let fit = mkc_core::Clusterer::fit(&Halves, &KernelSet::new(&[k])?, 2, 0)?;
/// assert_eq!(fit.labels, [0, 0, 1, 1]);
/// # Ok::<(), mkc_core::Error>(())
/// ```
#[macro_export]
macro_rules! clusterer {
    (
        $ty:ty, $name:literal, $diag:ty;
        $(#[$fm:meta])*
        fn fit(&$s:ident, $data:ident, $k:ident, $seed:ident) $body:block
        $(
            $(#[$rm:meta])*
            fn fit_restarts(&$s2:ident, $data2:ident, $k2:ident, $seeds:ident) $rbody:block
        )?
    ) => {
        impl $crate::Clusterer for $ty {
            type Diagnostics = $diag;
            fn name(&self) -> &'static str {
                $name
            }
            fn validate_params(&self) -> $crate::Result<()> {
                Ok(())
            }
            $(#[$fm])*
            fn fit(
                &$s,
                $data: &$crate::KernelSet<'_>,
                $k: usize,
                $seed: u64,
            ) -> $crate::Result<$crate::Clustering<$diag>> $body
            $(
                $(#[$rm])*
                fn fit_restarts(
                    &$s2,
                    $data2: &$crate::KernelSet<'_>,
                    $k2: usize,
                    $seeds: &[u64],
                ) -> Vec<$crate::Result<$crate::Clustering<$diag>>> $rbody
            )?
        }
    };
}
