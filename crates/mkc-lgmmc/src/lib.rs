//! LG-MMC (Li, Tsang, Kwok & Zhou, *Tighter and Convex Maximum Margin Clustering*,
//! AISTATS 2009): label-generating maximum margin clustering, two clusters.
//!
//! # The method
//! Maximum margin clustering (eq. 4) looks for the labelling ŷ in the balanced set
//! `B = {ŷ ∈ {±1}ⁿ : −β ≤ 1ᵀŷ ≤ β}` with the largest margin. LG-MMC swaps min and max
//! (eq. 5) and obtains the convex problem (eq. 7)
//!
//! ```text
//! min_{μ ∈ simplex} max_{α ∈ A} −½ αᵀ( Σ_t μ_t K∘ŷ_t ŷ_tᵀ + I/C )α,   A = {α ≥ 0, 1ᵀα = 1}
//! ```
//!
//! a multiple kernel learning problem over label kernels `K∘ŷ_t ŷ_tᵀ`. Algorithm 1
//! (`cutting_plane` module) is a cutting plane over label vectors: solve eq. (7) over
//! the working set (SimpleMKL-style, `mlkl` module: the simplex-constrained
//! squared-hinge dual of eq. 3 at fixed μ, then a reduced-gradient step on μ,
//! warm-started across steps and rounds), then add the most violated label vector found
//! by the sorting method of eqs. (13)–(15) ([`most_violated`], [`solve_lp`]). The
//! clustering comes from the top eigenvector v of `M = Σ_t μ_t ŷ_t ŷ_tᵀ`, computed from
//! the thin factor `Y diag(μ)^½` in O(nT²) (Section 3.6, [`top_eigenvector`]): by
//! default the signs of the SVM decision values `K(α∘v)` with v as soft labels, as the
//! authors' code does; the paper's text (signs of v itself) is [`LabelRule::Eigenvector`].
//!
//! # Through the method API
//! [`LgmmcParams`] (and its checked form [`Lgmmc`]) is the [`mkc_core::Clusterer`]
//! "lgmmc": `fit(&KernelSet, 2, seed)` returns a [`mkc_core::Clustering`] with labels
//! 0/1, the objective J of eq. (7) after every round (minimised, non-increasing), the
//! rounds, `converged` (false only at the round cap), timings by phase ("features",
//! "violated", "mkl", "labels") and [`LgmmcDiagnostics`]: the label vectors ŷ_t, their
//! weights μ and why Algorithm 1 stopped. μ weights label kernels, not input kernels:
//! `kernel_weights` is `None`. Two clusters only (`n_clusters = 2`).
//!
//! Which input it reads ([`LgmmcPath`], set by [`LgmmcParams::path`]):
//! - **Kernel path**: the set's kernel ([`mkc_core::KernelSet::one_kernel`]: with several
//!   kernels, their equal-weight mean), α-steps by `mkc_svm::SimplexSquaredHinge` (SMO).
//! - **Linear path**: the set's feature matrix
//!   ([`mkc_core::KernelSet::require_features`]) with the linear kernel `XXᵀ + b`, by
//!   dual coordinate descent in feature space that keeps one `w_t = Σ_i α_i ŷ_ti x_i`
//!   per label vector and never forms an n x n matrix (`linear_path` module docs: the
//!   simplex problem is the LIBLINEAR box problem rescaled).
//! - **Auto** (default): the linear path when the set has features and no kernel, or
//!   features and one kernel named `…linear`; the kernel path otherwise.
//!
//! # Choices the paper leaves open
//! - Defaults from the authors' released package v0.1 and its copy in felixyu/pSVM:
//!   C = 1, bias 1 (the kernel is `K + 1`), at most 20 cutting-plane
//!   rounds, β = 0.03 n, stop at a relative objective change below 0.01, at most 3
//!   reduced-gradient steps on μ per round. The package solves eq. (3) as a one-class SVM
//!   with ν = 1/n, the same problem.
//! - Stopping: Algorithm 1 stops when J of eq. (7) decreases by less than `tol = 0.01`
//!   relative in a round, when the new label vector is already in the working set or
//!   violates no constraint of eq. (6), or after `max_iter` rounds ([`StopReason`]).
//! - The working set keeps one of ±ŷ (same label kernel).
//! - The μ-step (Section 3.4 names SimpleMKL but not its line search): Armijo
//!   steps (`mlkl` module), at most `mkl_max_iter = 3` steps per round, stop at relative
//!   KKT residual `mkl_tol = 0.01`.
//! - α-solver tolerances are relative to the margin ρ (`solver_tol = 0.01`).
//! - Linear path: the feature columns are centred first (`center`, ours); eq. (13)
//!   searches the feature columns without the bias column (as the package).
//! - Nonlinear kernels: features for eq. (13) are `U_r Λ_r^½` of the centred kernel with
//!   r carrying all but `energy_tol = 1e-3` of the trace, at most `max_rank = 300`
//!   ([`kernel_features`]); the package's symmetric square root of `K + b` is
//!   [`FeatureMap::Sqrt`] ([`kernel_sqrt_features`]).
//! - Options beyond the paper, off by default: [`LgmmcParams::refine_steps`] refines the
//!   most violated label vector of eq. (13) by ascent steps on the ℓ2 objective of
//!   eq. (11) (`ascent` module); [`LgmmcParams::initial_labels`] replaces Step 1's start.
//! - Seed: the linear path's coordinate order; the eigensolver of eq. (13)'s features
//!   (n > 600). Results do not depend on the number of threads.
//! - Ties: eq. (15) breaks ties by the winning feature's values, then the lower index
//!   ([`solve_lp_tiebreak`]); eq. (13) by the lowest feature, then the + sign; decision
//!   values (or eigenvector entries) equal to 0 go to cluster 0.
//!
//! # Example
//! ```
//! use faer::Mat;
//! use mkc_lgmmc::prelude::*;
//! use mkc_lgmmc::Balance;
//!
//! // Two groups of 20 points in the plane, along the first axis.
//! let x = Mat::from_fn(40, 2, |i, j| {
//!     let side = if i < 20 { -1.0 } else { 1.0 };
//!     let wiggle = ((i * 7919 + j * 104729) % 97) as f64 / 97.0 - 0.5;
//!     if j == 0 { side * 2.0 + 0.5 * wiggle } else { wiggle }
//! });
//! let lg = LgmmcParams::new().c(1.0).balance(Balance::Fraction(0.1));
//!
//! // Features only: the linear path (K = XXᵀ + 1 in feature space).
//! let data = KernelSet::from_features(x.as_ref())?;
//! let fit = lg.fit(&data, 2, 0)?;
//! // The two groups are found (up to the name of the clusters).
//! assert!(fit.labels[..20].iter().all(|&l| l == fit.labels[0]));
//! assert!(fit.labels[20..].iter().all(|&l| l != fit.labels[0]));
//! // μ is on the simplex and the objective of eq. (7) never increases.
//! let d = &fit.diagnostics;
//! assert!(d.linear_path && fit.kernel_weights.is_none());
//! assert!((d.mu.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! assert!(fit.objective.windows(2).all(|w| w[1] <= w[0] + 1e-12));
//!
//! // A Gaussian kernel on the same points: the kernel path.
//! let k = Mat::from_fn(40, 40, |i, j| {
//!     let d2 = (x[(i, 0)] - x[(j, 0)]).powi(2) + (x[(i, 1)] - x[(j, 1)]).powi(2);
//!     (-d2 / 4.0).exp()
//! });
//! let kernels = vec![k];
//! let fit = lg.fit(&KernelSet::new(&kernels)?, 2, 0)?;
//! assert!(fit.labels[..20].iter().all(|&l| l == fit.labels[0]));
//! assert!(fit.labels[20..].iter().all(|&l| l != fit.labels[0]));
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod ascent;
mod cutting_plane;
mod features;
mod fit;
mod kernel_path;
mod labels;
mod linear_path;
mod mlkl;
mod params;
mod path;
mod solver;
#[cfg(test)]
mod tests;
mod violated;

pub use cutting_plane::StopReason;
pub use features::{kernel_features, kernel_sqrt_features, FeatureRank};
pub use fit::LgmmcDiagnostics;
pub use labels::{labels_from_mu, top_eigenvector};
pub use params::{Balance, FeatureMap, LabelRule, Lgmmc, LgmmcParams, LgmmcPath};
pub use path::InputPath;
pub use violated::{most_violated, plus_range, solve_lp, solve_lp_tiebreak, Violated};

/// The method API and this crate's parameters: `use mkc_lgmmc::prelude::*;`.
pub mod prelude {
    pub use crate::LgmmcParams;
    pub use mkc_core::prelude::*;
}
