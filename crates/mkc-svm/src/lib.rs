//! An SMO solver for dual SVM problems on precomputed kernels, in the manner of
//! libsvm (Chang & Lin 2011), with warm starts — the inner solver of RMKC (eq. 10, a
//! C-SVC on `K̃/E`), LG-MMC (eq. 3/7, a simplex-constrained squared-hinge dual) and the
//! iterSVR baseline (ε-SVR).
//!
//! # The problem
//!
//! [`Smo`] solves `min ½αᵀQα + pᵀα  s.t.  yᵀα = Δ,  l ≤ α ≤ u` (`y_t = ±1`) with
//! second-order working-set selection (Fan, Chen & Lin 2005; [`working_set`] module
//! docs), shrinking with gradient reconstruction, and the stopping rule
//! `max_{I_up} −yG + max_{I_low} yG < ε` (default ε = 1e-3 as libsvm). `Q` comes through
//! the [`QMatrix`] trait: [`DenseSigned`] (`s · σ_i σ_j K_ij`, read straight from a dense
//! kernel — contiguous faer columns, no cache), [`SumOf`] such terms and
//! [`WithDiagonal`] (`+ I/C`).
//!
//! # Front ends
//!
//! - [`CSvc`] — C-SVC: α, b, dual objective (maximisation form), decision values, support;
//!   warm starts from an α (`fit_warm`) or from a previous model (`solve_from`, O(n) per
//!   flipped label instead of O(n · #SV) for the start gradient); `solve_below` stops as
//!   soon as the dual value exceeds a bound (for callers that keep only the least of
//!   several J, as RMKC's initial splits; [`Smo::solve_with_floor`] underneath).
//! - [`SimplexSquaredHinge`] — LG-MMC eq. (3) with label kernels `Σ_t μ_t K ∘ y_t y_tᵀ`.
//! - [`EpsSvr`] — ε-SVR.
//! - [`LinearSvr`] — linear ε-SVR on features (no kernel matrix): semismooth Newton on the
//!   Huber-smoothed primal with an exact finish (free bias, default), or dual coordinate
//!   descent (Ho & Lin 2012) with the bias by the method of multipliers.
//!
//! # Non-convergence
//!
//! The iteration cap (default `max(10⁷, 100 n)`, libsvm's) is *reported*, not hidden:
//! every result carries `converged` and `max_violation`; [`SmoSolution::ensure_converged`]
//! turns it into [`mkc_core::Error::NotConverged`].
//!
//! # Warm starts
//!
//! Every front end takes a previous α (after a label flip, a kernel rescaling, a new μ).
//! It is repaired to feasibility — clipped to the box, the gradient computed there in
//! O(n · #nonzero α), then `yᵀα = Δ` restored by moving the fewest coordinates, each as
//! far as it goes (to its bound or until the residual vanishes), chosen one at a time by
//! the steepest directional derivative among the coordinates that can move the helpful
//! way (ties to the lowest index; one O(n) gradient update per moved coordinate). Solvers that re-solve on one kernel
//! should check it once with [`CheckedKernel`] and call `solve` (the `fit*` methods
//! check the kernel, an O(n²) pass, every time).
//!
//! # Speed
//!
//! `cargo xtask compare svm` times [`CSvc::fit`] (kernel check included) against libsvm
//! (scikit-learn `SVC(kernel='precomputed')`, `fit`) on the RBF kernel of two overlapping
//! 10-D blobs, by thread CPU time, on an idle 2-core machine (ours / libsvm):
//!
//! | n | C = 1 | C = 10 |
//! | ---: | --- | --- |
//! | 1000 | 2.5 / 5.4 ms (0.46) | 6.5 / 9.9 ms (0.66) |
//! | 2000 | 10.7 / 14.8 ms (0.72) | 26.1 / 37.7 ms (0.69) |
//! | 4000 | 46.1 / 55.7 ms (0.83) | 141 / 167 ms (0.85) |
//!
//! Iteration counts are within 10% of libsvm's. What made the difference: the one-pass
//! strip check of [`CheckedKernel::new`] (17 ms at n = 4000, against 70 ms for square
//! tiles), and a second-order choice of `j` with independent running maxima (the search
//! had been a single compare-and-select chain, half of the solve time). Since then the
//! SMO loop, the gradient reconstruction and the kernel check run under `pulp`'s
//! runtime instruction-set dispatch (AVX2 here; the same operations, so the same iterates
//! on every CPU): at load 6–7 on the 2 cores, three consecutive runs gave
//! ratios 0.39–0.43 (n = 1000, C = 1), 0.59–0.77 (1000, 10), 0.72–0.87 (2000, 1),
//! 0.75–0.83 (2000, 10), 0.69–0.72 (4000, 1) and 0.80–0.94 (4000, 10); the goal of
//! ≤ 0.8 everywhere is not met at C = 10 under that load. Idle (three consecutive runs,
//! 2026-11-28): 0.42–0.47, 0.61–0.64, 0.68–0.72, 0.68–0.79, 0.71–0.75 and 0.85–0.91:
//! still not at n = 4000, C = 10 (ours 165–177 ms of CPU against libsvm's 194–197 ms).
//! There a solve shrinks 19 times, and the column cache, dropped at every shrinking,
//! gathered 12 900 columns from the full kernel (35 % of its column reads). Since the
//! cache keeps its columns through shrinking and compacts a column read one shrinking
//! later (the `cache` module), the same solve (same 18 408 iterations and objective)
//! takes 129–135 ms against 163–169 ms (alternating runs of the two builds). Three
//! consecutive `compare svm` runs on the quiet machine afterwards (2026-11-28, libsvm at
//! 189–195 ms there): 0.44–0.46, 0.59–0.61, 0.70–0.75, 0.69–0.73, 0.68–0.70 and
//! 0.66–0.68, every case ≤ 0.8. (Earlier that day, on a slower and noisier machine, six
//! runs had ranged up to 1.12 at n = 2000, C = 1.)
//!
//! **Warm re-solve after one flip** (the least confident label, n = 2000). With SMO
//! alone it is 6–9x faster than a cold solve at C = 1 but only 2.4–2.8x at C = 10
//! (ratios 0.36–0.41): the warm solve reaches a violation of 0.1 in 164 iterations (cold:
//! 2730), then needs about 1000 iterations per decade of tolerance, as the cold solve
//! does (544 free variables re-balance; `warm_tail` example). The **warm-start polish**
//! ([`SmoParams::warm_polish`], off by default because it moves warm-started RMKC, LG-MMC
//! and iterSVR solves within the tolerance, and with them some quick-table cells) runs
//! the [active-set polish](polish) once, from the bound statuses, early in the warm
//! start (after 100 SMO iterations and two shrinkings; since 2026-11-28 after 120
//! iterations and four shrinkings, `Smo::run`): one Cholesky factorisation of the
//! ~550 free variables, then two or three rounds on that factor updated for the few
//! variables that change sets, ending at a violation of 1e-14. At load 6–7: C = 1
//! 0.94–0.99 ms against 8.3–9.2 ms cold (ratio 0.10–0.11), C = 10 6.9–7.1 ms against
//! 31.2–31.5 ms (ratio 0.22–0.23, 4.5x; SMO alone 0.36–0.41). Its cost is now the
//! factorisation (~1.6 ms), the gathered free columns at the active rows (~0.9 ms) and
//! the gradient of the ~1400 shrunk variables (~0.9 ms, every free α moved). With
//! [`SmoParams::carry_factor`] a model keeps the factorisation of its free set
//! ([`KernelFactor`]: the settled polish's, else one factorisation at the end of the
//! solve) and the next warm start's polish starts from it: the labels enter only through
//! signs (`Q = S K S`), so a flip costs nothing, and the few variables shrunk before the
//! polish are taken out by a rank-r update. Three consecutive `cargo xtask compare svm`
//! runs on the idle machine (2026-11-28), thread CPU time: C = 10 warm 4.65–5.09 ms with
//! the carried factor against 26.2–29.7 ms cold (5.5–5.8x; the polish alone 4.6–5.1x, SMO
//! alone 3.0–3.2x); C = 1 8.6–9.0x (polish alone 8.1–8.5x). Later the same day
//! (a later session) the same build gave 4.2–4.8x at C = 10 on most runs;
//! shrinking every 40 instead of 100 iterations before the polish brought the carried
//! re-solve from a median 6.3 to 5.8 ms in alternating runs (4.3–4.7x), short of 5x.
//! Then rounds that hold the same columns reuse the bordered system's pieces, and the
//! polish stopped reading the free columns (their gradient comes from the solve,
//! `free_system` module docs): three consecutive runs (2026-11-28, 16:30 UTC) gave
//! C = 10 warm 3.84–4.10 ms carried against 24.6–26.7 ms cold (6.3–6.7x; the polish
//! alone 4.3–4.8x) and C = 1 8.8–10.5x.
//!
//! **Active-set polish** ([`SmoParams::polish`], [`polish`], off by default so that the
//! iterates stay libsvm's): where many variables are free and Q is ill-conditioned, SMO
//! needs 10⁵–10⁶ pair updates; a primal-dual active-set iteration started from the SMO
//! iterate settles the bounds and solves the free variables exactly. On Letter A-B's
//! Gaussian kernels (n = 1555), for iterSVR's Laplacian-loss SVR at C = 100 (`mkc-cli`
//! example `itersvr_nform`): σ = 0.2·range 0.59 → 0.13 s, σ = 0.5 1.10 → 0.09 s,
//! σ = 0.9 0.64 → 0.47 s (there the iteration cycles until the free set is smaller),
//! ending at a KKT violation of 1e-14 instead of 1e-3. At C = 1, where SMO alone
//! takes 0.01–0.04 s, it costs up to 2.6x (0.026 against 0.010 s). A whole iterSVR run on Letter at C = 100 (14 SVR
//! fits, warm-started) went from 41 s to 1.6 s. Started from the SMO iterate's gradient
//! guess it does not help the warm re-solve (C = 10: 11 ms warm against 24 ms cold); the
//! warm-start polish above starts from the bound statuses instead.
//!
//! # Example
//!
//! ```
//! use faer::Mat;
//! use mkc_core::ParamGuard;
//! use mkc_svm::CSvcParams;
//!
//! // Two well separated groups on a line, Gaussian kernel.
//! let x = [-2.0, -1.5, -1.0, 1.0, 1.5, 2.0];
//! let y = [-1.0, -1.0, -1.0, 1.0, 1.0, 1.0];
//! let k = Mat::from_fn(6, 6, |i, j| (-(x[i] - x[j]) * (x[i] - x[j]) / 2.0f64).exp());
//! let svc = CSvcParams::new(10.0).tol(1e-8).check()?;
//! let model = svc.fit(k.as_ref(), &y)?;
//! assert!(model.status.converged);
//! // Every point on the right side, and yᵀα = 0.
//! assert!(model.decision.iter().zip(&y).all(|(f, yi)| f * yi > 0.0));
//! assert!(model.alpha.iter().zip(&y).map(|(a, yi)| a * yi).sum::<f64>().abs() < 1e-12);
//!
//! // Flip one label and re-solve from the previous α.
//! let mut y2 = y;
//! y2[2] = 1.0;
//! let warm = svc.fit_warm(k.as_ref(), &y2, &model.alpha)?;
//! let cold = svc.fit(k.as_ref(), &y2)?;
//! assert!((warm.objective - cold.objective).abs() < 1e-6);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod cache;
mod csvc;
mod feasibility;
mod free_system;
mod kernel;
mod kernel_sum;
mod linear_admm;
mod linear_dcd;
mod linear_finish;
mod linear_newton;
mod linear_sparse;
mod linear_svr;
pub mod polish;
pub mod problems;
mod qmatrix;
mod shrinking;
mod simplex;
mod solver;
mod state;
mod svr;
pub mod working_set;

/// Tests' uniform numbers in [0, 1) (xorshift64 from `state`, 53-bit mantissa).
#[cfg(test)]
pub(crate) fn test_uniform(mut state: u64) -> impl FnMut() -> f64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

pub use csvc::{CSvc, CSvcParams, KernelFactor, SvcModel, J_MARGIN};
pub use free_system::FreeFactor;
pub use kernel::{AsSvcKernel, CheckedKernel, CheckedKernelMat, SvcKernel};
pub use kernel_sum::{KernelStack, KernelSum};
pub use linear_svr::{
    LinearBias, LinearFeatures, LinearSvr, LinearSvrModel, LinearSvrParams, LinearSvrSolver,
};
pub use qmatrix::{DenseSigned, QMatrix, SumOf, WithDiagonal};
pub use simplex::{label_term, SimplexModel, SimplexSquaredHinge, SimplexSquaredHingeParams};
pub use solver::{PolishCount, Problem, Smo, SmoParams, SmoSolution, SolveStatus, CARRY_MAX};
pub use svr::{EpsSvr, EpsSvrParams, SvrModel};
