//! ONKC (Liu et al., AAAI 2017; `mkc-mkkm`): optimal neighbourhood kernel clustering as
//! the SimpleMKKM authors run it. Deterministic optimisation (γ, G, H) once per grid
//! point; only the final k-means on H depends on the seed.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::onkc::Projection;
use mkc_mkkm::OnkcParams;

by_word!(Projection);

adapter! {
    /// ONKC: H, the optimal neighbourhood kernel G (PSD projection) and linear weights γ.
    Onkc, "onkc", "ONKC (Liu et al. 2017): cluster with the best PSD kernel G near Σ γ_p K_p (PSD projection of G each iteration)",
    reflect OnkcParams + LABEL_PARAMS => [rho, lambda, tol, max_iter, zero_weight, projection] then |b, p| family(b, p)?
}
