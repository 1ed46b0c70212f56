//! ONKC (Liu et al., AAAI 2017; `mkc-mkkm`): optimal neighbourhood kernel clustering as
//! the SimpleMKKM authors run it. Deterministic optimisation (γ, G, H) once per grid
//! point; only the final k-means on H depends on the seed.
//!
//! The preprocessing, M and ONKC's step 1 (H of the average kernel, the first G-step with
//! its exact rank count) depend on ρ but not on λ, so the jobs of a λ grid share them per
//! ρ ([`Method::shared_key`](crate::methods::Method::shared_key); `mkc_mkkm::OnkcStart`,
//! its seconds charged to the runs' `weights` phase, preprocessing included): the runs
//! are the same bit for bit.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::onkc::Projection;
use mkc_mkkm::{OnkcParams, OnkcStart};

by_word!(Projection);

adapter! {
    /// ONKC: H, the optimal neighbourhood kernel G (PSD projection) and linear weights γ.
    Onkc, "onkc", "ONKC (Liu et al. 2017): cluster with the best PSD kernel G near Σ γ_p K_p (PSD projection of G each iteration)",
    reflect OnkcParams + LABEL_PARAMS => [rho, lambda, tol, max_iter, zero_weight, projection] then |b, p| family(b, p)?;
    extra {
        // The start's key: the parameters with λ set to 1 (what remains that it depends
        // on: ρ, the projection, the preprocessing and the eigensolver options; the rest
        // is constant within a grid).
        shared_per_job! {
            Onkc, "weights", OnkcStart,
            key |b| Some(b.lambda(1.0)),
            work |b, set, k| b.check()?.start_for(set, k),
            runs |b, set, k, seeds, start| {
                let runs = b.check()?.fit_restarts_from(set, k, seeds, start);
                Ok(runs.into_iter().map(|r| r.map(|c| c.erase())).collect())
            },
        }
    }
}
