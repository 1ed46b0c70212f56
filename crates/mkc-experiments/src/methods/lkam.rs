//! LKAM (Li et al., IJCAI 2016; `mkc-mkkm`): local kernel alignment over τ-nearest
//! neighbourhoods, as the SimpleMKKM authors run it. Deterministic optimisation once per
//! grid point; only the final k-means on H depends on the seed.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::LkamParams;

adapter! {
    /// LKAM: localised kernels (1/n) A ∘ K_p over τ-nearest neighbourhoods, weights by a simplex QP.
    Lkam, "lkam", "LKAM (Li et al. 2016): multiple kernel k-means aligned only within τ-nearest neighbourhoods, local regulariser λ",
    reflect LkamParams + LABEL_PARAMS => [lambda, tau, tol, max_iter, zero_weight] then |b, p| family(b, p)?
}
