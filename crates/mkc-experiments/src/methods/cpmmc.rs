//! CPMMC (Zhao, Wang & Zhang, SDM 2008): cutting-plane maximum margin clustering with the
//! constrained concave–convex procedure, two clusters (`mkc_mmc::cpmmc`).
//!
//! One kernel at a time ([`KernelUse::Single`]): LG-MMC's tables report the best over the
//! linear kernel and the Gaussian widths. `kernel-type = "auto"` (default) runs the
//! feature-space path (no n x n matrix) on the recipe's `linear` kernel or when the recipe
//! builds no kernel (MNIST), and the precomputed-kernel path otherwise. The seed draws the
//! starting hyperplane (`init = "random"`, the authors' Octave copy) or only the power
//! iteration's start (`init = "pca"`).

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_mmc::{CpmmcInit, CpmmcParams, CpmmcPath};

words!(CpmmcPath { "linear" => CpmmcPath::Linear, "kernel" => CpmmcPath::Kernel, _ => CpmmcPath::Auto });
words!(CpmmcInit { "pca" => CpmmcInit::Pca, _ => CpmmcInit::Random });

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C", ParamKind::Float, "1", "C of eq. (9), multiplying the average slack (LG-MMC grid 0.1, 0.5, 1, 5, 10, 100)"),
    ParamSpec::new("balance", ParamKind::Float, "0.03", "balance ℓ of −ℓ ≤ Σ f(xᵢ) ≤ ℓ as a fraction of n (LG-MMC: 0.03 balanced, 0.3 unbalanced data)"),
    ParamSpec::new("epsilon", ParamKind::Float, "0.01", "stop when the most violated constraint exceeds the slack ξ by at most ε"),
    ParamSpec::new("cccp_tol", ParamKind::Float, "0.01", "CCCP stops at this relative objective decrease (the authors' per_quit)"),
    ParamSpec::new("cccp_max_iter", ParamKind::Int, "20", "cap on CCCP steps per cutting-plane round"),
    ParamSpec::new("max_iter", ParamKind::Int, "200", "cap on cutting-plane rounds"),
    ParamSpec::new("init", ParamKind::Choice(&["random", "pca"]), "random", "start: seeded random hyperplane (authors' Octave copy) or the top principal direction"),
    ParamSpec::new("kernel-type", ParamKind::Choice(&["auto", "linear", "kernel"]), "auto", "linear: feature space (needs features); kernel: the precomputed kernel; auto: linear for the recipe's linear kernel or when there is no kernel"),
];

adapter! {
    /// CPMMC.
    Cpmmc, "cpmmc", "CPMMC: cutting-plane maximum margin clustering (Zhao, Wang & Zhang, SDM 2008), two clusters", PARAMS,
    CpmmcParams::new() => [c = "C", balance, epsilon, cccp_tol, cccp_max_iter, max_iter, init, path = "kernel-type"]; kernels = KernelUse::Single
}
