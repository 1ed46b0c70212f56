//! MVSpec (Tzortzis & Likas, ICDM 2012, `mkc-spectral`): multi-view spectral clustering, the
//! top eigenvectors of Σ w_v^p K_v alternated with MVKKM's closed-form weights, from uniform
//! weights. The alternation is deterministic; each run is the final k-means from its own seed
//! (restarts share the alternation).

use mkc_spectral::MvspecParams;

adapter! {
    /// MVSpec.
    Mvspec, "mvspec", "MVSpec: multi-view spectral clustering with closed-form view weights (Tzortzis & Likas)",
    reflect MvspecParams => [p, tol, max_iter, weight_floor, n_init, kmeans_max_iter]
}
