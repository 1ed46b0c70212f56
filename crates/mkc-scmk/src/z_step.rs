//! The Z step: for fixed P (and K), every column of Z solves the capped-simplex QP (11)
//!
//! min_z zᵀ(αI + K)z + (β/2 · d_i − 2K_{:,i})ᵀz  s.t. 1ᵀz = 1, 0 ≤ z ≤ 1,
//!
//! with d_ij = ‖P_{i,:} − P_{j,:}‖². In mkc-qp's form ½zᵀQz + cᵀz: Q = 2(αI + K) (shared
//! by all n problems) and c_i = β/2 · d_i − 2K_{:,i} (column i of C = β/2 · D − 2K, D built
//! from one product P·Pᵀ).
//!
//! # Solver choice
//! The issue suggests an accelerated projected gradient over the whole Z; we use
//! mkc-qp's pairwise SMO batch solver instead ([`CappedSimplexSolver::solve_batch`]):
//! columns solved in parallel, each warm-started from the previous iterate's column, to
//! the KKT tolerance `qp_tol` (default 1e-10, absolute, in units of the gradient of
//! (11)). For small α the columns are sparse, so a warm-started column needs only a
//! few O(n) pair updates and SMO reaches 1e-10 where a first-order method would crawl.
//! For large α (≳ 1 on AR) Z becomes dense and SMO needs O(nnz) pair updates per column,
//! which is slow (crate docs: measured costs); a whole-Z accelerated projected gradient
//! would suit that regime and is left for later.

use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Error, Result};
use mkc_qp::{CappedSimplexSolver, QpMatrix};

/// Result of one Z step.
#[derive(Debug, Clone)]
pub struct ZStep {
    /// The new Z (n x n), column i the minimiser of (11) for sample i.
    pub z: Mat<f64>,
    /// Σ_i of the objective (11) at the solution (eq. (7) minus tr K).
    pub objective: f64,
    /// Largest KKT violation over the columns.
    pub max_kkt_violation: f64,
    /// Total SMO pair updates.
    pub pair_updates: usize,
    /// Whether every column met the KKT tolerance.
    pub converged: bool,
}

/// Solve (11) for every column. `k` must be symmetric (it is symmetrised exactly here,
/// after validation), `p` is n x c, `warm` (n x n) the previous Z.
///
/// # Errors
/// Invalid `k` (not square, non-finite, not symmetric), `p` or `warm` of the wrong shape
/// or non-finite, α ≤ 0 or β < 0.
pub fn solve_z(
    k: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
    warm: Option<MatRef<'_, f64>>,
    solver: &CappedSimplexSolver,
) -> Result<ZStep> {
    let n = validate::kernel("K", k)?;
    validate::positive("alpha", alpha)?;
    validate::non_negative("beta", beta)?;
    if p.nrows() != n || p.ncols() == 0 {
        return Err(Error::shape(
            "P",
            format!("{n} x c with c >= 1"),
            format!("{} x {}", p.nrows(), p.ncols()),
        ));
    }
    validate::finite("P", p)?;
    if let Some(w) = warm {
        validate::dims("warm start", w, n, n)?;
        validate::finite("warm start", w)?;
    }
    z_step(k, p, alpha, beta, warm, solver)
}

/// [`solve_z`] without validation (the caller validated once).
pub(crate) fn z_step(
    k: MatRef<'_, f64>,
    p: MatRef<'_, f64>,
    alpha: f64,
    beta: f64,
    warm: Option<MatRef<'_, f64>>,
    solver: &CappedSimplexSolver,
) -> Result<ZStep> {
    let n = k.nrows();
    // Q = 2(αI + K), exactly symmetric.
    let q = Mat::from_fn(n, n, |i, j| {
        let s = k[(i, j)] + k[(j, i)];
        if i == j {
            s + 2.0 * alpha
        } else {
            s
        }
    });
    // C = β/2 · D − 2K with D_ij = r_i + r_j − 2(PPᵀ)_ij, r_i = ‖P_i‖².
    let mut c = Mat::<f64>::zeros(n, n);
    if beta > 0.0 {
        faer::linalg::matmul::matmul(
            c.as_mut(),
            Accum::Replace,
            p,
            p.transpose(),
            1.0,
            Par::rayon(0),
        );
    }
    let r: Vec<f64> = (0..n).map(|i| c[(i, i)]).collect();
    for j in 0..n {
        for i in 0..n {
            let d = (r[i] + r[j] - 2.0 * c[(i, j)]).max(0.0);
            c[(i, j)] = 0.5 * beta * d - (k[(i, j)] + k[(j, i)]);
        }
    }
    let qm = QpMatrix::new(q.as_ref())?;
    let sol = solver.solve_batch(&qm, c.as_ref(), warm)?;
    Ok(ZStep {
        objective: sol.objective.iter().sum(),
        max_kkt_violation: sol.max_kkt_violation(),
        pair_updates: sol.n_iter.iter().sum(),
        converged: sol.all_converged(),
        z: sol.z,
    })
}
