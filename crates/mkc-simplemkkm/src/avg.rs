//! Avg-KKM and single-kernel kernel k-means.
//!
//! Avg-KKM clusters the average kernel `Σ_p K_p / m` (uniform weights). As in the
//! authors' baseline code (and as every method of Table 2 is scored), kernel k-means is
//! solved in its spectral relaxation: H = top-k eigenvectors of the kernel, then k-means
//! on the row-normalised H ([`AvgFit::labels`]). Uniform weights `1/m` or `1/m²` (the
//! `Σ γ_p² K_p` form at γ = 1/m) give the same H, so Avg-KKM's H is SimpleMKKM's first
//! iterate. Discrete kernel k-means on the same kernel is available through
//! [`AvgFit::kernel`] and `mkc_kmeans`.
//!
//! Single-kernel kernel k-means ([`AvgKkm::fit_each`]) runs the same on every base
//! kernel alone; Table-style "best" and "average" over kernels are taken by the caller
//! from the per-kernel scores.

use faer::{Mat, MatRef};
use mkc_core::{Fit, Result};

use crate::labels;
use crate::objective::Objective;
use crate::params::AvgParams;
use crate::preprocess::Prepared;

/// Checked Avg-KKM parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct AvgKkm {
    pub(crate) params: AvgParams,
}

/// Result of Avg-KKM (or of one kernel alone).
#[derive(Clone, Debug)]
pub struct AvgFit {
    /// The weights used (uniform `1/m`; for a single kernel, the indicator of it).
    pub weights: Vec<f64>,
    /// The clustered kernel `Σ_p w_p K_p` after preprocessing (n x n).
    pub kernel: Mat<f64>,
    /// Top-k eigenvectors of `kernel`, n x k.
    pub h: Mat<f64>,
    /// Sum of the k largest eigenvalues = `tr(Hᵀ K H)`.
    pub objective: f64,
    pub(crate) n_clusters: usize,
    pub(crate) label_opts: labels::LabelOptions,
}

impl AvgFit {
    /// Labels from H with `seed` (row-normalised H, then k-means).
    pub fn labels(&self, seed: u64) -> Result<Vec<usize>> {
        labels::labels_from_h_with(self.h.as_ref(), self.n_clusters, &self.label_opts, seed)
    }
}

impl AvgKkm {
    /// The parameters.
    pub fn params(&self) -> &AvgParams {
        &self.params
    }

    /// Avg-KKM on the base kernels.
    pub fn fit(&self, kernels: &[MatRef<'_, f64>]) -> Result<AvgFit> {
        let prepared = Prepared::new(kernels, &self.params.preprocessing)?;
        let views = prepared.views();
        let m = views.len();
        self.fit_weights(&views, vec![1.0 / m as f64; m])
    }

    /// Kernel k-means (spectral) on every base kernel alone, in kernel order.
    pub fn fit_each(&self, kernels: &[MatRef<'_, f64>]) -> Result<Vec<AvgFit>> {
        let prepared = Prepared::new(kernels, &self.params.preprocessing)?;
        let views = prepared.views();
        let m = views.len();
        (0..m)
            .map(|p| {
                self.fit_weights(
                    &views,
                    (0..m).map(|q| if q == p { 1.0 } else { 0.0 }).collect(),
                )
            })
            .collect()
    }

    fn fit_weights(&self, views: &[MatRef<'_, f64>], weights: Vec<f64>) -> Result<AvgFit> {
        let p = &self.params;
        let mut obj = Objective::new(views, p.n_clusters, p.eigen.clone(), false)?;
        let eval = obj.evaluate_linear(&weights, None)?;
        let kernel = obj.combined().to_owned();
        Ok(AvgFit {
            weights,
            kernel,
            h: eval.h,
            objective: eval.value,
            n_clusters: p.n_clusters,
            label_opts: p.labels,
        })
    }
}

impl<'a> Fit<[MatRef<'a, f64>]> for AvgKkm {
    type Output = AvgFit;
    fn fit(&self, kernels: &[MatRef<'a, f64>]) -> Result<AvgFit> {
        AvgKkm::fit(self, kernels)
    }
}
