//! Dense linear-algebra helpers on faer for the mkc workspace: weighted kernel sums,
//! Frobenius products, trace quadratics, centring, row scaling, graph Laplacians, symmetric
//! top-k / bottom-k eigenpairs and a sequential Cholesky factorisation.
//!
//! ```
//! use faer::Mat;
//! use mkc_linalg::{eigen, weighted_sum, trace_quadratic};
//!
//! // two kernels and their combination K = 0.3 K1 + 0.7 K2
//! let k1 = Mat::from_fn(50, 50, |i, j| (-((i as f64 - j as f64) / 5.0).powi(2)).exp());
//! let k2 = Mat::from_fn(50, 50, |i, j| 1.0 / (1.0 + (i as f64 - j as f64).abs()));
//! let k = weighted_sum(&[0.3, 0.7], &[k1.as_ref(), k2.as_ref()]).unwrap();
//!
//! // the 3 leading eigenvectors H maximise tr(HᵀKH) over orthonormal H (kernel k-means
//! // relaxation); the maximum is the sum of the 3 largest eigenvalues
//! let top = eigen::top_k(k.as_ref(), 3, &eigen::EigenOptions::default()).unwrap();
//! let t = trace_quadratic(k.as_ref(), top.vectors.as_ref()).unwrap();
//! assert!((t - top.values.iter().sum::<f64>()).abs() < 1e-8);
//! assert!(top.values[0] >= top.values[1] && top.values[1] >= top.values[2]);
//! ```
//!
//! Every public function validates its input and returns a typed [`mkc_core::Error`].

#![forbid(unsafe_code)]

mod center;
mod check;
mod cholesky;
mod combine;
pub mod eigen;
mod frobenius;
mod laplacian;
pub mod problems;
mod rows;
mod util;

pub use center::{center_in_place, symmetrize};
pub use check::check_kernel;
pub use cholesky::cholesky_lower;
pub use combine::{nonzero_terms, weighted_column_into, weighted_sum, weighted_sum_into};
pub use eigen::{EigenInfo, EigenOptions, EigenPairs, SymOperator, WeightedKernelSum};
pub use frobenius::{frobenius_inner, trace_quadratic, trace_quadratic_many};
pub use laplacian::{laplacian, normalized_laplacian};
pub use rows::unit_rows;
