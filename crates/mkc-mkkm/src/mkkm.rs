//! MKKM (Huang et al., 2012), the paper's eq. (1), as in the authors' baseline code:
//! alternate (i) relaxed kernel k-means — H = top-k eigenvectors of `K_γ = Σ_p γ_p² K_p`
//! — and (ii) the closed-form weights of eq. (2),
//! `min_{γ ∈ Δ} Σ_p γ_p² b_p` with `b_p = tr(K_p) − tr(Hᵀ K_p H)`, i.e.
//! `γ_p = (1/b_p) / Σ_q (1/b_q)`.
//!
//! Choices written down here: γ starts at 1/m; iteration t computes `H_t` for `γ_t`,
//! then `γ_{t+1}` from `H_t`, and records the objective after both block updates,
//! `obj_t = Σ_p γ_{t+1,p}² b_p(H_t)` (non-increasing); it stops when
//! `|obj_{t−1} − obj_t| / |obj_t| < tol` (1e-4) or after `max_iter` (50) iterations, and
//! returns `γ_{t+1}` with `H_t`. If some `b_p ≤ 1e-12 · tr(K_p)` (kernel p entirely
//! inside span H), the weight is shared uniformly among those kernels (the limit of the
//! closed form). Every eigensolve after the first is warm-started from the previous H.

use faer::MatRef;
use mkc_core::Result;

use crate::alternation::Alternation;
use crate::fit::{FamilyDiagnostics, KernelFit, StopRule};
use crate::params::MkkmParams;

/// Diagnostics of an MKKM run: `converged` (the relative change fell below `tol` before
/// `max_iter`), the eigensolves, γ at the start and after each alternation
/// (`weight_trace`) and the times. Entries: `converged` (0 or 1).
pub type MkkmDiagnostics = FamilyDiagnostics;

/// Result of the MKKM alternation ([`Mkkm::fit_kernels`]), before the seeded k-means:
/// γ on the simplex (`K_γ = Σ_p γ_p² K_p`), H (top-k eigenvectors), and eq. (1),
/// `Σ_p γ_p² (tr K_p − tr(Hᵀ K_p H))`, after each alternation (non-increasing; the last
/// is [`KernelFit::objective`]).
pub type MkkmFit = KernelFit;

/// The closed-form weights of eq. (2): `γ_p ∝ 1/b_p` on the simplex.
pub fn closed_form_weights(b: &[f64], traces: &[f64]) -> Vec<f64> {
    let degenerate: Vec<bool> = b
        .iter()
        .zip(traces)
        .map(|(&bp, &tp)| bp <= 1e-12 * tp.abs().max(f64::MIN_POSITIVE))
        .collect();
    let n_deg = degenerate.iter().filter(|&&d| d).count();
    if n_deg > 0 {
        return degenerate
            .iter()
            .map(|&d| if d { 1.0 / n_deg as f64 } else { 0.0 })
            .collect();
    }
    let inv: Vec<f64> = b.iter().map(|v| 1.0 / v).collect();
    let s: f64 = inv.iter().sum();
    inv.iter().map(|v| v / s).collect()
}

crate::engine_entry! {
    /// Checked MKKM parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"mkkm"`): the alternation on every kernel of the set (preprocessed first), then
    /// k-means with the seed on the row-normalised H. Weights: γ on the simplex (combined
    /// kernel `Σ_p γ_p² K_p`). Objective: eq. (1) after each alternation, minimised.
    /// Restarts compute γ and H once.
    pub struct Mkkm(MkkmParams) => MkkmFit
}

impl Mkkm {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<MkkmFit> {
        let p = &self.params;
        let traces = crate::alternation::traces(views);
        let alt = Alternation::new("MKKM", &p.eigen, p.max_iter, StopRule::current(p.tol));
        alt.run(views, n_clusters, |_, b| {
            let gamma = closed_form_weights(b, &traces);
            let value: f64 = gamma.iter().zip(b).map(|(g, bp)| g * g * bp).sum();
            Ok((gamma, value))
        })
    }
}

crate::clusterer_by_relaxation!(Mkkm, MkkmDiagnostics, "mkkm", "MKKM");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_minimises_eq_2() {
        let b = [2.0, 1.0, 4.0];
        let g = closed_form_weights(&b, &[10.0; 3]);
        assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-15);
        // γ ∝ (1/2, 1, 1/4) = (2, 4, 1)/7
        assert!((g[0] - 2.0 / 7.0).abs() < 1e-15 && (g[1] - 4.0 / 7.0).abs() < 1e-15);
        let f = |g: &[f64]| g.iter().zip(&b).map(|(x, bp)| x * x * bp).sum::<f64>();
        // any other point of the simplex is worse
        for other in [[1.0 / 3.0; 3], [0.3, 0.6, 0.1], [0.25, 0.55, 0.2]] {
            assert!(f(&g) <= f(&other));
        }
        assert_eq!(
            closed_form_weights(&[0.0, 1.0, 0.0], &[5.0; 3]),
            vec![0.5, 0.0, 0.5]
        );
    }
}
