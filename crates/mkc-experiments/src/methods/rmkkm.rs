//! RMKKM (Du et al., IJCAI 2015, `mkc-robust`): robust multiple kernel k-means, the
//! ℓ2,1 loss on `Σ_t w_t K_t` with `Σ_t w_t^γ = 1`. Defaults are the authors' experiments
//! (50 passes, 10 fresh starts of at most 30 reweighting passes per pass, one start);
//! γ on their grid {0.1, …, 0.9} (paper: 0.3; their published column: 0.4 on 8 of 9 sets).

use crate::params::{ParamKind, ParamSpec};
use mkc_robust::RmkkmParams;

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("gamma", ParamKind::Float, "0.3", "weight exponent γ in (0, 1), Σ w^γ = 1 (eq. 7); authors' grid 0.1..0.9"),
    ParamSpec::new("max_iter", ParamKind::Int, "50", "passes (partition step + weight step; authors: 50)"),
    ParamSpec::new("tol", ParamKind::Float, "0", "stop when |ΔJ| ≤ tol·|J| between passes; 0 = run every pass (authors)"),
    ParamSpec::new("warm_start", ParamKind::Bool, "false", "continue each partition step from the previous centres (the paper's monotone Algorithm 1) instead of fresh starts (authors' code)"),
    ParamSpec::new("inner_restarts", ParamKind::Int, "10", "fresh starts of the partition step per pass, lowest loss kept (authors: 10)"),
    ParamSpec::new("inner_max_iter", ParamKind::Int, "30", "cap on the reweighting passes of each partition step (authors: 30)"),
    ParamSpec::new("n_init", ParamKind::Int, "1", "starts of the whole algorithm; the lowest final objective wins (authors: 1)"),
];

adapter! {
    /// RMKKM, Algorithm 1 as the authors' code runs it.
    Rmkkm, "rmkkm", "RMKKM: robust multiple kernel k-means (l2,1 loss, weights with Σ w^γ = 1)", PARAMS,
    RmkkmParams::new() => [gamma, max_iter, tol, warm_start, inner_restarts, inner_max_iter, n_init]
}
