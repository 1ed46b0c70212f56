//! SCMK and SCSK (Kang, Peng, Cheng & Xu, AAAI 2017, `mkc-scmk`): twin learning of
//! similarity and clustering, with multiple kernels (Algorithm 2) or one kernel at a time
//! (Algorithm 1). α and β have no paper defaults (the paper searches α ∈ {1e-5, …, 100},
//! β ∈ {1e-6, 1e-5}; the defaults 1 and 1e-5 are points of that grid); the stopping rule
//! and the 100 k-means replicates are the authors'. The alternating loop is
//! deterministic, so restarts share it and differ only in the seed of the final k-means
//! on P (`fit_restarts` of `mkc-scmk`).

use super::KernelUse;
use mkc_scmk::{ScmkParams, ScskParams, ZSolver};

by_word!(ZSolver);

adapter! {
    /// SCMK, Algorithm 2 (all kernels).
    Scmk, "scmk", "SCMK: joint similarity, clustering and kernel weights (Kang et al. AAAI 2017, Algorithm 2)",
    reflect ScmkParams => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init]
}

adapter! {
    /// SCSK, Algorithm 1 (each kernel separately).
    Scsk, "scsk", "SCSK: joint similarity and clustering on each kernel (Kang et al. AAAI 2017, Algorithm 1)",
    reflect ScskParams => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init]; kernels = KernelUse::Single
}
