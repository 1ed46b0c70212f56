//! LF-MVC (Wang, Liu, Zhu, Tang, Liu, Hu, Xia & Yin, *Multi-view Clustering via Late
//! Fusion Alignment Maximization*, IJCAI 2019), a baseline of SimpleMKKM's Table 2.
//!
//! Late fusion: each kernel K_p gives a base partition H_p (its top-k eigenvectors), and
//! the consensus H maximises its alignment with the rotated base partitions,
//!
//! `max_{H, W_p, β} tr(Hᵀ Σ_p β_p H_p W_p) + λ tr(Hᵀ H_0)`
//! s.t. `HᵀH = I_k`, `W_pᵀW_p = I_k`, `β ≥ 0`, `‖β‖₂ = 1`,
//!
//! with H_0 the top-k eigenvectors of the average kernel (the paper's M). Block ascent:
//! H and every W_p are orthogonal Procrustes problems, `max_{QᵀQ = I} tr(Qᵀ M) = ‖M‖_*`
//! at `Q = U Vᵀ` from the thin SVD `M = U S Vᵀ` ([`procrustes`]): H from
//! `M = Σ_p β_p H_p W_p + λ H_0`, W_p from `M = H_pᵀ H`; then `β = c / ‖c‖₂` with
//! `c_p = tr(Hᵀ H_p W_p)`. Each step maximises its block, so the objective never
//! decreases (the paper's algorithm).
//!
//! As the authors' code (`multikernelLatefusionAlignmentclustering4.m`): β starts at
//! 1/m, W_p at I; W_p is not updated while `β_p ≤ 1e-4`; the objective recorded at
//! iteration t is `tr(Hᵀ Σ_p β_p H_p W_p) + λ tr(Hᵀ H_0)` after the three steps; the run
//! stops from the third iteration on when the relative change is below `tol` (1e-6), or
//! after `max_iter` (100) iterations.
//!
//! Choices written down here:
//! - The authors' code never resets the accumulator R of the H step
//!   (`R ← R + Σ_p β_p H_p W_p`, so λH_0 weighs about 1/t as much at iteration t);
//!   the paper uses `R = Σ_p β_p H_p W_p`. Default: the paper's (monotone);
//!   `accumulate = true` reproduces the code.
//! - Eigenvector signs: each base partition's columns are signed so that their
//!   largest-magnitude entry is positive (`mkc_linalg::eigen`'s convention; MATLAB's
//!   `eigs` signs cannot be matched). They matter for the first H, where all W_p = I.
//! - A negative `c_p` (possible only for a stale W_p) is taken as 0, keeping β ≥ 0.
//! - λ: the authors' demo searches 2^-15 … 2^15; SimpleMKKM's Flower17 script calls the
//!   method with λ = 2, our default.
//! - Kernels centred and scaled to unit diagonal first (the authors' `kcenter`,
//!   `knorm`); labels by k-means on the row-normalised H ([`crate::labels`]).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::linalg::matmul::matmul;
use faer::linalg::svd;
use faer::prelude::default;
use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Error, Result, WeightConstraint};

use crate::fit::{FamilyDiagnostics, KernelFit, StopRule};
use crate::objective::Objective;
use crate::params::check_stopping;

crate::family_params! {
    /// Parameters of LF-MVC, unchecked.
    ///
    /// ```
    /// use mkc_mkkm::prelude::*;
    /// assert!(LfMvcParams::new().lambda(0.5).validate_params().is_ok());
    /// assert!(LfMvcParams::new().lambda(-1.0).validate_params().is_err());
    /// ```
    pub struct LfMvcParams => LfMvc, "lf-mvc" {
        /// Weight λ ≥ 0 of the alignment with the average kernel's partition (the authors'
        /// grid 2^-15 … 2^15; the SimpleMKKM authors' Flower17 call: 2). Default 2.
        lambda: f64 = 2.0,
        /// Stop when the relative objective change is below this (from the third
        /// iteration). Default 1e-6 (authors).
        tol: f64 = 1e-6,
        /// Iteration cap. Default 100 (authors).
        max_iter: usize = 100,
        /// Accumulate the H step's matrix over iterations as the authors' code does
        /// (module docs). Default false (the paper's algorithm).
        accumulate: bool = false,
    }
    check(&self) {
        validate::non_negative("lambda", self.lambda)?;
        check_stopping(self.tol, self.max_iter)
    }
}

/// Diagnostics of an LF-MVC run: `converged` (the relative change fell below `tol`
/// before `max_iter`), the top-k eigensolves (m base partitions and the average
/// kernel's) and their time, β at the start and after every iteration
/// (`weight_trace`) and the times. Entries: `converged` (0 or 1).
pub type LfMvcDiagnostics = FamilyDiagnostics;

/// What LF-MVC computes besides β and H ([`LfMvcFit::extra`](KernelFit::extra)).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LatePartitions {
    /// The base partitions H_p (top-k eigenvectors of each kernel).
    pub base: Vec<Mat<f64>>,
    /// H_0, the top-k eigenvectors of the average kernel.
    pub h0: Mat<f64>,
    /// The rotations W_p (k x k, orthogonal).
    pub rotations: Vec<Mat<f64>>,
}

/// Result of the LF-MVC optimisation ([`LfMvc::fit_kernels`]), before the k-means: the
/// weights β of the base partitions (unit ℓ2 norm) in `gamma`, the consensus partition
/// H (n x k, orthonormal columns), the objective after each iteration, and the base
/// partitions, H_0 and the rotations in `extra`.
pub type LfMvcFit = KernelFit<(), LatePartitions>;

/// The orthogonal Procrustes step: `argmax_{QᵀQ = I} tr(Qᵀ M) = U Vᵀ` from the thin SVD
/// `M = U S Vᵀ` (M is r x k with r ≥ k).
pub fn procrustes(m: MatRef<'_, f64>) -> Result<Mat<f64>> {
    validate::finite("procrustes matrix", m)?;
    if m.nrows() < m.ncols() {
        return Err(Error::shape(
            "procrustes matrix",
            format!("at least {} rows", m.ncols()),
            format!("{} rows", m.nrows()),
        ));
    }
    // faer's low-level SVD with sequential parallelism, so the result does not depend
    // on the number of threads.
    let (r, k) = m.shape();
    let (mut u, mut v) = (Mat::<f64>::zeros(r, k), Mat::<f64>::zeros(k, k));
    let mut s = faer::diag::Diag::<f64>::zeros(k);
    let (thin, par) = (svd::ComputeSvdVectors::Thin, Par::Seq);
    let mut buf = MemBuffer::new(svd::svd_scratch::<f64>(r, k, thin, thin, par, default()));
    svd::svd(
        m,
        s.as_mut(),
        Some(u.as_mut()),
        Some(v.as_mut()),
        par,
        MemStack::new(&mut buf),
        default(),
    )
    .map_err(|e| Error::numerical("procrustes", format!("SVD failed: {e:?}")))?;
    let mut q = Mat::<f64>::zeros(r, k);
    matmul(
        q.as_mut(),
        Accum::Replace,
        u.as_ref(),
        v.transpose(),
        1.0,
        par,
    );
    Ok(q)
}

/// `tr(Aᵀ B)` for matrices of the same shape.
pub(crate) fn inner(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..a.ncols() {
        for i in 0..a.nrows() {
            s += a[(i, j)] * b[(i, j)];
        }
    }
    s
}

/// `Aᵀ B`.
fn at_b(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    a_b(a.transpose(), b)
}

/// `A B` (sequential: the same bits for any number of threads).
fn a_b(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> Mat<f64> {
    let mut out = Mat::<f64>::zeros(a.nrows(), b.ncols());
    matmul(out.as_mut(), Accum::Replace, a, b, 1.0, Par::Seq);
    out
}

/// The alignment objective at (H, W, β).
fn alignment(
    h: MatRef<'_, f64>,
    rotated: &[Mat<f64>],
    beta: &[f64],
    h0: MatRef<'_, f64>,
    lambda: f64,
) -> f64 {
    let fused: f64 = rotated
        .iter()
        .zip(beta)
        .map(|(hw, b)| b * inner(h, hw.as_ref()))
        .sum();
    fused + lambda * inner(h, h0)
}

crate::engine_entry! {
    /// Checked LF-MVC parameters; fits through [`mkc_core::Clusterer`] (registry name
    /// `"lf-mvc"`): base partitions of every kernel of the set (preprocessed first), the
    /// alignment maximisation, then k-means with the seed on the row-normalised H.
    /// Weights: β of unit ℓ2 norm. Objective: the alignment after each iteration
    /// (maximised; non-decreasing unless `accumulate`). Restarts compute H once.
    pub struct LfMvc(LfMvcParams) => LfMvcFit
}

impl LfMvc {
    fn optimise(&self, views: &[MatRef<'_, f64>], n_clusters: usize) -> Result<LfMvcFit> {
        let p = &self.params;
        let m = views.len();
        let mut obj = Objective::new(views, n_clusters, p.eigen.clone(), false)?;
        let mut base = Vec::with_capacity(m);
        for q in 0..m {
            let unit: Vec<f64> = (0..m).map(|r| f64::from(u8::from(r == q))).collect();
            base.push(obj.evaluate_linear(&unit, None)?.h);
        }
        let h0 = obj.evaluate_linear(&vec![1.0 / m as f64; m], None)?.h;
        let (n, k) = (h0.nrows(), n_clusters);
        let mut rotations = vec![Mat::<f64>::identity(k, k); m];
        let mut rotated: Vec<Mat<f64>> = base.clone();
        let mut beta = vec![1.0 / m as f64; m];
        let mut diag = LfMvcDiagnostics {
            weight_trace: vec![beta.clone()],
            ..Default::default()
        };
        let mut acc = Mat::<f64>::zeros(n, k);
        let mut trace: Vec<f64> = Vec::new();
        let mut h = h0.clone();
        while trace.len() < p.max_iter {
            // H step: Procrustes on Σ β_p H_p W_p (+ the past sums when accumulating) + λ H_0.
            if !p.accumulate {
                acc.fill(0.0);
            }
            for (hw, b) in rotated.iter().zip(&beta) {
                acc += hw * faer::Scale(*b);
            }
            h = procrustes((&acc + &h0 * faer::Scale(p.lambda)).as_ref())?;
            // W steps: Procrustes on H_pᵀ H, skipped while β_p ≤ 1e-4 (authors).
            for q in 0..m {
                if beta[q] > 1e-4 {
                    rotations[q] = procrustes(at_b(base[q].as_ref(), h.as_ref()).as_ref())?;
                    rotated[q] = a_b(base[q].as_ref(), rotations[q].as_ref());
                }
            }
            // β step: c / ‖c‖₂ with c_p = tr(Hᵀ H_p W_p) (negative c_p taken as 0).
            let c: Vec<f64> = rotated
                .iter()
                .map(|hw| inner(h.as_ref(), hw.as_ref()).max(0.0))
                .collect();
            let norm = c.iter().map(|v| v * v).sum::<f64>().sqrt();
            if !(norm > 0.0 && norm.is_finite()) {
                return Err(Error::numerical("LF-MVC", "every alignment vanished"));
            }
            beta = c.iter().map(|v| v / norm).collect();
            diag.weight_trace.push(beta.clone());
            trace.push(alignment(
                h.as_ref(),
                &rotated,
                &beta,
                h0.as_ref(),
                p.lambda,
            ));
            if StopRule::previous(p.tol).holds(&trace) {
                diag.converged = true;
                break;
            }
        }
        diag.count(obj.stats());
        let parts = LatePartitions {
            base,
            h0,
            rotations,
        };
        Ok(LfMvcFit::per_value(beta, h, trace, diag, parts))
    }
}

crate::clusterer_by_relaxation!(
    LfMvc,
    LfMvcDiagnostics,
    "lf-mvc",
    "LF-MVC",
    WeightConstraint::PNorm(2.0)
);
