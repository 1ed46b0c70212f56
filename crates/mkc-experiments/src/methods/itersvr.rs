//! iterSVR (Zhang, Tsang & Kwok 2007; `mkc_rmkc::itersvr`): alternate an ε-SVR on the
//! current labels and relabelling by the sign of its output under the balance bound,
//! from kernel k-means labels (one k-means++ seeding per run, from the run's seed).
//! Single kernel: the tables report the best kernel and the average over kernels. The
//! RMKC paper's protocol: ℓ = 0.03N (balanced data) or 0.3N (unbalanced), C on the grid
//! {1e-2, …, 1e2}, 30 runs. The bound is the parameter `ell` (a fraction of N), not
//! `balance` as for RMKC, so that a table's per-row `ell` leaves RMKC's ℓ = 0.5N alone.
//! `kernel-type = "auto"` (default, `IterSvrPath::Auto`) runs the linear feature-space
//! path (no n x n matrix, coordinate-descent SVR) when the recipe builds no kernel
//! (features-only recipes, e.g. LG-MMC's MNIST pairs: the paper's linear kernel there), and
//! the precomputed-kernel path whenever there is a kernel; `linear` / `kernel` force one.

use super::KernelUse;
use crate::params::{ParamKind, ParamSpec};
use mkc_rmkc::itersvr::IterSvrPath;
use mkc_rmkc::IterSvrParams;

words!(IterSvrPath { "linear" => IterSvrPath::Linear, "kernel" => IterSvrPath::Kernel, _ => IterSvrPath::Auto });

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C", ParamKind::Float, "1", "SVR box constraint C > 0 (RMKC paper: best of 1e-2, …, 1e2)"),
    ParamSpec::new("epsilon", ParamKind::Float, "0", "SVR tube width ε ≥ 0 (0 = the Laplacian loss of Zhang et al.)"),
    ParamSpec::new("ell", ParamKind::Float, "0.03", "balance bound ℓ as a fraction of N (RMKC paper: 0.03 balanced, 0.3 unbalanced data)"),
    ParamSpec::new("max_iter", ParamKind::Int, "50", "cap on the SVR / relabelling iterations"),
    ParamSpec::new("svm_tol", ParamKind::Float, "1e-3", "KKT tolerance of every SVR solve (LIBSVM's default)"),
    ParamSpec::new("kernel-type", ParamKind::Choice(&["auto", "linear", "kernel"]), "auto", "linear: the linear kernel of the features in feature space; kernel: the precomputed kernel; auto: linear when there is no kernel"),
    ParamSpec::new("max_epochs", ParamKind::Int, "300", "linear path: cap on the coordinate-descent epochs of one SVR (MNIST: the descent stalls near a violation of 0.05)"),
];

adapter! {
    /// iterSVR, single kernel.
    IterSvr, "itersvr", "iterSVR: alternating ε-SVR and balanced relabelling from kernel k-means, two clusters (Zhang, Tsang & Kwok 2007)", PARAMS,
    IterSvrParams::new() => [c = "C", epsilon, balance = "ell", max_iter, svm_tol, path = "kernel-type", max_epochs]; kernels = KernelUse::Single
}
