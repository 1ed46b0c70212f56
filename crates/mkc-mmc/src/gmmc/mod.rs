//! GMMC, generalized maximum margin clustering (Valizadegan & Jin, *Generalized Maximum
//! Margin Clustering and Unsupervised Kernel Learning*, NIPS 19, 2006, pp. 1417–1424):
//! the convex SDP relaxation of two-cluster maximum margin clustering with a bias term
//! and O(n) dual variables, labels from the leading eigenvector of the relaxed label
//! matrix.
//!
//! # What is known of the paper, and what is ours
//! Only the paper's abstract and LG-MMC's description of it (Li, Tsang, Kwok & Zhou,
//! AISTATS 2009, Sections 1, 2, 3.1, 3.6) could be checked here. They fix: an SDP; the
//! number of variables cut from O(n²) (MMC's label matrix M = yyᵀ) to O(n); a bias term,
//! so no pre-centring and unbalanced data allowed; a soft margin with C; a class
//! balance; labels from an eigendecomposition of the learned label matrix; cost
//! O(n^4.5) with an interior-point solver. The exact equations are **not verified**; the
//! formulation below is a reconstruction with every choice stated:
//!
//! - **(P0), the integer problem.** With explicit features Φ of the kernel (the linear
//!   kernel: the data; otherwise `U_r Λ_r^½`) and outputs `f_i = φ_iᵀw + b`, two-cluster
//!   MMC with labels `y_i = sign f_i` is the QCQP
//!   `min ½‖w‖² + C Σ_i ξ_i` s.t. `f_i² ≥ (1 − ξ_i)²`, `0 ≤ ξ_i ≤ 1`, `(Σ_i f_i)² ≤ ℓ²`.
//!   For every labelling y it is at most `P(y) = min ½‖w‖² + CΣξ_i` s.t.
//!   `y_i f_i ≥ 1 − ξ_i`, `ξ ≥ 0`, `|Σ_i f_i| ≤ ℓ` (the soft-margin SVM with bias at y,
//!   with the balance on the outputs as IterSVR and CPMMC put it): (P0) = `min_y P(y)`.
//!   Hinge loss (the paper's dual has the box `0 ≤ α ≤ C`); the balance on the outputs,
//!   squared, so that it enters the relaxation (a linear balance constraint would leave
//!   the bias free and the relaxation trivial).
//! - **Centring (ours, exact).** Φ's columns are centred: with the free bias this only
//!   moves b, and it makes `Σ_i f_i = n b`, so the balance is `|b| ≤ β = ℓ/n`.
//! - **(P1), the relaxation** (Shor's, `Z ≈ z zᵀ`, `z = (w, b)`, `A = [Φ 1]`):
//!   `min_{Z ⪰ 0} ½ tr(JZ) + C Σ_i (1 − min(1, √(a_iᵀZa_i)))`, `Z_bb ≤ β²`.
//! - **(D1), its dual, the O(n)-variable SDP** (one multiplier γ_i per sample, one ν for
//!   the balance): `max Σ_i h_C(γ_i) − νβ²` s.t. `½J + ν e_b e_bᵀ − Σ_i γ_i a_i a_iᵀ ⪰ 0`,
//!   `γ ≥ 0`, with `h_C(γ) = min_{0≤s≤1} C(1 − s) + γs²` (γ up to C/2, `C − C²/4γ`
//!   above). Weak duality gives `D1 ≤ P1 ≤ P0 ≤ P(y)` for every y: the relaxation bounds
//!   the integer MMC objective (tests check it against all labellings of small sets).
//! - **Rounding**: labels are the signs of the leading eigenvector of `F = AZAᵀ`, the
//!   relaxed `ffᵀ` ([`leading_direction`]); the share of its eigenvalue in tr F is
//!   reported (`rank_one`; 1 means the relaxation is tight). When the signs put every
//!   sample in one cluster (a wide Gaussian kernel leaves Z dominated by the bias and
//!   the eigenvector nearly constant), the threshold moves to the nearest count inside
//!   the label balance set `|1ᵀy| ≤ ℓ` ([`balanced_labels`], ours); other unbalanced
//!   sign partitions are kept (forcing all into the set cost Echocardiogram, whose
//!   classes lie outside it at ℓ = 0.3 n, 8 points).
//! - **Kernels**: the kernel path factors the centred kernel, `U_r Λ_r^½`, keeping the
//!   rank that carries `1 − energy_tol` of the trace, at most `max_rank` (LG-MMC's
//!   `kernel_features`); `energy_tol = 0` and `max_rank ≥ n` give the exact kernel. The
//!   linear path uses the features as given (the SDP's matrix is then (d+1) x (d+1)).
//!   Unsupervised kernel learning (the paper's second part) is not implemented.
//!
//! # Solver: an interior-point method of our own
//! `clarabel` (a pure-Rust conic interior-point solver) needs a system BLAS/LAPACK for
//! its PSD cones (features `sdp-*`), which a user cannot install with cargo alone, so it
//! is not used. [`BarrierSolver`] is a log-barrier method on (D1) with damped Newton
//! steps on the n + 1 dual variables (module `barrier`): it needs only dense Cholesky
//! factorisations (faer), returns a strictly feasible dual point and a feasible primal
//! moment matrix `Z = tS⁻¹`, and stops on their **certified** duality gap, so its
//! answer is proven optimal to `gap_tol` without a second solver (the tests also check
//! KKT conditions and the bound against brute force). Cost per Newton step:
//! O(n²m + n³) time, O(n²) memory; the dual point of one C warm-starts another
//! ([`DualPoint`], [`Relaxation::with_c`]). The barrier schedule: t starts at
//! `C n/(m + 2n)` and shrinks by 0.3 per round; a round that does not centre in 30
//! Newton steps restarts from the last centred point with the square root of the
//! factor. Certified relative gaps reach about 1e-5 before the arithmetic stalls
//! (default `gap_tol` 1e-4).
//!
//! # Scale (measured on this project's 2-core machine, release, linear kernel, C = 1)
//! LG-MMC's Table 3 gives the paper's GMMC 9.26 s on Echocardiogram (n = 132), 623 s on
//! German (n = 1000) and no result above. Here (`gmmc_quickstart` example): Echocardiogram
//! 0.05 s, Ionosphere (351) 2.2 s, Diabetes (768) 2.9 s, German (1000) 11 s, LetterAvsB
//! (1555) 89 s, Satellite1vs2 (2236) 336 s — the largest solved; a Newton step costs
//! O(n³), so Krvskp (3196) would take about 3x and Spambase (4601) about 9x as long.
//! Gaussian kernels add the rank r ≤ 300 of their features: Ionosphere 4.3 s, German
//! 108 s (r = 300, 441 Newton steps, on a loaded machine). The criterion bench
//! `benches/gmmc.rs` times a synthetic sweep and German.
//!
//! # Example
//! ```
//! use faer::Mat;
//! use mkc_mmc::gmmc::Balance;
//! use mkc_mmc::prelude::*;
//!
//! // Two groups of 15 points in the plane, along the first axis.
//! let x = Mat::from_fn(30, 2, |i, j| {
//!     let side = if i < 15 { -1.5 } else { 1.5 };
//!     let wiggle = ((i * 7919 + j * 104729) % 97) as f64 / 97.0 - 0.5;
//!     if j == 0 { side + wiggle } else { wiggle }
//! });
//! let gmmc = GmmcParams::new().c(1.0).balance(Balance::Fraction(0.1));
//! let fit = gmmc.fit(&KernelSet::from_features(x.as_ref())?, 2, 0)?;
//! assert!(fit.labels[..15].iter().all(|&l| l == fit.labels[0]));
//! assert!(fit.labels[15..].iter().all(|&l| l != fit.labels[0]));
//! // The relaxation's value is certified: primal − dual within the gap tolerance.
//! let d = &fit.diagnostics;
//! assert!(fit.converged && d.gap <= 1e-4 * d.relaxation.abs().max(1.0));
//! # Ok::<(), mkc_core::Error>(())
//! ```

mod barrier;
mod fit;
mod newton;
#[cfg(test)]
mod newton_tests;
mod params;
mod relaxation;
mod rounding;
#[cfg(test)]
mod tests;

pub use barrier::{BarrierSolver, DualPoint, RelaxationSolution, StopReason};
pub use fit::GmmcDiagnostics;
pub use params::{Balance, Gmmc, GmmcParams, GmmcPath};
pub use relaxation::Relaxation;
pub use rounding::{balanced_labels, leading_direction, sign_labels};
