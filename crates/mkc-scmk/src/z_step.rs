//! The Z step: for fixed P (and K), every column of Z solves the capped-simplex QP (11)
//!
//! min_z zᵀ(αI + K)z + (β/2 · d_i − 2K_{:,i})ᵀz  s.t. 1ᵀz = 1, 0 ≤ z ≤ 1,
//!
//! with d_ij = ‖P_{i,:} − P_{j,:}‖². The linear terms are the columns of
//! C = β/2 · D − 2K (D from one product P·Pᵀ).
//!
//! # Solvers ([`ZSolver`])
//! - [`ZSolver::Apg`]: an accelerated projected gradient on the whole Z
//!   (`apg` module docs: step 1/(2(α + λ_max(ΠKΠ))), monotone FISTA with restart,
//!   sparse/dense products, warm start from the previous Z, also started from the
//!   projected equality-constrained minimiser when Z is dense), stopped when every
//!   column's KKT violation is at most `qp_tol`.
//! - [`ZSolver::Auto`] (default): the same, with the columns whose start has at most n/2
//!   non-zeros given to SMO (with a budget of n/4 pair updates when the projected start
//!   has not been computed; columns that exhaust it go back to APG, `apg::SmoSolvers`).
//! - [`ZSolver::Smo`]: mkc-qp's pairwise SMO batch solver (Q = 2(αI + K), exact to
//!   `qp_tol`, one QP per column, warm-started). Fast while Z is very sparse (small α),
//!   slow when Z is dense (α ≳ 1 on AR: ~2000 pair updates per column). Kept as the
//!   reference the APG path is tested against.
//!
//! Both report the same KKT measure: max_{z_j>0} g_j − min_{z_j<1} g_j with g the gradient
//! of (11), absolute, in the units of (11)'s gradient.

use faer::{Accum, Mat, MatRef, Par};
use mkc_core::{validate, Error, Result};
use mkc_qp::{CappedSimplexSolver, QpMatrix};

use crate::apg;

/// Which algorithm solves the column QPs (11) (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ZSolver {
    /// Accelerated projected gradient on the whole Z, every column (with the projected
    /// equality-constrained start when Z is dense).
    Apg,
    /// Pairwise SMO per column (mkc-qp), exact.
    Smo,
    /// APG, except that columns whose start has at most n/2 non-zeros are solved by SMO
    /// (default; the fastest on AR for every α of the grid, crate docs).
    #[default]
    Auto,
}

/// Result of one Z step.
#[derive(Debug, Clone)]
pub struct ZStep {
    /// The new Z (n x n), column i the minimiser of (11) for sample i.
    pub z: Mat<f64>,
    /// Σ_i of the objective (11) at the solution (eq. (7) minus tr K).
    pub objective: f64,
    /// Largest KKT violation over the columns.
    pub max_kkt_violation: f64,
    /// Total SMO pair updates (SMO, and the columns [`ZSolver::Auto`] gives to SMO).
    pub pair_updates: usize,
    /// APG iterations (the largest over the column blocks; 0 for SMO).
    pub apg_iterations: usize,
    /// Whether every column met the KKT tolerance.
    pub converged: bool,
}

/// P is n x c with c ≥ 1 and finite.
pub(crate) fn check_indicator(p: MatRef<'_, f64>, n: usize) -> Result<()> {
    if p.nrows() != n || p.ncols() == 0 {
        return Err(Error::shape(
            "P",
            format!("{n} x c with c >= 1"),
            format!("{} x {}", p.nrows(), p.ncols()),
        ));
    }
    validate::finite("P", p)
}

/// The data of one Z step (11), checked by [`solve_z`] and [`solve_z_apg`].
#[derive(Debug, Clone, Copy)]
pub struct ZProblem<'a> {
    /// The kernel K (n x n, symmetric; symmetrised exactly after validation).
    pub k: MatRef<'a, f64>,
    /// The indicator P (n x c, c ≥ 1) whose row distances give D.
    pub p: MatRef<'a, f64>,
    /// Trade-off α > 0 of ‖Z‖²_F.
    pub alpha: f64,
    /// Trade-off β ≥ 0 of the rank term tr(PᵀLP).
    pub beta: f64,
    /// The previous Z (n x n) as a warm start (`None`: cold).
    pub warm: Option<MatRef<'a, f64>>,
}

impl<'a> ZProblem<'a> {
    /// The problem (11) for K, P, α and β, started cold.
    pub fn new(k: MatRef<'a, f64>, p: MatRef<'a, f64>, alpha: f64, beta: f64) -> Self {
        ZProblem {
            k,
            p,
            alpha,
            beta,
            warm: None,
        }
    }

    /// The same problem warm-started from `z` (n x n; `None`: cold).
    #[must_use]
    pub fn with_warm(mut self, z: Option<MatRef<'a, f64>>) -> Self {
        self.warm = z;
        self
    }

    /// Validate every input (the errors of [`solve_z`]).
    fn check(&self) -> Result<()> {
        let n = validate::kernel("K", self.k)?;
        validate::positive("alpha", self.alpha)?;
        validate::non_negative("beta", self.beta)?;
        check_indicator(self.p, n)?;
        if let Some(w) = self.warm {
            validate::dims("warm start", w, n, n)?;
            validate::finite("warm start", w)?;
        }
        Ok(())
    }
}

/// Solve (11) for every column with SMO (exact to the solver's tolerance), warm-started
/// from `x.warm` when given.
///
/// # Errors
/// Invalid `k` (not square, non-finite, not symmetric), `p` or `warm` of the wrong shape
/// or non-finite, α ≤ 0 or β < 0.
pub fn solve_z(x: &ZProblem<'_>, solver: &CappedSimplexSolver) -> Result<ZStep> {
    x.check()?;
    z_step_smo(x, solver)
}

/// Solve (11) for every column with the accelerated projected gradient, to KKT
/// violation `tol` (> 0) or `max_iter` (≥ 1) iterations. Computes the step size
/// (λ_max(ΠKΠ), one small eigensolve); errors as [`solve_z`], plus invalid `tol` /
/// `max_iter`.
pub fn solve_z_apg(x: &ZProblem<'_>, tol: f64, max_iter: usize) -> Result<ZStep> {
    x.check()?;
    validate::positive("tol", tol)?;
    if max_iter == 0 {
        return Err(Error::param("max_iter", 0, "must be at least 1"));
    }
    let lam = crate::lipschitz::tangent_lambda_max(x.k, 0)?;
    z_step_apg(x, lam, tol, max_iter, None)
}

/// K exactly symmetrised, as an n² column-major vector.
fn symmetric_copy(k: MatRef<'_, f64>) -> Vec<f64> {
    let n = k.nrows();
    let mut v = vec![0.0; n * n];
    for j in 0..n {
        for i in 0..n {
            v[j * n + i] = 0.5 * (k[(i, j)] + k[(j, i)]);
        }
    }
    v
}

/// C = β/2 · D − 2K with D_ij = r_i + r_j − 2(PPᵀ)_ij, r_i = ‖P_i‖² (K symmetrised).
fn linear_terms(k: MatRef<'_, f64>, p: MatRef<'_, f64>, beta: f64) -> Mat<f64> {
    let n = k.nrows();
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
    c
}

/// Whether the projected equality-constrained start is worth its cost (one Cholesky
/// factorisation and a solve): without a warm start, or when the warm start is dense
/// (more than n²/8 non-zeros, the regime where the solution has few zeros).
fn newton_worthwhile(warm: Option<MatRef<'_, f64>>) -> bool {
    match warm {
        None => true,
        Some(w) => {
            let n = w.nrows();
            let nnz: usize = (0..w.ncols())
                .map(|j| w.col(j).iter().filter(|&&x| x != 0.0).count())
                .sum();
            nnz * 8 > n * n || is_identity(w)
        }
    }
}

fn is_identity(w: MatRef<'_, f64>) -> bool {
    (0..w.ncols()).all(|j| {
        w.col(j)
            .iter()
            .enumerate()
            .all(|(i, &x)| x == if i == j { 1.0 } else { 0.0 })
    })
}

/// [`solve_z_apg`] without validation, with a precomputed `lam` ≥ λ_max(ΠKΠ); `smo`:
/// finish sparse columns by SMO ([`ZSolver::Auto`]).
pub(crate) fn z_step_apg(
    x: &ZProblem<'_>,
    lam: f64,
    tol: f64,
    max_iter: usize,
    smo: Option<apg::SmoSolvers<'_>>,
) -> Result<ZStep> {
    let (k, warm) = (x.k, x.warm);
    let c = linear_terms(k, x.p, x.beta);
    let kc = symmetric_copy(k);
    let pb = apg::Problem {
        kc: &kc,
        c: c.as_ref(),
        alpha: x.alpha,
        lam,
        tol,
        max_iter,
        newton: newton_worthwhile(warm),
        smo,
    };
    let out = apg::solve(&pb, warm)?;
    Ok(ZStep {
        z: out.z,
        objective: out.objective,
        max_kkt_violation: out.max_kkt_violation,
        pair_updates: out.pair_updates,
        apg_iterations: out.iterations,
        converged: out.converged,
    })
}

/// [`solve_z`] without validation (the caller validated once).
pub(crate) fn z_step_smo(x: &ZProblem<'_>, solver: &CappedSimplexSolver) -> Result<ZStep> {
    let (k, alpha, warm) = (x.k, x.alpha, x.warm);
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
    let c = linear_terms(k, x.p, x.beta);
    let qm = QpMatrix::new(q.as_ref())?;
    let sol = solver.solve_batch(&qm, c.as_ref(), warm)?;
    Ok(ZStep {
        objective: sol.objective.iter().sum(),
        max_kkt_violation: sol.max_kkt_violation(),
        pair_updates: sol.n_iter.iter().sum(),
        apg_iterations: 0,
        converged: sol.all_converged(),
        z: sol.z,
    })
}
