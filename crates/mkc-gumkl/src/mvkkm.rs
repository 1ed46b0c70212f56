//! MVKKM, multi-view kernel k-means (Tzortzis & Likas, ICDM 2012), on GUMKL's machinery.
//!
//! Same composite kernel `Σ_v w_v^p K_v` and the same closed-form weights as GUMKL's eq. (7)/(8),
//! with the per-view kernel k-means objective `D_v = tr(K_v) − tr(Yᵀ K_v Y)` (cluster *means*)
//! in place of GUMKL's medoid objective `E_v`. Following the authors' code:
//! * the weights start uniform and the partition starts from global kernel k-means on the
//!   uniform combination ([`MvkkmInit`](crate::MvkkmInit));
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

use faer::MatRef;
use mkc_core::{validate, Error, Fit, Result};

use crate::composite::{self, Composite};
use crate::global::global_kernel_kmeans;
use crate::inner;
use crate::params::{MvkkmChecked, MvkkmInit};
use crate::weights;

/// Relative tolerance of each kernel k-means run (the authors' `Weighted_Kernel_K_Means`).
pub const INNER_TOL: f64 = 1e-4;

/// Result of [`MvkkmChecked::fit`].
#[derive(Debug, Clone, PartialEq)]
pub struct MvkkmFit {
    /// Final labels `0..M`.
    pub labels: Vec<usize>,
    /// The initial partition (global kernel k-means or the given labels).
    pub init_labels: Vec<usize>,
    /// Weights of the composite kernel that produced `labels`.
    pub weights: Vec<f64>,
    /// Per-view kernel k-means objectives `D_v` of `labels`.
    pub view_objectives: Vec<f64>,
    /// `Σ_v w_v^p D_v` after the kernel k-means step of each iteration (non-increasing).
    pub objective_trace: Vec<f64>,
    /// `w(0)` (uniform) followed by the weights after each update.
    pub weights_trace: Vec<Vec<f64>>,
    /// Outer iterations run.
    pub n_iter: usize,
    /// Whether the relative objective change fell below the tolerance.
    pub converged: bool,
}

impl MvkkmFit {
    /// The final objective `Σ_v w_v^p D_v`.
    pub fn objective(&self) -> f64 {
        self.objective_trace.last().copied().unwrap_or(f64::NAN)
    }
}

impl MvkkmChecked {
    /// Run MVKKM on the base kernels `K_v` (each n x n, symmetric, finite).
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<MvkkmFit> {
        let n = validate::kernels("MVKKM kernels", kernels)?;
        validate::n_clusters(self.n_clusters, n, 1)?;
        let (m, p) = (self.n_clusters, self.p);
        let n_views = kernels.len();
        let mut w = vec![1.0 / n_views as f64; n_views];
        let mut comp = Composite::new(n, n_views);

        let init_labels = match &self.init {
            MvkkmInit::Labels(l) => {
                validate::len("MVKKM initial labels", l.len(), n)?;
                l.clone()
            }
            init => {
                comp.update(kernels, &w, f64::INFINITY)?;
                let fast = matches!(init, MvkkmInit::FastGlobalKernelKMeans);
                global_kernel_kmeans(comp.kernel(), m, fast, self.inner_max_iter)?
            }
        };

        let mut labels = init_labels.clone();
        let mut weights_trace = vec![w.clone()];
        let mut objective_trace: Vec<f64> = Vec::new();
        let mut view_objectives = Vec::new();
        let mut converged = false;
        for _ in 0..self.max_iter {
            comp.update(kernels, &w, p)?;
            labels = inner::kernel_kmeans_from(
                comp.kernel(),
                &labels,
                m,
                self.inner_max_iter,
                INNER_TOL,
            )?
            .labels;
            view_objectives = composite::mean_view_objectives(kernels, &labels, m)?;
            let obj = weights::weighted_objective(&w, &view_objectives, p);
            let prev = objective_trace.last().copied();
            objective_trace.push(obj);
            let small_change = prev.is_some_and(|prev| (obj - prev).abs() <= self.tol * prev.abs());
            if p == f64::INFINITY || small_change {
                converged = true;
                break;
            }
            weights::optimal_weights(&view_objectives, p, &mut w)?;
            weights::prune_small(&mut w, self.weight_floor);
            weights_trace.push(w.clone());
        }
        if objective_trace.is_empty() {
            return Err(Error::param("max_iter", 0, "must be at least 1"));
        }
        // When max_iter is hit right after a weight update, report the weights that produced
        // `labels`, not the unused update.
        if !converged && weights_trace.len() > objective_trace.len() {
            weights_trace.pop();
            w = weights_trace.last().cloned().unwrap_or(w);
        }
        Ok(MvkkmFit {
            labels,
            init_labels,
            weights: w,
            view_objectives,
            n_iter: objective_trace.len(),
            objective_trace,
            weights_trace,
            converged,
        })
    }
}

impl<'a> Fit<[MatRef<'a, f64>]> for MvkkmChecked {
    type Output = MvkkmFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<MvkkmFit> {
        MvkkmChecked::fit(self, kernels)
    }
}
