//! MVKKM (Tzortzis & Likas, ICDM 2012, `mkc-gumkl`): multi-view kernel k-means with weights
//! ∝ D_v^(−1/(p−1)), started from global kernel k-means on the uniform combination.
//! Deterministic, so the seed is ignored and restarts are copies of one fit.
//!
//! The global kernel k-means start is most of a fit's time (n kernel k-means runs per
//! added cluster) and the same for every p, tolerance, iteration cap and weight floor
//! (`Mvkkm::initial_partition`), so the jobs of a grid over those share it
//! ([`Method::shared_key`](crate::methods::Method::shared_key)): computed once, given to
//! each fit as its initial labels, with the same results bit for bit.

use mkc_core::DynClusterer;
use mkc_gumkl::{MvkkmInit, MvkkmParams};

by_word!(MvkkmInit);

adapter! {
    /// MVKKM.
    Mvkkm, "mvkkm", "MVKKM: multi-view kernel k-means with closed-form view weights (Tzortzis & Likas)",
    reflect MvkkmParams => [p, init, tol, max_iter, weight_floor];
    extra {
        // The start's key: the parameters with those that do not affect the start set to
        // fixed values (what remains: `init`, global or fast global, as a parameter set
        // never gives labels, and the inner iteration cap).
        shared_per_job! {
            Mvkkm, "init", Vec<usize>,
            key |b| Some(b.p(1.0).tol(0.0).max_iter(1).weight_floor(0.0)),
            work |b, set, k| b.check()?.initial_partition(set, k),
            runs |b, set, k, seeds, start| {
                Ok(b.init(MvkkmInit::Labels(start.clone())).fit_restarts_dyn(set, k, seeds))
            },
        }
    }
}
