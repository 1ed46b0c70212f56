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
mod shared;
#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

use faer::{Mat, MatRef};
use mkc_core::Result;

use crate::alternation::Alternation;
use crate::fit::{converged_entry, FamilyDiagnostics, KernelFit, MethodDiagnostics, StopRule};
use crate::simplex_qp::regularised_update;

pub use params::LkamParams;
pub use shared::LocalStructure;

/// LKAM's own diagnostics: its neighbourhoods.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct LocalAlignment {
    /// `s = round(τ n)`, the size of every neighbourhood.
    pub neighbourhood_size: usize,
    /// Time spent on the neighbourhoods, A, the localised kernels and HE (part of the
    /// optimisation time; zero for runs from a shared [`LocalStructure`], whose
    /// [`LocalStructure::seconds`] hold it).
    pub neighbourhood_time: Duration,
}

impl MethodDiagnostics for LocalAlignment {
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        vec![
            converged_entry(all.converged),
            (
                "neighbourhood_size".into(),
                all.method.neighbourhood_size as f64,
            ),
        ]
    }
}

/// Diagnostics of an LKAM run: `converged` (the relative change fell below `tol` before
/// `max_iter`), the top-k eigensolves, γ at the start and after every QP
/// (`weight_trace`), the neighbourhoods and the times (the optimisation's includes the
/// neighbourhoods). Entries: `converged` (0 or 1) and `neighbourhood_size`.
pub type LkamDiagnostics = FamilyDiagnostics<LocalAlignment>;

/// Result of the LKAM alternation ([`Lkam::fit_kernels`]), before the seeded k-means:
/// γ on the simplex (`K_γ = Σ_p γ_p² K_p`), the top-k eigenvectors of `(1/n) A ∘ K_γ`
/// for the γ before the last QP, the authors' objective at every iteration
/// (non-increasing), and in `extra` the local regulariser HE (m x m).
pub type LkamFit = KernelFit<LocalAlignment, Mat<f64>>;

crate::engine_entry! {
    /// Checked LKAM parameters (from [`LkamParams`] through
    /// [`ParamGuard::check`](mkc_core::ParamGuard::check)); fits through
    /// [`mkc_core::Clusterer`] (registry name `"lkam"`): the alternation on every kernel of
    /// the set (preprocessed first), then k-means with the seed on the row-normalised H.
    /// Weights: γ on the simplex (combined kernel `Σ_p γ_p² K_p`). Objective: the authors'
    /// `callocalObj` per iteration (module docs), minimised. Restarts optimise once.
    pub struct Lkam(LkamParams) => LkamFit
}

impl Lkam {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<LkamFit> {
        let n = views[0].nrows();
        mkc_core::validate::n_clusters(n_clusters, n, 1)?;
        let local = Local::new(views, self.params.tau)?;
        self.optimise_local(&local, local.time, n_clusters)
    }

    /// Step 1 of the module docs on the localised kernels (step 0 done, in
    /// `neighbourhood_time`).
    fn optimise_local(
        &self,
        local: &Local,
        neighbourhood_time: Duration,
        n_clusters: usize,
    ) -> Result<LkamFit> {
        let p = &self.params;
        let update = regularised_update(local.he.as_ref(), p.lambda, p.zero_weight, "LKAM");
        let alt = Alternation::new("LKAM", &p.eigen, p.max_iter, StopRule::previous(p.tol));
        let own = LocalAlignment {
            neighbourhood_size: local.s,
            neighbourhood_time,
        };
        Ok(alt
            .run(&local.views(), n_clusters, update)?
            .with(own, local.he.clone()))
    }
}

/// Step 0 of the module docs after the preprocessing: the neighbourhood size, the
/// localised kernels, HE and the time they took.
#[derive(Debug)]
pub(crate) struct Local {
    s: usize,
    local: Vec<Mat<f64>>,
    he: Mat<f64>,
    time: Duration,
}

impl Local {
    /// From the preprocessed kernels `views` and τ.
    fn new(views: &[MatRef<'_, f64>], tau: f64) -> Result<Self> {
        let t0 = Instant::now();
        let n = views[0].nrows();
        let s = neighbours::neighbourhood_size(tau, n)?;
        let a = neighbours::count_matrix(&neighbours::neighbourhoods(views, s));
        let local: Vec<Mat<f64>> = views
            .iter()
            .map(|k| neighbours::localised(a.as_ref(), *k))
            .collect();
        drop(a);
        let local_views: Vec<MatRef<'_, f64>> = local.iter().map(|m| m.as_ref()).collect();
        let he = neighbours::local_regulariser(&local_views, views)?;
        Ok(Local {
            s,
            local,
            he,
            time: t0.elapsed(),
        })
    }

    fn views(&self) -> Vec<MatRef<'_, f64>> {
        self.local.iter().map(|m| m.as_ref()).collect()
    }
}

crate::clusterer_by_relaxation!(Lkam, LkamDiagnostics, "lkam", "LKAM");
