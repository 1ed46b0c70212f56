//! LKAM (Li et al., IJCAI 2016; `mkc-mkkm`): local kernel alignment over τ-nearest
//! neighbourhoods, as the SimpleMKKM authors run it. Deterministic optimisation once per
//! grid point; only the final k-means on H depends on the seed.
//!
//! The preprocessing and LKAM's step 0 (neighbourhoods, localised kernels, HE) depend on
//! τ but not on λ, and are most of a fit at the sizes of the tables, so the jobs of a λ
//! grid share them per τ ([`Method::shared_key`](crate::methods::Method::shared_key);
//! `mkc_mkkm::LocalStructure`, charged to the runs' `preprocess` phase): the runs are the
//! same bit for bit.

use super::mkkm::{family, LABEL_PARAMS};
use mkc_mkkm::{LkamParams, LocalStructure};

adapter! {
    /// LKAM: localised kernels (1/n) A ∘ K_p over τ-nearest neighbourhoods, weights by a simplex QP.
    Lkam, "lkam", "LKAM (Li et al. 2016): multiple kernel k-means aligned only within τ-nearest neighbourhoods, local regulariser λ",
    reflect LkamParams + LABEL_PARAMS => [lambda, tau, tol, max_iter, zero_weight] then |b, p| family(b, p)?;
    extra {
        // The structure's key: the parameters with λ set to 1 (what remains that it
        // depends on: τ and the preprocessing; the rest is constant within a grid).
        shared_per_job! {
            Lkam, "preprocess", LocalStructure,
            key |b| Some(b.lambda(1.0)),
            work |b, set, _k| b.check()?.local_structure(set),
            runs |b, set, k, seeds, structure| {
                let runs = b.check()?.fit_restarts_with(set, k, seeds, structure);
                Ok(runs.into_iter().map(|r| r.map(|c| c.erase())).collect())
            },
        }
    }
}
