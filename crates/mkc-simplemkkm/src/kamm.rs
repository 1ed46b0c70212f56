//! KAMM-R and KAMM-A, the two alternatives SimpleMKKM's Table 3 compares with (Liu et al.,
//! ICML, Section 5 "Advantage of Formulation and Optimization"): the kernel alignment
//! criterion `J(γ) = max_{HᵀH = I_k} tr(Hᵀ K_γ H)`, `K_γ = Σ_p γ_p² K_p`, γ on the simplex,
//! solved the two other ways the paper describes. No code by the authors is public; both
//! are reconstructed from that section's one paragraph, with every choice written here.
//!
//! # KAMM-R: max over γ, max over H, by reduced gradient
//! `max_{γ ∈ Δ} J(γ)` with Algorithm 1's machinery ([`KammRParams`] holds a
//! [`SimpleMkkmParams`]: the same reduced gradient of eqs. (7)–(9), step cap, golden-section
//! line search, stopping rule `max |Δγ| < tol` and solvers) run as an *ascent*: every
//! update increases J (the update minimises `−J` along the direction of eq. (9) built
//! from `−∇J`). J is convex in γ, so its maximum over the simplex is at a vertex — a
//! single kernel (the one whose top-k eigenvalues sum highest, when the ascent reaches
//! the global maximum); this is why KAMM-R is the weakest column of Table 3.
//!
//! # KAMM-A: min over γ, max over H, by alternation
//! SimpleMKKM's own objective `min_{γ ∈ Δ} J(γ)` (eq. (4)) solved by the usual
//! alternation ([`mkc_mkkm::alternation`]): H = the top-k eigenvectors of `K_γ` (the max
//! over H), then the γ minimising `tr(Hᵀ K_γ H) = Σ_p γ_p² a_p`, `a_p = tr(Hᵀ K_p H)`, for
//! that fixed H: `γ_p ∝ 1/a_p` (MKKM's closed form with `a_p` in place of MKKM's cost).
//! The recorded objective is `J(γ_t) = Σ_p γ_{t,p}² a_p(H_t)`, the sum of the k largest
//! eigenvalues of `K_{γ_t}`. The γ-step minimises a lower bound of J, so J may rise: the
//! alternation is not a descent method (the paper's reason for KAMM-A's loss to
//! SimpleMKKM); a fixed point, though, satisfies `γ_p a_p = const`, SimpleMKKM's optimality
//! condition. Stopping rule (ours, MKKM's baseline): relative change of J below `tol`
//! (1e-4) or `max_iter` (50) iterations; the returned H is the last one, computed for the
//! γ before the last update (as MKKM).
//!
//! Both: kernels centred then unit diagonal, γ starts at 1/m, labels by k-means on the
//! row-normalised H (10 replicates), as every method of Tables 2–3.

use faer::MatRef;
use mkc_core::{ParamGuard, Result};
use mkc_mkkm::alternation::{traces, Alternation};
use mkc_mkkm::closed_form_weights;
use mkc_mkkm::fit::{converged_entry, FamilyDiagnostics, KernelFit, MethodDiagnostics, StopRule};
use mkc_mkkm::params::check_stopping;

use crate::params::SimpleMkkmParams;
use crate::simplemkkm::{SimpleMkkm, SimpleMkkmFit};
use crate::update::Sense;

/// Parameters of KAMM-R, unchecked: Algorithm 1's settings, run as an ascent.
///
/// ```
/// use mkc_simplemkkm::prelude::*;
/// let p = KammRParams::new().algorithm(SimpleMkkmParams::new().tol(1e-6));
/// assert!(p.validate_params().is_ok());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KammRParams {
    /// Algorithm 1's settings (defaults: the authors' SimpleMKKM code).
    pub algorithm: SimpleMkkmParams,
}

impl KammRParams {
    /// SimpleMKKM's defaults.
    pub fn new() -> Self {
        Self::default()
    }

    mkc_core::setters! {
        /// Sets `algorithm`.
        algorithm: SimpleMkkmParams,
    }
}

impl ParamGuard for KammRParams {
    type Checked = KammR;
    fn check(&self) -> Result<KammR> {
        let checked = self.algorithm.check()?;
        Ok(KammR {
            params: checked.params,
        })
    }
}

mkc_mkkm::engine_entry! {
    @checked
    /// Checked KAMM-R parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"kamm-r"`). Weights: γ on the simplex, combined kernel `Σ_p γ_p² K_p`. Objective:
    /// J(γ) at γ = 1/m and after every update (non-decreasing). The fit's result types are
    /// SimpleMKKM's ([`SimpleMkkmFit`], [`SimpleMkkmDiagnostics`](crate::SimpleMkkmDiagnostics);
    /// its `kkt_residual` is that of the maximisation). Restarts optimise once.
    pub struct KammR(SimpleMkkmParams) => SimpleMkkmFit
}

impl KammR {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<SimpleMkkmFit> {
        let algorithm = SimpleMkkm {
            params: self.params.clone(),
        };
        algorithm.run_in(views, n_clusters, Sense::Maximise)
    }
}

mkc_mkkm::family_params! {
    /// Parameters of KAMM-A, unchecked (module docs).
    ///
    /// ```
    /// use mkc_simplemkkm::prelude::*;
    /// assert!(KammAParams::new().tol(1e-6).validate_params().is_ok());
    /// assert!(KammAParams::new().max_iter(0).validate_params().is_err());
    /// ```
    pub struct KammAParams => KammA, "kamm-a" {
        /// Stop when the relative change of J is below this. Default 1e-4 (MKKM's
        /// baseline).
        tol: f64 = 1e-4,
        /// Iteration cap. Default 50 (MKKM's baseline); reaching it is reported as
        /// `converged = false`, not as an error.
        max_iter: usize = 50,
    }
    check(&self) { check_stopping(self.tol, self.max_iter) }
}

/// KAMM-A lists its eigensolves beside `converged` in the run records; it has no
/// diagnostics of its own.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Alternated;

impl MethodDiagnostics for Alternated {
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        vec![
            converged_entry(all.converged),
            ("eigensolves".into(), all.eigensolves as f64),
        ]
    }
}

/// Diagnostics of a KAMM-A run: `converged` (the relative change fell below `tol`
/// before `max_iter`), the top-k eigensolves, γ at the start and after every update
/// (`weight_trace`) and the times. Entries: `converged` (0 or 1) and `eigensolves`.
pub type KammADiagnostics = FamilyDiagnostics<Alternated>;

/// Result of the KAMM-A alternation ([`KammA::fit_kernels`]), before the seeded
/// k-means: γ on the simplex, the last H (top-k eigenvectors of `K_γ` for the γ before
/// the last update) and J(γ_t) at every iteration.
pub type KammAFit = KernelFit<Alternated>;

mkc_mkkm::engine_entry! {
    /// Checked KAMM-A parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"kamm-a"`). Weights: γ on the simplex (combined kernel `Σ_p γ_p² K_p`). Objective:
    /// J(γ_t) per iteration (not monotone). Restarts optimise once.
    pub struct KammA(KammAParams) => KammAFit
}

impl KammA {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<KammAFit> {
        let p = &self.params;
        let tr = traces(views);
        // b_p = tr K_p − tr(Hᵀ K_p H) from the alternation, so a_p = tr K_p − b_p.
        let update = |gamma: &[f64], b: &[f64]| -> Result<(Vec<f64>, f64)> {
            let a: Vec<f64> = tr.iter().zip(b).map(|(t, bp)| t - bp).collect();
            let value = gamma.iter().zip(&a).map(|(g, ap)| g * g * ap).sum();
            Ok((closed_form_weights(&a, &tr), value))
        };
        let alt = Alternation::new("KAMM-A", &p.eigen, p.max_iter, StopRule::current(p.tol));
        Ok(alt.run(views, n_clusters, update)?.with(Alternated, ()))
    }
}

mkc_mkkm::clusterer_by_relaxation!(KammA, KammADiagnostics, "kamm-a", "KAMM-A");
mkc_mkkm::clusterer_by_relaxation!(KammR, crate::SimpleMkkmDiagnostics, "kamm-r", "KAMM-R");
mkc_core::clusterer_via_check!(KammRParams, "kamm-r");
