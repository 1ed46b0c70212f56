//! Multiple kernel spectral clustering: AASC (H.-C. Huang, Y.-Y. Chuang and C.-S. Chen,
//! "Affinity Aggregation for Spectral Clustering", CVPR 2012) and MVSpec (G. Tzortzis and
//! A. Likas, "Kernel-based Weighted Multi-view Clustering", ICDM 2012).
//!
//! Both learn one weight per kernel and cluster a spectral embedding of the weighted
//! combination; they sit beside the single-kernel spectral clustering of `mkc-kmeans`
//! ([`mkc_kmeans::Spectral`]) and end as it does, with k-means on the row-normalised
//! embedding ([`mkc_kmeans::normalize_rows_and_cluster`]).
//!
//! - [`AascParams`] → [`Aasc`] (`"aasc"`, module [`aasc`]): affinities aggregated as
//!   `Σ_k v_k² W_k`, alternating the bottom eigenvectors of the unnormalised Laplacian with a
//!   closed-form weight step whose scalar equation is solved by a bracketed root finder
//!   ([`Brent`], [`aasc_weights`]).
//! - [`MvspecParams`] → [`Mvspec`] (`"mvspec"`, module [`mvspec`]): views combined as
//!   `Σ_v w_v^p K_v`, alternating the top eigenvectors of the composite kernel with MVKKM's
//!   closed-form weights (shared with `mkc-gumkl`: [`mkc_gumkl::optimal_weights`]).
//!
//! Both implement the workspace's method API, [`mkc_core::Clusterer`]: multiple kernel
//! methods (every kernel of the [`mkc_core::KernelSet`] is an affinity or a view; features
//! are not used), kernel weights on the simplex, typed diagnostics
//! ([`AascDiagnostics`], [`MvspecDiagnostics`]). The embedding is deterministic; the seed
//! drives only the final k-means, so restarts compute the embedding once.
//!
//! ```
//! use faer::Mat;
//! use mkc_spectral::prelude::*;
//!
//! // Two groups of 10 points; kernel 0 separates them, kernel 1 is noise.
//! let x: Vec<f64> = (0..20).map(|i| if i < 10 { 0.0 } else { 4.0 } + 0.05 * i as f64).collect();
//! let z: Vec<f64> = (0..20).map(|i| ((i * 7919) % 13) as f64 / 13.0).collect();
//! let gauss = |v: &[f64]| Mat::from_fn(20, 20, |i, j| (-(v[i] - v[j]).powi(2)).exp());
//! let kernels = vec![gauss(&x), gauss(&z)];
//! let data = KernelSet::new(&kernels)?;
//!
//! // Both through the object-safe form of the method API, as the registries hold them.
//! let methods: [Box<dyn DynClusterer>; 2] =
//!     [Box::new(AascParams::new()), Box::new(MvspecParams::new().p(2.0))];
//! for method in &methods {
//!     let fit = method.fit_dyn(&data, 2, 0)?;
//!     assert!(fit.labels[..10].iter().all(|&c| c == fit.labels[0]));
//!     assert!(fit.labels[10..].iter().all(|&c| c != fit.labels[0]));
//!     assert!(fit.kernel_weights.as_ref().unwrap().violation() < 1e-12); // on the simplex
//! }
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

pub mod aasc;
pub mod aasc_weights;
mod embedding;
pub mod mvspec;
pub mod params;
pub mod root;

pub use aasc::{Aasc, AascDiagnostics};
pub use aasc_weights::{LambdaRule, WeightProblem, WeightStep};
pub use embedding::FinalKMeans;
pub use mvspec::{Mvspec, MvspecDiagnostics};
pub use params::{AascParams, MvspecParams};
pub use root::Brent;

/// The method API and this crate's methods: `use mkc_spectral::prelude::*;`.
pub mod prelude {
    pub use crate::{AascParams, LambdaRule, MvspecParams};
    pub use mkc_core::prelude::*;
}
