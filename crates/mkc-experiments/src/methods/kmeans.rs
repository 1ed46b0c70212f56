//! k-means on the (scaled) feature matrix, k-means++ seeding (`mkc-kmeans`): the KM
//! baseline of the MMC papers (LG-MMC: "run 10 times and evaluate the average
//! performance" = `restarts = 10` with `n_init = 1`, the default here, where the
//! library's is scikit-learn's 10). Ignores the kernels.

use mkc_kmeans::KMeansParams;

adapter! {
    /// k-means adapter.
    KMeans, "kmeans", "k-means on the feature matrix (k-means++ seeding); needs dense features",
    reflect KMeansParams => [n_init: "1", max_iter]
}
