//! LMKKM (Gönen & Margolin, NIPS 2014; `mkc-mkkm`): localised multiple kernel k-means
//! with sample-specific gating weights. No tuned hyper-parameter (a fixed number of
//! alternations; the authors' demo: 10); Θ and H are computed once, k-means per seed.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::LmkkmParams;

adapter! {
    /// LMKKM, localised (sample-specific) kernel weights.
    Lmkkm, "lmkkm", "LMKKM (Gönen & Margolin 2014): kernel k-means on Σ_m (θ_m θ_mᵀ) ∘ K_m with per-sample gating weights, alternating top-k eigenvectors and a simplex-constrained QP",
    reflect LmkkmParams + LABEL_PARAMS => [iterations, qp_tol, qp_max_iter] then |b, p| family(b, p)?
}
