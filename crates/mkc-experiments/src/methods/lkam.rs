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
use crate::methods::{charge, outcomes, Input, Outcome, SharedValue, SharedWork};
use crate::params::ParamSet;
use mkc_core::{ParamGuard, Result};
use mkc_mkkm::{LkamParams, LocalStructure};

adapter! {
    /// LKAM: localised kernels (1/n) A ∘ K_p over τ-nearest neighbourhoods, weights by a simplex QP.
    Lkam, "lkam", "LKAM (Li et al. 2016): multiple kernel k-means aligned only within τ-nearest neighbourhoods, local regulariser λ",
    reflect LkamParams + LABEL_PARAMS => [lambda, tau, tol, max_iter, zero_weight] then |b, p| family(b, p)?;
    extra {
        /// The structure's key: the parameters with λ set to 1 (what remains that it
        /// depends on: τ and the preprocessing; the rest is constant within a grid).
        fn shared_key(&self, params: &ParamSet) -> Option<String> {
            let b = Lkam::builder(params).ok()?;
            Some(format!("{:?}", b.lambda(1.0)))
        }
        fn shared_work(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            _seeds: &[u64],
        ) -> Result<SharedValue> {
            let structure = Lkam::builder(params)?
                .check()?
                .local_structure(&input.kernel_set()?)?;
            Ok(std::sync::Arc::new(structure))
        }
        fn run_restarts_shared(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
            shared: &SharedWork,
        ) -> Vec<Result<Outcome>> {
            let Some(structure) = shared.value.downcast_ref::<LocalStructure>() else {
                return self.run_restarts(input, params, seeds);
            };
            let fitted = Lkam::builder(params).and_then(|b| b.check()).and_then(|m| {
                let set = input.kernel_set()?;
                let runs = m.fit_restarts_with(&set, input.n_clusters, seeds, structure);
                Ok(runs.into_iter().map(|r| r.map(|c| c.erase())).collect())
            });
            let mut runs = outcomes("lkam", fitted, seeds.len());
            charge(&mut runs, shared.share, "preprocess");
            runs
        }
    }
}
