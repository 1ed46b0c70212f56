//! MKKM-MM (Bang, Yu & Wu, 2018; `mkc-mkkm`): min–max multiple kernel k-means with
//! ℓ2-norm weights. No tuned hyper-parameter (the authors' package: 10 iterations,
//! tolerance 1e-4); the weights and H are computed once, k-means per seed.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::MkkmMmParams;

adapter! {
    /// MKKM-MM, the min–max formulation (SimpleMKKM's eq. (3)).
    MkkmMm, "mkkm-mm", "MKKM-MM (Bang et al. 2018): min over H of max over ℓ2-norm weights of tr(Σ θ_p K_p (I − HHᵀ)), θ = a/‖a‖ in closed form",
    reflect MkkmMmParams + LABEL_PARAMS => [tol, max_iter] then |b, p| family(b, p)?
}
