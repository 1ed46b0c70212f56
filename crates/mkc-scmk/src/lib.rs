//! SCSK and SCMK (Kang, Peng & Cheng, "Twin learning for similarity and clustering: a
//! unified kernel approach", AAAI 2017): learn a similarity Z (each column on the capped
//! simplex, eq. (1)), a cluster indicator P and, for SCMK, kernel weights w jointly.
//!
//! - [`ScskParams`] → [`Scsk`]: problem (7), Algorithm 1, one kernel.
//! - [`ScmkParams`] → [`Scmk`]: problem (18), Algorithm 2, K_w = Σ w_i K^i (17) with
//!   Σ √w_i = 1, weights by eqs. (19)–(22).
//! - Building blocks: [`solve_z`] (the column QPs (11) of one Z step by SMO),
//!   [`solve_z_apg`] (the same by the accelerated projected gradient),
//!   [`reconstruction_costs`] (eq. (20)), [`optimal_weights`] (eq. (22)),
//!   [`objective`] (eqs. (7)/(18)).
//!
//! Faithful to the authors' code (see `papers/README.md`): Z starts at the identity, the
//! Laplacian is that of (Z + Zᵀ)/2, P = the c eigenvectors of its smallest eigenvalues
//! (mkc-linalg's bottom-k solver, warm-started across iterations), every column of Z
//! solves (11), stop after ≥ 10 iterations when ‖Z − Z_old‖_F/‖Z_old‖_F < 1e-3 (≤ 500;
//! SCSK: 5 / 1e-3 / 200), labels by k-means on P with 100 seeded replicates. Kernels are
//! used as given: the paper's 12 kernels and their rescaling (divide by the largest entry,
//! or unit diagonal) come from `mkc_kernels::{KernelSpec::scmk_twelve, build}`.
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
//! `cargo run --release -p mkc-scmk --example ar_iteration -- <AR.mat> <α> 1e-5 3`, two
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
//! use mkc_core::ParamGuard;
//! use mkc_scmk::{ScmkParams, ScskParams};
//!
//! // Two groups of 4 points on a line, two Gaussian kernels.
//! let x: Vec<f64> = vec![0.0, 0.1, 0.2, 0.3, 5.0, 5.1, 5.2, 5.3];
//! let gauss = |s: f64| Mat::from_fn(8, 8, |i, j| (-(x[i] - x[j]).powi(2) / s).exp());
//! let (k1, k2) = (gauss(1.0), gauss(4.0));
//!
//! // SCMK, problem (18): α = 0.1, β = 1e-3.
//! let fit = ScmkParams::new(2, 0.1, 1e-3).seed(7).check()?.fit(&[k1.as_ref(), k2.as_ref()])?;
//! assert_eq!(fit.labels[0], fit.labels[3]);
//! assert_ne!(fit.labels[0], fit.labels[4]);
//! // eq. (22) keeps Σ √w_i = 1, and the objective (18) never increases
//! assert!((fit.weights.iter().map(|w| w.sqrt()).sum::<f64>() - 1.0).abs() < 1e-12);
//! let j = &fit.info.objective;
//! assert!(j.windows(2).skip(1).all(|p| p[1] <= p[0] + 1e-9 * p[0].abs()));
//!
//! // SCSK, problem (7), on one kernel.
//! let one = ScskParams::new(2, 0.1, 1e-3).check()?.fit(k1.as_ref())?;
//! assert_eq!(one.labels[4], one.labels[7]);
//! # Ok::<(), mkc_core::Error>(())
//! ```

mod alternate;
mod apg;
mod fit;
mod labels;
mod lipschitz;
pub mod objective;
mod params;
mod scmk;
mod scsk;
mod support;
mod weights;
mod z_step;

pub use fit::{TwinFit, TwinInfo};
pub use objective::{objective, Objective};
pub use params::{ScmkParams, ScskParams};
pub use scmk::Scmk;
pub use scsk::Scsk;
pub use weights::{optimal_weights, reconstruction_costs, weight_objective};
pub use z_step::{solve_z, solve_z_apg, ZSolver, ZStep};
