//! iterSVR (Zhang, Tsang & Kwok 2007; `mkc_rmkc::itersvr`): alternate an ε-SVR on the
//! current labels and relabelling by the sign of its output under the balance bound,
//! from kernel k-means labels (one k-means++ seeding per run, from the run's seed).
//! Single kernel: the tables report the best kernel and the average over kernels. The
//! RMKC paper's protocol: ℓ = 0.03N (balanced data) or 0.3N (unbalanced), C on the grid
//! {1e-2, …, 1e2}, 30 runs. The bound is the parameter `ell` (a fraction of N), not
//! `balance` as for RMKC, so that a table's per-row `ell` leaves RMKC's ℓ = 0.5N alone.
//! `kernel-type = "auto"` (default, `IterSvrPath::Auto`) runs the SVRs on the linear
//! feature-space path (no n x n matrix, semismooth Newton SVR) when the recipe builds no
//! kernel (features-only recipes, e.g. LG-MMC's MNIST pairs: the paper's linear kernel
//! there) or the job's kernel is the linear kernel of the scaled features
//! (`KernelSet::is_features_linear`: LG-MMC's `linear` column; the start is still kernel
//! k-means on that kernel), and the precomputed-kernel path for every other kernel;
//! `linear` / `kernel` force one. The k-means starts do not depend on C, so the jobs of a C
//! grid share them ([`Method::shared_key`](super::Method::shared_key); the fits are bit for
//! bit the same).

use super::{charge, seeded_fits, Input, KernelUse, Outcome, SharedValue, SharedWork};
use crate::params::ParamSet;
use mkc_core::{ParamGuard, Result};
use mkc_rmkc::itersvr::IterSvrPath;
use mkc_rmkc::IterSvrParams;

by_word!(IterSvrPath);

adapter! {
    /// iterSVR, single kernel.
    IterSvr, "itersvr", "iterSVR: alternating ε-SVR and balanced relabelling from kernel k-means, two clusters (Zhang, Tsang & Kwok 2007)",
    reflect IterSvrParams => [c = "C", epsilon, balance = "ell", max_iter, svm_tol, path = "kernel-type", max_epochs];
    kernels = KernelUse::Single;
    extra {
        /// The k-means start of every seed (`IterSvr::start`): the same for every C, so
        /// the key is the parameters with C set to 1 (the tables' grids vary C only).
        fn shared_key(&self, params: &ParamSet) -> Option<String> {
            let b = IterSvr::builder(params).ok()?;
            Some(format!("{:?}", b.c(1.0)))
        }
        fn shared_work(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
        ) -> Result<SharedValue> {
            use rayon::prelude::*;
            let m = IterSvr::builder(params)?.check()?;
            let set = input.kernel_set()?;
            let starts = seeds
                .par_iter()
                .map(|&s| m.start(&set, input.n_clusters, s))
                .collect::<Result<Vec<Vec<usize>>>>()?;
            Ok(std::sync::Arc::new(starts))
        }
        fn run_restarts_shared(
            &self,
            input: &Input<'_>,
            params: &ParamSet,
            seeds: &[u64],
            shared: &SharedWork,
        ) -> Vec<Result<Outcome>> {
            let starts = shared.value.downcast_ref::<Vec<Vec<usize>>>();
            let (Some(starts), Ok(m)) = (
                starts.filter(|s| s.len() == seeds.len()),
                IterSvr::builder(params).and_then(|b| b.check()),
            ) else {
                return self.run_restarts(input, params, seeds);
            };
            let mut runs = seeded_fits("itersvr", input, seeds, |set, i, seed| {
                m.fit_with_start(set, input.n_clusters, seed, &starts[i])
            });
            charge(&mut runs, shared.share, "kmeans");
            runs
        }
    }
}
