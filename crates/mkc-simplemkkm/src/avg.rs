//! Avg-KKM in the SimpleMKKM authors' spectral form.
//!
//! Avg-KKM clusters the average kernel `Σ_p K_p / m` (uniform weights). As in the
//! authors' baseline code (and as every method of Table 2 is scored), kernel k-means is
//! solved in its spectral relaxation: H = top-k eigenvectors of the kernel, then k-means
//! on the row-normalised H. Uniform weights `1/m` or `1/m²` (the `Σ γ_p² K_p` form at
//! γ = 1/m) give the same H, so Avg-KKM's H is SimpleMKKM's first iterate. On a kernel
//! set holding one kernel it is single-kernel (spectral) kernel k-means; for each kernel
//! of a set alone, fit on `KernelSet::select(&[p])`. Discrete kernel k-means on the
//! average kernel is `mkc_kmeans::KernelKMeansParams` (registry name `avg-kkm`).

use std::time::{Duration, Instant};

use faer::Mat;
use mkc_core::{Diagnostics, Result};

use crate::objective::Objective;
use crate::params::AvgParams;
use crate::preprocess::Prepared;
use mkc_mkkm::restarts::{self, Relaxed};

/// Checked Avg-KKM parameters; fits through [`mkc_core::Clusterer`] (registry name
/// `"avg-kkm-spectral"`): the top-k eigenvectors H of the average of the set's kernels
/// (each preprocessed first), then k-means with the seed on the row-normalised H.
/// Weights: the uniform `1/m` (on the simplex). Objective: one value, `tr(Hᵀ K H)`
/// (maximised by H); no iterations. Restarts compute H once.
#[derive(Clone, Debug, PartialEq)]
pub struct AvgKkm {
    pub(crate) params: AvgParams,
}

/// Diagnostics of Avg-KKM. [`Diagnostics::entries`] is empty (the experiments' run
/// records hold none for this method).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct AvgKkmDiagnostics {
    /// The k largest eigenvalues of the average kernel, descending.
    pub eigenvalues: Vec<f64>,
    /// Wall time of the eigensolve (forming the average kernel included).
    pub eigen_time: Duration,
    /// Wall time of preprocessing.
    pub preprocessing_time: Duration,
}

impl Diagnostics for AvgKkmDiagnostics {
    fn entries(&self) -> Vec<(String, f64)> {
        Vec::new()
    }
}

/// Result of Avg-KKM's relaxation ([`AvgKkm::fit_kernels`]), before the seeded k-means.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct AvgFit {
    /// The weights used (uniform `1/m`; the kernel is `Σ_p w_p K_p`).
    pub weights: Vec<f64>,
    /// Top-k eigenvectors of the average kernel, n x k.
    pub h: Mat<f64>,
    /// Sum of the k largest eigenvalues = `tr(Hᵀ K H)` (maximised by H).
    pub objective: f64,
    /// Eigenvalues and times.
    pub diagnostics: AvgKkmDiagnostics,
}

mkc_mkkm::engine_entry! {
    AvgKkm, AvgParams => AvgFit;
    /// The relaxation of Avg-KKM on the base kernels (validated here) for `n_clusters`
    /// clusters: H without the final k-means. The deterministic part of
    /// `Clusterer::fit`, public for callers who want H.
}

impl AvgKkm {
    fn run(&self, prepared: &Prepared<'_>, n_clusters: usize) -> Result<AvgFit> {
        let p = &self.params;
        let views = prepared.views();
        let t0 = Instant::now();
        let m = views.len();
        let weights = vec![1.0 / m as f64; m];
        let mut obj = Objective::new(&views, n_clusters, p.eigen.clone(), false)?;
        let eval = obj.evaluate_linear(&weights, None)?;
        Ok(AvgFit {
            weights,
            h: eval.h,
            objective: eval.value,
            diagnostics: AvgKkmDiagnostics {
                eigenvalues: eval.eigenvalues,
                eigen_time: t0.elapsed(),
                preprocessing_time: prepared.time,
            },
        })
    }
}

impl AvgFit {
    /// The result without labels: uniform weights, one objective value, no iterations,
    /// timings `"preprocess"` and `"eigensolve"`.
    fn relaxed(self) -> Relaxed<AvgKkmDiagnostics> {
        let d = self.diagnostics;
        Relaxed {
            h: self.h,
            weights: self.weights,
            constraint: mkc_core::WeightConstraint::Simplex,
            objective: vec![self.objective],
            iterations: 0,
            converged: true,
            timings: restarts::shared_timings(d.preprocessing_time, "eigensolve", d.eigen_time),
            diagnostics: d,
        }
    }
}

mkc_mkkm::clusterer_by_relaxation!(AvgKkm, AvgKkmDiagnostics, "avg-kkm-spectral", "Avg-KKM");
