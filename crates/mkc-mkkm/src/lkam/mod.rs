//! LKAM (Li, Liu, Wang, Dou, Yin, Zhu — *Multiple Kernel Clustering with Local Kernel
//! Alignment Maximization*, IJCAI 2016), a baseline of SimpleMKKM's Table 2: each sample
//! is aligned only with its τ-nearest neighbours instead of with all samples,
//!
//! `min_{H, γ} (1/n) Σ_i tr(K_γ^{(i)} (I − H^{(i)} H^{(i)ᵀ})) + (λ/2) γᵀ HE γ`
//! s.t. `HᵀH = I_k`, `γ ≥ 0`, `1ᵀγ = 1`, `K_γ = Σ_p γ_p² K_p`,
//!
//! where `K^{(i)}`, `H^{(i)}` are the rows (and columns) of the neighbourhood `N_i` of
//! sample i and `HE_pq = (1/n) Σ_i tr(K_p^{(i)} K_q^{(i)})`. Written from the authors'
//! group's MATLAB code (`mylocalizedregmultikernelclustering.m`, the 6-argument variant
//! with `qnorm = 2` that the SimpleMKKM authors call); the paper's equation numbers
//! could not be checked here.
//!
//! # Algorithm
//! 0. Kernels centred, then unit diagonal; neighbourhoods from the average kernel, the
//!    count matrix A, the localised kernels `L_p = (1/n) A ∘ K_p` and HE
//!    ([`neighbours`]: the objective becomes `Σ_p γ_p² (tr L_p − tr(Hᵀ L_p H)) +
//!    (λ/2) γᵀ HE γ`, no per-sample blocks).
//! 1. γ = 1/m. Iteration t ([`crate::alternation`] on the localised kernels):
//!    - H = the top-k eigenvectors of `Σ_p γ_p² L_p` (= `(1/n) A ∘ K_γ`);
//!    - `z_p = tr L_p − tr(Hᵀ L_p H)`; the recorded objective is
//!      `½ γᵀ (λ HE + 2 diag(z)) γ` at the γ *before* the update (the authors'
//!      `callocalObj`), which never increases;
//!    - γ = argmin over the simplex of `½ γᵀ (λ HE + 2 diag(z)) γ`
//!      ([`crate::simplex_qp`]; quadprog in the authors' code), weights below 1e-6 set to
//!      0 and renormalised.
//!    - Stop from the third iteration on when the relative change is below 1e-6, or
//!      after 11 iterations (the authors' `t > 10`).
//! 2. Labels from the last H (computed before the last γ update, as the authors), rows
//!    normalised, k-means ([`crate::labels`]).
//!
//! Cost: A is one n x n product (O(n³), once), HE O(m² n²); each iteration one warm
//! top-k eigensolve of an n x n matrix. Memory: A and the m localised kernels.

pub mod neighbours;
mod params;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::Result;

use crate::alternation::alternate;
use crate::preprocess::Prepared;
use crate::simplex_qp::regularised_update;

pub use params::LkamParams;

/// Checked LKAM parameters (from [`LkamParams`] through
/// [`ParamGuard::check`](mkc_core::ParamGuard::check)); fits through
/// [`mkc_core::Clusterer`] (registry name `"lkam"`): the alternation on every kernel of
/// the set (preprocessed first), then k-means with the seed on the row-normalised H.
/// Weights: γ on the simplex (combined kernel `Σ_p γ_p² K_p`). Objective: the authors'
/// `callocalObj` per iteration (module docs), minimised. Restarts optimise once.
#[derive(Clone, Debug, PartialEq)]
pub struct Lkam {
    pub(crate) params: LkamParams,
}

/// Diagnostics of an LKAM run. [`Diagnostics::entries`](mkc_core::Diagnostics::entries) lists `converged` (0 or 1) and
/// `neighbourhood_size`.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct LkamDiagnostics {
    /// Whether the relative change fell below `tol` before `max_iter`.
    pub converged: bool,
    /// `s = round(τ n)`, the size of every neighbourhood.
    pub neighbourhood_size: usize,
    /// γ at the start and after every QP.
    pub gamma_trace: Vec<Vec<f64>>,
    /// Number of top-k eigensolves.
    pub eigensolves: usize,
    /// Time spent on the neighbourhoods, A, the localised kernels and HE.
    pub neighbourhood_time: Duration,
    /// Wall time of the optimisation, neighbourhoods included (preprocessing excluded).
    pub optimisation_time: Duration,
    /// Wall time of preprocessing.
    pub preprocessing_time: Duration,
}

mkc_core::impl_diagnostics!(LkamDiagnostics {
    converged,
    neighbourhood_size
});

/// Result of the LKAM alternation ([`Lkam::fit_kernels`]), before the seeded k-means.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LkamFit {
    /// Kernel weights on the simplex (`K_γ = Σ_p γ_p² K_p`).
    pub gamma: Vec<f64>,
    /// Top-k eigenvectors of `(1/n) A ∘ K_γ` for the γ before the last QP, n x k.
    pub h: Mat<f64>,
    /// The local regulariser HE (m x m).
    pub he: Mat<f64>,
    /// The authors' objective at every iteration (non-increasing).
    pub objective_trace: Vec<f64>,
    /// Iterations made.
    pub iterations: usize,
    /// Counts, times and traces of the run.
    pub diagnostics: LkamDiagnostics,
}

crate::engine_entry! {
    Lkam, LkamParams => LkamFit;
    /// LKAM on the base kernels (validated here) for `n_clusters` clusters: the weights
    /// and H, without the final k-means. The deterministic part of `Clusterer::fit`,
    /// public for callers who want H, HE or the traces.
}

impl Lkam {
    fn run(&self, prepared: &Prepared<'_>, n_clusters: usize) -> Result<LkamFit> {
        let p = &self.params;
        let views = prepared.views();
        let t0 = Instant::now();
        let n = views[0].nrows();
        mkc_core::validate::n_clusters(n_clusters, n, 1)?;
        let s = neighbours::neighbourhood_size(p.tau, n)?;
        let a = neighbours::count_matrix(&neighbours::neighbourhoods(&views, s));
        let local: Vec<Mat<f64>> = views
            .iter()
            .map(|k| neighbours::localised(a.as_ref(), *k))
            .collect();
        drop(a);
        let local_views: Vec<MatRef<'_, f64>> = local.iter().map(|m| m.as_ref()).collect();
        let he = neighbours::local_regulariser(&local_views, &views)?;
        let neighbourhood_time = t0.elapsed();
        let update = regularised_update(he.as_ref(), p.lambda, p.zero_weight, "LKAM");
        // The authors' rule: relative change below tol, from the third iteration on.
        let stop = |tr: &[f64]| match tr {
            [_, .., prev, value] => ((prev - value) / prev.abs()).abs() < p.tol,
            _ => false,
        };
        let alt = alternate(
            "LKAM",
            &local_views,
            n_clusters,
            p.eigen.clone(),
            p.max_iter,
            update,
            stop,
        )?;
        Ok(LkamFit {
            gamma: alt.gamma,
            h: alt.h,
            objective_trace: alt.trace,
            iterations: alt.iterations,
            diagnostics: LkamDiagnostics {
                converged: alt.converged,
                neighbourhood_size: s,
                gamma_trace: alt.gamma_trace,
                eigensolves: alt.eigensolves,
                neighbourhood_time,
                optimisation_time: t0.elapsed(),
                preprocessing_time: prepared.time,
            },
            he,
        })
    }
}

crate::relaxed_weights_fit!(LkamFit, LkamDiagnostics);
crate::clusterer_by_relaxation!(Lkam, LkamDiagnostics, "lkam", "LKAM");
