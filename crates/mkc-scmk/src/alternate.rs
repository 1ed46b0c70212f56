//! The alternating loop shared by Algorithm 1 (SCSK, fixed weights) and Algorithm 2
//! (SCMK, weights learned by eq. (22)), and the final k-means on P.
//!
//! Per iteration, in the authors' order: (1) K_w = Σ w_i K^i (17); (2) P = the c
//! eigenvectors of the smallest eigenvalues of L = D − (Z + Zᵀ)/2 (8), warm-started from
//! the previous P; (3) every column of Z by (11), warm-started from the previous Z;
//! (4)–(5) h by (20) and w by (22) (SCMK only); stop after at least `min_iter`
//! iterations when ‖Z − Z_old‖_F / ‖Z_old‖_F < `tol`, or at `max_iter`.
//! Z starts at the identity (the authors' code; the paper says "random"), w at 1/r.
//! With Z = I the first Laplacian is 0, so the first P is whatever orthonormal basis
//! the eigensolver returns (seeded by the eigensolver options, not by the fit's seed);
//! its effect is O(β). The loop is deterministic; only the final k-means on P uses the
//! fit's seed.

use std::time::Instant;

use faer::{Mat, MatRef};
use mkc_core::{Result, Timings};
use mkc_linalg::{eigen, laplacian, weighted_sum_into, EigenPairs};

use crate::fit::{TwinFit, TwinInfo};
use crate::labels::kmeans_on_indicator;
use crate::objective::assemble;
use crate::params::Settings;
use crate::step_sizes::StepSizes;
use crate::support::ColumnSupport;
use crate::weights::{costs, optimal_weights};
use crate::z_solvers::ZSolvers;

/// Where the alternating loop ends: the last Z, the P of its Z step, the weights and the
/// traces (the k-means on P not yet run).
#[derive(Debug, Clone)]
pub(crate) struct Loop {
    pub z: Mat<f64>,
    pub p: Mat<f64>,
    pub w: Vec<f64>,
    pub info: TwinInfo,
}

/// The P step (8): the bottom-c eigenvectors of L = D − (Z + Zᵀ)/2, warm-started from
/// the previous P when there is one.
fn p_step(
    z: MatRef<'_, f64>,
    prev: Option<&Mat<f64>>,
    n_clusters: usize,
    s: &Settings,
) -> Result<EigenPairs> {
    let n = z.nrows();
    let sym = Mat::from_fn(n, n, |i, j| 0.5 * (z[(i, j)] + z[(j, i)]));
    let l = laplacian(sym.as_ref())?;
    match prev {
        Some(p0) => eigen::bottom_k_warm(l.as_ref(), p0.as_ref(), &s.eigen),
        None => eigen::bottom_k(l.as_ref(), n_clusters, &s.eigen),
    }
}

/// Run the loop on validated kernels (all n x n, n ≥ `n_clusters`), from the step sizes
/// `steps` when given (those of `kernels` under `s`). Phases charged to `timings`: "init"
/// (the Z solvers, their step sizes unless given), "eigensolve" (K_w and the P step), "z"
/// (the Z step), "weights" (h, w and J; "objective" for SCSK, which learns no weights).
pub(crate) fn alternate(
    s: &Settings,
    kernels: &[MatRef<'_, f64>],
    learn_weights: bool,
    n_clusters: usize,
    steps: Option<&StepSizes>,
    timings: &mut Timings,
) -> Result<Loop> {
    let n = kernels[0].nrows();
    let r = kernels.len();
    let solvers = timings.time("init", || ZSolvers::new(s, kernels, learn_weights, steps))?;
    let last_phase = if learn_weights {
        "weights"
    } else {
        "objective"
    };
    let mut w = vec![1.0 / r as f64; r];
    let mut z = Mat::<f64>::identity(n, n);
    let mut kw = Mat::<f64>::zeros(n, n);
    let mut p: Option<Mat<f64>> = None;
    let mut info = TwinInfo::default();
    info.weights_trace.push(w.clone());
    for t in 1..=s.max_iter {
        let clock = Instant::now();
        // (1) K_w (17); a single fixed kernel is used in place.
        let k: MatRef<'_, f64> = if solvers.single() {
            kernels[0]
        } else {
            weighted_sum_into(kw.as_mut(), &w, kernels)?;
            kw.as_ref()
        };
        // (2) P, (3) Z.
        let eig = p_step(z.as_ref(), p.as_ref(), n_clusters, s)?;
        let t_eig = clock.elapsed().as_secs_f64();
        let step = solvers.step(k, eig.vectors.as_ref(), z.as_ref(), &w)?;
        let t_z = clock.elapsed().as_secs_f64();
        // (4)–(5) h (20) and w (22).
        let supp = ColumnSupport::new(step.z.as_ref());
        let h = costs(kernels, step.z.as_ref(), &supp);
        if learn_weights {
            w = optimal_weights(&h)?;
        }
        let obj = assemble(&h, &w, &supp, eig.vectors.as_ref(), s.alpha, s.beta);
        let rel = rel_change(step.z.as_ref(), z.as_ref());
        let secs = [t_eig, t_z - t_eig, clock.elapsed().as_secs_f64() - t_z];
        for (phase, sec) in ["eigensolve", "z", last_phase].into_iter().zip(secs) {
            timings.add(phase, sec);
        }
        info.iterations = t;
        info.objective.push(obj.total);
        info.rel_change.push(rel);
        info.weights_trace.push(w.clone());
        info.max_kkt_violation.push(step.max_kkt_violation);
        info.qp_converged.push(step.converged);
        info.qp_pair_updates.push(step.pair_updates);
        info.apg_iterations.push(step.apg_iterations);
        info.z_nnz.push(supp.nnz());
        info.seconds.push(secs);
        info.costs = h;
        info.eigenvalues = eig.values;
        z = step.z;
        p = Some(eig.vectors);
        if t >= s.min_iter && rel < s.tol {
            info.converged = true;
            break;
        }
    }
    // max_iter ≥ 1 (checked), so P exists.
    let p = p.unwrap_or_else(|| Mat::zeros(n, n_clusters));
    Ok(Loop { z, p, w, info })
}

/// The labels of a finished loop: k-means on the rows of P with `seed` (phase "kmeans").
pub(crate) fn finish(
    lp: Loop,
    s: &Settings,
    n_clusters: usize,
    seed: u64,
    timings: &mut Timings,
) -> Result<TwinFit> {
    let (labels, inertia) = timings.time("kmeans", || {
        kmeans_on_indicator(lp.p.as_ref(), s, n_clusters, seed)
    })?;
    let mut info = lp.info;
    info.kmeans_inertia = inertia;
    Ok(TwinFit {
        labels,
        z: lp.z,
        p: lp.p,
        weights: lp.w,
        info,
    })
}

/// ‖a − b‖_F / ‖b‖_F (‖b‖_F > 0 for every iterate: each column sums to 1).
fn rel_change(a: MatRef<'_, f64>, b: MatRef<'_, f64>) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for j in 0..a.ncols() {
        for (x, y) in a.col(j).iter().zip(b.col(j).iter()) {
            num += (x - y) * (x - y);
            den += y * y;
        }
    }
    (num / den).sqrt()
}
