//! LKAM's hyperparameters: a builder with the defaults of the authors' code, checked once
//! into [`Lkam`](super::Lkam).

use mkc_core::Error;

use super::Lkam;
use crate::params::check_regularised;

crate::family_params! {
    /// Parameters of LKAM (Li et al., IJCAI 2016), unchecked; the defaults are the
    /// authors' code's (λ = 1, τ = 0.5 as the SimpleMKKM Flower17 call). The number of
    /// clusters and the seed are given when fitting ([`mkc_core::Clusterer::fit`]).
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(LkamParams::new().lambda(0.125).tau(0.1).validate_params().is_ok());
    /// assert!(LkamParams::new().tau(1.5).validate_params().is_err());
    /// ```
    pub struct LkamParams => Lkam, "lkam" {
        /// λ ≥ 0, the weight of the local regulariser `(λ/2) γᵀ HE γ`. No default in the
        /// paper; searched over 2^-15, …, 2^15 by the authors' group; the SimpleMKKM
        /// authors' Flower17 call uses 1. Default 1.
        lambda: f64 = 1.0,
        /// τ ∈ (0, 1), the neighbourhood size as a fraction of n: `s = round(τ n)` nearest
        /// samples (checked against n at fit time: `1 ≤ s ≤ n − 1`). Searched over
        /// {0.05, 0.15, …, 0.95}; Flower17 call 0.5. Default 0.5.
        tau: f64 = 0.5,
        /// Stop after the third iteration once the relative objective change is below
        /// this. Default 1e-6 (authors).
        tol: f64 = 1e-6,
        /// Iteration cap. Default 11 (the authors' loop stops when t > 10). Reaching it
        /// is reported as `converged = false`, not as an error.
        max_iter: usize = 11,
        /// Weights below this are set to 0 after each QP, the rest renormalised. Default
        /// 1e-6 (authors).
        zero_weight: f64 = 1e-6,
    }
    check(&self) {
        if !(self.tau > 0.0 && self.tau < 1.0) {
            return Err(Error::param("tau", self.tau, "must lie in (0, 1)"));
        }
        check_regularised(self.lambda, self.tol, self.max_iter, self.zero_weight)
    }
}
