//! The alternating loop shared by Algorithm 1 (SCSK, fixed weights) and Algorithm 2
//! (SCMK, weights learned by eq. (22)).
//!
//! Per iteration, in the authors' order: (1) K_w = Σ w_i K^i (17); (2) P = the c
//! eigenvectors of the smallest eigenvalues of L = D − (Z + Zᵀ)/2 (8), warm-started from
//! the previous P; (3) every column of Z by (11), warm-started from the previous Z;
//! (4)–(5) h by (20) and w by (22) (SCMK only); stop after at least `min_iter`
//! iterations when ‖Z − Z_old‖_F / ‖Z_old‖_F < `tol`, or at `max_iter`.
//! Z starts at the identity (the authors' code; the paper says "random"), w at 1/r.
//! With Z = I the first Laplacian is 0, so the first P is whatever orthonormal basis
//! the eigensolver returns (seeded); its effect is O(β).

use std::time::Instant;

use faer::{Mat, MatRef};
use mkc_core::{ParamGuard, Result};
use mkc_linalg::{eigen, laplacian, weighted_sum_into};
use mkc_qp::CappedSimplexQp;

use crate::apg::{SmoSolvers, SMO_BUDGET_DIV};
use crate::fit::{TwinFit, TwinInfo};
use crate::labels::kmeans_on_indicator;
use crate::lipschitz::tangent_lambda_max;
use crate::objective::assemble;
use crate::params::Settings;
use crate::params::APG_MAX_ITER;
use crate::support::ColumnSupport;
use crate::weights::{costs, optimal_weights};
use crate::z_step::{z_step_apg, z_step_smo, ZSolver};

/// Run the loop on validated kernels (all n x n, n ≥ c).
pub(crate) fn alternate(
    s: &Settings,
    kernels: &[MatRef<'_, f64>],
    learn_weights: bool,
) -> Result<TwinFit> {
    let n = kernels[0].nrows();
    let r = kernels.len();
    let mut qp = CappedSimplexQp::new(1.0).tol(s.qp_tol);
    if let Some(m) = s.qp_max_iter {
        qp = qp.max_iter(m);
    }
    let solver = qp.check()?;
    // `Auto` gives SMO the sparse-start columns, with a budget of n / SMO_BUDGET_DIV pair
    // updates each (unless the user capped them) while the projected equality-
    // constrained start has not been computed: a column whose solution turns out much
    // denser than its start (α = 0.1 on AR, α ≳ 1 on BA: thousands of O(n) updates) is
    // finished by APG from that start instead (apg::SmoSolvers).
    let smo_capped = match s.qp_max_iter {
        Some(_) => solver,
        None => qp.max_iter((n / SMO_BUDGET_DIV).max(1)).check()?,
    };
    // APG step sizes: λ_max(ΠK^iΠ) once per kernel (lipschitz module).
    let lams: Vec<f64> = match s.z_solver {
        ZSolver::Apg | ZSolver::Auto => kernels
            .iter()
            .map(|k| tangent_lambda_max(*k, s.seed))
            .collect::<Result<_>>()?,
        ZSolver::Smo => Vec::new(),
    };
    let apg_max_iter = s.qp_max_iter.unwrap_or(APG_MAX_ITER);

    let mut w = vec![1.0 / r as f64; r];
    let mut z = Mat::<f64>::identity(n, n);
    let mut kw = Mat::<f64>::zeros(n, n);
    let mut p: Option<Mat<f64>> = None;
    let mut info = TwinInfo::default();
    info.weights_trace.push(w.clone());

    for t in 1..=s.max_iter {
        let clock = Instant::now();
        // (1) K_w (17); a single fixed kernel is used in place.
        let k: MatRef<'_, f64> = if r == 1 && !learn_weights {
            kernels[0]
        } else {
            weighted_sum_into(kw.as_mut(), &w, kernels)?;
            kw.as_ref()
        };
        // (2) P from L = D − (Z + Zᵀ)/2.
        let sym = Mat::from_fn(n, n, |i, j| 0.5 * (z[(i, j)] + z[(j, i)]));
        let l = laplacian(sym.as_ref())?;
        let eig = match &p {
            Some(p0) => eigen::bottom_k_warm(l.as_ref(), p0.as_ref(), &s.eigen)?,
            None => eigen::bottom_k(l.as_ref(), s.n_clusters, &s.eigen)?,
        };
        let p_t = eig.vectors;
        let t_eig = clock.elapsed().as_secs_f64();
        // (3) Z by (11).
        let step = match s.z_solver {
            ZSolver::Smo => {
                z_step_smo(k, p_t.as_ref(), s.alpha, s.beta, Some(z.as_ref()), &solver)?
            }
            ZSolver::Apg | ZSolver::Auto => {
                // λ_max(ΠK_wΠ) ≤ Σ w_i λ_max(ΠK^iΠ) (w ≥ 0).
                let lam = if r == 1 && !learn_weights {
                    lams[0]
                } else {
                    w.iter().zip(&lams).map(|(a, b)| a * b).sum()
                };
                let smo = (s.z_solver == ZSolver::Auto).then_some(SmoSolvers {
                    exact: &solver,
                    capped: &smo_capped,
                });
                z_step_apg(
                    k,
                    p_t.as_ref(),
                    s.alpha,
                    s.beta,
                    Some(z.as_ref()),
                    lam,
                    s.qp_tol,
                    apg_max_iter,
                    smo,
                )?
            }
        };
        let t_z = clock.elapsed().as_secs_f64();
        // (4)–(5) h (20) and w (22).
        let supp = ColumnSupport::new(step.z.as_ref());
        let h = costs(kernels, step.z.as_ref(), &supp);
        if learn_weights {
            w = optimal_weights(&h)?;
        }
        let obj = assemble(&h, &w, &supp, p_t.as_ref(), s.alpha, s.beta);
        let rel = rel_change(step.z.as_ref(), z.as_ref());

        info.iterations = t;
        info.objective.push(obj.total);
        info.rel_change.push(rel);
        info.weights_trace.push(w.clone());
        info.max_kkt_violation.push(step.max_kkt_violation);
        info.qp_converged.push(step.converged);
        info.qp_pair_updates.push(step.pair_updates);
        info.apg_iterations.push(step.apg_iterations);
        info.z_nnz.push(supp.nnz());
        info.seconds
            .push([t_eig, t_z - t_eig, clock.elapsed().as_secs_f64() - t_z]);
        info.costs = h;
        info.eigenvalues = eig.values;
        z = step.z;
        p = Some(p_t);
        if t >= s.min_iter && rel < s.tol {
            info.converged = true;
            break;
        }
    }
    // max_iter ≥ 1 (checked), so P exists.
    let p = p.unwrap_or_else(|| Mat::zeros(n, s.n_clusters));
    let (labels, inertia) = kmeans_on_indicator(p.as_ref(), s)?;
    info.kmeans_inertia = inertia;
    Ok(TwinFit {
        labels,
        z,
        p,
        weights: w,
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
