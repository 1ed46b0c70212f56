//! Average-kernel k-means (SimpleMKKM's Avg-KKM baseline): kernel k-means on the uniform
//! combination (1/m) Σ_p K_p. The combination is formed once and shared by all restarts.

use mkc_kmeans::KernelKMeansParams;

adapter! {
    /// Kernel k-means on the uniformly weighted kernel sum (kernel k-means given all
    /// kernels works on their equal-weight mean, the method API's rule for single-kernel
    /// methods, formed once for all restarts).
    AvgKkm, "avg-kkm", "kernel k-means on the uniform combination of all kernels (Avg-KKM)",
    reflect KernelKMeansParams => [n_init, max_iter]
}
