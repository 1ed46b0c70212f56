//! MVKKM (Tzortzis & Likas, ICDM 2012, `mkc-gumkl`): multi-view kernel k-means with weights
//! ∝ D_v^(−1/(p−1)), started from global kernel k-means on the uniform combination.
//! Deterministic, so the seed is ignored and restarts are copies of one fit.
//!
//! The global kernel k-means start is most of a fit's time (n kernel k-means runs per
//! added cluster) and the same for every p, tolerance, iteration cap and weight floor
//! (`Mvkkm::initial_partition`), so the jobs of a grid over those share it
//! ([`Method::shared_key`](crate::methods::Method::shared_key)): computed once, given to
//! each fit as its initial labels, with the same results bit for bit.

use crate::methods::{charge, fit_built, Input, Outcome, SharedValue, SharedWork};
use crate::params::ParamSet;
use mkc_core::{ParamGuard, Result};
use mkc_gumkl::{MvkkmInit, MvkkmParams};

by_word!(MvkkmInit);

adapter! {
    /// MVKKM.
    Mvkkm, "mvkkm", "MVKKM: multi-view kernel k-means with closed-form view weights (Tzortzis & Likas)",
    reflect MvkkmParams => [p, init, tol, max_iter, weight_floor];
    extra {
        /// The start's key: the parameters with those that do not affect the start set to
        /// fixed values (what remains: `init`, global or fast global, as a parameter set
        /// never gives labels, and the inner iteration cap).
        fn shared_key(&self, params: &ParamSet) -> Option<String> {
            let b = Mvkkm::builder(params).ok()?;
            let start_only = b.p(1.0).tol(0.0).max_iter(1).weight_floor(0.0);
            Some(format!("{start_only:?}"))
        }
        fn shared_work(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            _seeds: &[u64],
        ) -> Result<SharedValue> {
            let start = Mvkkm::builder(params)?
                .check()?
                .initial_partition(&input.kernel_set()?, input.n_clusters)?;
            Ok(std::sync::Arc::new(start))
        }
        fn run_restarts_shared(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
            shared: &SharedWork,
        ) -> Vec<Result<Outcome>> {
            let Some(start) = shared.value.downcast_ref::<Vec<usize>>() else {
                return self.run_restarts(input, params, seeds);
            };
            let built = Mvkkm::builder(params).map(|b| {
                Box::new(b.init(MvkkmInit::Labels(start.clone())))
                    as Box<dyn mkc_core::DynClusterer>
            });
            let mut runs = fit_built("mvkkm", built, input, seeds);
            charge(&mut runs, shared.share, "init");
            runs
        }
    }
}
