//! SCSK and SCMK (Kang, Peng, Cheng & Xu, "Twin learning for similarity and clustering:
//! a unified kernel approach", AAAI 2017): learn a similarity Z (each column on the
//! capped simplex, eq. (1)), a cluster indicator P and, for SCMK, kernel weights w
//! jointly.
//!
//! - [`ScskParams`] → [`Scsk`]: problem (7), Algorithm 1, one kernel.
//! - [`ScmkParams`] → [`Scmk`]: problem (18), Algorithm 2, K_w = Σ w_i K^i (17) with
//!   Σ √w_i = 1, weights by eqs. (19)–(22).
//! - Building blocks: [`solve_z`] (the column QPs (11) of one Z step, a [`ZProblem`], by SMO),
//!   [`solve_z_apg`] (the same by the accelerated projected gradient),
//!   [`reconstruction_costs`] (eq. (20)), [`optimal_weights`] (eq. (22)),
//!   [`objective()`] (eqs. (7)/(18)).
//! - Work shared by the fits of an (α, β) grid: [`StepSizes`] (the APG step sizes,
//!   [`Scsk::step_sizes`] / [`Scmk::step_sizes`]) and the fits from them
//!   ([`Scsk::fit_restarts_with`] / [`Scmk::fit_restarts_with`], the runs of
//!   `fit_restarts` bit for bit).
//!
//! # Through the method API
//! Both are [`mkc_core::Clusterer`]s ("scsk", "scmk"): `fit(&KernelSet, c, seed)` returns
//! a [`mkc_core::Clustering`] with labels in `0..c`, the objective trace of eq. (7) /
//! (18) (minimised; one value per iteration), the iterations, `converged` (the stopping
//! rule below fired before `max_iter`), timings by phase ("init": the APG step sizes,
//! "eigensolve": K_w and the P step, "z": the Z step, "weights" (SCMK) or "objective"
//! (SCSK): h, w and J, "kmeans") and [`TwinDiagnostics`]. SCMK uses every kernel of the
//! set and returns its weights on
//! [`WeightConstraint::SqrtSimplex`](mkc_core::WeightConstraint::SqrtSimplex)
//! (Σ √w_i = 1, eq. 22); SCSK uses the set's kernel, or the equal-weight mean of several
//! ([`mkc_core::KernelSet::one_kernel`]), and learns no weights. The alternating loop is
//! deterministic (its eigensolver seed is part of the parameters,
//! [`ScmkParams::eigen`]); the fit's seed drives only the final k-means on P, so
//! `fit_restarts` runs the loop once and k-means once per seed. The engines
//! [`Scmk::fit_kernels`] and [`Scsk::fit_kernel`] return the learned Z and P as well
//! ([`TwinFit`]).
//!
//! # Choices the paper leaves open
//! Faithful to the authors' code: Z starts at the identity, the Laplacian is that of
//! (Z + Zᵀ)/2, P = the c eigenvectors of its smallest eigenvalues (mkc-linalg's
//! bottom-k solver, warm-started across iterations), every column of Z solves (11), stop
//! after ≥ 10 iterations when ‖Z − Z_old‖_F/‖Z_old‖_F < 1e-3 (≤ 500; SCSK: 5 / 1e-3 /
//! 200), labels by k-means on P with 100 seeded replicates. α and β have no paper
//! default: α = 1 and β = 1e-5 are points of the paper's grid (`params` module docs).
//! Kernels are used as given: the paper's 12 kernels and their rescaling (divide by the
//! largest entry, or unit diagonal) come from
//! `mkc_kernels::{KernelSpec::scmk_twelve, build}`.
//!
//! # The Z step ([`ZSolver`])
//! All n column QPs share the Hessian 2(αI + K). The default [`ZSolver::Auto`] solves them
//! together by an accelerated projected gradient (FISTA; `apg` module docs: step
//! 1/(2(α + λ_max(ΠKΠ))) on the tangent space of 1ᵀz = 1, λ cached per kernel, monotone
//! with momentum restart on objective increase, warm start from the previous Z, sparse or
//! faer dense products), tried also from the projected equality-constrained minimiser
//! when Z is dense (one Cholesky of αI + K; exact when Z has no zeros, the large-α
//! regime), and hands the columns whose start has at most n/2 non-zeros to SMO (mkc-qp),
//! which needs only O(nnz) pair updates of O(n) each there. While that projected start
//! has not been computed, SMO gets a budget of n/4 pair updates per column; a column that
//! exhausts it (its solution is much denser than its start) is finished by APG from the
//! better of its SMO iterate and the projected start, computed then. Stopping: KKT violation
//! max_{z_j>0} g_j − min_{z_j<1} g_j ≤ `qp_tol` (default 1e-6, absolute, g the gradient
//! of (11)) for every column. [`ZSolver::Apg`] is APG alone, [`ZSolver::Smo`] SMO alone
//! (the session-1 path). Tests: all three meet the KKT conditions of (11) to 1e-8 on
//! small problems and give the same runs; the objective never increases. In f64 the APG
//! alone stalls around KKT 1e-9 on ill-conditioned columns (a plain projected gradient
//! step no longer decreases f): tolerances below that need SMO.
//!
//! Speed (AR, n = 840, c = 120, 12 kernels divided by their max, rows L2-normalised;
//! `cargo run --release -p mkc-scmk --example ar_iteration -- ar-uni <α> 1e-5 3`, two
//! idle cores), seconds per SCMK iteration (eigensolve + Z step + h/w/J, the sum of the
//! phases the example prints), `Auto`, `qp_tol` 1e-6, session 3:
//!
//! | α | iteration 1 (from Z = I) | iteration 2 | iteration 3 |
//! | --- | --- | --- | --- |
//! | 1e-5 | 0.40 | 0.22 | 0.20 |
//! | 1e-4 | 0.43 | 0.28 | 0.26 |
//! | 1e-3 | 0.40 | 0.48 | 0.33 |
//! | 0.01 | 0.46 | 1.51 | 0.51 |
//! | 0.1 | 0.62 | 1.34 | 0.62 |
//! | 1 | 1.00 | 0.65 | 0.44 |
//! | 10 | 1.18 | 0.46 | 0.38 |
//! | 100 | 0.41 | 0.49 | 0.49 |
//!
//! The second iteration at α = 0.01–0.1 is the slowest: Z goes from ~50 to ~600
//! non-zeros per column. Before SMO got its budget (`apg::SmoSolvers`) it was solved by
//! SMO alone, 2.75 s at α = 0.1 (and 17 s for the same step on BA, n = 1404, α = 1; 5.3 s
//! now). Session 1 (SMO only, `qp_tol` 1e-10): 2.95 s at α = 1e-3, ~30 s at α = 1. APG
//! alone at α = 1 needs ~80 iterations from Z = I because λ_max(ΠKΠ)/α is large, which is
//! why `Auto` is the default.
//!
//! ```
//! use faer::Mat;
//! use mkc_scmk::prelude::*;
//!
//! // Two groups of 4 points on a line, two Gaussian kernels.
//! let x: Vec<f64> = vec![0.0, 0.1, 0.2, 0.3, 5.0, 5.1, 5.2, 5.3];
//! let gauss = |s: f64| Mat::from_fn(8, 8, |i, j| (-(x[i] - x[j]).powi(2) / s).exp());
//! let kernels = vec![gauss(1.0), gauss(4.0)];
//! let data = KernelSet::new(&kernels)?;
//!
//! // SCMK, problem (18): α = 0.1, β = 1e-3.
//! let fit = ScmkParams::new().alpha(0.1).beta(1e-3).fit(&data, 2, 7)?;
//! assert_eq!(fit.labels[0], fit.labels[3]);
//! assert_ne!(fit.labels[0], fit.labels[4]);
//! // eq. (22) keeps Σ √w_i = 1, and the objective (18) never increases
//! let w = fit.kernel_weights.as_ref().unwrap();
//! assert!(w.violation() < 1e-12);
//! let j = &fit.objective;
//! assert!(j.windows(2).skip(1).all(|p| p[1] <= p[0] + 1e-9 * p[0].abs()));
//!
//! // SCSK, problem (7), on one kernel.
//! let one = KernelSet::new(&kernels[..1])?;
//! let fit = ScskParams::new().alpha(0.1).beta(1e-3).fit(&one, 2, 7)?;
//! assert_eq!(fit.labels[4], fit.labels[7]);
//! assert!(fit.kernel_weights.is_none());
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod alternate;
mod apg;
mod fit;
mod labels;
mod lipschitz;
pub mod objective;
mod params;
mod scmk;
mod scsk;
mod step_sizes;
mod support;
mod twin;
mod weights;
mod z_solvers;
mod z_step;

pub use fit::{TwinDiagnostics, TwinFit, TwinInfo};
pub use objective::{objective, Objective};
pub use params::{ScmkParams, ScskParams, DEFAULT_ALPHA, DEFAULT_BETA};
pub use scmk::Scmk;
pub use scsk::Scsk;
pub use step_sizes::StepSizes;
pub use weights::{optimal_weights, reconstruction_costs, weight_objective};
pub use z_step::{solve_z, solve_z_apg, ZProblem, ZSolver, ZStep};

/// The method API and this crate's parameters: `use mkc_scmk::prelude::*;`.
pub mod prelude {
    pub use crate::{ScmkParams, ScskParams};
    pub use mkc_core::prelude::*;
}
