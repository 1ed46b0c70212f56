//! Kernel matrices for multiple kernel clustering: linear, polynomial (a + xᵀy)^b,
//! Gaussian exp(−‖x−y‖²/(2σ²)), SCMK's exp(−‖x−y‖²/(t d_max²)) and cosine kernels
//! from dense or sparse (CSR) features, the width conventions of the papers
//! ([`width`]), the normalisations they apply ([`normalize`]), and validity checks
//! ([`check`]).
//!
//! Samples are the ROWS of the feature matrix (n x d); kernels are n x n `Mat<f64>`.
//! Every kernel is computed from one triangular faer product X·Xᵀ (or a sparse
//! scatter/dot product for CSR input) followed by a parallel elementwise map over the
//! lower triangle, mirrored, so every result is exactly symmetric. [`build`] shares
//! that product and the distance statistics across a whole family of kernels.
//!
//! ```
//! use faer::Mat;
//! use mkc_kernels::{build, gram, KernelFn, KernelSpec, Normalization};
//!
//! // 5 samples in R^2.
//! let x = Mat::from_fn(5, 2, |i, j| ((i + 1) as f64 * (j + 2) as f64).sin());
//! let k = gram(x.as_ref(), &KernelFn::Gaussian { sigma: 1.0 }).unwrap();
//! assert_eq!(k[(2, 2)], 1.0);
//! assert_eq!(k[(0, 3)], k[(3, 0)]);
//!
//! // RMKC's 10 Gaussians (σ = 10%..100% of the distance range), multiplicatively normalised.
//! let ks = build(x.as_ref(), &KernelSpec::rmkc_gaussians(), &[Normalization::Multiplicative]).unwrap();
//! assert_eq!(ks.len(), 10);
//!
//! // SimpleMKKM's preprocessing: centre, then unit diagonal.
//! let ks = build(x.as_ref(), &[KernelSpec::Linear], &[Normalization::Center, Normalization::UnitDiagonal]).unwrap();
//! assert!((ks[0][(4, 4)] - 1.0).abs() < 1e-12);
//!
//! // Bad input is a typed error, not a NaN.
//! assert!(gram(x.as_ref(), &KernelFn::Gaussian { sigma: 0.0 }).is_err());
//! ```

#![forbid(unsafe_code)]

pub mod check;
mod function;
mod inner;
pub mod normalize;
mod spec;
pub mod width;

pub use function::{gram, gram_sparse, sq_dists, sq_dists_sparse, KernelFn};
pub use normalize::{apply, Normalization};
pub use spec::{build, build_sparse, KernelSpec};
pub use width::{
    d_max_sq, sigma_mean_ratio, sigma_median_ratio, sigma_range_fraction, DistStats, Width,
};
