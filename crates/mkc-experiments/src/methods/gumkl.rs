//! GUMKL (Tzortzis & Likas, `mkc-gumkl`): greedy unsupervised MKL. Deterministic (greedy
//! medoids, no restarts), so the seed is ignored and restarts are copies of one fit. `p = 1`
//! is the paper's best-single-view baseline, `p = inf` its uniform-sum baseline.

use mkc_gumkl::GumklParams;

adapter! {
    /// GUMKL, Algorithm 1 (+ the kernel k-means refinement the paper reports).
    Gumkl, "gumkl", "GUMKL: greedy unsupervised multiple kernel learning (k-medoids + closed-form weights)",
    reflect GumklParams => [p, refine, tol, max_iter]
}
