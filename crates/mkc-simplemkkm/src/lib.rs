//! SimpleMKKM (Liu, Zhu, Liu, Hospedales, Wang, Wang — *SimpleMKKM: Simple Multiple
//! Kernel K-means*, ICML) and the Avg-KKM baseline of its Table 2 (also single-kernel
//! kernel k-means). The other baselines of the table (MKKM, MKKM-MiR, LMKKM, …) are in
//! `mkc-mkkm`, which also holds what the family shares and this crate uses: kernel
//! preprocessing, the top-k eigen step ([`Objective`]), the final k-means on H
//! ([`labels_from_h`]) and the restarts (re-exported here).
//!
//! # The method
//! With base kernels `K_1..K_m` and `K_γ = Σ_p γ_p² K_p`, SimpleMKKM solves the min-max
//! problem of eq. (4), `min_{γ ∈ Δ} max_{HᵀH = I_k} tr(Hᵀ K_γ H)`, rewritten as
//! `min_{γ ∈ Δ} J(γ)` (eq. (5)) with the optimal value function J of eq. (6) — the sum of
//! the k largest eigenvalues of `K_γ`. J is differentiable with
//! `∂J/∂γ_p = 2 γ_p tr(Hᵀ K_p H)` (Theorem 1); Algorithm 1 descends along the reduced
//! gradient (eqs. (7)–(8)) with the direction of eq. (9) and a line search, and stops
//! at `max |Δγ| < tol`. J *decreases*: γ minimises, H maximises.
//!
//! # Choices the paper leaves open (all from the authors' code unless said otherwise)
//! - Preprocessing ([`Preprocessing`]): centre, then unit diagonal; switchable.
//! - The gradient is scaled to unit norm before eqs. (7)–(9); `u` = largest weight;
//!   `d_u = −Σ_{p≠u} d_p` over kept coordinates ([`reduced_gradient`]).
//! - Step to the simplex boundary capped at 0.1; SimpleMKL's boundary walk (move to the
//!   boundary point while J decreases there), then golden section with relative width
//!   `delta_max = 1e-3` ([`LineSearch`], [`line_search`]); γ changes only when J
//!   decreased; Armijo backtracking as an option. A stalled golden section (no decrease
//!   although the optimality residual exceeds `kkt_tol`) is retried with a 10× finer
//!   width, as SimpleMKL intends (the authors' SimpleMKKM stops there instead).
//! - Weights below machine precision set to 0 and renormalised after each step.
//! - `tol = 1e-5` (the paper's Algorithm 1 says 1e-4).
//! - How J is evaluated ([`Solver`], ours; the paper solves every eigenproblem
//!   exactly). Default [`Solver::Subspace`]: Rayleigh–Ritz on one subspace shared by
//!   all γ (it holds `K_p Q` and `Qᵀ K_p Q` for every kernel, so `K_γ` is never formed
//!   and a trial γ costs a small eigenproblem); line-search trials to relative
//!   residual 1e-3, every accepted γ *certified* to the eigensolver tolerance (1e-8),
//!   so J, H and the gradient of every iterate are exact to that tolerance and J never
//!   increases. On Digit the iterates follow the reference path (Gaussian kernels on raw
//!   features: the same 12 updates with line searches of the same lengths; z-scored
//!   features: identical for 6 updates, then 9 updates instead of 10) and end at the
//!   same γ to 4 digits, with 11–14 exact solves instead of 56–66.
//!   [`Solver::Eigensolver`] is the reference: a top-k eigensolve of the formed `K_γ`
//!   per evaluation, warm-started from the nearest H. Counts and times in
//!   [`SimpleMkkmDiagnostics`].
//! - Labels: rows of H normalised to unit length, then k-means with 10 replicates of
//!   100 iterations ([`labels_from_h`]); the experiments repeat it with 20/50 seeds.
//!
//! # The method API
//! Every method here implements [`mkc_core::Clusterer`] on its parameter builder
//! ([`SimpleMkkmParams`] `"simplemkkm"`, [`AvgParams`] `"avg-kkm-spectral"`; MKKM and
//! MKKM-MiR in `mkc-mkkm` the same way): it uses every kernel of the
//! [`KernelSet`](mkc_core::KernelSet), preprocesses them, optimises the weights and H
//! (deterministic), then runs the seeded k-means on H. The reported kernel weights are
//! γ on the simplex ([`WeightConstraint::Simplex`](mkc_core::WeightConstraint)); for
//! SimpleMKKM the combined kernel is `Σ_p γ_p² K_p`, for Avg-KKM
//! `Σ_p γ_p K_p` with γ = 1/m. Restarts ([`Clusterer::fit_restarts`](mkc_core::Clusterer))
//! optimise once and run k-means per seed. The deterministic part alone (γ, H, every
//! trace) is `fit_kernels` on the checked parameters ([`SimpleMkkm::fit_kernels`], …).
//!
//! # Example
//! ```
//! use faer::Mat;
//! use mkc_simplemkkm::prelude::*;
//!
//! // 60 points in 3 well separated groups; three views of them (one noisy).
//! let n = 60;
//! let x = |i: usize, noise: f64| {
//!     let c = (i % 3) as f64 * 3.0;
//!     let wiggle = ((i * 7919) % 13) as f64 / 13.0 - 0.5;
//!     (c + noise * wiggle, -c + noise * wiggle * 0.5)
//! };
//! let rbf = |noise: f64| Mat::from_fn(n, n, |i, j| {
//!     let (a, b) = (x(i, noise), x(j, noise));
//!     (-((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)) / 8.0).exp()
//! });
//! let kernels = vec![rbf(0.5), rbf(1.0), rbf(8.0)];
//! let data = KernelSet::new(&kernels)?;
//!
//! let fit = SimpleMkkmParams::new().fit(&data, 3, 42)?;
//! assert_eq!(fit.labels.len(), n);
//! // γ stays on the simplex; J(γ) (eq. (6)) never increases.
//! let gamma = fit.kernel_weights.as_ref().unwrap();
//! assert!(gamma.violation() < 1e-12);
//! assert!(fit.objective.windows(2).all(|w| w[1] <= w[0]));
//! // At the optimum the gradient 2 γ_p tr(Hᵀ K_p H) (Theorem 1) is equal across kernels.
//! assert!(fit.diagnostics.method.kkt_residual < 1e-3);
//!
//! // Restarts share the optimisation: same γ, one k-means per seed.
//! let runs = SimpleMkkmParams::new().fit_restarts(&data, 3, &[1, 2]);
//! assert_eq!(runs[0].as_ref().unwrap().weights(), fit.weights());
//!
//! // The Avg-KKM baseline, through the same contract.
//! let avg: Box<dyn DynClusterer> = Box::new(AvgParams::new());
//! assert_eq!(avg.fit_dyn(&data, 3, 1)?.labels.len(), n);
//! # Ok::<(), mkc_core::Error>(())
//! ```

#![forbid(unsafe_code)]

mod avg;
pub mod gradient;
pub mod kamm;
pub mod line_search;
mod oracle;
mod params;
pub mod reduced_gradient;
mod simplemkkm;
mod subspace;
mod update;

pub use avg::{AvgFit, AvgKkm, AvgKkmDiagnostics, OneEigensolve};
pub use kamm::{Alternated, KammA, KammADiagnostics, KammAFit, KammAParams, KammR, KammRParams};
pub use line_search::{
    Armijo, ArmijoCondition, BracketWidth, GoldenSection, LineSearchResult, Termination,
};
pub use mkc_mkkm::labels::{self, labels_from_h, labels_from_h_with, row_normalised, LabelOptions};
pub use mkc_mkkm::objective::{self, EvalStats, Evaluation, Objective};
pub use mkc_mkkm::params::default_eigen_options;
pub use mkc_mkkm::preprocess::{self, Preprocessing};
pub use oracle::Solver;
pub use params::{AvgParams, LineSearch, SimpleMkkmParams};
pub use simplemkkm::{
    DescentStats, SimpleMkkm, SimpleMkkmDiagnostics, SimpleMkkmFit, MIN_DELTA_MAX,
};

/// The method API and this crate's methods: `use mkc_simplemkkm::prelude::*;`.
pub mod prelude {
    pub use crate::{AvgParams, KammAParams, KammRParams, SimpleMkkmParams};
    pub use mkc_core::prelude::*;
}
