//! SCMK and SCSK (Kang, Peng, Cheng & Xu, AAAI 2017, `mkc-scmk`): twin learning of
//! similarity and clustering, with multiple kernels (Algorithm 2) or one kernel at a time
//! (Algorithm 1). α and β have no paper defaults (the paper searches α ∈ {1e-5, …, 100},
//! β ∈ {1e-6, 1e-5}; the defaults 1 and 1e-5 are points of that grid); the stopping rule
//! and the 100 k-means replicates are the authors'. The alternating loop is
//! deterministic, so restarts share it and differ only in the seed of the final k-means
//! on P (`fit_restarts` of `mkc-scmk`).
//!
//! The APG step sizes (λ_max(ΠKΠ) of every kernel read, one block Lanczos solve each)
//! depend on the kernels but not on α, β or the stopping rule, so the jobs of an (α, β)
//! grid share them ([`Method::shared_key`](crate::methods::Method::shared_key): per
//! kernel for SCSK, per dataset for SCMK; `mkc_scmk::StepSizes`, charged to the runs'
//! `init` phase): the runs are the same bit for bit.

use super::KernelUse;
use mkc_scmk::{ScmkParams, ScskParams, StepSizes, ZSolver};

by_word!(ZSolver);

adapter! {
    /// SCMK, Algorithm 2 (all kernels).
    Scmk, "scmk", "SCMK: joint similarity, clustering and kernel weights (Kang et al. AAAI 2017, Algorithm 2)",
    reflect ScmkParams => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init];
    extra {
        // The key: the parameters with α and β fixed (the step sizes depend on neither).
        shared_per_job! {
            Scmk, "init", StepSizes,
            key |b| Some(b.alpha(1.0).beta(1e-5)),
            work |b, set, _k| b.check()?.step_sizes(set),
            runs |b, set, k, seeds, steps| {
                let runs = b.check()?.fit_restarts_with(set, k, seeds, steps);
                Ok(runs.into_iter().map(|r| r.map(|c| c.erase())).collect())
            },
        }
    }
}

adapter! {
    /// SCSK, Algorithm 1 (each kernel separately).
    Scsk, "scsk", "SCSK: joint similarity and clustering on each kernel (Kang et al. AAAI 2017, Algorithm 1)",
    reflect ScskParams => [alpha, beta, min_iter, max_iter, tol, qp_tol, z_solver, n_init]; kernels = KernelUse::Single;
    extra {
        shared_per_job! {
            Scsk, "init", StepSizes,
            key |b| Some(b.alpha(1.0).beta(1e-5)),
            work |b, set, _k| b.check()?.step_sizes(set),
            runs |b, set, k, seeds, steps| {
                let runs = b.check()?.fit_restarts_with(set, k, seeds, steps);
                Ok(runs.into_iter().map(|r| r.map(|c| c.erase())).collect())
            },
        }
    }
}
