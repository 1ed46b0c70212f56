//! LMKKM (Gönen & Margolin, NIPS 2014; `mkc-mkkm`): localised multiple kernel k-means
//! with sample-specific gating weights. No tuned hyper-parameter (a fixed number of
//! alternations; the authors' demo: 10); Θ and H are computed once, k-means per seed.

use super::mkkm::{family, with_labels};
use crate::params::{ParamKind, ParamSpec};
use mkc_mkkm::LmkkmParams;

const PARAMS: [ParamSpec; 3] = [
    ParamSpec::new(
        "iterations",
        ParamKind::Int,
        "10",
        "number of alternations, no convergence test (the authors' iteration_count; demo 10)",
    ),
    ParamSpec::new(
        "qp_tol",
        ParamKind::Float,
        "1e-6",
        "projected-gradient tolerance of each gating QP (FISTA; the authors use MOSEK)",
    ),
    ParamSpec::new(
        "qp_max_iter",
        ParamKind::Int,
        "500",
        "FISTA iteration cap of each gating QP",
    ),
];

adapter! {
    /// LMKKM, localised (sample-specific) kernel weights.
    Lmkkm, "lmkkm", "LMKKM (Gönen & Margolin 2014): kernel k-means on Σ_m (θ_m θ_mᵀ) ∘ K_m with per-sample gating weights, alternating top-k eigenvectors and a simplex-constrained QP", with_labels(&PARAMS),
    LmkkmParams::new() => [iterations, qp_tol, qp_max_iter] then |b, p| family(b, p)?
}
