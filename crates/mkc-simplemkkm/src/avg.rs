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

use faer::MatRef;
use mkc_core::Result;
use mkc_mkkm::fit::{FamilyDiagnostics, KernelFit, MethodDiagnostics};

use crate::objective::Objective;
use crate::params::AvgParams;

/// Avg-KKM has no diagnostics of its own: it lists no entries (the experiments' run
/// records hold none for this method), and its phase in the timings is
/// `"eigensolve"`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OneEigensolve;

impl MethodDiagnostics for OneEigensolve {
    const PHASE: &'static str = "eigensolve";
    fn entries(_: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        Vec::new()
    }
}

/// Diagnostics of Avg-KKM: one eigensolve, its time, the optimisation's (forming the
/// average kernel included), preprocessing's; `converged` is true.
pub type AvgKkmDiagnostics = FamilyDiagnostics<OneEigensolve>;

/// Result of Avg-KKM's relaxation ([`AvgKkm::fit_kernels`]), before the seeded k-means:
/// the uniform weights `1/m` (the kernel is `Σ_p w_p K_p`), the top-k eigenvectors of
/// the average kernel, one objective value (the sum of the k largest eigenvalues =
/// `tr(Hᵀ K H)`, maximised by H), no iterations, and in `extra` the k largest
/// eigenvalues, descending.
pub type AvgFit = KernelFit<OneEigensolve, Vec<f64>>;

mkc_mkkm::engine_entry! {
    /// Checked Avg-KKM parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"avg-kkm-spectral"`): the top-k eigenvectors H of the average of the set's kernels
    /// (each preprocessed first), then k-means with the seed on the row-normalised H.
    /// Weights: the uniform `1/m` (on the simplex). Objective: one value, `tr(Hᵀ K H)`
    /// (maximised by H); no iterations. Restarts compute H once.
    pub struct AvgKkm(AvgParams) => AvgFit
}

impl AvgKkm {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<AvgFit> {
        let p = &self.params;
        let m = views.len();
        let weights = vec![1.0 / m as f64; m];
        let mut obj = Objective::new(views, n_clusters, p.eigen.clone(), false)?;
        let eval = obj.evaluate_linear(&weights, None)?;
        let mut diag = AvgKkmDiagnostics::default();
        diag.converged = true;
        diag.eigensolves = obj.stats().eigensolves;
        diag.eigen_time = obj.stats().eigen_time;
        diag.weight_trace = vec![weights.clone()];
        let trace = vec![eval.value];
        Ok(AvgFit::new(
            weights,
            eval.h,
            trace,
            0,
            diag,
            eval.eigenvalues,
        ))
    }
}

mkc_mkkm::clusterer_by_relaxation!(AvgKkm, AvgKkmDiagnostics, "avg-kkm-spectral", "Avg-KKM");
