//! KAMM-R and KAMM-A (`mkc-simplemkkm`), the two alternatives of SimpleMKKM's Table 3:
//! the kernel alignment criterion maximised over γ by Algorithm 1's reduced gradient
//! (KAMM-R, same options as SimpleMKKM), or minimised over γ by alternation (KAMM-A).
//! Reconstructed (no authors' code); deterministic, restarts share the optimisation.

use super::mkkm::{family, LABEL_PARAMS};
use super::simplemkkm::{simplemkkm_params, simplemkkm_specs};
use mkc_simplemkkm::{KammAParams, KammRParams};

adapter! {
    /// KAMM-R: max over γ of max over H, by reduced gradient ascent.
    KammR, "kamm-r",
    "KAMM-R (SimpleMKKM's Table 3): maximise the kernel alignment over γ too, by Algorithm 1's reduced gradient as an ascent (ends at one kernel)",
    simplemkkm_specs(),
    |p| KammRParams::new().algorithm(simplemkkm_params(p)?)
}

adapter! {
    /// KAMM-A: SimpleMKKM's min-max objective by alternation.
    KammA, "kamm-a", "KAMM-A (SimpleMKKM's Table 3): SimpleMKKM's objective by alternation (H = top-k eigenvectors, then γ_p ∝ 1/tr(Hᵀ K_p H))",
    reflect KammAParams + LABEL_PARAMS => [tol, max_iter] then |b, p| family(b, p)?
}
