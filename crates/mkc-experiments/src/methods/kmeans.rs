//! k-means on the (scaled) feature matrix, k-means++ seeding (`mkc-kmeans`): the KM
//! baseline of the MMC papers (LG-MMC: "run 10 times and evaluate the average
//! performance" = `restarts = 10` with `n_init = 1`). Ignores the kernels.

use crate::params::{ParamKind, ParamSpec};

#[rustfmt::skip]
const PARAMS: &[ParamSpec] = &[
    ParamSpec::new("n_init", ParamKind::Int, "1", "k-means++ initialisations per run; the run keeps the lowest inertia"),
    ParamSpec::new("max_iter", ParamKind::Int, "300", "Lloyd iterations per initialisation"),
];

adapter! {
    /// k-means adapter.
    KMeans, "kmeans", "k-means on the feature matrix (k-means++ seeding); needs dense features", PARAMS,
    mkc_kmeans::KMeansParams::new() => [n_init, max_iter]
}
