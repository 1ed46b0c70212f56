//! LG-MMC (Li, Tsang, Kwok & Zhou, AISTATS 2009): label-generating maximum margin
//! clustering, two clusters (`mkc-lgmmc`).
//!
//! One kernel at a time ([`KernelUse::Single`]): the paper reports the best over the
//! linear kernel and Gaussian widths. `kernel-type = "auto"` (default, `LgmmcPath::Auto`)
//! runs the feature-space path (no n x n matrix) when the kernel is the recipe's `linear`
//! kernel or when the recipe builds no kernel at all (features-only recipes, e.g. MNIST),
//! and the precomputed-kernel path otherwise; `linear` / `kernel` force one path. LG-MMC
//! is deterministic: the seed only orders the coordinate-descent sweeps of the linear path.

use super::KernelUse;
use crate::params::{FromParam, ParamKind, ParamSet, ParamSpec};
use mkc_core::Result;
use mkc_lgmmc::{Balance, FeatureMap, LabelRule, LgmmcParams, LgmmcPath};

words!(LabelRule { "decision" => LabelRule::Decision, _ => LabelRule::Eigenvector });
words!(LgmmcPath { "linear" => LgmmcPath::Linear, "kernel" => LgmmcPath::Kernel, _ => LgmmcPath::Auto });
words!(FeatureMap { "sqrt" => FeatureMap::Sqrt, _ => FeatureMap::Pca });

/// `balance` is ℓ as a fraction of n (LG-MMC's and GMMC's `Balance`).
impl FromParam for Balance {
    fn from_param(set: &ParamSet, name: &str) -> Result<Self> {
        Ok(Balance::Fraction(set.f64(name)?))
    }
}

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("C", ParamKind::Float, "1", "regularisation C of eq. (1) (package default 1; paper grid 0.1, 0.5, 1, 5, 10, 100)"),
    ParamSpec::new("balance", ParamKind::Float, "0.03", "class balance β as a fraction of n (paper: 0.03 for balanced data, 0.3 otherwise)"),
    ParamSpec::new("kernel-type", ParamKind::Choice(&["auto", "linear", "kernel"]), "auto", "linear: feature space (needs features); kernel: the precomputed kernel; auto: linear for the recipe's linear kernel or when there is no kernel"),
    ParamSpec::new("bias", ParamKind::Float, "1", "constant added to the kernel (package default 1)"),
    ParamSpec::new("max_iter", ParamKind::Int, "20", "cap on cutting-plane rounds (package default 20)"),
    ParamSpec::new("tol", ParamKind::Float, "0.01", "stop when the objective of eq. (7) improves by less than this, relative (package: 0.01)"),
    ParamSpec::new("mkl_max_iter", ParamKind::Int, "3", "reduced-gradient steps on μ per round (package: 3)"),
    ParamSpec::new("solver_tol", ParamKind::Float, "0.01", "relative KKT tolerance of the α-solvers"),
    ParamSpec::new("label_rule", ParamKind::Choice(&["eigenvector", "decision"]), "decision", "labels: signs of the top eigenvector of M (paper) or of the decision values K(α∘v) (pSVM's copy of the package)"),
    ParamSpec::new("refine_steps", ParamKind::Int, "0", "ascent steps on the most violated label vector of eq. (13) (ours; 0 = the paper)"),
    ParamSpec::new("center", ParamKind::Bool, "true", "linear path: centre the feature columns first"),
    ParamSpec::new("features", ParamKind::Choice(&["pca", "sqrt"]), "pca", "kernel path, features of eq. (13): kernel PCA scores (ours) or the symmetric square root of K + bias (package)"),
];

adapter! {
    /// LG-MMC.
    Lgmmc, "lgmmc", "LG-MMC: label-generating maximum margin clustering (Li et al., AISTATS 2009), two clusters", PARAMS,
    LgmmcParams::new() => [
        c = "C", balance, bias, max_iter, tol, mkl_max_iter, mkl_tol = "tol", solver_tol, label_rule,
        refine_steps, center, feature_map = "features", path = "kernel-type",
    ]; kernels = KernelUse::Single
}
