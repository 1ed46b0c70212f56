//! GMMC through the workspace's method API: [`Gmmc`] is the [`mkc_core::Clusterer`] "gmmc".

use super::barrier::RelaxationSolution;
use super::params::{Gmmc, GmmcParams};
use super::relaxation::Relaxation;
use super::rounding::{balanced_labels, leading_direction, sign_labels};
use faer::{Mat, MatRef};
use mkc_core::{Clustering, KernelSet, Result};
use mkc_lgmmc::InputPath;

mkc_core::diagnostics! {
    /// What a GMMC fit computed besides the labels.
    pub struct GmmcDiagnostics {
        /// Optimal value of the relaxation, certified from below: the dual objective of
        /// (D1) at the final dual point. It bounds the integer MMC objective (P0) from below.
        relaxation: f64,
        /// Primal objective of (P1) at the returned moment matrix (an upper bound on the
        /// relaxation's optimum).
        primal: f64,
        /// Certified duality gap `primal − relaxation`.
        gap: f64,
        /// Newton steps of the barrier method.
        newton_steps: usize,
        /// Share `λ₁/tr` of the leading eigenvalue of the relaxed label matrix `AZAᵀ` (1 =
        /// rank one: the relaxation is tight and the labels solve (P0)).
        rank_one: f64,
        /// Number of feature columns r (the moment matrix is (r+1) x (r+1)).
        feature_dim: usize,
        /// Whether the linear feature path ran ([`GmmcPath`](super::GmmcPath)).
        linear_path: bool,
        /// Why the barrier method stopped ([`super::StopReason::code`]).
        stop_reason: usize,
    }
}

mkc_core::clusterer! {
    Gmmc, "gmmc", GmmcDiagnostics;
    /// The GMMC relaxation on the set's kernel (or the mean of its kernels) or on the
    /// linear kernel of its features ([`GmmcParams::path`]); two clusters only, labels 0/1
    /// (the signs of the leading eigenvector of the relaxed label matrix). The objective
    /// trace is the dual objective of (D1) after every barrier round (a certified lower
    /// bound on the relaxation, maximised); `iterations` counts the rounds and
    /// `converged` is true when the certified gap met `gap_tol`. The seed starts the
    /// kernel path's eigensolver (n > 600 only); results do not depend on the number of
    /// threads. Phases: "features", "sdp", "labels".
    fn fit(&self, data, n_clusters, seed) {
        let ((labels, rank_one, sol, feature_dim), linear, timings) =
            self.params().path.timed_fit("GMMC", data, n_clusters, |linear, timings| {
                let phi = timings.time("features", || self.features(data, linear, seed))?;
                let ell = self.ell(data.n())?;
                let rel = Relaxation::new(phi.as_ref(), self.params().c, ell)?;
                let sol = timings.time("sdp", || self.params().solver.solve(&rel, None))?;
                let (lo, hi) = mkc_lgmmc::plus_range(data.n(), ell)?;
                let (labels, rank_one) =
                    timings.time("labels", || labels_of(&rel, &sol, lo, hi))?;
                Ok((labels, rank_one, sol, phi.ncols()))
            })?;
        let diag = GmmcDiagnostics {
            relaxation: sol.dual,
            primal: sol.primal,
            gap: sol.gap(),
            newton_steps: sol.newton_steps,
            rank_one,
            feature_dim,
            linear_path: linear,
            stop_reason: usize::from(sol.stop.code()),
        };
        Ok(Clustering::new(labels, 2, diag)
            .with_objective(sol.trace.clone())
            .with_iterations(sol.rounds, sol.stop == super::StopReason::Gap)
            .with_timings(timings))
    }
}

mkc_core::clusterer_via_check!(GmmcParams, "gmmc");

/// Labels and the rank-one share: the signs of the leading direction, or, when they
/// put every sample in one cluster, the balanced threshold (`lo..=hi` in cluster 1).
pub(crate) fn labels_of(
    rel: &Relaxation,
    sol: &RelaxationSolution,
    lo: usize,
    hi: usize,
) -> Result<(Vec<usize>, f64)> {
    let (v, share) = leading_direction(rel.design(), sol.z.as_ref())?;
    let signs = sign_labels(&v);
    let plus: usize = signs.iter().sum();
    if plus == 0 || plus == signs.len() {
        Ok((balanced_labels(&v, lo, hi), share))
    } else {
        Ok((signs, share))
    }
}

impl Gmmc {
    /// The explicit features Φ of the relaxation: the set's features (linear path) or
    /// `U_r Λ_r^½` of the centred kernel (kernel path, `mkc_lgmmc::kernel_features`).
    fn features(&self, data: &KernelSet<'_>, linear: bool, seed: u64) -> Result<Mat<f64>> {
        if linear {
            Ok(data.require_features("gmmc")?.to_owned())
        } else {
            let k = data.one_kernel("gmmc")?;
            mkc_lgmmc::kernel_features(k.as_mat(), self.params().rank, seed)
        }
    }

    /// The relaxation of this method on explicit features `phi` (n x r), for users who
    /// solve along a grid with warm starts ([`super::BarrierSolver::solve`]).
    pub fn relaxation(&self, phi: MatRef<'_, f64>) -> Result<Relaxation> {
        Relaxation::new(phi, self.params().c, self.ell(phi.nrows())?)
    }
}
