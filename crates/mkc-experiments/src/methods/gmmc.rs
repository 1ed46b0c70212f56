//! GMMC (Valizadegan & Jin, NIPS 2006; `mkc-mmc`): the convex SDP relaxation of
//! two-cluster maximum margin clustering with a bias and O(n) dual variables, solved by
//! the crate's certified barrier method; labels from the leading eigenvector.
//!
//! One kernel at a time ([`KernelUse::Single`]), as LG-MMC's tables report the best over
//! the linear kernel and the Gaussian widths. `kernel-type = "auto"` reads the features
//! for the recipe's `linear` kernel or a features-only recipe (the SDP's matrix is then
//! (d+1) x (d+1)), and factors the precomputed kernel otherwise. Deterministic: the seed
//! only starts the eigensolver of large kernels.

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_mmc::gmmc::{GmmcParams, GmmcPath};

words!(GmmcPath { "linear" => GmmcPath::Linear, "kernel" => GmmcPath::Kernel, _ => GmmcPath::Auto });

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C", ParamKind::Float, "1", "soft-margin regularisation C (LG-MMC's grid: 0.1, 0.5, 1, 5, 10, 100)"),
    ParamSpec::new("balance", ParamKind::Float, "0.03", "balance ℓ of |Σ f(x_i)| ≤ ℓ as a fraction of n (LG-MMC: 0.03 for balanced data, 0.3 otherwise)"),
    ParamSpec::new("kernel-type", ParamKind::Choice(&["auto", "linear", "kernel"]), "auto", "linear: the features (needs features); kernel: the precomputed kernel's eigen-features; auto: linear for the recipe's linear kernel or when there is no kernel"),
    ParamSpec::new("energy_tol", ParamKind::Float, "0.001", "kernel path: keep the eigen-features carrying 1 − energy_tol of the centred kernel's trace"),
    ParamSpec::new("max_rank", ParamKind::Int, "300", "kernel path: at most this many eigen-features"),
    ParamSpec::new("gap_tol", ParamKind::Float, "1e-4", "relative certified duality gap that stops the barrier method"),
    ParamSpec::new("max_newton", ParamKind::Int, "1000", "cap on the barrier method's Newton steps"),
];

adapter! {
    /// GMMC.
    Gmmc, "gmmc", "GMMC: generalized maximum margin clustering, SDP relaxation with O(n) variables (Valizadegan & Jin, NIPS 2006), two clusters", PARAMS,
    GmmcParams::new() => [c = "C", balance, path = "kernel-type", energy_tol, max_rank, gap_tol, max_newton]; kernels = KernelUse::Single
}
