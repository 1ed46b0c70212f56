//! GUMKL — greedy unsupervised multiple kernel learning (Tzortzis & Likas, "Greedy
//! unsupervised multiple kernel learning", SETN 2012), and MVKKM, the same authors' multi-view
//! kernel k-means ("Kernel-based weighted multi-view clustering", ICDM 2012), which shares its
//! machinery.
//!
//! Given V kernels `K_v` on the same n samples, GUMKL learns weights `w` on the simplex and a
//! partition into M clusters that minimise the intra-cluster variance in the space of the
//! composite kernel `K̃ = Σ_v w_v^p K_v` (eq. 4, 5). Algorithm 1 alternates
//! * the **cluster update**: greedy medoid initialisation (eq. 3) on `K̃`, then kernel k-medoids
//!   (eq. 2), both from [`mkc_kmeans`];
//! * the **weight update** in closed form: eq. (7) for p > 1, eq. (8) for p = 1
//!   ([`weights::optimal_weights`]), which minimises eq. (6) `Σ_v w_v^p E_v` for fixed clusters;
//!
//! until the objective changes by less than ε (relative, 1e-4), then refines the partition with
//! kernel k-means on the final composite kernel, the setting the paper reports.
//!
//! Both methods implement the workspace's method API, [`mkc_core::Clusterer`]:
//! [`GumklParams`] → [`Gumkl`] (`"gumkl"`) and [`MvkkmParams`] → [`Mvkkm`] (`"mvkkm"`). They
//! are multiple kernel methods (every kernel of the [`mkc_core::KernelSet`] is a view; features
//! are not used), return kernel weights on the simplex
//! ([`mkc_core::WeightConstraint::Simplex`]) and typed diagnostics ([`GumklDiagnostics`],
//! [`MvkkmDiagnostics`]), and are deterministic: the seed is ignored and restarts fit once.
//!
//! The paper's baselines are [`GumklParams::best_single_view`] (p = 1) and
//! [`GumklParams::uniform`] (p → ∞: one iteration with uniform weights, no weight update).
//! [`MvkkmParams`] runs MVKKM: kernel k-means instead of k-medoids, started from global kernel
//! k-means ([`mkc_kmeans::GlobalKernelKMeans`]), with the same weight rule on the kernel
//! k-means objectives `D_v`.
//!
//! Every choice the paper leaves open is documented where it is made: [`params`] (ε, refinement,
//! p = ∞), [`weights`] (numerics of eqs. 7–8, ties), [`composite`] (scaling of `K̃`),
//! [`gumkl`] (what line 9 compares, which weights are returned), [`mvkkm`] and
//! [`alternation`] (the loop MVKKM shares with MVSpec in `mkc-spectral`).
//!
//! ```
//! use mkc_gumkl::prelude::*;
//! use faer::Mat;
//!
//! // Two groups of 10 points. View 0 separates them; view 1 is noise.
//! let x0: Vec<f64> = (0..20).map(|i| if i < 10 { 0.0 } else { 5.0 } + 0.01 * i as f64).collect();
//! let x1: Vec<f64> = (0..20).map(|i| ((i * 7919) % 13) as f64 / 13.0).collect();
//! let kernels = vec![
//!     Mat::from_fn(20, 20, |i, j| x0[i] * x0[j]),
//!     Mat::from_fn(20, 20, |i, j| x1[i] * x1[j]),
//! ];
//! let data = KernelSet::new(&kernels)?;
//!
//! let fit = GumklParams::new().p(2.0).fit(&data, 2, 0)?;
//! assert!(fit.labels[..10].iter().all(|&c| c == fit.labels[0]));
//! assert!(fit.labels[10..].iter().all(|&c| c != fit.labels[0]));
//! // Eq. (7): the informative view (smaller within-cluster variance) gets the larger weight.
//! let w = fit.weights().unwrap();
//! assert!(w[0] > w[1]);
//! assert!(fit.kernel_weights.as_ref().unwrap().violation() < 1e-12); // on the simplex
//!
//! // MVKKM, the same call.
//! let mv = MvkkmParams::new().p(2.0).fit(&data, 2, 0)?;
//! assert_eq!(mv.labels[0] == mv.labels[19], fit.labels[0] == fit.labels[19]);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

/// `impl Clusterer` for a deterministic method of this crate (GUMKL, MVKKM: the seed is
/// ignored): the name, the diagnostics and `fit` as given; `fit_restarts` fits once and
/// copies the result for every seed ([`mkc_core::seed_free_restarts`]); and the contract
/// of the unchecked builder ([`mkc_core::clusterer_via_check!`]).
macro_rules! deterministic_clusterer {
    (
        $ty:ty, $params:ty => $name:literal, $diag:ty;
        $(#[$fm:meta])*
        fn fit(&$s:ident, $data:ident, $k:ident, $seed:ident) $body:block
    ) => {
        mkc_core::clusterer! {
            $ty, $name, $diag;
            $(#[$fm])*
            fn fit(&$s, $data, $k, $seed) $body
            /// Deterministic: one fit, copied for every seed
            /// ([`mkc_core::seed_free_restarts`]).
            fn fit_restarts(&self, data, n_clusters, seeds) {
                mkc_core::seed_free_restarts(self, data, n_clusters, seeds)
            }
        }

        mkc_core::clusterer_via_check!($params, $name);
    };
}

pub mod alternation;
pub mod composite;
pub mod gumkl;
mod inner;
pub mod mvkkm;
pub mod params;
pub mod weights;

pub use composite::Composite;
pub use gumkl::{Gumkl, GumklDiagnostics, Refinement};
pub use mvkkm::{Mvkkm, MvkkmDiagnostics};
pub use params::{GumklParams, MvkkmInit, MvkkmParams};
pub use weights::optimal_weights;

/// The method API and this crate's methods: `use mkc_gumkl::prelude::*;`.
pub mod prelude {
    pub use crate::{GumklParams, MvkkmInit, MvkkmParams};
    pub use mkc_core::prelude::*;
}
