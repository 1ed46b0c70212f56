//! CPMMC (Zhao, Wang & Zhang, *Efficient Maximum Margin Clustering via Cutting Plane
//! Algorithm*, SIAM SDM 2008): maximum margin clustering by cutting planes and the
//! constrained concave–convex procedure, two clusters.
//!
//! # The method
//! Maximum margin clustering with a linear (or kernel) hyperplane `f(x) = wᵀφ(x) + b` is
//! written with one slack shared by all constraints (the paper's eq. 9):
//!
//! ```text
//! min_{w, b, ξ ≥ 0}  ½‖w‖² + Cξ
//! s.t.  ∀c ∈ {0, 1}ⁿ:  (1/n) Σᵢ cᵢ |wᵀφ(xᵢ) + b| ≥ (1/n) Σᵢ cᵢ − ξ
//!       −ℓ ≤ Σᵢ (wᵀφ(xᵢ) + b) ≤ ℓ                        (class balance)
//! ```
//!
//! equivalent to `min ½‖w‖² + (C/n) Σᵢ ξᵢ s.t. |f(xᵢ)| ≥ 1 − ξᵢ`. Algorithm 1 keeps a
//! working set Ω of the exponentially many constraints, solves the problem over Ω by
//! CCCP (each step a convex QP over |Ω| + 3 dual variables, `dual` module), adds the most
//! violated constraint `cᵢ = 1 ⇔ |f(xᵢ)| < 1` (eq. 14) and stops when it is violated by
//! at most ξ + ε (`cutting_plane` module). Labels: `sign(f(xᵢ))`.
//!
//! # Through the method API
//! [`CpmmcParams`] (checked form [`Cpmmc`]) is the [`mkc_core::Clusterer`] "cpmmc":
//! `fit(&KernelSet, 2, seed)` returns labels 0/1, the working-set objective after every
//! round, the rounds, `converged` (false only at the round cap), timings by phase and
//! [`CpmmcDiagnostics`] (decision values, cuts, slack, the CCCP objective trace).
//! Which input it reads ([`CpmmcPath`]): the linear kernel of the set's features in
//! feature space (no n × n matrix: MNIST pairs run this way), or a precomputed kernel
//! (the Gaussian kernels of LG-MMC's protocol) through the centred kernel `HKH`.
//!
//! # Choices the paper leaves open
//! - Kernels: CPMMC is a primal linear method. For a precomputed kernel we run the same
//!   algorithm in the kernel's feature space exactly: every w is `Φ̃ᵀβ` (`gram` module),
//!   so only products with the centred kernel are needed (no eigen-features).
//! - The bias: written on centred data the balance constraint is a box on the centred
//!   bias, and the bias of each CCCP step is recovered by minimising the slack over that
//!   box (`dual` module) instead of from "the active cuts" (which fails when none is
//!   active).
//! - The QP solver: a dense primal–dual interior-point method (`qp` module) for the
//!   small dual (the authors call MATLAB's `quadprog`).
//! - Start: `b₀ = 0` and a seeded random `w₀` (the Octave copy of the authors' code;
//!   their own file uses `w₀ = 0.003·1`, which has no kernel counterpart), scaled so
//!   every point is inside the margin; [`CpmmcInit::Pca`] starts from the top principal
//!   direction instead.
//! - Stopping: the paper's `v ≤ ξ + ε` with ε = 0.01 (the authors' files test
//!   `v ≤ ξ(1 + ε)` with ε = 10 or 0.1); CCCP stops at a relative decrease of 0.01 (their
//!   `per_quit`) or after 20 steps; at most 200 rounds; a repeated constraint ends the
//!   loop ([`CpmmcStop`]).
//! - Ties: a decision value of exactly 0 takes the sign +1 in CCCP and cluster 0 in the
//!   labels.
//!
//! # Example
//! ```
//! use faer::Mat;
//! use mkc_mmc::prelude::*;
//!
//! // Two groups of 20 points in the plane, along the first axis.
//! let x = Mat::from_fn(40, 2, |i, j| {
//!     let side = if i < 20 { -2.0 } else { 2.0 };
//!     (if j == 0 { side } else { 0.0 }) + 0.1 * ((i * 7 + j * 3) % 5) as f64
//! });
//! let data = KernelSet::from_features(x.as_ref())?;
//! let fit = CpmmcParams::new().c(10.0).fit(&data, 2, 0)?;
//! assert!(fit.converged && fit.labels[..20].iter().all(|&l| l == fit.labels[0]));
//! assert!(fit.labels[20..].iter().all(|&l| l != fit.labels[0]));
//! # Ok::<(), mkc_core::Error>(())
//! ```

mod cuts;
mod cutting_plane;
mod dual;
mod fit;
mod gram;
mod params;
mod qp;
#[cfg(test)]
mod qp_tests;
#[cfg(test)]
mod tests;

pub use cutting_plane::CpmmcStop;
pub use fit::CpmmcDiagnostics;
pub use params::{Cpmmc, CpmmcInit, CpmmcParams, CpmmcPath};
