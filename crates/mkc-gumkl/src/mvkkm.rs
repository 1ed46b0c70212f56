//! MVKKM, multi-view kernel k-means (Tzortzis & Likas, "Kernel-based weighted multi-view
//! clustering", ICDM 2012), on GUMKL's machinery.
//!
//! Same composite kernel `Σ_v w_v^p K_v` and the same closed-form weights as GUMKL's eq. (7)/(8),
//! with the per-view kernel k-means objective `D_v = tr(K_v) − tr(Yᵀ K_v Y)` (cluster *means*)
//! in place of GUMKL's medoid objective `E_v`. Following the authors' code:
//! * the weights start uniform and the partition starts from global kernel k-means
//!   ([`mkc_kmeans::GlobalKernelKMeans`]) on the uniform combination
//!   ([`MvkkmInit`]);
//! * each iteration runs kernel k-means on the composite kernel started from the previous
//!   partition, computes `D_v` and the objective `Σ_v w_v^p D_v`, stops when
//!   `|1 − obj(t)/obj(t−1)| < tol` (1e-4), and otherwise updates the weights, setting weights
//!   below 1e-5 to 0 and renormalising;
//! * each kernel k-means run stops at a relative objective decrease below
//!   [`INNER_TOL`] = 1e-4 (or when the labels stop changing);
//! * so the returned weights are those of the composite kernel that produced the returned
//!   partition.
//!
//! Because kernel k-means starts from the previous partition and the weights minimise the
//! objective for fixed clusters, the objective never increases (up to the weight floor).
//! MVKKM is deterministic: the seed is ignored and restarts fit once.

use faer::MatRef;
use mkc_core::{
    validate, Clustering, Diagnostics, Error, KernelWeights, ParamGuard, Result, Timings,
    WeightConstraint,
};
use mkc_kmeans::GlobalKernelKMeansParams;

use crate::alternation::{alternate, Settings};
use crate::composite::{self, Composite};
use crate::inner;
use crate::params::{MvkkmInit, MvkkmParams};

/// Relative tolerance of each kernel k-means run (the authors' `Weighted_Kernel_K_Means`).
pub const INNER_TOL: f64 = 1e-4;

mkc_core::checked! {
    /// MVKKM with checked parameters (from [`MvkkmParams`] through [`ParamGuard::check`]);
    /// fits through [`Clusterer`](mkc_core::Clusterer).
    pub struct Mvkkm(MvkkmParams);
    |p| p.validate()
}

impl Mvkkm {
    /// The exponent p (possibly `+∞`).
    pub fn p(&self) -> f64 {
        self.p.outer.p
    }
}

/// Diagnostics of MVKKM ([`Clustering::diagnostics`]); the run record lists `converged`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct MvkkmDiagnostics {
    /// The initial partition (global kernel k-means or the given labels).
    pub init_labels: Vec<usize>,
    /// Per-view kernel k-means objectives `D_v` of the returned labels.
    pub view_objectives: Vec<f64>,
    /// `w(0)` (uniform) followed by the weights after each update that was used.
    pub weights_trace: Vec<Vec<f64>>,
    /// Whether the relative objective change fell below the tolerance; the same as
    /// [`Clustering::converged`], kept here for the run records.
    pub converged: bool,
}

impl Diagnostics for MvkkmDiagnostics {
    fn entries(&self) -> Vec<(String, f64)> {
        vec![("converged".to_string(), f64::from(u8::from(self.converged)))]
    }
}

impl Mvkkm {
    /// The initial partition a fit on `data` starts from: the given labels
    /// ([`MvkkmInit::Labels`], checked against n and `n_clusters`) or global kernel k-means
    /// on the uniform sum of the kernels.
    ///
    /// It depends on the kernels, `n_clusters`, `init` and `inner_max_iter` only, not on p,
    /// the tolerance, `max_iter` or the weight floor. A sweep over those can compute it
    /// once and give it to every fit as [`MvkkmInit::Labels`]: the fits are then bit for
    /// bit those started from `init` itself (the experiments runner shares it so across a
    /// grid over p). Errors: those of [`Clusterer::fit`](mkc_core::Clusterer::fit) on the
    /// set (no kernels, `n_clusters` out of range).
    pub fn initial_partition(
        &self,
        data: &mkc_core::KernelSet<'_>,
        n_clusters: usize,
    ) -> Result<Vec<usize>> {
        let (kernels, mut comp) = Composite::for_set(data, "MVKKM", n_clusters)?;
        self.initial_labels(kernels, &mut comp, n_clusters)
    }

    /// The initial partition: the given labels (checked against n and the number of
    /// clusters) or global kernel k-means on the uniform sum of the kernels.
    fn initial_labels(
        &self,
        kernels: &[MatRef<'_, f64>],
        comp: &mut Composite,
        m: usize,
    ) -> Result<Vec<usize>> {
        let n = comp.kernel().nrows();
        let fast = match &self.p.init {
            MvkkmInit::Labels(l) => {
                validate::len("MVKKM initial labels", l.len(), n)?;
                if let Some(i) = l.iter().position(|&c| c >= m) {
                    return Err(Error::input(
                        "MVKKM initial labels",
                        format!("label {} at index {i} is not below n_clusters = {m}", l[i]),
                    ));
                }
                return Ok(l.clone());
            }
            MvkkmInit::GlobalKernelKMeans => false,
            MvkkmInit::FastGlobalKernelKMeans => true,
        };
        let uniform = vec![1.0 / kernels.len() as f64; kernels.len()];
        comp.update(kernels, &uniform, f64::INFINITY)?;
        let global = GlobalKernelKMeansParams::new()
            .fast(fast)
            .max_iter(self.p.outer.inner_max_iter)
            .tol(INNER_TOL)
            .check()?
            .fit_kernel(comp.kernel(), m)?;
        Ok(global.labels)
    }
}

deterministic_clusterer! {
    Mvkkm, MvkkmParams => "mvkkm", MvkkmDiagnostics;
    /// MVKKM on every kernel of the set (a multiple kernel method: kernels required,
    /// features unused); the seed is ignored.
    ///
    /// Result: the labels, the weights of the composite kernel that produced them (on the
    /// simplex), the objective trace `Σ_v w_v^p D_v` (minimised, non-increasing) after the
    /// kernel k-means step of each iteration, the number of iterations and whether the
    /// tolerance was met. Phases: "init" (global kernel k-means), "composite", "kmeans",
    /// "weights" (`D_v` and the weight update).
    fn fit(&self, data, n_clusters, _seed) {
        let (kernels, mut comp) = Composite::for_set(data, "MVKKM", n_clusters)?;
        let (m, outer) = (n_clusters, &self.p.outer);
        let mut t = Timings::default();
        let init_labels = t.time("init", || self.initial_labels(kernels, &mut comp, m))?;
        let settings = Settings {
            p: outer.p,
            tol: outer.tol,
            max_iter: outer.max_iter,
            weight_floor: self.p.weight_floor,
        };
        let uniform = vec![1.0 / kernels.len() as f64; kernels.len()];
        let mut labels = init_labels.clone();
        let a = alternate(kernels, &mut comp, &settings, &mut t, uniform, |kernel, t| {
            labels = t
                .time("kmeans", || {
                    inner::kernel_kmeans_from(kernel, &labels, m, outer.inner_max_iter, INNER_TOL)
                })?
                .labels;
            t.time("weights", || {
                composite::mean_view_objectives(kernels, &labels, m)
            })
        })?;
        let (iterations, converged) = (a.objective.len(), a.converged);
        let diag = MvkkmDiagnostics {
            init_labels,
            view_objectives: a.view_objectives,
            weights_trace: a.weights_trace,
            converged,
        };
        Ok(Clustering::new(labels, n_clusters, diag)
            .with_weights(KernelWeights::new(a.weights, WeightConstraint::Simplex))
            .with_objective(a.objective)
            .with_iterations(iterations, converged)
            .with_timings(t))
    }
}
