//! RMKKM (Du et al., IJCAI 2015, `mkc-robust`): robust multiple kernel k-means, the
//! ℓ2,1 loss on `Σ_t w_t K_t` with `Σ_t w_t^γ = 1`. Defaults are the authors' experiments
//! (50 passes, 10 fresh starts of at most 30 reweighting passes per pass, one start);
//! γ on their grid {0.1, …, 0.9} (paper: 0.3; their published column: 0.4 on 8 of 9 sets).

use mkc_robust::RmkkmParams;

adapter! {
    /// RMKKM, Algorithm 1 as the authors' code runs it.
    Rmkkm, "rmkkm", "RMKKM: robust multiple kernel k-means (l2,1 loss, weights with Σ w^γ = 1)",
    reflect RmkkmParams => [gamma, max_iter, tol, warm_start, inner_restarts, inner_max_iter, n_init]
}
