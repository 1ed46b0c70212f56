//! LMKKM (Gönen & Margolin, *Localized Data Fusion for Kernel k-Means Clustering with
//! Application to Cancer Biology*, NIPS 2014), a baseline of SimpleMKKM's Table 2:
//! multiple kernel k-means with sample-specific (localised) kernel weights.
//!
//! With gating weights Θ ∈ R^{n×P} (row i: the weights of sample i on the simplex),
//! the combined kernel is `K_Θ = Σ_m (θ_m θ_mᵀ) ∘ K_m`, i.e.
//! `[K_Θ]_ij = Σ_m θ_im θ_jm [K_m]_ij`, and LMKKM solves
//!
//! `min_{H, Θ} tr(K_Θ (I − HHᵀ))`  s.t. `HᵀH = I_k`, `Θ ≥ 0`, `Θ 1_P = 1_n`
//!
//! by alternating (the authors' `lmkkmeans_train`): H = the top-k eigenvectors of K_Θ,
//! then the convex QP in Θ for fixed H ([`gating`]). Both steps minimise the same
//! objective, so its trace never increases.
//!
//! As the authors' code: Θ starts at 1/P; a **fixed** number of iterations (their demo:
//! 10) without a convergence test; the objective recorded after each Θ step; the labels
//! come from the H of the last iteration, computed before the last Θ update.
//!
//! Choices written down here:
//! - The Θ-step: the authors give MOSEK's interior point the dense (nP)² QP matrix; we
//!   solve the same QP by FISTA with per-row simplex projection, applying the matrix
//!   without forming it ([`gating`]), to a projected-gradient step below `qp_tol`
//!   (1e-6; at most `qp_max_iter` = 500 iterations), warm-started from the previous Θ.
//!   The QP is convex but not strictly so: where its minimiser is not unique, MOSEK's
//!   central solution and ours may differ (and with them the next H).
//! - The weights reported ([`mkc_core::KernelWeights`], on the simplex) are the mean
//!   gating weight of each kernel over the samples (columns means of the final Θ); Θ
//!   itself is in the fit's `extra` ([`LmkkmFit`]).
//! - Kernels centred and scaled to unit diagonal first (the SimpleMKKM experiments'
//!   `kcenter`, `knorm`; LMKKM itself does none); labels by k-means on the
//!   row-normalised H ([`crate::labels`]), as the SimpleMKKM authors score it.
//!
//! # Memory
//! The authors' QP matrix alone is `8 (nP)²` bytes (288 MB on Digit, 8.6 GB for n =
//! 8189, P = 4), and MOSEK factorises it. Here the memory is the kernels themselves
//! plus one n x n buffer: the caller's P kernels (`8 P n²` bytes, borrowed), their
//! preprocessed copies (`8 P n²`, none with [`Preprocessing::None`](crate::Preprocessing::None)), the buffer for
//! K_Θ (`8 n²`), and O(n (P + k)) vectors. With P = 3 in 24 GiB (25.77 GB): `56 n²`
//! bytes with preprocessing, so n ≤ 21 450; `32 n²` with kernels the caller has
//! already normalised (`Preprocessing::None`), so n ≤ 28 370. Checked with the example
//! `lmkkm_large_n` at n = 8189, P = 4 (Flower102's size, a '-' cell of SimpleMKKM's
//! Table 2): peak resident memory 4.87 GB against the model's 4.83 GB (the authors' QP
//! matrix alone would be 8.6 GB); 2 iterations took 465 s on a loaded 2-core machine.
//! Each iteration costs one
//! top-k eigensolve of K_Θ and, per FISTA step, one product of every K_m with an n x k
//! matrix (`2 P k n²` flops).

pub mod gating;

use std::time::{Duration, Instant};

use faer::reborrow::ReborrowMut;
use faer::{Mat, MatMut, MatRef};
use mkc_core::{validate, Error, Result, WeightConstraint};
use rayon::prelude::*;

use crate::fit::{converged_entry, FamilyDiagnostics, KernelFit, MethodDiagnostics};
use crate::objective::Objective;
use gating::{GatingOperator, GatingSolver};

crate::family_params! {
    /// Parameters of LMKKM, unchecked.
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(LmkkmParams::new().iterations(20).validate_params().is_ok());
    /// assert!(LmkkmParams::new().qp_tol(0.0).validate_params().is_err());
    /// ```
    pub struct LmkkmParams => Lmkkm, "lmkkm" {
        /// Number of alternations, no convergence test (the authors' `iteration_count`;
        /// their demo: 10).
        iterations: usize = 10,
        /// Projected-gradient tolerance of each Θ-step QP (FISTA; the authors use MOSEK).
        /// Default 1e-6.
        qp_tol: f64 = 1e-6,
        /// FISTA iteration cap of each Θ-step QP. Default 500.
        qp_max_iter: usize = 500,
    }
    check(&self) {
        crate::params::at_least_one("iterations", self.iterations)?;
        crate::params::at_least_one("qp_max_iter", self.qp_max_iter)?;
        validate::positive("qp_tol", self.qp_tol)
    }
}

/// LMKKM's own diagnostics: the Θ-step QPs.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct GatingSteps {
    /// FISTA iterations of every Θ step.
    pub qp_iterations: Vec<usize>,
    /// The largest final projected-gradient step over the Θ steps.
    pub qp_residual: f64,
    /// Time in the Θ steps.
    pub qp_time: Duration,
}

impl MethodDiagnostics for GatingSteps {
    fn entries(all: &FamilyDiagnostics<Self>) -> Vec<(String, f64)> {
        let qp = &all.method;
        vec![
            converged_entry(all.converged),
            (
                "qp_iterations".into(),
                qp.qp_iterations.iter().sum::<usize>() as f64,
            ),
            ("qp_residual".into(), qp.qp_residual),
        ]
    }
}

/// Diagnostics of an LMKKM run: `converged` (every Θ-step QP reached `qp_tol`; the
/// alternation itself has no test), the eigensolves, the time forming K_Θ and in the
/// eigensolver (`eigen_time`), the mean gating weights at the start and after every Θ
/// step (`weight_trace`), the QPs and the times. Entries: `converged`,
/// `qp_iterations` (summed) and `qp_residual`.
pub type LmkkmDiagnostics = FamilyDiagnostics<GatingSteps>;

/// Result of the LMKKM alternation ([`Lmkkm::fit_kernels`]), before the k-means: the
/// mean gating weight of each kernel (column means of Θ) in `gamma`, H of the last
/// iteration (top-k eigenvectors of K_Θ before the last Θ step), `tr(K_Θ (I − HHᵀ))`
/// after each Θ step, and in `extra` the gating weights Θ (n x P, rows on the simplex)
/// after the last Θ step.
pub type LmkkmFit = KernelFit<GatingSteps, Mat<f64>>;

/// `out = K_Θ = Σ_m (θ_m θ_mᵀ) ∘ K_m`, formed in place: the lower triangle column by
/// column (in parallel), then mirrored, so the result is exactly symmetric (the upper
/// triangles of the kernels are not read).
pub fn gated_kernel_into(
    mut out: MatMut<'_, f64>,
    kernels: &[MatRef<'_, f64>],
    theta: MatRef<'_, f64>,
) -> Result<()> {
    let n = theta.nrows();
    validate::len("theta columns", theta.ncols(), kernels.len())?;
    if out.nrows() != n || out.ncols() != n || kernels.iter().any(|k| k.nrows() != n) {
        return Err(Error::shape("gated kernel", format!("{n} x {n}"), "other"));
    }
    out.rb_mut()
        .par_col_iter_mut()
        .enumerate()
        .for_each(|(j, mut col)| {
            for i in j..n {
                col[i] = kernels
                    .iter()
                    .enumerate()
                    .map(|(m, k)| (theta[(i, m)] * theta[(j, m)]) * k[(i, j)])
                    .sum();
            }
        });
    for j in 1..n {
        for i in 0..j {
            out[(i, j)] = out[(j, i)];
        }
    }
    Ok(())
}

crate::engine_entry! {
    /// Checked LMKKM parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"lmkkm"`): the alternation on every kernel of the set (preprocessed first), then
    /// k-means with the seed on the row-normalised H. Weights: the mean gating weight of
    /// each kernel (on the simplex). Objective: `tr(K_Θ (I − HHᵀ))` after each Θ step
    /// (minimised, non-increasing). Restarts compute Θ and H once.
    pub struct Lmkkm(LmkkmParams) => LmkkmFit
}

impl Lmkkm {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<LmkkmFit> {
        let p = &self.params;
        let (n, m) = (views[0].nrows(), views.len());
        let solver = GatingSolver {
            tol: p.qp_tol,
            max_iter: p.qp_max_iter,
            ..GatingSolver::default()
        };
        let mut obj = Objective::new(views, n_clusters, p.eigen.clone(), true)?;
        let mut theta = Mat::from_fn(n, m, |_, _| 1.0 / m as f64);
        let mut h: Option<Mat<f64>> = None;
        let mut lipschitz = None;
        let mut trace = Vec::with_capacity(p.iterations);
        let column_means = |theta: &Mat<f64>| -> Vec<f64> {
            (0..m)
                .map(|c| (0..n).map(|i| theta[(i, c)]).sum::<f64>() / n as f64)
                .collect()
        };
        let mut diag = LmkkmDiagnostics {
            converged: true,
            weight_trace: vec![column_means(&theta)],
            ..LmkkmDiagnostics::default()
        };
        for _ in 0..p.iterations {
            let fill = |buf: MatMut<'_, f64>, ks: &[MatRef<'_, f64>]| {
                gated_kernel_into(buf, ks, theta.as_ref())
            };
            let eval = obj.evaluate_with(fill, h.as_ref().map(|m| m.as_ref()))?;
            let tq = Instant::now();
            let op = GatingOperator::new(views, eval.h.as_ref());
            let sol = solver.solve(&op, theta.as_ref(), lipschitz)?;
            lipschitz = Some(sol.lipschitz);
            let qp = &mut diag.method;
            qp.qp_time += tq.elapsed();
            qp.qp_iterations.push(sol.iterations);
            qp.qp_residual = qp.qp_residual.max(sol.residual);
            diag.converged &= sol.converged;
            trace.push(sol.value);
            theta = sol.theta;
            diag.weight_trace.push(column_means(&theta));
            h = Some(eval.h);
        }
        let h = h.ok_or_else(|| Error::numerical("LMKKM", "no iteration was run"))?;
        let stats = obj.stats();
        diag.eigensolves = stats.eigensolves;
        diag.eigen_time = stats.eigen_time + stats.combine_time;
        let gamma = diag.weight_trace.last().cloned().unwrap_or_default();
        Ok(LmkkmFit::per_value(gamma, h, trace, diag, theta))
    }
}

crate::clusterer_by_relaxation!(
    Lmkkm,
    LmkkmDiagnostics,
    "lmkkm",
    "LMKKM",
    WeightConstraint::Simplex
);
