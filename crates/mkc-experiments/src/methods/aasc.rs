//! AASC (Huang, Chuang & Chen, CVPR 2012, `mkc-spectral`): affinity aggregation for spectral
//! clustering, every kernel an affinity. The embedding is deterministic; each run is k-means
//! on it from its own seed (restarts share the embedding), the protocol of the authors'
//! evaluation script (mean over 20 such runs).

use mkc_spectral::{AascParams, LambdaRule};

by_word!(LambdaRule);

adapter! {
    /// AASC.
    Aasc, "aasc", "AASC: affinity aggregation spectral clustering, Σ v_k² W_k with closed-form weights (Huang et al.)",
    reflect AascParams => [lambda, lambda_start, max_iter, tol, n_init, kmeans_max_iter, normalize_rows]
}
