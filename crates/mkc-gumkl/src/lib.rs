//! GUMKL — greedy unsupervised multiple kernel learning (Tzortzis & Likas), and MVKKM, the
//! same authors' multi-view kernel k-means (ICDM 2012), which shares its machinery.
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
//! The paper's baselines are [`GumklParams::best_single_view`] (p = 1) and
//! [`GumklParams::uniform`] (p → ∞: one iteration with uniform weights, no weight update).
//! [`MvkkmParams`] runs MVKKM: kernel k-means instead of k-medoids, started from global kernel
//! k-means, with the same weight rule on the kernel k-means objectives `D_v`.
//!
//! Every choice the paper leaves open is documented where it is made: [`params`] (ε, refinement,
//! p = ∞), [`weights`] (numerics of eqs. 7–8, ties), [`composite`] (scaling of `K̃`),
//! [`gumkl`] (what line 9 compares, which weights are returned), [`mvkkm`] and [`global`].
//!
//! GUMKL is deterministic: no seed, no restarts.
//!
//! ```
//! use faer::Mat;
//! use mkc_core::ParamGuard;
//! use mkc_gumkl::GumklParams;
//!
//! // Two groups of 10 points. View 0 separates them; view 1 is noise.
//! let x0: Vec<f64> = (0..20).map(|i| if i < 10 { 0.0 } else { 5.0 } + 0.01 * i as f64).collect();
//! let x1: Vec<f64> = (0..20).map(|i| ((i * 7919) % 13) as f64 / 13.0).collect();
//! let k0 = Mat::from_fn(20, 20, |i, j| x0[i] * x0[j]);
//! let k1 = Mat::from_fn(20, 20, |i, j| x1[i] * x1[j]);
//!
//! let fit = GumklParams::new(2).p(2.0).check()?.fit(&[k0.as_ref(), k1.as_ref()])?;
//! assert!(fit.labels[..10].iter().all(|&c| c == fit.labels[0]));
//! assert!(fit.labels[10..].iter().all(|&c| c != fit.labels[0]));
//! // Eq. (7): the informative view (smaller within-cluster variance) gets the larger weight.
//! assert!(fit.weights[0] > fit.weights[1]);
//! assert!((fit.weights.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! # Ok::<(), mkc_core::Error>(())
//! ```

pub mod composite;
pub mod global;
pub mod gumkl;
mod inner;
pub mod mvkkm;
pub mod params;
pub mod weights;

pub use composite::Composite;
pub use global::global_kernel_kmeans;
pub use gumkl::{GumklFit, Refinement};
pub use mvkkm::MvkkmFit;
pub use params::{GumklChecked, GumklParams, MvkkmChecked, MvkkmInit, MvkkmParams};
pub use weights::optimal_weights;
