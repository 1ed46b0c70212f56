//! CPMMC through the workspace's method API: [`Cpmmc`] is the [`Clusterer`] "cpmmc".

use super::cutting_plane::CpmmcStop;
use super::gram::{FeatureGram, Gram, KernelGram};
use super::params::{Cpmmc, CpmmcParams};
use mkc_core::Clustering;
use mkc_lgmmc::InputPath;

/// What a CPMMC fit ended with besides the labels. Run records list `cuts`,
/// `cccp_steps`, `qp_iterations`, `xi`, `violation`, `w_norm`, `centred_bias`,
/// `stop_reason` ([`CpmmcStop::code`]) and `linear_path` (0/1).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct CpmmcDiagnostics {
    /// Decision values `fᵢ = wᵀxᵢ + b` (labels are their signs: `fᵢ > 0` → cluster 1).
    pub decision: Vec<f64>,
    /// Constraints (cuts) in the final working set Ω.
    pub cuts: usize,
    /// CCCP steps (convex QPs solved) over all rounds.
    pub cccp_steps: usize,
    /// Interior-point iterations over all QPs.
    pub qp_iterations: usize,
    /// The working-set objective `½‖w‖² + Cξ` after every CCCP step, all rounds, each
    /// round starting with the value at its start point (non-increasing within a round).
    pub cccp_objective: Vec<f64>,
    /// Index into `cccp_objective` of each round's start value.
    pub round_starts: Vec<usize>,
    /// Slack ξ of the final working-set problem.
    pub xi: f64,
    /// Violation of the last most violated constraint (eq. 14).
    pub violation: f64,
    /// `‖w‖`.
    pub w_norm: f64,
    /// The bias of the centred data, `b̃ = b + wᵀx̄` = the mean decision value; the
    /// balance constraint is `|b̃| ≤ ℓ/n`.
    pub centred_bias: f64,
    /// Why the cutting-plane loop stopped.
    pub stop: CpmmcStop,
    /// Whether the linear feature-space path ran ([`CpmmcPath`](super::CpmmcPath)).
    pub linear_path: bool,
}

mkc_core::impl_diagnostics!(CpmmcDiagnostics {
    cuts,
    cccp_steps,
    qp_iterations,
    xi,
    violation,
    w_norm,
    centred_bias,
    stop as "stop_reason",
    linear_path,
});

mkc_core::clusterer! {
    Cpmmc, "cpmmc", CpmmcDiagnostics;
    /// Algorithm 1 (cutting planes + CCCP) on the set's kernel (or the mean of its
    /// kernels), or on the linear kernel of its features ([`CpmmcParams::path`]); two
    /// clusters only, labels 0/1 (`fᵢ > 0` → 1). The objective trace is the working-set
    /// objective `½‖w‖² + Cξ` of eq. (9) after every cutting-plane round (minimised; it
    /// may rise between rounds, as each round adds a constraint); `iterations` counts the
    /// rounds and `converged` is false only at the round cap. The seed draws the
    /// starting hyperplane ([`super::CpmmcInit`]); the result is the same for any
    /// number of threads. Phases: "init", "gram" (products with the data), "qp" (the
    /// dual QPs), "violated".
    fn fit(&self, data, n_clusters, seed) {
        let (run, linear, timings) =
            self.params().path.timed_fit("CPMMC", data, n_clusters, |linear, timings| {
                if linear {
                    let x = data.require_features("cpmmc")?;
                    self.cutting_plane(&FeatureGram::new(x) as &dyn Gram, seed, timings)
                } else {
                    let k = data.one_kernel("cpmmc")?;
                    self.cutting_plane(&KernelGram::new(k.as_mat()), seed, timings)
                }
            })?;
        let labels = run
            .diag
            .decision
            .iter()
            .map(|&f| usize::from(f > 0.0))
            .collect();
        let rounds = run.round_objective.len();
        let diag = CpmmcDiagnostics {
            linear_path: linear,
            ..run.diag
        };
        let converged = diag.stop != CpmmcStop::MaxIter;
        Ok(Clustering::new(labels, 2, diag)
            .with_objective(run.round_objective)
            .with_iterations(rounds, converged)
            .with_timings(timings))
    }
}

mkc_core::clusterer_via_check!(CpmmcParams, "cpmmc");
