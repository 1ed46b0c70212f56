//! ONKC (Liu, Zhou, Wang, Li, Dou, Zhu, Yin — *Optimal Neighborhood Kernel Clustering
//! with Multiple Kernels*, AAAI 2017), a baseline of SimpleMKKM's Table 2: the clustering
//! kernel G is not the combination `K_γ = Σ_p γ_p K_p` itself but the best kernel in its
//! neighbourhood,
//!
//! `min_{H, G, γ} tr(G (I − HHᵀ)) + (ρ/2) ‖G − K_γ‖²_F + (λ/2) γᵀ M γ`
//! s.t. `HᵀH = I_k`, `G ⪰ 0`, `γ ≥ 0`, `1ᵀγ = 1`, `M_pq = tr(K_p K_q)`,
//!
//! with the combination *linear* in γ (not `γ_p²` as MKKM). Written from the authors'
//! MATLAB code (`myoptimalNeighborhoodkernelclustering.m`, a lab upload); the paper's own
//! equation numbers could not be checked here.
//!
//! # Algorithm (block coordinate descent; every step exact)
//! 0. Kernels centred, then unit diagonal ([`Preprocessing`](crate::Preprocessing)); M computed once.
//! 1. γ = 1/m; H = top-k eigenvectors of `K_γ`; G by the G-step below. (The authors'
//!    file passes an undefined `rhon` here; ρ is used.)
//! 2. Iteration t:
//!    - H-step: H = the top-k eigenvectors of G (free: see [`projection`]);
//!    - γ-step: `min_{γ ∈ Δ} ½ γᵀ (ρ + λ) M γ − ρ Σ_p γ_p tr(K_p G)` — the terms of the
//!      objective that depend on γ — solved exactly ([`crate::simplex_qp`]; the authors
//!      use quadprog), weights below 1e-8 set to 0 and renormalised;
//!    - G-step: `G = Π_PSD(K_γ − (1/ρ)(I − HHᵀ))` by a full eigendecomposition
//!      ([`projection`]);
//!    - the objective after the three steps, recorded ([`objective`]). Each step
//!      minimises the objective over its block, so the trace never increases (up to the
//!      1e-8 clean-up of γ).
//!    - Stop from the third iteration on when `|obj_{t−1} − obj_t| / |obj_{t−1}| < tol`
//!      (1e-3; the authors divide by `obj_{t−1}` without the absolute value), or after
//!      `max_iter` (51) iterations.
//! 3. Labels: rows of the last H normalised, k-means (10 replicates; [`crate::labels`]).
//!
//! Cost: one O(n³) eigendecomposition per iteration (≈ 1.6 s at n = 2000 on one core
//! of this machine when idle; block Lanczos instead when G has low rank, see
//! [`Projection`]) plus O(m n²) for the QP inputs and the objective; memory: G, A, the
//! eigenvectors and `K_γ` (four n x n matrices) besides the kernels.
//!
//! Steps 0 and 1 (preprocessing, M, the first H and G) do not depend on λ: a grid over
//! λ computes them once per ρ ([`Onkc::start_for`]) and fits each λ from them
//! ([`Onkc::fit_restarts_from`], the same runs bit for bit; module `shared`).
//!
//! # Hyper-parameters
//! ρ and λ ([`OnkcParams`]) have no defaults in the paper; the authors' demo reports the
//! best of ρ ∈ {2^-7, …, 2^9} × λ ∈ {2^-6, …, 2^7} (each metric maximised separately);
//! the SimpleMKKM authors' Flower17 script calls ρ = λ = 1, our default.

mod params;
pub mod projection;
mod shared;
#[cfg(test)]
mod tests;

use std::time::Instant;

use faer::{Mat, MatRef};
use mkc_core::{Error, Result};

use crate::fit::{converged_entry, FamilyDiagnostics, KernelFit, MethodDiagnostics, StopRule};
use crate::mkkm_mir::regularisation_matrix;
use crate::simplex_qp::{quadratic_form, simplex_weights};
use projection::{neighbourhood_kernel, Neighbourhood};

pub use params::OnkcParams;
pub use projection::Projection;
pub use shared::OnkcStart;

/// ONKC's own diagnostics: the G-steps' projections.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Projections {
    /// Full eigendecompositions made (G-steps with [`Projection::Dense`] or a rank of G
    /// above n/6; the other G-steps use block Lanczos).
    pub eigendecompositions: usize,
    /// Rank of G after every G-step (eigenvalues kept by the projection).
    pub rank_trace: Vec<usize>,
}

impl MethodDiagnostics for Projections {
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        let iters = all.weight_trace.len().saturating_sub(1).max(1) as f64;
        let own = &all.method;
        vec![
            converged_entry(all.converged),
            ("eigendecompositions".into(), own.eigendecompositions as f64),
            (
                "seconds_per_iteration".into(),
                all.optimisation_time.as_secs_f64() / iters,
            ),
            (
                "rank".into(),
                own.rank_trace.last().copied().unwrap_or(0) as f64,
            ),
        ]
    }
}

/// Diagnostics of an ONKC run: `converged` (the relative change fell below `tol`
/// before `max_iter`), the G-steps (`eigensolves`: all of them, dense or low-rank;
/// `eigen_time`: their time), γ at the start and after every γ-step (`weight_trace`),
/// the projections and the times. Entries: `converged` (0 or 1),
/// `eigendecompositions`, `seconds_per_iteration` and `rank` (of the final G).
pub type OnkcDiagnostics = FamilyDiagnostics<Projections>;

/// What ONKC computes besides γ and H ([`OnkcFit`]'s `extra`).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Neighbourhoods {
    /// The optimal neighbourhood kernel G of the last iteration.
    pub g: Mat<f64>,
    /// `M_pq = tr(K_p K_q)` of the preprocessed kernels.
    pub m: Mat<f64>,
}

/// Result of the ONKC optimisation ([`Onkc::fit_kernels`]), before the seeded k-means:
/// γ on the simplex (`K_γ = Σ_p γ_p K_p`), the H of the last iteration (top-k
/// eigenvectors of the G before the last G-step, as the authors return), the objective
/// after every iteration (non-increasing), and G and M in `extra`.
pub type OnkcFit = KernelFit<Projections, Neighbourhoods>;

/// The ONKC objective `tr(G (I − HHᵀ)) + (ρ/2) ‖G − K_γ‖²_F + (λ/2) γᵀ M γ`, with the
/// combined kernel `k_gamma = Σ_p γ_p K_p` given.
pub fn objective(
    g: MatRef<'_, f64>,
    h: MatRef<'_, f64>,
    k_gamma: MatRef<'_, f64>,
    gamma: &[f64],
    m: MatRef<'_, f64>,
    rho: f64,
    lambda: f64,
) -> Result<f64> {
    let n = g.nrows();
    let trace_g: f64 = (0..n).map(|i| g[(i, i)]).sum();
    let aligned = mkc_linalg::trace_quadratic(g, h)?;
    let dist: f64 = (0..n)
        .flat_map(|j| (0..n).map(move |i| (i, j)))
        .map(|(i, j)| (g[(i, j)] - k_gamma[(i, j)]).powi(2))
        .sum();
    let value = trace_g - aligned + 0.5 * rho * dist + 0.5 * lambda * quadratic_form(m, gamma);
    if !value.is_finite() {
        return Err(Error::numerical("ONKC", "non-finite objective"));
    }
    Ok(value)
}

/// The state between iterations.
#[derive(Clone, Debug)]
struct State {
    gamma: Vec<f64>,
    h: Mat<f64>,
    nb: Neighbourhood,
    k_gamma: Mat<f64>,
}

/// The checks, M and step 1 done ([`Onkc::begin`]).
#[derive(Debug)]
struct Begun {
    reg: Mat<f64>,
    state: State,
    diag: OnkcDiagnostics,
}

crate::engine_entry! {
    /// Checked ONKC parameters (from [`OnkcParams`] through
    /// [`ParamGuard::check`](mkc_core::ParamGuard::check)); fits through
    /// [`mkc_core::Clusterer`] (registry name `"onkc"`): the alternation on every kernel of
    /// the set (preprocessed first), then k-means with the seed on the row-normalised H.
    /// Weights: γ on the simplex, combined kernel `Σ_p γ_p K_p` (linear). Objective: the
    /// ONKC objective ([`objective`]) after every iteration, minimised (non-increasing).
    /// Restarts optimise once and run only the k-means per seed.
    pub struct Onkc(OnkcParams) => OnkcFit
}

impl Onkc {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<OnkcFit> {
        let Begun { reg, state, diag } = self.begin(views, n_clusters)?;
        self.iterate(views, n_clusters, reg, state, diag)
    }

    /// What comes before the iterations and does not depend on λ: the checks, M and
    /// step 1 ([`Onkc::start`]).
    fn begin(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<Begun> {
        let n = views[0].nrows();
        mkc_core::validate::n_clusters(n_clusters, n, 1)?;
        let reg = regularisation_matrix(views)?;
        let mut diag = OnkcDiagnostics::default();
        let state = self.start(views, n_clusters, &mut diag)?;
        Ok(Begun { reg, state, diag })
    }

    /// Step 2 from the state after step 1 (`reg` = M), then the fit.
    fn iterate(
        &self,
        views: &[MatRef<'_, f64>],
        n_clusters: usize,
        reg: Mat<f64>,
        mut st: State,
        mut diag: OnkcDiagnostics,
    ) -> Result<OnkcFit> {
        let p = &self.params;
        let n = views[0].nrows();
        if st.k_gamma.nrows() != n {
            // a shared start keeps no K_γ: every iteration overwrites it before use
            st.k_gamma = Mat::zeros(n, n);
        }
        let q = Mat::from_fn(reg.nrows(), reg.ncols(), |i, j| {
            (p.rho + p.lambda) * reg[(i, j)]
        });
        let mut trace: Vec<f64> = Vec::new();
        while trace.len() < p.max_iter {
            // H-step (from the last decomposition), γ-step, G-step.
            st.h = st.nb.top.clone();
            let c = views
                .iter()
                .map(|k| Ok(-p.rho * mkc_linalg::frobenius_inner(*k, st.nb.g.as_ref())?))
                .collect::<Result<Vec<f64>>>()?;
            st.gamma = simplex_weights(q.as_ref(), &c, Some(&st.gamma), p.zero_weight, "ONKC")?;
            mkc_linalg::weighted_sum_into(st.k_gamma.as_mut(), &st.gamma, views)?;
            st.nb = self.g_step(&st, n_clusters, &mut diag)?;
            let value = objective(
                st.nb.g.as_ref(),
                st.h.as_ref(),
                st.k_gamma.as_ref(),
                &st.gamma,
                reg.as_ref(),
                p.rho,
                p.lambda,
            )?;
            trace.push(value);
            diag.weight_trace.push(st.gamma.clone());
            if StopRule::previous(p.tol).holds(&trace) {
                diag.converged = true;
                break;
            }
        }
        let extra = Neighbourhoods { g: st.nb.g, m: reg };
        Ok(OnkcFit::per_value(st.gamma, st.h, trace, diag, extra))
    }

    /// Step 1: γ = 1/m, H = top-k eigenvectors of `K_γ`, G for them.
    fn start(
        &self,
        views: &[MatRef<'_, f64>],
        k: usize,
        diag: &mut OnkcDiagnostics,
    ) -> Result<State> {
        let m = views.len();
        let n = views[0].nrows();
        let gamma = vec![1.0 / m as f64; m];
        let mut k_gamma = Mat::zeros(n, n);
        mkc_linalg::weighted_sum_into(k_gamma.as_mut(), &gamma, views)?;
        let h = mkc_linalg::eigen::top_k(k_gamma.as_ref(), k, &self.params.eigen)?.vectors;
        diag.weight_trace.push(gamma.clone());
        let mut st = State {
            gamma,
            nb: Neighbourhood {
                g: Mat::zeros(0, 0),
                top: Mat::zeros(0, 0),
                top_values: Vec::new(),
                rank: 0,
                dense: false,
            },
            h,
            k_gamma,
        };
        st.nb = self.g_step(&st, k, diag)?;
        Ok(st)
    }

    /// The G-step at the state's `K_γ` and H, counted and timed.
    fn g_step(&self, st: &State, k: usize, diag: &mut OnkcDiagnostics) -> Result<Neighbourhood> {
        let t = Instant::now();
        let p = &self.params;
        let hint = diag.method.rank_trace.last().copied().unwrap_or(0);
        let nb = neighbourhood_kernel(
            st.k_gamma.as_ref(),
            st.h.as_ref(),
            p.rho,
            k,
            p.projection,
            hint,
            &p.eigen,
        )?;
        diag.eigen_time += t.elapsed();
        diag.eigensolves += 1;
        diag.method.eigendecompositions += usize::from(nb.dense);
        diag.method.rank_trace.push(nb.rank);
        Ok(nb)
    }
}

crate::clusterer_by_relaxation!(Onkc, OnkcDiagnostics, "onkc", "ONKC");
