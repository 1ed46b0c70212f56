//! RMKC: ratio-based multiple kernel clustering (G. Tzortzis and A. Likas,
//! "Ratio-Based Multiple Kernel Clustering"), and its single-kernel baseline iterSVR
//! (K. Zhang, I. W. Tsang and J. T. Kwok, "Maximum margin clustering made practical",
//! ICML 2007; IEEE Trans. Neural Networks 20(4), 2009).
//!
//! Two clusters y ∈ {±1}ᴺ and kernel weights θ ≥ 0 (‖θ‖_p^p = 1, or no norm) minimise
//! the variance-to-margin ratio (eqs. 4–5)
//!
//! ```text
//! J(θ, y) = min_{w,b,ξ} ½ E(θ, y)‖w‖² + C Σ ξ_i   s.t. y_i(wᵀφ̃(x_i) + b) ≥ 1 − ξ_i, ξ ≥ 0,
//! ```
//!
//! K̃ = Σ_v θ_v K⁽ᵛ⁾ (eq. 3), E the kernel k-means variance (eqs. 6–7), under the
//! balance bound −ℓ ≤ Σy ≤ ℓ. J is evaluated through its dual (eqs. 10–11), a C-SVC on
//! K̃/E solved by `mkc_svm` (warm-started throughout). J is scale invariant
//! (Proposition 1): J(aθ, y) = J(θ, y).
//!
//! # Modules
//! - [`params`]: [`RmkcParams`] → [`Rmkc`] (C, L, ℓ, p-norm, …), [`Norm`], [`Balance`].
//! - [`variance`]: E_v(y) per basis kernel (eq. 7), O(V·N) single-flip updates.
//! - [`objective`]: J via the dual (eqs. 10–11), the primal value for checks.
//! - [`gradient`]: ∇_θ J (eq. 12).
//! - [`theta_step`]: projected gradient + Armijo (Algorithm 1, lines 5–10).
//! - [`label_step`]: Algorithm 2 (eqs. 13–15, the balance bound on L).
//! - [`init`]: the initial labels of Section 3 (k-means++-style pairs).
//! - [`mod@rmkc`]: the outer loop (Algorithm 1) and the [`mkc_core::Clusterer`] impl.
//! - [`itersvr`]: the iterSVR baseline (Zhang, Tsang & Kwok 2007), single kernel.
//!
//! # Choices the paper leaves open (ours, all documented where made)
//! - **E_v per kernel** ([`variance`]): E_v(y) = (tr K⁽ᵛ⁾ − S₊/n₊ − S₋/n₋)/N with S_k the
//!   sum of K⁽ᵛ⁾ over cluster k — eq. (7) with θ_v factored out, so E = Σ θ_v E_v and
//!   ∂E/∂θ_v = E_v; an empty cluster contributes 0. E ≤ 0 is a typed numerical error.
//! - **θ start**: uniform, θ_v = V^(−1/p) (p = 1 and no norm: 1/V).
//! - **Projection per p** ([`theta_step`]): p = 1 Euclidean projection onto the simplex;
//!   p = 2 onto {θ ≥ 0, ‖θ‖₂ = 1} (max(θ, 0)/‖max(θ, 0)‖, or the unit vector at the
//!   largest coordinate if none is positive); no norm: max(θ, 0), rejecting θ = 0.
//! - **Armijo rule**: η₀ = ‖θ‖/‖∇J‖, backtracking η ← βη with β = 0.5, sufficient
//!   decrease σ = 1e-4 along the projection arc, at most 20 trials, plus a strict
//!   decrease of J; no accepted trial leaves θ unchanged. One θ step per outer iteration.
//! - **Label step** ([`label_step`]): ties in eq. (13) go to the lowest index; ties in
//!   eq. (15) to the earliest candidate (y⁽⁰⁾ first, so labels move only on a strict
//!   decrease); each phase is capped by the balance bound, floored, and leaves its
//!   source cluster non-empty.
//! - **Initialisation** ([`init`]): round(0.25N) pairs (≥ 1), second member drawn ∝ its
//!   feature-space distance from the first (the paper's words; not k-means++'s
//!   squared distance), ties in assignment to the first
//!   member, unbalanced splits repaired by moving the least-committed points.
//! - **Convergence** ([`mod@rmkc`]): stop when an iteration changes no label and its
//!   θ step lowers J by at most 1e-4·|J| (relative; the stopping rule of the authors'
//!   multi-view kernel k-means code, and about the accuracy of J at the SVM tolerance
//!   1e-3); at most 100 iterations.
//! - **SVM**: tolerance 1e-3 (libsvm's default, as the paper used LIBSVM); J is the
//!   solver's dual value, so comparisons between J values carry that accuracy.
//! - **Determinism**: one `u64` seed drives the initial pairs (ChaCha8 via
//!   `mkc_core::seed`); everything else is deterministic, and independent of the number
//!   of rayon threads.
//!
//! # Where the time goes, and what is done about it
//! Every J is one SMO solve of eq. (10) on K̃ (no kernel cache needed). The initial
//! splits use the formed K̃(θ⁽⁰⁾); Algorithm 1's solves use K̃(θ) as a
//! [`mkc_svm::KernelSum`], whose columns are formed when a solve first reads them, with
//! the formed matrix's numbers (the same iterates): a warm-started Armijo trial on
//! Satellite 1 vs 2 reads 60–230 of 2236 columns, and forming and checking all of K̃ for
//! every trial had been about half of a run. Single-threaded fits on Satellite 1 vs 2,
//! p = 2, seeds 0–2 (`cargo run --release -p mkc-rmkc --example rmkc_timing`, the two
//! builds one after the other, 2026-11-28): C = 0.01 2.9–3.2 → 1.3–1.6 s, C = 1
//! 2.1–3.3 → 0.74–1.07 s, C = 10 1.2–3.2 → 0.73–1.18 s, with the same J, θ, labels and
//! solve counts. Label
//! candidates are warm-started from the previous candidate
//! ([`mkc_svm::CSvc::solve_from`], O(N) per flipped support vector), Armijo trials from
//! the current α; initial splits are solved from α = 0 and dropped as soon as they
//! cannot beat their chunk's best ([`mkc_svm::CSvc::solve_below`]). The two phases of Algorithm 2
//! run in parallel; the initial splits are deduplicated and evaluated in a fixed number
//! of parallel chunks ([`init::INIT_CHUNKS`]). Fits that differ only in L, the caps and
//! tolerances of Algorithm 1, or between the 1-norm and no norm (the same uniform θ⁽⁰⁾)
//! start from the same split, which can be computed once per seed
//! ([`Rmkc::initial_split`], [`Rmkc::fit_with_split`]). A fit's timings have the phases `"init"`,
//! `"theta"` and `"labels"`, and [`RmkcDiagnostics`] counts the solves of each.
//!
//! # The method API
//! [`RmkcParams`] and [`IterSvrParams`] (and their checked forms [`Rmkc`], [`IterSvr`])
//! implement [`mkc_core::Clusterer`] under the names `"rmkc"` and `"itersvr"`: a
//! [`mkc_core::KernelSet`], `n_clusters = 2` (both are two-cluster methods) and a seed
//! in, a [`mkc_core::Clustering`] out with labels 0/1 (cluster 1 is y = +1). RMKC uses
//! every kernel of the set and reports θ on [`Norm::constraint`] (`PNorm(1)`, `PNorm(2)`,
//! or `NonNegative` with no norm); iterSVR is single-kernel and uses the kernel, or the
//! equal-weight mean of the kernels. Neither uses features. [`Rmkc::fit_from`] and
//! [`IterSvr::fit_from`] start from given labels instead of the seeded start.
//!
//! # Example
//!
//! ```
//! use faer::Mat;
//! use mkc_rmkc::prelude::*;
//!
//! // Two blobs on a line (10 points each), two Gaussian kernels of different widths.
//! let x: Vec<f64> = (0..20)
//!     .map(|i| if i < 10 { -3.0 + 0.1 * i as f64 } else { 3.0 + 0.1 * i as f64 })
//!     .collect();
//! let gauss = |s: f64| Mat::from_fn(20, 20, |i, j| (-(x[i] - x[j]).powi(2) / (2.0 * s * s)).exp());
//! let kernels = vec![gauss(1.0), gauss(4.0)];
//! let data = KernelSet::new(&kernels)?;
//! let fit = RmkcParams::new().c(1.0).l(5).norm(Norm::L1).fit(&data, 2, 7)?;
//! // The blobs are recovered (up to the names of the two clusters) …
//! assert!(fit.labels[..10].iter().all(|&l| l == fit.labels[0]));
//! assert!(fit.labels[10..].iter().all(|&l| l != fit.labels[0]));
//! // … θ stays on the simplex, and J never went up.
//! let theta = fit.kernel_weights.as_ref().unwrap();
//! assert!(theta.violation() < 1e-9);
//! assert!(fit.objective.windows(2).all(|w| w[1] <= w[0]));
//!
//! // iterSVR, the single-kernel baseline, through the same call.
//! let one = KernelSet::new(&kernels[..1])?;
//! let svr = IterSvrParams::new().c(1.0).balance(0.1).fit(&one, 2, 7)?;
//! assert!(svr.labels[..10].iter().all(|&l| l == svr.labels[0]));
//! # Ok::<(), mkc_core::Error>(())
//! ```
//!
//! The experiments (Tables 1–4, `configs/rmkc.toml`) and the `mkc cluster --method
//! rmkc|itersvr` adapters live in `mkc-experiments`; `examples/rmkc_quickstart.rs` fits
//! a committed dataset.

#![forbid(unsafe_code)]

pub mod gradient;
pub mod init;
pub mod itersvr;
pub mod label_step;
pub mod objective;
pub mod params;
pub mod rmkc;
pub mod theta_step;
pub mod variance;

mod signs;

pub use itersvr::{IterSvr, IterSvrDiagnostics, IterSvrParams};
pub use objective::Evaluation;
pub use params::{Balance, Norm, Rmkc, RmkcParams};
pub use rmkc::{InitialSplit, RmkcDiagnostics};
pub use variance::Variance;

/// The method API and this crate's methods: `use mkc_rmkc::prelude::*;`.
pub mod prelude {
    pub use crate::{Balance, IterSvrParams, Norm, RmkcParams};
    pub use mkc_core::prelude::*;
}
